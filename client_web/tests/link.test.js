// The link's backoff (app/link.js); its websocket is tested in a real browser
// (tests/web/test_play.py stops the server mid-game).

import { test } from "node:test";
import assert from "node:assert/strict";

import { backoff, deviceLabel, signedOutText } from "../app/link.js";

test("reconnection waits 0.5 s, doubling, at most 10 s", () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 20].map(backoff), [500, 1000, 2000, 4000, 8000, 10000, 10000, 10000]);
});

test("a browser names itself by its browser and system", () => {
  const agents = {
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36":
      "Chrome on Android",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1":
      "Safari on iPhone",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 Edg/120.0":
      "Edge on Windows",
    "Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0": "Firefox on Linux",
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0 Safari/537.36":
      "Chrome on Linux",
    "curl/8.0": "a browser",
  };
  for (const [agent, label] of Object.entries(agents)) assert.equal(deviceLabel(agent), label);
});

test("a tab signed out says where the player went, in words", () => {
  assert.match(
    signedOutText({ reason: "signed in on another device: Chrome on Android", cause: "replaced" }),
    /^Signed in on another device: Chrome on Android\. This tab has stopped/,
  );
  assert.match(
    signedOutText({ reason: "signed out from terminal on desk", cause: "signed_out" }),
    /^Signed out from terminal on desk\. This browser no longer plays as you/,
  );
});
