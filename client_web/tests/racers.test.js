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
