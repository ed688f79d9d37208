// Where racers stand and how results read (app/ranking.js).

import { test } from "node:test";
import assert from "node:assert/strict";

import {
  beatenText,
  entryText,
  ghostAt,
  hintsText,
  liveOrder,
  ordinal,
  placeCell,
  placeOf,
  placed,
  progressText,
  raceOverText,
  renamedIn,
  resultText,
  shownRating,
  verdictText,
} from "../app/ranking.js";

test("ordinals, the teens included", () => {
  const got = [1, 2, 3, 4, 10, 11, 12, 13, 14, 21, 22, 23, 101, 111, 112, 113].map(ordinal);
  assert.deepEqual(got, [
    "1st",
    "2nd",
    "3rd",
    "4th",
    "10th",
    "11th",
    "12th",
    "13th",
    "14th",
    "21st",
    "22nd",
    "23rd",
    "101st",
    "111th",
    "112th",
    "113th",
  ]);
});

const row = (name, fields) => ({
  name,
  home: 0,
  total: 52,
  moves: 0,
  status: "playing",
  at: null,
  reached: 0,
  ...fields,
});

test("the live order: the won first by time then moves, then most home, who got there first (then level: moves part nobody not won)", () => {
  const rows = [
    row("slow-win", { status: "won", at: 9000, moves: 80, home: 52 }),
    row("fast-win", { status: "won", at: 5000, moves: 99, home: 52 }),
    row("fast-win-fewer", { status: "won", at: 5000, moves: 90, home: 52 }),
    row("forty-late", { home: 40, reached: 7000, moves: 50 }),
    row("forty-early", { home: 40, reached: 3000, moves: 70 }),
    row("fifty", { home: 50, reached: 8000, moves: 10 }),
    row("forty-early-fewer", { home: 40, reached: 3000, moves: 60 }),
  ];
  assert.deepEqual(
    liveOrder(rows).map((r) => r.name),
    ["fast-win-fewer", "fast-win", "slow-win", "fifty", "forty-early", "forty-early-fewer", "forty-late"],
  );
  assert.equal(rows[0].name, "slow-win", "the rows given are left as they were");
});

test("a ghost is ahead of the player when all is level: its game was played first", () => {
  const me = row("me", { home: 12, reached: 4000, moves: 20 });
  const ghost = row("ann", { home: 12, reached: 4000, moves: 20, ghost: true });
  assert.deepEqual(
    liveOrder([me, ghost]).map((r) => r.name),
    ["ann", "me"],
  );
});

test("a lost or resigned racer stands by cards home like one still playing", () => {
  const rows = [
    row("resigned", { status: "resigned", home: 30, reached: 100 }),
    row("playing", { home: 31, reached: 900 }),
  ];
  assert.deepEqual(
    liveOrder(rows).map((r) => r.name),
    ["playing", "resigned"],
  );
});

test("a ghost moves along its points by the time since the start, and ends at its end", () => {
  const ghost = {
    name: "ann",
    total: 52,
    points: [
      [0, 0, 0],
      [1000, 1, 3],
      [2500, 4, 9],
    ],
    end: { at: 4000, status: "won" },
  };
  assert.deepEqual(ghostAt(ghost, 0), { name: "ann", home: 0, total: 52, moves: 0, status: "playing", ghost: true });
  assert.equal(ghostAt(ghost, 999).home, 0);
  assert.deepEqual([ghostAt(ghost, 1000).home, ghostAt(ghost, 1000).moves], [1, 3]);
  assert.equal(ghostAt(ghost, 3999).status, "playing");
  assert.deepEqual([ghostAt(ghost, 4000).status, ghostAt(ghost, 4000).home], ["won", 4]);
  assert.equal(ghostAt({ name: "bob", total: 52 }, 5000).home, 0, "no points: at the start");
  assert.equal(ghostAt({ name: "bob", total: 52, points: [], end: null }, 5000).status, "playing");
});

