// @ts-check
// Cards as the player sees them: a rank and a suit symbol, red or black. The wire form
// is a code, a rank `A 2 3 4 5 6 7 8 9 T J Q K` and a suit `C D H S` (`TH`: ten of hearts).

import { h } from "./dom.js";

const RANKS = "A23456789TJQK";
/** @type {Record<string, string>} */
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
/** @type {Record<string, string>} */
/** @type {Record<string, string>} a suit in words, by its letter */
export const NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };

/**
 * Whether `code` is a card's code (`TH`), not a face-down card or anything else.
 * @param {string} code
 */
export function isCard(code) {
  return typeof code === "string" && code.length === 2 && RANKS.includes(code[0]) && code[1] in SUITS;
}

/** @type {Record<string, string>} */
const RANK_NAMES = { A: "ace", T: "10", J: "knave", Q: "queen", K: "king" };

// "9 of hearts", "knave of spades": a card in words, as the seed books (and the engine's
// card_name) say it
/** @param {string} code */
export function cardName(code) {
  if (!isCard(code)) return "an unknown card";
  return `${RANK_NAMES[code[0]] || code[0]} of ${NAMES[code[1]]}`;
}

// a card's code standing as a word in the server's text ("8D cannot go on KD")
const CODE_WORD = /\b([A2-9TJQK])([CDHS])\b/g;

/**
 * The server's words with each card's code drawn as the board draws the card ("8♦
 * cannot go on K♦", not "8D cannot go on KD").
 * @param {string} text
 */
export function cardWords(text) {
  return text.replace(CODE_WORD, (_, rank, suit) => (rank === "T" ? "10" : rank) + SUITS[suit]);
}

// a move written in the server's words, quoted: `'l>t1'`, `'b3:2>b1'`, `'4+5'`
const QUOTED_MOVE = /'([a-z]*\d*)(?::(\d+))?([>+])([a-z]*\d*)'/g;

/**
 * The server's words as a screen reader should say them: each card's code named ("8D"
 * is "8 of diamonds": a symbol is read "black diamond suit", or not at all) and a quoted
 * move in words ("'l>t1'" is "l to t1", "'4+5'" "4 and 5").
 * @param {string} text
 */
export function cardsSpoken(text) {
  return text
    .replace(QUOTED_MOVE, (_, from, count, how, to) =>
      how === "+" ? `${from} and ${to}` : `${count ? `${count} from ` : ""}${from} to ${to}`,
    )
    .replace(CODE_WORD, (code) => cardName(code));
}

/**
 * A face-up card, drawn; a code that is no card is drawn as "??".
 * @param {string} code
 */
export function cardFace(code) {
  if (!isCard(code)) return h("div", { class: "card odd", dataset: { card: "" } }, "??");
  const rank = code[0] === "T" ? "10" : code[0];
  const red = code[1] === "D" || code[1] === "H";
  return h(
    "div",
    { class: `card ${red ? "red" : "black"}`, title: cardName(code), dataset: { card: code } },
    h("span", { class: "corner" }, h("span", { class: "rank" }, rank), h("span", { class: "suit" }, SUITS[code[1]])),
    h("span", { class: "pip" }, SUITS[code[1]]),
  );
}

/**
 * A pile's face-down cards, drawn as one back with their count.
 * @param {number} count
 */
export function cardBack(count) {
  return h(
    "div",
    { class: "card back", title: `${count} face down`, dataset: { card: "" } },
    h("span", { class: "count" }, String(count)),
  );
}
