// @ts-check
// The home screen's marks on each game's daily: the player's ranked attempt today, done
// or under way, as the terminal's game list marks it. Asked of the server for every game
// at once when the home screen is drawn, with `daily` and `"start": false`
// (docs/protocol.md#asking-before-starting-daily_status): nothing is dealt and no clock
// starts. A game whose answer fails, or that is not taken up today, stays unmarked.

import { h } from "./dom.js";

/** @type {Record<string, string>} a `daily_status`'s `ranked_attempt`, in words */
export const DAILY_MARKS = { ended: "Today's daily: done", playing: "Today's daily: under way, its clock running" };

/**
 * The mark for one game's `daily_status` ("" for none).
 * @param {Record<string, any> | undefined} status
 * @returns {string}
 */
export function dailyMark(status) {
  const state = status && status.type === "daily_status" ? String(status.ranked_attempt) : "";
  return Object.hasOwn(DAILY_MARKS, state) ? DAILY_MARKS[state] : "";
}

/**
 * Ask for each row's game and mark the rows whose daily is done or under way: a line under
 * the game's name, and the Daily button's name for a screen reader.
 * @param {(type: string, fields?: Record<string, any>) => Promise<Record<string, any>>} request
 * @param {HTMLElement[]} rows the home screen's `.game-row`s (`data-game`)
 */
export function markDailies(request, rows) {
  for (const row of rows) {
    const game = row.dataset.game || "";
    request("daily", { game, start: false }).then(
      (status) => {
        const mark = dailyMark(status);
        if (!mark) return;
        const state = String(status.ranked_attempt);
        const named = row.querySelector("div");
        if (named) named.append(h("p", { class: "daily-mark", dataset: { daily: state } }, mark));
        const daily = row.querySelector("[data-act=daily]");
        if (daily) daily.setAttribute("aria-label", `${daily.getAttribute("aria-label")} (${mark})`);
      },
      () => {}, // (unmarked: the list stands without it)
    );
  }
}
