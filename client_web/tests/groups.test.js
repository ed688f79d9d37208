// A group's screen's pure parts (app/groups.js): the boards it offers, an entry's result
// in words by the board's kind, and what a group's id may be.

import { test } from "node:test";
import assert from "node:assert/strict";

import {
  GROUP_ID,
  boardChoices,
  defaultBoard,
  entryWords,
  goneText,
  joinRefused,
  leftText,
  picker,
  resultText,
} from "../app/groups.js";

test("every game's day, week, best, wins and rating boards, after the races", () => {
  // (the terminal's `top rating/GAME --group` had a group's rating board; the page had none)
  const choices = boardChoices([{ id: "gate", name: "The Gate" }]);
  assert.deepEqual(
    choices.map(([board]) => board),
    ["races/week", "races/all", "daily/gate", "week/gate", "best/gate", "wins/gate", "rating/gate"],
  );
  assert.equal(choices[3][1], "The Gate: this week's dailies");
  assert.equal(choices[6][1], "The Gate: ratings");
});

test("an entry's result, by its board's kind", () => {
  assert.equal(resultText({ wins: 2, played: 3, time_ms: 201_344 }, "week"), "2 won of 3 · 3:21.3");
  assert.equal(resultText({ wins: 0, played: 1, time_ms: 0 }, "week"), "1 played");
  assert.equal(resultText({ count: 4 }, "races"), "4");
  assert.equal(resultText({ rating: 27, races: 12 }, "rating"), "27 · 12 races");
  assert.equal(resultText({ rating: -2, races: 1 }, "rating"), "-2 · 1 race");
  assert.equal(resultText({ won: true, time_ms: 98_715, moves: 123 }, "daily"), "won in 1:38.7 · 123 moves");
  assert.equal(resultText({ won: false, home: 30, total: 52 }, "best"), "30/52 home");
  assert.equal(resultText({ won: false, home: 30, total: 52 }, "best", "pairs"), "15/26 pairs off");
});

test("a group's id is 10 lower-case letters and digits", () => {
  assert.ok(GROUP_ID.test("k3v9xq2mab"));
  assert.ok(!GROUP_ID.test("K3V9XQ2MAB") && !GROUP_ID.test("k3v9xq2ma") && !GROUP_ID.test("k3v9xq2mab/"));
});

test("a group gone from under its screen, in words", () => {
  assert.equal(goneText({ name: "Friday Club", why: "deleted" }), "Friday Club was deleted by its owner.");
  assert.equal(
    goneText({ name: "Friday Club", why: "not_member" }),
    "You are no longer in Friday Club: its owner removed you, or you left it elsewhere.",
  );
});

test("a group's link refused, headed by why", () => {
  assert.equal(joinRefused("too_many_groups"), "You are in as many groups as one may be");
  assert.equal(joinRefused("group_full"), "This group is full");
  assert.equal(joinRefused("bad_group_link"), "This group's link did not work");
});

test("a member's challenge entry says how far it got (its order was unexplained)", () => {
  assert.equal(entryWords({ status: "won", time_ms: 98_715 }), "won in 1:38.7");
  assert.equal(entryWords({ status: "resigned", home: 3, total: 52 }), "resigned, 3/52 home");
  assert.equal(entryWords({ status: "lost", home: 4, total: 52 }, "pairs"), "lost, 2/26 pairs off");
});

test("leaving says who owns the group now (the owner leaving was not told whom it passed to)", () => {
  const left = (/** @type {string | null} */ owner) => ({
    groups: [],
    left: { id: "k3v9xq2mab", name: "Owls", owner },
  });
  assert.equal(leftText(left("bob"), "owls", true), "You left Owls; bob owns it now.");
  assert.equal(leftText(left(null), "Owls", true), "You left Owls; you were its last member, so it is gone.");
  assert.equal(leftText({ groups: [] }, "Owls", true), "You left Owls.");
  // a member who did not own it hands nothing on: its owner "owning it now" read as news
  assert.equal(leftText(left("ann"), "Owls", false), "You left Owls.");
});

test("a group's board shown first is the first game's week of dailies, as the terminal's", () => {
  assert.equal(
    defaultBoard([
      { id: "gate", name: "The Gate" },
      { id: "nestor", name: "Nestor" },
    ]),
    "week/gate",
  );
  assert.equal(defaultBoard([]), "races/week");
});

test("the picker offers this week and the 3 before, and reads the week shown", () => {
  // (a past week's board, #group=ID&board=week/gate/2026-W49, read "this week's dailies")
  const games = [{ id: "gate", name: "The Gate" }];
  const now = { week: "2026-W51", day: "2026-12-16" };
  const past = picker(games, "week/gate/2026-W49", now);
  assert.deepEqual(
    past.choices.filter(([board]) => board.startsWith("week/")),
    [
      ["week/gate", "The Gate: this week's dailies"],
      ["week/gate/2026-W50", "The Gate: last week's dailies, 2026-W50"],
      ["week/gate/2026-W49", "The Gate: the dailies of 2026-W49"],
      ["week/gate/2026-W48", "The Gate: the dailies of 2026-W48"],
    ],
  );
  assert.equal(past.value, "week/gate/2026-W49");
  // this week and today, named by their dates, read as this week's and today's
  assert.equal(picker(games, "week/gate/2026-W51", now).value, "week/gate");
  assert.equal(picker(games, "daily/gate/2026-12-16", now).value, "daily/gate");
  assert.equal(picker(games, "races/week/2026-W51", now).value, "races/week");
  // one the picker does not offer is a choice of its own, named by its week or day
  for (const [board, words] of [
    ["week/gate/2026-W40", "The Gate: the dailies of 2026-W40"],
    ["daily/gate/2026-12-01", "The Gate: the daily of 2026-12-01"],
    ["races/week/2026-W47", "Races won, 2026-W47"],
  ]) {
    const shown = picker(games, board, now);
    assert.equal(shown.value, board);
    assert.deepEqual(shown.choices.at(-1), [board, words]);
  }
  // across a year's turn
  const january = picker(games, "week/gate", { week: "2027-W01", day: "2027-01-05" });
  assert.ok(january.choices.some(([board]) => board === "week/gate/2026-W51"));
  assert.equal(january.value, "week/gate");
});
