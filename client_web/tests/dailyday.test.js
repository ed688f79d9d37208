// The daily across its day's reset (app/dailyday.js): the reset's time, the result's
// heading once the day is over, and a daily seed read whole.

import { test } from "node:test";
import assert from "node:assert/strict";

import { dayEndMs, resultHeading, seedOf } from "../app/dailyday.js";

test("a day ends at the next 00:00 UTC", () => {
  assert.equal(dayEndMs("2026-12-01"), Date.parse("2026-12-02T00:00:00Z"));
  assert.equal(dayEndMs("2026-12-31"), Date.parse("2027-01-01T00:00:00Z"));
  assert.equal(dayEndMs("2028-02-28"), Date.parse("2028-02-29T00:00:00Z"));
  assert.equal(dayEndMs("soon"), null);
  assert.equal(dayEndMs(undefined), null);
});

test("the result's heading: its end in words, and no 'so far' once the day is over", () => {
  const resigned = { status: "resigned", rank: 2 };
  assert.equal(resultHeading(resigned, false), "Daily resigned: rank 2 on the day's board so far");
  assert.equal(resultHeading(resigned, true), "Daily resigned: rank 2 on the day's board as you finished");
  // the reset's end: "time ran out", as the terminal says, never the raw "timeout"
  const timeout = { status: "timeout", rank: 1 };
  for (const over of [false, true]) {
    const said = resultHeading(timeout, over);
    assert.equal(said, "Time ran out at 00:00 UTC: rank 1 on the day's board");
    assert.doesNotMatch(said, /timeout|so far/);
  }
  assert.equal(
    resultHeading({ status: "won", rank: null, review: { state: "held" } }, false),
    "Daily won: held for review",
  );
});

test("a daily's seed is read whole from the replay's JSON (past 2^53)", () => {
  const text =
    '{"id": "9b7b1b5451684664", "game": "gate", "rules_version": 2, "seed": 18446744073709551557, "kind": "daily"}';
  assert.equal(seedOf(text), 18446744073709551557n);
  assert.notEqual(BigInt(JSON.parse(text).seed), 18446744073709551557n); // (what JSON.parse makes of it)
  assert.equal(seedOf('{"seed": null}'), null);
});
