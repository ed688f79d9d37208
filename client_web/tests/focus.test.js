// The arrow keys' way between piles (app/focus.js): the nearest pile that way.

import { test } from "node:test";
import assert from "node:assert/strict";

import { nearestInDirection } from "../app/focus.js";

/** a pile 50 wide and 80 high at column `c`, row `r` of a grid of 60 by 100 */
const at = (c, r) => ({ left: c * 60, top: r * 100, width: 50, height: 80 });

test("an arrow goes to the nearest pile that way, the one beside before one further off the line", () => {
  const piles = [at(0, 0), at(1, 0), at(2, 0), at(0, 1), at(1, 1), at(3, 2)];
  assert.equal(nearestInDirection(at(0, 0), piles, "ArrowRight"), 1);
  assert.equal(nearestInDirection(at(1, 0), piles, "ArrowLeft"), 0);
  assert.equal(nearestInDirection(at(1, 0), piles, "ArrowDown"), 4);
  assert.equal(nearestInDirection(at(1, 1), piles, "ArrowUp"), 1);
  // from the row's end, right: not the pile two rows down (more down than right)
  assert.equal(nearestInDirection(at(2, 0), piles, "ArrowRight"), -1);
  // but one further right than down, none level with it
  const off = { left: 300, top: 100, width: 50, height: 80 };
  assert.equal(nearestInDirection(at(2, 0), [...piles, off], "ArrowRight"), 6);
  assert.equal(nearestInDirection(at(0, 0), piles, "ArrowLeft"), -1); // nothing that way
  assert.equal(nearestInDirection(at(0, 0), piles, "Enter"), -1); // not an arrow
});

test("down is the pile under it, not a longer fan beside it whose centre is lower", () => {
  const fan = { left: 60, top: 0, width: 50, height: 300 }; // a2, fanned down past a3
  const piles = [at(0, 0), fan, at(2, 0), at(2, 4), at(1, 4)];
  assert.equal(nearestInDirection(at(2, 0), piles, "ArrowDown"), 3);
  assert.equal(nearestInDirection(at(2, 4), piles, "ArrowUp"), 2);
  // none under at(0, 0): the nearest more down than across, the fan
  assert.equal(nearestInDirection(at(0, 0), piles, "ArrowDown"), 1);
  // sideways by the row: the fan is beside at(2, 0), and at(1, 4) is beside at(2, 4)
  assert.equal(nearestInDirection(at(2, 0), piles, "ArrowLeft"), 1);
  assert.equal(nearestInDirection(at(2, 4), piles, "ArrowLeft"), 4);
  assert.equal(nearestInDirection(at(1, 4), piles, "ArrowLeft"), -1);
});
