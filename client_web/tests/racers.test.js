// How a racer's game is said to have ended, in the bars and the results table
// (app/racers.js).

import { test } from "node:test";
import assert from "node:assert/strict";

import { endedText } from "../app/racers.js";

test("a racer's end: nothing while playing, left said, and a forfeit not taken for giving up", () => {
  assert.equal(endedText({ name: "ann", status: "playing" }), "");
  assert.equal(endedText({ name: "ann", status: "resigned" }), "resigned");
  assert.equal(endedText({ name: "bob", status: "resigned", left: true }), "resigned, left");
  assert.equal(endedText({ name: "bob", left: true }), "left");
  // the server resigned cat, away too long: the bar and the table said "resigned" alone
  assert.equal(endedText({ name: "cat", status: "resigned", forfeited: true }), "resigned, away too long");
  assert.equal(endedText({ name: "cat", status: "playing", forfeited: true }), "");
});

test("the standings said: most cards home first, you named, pairs where the game plays pairs", async () => {
  const { standingsSaid } = await import("../app/racers.js");
  const rows = [
    { name: "ann", home: 12, total: 52, moves: 20 },
    { name: "bob", home: 30, total: 52, moves: 41, status: "won" },
    { name: "cat", home: 4, total: 52, moves: 1, ghost: true },
  ];
  assert.equal(
    standingsSaid(rows, "ann"),
    "Standings: bob, 30 of 52 cards home, 41 moves, won; you (ann), 12 of 52 cards home, 20 moves; " +
      "cat's ghost, 4 of 52 cards home, 1 move.",
  );
  assert.equal(
    standingsSaid([{ name: "ann", home: 6, total: 52 }], "bob", "pairs"),
    "Standings: ann, 3 of 26 pairs off, 0 moves.",
  );
  assert.equal(standingsSaid([], "ann"), "No racers yet.");
});
