// The board's sizes (app/layout.js): a board never taller than the room it is given (down
// to the smallest card), at ease when it has the room, a garden's rows half covering each
// other before its cards shrink far, and only a garden's rows covered.

import { test } from "node:test";
import assert from "node:assert/strict";

import { CW_MIN, fit, rowsOf } from "../app/layout.js";

/** a pile as the view gives it */
const pile = (label, x, y, cards = 1, fan = "none", kind = "cell") => ({
  label,
  kind,
  x,
  y,
  fan,
  cards: Array.from({ length: cards }, () => "AS"),
  down: 0,
});

// Babette late: foundations, a gap row, thirteen rows of eight
const garden = [
  ...Array.from({ length: 8 }, (_, x) => pile(`f${x}`, x, 0, 0, "none", "foundation")),
  ...Array.from({ length: 13 * 8 }, (_, i) => pile(`c${i}`, i % 8, 2 + Math.floor(i / 8))),
];
// The Gate with its longest bars: foundations over part of the row of fans
const gate = [
  ...Array.from({ length: 4 }, (_, i) => pile(`f${i}`, 6 + i, 0, 1, "none", "foundation")),
  ...Array.from({ length: 6 }, (_, x) => pile(`t${x}`, x, 1, 12, "down", "bar")),
  pile("s", 6, 1),
  pile("w", 7, 1),
  ...Array.from({ length: 4 }, (_, i) => pile(`b${i}`, 1 + i, 4, 12, "down", "bar")),
];

test("a board is never taller than its room, nor its cards under the smallest", () => {
  for (const piles of [garden, gate]) {
    for (const width of [360, 768, 1100]) {
      for (let room = 120; room <= 1200; room += 37) {
        const size = fit(rowsOf(piles), width, room);
        assert.ok(size.cw >= CW_MIN);
        if (size.cw > CW_MIN) assert.ok(size.height <= room, `${width}x${room}: ${size.height} (${size.stage})`);
        assert.ok(size.width <= width, `${width}: ${size.width} wide`);
      }
    }
  }
});

test("with the room, a board is at ease: its cards as wide as the width allows", () => {
  const size = fit(rowsOf(gate), 1100, Infinity);
  assert.equal(size.stage, "at ease");
  assert.equal(size.cw, 96);
  assert.ok(size.rows.every((r) => r.outer));
});

test("a garden's rows half cover each other before the cards shrink", () => {
  const size = fit(rowsOf(garden), 360, 560);
  assert.notEqual(size.stage, "shrunk");
  assert.ok(size.cw >= 36, `${size.cw}`);
  // the first garden row has its labels above it; the rows it covers, in their corners
  assert.deepEqual(
    size.rows.slice(0, 4).map((r) => r.outer),
    [true, true, true, false],
  );
});

test("only a garden's rows are covered: The Gate's foundations keep their room", () => {
  const size = fit(rowsOf(gate), 768, 500);
  assert.ok(size.rows.every((r) => r.outer));
  assert.ok(size.rows[1].top >= size.label + size.ch, "the fans' row starts below the foundations");
});
