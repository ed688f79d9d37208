// Cards named in the server's words (app/cards.js): drawn as the board draws them.

import { test } from "node:test";
import assert from "node:assert/strict";

import { cardWords, cardsSpoken } from "../app/cards.js";

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

test("the server's words as a screen reader says them: cards named, moves in words", () => {
  assert.equal(
    cardsSpoken("illegal move 'r>t2': 2C cannot go on 6S: bars build down in alternate colours"),
    "illegal move r to t2: 2 of clubs cannot go on 6 of spades: bars build down in alternate colours",
  );
  assert.equal(
    cardsSpoken("illegal move 'b3:2>b1': TH and JS"),
    "illegal move 2 from b3 to b1: 10 of hearts and knave of spades",
  );
  assert.equal(
    cardsSpoken("illegal move '4+5': 4 and 5 are not a pair"),
    "illegal move 4 and 5: 4 and 5 are not a pair",
  );
  for (const text of ["no card can go home", "hint: a word", "AND SO ON"]) assert.equal(cardsSpoken(text), text);
});
