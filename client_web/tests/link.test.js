// The link's backoff (app/link.js); its websocket is tested in a real browser
// (tests/web/test_play.py stops the server mid-game).

import { test } from "node:test";
import assert from "node:assert/strict";

import { backoff } from "../app/link.js";

test("reconnection waits 0.5 s, doubling, at most 10 s", () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 20].map(backoff), [500, 1000, 2000, 4000, 8000, 10000, 10000, 10000]);
});
