// What Resign asks (app/dom.js): the terminal's words, for each kind of game.

import { test } from "node:test";
import assert from "node:assert/strict";

import { resignQuestion } from "../app/dom.js";

test("Resign says what ends and where its result goes, as the terminal does", () => {
  // a ranked daily had asked "Resign this game?", saying nothing of the board
  assert.equal(resignQuestion("daily"), "Resign today's ranked attempt? It goes on the board as it stands.");
  assert.equal(resignQuestion("practice"), "Resign this practice? It ends as it stands (not ranked).");
  assert.equal(resignQuestion("race"), "Resign this race? Your game ends here; the race goes on.");
  assert.equal(resignQuestion("challenge"), "Resign? Your result goes on the challenge's table as it stands.");
  assert.equal(resignQuestion("challenge", false), "Resign? Your game ends as it stands.");
  assert.equal(resignQuestion("solo"), "Resign this game? It ends as it stands.");
  assert.equal(resignQuestion(undefined), "Resign this game? It ends as it stands.");
});
