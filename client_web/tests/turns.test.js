// Requests one after another, in order (app/turns.js).

import { test } from "node:test";
import assert from "node:assert/strict";

import { MOST_WAITING, Turns } from "../app/turns.js";

test("a turn taken while one is unanswered runs after it, in order", async () => {
  const turns = new Turns();
  /** @type {string[]} */
  const done = [];
  /** @type {(value?: unknown) => void} */
  let answer = () => {};
  const first = turns.take(async () => {
    await new Promise((resolve) => (answer = resolve));
    done.push("first");
  });
  const second = turns.take(async () => done.push("second"));
  await Promise.resolve();
  assert.deepEqual(done, []); // (the second waits for the first's answer)
  answer();
  assert.deepEqual(await Promise.all([first, second]), [true, true]);
  assert.deepEqual(done, ["first", "second"]);
});

test("a turn that fails does not stop the next", async () => {
  const turns = new Turns();
  const failed = turns.take(async () => {
    throw new Error("refused");
  });
  const next = turns.take(async () => "played");
  assert.deepEqual(await Promise.all([failed, next]), [true, true]);
});

test("past the most that may wait, a turn is not taken", async () => {
  const turns = new Turns();
  /** @type {(value?: unknown) => void} */
  let answer = () => {};
  const held = turns.take(() => new Promise((resolve) => (answer = resolve)));
  const more = Array.from({ length: MOST_WAITING }, () => turns.take(async () => {}));
  assert.equal(await more[MOST_WAITING - 1], false);
  answer();
  assert.equal(await held, true);
  assert.equal(await turns.take(async () => {}), true); // (room again)
});
