// @ts-check
// A tap that fits several moves: in The Blockade a tap on g6 and then on a6 fits the whole
// run, g6>a6, and its parts, g6:1>a6 and g6:2>a6; two taps on a pile fit every move from
// it. The game's status line asks "which move?" and offers each as a button, to tap, or to
// reach from the keyboard (the focus goes to the first where a key asked), each named for
// a screen reader with what it moves ("play g6:1>a6: the top card of g6 to a6"). Before,
// the line listed them in words only, and a player on a touch screen had to type the move.
// game.js draws the line (`statusLine`) and keeps the choices until the next action.

import { h } from "./dom.js";

/** a counted move: its pile, how many cards from its top, where they go */
const COUNTED = /^([^:>+]+):(\d+)>(.+)$/;

/**
 * What a move offered among `choices` is named: what it plays, and for a counted move
 * how many cards, and for the whole of a run offered with its parts, that it is the whole.
 * @param {string} move
 * @param {string[]} choices
 * @returns {string}
 */
export function choiceName(move, choices) {
  const counted = COUNTED.exec(move);
  if (counted) {
    const n = Number(counted[2]);
    return `play ${move}: the top ${n === 1 ? "card" : `${n} cards`} of ${counted[1]} to ${counted[3]}`;
  }
  const [from, to] = move.split(">");
  const parts = to !== undefined && choices.some((m) => m.startsWith(`${from}:`) && m.endsWith(`>${to}`));
  return parts ? `play ${move}: the whole run on ${from} to ${to}` : `play ${move}`;
}

/**
 * A game's status line: `words`, or where a tap fits several moves, its question and a
 * button for each of `choices`, which plays it (`play`).
 * @param {string} words the line's words (its question first where it asks)
 * @param {string[]} choices
 * @param {(move: string) => unknown} play
 * @returns {HTMLElement}
 */
export function statusLine(words, choices, play) {
  if (!choices.length) return h("p", { class: "note" }, words);
  const asked = words.includes("?") ? words.slice(0, words.indexOf("?") + 1) : "which move?";
  return h(
    "p",
    { class: "note choosing" },
    asked,
    ...choices.map((move) =>
      h(
        "button",
        {
          type: "button",
          class: "choice",
          "data-focus": `choice ${move}`,
          "aria-label": choiceName(move, choices),
          onclick: () => play(move),
        },
        move,
      ),
    ),
  );
}

/**
 * The focus on the first choice a status line offers in `root`, where it offers any.
 * @param {Element} root
 */
export function focusChoice(root) {
  const first = root.querySelector(".note .choice");
  if (first instanceof HTMLElement) first.focus({ preventScroll: true });
}
