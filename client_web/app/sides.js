// @ts-check
// Where a screen's controls stand: under its board, or beside it. A board limited by the
// window's height (The Blockade's eight rows, The Wedge's long fans) drawn over the
// controls had a third of a tablet's width (1024x768: The Blockade 400 px wide in a box of
// 1000, cards 25 px), while a phone on its side had them beside it. So a screen with a
// board (a game's, a race's with its racers' panel, a replay's) has them beside it
// (`beside` on the screen: app.css lays it out as a phone on its side is) wherever that
// gives the cards 5% more width than under it (GAIN), and under it otherwise (a board limited
// by the window's width, a portrait phone). A phone on its side has them beside the board
// by the style sheet alone.
//
// Decided as the board's box changes size (the window resized, a phone turned, the screen
// first laid out), from the screen's size and the room the controls take under the board
// (measured while they are there, kept while they are beside it), so that it does not
// turn back and forth: no layout is read for a move.

import { cardWidth } from "./board.js";

/** @typedef {import("./types.js").Message} Message */

/** how much wider the cards must be beside the controls for them to go there */
export const GAIN = 1.05;
/** the column of controls: a share of the screen's width, within these pixels */
export const SIDE_SHARE = 0.3;
export const SIDE_MIN = 256;
export const SIDE_MAX = 352;
/** the gap between the board and the column (app.css: column-gap .8rem) */
export const SIDE_GAP = 13;
/** no screen narrower than this has them beside it (a portrait phone) */
export const SIDE_FROM = 600;
/** a phone on its side (app.css): beside by the style sheet */
const TURNED = "(orientation:landscape) and (max-height:500px) and (min-width:560px)";

/**
 * The column's width for a screen `width` pixels wide.
 * @param {number} width
 */
export function sideWidth(width) {
  return Math.round(Math.min(SIDE_MAX, Math.max(SIDE_MIN, width * SIDE_SHARE)));
}

/**
 * Whether the controls go beside the board, from the cards' width under the board and
 * beside it (each worked out from the screen as it is, whichever way it is laid out now).
 * @param {number} under
 * @param {number} beside
 */
export function goesBeside(under, beside) {
  return beside >= under * GAIN;
}

/** @type {WeakMap<Element, number>} the height the controls took under the board, by screen */
const TAKEN = new WeakMap();

/**
 * Put the controls of the screen holding `box` under its board or beside it, for `view`.
 * @param {HTMLElement} box the board's box
 * @param {Message | null | undefined} view
 */
export function placeControls(box, view) {
  const screen = box.closest("main > *");
  if (!(screen instanceof HTMLElement) || !view) return;
  if (window.matchMedia(TURNED).matches || screen.clientWidth < SIDE_FROM) {
    screen.classList.remove("beside");
    return;
  }
  const width = screen.clientWidth;
  const height = screen.clientHeight;
  const side = sideWidth(width);
  const now = getComputedStyle(screen).display === "grid";
  // (the box's own margins go with the controls' room)
  if (!now) TAKEN.set(screen, Math.max(0, height - box.clientHeight));
  const taken = TAKEN.get(screen);
  if (taken === undefined) return;
  const under = cardWidth(view, width, height - taken);
  const beside = cardWidth(view, width - side - SIDE_GAP, height);
  screen.style.setProperty("--side", `${side}px`);
  screen.classList.toggle("beside", goesBeside(under, beside));
}
