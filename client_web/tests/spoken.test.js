// What a move did, in words (app/spoken.js), from the boards before and after it, and a
// pile's state after its name (app/board.js pileState).

import { test } from "node:test";
import assert from "node:assert/strict";

import { hintSaid, homeSaid, moveSaid, shownSaid, timeWarning, undoSaid } from "../app/spoken.js";
import { pileName, pileState } from "../app/board.js";

/**
 * A view of `game` with these piles: [label, kind, cards, down].
 * @param {string} game
 * @param {[string, string, string[], number?][]} piles
 */
const view = (game, piles) => ({
  game,
  piles: piles.map(([label, kind, cards, down = 0]) => ({ label, kind, x: 0, y: 0, fan: "down", cards, down })),
});

test("a card moved from one pile to another, in words", () => {
  const before = view("light-and-shade", [
    ["t", "talon", ["KC", "5D"]],
    ["a1", "auxiliary", ["7C", "6H"]],
  ]);
  const after = view("light-and-shade", [
    ["t", "talon", ["KC"]],
    ["a1", "auxiliary", ["7C", "6H", "5D"]],
  ]);
  assert.equal(moveSaid("t>a1", before, after), "5 of diamonds from t to a1");
  assert.equal(undoSaid("t>a1", after, before), "undone: 5 of diamonds from t to a1");
  assert.equal(hintSaid("t>a1", "frees a space", before), "hint: 5 of diamonds from t to a1: frees a space");
});

test("a run moved whole is named by its first card, the cards on it counted", () => {
  const before = view("gate", [
    ["t1", "bar", ["9S", "8D", "7C"]],
    ["b2", "bar", ["TH"]],
  ]);
  const after = view("gate", [
    ["t1", "bar", []],
    ["b2", "bar", ["TH", "9S", "8D", "7C"]],
  ]);
  assert.equal(moveSaid("t1>b2", before, after), "9 of spades and the 2 cards on it from t1 to b2");
  // a hint, with no board after it: the run down to the card one rank below b2's
  assert.equal(
    hintSaid("t1>b2", "frees a space", before),
    "hint: 9 of spades and the 2 cards on it from t1 to b2: frees a space",
  );
  // into a space: the whole pile (The Blockade's: the run of its suit on top)
  const space = view("gate", [
    ["t1", "bar", ["9S", "8D"]],
    ["b2", "bar", []],
  ]);
  assert.equal(hintSaid("t1>b2", null, space), "hint: 9 of spades and 8 of diamonds from t1 to b2");
  const blockade = view("blockade", [
    ["a1", "cell", ["KD", "9S", "8S"]],
    ["b1", "cell", []],
  ]);
  assert.equal(hintSaid("a1>b1", null, blockade), "hint: 9 of spades and 8 of spades from a1 to b1");
  assert.equal(hintSaid("a1:1>b1", null, blockade), "hint: 8 of spades from a1 to b1");
});

test("home: the foundation, by its way where it has one, and the cards that went home on their own", () => {
  const before = view("gate", [
    ["t1", "bar", ["AS", "2D"]],
    ["l", "post", ["3C"]],
    ["fd", "foundation", ["AD"]],
    ["fs", "foundation", []],
  ]);
  const after = view("gate", [
    ["t1", "bar", []],
    ["l", "post", ["3C"]],
    ["fd", "foundation", ["AD", "2D"]],
    ["fs", "foundation", ["AS"]],
  ]);
  // (which foundation, by its suit: "to the foundation" had left a blind player to find it)
  assert.equal(
    moveSaid("t1>f", before, after),
    "2 of diamonds from t1 to the diamonds foundation; also home: ace of spades",
  );
  assert.equal(undoSaid("t1>f", after, before), "undone: 2 of diamonds from t1 to the diamonds foundation");
  // Light and Shade's, built in colours whatever the suit: by its label
  const shade = view("light-and-shade", [
    ["a4", "auxiliary", ["2S"]],
    ["f1", "foundation", ["AD"]],
    ["f2", "foundation", ["AD"]],
  ]);
  const shaded = view("light-and-shade", [
    ["a4", "auxiliary", []],
    ["f1", "foundation", ["AD", "2S"]],
    ["f2", "foundation", ["AD"]],
  ]);
  assert.equal(moveSaid("a4>f", shade, shaded), "2 of spades from a4 to foundation f1");
  assert.equal(homeSaid(["t1>f"], before, after), "home: 2 of diamonds, ace of spades");
  assert.equal(homeSaid([], before, before), "no card can go home");
  const up = view("labyrinth", [
    ["c3", "cell", ["2C"]],
    ["uc", "foundation-up", ["AC"]],
    ["ud", "foundation-up", ["AD"]],
  ]);
  const upAfter = view("labyrinth", [
    ["c3", "cell", []],
    ["uc", "foundation-up", ["AC", "2C"]],
    ["ud", "foundation-up", ["AD"]],
  ]);
  assert.equal(moveSaid("c3>u", up, upAfter), "2 of clubs from c3 to the foundation, clubs up");
  assert.equal(
    hintSaid("c3>u", "moves a card home", up),
    "hint: 2 of clubs from c3 to the foundation, clubs up: moves a card home",
  );
});