test("results as lines", () => {
  assert.equal(
    resultText({ status: "won", time_ms: 98000, home: 52, total: 52, moves: 96 }),
    "won in 1:38.0 · 96 moves",
  );
  assert.equal(
    resultText({ status: "lost", time_ms: 5000, home: 40, total: 52, moves: 1 }),
    "lost, 40/52 home · 1 move",
  );
  assert.equal(resultText(null), "");
  // Nestor and Doubles and Quits take cards off in pairs: their results count pairs
  assert.equal(
    resultText({ status: "resigned", home: 4, total: 52, moves: 2 }, "pairs"),
    "resigned, 2/26 pairs off · 2 moves",
  );
  assert.equal(
    resultText({ status: "won", time_ms: 9000, home: 52, total: 52, moves: 26 }, "pairs"),
    "won in 0:09.0 · 26 moves",
  );
  assert.equal(beatenText(5, 8), "You beat 5 of 8 ghosts.");
  assert.equal(beatenText(1, 1), "You beat the ghost."); // ("You beat all 1 ghost.", before)
  assert.equal(beatenText(0, 1), "You beat 0 of 1 ghost.");
  assert.equal(beatenText(0, 0), "No ghosts raced: nobody else had finished today's deal.");
});

test("a verdict decided by fewer moves says so (moves part only two who won in the same time)", () => {
  assert.equal(
    verdictText({ beat: true, by_ms: 0, by_cards: 0, by_moves: 1 }, "ann"),
    "The same time as ann's ghost: you took fewer moves.",
  );
});

test("a verdict by time says it to the tenth (two times shown to the second seemed a second off it)", () => {
  // 1:45.4 against 1:11.9, shown as 1:45 and 1:11: "by 0:33" read as a second short
  assert.equal(verdictText({ beat: false, by_ms: 33_500, by_cards: 0 }, "ann"), "ann's ghost beat you by 33.5 s.");
  assert.equal(verdictText({ beat: true, by_ms: 62_340, by_cards: 0 }, "ann"), "You beat ann's ghost by 1:02.3.");
  assert.equal(verdictText({ beat: true, by_ms: 400, by_cards: 0 }, "ann"), "You beat ann's ghost by 0.4 s.");
});

test("a challenge's verdict in a game of pairs counts pairs", () => {
  assert.equal(
    verdictText({ beat: false, by_ms: null, by_cards: 6 }, "ann", "pairs"),
    "ann's ghost beat you by 3 pairs off.",
  );
  assert.equal(
    verdictText({ beat: true, by_ms: null, by_cards: 2 }, "ann", "pairs"),
    "You beat ann's ghost by 1 pair off.",
  );
  assert.equal(
    verdictText({ beat: true, by_ms: null, by_cards: 0 }, "ann", "pairs"),
    "You beat ann's ghost: as many pairs off, and you got there first.",
  );
  assert.equal(
    verdictText({ beat: false, tied: true, by_ms: null, by_cards: 0 }, "ann", "pairs"),
    "A tie with ann's ghost: as many pairs off, as soon.",
  );
});

test("a challenge's verdict, by time or by cards home", () => {
  assert.equal(verdictText({ beat: true, by_ms: 12000 }, "ann"), "You beat ann's ghost by 12.0 s.");
  assert.equal(verdictText({ beat: false, by_ms: 400 }, "ann"), "ann's ghost beat you by 0.4 s.");
  assert.equal(
    verdictText({ beat: false, by_ms: null, by_cards: 51 }, "ann"),
    "ann's ghost beat you by 51 cards home.",
  );
  assert.equal(verdictText({ beat: true, by_cards: 1 }, "ann"), "You beat ann's ghost by 1 card home.");
  assert.equal(
    verdictText({ beat: false, by_ms: null, by_cards: 0 }, "ann"),
    "ann's ghost beat you: as many cards home, and the ghost got there first.",
  );
  // did just the same: a tie (the table's one place), whoever took the challenge first
  assert.equal(
    verdictText({ beat: false, tied: true, by_ms: null, by_cards: 0 }, "ann"),
    "A tie with ann's ghost: as many cards home, as soon.",
  );
  assert.equal(
    verdictText({ beat: false, tied: true, by_ms: 0, by_cards: 0 }, "ann"),
    "A tie with ann's ghost: the same time, in as many moves.",
  );
});

