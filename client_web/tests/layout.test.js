// The board's sizes (app/layout.js): a board never taller than the room it is given (down
// to the smallest card), at ease when it has the room, a garden's rows half covering each
// other before its cards shrink far, and only a garden's rows covered.

import { test } from "node:test";
import assert from "node:assert/strict";

import { CW_MIN, FOLD_GAIN, arrange, cuts, fit, folded, rowsOf } from "../app/layout.js";

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

// Nestor: eight columns of six, the reserve and its four cards and the discard to the right
const nestor = [
  ...Array.from({ length: 8 }, (_, x) => pile(`${x + 1}`, x, 0, 6, "down", "column")),
  pile("reserve", 9, 0, 0, "none", "reserve"),
  ...Array.from({ length: 4 }, (_, i) => pile(`r${i + 1}`, 9 + i, 2, 0, "none", "reserve-card")),
  pile("x", 9, 4, 0, "none", "discard"),
];

test("a wide board folds on a phone, its right-hand part under the rest", () => {
  const plain = fit(rowsOf(nestor), 360, 560);
  const { piles, size, cut } = arrange(nestor, 360, 560);
  assert.ok(cut === 8 || cut === 9, `cut before ${cut}: between the columns and the reserve`);
  assert.ok(size.cw >= plain.cw * FOLD_GAIN, `${size.cw} against ${plain.cw}`);
  assert.ok(size.height <= 560);
  const at = new Map(piles.map((p) => [p.label, p]));
  assert.deepEqual([at.get("reserve")?.x, at.get("reserve")?.y], [0, 2]);
  assert.deepEqual([at.get("r4")?.x, at.get("r4")?.y], [3, 4]);
  assert.deepEqual([at.get("8")?.x, at.get("8")?.y], [7, 0]);
  // a desktop has the room: as the view places it
  assert.equal(arrange(nestor, 1280, 700).cut, null);
  // a board whose drawing reads its places (The Wedge's arrows) is never folded
  assert.equal(arrange(nestor, 360, 560, { fold: false }).cut, null);
});

test("no cut splits a kind of pile: The Gate's posts stay either side of its bars", () => {
  assert.deepEqual(cuts(gate), [6]);
  assert.deepEqual(cuts(garden), []);
});

test("a fold is kept while it is no worse, so a board near the line does not flicker", () => {
  // the room where folding gains less than FOLD_GAIN but still something
  let room = 560;
  while (room > 100) {
    const plain = fit(rowsOf(nestor), 360, room).cw;
    const fold = fit(rowsOf(folded(nestor, 9)), 360, room).cw;
    if (fold >= plain && fold < plain * FOLD_GAIN) break;
    room -= 1;
  }
  assert.ok(room > 100, "a room where the fold gains a little");
  assert.equal(arrange(nestor, 360, room).cut, null);
  assert.equal(arrange(nestor, 360, room, { kept: 9 }).cut, 9);
  assert.equal(arrange(nestor, 360, room, { kept: 4 }).cut, null, "not a cut of these piles");
});

test("one row alone is never covered: Doubles and Quits shrinks, its grid kept", () => {
  // four rows of five, the stock beside the first and the discard beside the third
  const dq = [
    ...Array.from({ length: 20 }, (_, i) => pile(`${i + 1}`, i % 5, Math.floor(i / 5))),
    pile("s", 6, 0, 0, "none", "stock"),
    pile("x", 6, 2, 0, "none", "discard"),
  ];
  for (const room of [300, 400, 500]) {
    const size = fit(rowsOf(dq), 1092, room);
    assert.ok(
      size.rows.every((r) => !r.covered && r.outer),
      `${room}: ${size.stage}`,
    );
    assert.ok(size.height <= room);
  }
  // a garden of three rows and more is still covered before its cards shrink far
  const size = fit(rowsOf(garden), 360, 560);
  assert.ok(size.rows.some((r) => r.covered));
});

// The Blockade at its largest: its foundations and stock, a gap row, then seven rows of
// twelve cells, a run fanned down in each (up to seven cards)
const blockade = [
  ...Array.from({ length: 8 }, (_, x) => pile(`f${x}`, x, 0, 1, "none", "foundation")),
  pile("s", 13, 0, 0, "none", "stock"),
  ...[2, 5, 3, 2, 7, 5, 6].flatMap((run, r) =>
    Array.from({ length: 12 }, (_, x) => pile(`${"abcdefghijkl"[x]}${r + 1}`, x, 2 + r, x === 3 ? run : 1, "down")),
  ),
];

test("a phone on its side has The Blockade's eight rows in its height: labels into the cards, then fans squared", () => {
  // (its board's box at 740x360 is 420x320: the last two rows had been below the window)
  const { size, cut } = arrange(blockade, 420, 320);
  assert.ok(size.height <= 320, `${size.height} (${size.stage})`);
  assert.ok(size.cw >= CW_MIN, `${size.cw}`);
  assert.equal(cut, null);
  // every row's labels in its cards, at the foot of the top card (no row is covered)
  assert.ok(
    size.rows.every((r) => !r.outer && !r.covered && r.foot),
    JSON.stringify(size.rows),
  );
  // a long fan squares more of its middle than at ease, its top card and the first kept
  assert.ok(size.keep < 4 && size.keep >= 1, `${size.keep}`);
  // with the room, labels above the rows, and at a little less, inside but no fan squared further
  assert.ok(arrange(blockade, 420, 900).size.rows.every((r) => r.outer && !r.foot));
  const some = arrange(blockade, 420, 420).size;
  assert.ok(some.rows.every((r) => !r.outer) && some.keep === 4 && some.cw >= CW_MIN, some.stage);
});

test("labels go into the cards only where the cards would be small, and never make them wider than the width", () => {
  for (const [width, room] of [
    [347, 499],
    [340, 300],
    [1000, 300],
  ]) {
    const { size } = arrange(blockade, width, room);
    assert.ok(size.width <= width, `${width}x${room}: ${size.width} wide`);
    assert.ok(size.height <= room || size.cw === CW_MIN, `${width}x${room}: ${size.height}`);
  }
  // cards of 24 px and more keep their labels above them
  for (const size of [fit(rowsOf(garden), 360, 560), fit(rowsOf(gate), 768, 500)])
    assert.ok(size.cw < 24 || size.rows.every((r) => !r.foot), `${size.cw}`);
});

test("a fold is not kept where it only makes the board taller than its room", () => {
  // at the smallest cards the stock folded under the rows is no wider, only taller: kept,
  // it had The Blockade's stock below a window turned on its side
  const { size, cut } = arrange(blockade, 420, 320, { kept: 13 });
  assert.equal(cut, null);
  assert.ok(size.height <= 320);
});
