// @ts-check
// The daily challenge's lines (daily.js): the day's commitment to its deal, its par, how
// hard it is, the streaks, and a ranked result the pace check held.

import { h } from "./dom.js";
import { againstPar, parWords } from "./par.js";
import { difficultyText, gradeOf } from "./difficulty.js";

/** @typedef {import("./types.js").Message} Message */

/**
 * The day's commitment to the deal, short, and the page where every commitment is
 * published and, after the reset, revealed (docs/commitments.md).
 * @param {string | undefined} commitment 64 hex digits
 */
export function commitmentLine(commitment) {
  if (typeof commitment !== "string" || !commitment) return null;
  return h(
    "span",
    { class: "commitment", "data-commitment": commitment },
    " The deal is committed ahead: ",
    h("code", { title: commitment }, commitment.slice(0, 12)),
    " (",
    h("a", { href: "/daily/commitments", target: "_blank", rel: "noopener" }, "check it"),
    ").",
  );
}

/**
 * The day's par, once the ranked attempt is over and the deal's par is known.
 * @param {Message} said a `daily_result` or an ended `daily_status`
 * @param {{ view: Message, status: string } | null} [game] the attempt, where it is on screen: won, its moves against par
 */
export function parLine(said, game = null) {
  if (typeof said.par !== "number") return null;
  // (back after the ranked attempt's end, the server says how its win stood: the game
  // on the screen is the practice then)
  const won =
    typeof said.over_par === "number"
      ? againstPar(said.par, said.par + said.over_par, true)
      : game
        ? againstPar(said.par, game.view.moves, game.status === "won")
        : "";
  return h("p", { class: "par" }, `The day's ${parWords(said.par, said.par_shortest)}.${won ? ` ${won}` : ""}`);
}

/**
 * How hard the day's deal is, where it is graded.
 * @param {Message | null | undefined} graded a `difficulty` map
 * @param {string} [unit] the game's (pairs: its cards are paired off, not home)
 */
export function difficultyLine(graded, unit) {
  const text = difficultyText(graded, unit);
  return text ? h("p", { class: "difficulty", "data-grade": gradeOf(graded) }, text) : null;
}

/** @param {Message | null | undefined} streak */
export function streakText(streak) {
  if (!streak) return "";
  return `streak: ${streak.game.current} in this game (best ${streak.game.best}), ${streak.all.current} in any (best ${streak.all.best})`;
}

// a ranked result the pace check held off the public boards, or decided since, in words
// (docs/leaderboards.md, "Fair play: the pace policy"); null for any other result
/** @param {Message | undefined} review `review` of daily_result or daily_status */
export function reviewNote(review) {
  if (!review || typeof review.note !== "string") return null;
  return h("p", { class: "review-note", "data-review": String(review.state) }, review.note);
}
