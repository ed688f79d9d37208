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
  // from the row's end, right: the pile down and to the right, none level with it
  assert.equal(nearestInDirection(at(2, 0), piles, "ArrowRight"), 5);
  assert.equal(nearestInDirection(at(0, 0), piles, "ArrowLeft"), -1); // nothing that way
  assert.equal(nearestInDirection(at(0, 0), piles, "Enter"), -1); // not an arrow
});
