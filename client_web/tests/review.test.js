// A finished game's review in words (app/review.js).

import { test } from "node:test";
import assert from "node:assert/strict";

import { LINE_FOLD, LINE_PREVIEW, linePreview, reviewLines } from "../app/review.js";

test("a lost game: the move that lost it, the move that kept the win, its line", () => {
  const got = reviewLines({
    found: "lost_at",
    move: 6,
    played: "1+7",
    better: "1+5",
    continuation: ["1+5", "2+8"],
    lost_by: 6,
  });
  assert.equal(got.title, "Where the game was lost");
  assert.deepEqual(got.lines, [
    "Until move 6 a player who knew the face-down cards could still have won: you played 1+7 there, and from then on no win was left.",
    "Playing 1+5 there would have kept the win. A line that wins from there (checked by the rules engine):",
  ]);
  assert.deepEqual(got.line, ["1+5", "2+8"]);
});

test("what the review could not decide is said so", () => {
  const between = reviewLines({ found: "between", move: 3, played: "deal", better: "w>t1", lost_by: null });
  assert.match(between.lines[0], /could not be decided in time\. Between them the review could not decide/);
  assert.deepEqual(reviewLines({ found: "undecided" }).lines, [
    "The review could not decide, in its time, where a win was still possible.",
  ]);
  assert.match(reviewLines({ found: "deal_lost" }).lines[0], /nothing you did lost it/);
});

test("a won game: over, under or on par, and the longest detour", () => {
  const over = reviewLines({
    found: "over_par",
    moves: 112,
    par: 108,
    over: 4,
    par_from: "book",
    detour: { from: 30, moves: 2 },
  });
  assert.equal(over.title, "How far over par");
  assert.deepEqual(over.lines, [
    "Won in 112 moves: 4 over par (108, the day's book line).",
    "The longest detour: moves 30 to 31 came back to where they began.",
  ]);
  const under = reviewLines({ found: "over_par", moves: 100, par: 104, over: -4, par_from: "found", shortest: false });
  assert.deepEqual(under.lines, [
    "Won in 100 moves: 4 under par (104, the shortest line the review found in its time, not proved).",
  ]);
  const on = reviewLines({ found: "over_par", moves: 26, par: 26, over: 0, par_from: "found", shortest: true });
  assert.deepEqual(on.lines, ["Won in 26 moves: on par (26, proved the shortest)."]);
});

test("a long winning line is folded to its start; a short one is shown whole", () => {
  const short = Array.from({ length: LINE_FOLD }, (_, n) => `m${n}`);
  assert.equal(linePreview(short), null);
  const long = Array.from({ length: 300 }, (_, n) => `m${n}`);
  const folded = linePreview(long);
  assert.ok(folded);
  assert.equal(folded.start, `${long.slice(0, LINE_PREVIEW).join(" ")} …`);
  assert.equal(folded.more, "all 300 moves");
});

test("a game left winnable after one move says move, not moves", () => {
  assert.equal(
    reviewLines({ found: "still_winnable", moves: 1 }).lines[0],
    "The game ended in a position a player who knew the face-down cards could still win (after 1 move).",
  );
});

test("a game resigned before its first move says so, not 'after 0 moves'", () => {
  assert.equal(
    reviewLines({ found: "still_winnable", moves: 0 }).lines[0],
    "The game was resigned before its first move: a player who knew the face-down cards could win this deal.",
  );
});

test("a game the clock ended before its first move says so, not that it was resigned", () => {
  assert.equal(
    reviewLines({ found: "still_winnable", moves: 0, status: "timeout" }).lines[0],
    "Time ran out before the game's first move: a player who knew the face-down cards could win this deal.",
  );
});
