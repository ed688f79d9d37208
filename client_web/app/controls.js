// @ts-check
// A game's buttons while it is played: the word moves the server offers (`deal`,
// `redeal`, `reserve`), Undo while the view allows it, Cards home where the game has
// homes, Hint where hints are allowed, and Resign, asked first.

import { button, h, resignQuestion } from "./dom.js";
import { isWord } from "./clicks.js";

/**
 * What the buttons act on (game.js's GameScreen).
 * @typedef {object} Playing
 * @property {string[]} legal
 * @property {boolean} homes
 * @property {boolean} busy
 * @property {boolean} over
 * @property {string} kind
 * @property {(move: string) => unknown} move
 * @property {(verb: string) => unknown} act
 * @property {() => boolean} hintsAllowed
 */

/**
 * The buttons of a game in play (a game over has none of these: game.js adds its own).
 * @param {Playing} game
 * @param {boolean} canUndo the view's `can_undo`
 * @param {boolean} tabled whether its result goes in a table (resigning says so)
 * @returns {HTMLElement}
 */
export function playControls(game, canUndo, tabled) {
  const controls = h("div", { class: "controls" });
  for (const word of game.legal.filter(isWord))
    controls.append(button(word, () => game.move(word), { class: "word", "data-act": word }));
  controls.append(button("Undo", () => game.act("undo"), { disabled: !canUndo, "data-act": "undo" }));
  // ("Home" alone read as the way back to the home screen)
  if (game.homes)
    controls.append(
      button("Cards home", () => game.act("home"), {
        "data-act": "home",
        title: "Play every card that can go home now (o)",
      }),
    );
  if (game.hintsAllowed()) controls.append(button("Hint", () => game.act("hint"), { "data-act": "hint" }));
  controls.append(
    button(
      "Resign",
      () => {
        // (a double click once asked twice: the second click comes once the first's
        // question is answered, its resign under way or done)
        if (game.busy || game.over) return;
        if (confirm(resignQuestion(game.kind, tabled))) game.act("resign");
      },
      { "data-act": "resign" },
    ),
  );
  return controls;
}
