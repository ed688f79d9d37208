// Par in words (app/par.js).

import { test } from "node:test";
import assert from "node:assert/strict";

import { againstPar, parWords } from "../app/par.js";

test("par says whether it is proved the shortest", () => {
  assert.equal(parWords(30, true), "par 30 (proved shortest)");
  assert.equal(parWords(109, false), "par 109 (shortest found)");
  assert.equal(parWords(109, null), "par 109");
  assert.equal(parWords(109, undefined), "par 109");
});

test("a won game's moves against par", () => {
  assert.equal(againstPar(110, 102, true), "You beat par by 8 moves: a shorter line than the solver found.");
  assert.equal(againstPar(110, 110, true), "You matched par.");
  assert.equal(againstPar(110, 111, true), "1 move over par.");
  assert.equal(againstPar(110, 90, false), "");
});
