// @ts-check
// What a screen missed while its link was down (a phone offline as its game ended: the
// end's event went nowhere), asked afresh once the link is back (`welcome`): the daily's
// ranked result (`daily` with `start: false`, and the player's rank on the day's board).
// The screen then shows it as the event would have.

/** @typedef {import("./types.js").Message} Message */
/** @typedef {import("./link.js").Link} Link */

/**
 * The ranked attempt `game`'s result as its `daily_result` said it, asked again: the
 * status's line, par, streak and difficulty, and the rank on the day's board now (null
 * where it cannot be had). Null where that attempt is not over (or the day's is another).
 * @param {Link} link
 * @param {string} rules
 * @param {string} game the ranked attempt's id
 * @param {string} status how it ended
 * @returns {Promise<Message | null>}
 */
export async function missedDailyResult(link, rules, game, status) {
  const now = await link.request("daily", { game: rules, start: false });
  if (now.ranked_attempt !== "ended" || now.game !== game || !now.ranked_result) return null;
  const board = `daily/${rules}/${now.day}`;
  let rank = null;
  try {
    rank = (await link.request("top", { board, around: true })).rank ?? null;
  } catch {
    /* the heading goes without it */
  }
  const { day, streak, par, par_shortest, over_par, difficulty, review } = now;
  /** @type {Message} */
  const result = { type: "daily_result", day, game, rules, status, rank, board, streak, par, par_shortest };
  Object.assign(result, { over_par, difficulty, line: now.ranked_result });
  if (review) result.review = review;
  return result;
}

/**
 * The daily screen's ranked attempt ended while the link was down (the welcome's `resume`
 * has it over, or no longer has it) and its result not shown: the result asked for, and
 * handed to the screen as its `daily_result`.
 * @param {import("./daily.js").DailyScreen} screen
 * @param {Message} welcome
 */
export async function dailyCaughtUp(screen, welcome) {
  const game = screen.game;
  if (!game || game.kind !== "daily" || screen.ended || screen.stage !== "game") return;
  const solo = welcome.resume && welcome.resume.solo;
  if (solo && solo.game === game.id && solo.status === "playing") return;
  let result;
  try {
    const status = game.over ? game.status : screen.dayOver() ? "timeout" : "ended";
    result = await missedDailyResult(screen.app.link, screen.rules, game.id, status);
  } catch {
    return; // (the link dropped again: the next welcome asks again)
  }
  if (result && screen.game === game && !screen.ended) screen.event(result);
}

/**
 * A challenge's `challenge_result` as the table (`challenge_show`'s reply) has it, for
 * one who missed the event: their entry and the ghost's, and the verdict between them
 * read from the table's places; null where the player's game is not on it.
 * @param {Message} shown `challenge_show`'s reply
 * @param {string | null} me
 * @returns {Message | null}
 */
export function challengeResultFrom(shown, me) {
  /** @type {Message[]} */
  const table = Array.isArray(shown.table) ? shown.table : [];
  const you = table.find((e) => !e.ghost && e.player === me);
  const ghost = table.find((e) => e.ghost && e.player === shown.challenge.player) || table.find((e) => e.ghost);
  if (!you || !ghost || !you.status || you.status === "playing") return null;
  const won = you.status === "won" && ghost.status === "won";
  const tied = you.place === ghost.place;
  const verdict = {
    beat: !tied && you.place < ghost.place,
    tied,
    by_ms: won ? Math.abs(you.time_ms - ghost.time_ms) : null,
    by_cards: won ? null : Math.abs(you.home - ghost.home),
    by_moves: won ? Math.abs(you.moves - ghost.moves) : null,
  };
  return { type: "challenge_result", challenge: shown.challenge, verdict, you, ghost, table };
}

/**
 * The challenge screen's game ended while the link was down (the welcome's `resume` no
 * longer has it): the table asked again, and the verdict shown from it.
 * @param {import("./challenge.js").ChallengeScreen} screen
 */
export async function challengeCaughtUp(screen) {
  await screen.load();
  const result = screen.shown && !screen.result ? challengeResultFrom(screen.shown, screen.me) : null;
  if (result) screen.onResult(result);
}

/**
 * The quick race's ghost race ended while the link was down (the welcome's `resume` no
 * longer has it): its end from its replay (the placing among the ghosts comes in its event
 * alone), shown as a race with no table.
 * @param {import("./quick.js").QuickScreen} screen
 */
export async function quickCaughtUp(screen) {
  const race = screen.race;
  if (!race || !screen.game || screen.result) return;
  let replay;
  try {
    replay = (await screen.app.link.request("replay", { replay: race.game })).replay;
  } catch {
    return; // (the next welcome asks again)
  }
  if (screen.result || screen.race !== race || !replay || !replay.result) return;
  const you = { ...replay.result, player: screen.me, ghost: false };
  screen.onResult({ type: "quick_ghosts_result", game: race.game, replay: race.game, you, table: [], rank: null });
}
