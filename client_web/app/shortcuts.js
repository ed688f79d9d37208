// @ts-check
// A game's "Keyboard shortcuts": the keys of the board and the move box, and what a
// pointer does. Made once per game and kept through its redraws (made on every draw, it
// closed as soon as a key was pressed).

import { h } from "./dom.js";

/** where this browser keeps the single-key shortcuts turned off */
const OFF_KEY = "patience-race-single-keys-off";

/**
 * Whether the single-key shortcuts (u, o, i, d, s, n, /) work: on unless turned off here (a
 * speech-input user's words, or a screen reader's keys, typed letters that played moves:
 * WCAG 2.1.4).
 */
export function singleKeys() {
  try {
    return localStorage.getItem(OFF_KEY) !== "1";
  } catch {
    return true;
  }
}

/**
 * The racers' panel on the page in words (racers.js `standingsSaid`), for the `s` key;
 * empty where there is none (a solo game).
 */
export function standingsNow() {
  const box = document.querySelector("[data-standings]");
  return box instanceof HTMLElement ? box.dataset.standings || "" : "";
}

/** @param {boolean} on */
function setSingleKeys(on) {
  try {
    if (on) localStorage.removeItem(OFF_KEY);
    else localStorage.setItem(OFF_KEY, "1");
  } catch {
    // (storage refused: on for this page only)
  }
}

/**
 * @param {{ homes: boolean, hints: boolean }} game whether it has homes to play cards
 *   to, and hints allowed
 * @returns {HTMLElement}
 */
export function shortcutsHelp(game) {
  /** @type {[string, string, boolean][]} */
  const keys = [
    ["Tab, Shift+Tab", "from pile to pile, and to the buttons", true],
    ["← → ↑ ↓", "on a pile: to the nearest pile that way", true],
    ["Enter or Space", "on a pile: pick it, or play the picked pile onto it", true],
    ["Esc", "drop the picked pile; in the move box, clear it", true],
    ["n or /", "type a move", true],
    ["u", "undo", true],
    ["o", "play cards home", game.homes],
    ["i", "hint", game.hints],
    ["d", "the word move (deal, redeal, reserve)", true],
    ["s", "in a race: say the standings", true],
  ];
  return h(
    "details",
    { class: "shortcuts" },
    h("summary", {}, "Keyboard shortcuts"),
    h(
      "ul",
      {},
      keys.filter(([, , shown]) => shown).map(([k, what]) => h("li", {}, h("kbd", {}, k), " ", what)),
    ),
    h(
      "label",
      {},
      h("input", {
        type: "checkbox",
        checked: singleKeys(),
        "data-act": "single-keys",
        onchange: (/** @type {Event} */ e) => setSingleKeys(/** @type {HTMLInputElement} */ (e.target).checked),
      }),
      " Single-key shortcuts (u, o, i, d, s, n, /)",
    ),
    h("p", { class: "muted" }, "Tap or click a pile, then where it goes; or drag it there."),
  );
}
