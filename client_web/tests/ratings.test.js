// The home screen's ratings (app/ratings.js): which results fill the box again; the
// browser side is tests/web/test_open_page_news.py.

import { test } from "node:test";
import assert from "node:assert/strict";

import { ratedIn } from "../app/ratings.js";

const results = (/** @type {object[]} */ entries) => ({ type: "results", code: "K7PQ2M", race: 1, results: entries });

test("a race's results rate the player where their entry has a rating", () => {
  const rated = results([
    { player: "ann", status: "resigned", rating: 3, rating_change: 3 },
    { player: "bob", status: "resigned", rating: -2, rating_change: -2 },
  ]);
  assert.equal(ratedIn(rated, "ann"), true);
  assert.equal(ratedIn(rated, "cy"), false); // (a watcher's)
  assert.equal(ratedIn(rated, null), false);
  // a race not rated (a race of one, a seeded room's first race): no rating in it
  assert.equal(ratedIn(results([{ player: "ann", status: "won" }]), "ann"), false);
  assert.equal(ratedIn({ type: "room", results: rated.results }, "ann"), false);
});
