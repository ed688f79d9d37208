// The devices list's pure parts (app/devices.js): a link code as typed, and a device's
// dates as the rest of the app writes them.

import { test } from "node:test";
import assert from "node:assert/strict";

import { normalCode, terminalCommand, when } from "../app/devices.js";

test("a device's dates: year first, 24-hour clock, UTC as the app's days are", () => {
  // (they were the browser's locale's: "Nov 28, 2026, 2:05 PM", "28/11/2026, 14:05")
  assert.equal(when(Date.UTC(2026, 10, 28, 14, 5, 59)), "2026-11-28 14:05");
  assert.equal(when(Date.UTC(2027, 0, 3, 0, 0)), "2027-01-03 00:00");
});

test("a link code as typed, as the server keeps it", () => {
  assert.equal(normalCode("k7qx-3mhd"), "K7QX3MHD");
  assert.equal(normalCode("K7QX 3MH"), null);
});

test("a terminal command names the server unless it is the terminal's default", () => {
  assert.equal(terminalCommand("link ABCD-EFGH", "ws://127.0.0.1:8765/"), "patience-race link ABCD-EFGH");
  assert.equal(
    terminalCommand("link ABCD-EFGH", "wss://race.example.org/"),
    "patience-race link ABCD-EFGH --server wss://race.example.org",
  );
});
