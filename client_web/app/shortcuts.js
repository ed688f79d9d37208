// @ts-check
// A game's "Keyboard shortcuts": the keys of the board and the move box, and what a
// pointer does. Made once per game and kept through its redraws (made on every draw, it
// closed as soon as a key was pressed).

import { h } from "./dom.js";

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
    h("p", { class: "muted" }, "Tap or click a pile, then where it goes; or drag it there."),
  );
}