test("a pair taken off, by its rank", () => {
  const before = view("nestor", [
    ["3", "column", ["2C", "8H"]],
    ["7", "column", ["8C"]],
    ["r1", "reserve-card", ["QS"]],
    ["x", "discard", []],
  ]);
  const after = view("nestor", [
    ["3", "column", ["2C"]],
    ["7", "column", []],
    ["r1", "reserve-card", ["QS"]],
    ["x", "discard", ["8H", "8C"]],
  ]);
  assert.equal(moveSaid("3+7", before, after), "pair of 8s off");
  assert.equal(undoSaid("3+7", after, before), "undone: pair of 8s off");
  assert.equal(
    hintSaid("3+7", "pairs off two 8s", before),
    "hint: 8 of hearts at 3 and 8 of clubs at 7: pairs off two 8s",
  );
  assert.equal(moveSaid("3+r1", before, before), "8 of hearts and queen of spades off");
});

test("a word move: the cards turned up and where, what is left, never a face-down card", () => {
  const before = view("wedge", [
    ["w", "waste", ["9C"]],
    ["s", "stock", [], 24],
  ]);
  const after = view("wedge", [
    ["w", "waste", ["9C", "5H"]],
    ["s", "stock", [], 23],
  ]);
  assert.equal(moveSaid("deal", before, after), "dealt: 5 of hearts to w; stock 23 left");
  const reserve = view("nestor", [
    ["reserve", "reserve", [], 4],
    ["r1", "reserve-card", []],
  ]);
  const turned = view("nestor", [
    ["reserve", "reserve", [], 3],
    ["r1", "reserve-card", ["5S"]],
  ]);
  assert.equal(moveSaid("reserve", reserve, turned), "turned up: 5 of spades to r1; reserve 3 left");
  // a new row of a garden: said card by card (it was counted: "8 cards to 8 piles");
  // more piles than a row of The Blockade, counted
  const row = (/** @type {number} */ n, /** @type {number} */ wide = 8) =>
    [...Array(wide)].map((_, i) => [`${"abcdefghijklmn"[i]}${n}`, "cell", ["2S"]]);
  const garden = view("babette", [["s", "stock", [], 8], .../** @type {any} */ (row(1))]);
  const more = view("babette", [["s", "stock", [], 0], ...row(1), .../** @type {any} */ (row(2))]);
  assert.equal(
    moveSaid("deal", garden, more),
    `dealt: ${"abcdefgh"
      .split("")
      .map((c) => `2 of spades to ${c}2`)
      .join("; ")}; stock empty`,
  );
  const wide = view("babette", [["s", "stock", [], 0], .../** @type {any} */ (row(2, 13))]);
  assert.equal(moveSaid("deal", garden, wide), "dealt: 13 cards to 13 piles; stock empty");
  // cards dealt onto one pile: each named
  const posts = view("gate", [
    ["s", "stock", [], 9],
    ["l", "post", ["8S"]],
  ]);
  const grown = view("gate", [
    ["s", "stock", [], 7],
    ["l", "post", ["8S", "JH", "9C"]],
  ]);
  assert.equal(moveSaid("deal", posts, grown), "dealt: 2 cards to l: knave of hearts, 9 of clubs; stock 7 left");
  assert.equal(undoSaid("redeal", more, garden), "undone: redeal");
  assert.equal(hintSaid("deal", "deals from the stock", garden), "hint: deal: deals from the stock");
  assert.equal(hintSaid(null, null, garden), "no hint: no move is legal");
});

test("a pile's state, said after its name", () => {
  const none = { playable: false, target: false, picked: null, pairs: false };
  assert.equal(pileState("t1", none), "");
  assert.equal(pileState("t1", { ...none, playable: true }), "can move");
  assert.equal(pileState("t4", { ...none, target: true, picked: "t2" }), "can take from t2");
  assert.equal(pileState("7", { playable: true, target: true, picked: "3", pairs: true }), "pairs with 3");
  assert.equal(pileState("t2", { ...none, playable: true, target: true, picked: "t2" }), "can move");
});

