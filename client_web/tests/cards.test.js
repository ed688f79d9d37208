// Cards named in the server's words (app/cards.js): drawn as the board draws them.

import { test } from "node:test";
import assert from "node:assert/strict";

import { cardWords } from "../app/cards.js";

test("a card's code in the server's words is drawn as the board draws the card", () => {
  assert.equal(
    cardWords("illegal move 'l>t1': 8D cannot go on KD: bars build down"),
    "illegal move 'l>t1': 8♦ cannot go on K♦: bars build down",
  );
  assert.equal(cardWords("TH and 5S are not of equal rank"), "10♥ and 5♠ are not of equal rank");
});

test("moves, labels and other words are left alone", () => {
  for (const text of ["hint: l>t1: uncovers a card", "home: fc fd", "4+5 deal", "AND SO ON", "t10>b2"])
    assert.equal(cardWords(text), text);
});
