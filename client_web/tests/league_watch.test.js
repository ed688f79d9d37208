// This week's league watched across the week's end and its close (app/league_watch.js).

import { test } from "node:test";
import assert from "node:assert/strict";

import { WEEK_MS, Watched, atEnd, inClosingWindow, isoWeek, previousWeek, wordsChangeIn } from "../app/league_watch.js";

const week = {
  week: "2026-W48",
  joined: true,
  current: true,
  closed: false,
  ends_in_ms: 60_000,
  standings: [{ rank: 1, name: "ann", points: 2, today: 2, you: true }],
};
const fresh = {
  week: "2026-W49",
  joined: false,
  current: true,
  closed: false,
  ends_in_ms: WEEK_MS - 400_000,
  standings: [],
};

test("the week before", () => {
  assert.deepEqual(["2026-W01", "2026-W48", "2027-W01", "2021-W01"].map(previousWeek), [
    "2025-W52",
    "2026-W47",
    "2026-W53",
    "2020-W53",
  ]);
});

test("the week's first minutes, while last week's leagues are being closed", () => {
  assert.equal(inClosingWindow({ current: true, ends_in_ms: WEEK_MS - 60_000 }), true);
  assert.equal(inClosingWindow({ current: true, ends_in_ms: WEEK_MS - 6 * 60_000 }), false);
  assert.equal(inClosingWindow({ current: false, ends_in_ms: 0 }), false);
});

test("the week's end, by the clock if nothing is pushed: no time left, no today", () => {
  const w = new Watched(week, 0);
  assert.equal(w.tick(59_000), false);
  assert.equal(w.tick(60_000), true);
  assert.equal(w.now.current, false);
  assert.equal(w.now.standings[0].today, 0);
  assert.deepEqual(atEnd(week).ends_in_ms, 0);
  // its close asked about when due, if not pushed
  assert.equal(w.beingClosed(60_000), "2026-W48");
  assert.equal(w.wake(60_000), 5 * 60_000);
});

test("pushed: the end, then the close, and the new week watched with the result kept", () => {
  const w = new Watched(week, 0);
  assert.equal(w.heard({ ...week, current: false, ends_in_ms: 0 }, 1000), false);
  assert.equal(w.heard({ ...week, current: false, ends_in_ms: 0, closed: true }, 2000), true);
  assert.equal(w.rewatched(fresh, 2000), null);
  assert.equal(w.last && w.last.closed, true);
  assert.equal(w.closing(2000), false); // (last week heard closed: the join is offered)
  w.heard({ ...fresh, joined: true }, 3000); // joined elsewhere: the new league alone
  assert.equal(w.last, null);
});

test("a watcher not joined: the join made elsewhere shows", () => {
  const w = new Watched({ ...week, joined: false, standings: [] }, 0);
  assert.equal(w.heard(week, 10), false);
  assert.equal(w.now.joined, true);
});

test("back after a restart across the close: the week watched asked for, shown first", () => {
  const w = new Watched(week, 0);
  assert.equal(w.rewatched(fresh, 400_000), "2026-W48");
  w.heard({ ...week, current: false, ends_in_ms: 0 }, 400_100);
  assert.equal(w.last && w.last.week, "2026-W48");
  assert.equal(w.closing(400_100), true); // (not closed yet: no join offered)
  assert.equal(w.beingClosed(400_100), "2026-W48");
});

test("this ISO week, by the server's clock", () => {
  const at = (/** @type {string} */ iso) => isoWeek(Date.parse(iso));
  assert.equal(at("2026-12-07T00:00:00Z"), "2026-W50"); // a Monday's first moment
  assert.equal(at("2026-12-06T23:59:59.999Z"), "2026-W49"); // the Sunday before
  assert.equal(at("2027-01-01T12:00:00Z"), "2026-W53");
  assert.equal(at("2021-01-03T12:00:00Z"), "2020-W53");
  assert.equal(at("2024-12-30T00:00:00Z"), "2025-W01");
});

test("the time left is counted down as its words change", () => {
  // (the standings read "ends in 2m" with under a minute left: drawn once, as the reply said)
  assert.equal(wordsChangeIn(169_000), 49_050); // 2m49s: "2m" until just past 2m
  assert.equal(wordsChangeIn(61_000), 1_050);
  assert.equal(wordsChangeIn(42_000), 42_000); // "under a minute" until the end: "closing"
  assert.equal(wordsChangeIn(86_400_000 + 90_000), 90_050); // "1d 0h" until the hour below
  assert.equal(wordsChangeIn(3 * 3_600_000 + 30_000), 30_050); // "3h 0m" each minute
  const w = new Watched(week, 1000);
  assert.equal(w.shown(31_000).ends_in_ms, 30_000);
  assert.equal(w.shown(90_000).ends_in_ms, 0);
});