test("a fanned pile says every face-up card that shows, the top one first", () => {
  /** @type {(label: string, kind: string, fan: string, cards: string[], down?: number) => import("../app/layout.js").Pile} */
  const pile = (label, kind, fan, cards, down = 0) => ({ label, kind, x: 0, y: 0, fan, cards, down });
  // The Gate seed 0's post l: all five faces are drawn, down the fan
  assert.equal(
    pileName(pile("l", "post", "down", ["8S", "JH", "9C", "2S", "2D"])),
    "post l: 2 of diamonds on top, then 2 of spades, 9 of clubs, knave of hearts, 8 of spades; 5 cards",
  );
  // a column with cards face down under its fan: counted, never named
  assert.equal(
    pileName(pile("3", "column", "down", ["4C", "9H"], 3)),
    "column 3: 9 of hearts on top, then 4 of clubs; 5 cards, 3 face down",
  );
  // one card, or a squared pile: its top card and its count, as before
  assert.equal(pileName(pile("t1", "bar", "down", ["9H"])), "bar t1: 9 of hearts");
  assert.equal(pileName(pile("t", "talon", "none", ["KC", "6C"])), "talon t: 6 of clubs, 2 cards");
  assert.equal(pileName(pile("s", "stock", "none", [], 34)), "stock s: 34 cards face down");
  // a waste shows its top three fanned to the right, no more
  assert.equal(
    pileName(pile("w", "waste", "none", ["AS", "2C", "3D", "4H", "5S"])),
    "waste w: 5 of spades on top, then 4 of hearts, 3 of diamonds; 5 cards",
  );
});

test("a timed game's time left is said as it passes a minute and ten seconds, once each", () => {
  assert.deepEqual(timeWarning(61_000, Infinity), null);
  assert.deepEqual(timeWarning(60_000, Infinity), { at: 60_000, text: "1 minute left" });
  assert.equal(timeWarning(59_500, 60_000), null);
  assert.deepEqual(timeWarning(9_200, 60_000), { at: 10_000, text: "10 seconds left" });
  assert.equal(timeWarning(5_000, 10_000), null);
  // taken up with 30 s left (a reload): said at once, then at ten seconds
  assert.deepEqual(timeWarning(30_000, Infinity), { at: 60_000, text: "30 seconds left" });
  assert.equal(timeWarning(0, Infinity), null);
});

test("a pair off a table that closes up says so, and what the stock dealt into the gap", () => {
  const before = view("doubles-and-quits", [
    ["1", "cell", ["8H"]],
    ["2", "cell", ["3C"]],
    ["3", "cell", ["8S"]],
    ["4", "cell", ["KD"]],
    ["s", "stock", [], 10],
  ]);
  const after = view("doubles-and-quits", [
    ["1", "cell", ["3C"]],
    ["2", "cell", ["KD"]],
    ["3", "cell", ["5H"]],
    ["4", "cell", ["9C"]],
    ["s", "stock", [], 8],
  ]);
  assert.equal(moveSaid("1+3", before, after), "pair of 8s off; the table closes up, 2 cards dealt; stock 8 left");
  // the stock out: the cards still move up
  const dry = view("doubles-and-quits", [
    ["1", "cell", ["3C"]],
    ["2", "cell", ["KD"]],
    ["3", "cell", []],
    ["4", "cell", []],
    ["s", "stock", [], 0],
  ]);
  const ended = view("doubles-and-quits", [
    ["1", "cell", ["8H"]],
    ["2", "cell", ["3C"]],
    ["3", "cell", ["8S"]],
    ["4", "cell", ["KD"]],
    ["s", "stock", [], 0],
  ]);
  assert.equal(moveSaid("1+3", ended, dry), "pair of 8s off; the table closes up; stock empty");
});

test("a solo game shown: a new deal with the cards it sent home, or the game taken up again", () => {
  const dealt = view("blockade", [
    ["fs1", "foundation", ["AS"]],
    ["fs2", "foundation", []],
    ["a1", "column", ["7H"]],
  ]);
  const snap = (/** @type {any} */ v, status = "playing", moves = 0) => ({ view: { ...v, moves }, status });
  assert.equal(
    shownSaid("The Blockade", snap(dealt), true),
    "The Blockade: new deal. Home from the deal: ace of spades.",
  );
  const bare = view("gate", [["t1", "bar", ["9S"]]]);
  assert.equal(shownSaid("The Gate", snap(bare), true), "The Gate: new deal.");
  assert.equal(
    shownSaid("The Gate", snap(bare, "playing", 33), false),
    "The Gate: your game in play, 33 moves, taken up again.",
  );
  assert.equal(
    shownSaid("The Gate", snap(bare, "playing", 1), false),
    "The Gate: your game in play, 1 move, taken up again.",
  );
  assert.equal(
    shownSaid("The Gate", snap(bare, "timeout", 4), false),
    "The Gate: your last game, over: time ran out, 4 moves.",
  );
});
