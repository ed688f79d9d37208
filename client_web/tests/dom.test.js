// The texts dom.js makes (app/dom.js's elements need a page: the browser tests have them).

import { test } from "node:test";
import assert from "node:assert/strict";

import { clock, count, finishTime } from "../app/dom.js";

test("a clock: minutes and seconds, hours once past an hour, never negative", () => {
  assert.equal(clock(0), "0:00");
  assert.equal(clock(7999), "0:07");
  assert.equal(clock(754000), "12:34");
  assert.equal(clock(3600000), "1:00:00");
  assert.equal(clock(3723000), "1:02:03");
  assert.equal(clock(-5000), "0:00");
});

test("a count with its word", () => {
  assert.deepEqual([count(0, "move"), count(1, "move"), count(2, "card")], ["0 moves", "1 move", "2 cards"]);
});

test("a finish time to the tenth, as boards and results rank them", () => {
  assert.equal(finishTime(83456), "1:23.4");
  assert.equal(finishTime(83999), "1:23.9");
  assert.equal(finishTime(3723050), "1:02:03.0");
  assert.equal(finishTime(-5), "0:00.0");
});
