// @ts-check
// The daily across its day's reset (00:00 UTC, docs/protocol.md, "The daily challenge", its reset): what a
// daily screen left open over it says and does once the day it shows is over.
//
// - A ranked attempt the reset ends comes to an end on the screen (`endByResult`): its
//   `daily_result` (status `timeout`) comes with no reply to any request, so nothing else
//   ends the game; its clock stops at 00:00, where the result's `time_ms` ends.
// - The result's heading says the end in words ("Time ran out"), and no "so far" about a
//   day that has closed (`resultHeading`).
// - The time to the next deal gives way to "The new deal is here" and a way to the new
//   day's Start screen, which asks first (`newDealLine`).
// - Practice of the day's deal, public once the day is over, is that deal dealt again
//   from its seed (`pastDeal`: the ranked attempt's replay, then `new_game` with the
//   seed), a solo game on no board: `daily` deals the new day's ranked attempt.
//
// And the ranked result said after the game's end, as the reset's too (`resultSaid`).

import { button, h } from "./dom.js";
import { say } from "./focus.js";

/** @typedef {import("./types.js").Message} Message */
/** @typedef {import("./link.js").Link} Link */
/** @typedef {import("./game.js").GameScreen} GameScreen */

/**
 * Server ms of the reset that ends `day` (the 00:00 UTC after it); null for text that is
 * no day.
 * @param {unknown} day `YYYY-MM-DD`
 * @returns {number | null}
 */
export function dayEndMs(day) {
  const found = typeof day === "string" ? /^(\d{4})-(\d\d)-(\d\d)$/.exec(day) : null;
  if (!found) return null;
  return Date.UTC(Number(found[1]), Number(found[2]) - 1, Number(found[3]) + 1);
}

/**
 * A ranked attempt's result as the daily's heading says it: its end in words and its rank
 * on the day's board: "so far" while the day runs (others finish after it), and as it
 * finished once the day is over; at the reset, where the day ended it, the board's.
 * @param {Message} result a `daily_result`
 * @param {boolean} over whether the day is over
 */
export function resultHeading(result, over) {
  const timeout = result.status === "timeout";
  const end = timeout ? "Time ran out" : `Daily ${result.status}`;
  if (result.review) return `${end}: held for review`;
  if (typeof result.rank !== "number") return end; // (asked again, the board not read)
  const rank = `rank ${result.rank} on the day's board`;
  if (timeout) return `${end} at 00:00 UTC: ${rank}`;
  return `${end}: ${rank}${over ? " as you finished" : " so far"}`;
}

/**
 * The ranked game on the screen ended as its `daily_result` says, where nothing ended it
 * yet: a `timeout` at the reset, which no reply brings. Its clock stops at the reset
 * (its `time_ms` runs to 00:00), its buttons and move box go, its piles are no buttons;
 * the screen is told (`onOver`) as after any end. True if it was ended here.
 * @param {GameScreen | null} game
 * @param {Message} result
 */
export function endByResult(game, result) {
  if (!game || game.id !== result.game || game.over || result.status !== "timeout") return false;
  game.status = "timeout";
  game.legal = [];
  game.lost = null;
  game.picked = null;
  game.choices = [];
  game.finishedAt = dayEndMs(result.day);
  game.draw();
  if (game.opts.onOver) game.opts.onOver(game.status);
  return true;
}

/**
 * The ranked result's words (`words`: its heading; the line to paste, its "·"s read out,
 * is not said) said after the game's end: in the daily's live region (`live`) now where
 * the game (`game`, the ranked attempt `id`) has said its end already or is not shown;
 * else returned, for the game's live region to say after its end (the result comes
 * before the reply to the move that ended it, and had been said first).
 * @param {GameScreen | null} game
 * @param {string} id the result's game
 * @param {HTMLElement} live
 * @param {string} words
 * @returns {string[]}
 */
export function resultSaid(game, id, live, words) {
  if (game && game.id === id && game.saidEnd === null) return [words];
  say(live, words, true);
  return [];
}

/**
 * "The new deal is here." and the button to the new day's Start screen (which asks the
 * server first, and deals nothing until Start), in place of a countdown gone to 0:00.
 * @param {() => void} show the new day's Start screen
 */
export function newDealLine(show) {
  return h(
    "p",
    { class: "muted resets new-day" },
    "The new deal is here (00:00 UTC). ",
    button("Today's daily", show, { "data-act": "new-day" }),
  );
}

/**
 * Practice of a day that is over: its deal again, as a solo game (`pastDeal`); no
 * "race the board": the board's ghosts race only the day's own practice.
 * @param {string} label the button's ("Practise this deal", "Practise again")
 * @param {string | null} day
 * @param {() => void} practise
 */
export function pastPractice(label, day, practise) {
  return h(
    "div",
    { class: "controls practice" },
    button(label, practise, { "data-act": "practice" }),
    h("span", { class: "muted" }, ` ${day}'s deal again, as a solo game on no board`),
  );
}

/**
 * The head over a past day's deal dealt again: what it is, and the way to the new day's.
 * @param {string} name the game's
 * @param {string | null} day
 * @param {() => void} show the new day's Start screen
 */
export function pastHead(name, day, show) {
  return [
    h("p", { class: "muted past-deal" }, `${name} · ${day}'s deal again · solo game: not ranked, on no board`),
    newDealLine(show),
  ];
}

/**
 * The seed in a replay's JSON text, read whole: a daily's seed is 64 bits, past what a
 * number of JSON.parse's or msgpack's holds (2^53), and a seed off by one is another deal.
 * @param {string} text
 * @returns {bigint | null}
 */
export function seedOf(text) {
  const found = /"seed"\s*:\s*(\d+)/.exec(text);
  return found ? BigInt(found[1]) : null;
}

/**
 * A past day's deal of `rules` dealt again as a solo game (not ranked, on no board): the
 * seed from the day's ranked attempt's replay, public since the reset (`/replay/ID.json`),
 * then `new_game` with it. Its snapshot; an Error where the replay or its seed is not to
 * be had (before the reset the server keeps it secret).
 * @param {Link} link
 * @param {string} rules
 * @param {string | null} replay the ranked attempt's game id (its replay's)
 * @returns {Promise<Message>}
 */
export async function pastDeal(link, rules, replay) {
  if (!replay) throw new Error("no ranked attempt of that day to take its deal from");
  const answer = await fetch(`/replay/${encodeURIComponent(replay)}.json`, { cache: "no-store" });
  if (!answer.ok)
    throw new Error(answer.status === 403 ? "the day's deal is not public yet" : `its replay: HTTP ${answer.status}`);
  const seed = seedOf(await answer.text());
  if (seed === null) throw new Error("the day's deal is not public yet");
  return link.request("new_game", { game: rules, seed });
}
