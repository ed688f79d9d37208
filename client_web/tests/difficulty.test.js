// A daily deal's difficulty in words (app/difficulty.js); shown in a real browser by
// tests/web/test_difficulty.py.

import { test } from "node:test";
import assert from "node:assert/strict";

import { difficultyText, gradeOf } from "../app/difficulty.js";

test("a graded deal is said with what it was measured from", () => {
  const difficulty = { grade: "hard", board_wins: 1, tries: 6, line_wins: 4, searches: 6 };
  assert.equal(gradeOf(difficulty), "hard");
  assert.equal(
    difficultyText(difficulty),
    "Difficulty: hard (the hint engine, seeing only the board, won 1 of 6 tries; 4 of 6 solver searches found a win).",
  );
});

test("a deal not graded, or a grade not known, says nothing", () => {
  for (const difficulty of [null, undefined, {}, { grade: "impossible" }, { grade: "<b>hard</b>" }]) {
    assert.equal(gradeOf(difficulty), null);
    assert.equal(difficultyText(difficulty), "");
  }
});
