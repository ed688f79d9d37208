// The home screen's marks on each game's daily (app/dailymarks.js); shown in a real
// browser by tests/web/test_daily_marks.py.

import { test } from "node:test";
import assert from "node:assert/strict";

import { dailyMark } from "../app/dailymarks.js";

test("a daily done or under way is marked; one not taken up, or an error, is not", () => {
  assert.equal(dailyMark({ type: "daily_status", ranked_attempt: "ended" }), "Today's daily: done");
  assert.equal(
    dailyMark({ type: "daily_status", ranked_attempt: "playing" }),
    "Today's daily: under way, its clock running",
  );
  assert.equal(dailyMark({ type: "daily_status", ranked_attempt: "pending" }), "");
  assert.equal(dailyMark({ type: "daily_status", ranked_attempt: "toString" }), "");
  assert.equal(dailyMark({ type: "error", ranked_attempt: "ended" }), "");
  assert.equal(dailyMark(undefined), "");
});
