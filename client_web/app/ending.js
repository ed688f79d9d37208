// @ts-check
// A game's end as the player meets it: the finish sounds (sound.js), a small celebration
// of a won game (suits thrown up from the board, the home piles' top cards hopping: about
// a second and a half, drawn over the board only and letting every click through, none
// under `prefers-reduced-motion`), and a lost game's reason, how many got home, and the
// Undo the server offers where it would take the last move back (`lost.undo`: solo games
// and practice; races and ranked dailies stay final).

import { button, count, h } from "./dom.js";
import { still } from "./motion.js";
import { finish } from "./sound.js";

/** @type {WeakMap<Element, string>} the status each game's root was last drawn with */
const seen = new WeakMap();

const SUITS = ["♠", "♥", "♦", "♣"];
const THROWN = 24;

/**
 * After a game's screen is drawn: if its status has just turned from `playing` to an end,
 * the finish sounds and a win is celebrated. A game first drawn already over (a reload)
 * is left quiet.
 * @param {HTMLElement} root the game's screen
 * @param {string} status
 */
export function ended(root, status) {
  const was = seen.get(root);
  seen.set(root, status);
  if (was !== "playing" || status === "playing") return;
  finish(status);
  const board = root.querySelector(".board");
  if (status === "won" && board && !still()) celebrate(root, board);
}

/**
 * @param {HTMLElement} root
 * @param {Element} board
 */
function celebrate(root, board) {
  const area = clear(
    board.getBoundingClientRect(),
    root.querySelectorAll(".controls, .notation, .lost-note, .won-note"),
  );
  const layer = h("div", { class: "celebration", "aria-hidden": "true" });
  // fixed over the board's box as it is on the screen: above the cards, clear of the controls
  layer.style.left = `${area.left}px`;
  layer.style.top = `${area.top}px`;
  layer.style.width = `${area.right - area.left}px`;
  const height = area.bottom - area.top;
  layer.style.height = `${height}px`;
  const animations = [];
  for (let i = 0; i < THROWN; i += 1) {
    const suit = SUITS[i % SUITS.length];
    const bit = h("span", { class: `thrown ${suit === "♥" || suit === "♦" ? "red" : "black"}` }, suit);
    bit.style.left = `${((i + 0.5) / THROWN) * 100}%`;
    layer.append(bit);
    const rise = 0.45 + 0.5 * (((i * 7) % THROWN) / THROWN);
    const drift = ((i * 13) % 9) - 4;
    animations.push(
      bit.animate(
        [
          { transform: "translate(0, 0) rotate(0deg)", opacity: 0 },
          { opacity: 1, offset: 0.15 },
          {
            transform: `translate(${drift * 6}px, -${Math.round(rise * height)}px) rotate(${drift * 40}deg)`,
            opacity: 0,
          },
        ],
        { duration: 1300, delay: (i % 8) * 40, easing: "cubic-bezier(.2,.7,.4,1)", fill: "backwards" },
      ),
    );
  }
  document.body.append(layer);
  const homes = board.querySelectorAll(
    ".pile[class*='kind-foundation'] .card:last-of-type, .pile.kind-discard .card:last-of-type",
  );
  homes.forEach((card, i) => {
    animations.push(
      card.animate([{ transform: "none" }, { transform: "translateY(-18%)" }, { transform: "none" }], {
        duration: 360,
        delay: 120 * i,
        easing: "ease-in-out",
      }),
    );
  });
  root.dataset.celebrated = "won";
  Promise.all(animations.map((a) => a.finished)).then(
    () => layer.remove(),
    () => layer.remove(),
  );
}

/**
 * The part of the board's box on the screen that no control overlaps: cut off above a
 * control that starts below its top, or below one that starts above it.
 * @param {DOMRect} box
 * @param {Iterable<Element>} controls
 */
function clear(box, controls) {
  let top = Math.max(0, box.top);
  let bottom = Math.min(box.bottom, window.innerHeight);
  const left = Math.max(0, box.left);
  const right = Math.min(box.right, window.innerWidth);
  for (const control of controls) {
    const c = control.getBoundingClientRect();
    if (c.bottom <= top || c.top >= bottom || c.right <= left || c.left >= right) continue;
    if (c.top > top) bottom = c.top;
    else top = c.bottom;
  }
  return { left, top, right, bottom: Math.max(top, bottom) };
}

/**
 * Why a game was lost (a reply's or snapshot's `lost`): the reason, the cards (or pairs)
 * home, and whether an undo takes the losing move back.
 * @typedef {{why?: string, home?: number, total?: number, unit?: string, undo?: boolean}} Lost
 */

/**
 * Why a game was lost, in a sentence after a space, as the live region says it ("" for
 * none).
 * @param {Lost | null | undefined} lost
 */
export function lostText(lost) {
  return lost ? ` ${lost.why || "No move is left."}` : "";
}

/**
 * A won solo game said on the screen, as a lost one is (the heading's "won" had been
 * all a sighted player saw; the live region said the rest).
 * @param {number} total the game's cards
 * @param {number} moves
 * @param {boolean} pairs whether its cards leave in pairs (Nestor, Doubles and Quits)
 */
export function wonNote(total, moves, pairs) {
  const got = pairs ? `${Math.floor(total / 2)} pairs off` : `${total} cards home`;
  return h("p", { class: "won-note" }, h("strong", {}, "Won: "), `all ${got} in ${count(moves, "move")}.`);
}

/**
 * A lost game's reason and count, with Undo where the server would take the last move back.
 * @param {Lost | null | undefined} lost the reply's `lost`
 * @param {() => void} undo
 */
export function lostNote(lost, undo) {
  if (!lost) return null;
  // pairs are taken off, as the terminal and the result line say; cards go home
  const got = lost.unit === "pairs" ? "pairs off" : "cards home";
  return h(
    "div",
    // (not a live region: made anew on each draw, it went unheard; the game's says it)
    { class: "lost-note" },
    h(
      "p",
      {},
      h("strong", {}, "Lost. "),
      lost.why || "No move is left.",
      ` ${lost.home ?? 0} of ${lost.total ?? 0} ${got}.`,
    ),
    lost.undo
      ? h("p", {}, button("Undo the last move", undo, { "data-act": "undo-lost" }), " and play on from there.")
      : null,
  );
}
