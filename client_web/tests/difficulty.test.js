// A daily deal's difficulty in words (app/difficulty.js); shown in a real browser by
// tests/web/test_difficulty.py.

import { test } from "node:test";
import assert from "node:assert/strict";

import { difficultyText, gradeOf } from "../app/difficulty.js";

test("a graded deal is said with what it was measured from", () => {
  const difficulty = { grade: "hard", board_wins: 1, tries: 6, line_wins: 4, searches: 6, home_pct: 44 };
  assert.equal(gradeOf(difficulty), "hard");
  assert.equal(
    difficultyText(difficulty),
    "Difficulty: hard for this game (the hint engine, seeing only the board, won 1 of 6 tries, " +
      "44% of the cards home on average; 4 of 6 short solver searches found a win).",
  );
});

test("a deal no try won says how far the tries got; one every try won, nothing more", () => {
  // graded easy in its game though nothing won it (Light and Shade): the cards home say why
  const easy = { grade: "easy", board_wins: 0, tries: 6, line_wins: 0, searches: 6, home_pct: 31 };
  assert.equal(
    difficultyText(easy),
    "Difficulty: easy for this game (the hint engine, seeing only the board, won 0 of 6 tries, " +
      "31% of the cards home on average; 0 of 6 short solver searches found a win).",
  );
  assert.equal(
    difficultyText({ ...easy, board_wins: 6, home_pct: 100 }),
    "Difficulty: easy for this game (the hint engine, seeing only the board, won 6 of 6 tries; " +
      "0 of 6 short solver searches found a win).",
  );
  // from a server that sent none, or nonsense: nothing said of it
  for (const home_pct of [undefined, null, -1, 101, 4.5, "31"]) {
    assert.doesNotMatch(difficultyText({ ...easy, home_pct }), /cards home/);
  }
});

test("a deal not graded, or a grade not known, says nothing", () => {
  for (const difficulty of [null, undefined, {}, { grade: "impossible" }, { grade: "<b>hard</b>" }]) {
    assert.equal(gradeOf(difficulty), null);
    assert.equal(difficultyText(difficulty), "");
  }
});

test("in a game whose cards come off in pairs, they are paired off, not home", () => {
  const difficulty = { grade: "hard", board_wins: 1, tries: 6, line_wins: 4, searches: 6, home_pct: 46 };
  assert.match(difficultyText(difficulty, "pairs"), /, 46% of the cards paired off on average;/);
  assert.match(difficultyText(difficulty), /, 46% of the cards home on average;/);
});