test("a place shared by entries parted only by who came first reads =2 and joint 2nd", () => {
  const table = [
    { player: "cy", rank: 1, place: 1 },
    { player: "ann", rank: 2, place: 2 },
    { player: "bob", rank: 3, place: 2 },
    { player: "dee", rank: 4, place: 4 },
  ];
  assert.deepEqual(
    table.map((e) => placeCell(e, table)),
    ["1", "=2", "=2", "4"],
  );
  assert.deepEqual(
    table.map((e) => placed(e, table)),
    ["1st", "joint 2nd", "joint 2nd", "4th"],
  );
  // a server that sends no place: the rank, never shared
  const old = [{ rank: 1 }, { rank: 2 }];
  assert.deepEqual(
    old.map((e) => [placeOf(e), placeCell(e, old)]),
    [
      [1, "1"],
      [2, "2"],
    ],
  );
});

test("a board's result not won: cards home, or pairs where cards come off in pairs", () => {
  // (Nestor's daily board said 0/52 where its game said 0/26 pairs off)
  assert.equal(progressText({ home: 30, total: 52 }, "cards"), "30/52");
  assert.equal(progressText({ home: 30, total: 52 }, undefined), "30/52");
  assert.equal(progressText({ home: 30, total: 52 }, "pairs"), "15/26 pairs");
});

test("a replay's entries and hints in words", () => {
  assert.deepEqual(["b4>t3", "!hint", "!undo", "!resign", "!timeout", "toString"].map(entryText), [
    "b4>t3",
    "hint",
    "undo",
    "resign",
    "time up",
    "toString",
  ]);
  assert.deepEqual(
    [hintsText({ hints: 6 }), hintsText({ hints: 1 }), hintsText({ hints: 0 }), hintsText({})],
    [" · 6 hints", " · 1 hint", "", ""],
  );
});

test("a race's results in a line: the racer's place, level with whom; a watcher's, who came first", () => {
  const results = [
    { player: "ann", rank: 1, place: 1 },
    { player: "bob", rank: 2, place: 1 },
    { player: "cy", rank: 3, place: 3 },
  ];
  assert.equal(raceOverText(results, "cy"), "Race over: you came 3rd of 3.");
  assert.equal(raceOverText(results, "bob"), "Race over: you came joint 1st of 3, level with ann.");
  assert.equal(raceOverText(results, "eve"), "Race over: ann and bob came joint 1st of 3.");
  assert.equal(raceOverText(results.slice(1), "eve"), "Race over: bob came 1st of 2.");
  // three or more level, listed as a sentence lists them
  const four = ["cat", "bob", "eve", "al"].map((player, n) => ({ player, rank: n + 1, place: 1 }));
  assert.equal(raceOverText(four, null), "Race over: cat, bob, eve and al came joint 1st of 4.");
  assert.equal(raceOverText(four, "eve"), "Race over: you came joint 1st of 4, level with cat, bob and al.");
  assert.equal(raceOverText([], "eve"), "Race over.");
});

test("a racer's new name is told apart from one leaving and another joining", () => {
  assert.deepEqual(renamedIn(["ann", "catD"], ["ann", "catty"]), ["catD", "catty"]);
  assert.equal(renamedIn(["ann", "catD"], ["ann"]), null); // left
  assert.equal(renamedIn(["ann"], ["ann", "cat"]), null); // joined
  assert.equal(renamedIn(["ann", "bob"], ["bob", "ann"]), null); // (no name new)
  assert.equal(renamedIn(["ann", "bob"], ["al", "bo"]), null); // (two at once: not a rename)
});

test("the quick race's wait says the rating as every table shows it", () => {
  // (-2.504 sent as -2.5 to two decimals, rounded again: -2, where the profile says -3)
  assert.equal(shownRating({ rating: -2.5, rating_shown: -3 }), -3);
  assert.equal(shownRating({ rating: 4.44 }), 4); // (a server before rating_shown)
});
