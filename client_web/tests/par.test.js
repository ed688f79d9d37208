// Par in words (app/par.js).

import { test } from "node:test";
import assert from "node:assert/strict";

import { parWords } from "../app/par.js";

test("par says whether it is proved the shortest", () => {
  assert.equal(parWords(30, true), "par 30 (proved shortest)");
  assert.equal(parWords(109, false), "par 109 (shortest found)");
  assert.equal(parWords(109, null), "par 109");
  assert.equal(parWords(109, undefined), "par 109");
});
