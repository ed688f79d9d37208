// The league's words (app/league.js): the time to the week's end and the summary line.

import { test } from "node:test";
import assert from "node:assert/strict";

import { columns, leagueLine, movesText, summary, timeLeft } from "../app/league.js";

test("the time left to the week's end", () => {
  const got = [93_600_000, 3_600_000, 18_720_000, 720_000, 59_999].map(timeLeft);
  // (26 s left had read "0m")
  assert.deepEqual(got, ["1d 2h", "1h 0m", "5h 12m", "12m", "under a minute"]);
  assert.equal(timeLeft(26_000), "under a minute");
});

test("the summary of one's league, joined or not, open or closed", () => {
  const e = { joined: true, tier: "gold", rank: 12, players: 30, points: 41, current: true, ends_in_ms: 720_000 };
  assert.equal(summary(e), "Gold · 12th of 30 · 41 points · ends in 12m");
  assert.equal(summary({ ...e, rank: 22, closed: true }), "Gold · 22nd of 30 · 41 points · closed");
  assert.equal(summary({ ...e, current: false }), "Gold · 12th of 30 · 41 points · closing");
  assert.equal(summary({ joined: false, tier: "bronze", current: true }), "Not joined: you would race in Bronze");
  // a week gone by is not one to join
  assert.equal(summary({ joined: false, tier: "bronze", current: false }), "You did not race in this week's league");
});

test("the line under the heading leaves out what is not there", () => {
  // (a player not in a league had "2026-W48 · · Not joined: ...")
  const e = { week: "2026-W48", league: "", joined: false, tier: "bronze", current: true };
  assert.equal(leagueLine(e), "2026-W48 · Not joined: you would race in Bronze");
  assert.equal(
    leagueLine({ ...e, league: "gold-3", joined: true, tier: "gold", rank: 1, players: 2, points: 5, closed: true }),
    "2026-W48 · league 3 · Gold · 1st of 2 · 5 points · closed", // (not the server's id, "gold-3")
  );
});

test("who moves at the week's end, in a league of its size", () => {
  assert.equal(movesText(5, 5), "At the week's end the top 5 (▲) move up a tier, the bottom 5 (▼) down.");
  assert.equal(
    movesText(2, 5),
    "At the week's end the top 2 (▲) move up a tier, the bottom 2 (▼) down (a third of a league of fewer than 15 players).",
  );
  assert.equal(movesText(0, 5), "At the week's end nobody moves: a league of fewer than 3 players stays as it is.");
  assert.equal(movesText(undefined, 5), "At the week's end the top 5 (▲) move up a tier, the bottom 5 (▼) down.");
});

test("nobody moves down from the lowest tier, nor up from the highest", () => {
  const tiers = ["bronze", "silver", "gold", "platinum", "diamond"];
  assert.equal(
    movesText(1, 5, "bronze", tiers),
    "At the week's end the top 1 (▲) move up a tier (a third of a league of fewer than 15 players); nobody moves down from Bronze, the lowest.",
  );
  assert.equal(
    movesText(5, 5, "diamond", tiers),
    "At the week's end the bottom 5 (▼) move down a tier; nobody moves up from Diamond, the highest.",
  );
  assert.equal(
    movesText(5, 5, "gold", tiers),
    "At the week's end the top 5 (▲) move up a tier, the bottom 5 (▼) down.",
  );
});

test("a week over has no today column", () => {
  assert.deepEqual(columns(true), ["#", "player", "pts", "wins", "today", ""]);
  assert.deepEqual(columns(false), ["#", "player", "pts", "wins", ""]);
});

test("a closed week is told as done", () => {
  // (it said "move up" of those who had moved)
  assert.equal(
    movesText(2, 5, "silver", [], true),
    "At the week's end the top 2 (▲) moved up a tier, the bottom 2 (▼) down (a third of a league of fewer than 15 players).",
  );
  assert.equal(
    movesText(0, 5, "", [], true),
    "At the week's end nobody moved: a league of fewer than 3 players stayed as it was.",
  );
});

test("last week told to one who has not joined this week: where they came and where they went", async () => {
  const { lastWeekLine } = await import("../app/league.js");
  const last = { week: "2026-W49", joined: true, closed: true, tier: "bronze", rank: 1, players: 3, zone: "up" };
  assert.equal(lastWeekLine(last, { tier: "silver" }), "Last week, 2026-W49: 1st of 3 in Bronze, moved up to Silver.");
  assert.equal(
    lastWeekLine({ ...last, zone: "down", tier: "gold", rank: 28, players: 30 }, { tier: "silver" }),
    "Last week, 2026-W49: 28th of 30 in Gold, moved down to Silver.",
  );
  assert.equal(
    lastWeekLine({ ...last, zone: "stay", rank: 2 }, { tier: "bronze" }),
    "Last week, 2026-W49: 2nd of 3 in Bronze, stayed in Bronze.",
  );
  assert.equal(lastWeekLine({ ...last, joined: false }, { tier: "bronze" }), null);
  assert.equal(lastWeekLine({ ...last, closed: false }, { tier: "silver" }), null);
});
