// @ts-check
// Where racers stand, and how results read: pure (no DOM), for the screens that race
// ghosts (challenge.js: a challenge; daily.js: practice against the board) and the
// notices about them. Unit tests: client_web/tests/ranking.test.js.

import { clock, count, finishTime, statusText } from "./dom.js";

/**
 * A ghost as the server sends it: its player, its recorded points (`[ms from the start,
 * cards home, moves]`, in order), its cards in all, and its end.
 * @typedef {object} Ghost
 * @property {string} name
 * @property {[number, number, number][]} [points]
 * @property {number} total
 * @property {{ at: number, status: string } | null} [end]
 */

/**
 * A racer's row in the racers' panel at a moment.
 * @typedef {object} Row
 * @property {string} name
 * @property {number} home
 * @property {number} total
 * @property {number} moves
 * @property {string} status "playing", "won", "lost", "resigned"
 * @property {boolean} [ghost]
 */

/**
 * A row as practice against the board ranks it: when it won (`at`), and when it
 * reached its cards home (`reached`), in ms from the start.
 * @typedef {Row & { at: number | null, reached: number | null }} Standing
 */

/**
 * A finished game's entry in a table: its status, time, cards home and moves.
 * @typedef {object} Entry
 * @property {string} status
 * @property {number} time_ms
 * @property {number} home
 * @property {number} total
 * @property {number} moves
 */

/**
 * "1st", "2nd", "3rd", "4th", ..., "11th", "12th", "13th", "21st"
 * @param {number} n
 */
export function ordinal(n) {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  return `${n}${teen ? "th" : ["th", "st", "nd", "rd"][n % 10] || "th"}`;
}

/**
 * An entry's place in a race's results or a ghosts' table: its `place`, the rank shared
 * by those the server parts only by who joined (or took the challenge) first, as a
 * competition's (1, 2, 2, 4); its `rank` from a server that sends no place.
 * @param {{rank?: number, place?: number}} entry
 * @returns {number}
 */
export function placeOf(entry) {
  return typeof entry.place === "number" ? entry.place : Number(entry.rank) || 0;
}

/**
 * Whether another entry of `entries` shares `entry`'s place.
 * @param {{rank?: number, place?: number}} entry
 * @param {{rank?: number, place?: number}[]} entries
 */
function shared(entry, entries) {
  return entries.some((e) => e !== entry && placeOf(e) === placeOf(entry));
}

/**
 * The place for a table's `#` column: "=2" where it is shared.
 * @param {{rank?: number, place?: number}} entry
 * @param {{rank?: number, place?: number}[]} entries
 */
export function placeCell(entry, entries) {
  return `${shared(entry, entries) ? "=" : ""}${placeOf(entry)}`;
}

/**
 * A race's results in a line, as the player `me` reads them: "Race over: you came 2nd of
 * 3.", "... joint 1st of 3, level with ann."; to a watcher, who came first: "Race over:
 * ann came 1st of 2." (the table alone said who won to those who could read it).
 * @param {{player?: string, rank?: number, place?: number, ghost?: boolean}[]} results
 * @param {string | null} me
 */
export function raceOverText(results, me) {
  if (!results.length) return "Race over.";
  const mine = results.find((r) => r.player === me && !r.ghost);
  const first = results.filter((r) => placeOf(r) === placeOf(results[0]));
  if (!mine) {
    const who = listed(first.map((r) => String(r.player)));
    return `Race over: ${who} came ${placed(results[0], results)} of ${results.length}.`;
  }
  const level = results.filter((r) => r !== mine && placeOf(r) === placeOf(mine)).map((r) => r.player);
  const tie = level.length ? `, level with ${listed(level.map(String))}` : "";
  return `Race over: you came ${placed(mine, results)} of ${results.length}${tie}.`;
}

/**
 * Names as a sentence lists them: "ann, bob and cy" ("ann and bob and cy", and "level
 * with bob, cy", read badly).
 * @param {string[]} names
 */
export function listed(names) {
  if (names.length < 2) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/**
 * The place in words: "2nd", or "joint 2nd" where it is shared.
 * @param {{rank?: number, place?: number}} entry
 * @param {{rank?: number, place?: number}[]} entries
 */
export function placed(entry, entries) {
  return `${shared(entry, entries) ? "joint " : ""}${ordinal(placeOf(entry))}`;
}

/**
 * The racers as they stand at a moment, ranked as the server ranks the table at the end:
 * those who have won first, by when (`at`, ms from the start), then fewer moves; then
 * the most cards home, who reached that count first (`reached`: level there, moves part
 * nobody, as the server's results); a ghost ahead of the player when all is level (its
 * game was played first). A guide while
 * racing: the placing is the server's, by its own clock.
 * @template {Standing} T
 * @param {T[]} rows
 * @returns {T[]}
 */
export function liveOrder(rows) {
  /** @param {Standing} r */
  const key = (r) =>
    (r.status === "won" ? [0, r.at ?? 0, r.moves] : [1, -r.home, r.reached ?? 0]).concat(r.ghost ? 0 : 1);
  /**
   * @param {number[]} a
   * @param {number[]} b
   */
  const compare = (a, b) => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
    return 0;
  };
  return [...rows].sort((a, b) => compare(key(a), key(b)));
}

/**
 * "You beat 5 of 8 ghosts."
 * @param {number} beaten
 * @param {number} ghosts
 */
export function beatenText(beaten, ghosts) {
  if (!ghosts) return "No ghosts raced: nobody else had finished today's deal.";
  if (beaten === ghosts) return ghosts === 1 ? "You beat the ghost." : `You beat all ${count(ghosts, "ghost")}.`;
  return `You beat ${beaten} of ${count(ghosts, "ghost")}.`;
}

/**
 * Where a ghost stands `ms` after the start: at its last point at or before then, and
 * ended (its end's status) once `ms` reaches its end.
 * @param {Ghost} ghost
 * @param {number} ms
 * @returns {Row}
 */
export function ghostAt(ghost, ms) {
  const points = Array.isArray(ghost.points) && ghost.points.length ? ghost.points : [[0, 0, 0]];
  let point = points[0];
  for (const p of points) {
    if (p[0] > ms) break;
    point = p;
  }
  const ended = ghost.end && ms >= ghost.end.at;
  return {
    name: ghost.name,
    home: point[1],
    total: ghost.total,
    moves: point[2],
    status: ended && ghost.end ? ghost.end.status : "playing",
    ghost: true,
  };
}

/**
 * "won in 1:38 · 96 moves", "lost, 40/52 home · 120 moves" ("lost, 20/26 pairs off · ..."
 * where cards come off in pairs: the game's `unit`); "" for no entry.
 * @param {Entry | null | undefined} entry
 * @param {string} [unit]
 */
export function resultText(entry, unit) {
  if (!entry) return "";
  const how =
    entry.status === "won"
      ? `won in ${finishTime(entry.time_ms)}`
      : `${statusText(entry.status)}, ${gotText(entry, unit)}`;
  return `${how} · ${count(entry.moves, "move")}`;
}

/**
 * How far a game not won got, in words: "40/52 home", or "20/26 pairs off" where cards
 * come off in pairs.
 * @param {{ home?: number, total?: number, [key: string]: any }} entry
 * @param {string} [unit]
 */
export function gotText(entry, unit) {
  return unit === "pairs" ? `${progressText(entry, unit)} off` : `${progressText(entry, unit)} home`;
}

/**
 * "You beat ann's ghost by 12.3 s.", "... by 1:02.3.", "ann's ghost beat you by 51 cards home." ("by 3 pairs off."
 * where cards come off in pairs), "A tie with ann's ghost: ..." (the two did just the
 * same, and share a place in the table), ...
 * @param {{ beat: boolean, tied?: boolean, by_ms?: number | null, by_cards?: number | null, by_moves?: number | null }} verdict
 * @param {string} ghost the ghost's player
 * @param {string} [unit] the game's: `pairs` counts pairs off (`by_cards` counts cards)
 */
export function verdictText(verdict, ghost, unit) {
  const them = `${ghost}'s ghost`;
  const pairs = unit === "pairs";
  const level = pairs ? "pairs off" : "cards home";
  if (verdict.tied) {
    // (moves part only winners: level on cards home as soon, the moves played are not asked)
    if (verdict.by_ms === null || verdict.by_ms === undefined) return `A tie with ${them}: as many ${level}, as soon.`;
    return `A tie with ${them}: the same time, in as many moves.`;
  }
  const fewer = typeof verdict.by_moves === "number" && verdict.by_moves > 0; // (moves decided it)
  if (verdict.by_ms !== null && verdict.by_ms !== undefined) {
    if (verdict.by_ms === 0 && fewer)
      return `The same time as ${them}: ${verdict.beat ? "you" : "the ghost"} took fewer moves.`;
    // to the tenth: each time is shown to the second, and "by 0:33" between 1:45 and 1:11
    // (1:45.4 and 1:11.9) read as a second short; under a minute in seconds, as the
    // terminal says it ("by 8.9 s": the browser had said "by 0:08.9")
    const tenth = Math.floor(verdict.by_ms / 100) % 10;
    const by =
      verdict.by_ms < 60_000 ? `${Math.floor(verdict.by_ms / 1000)}.${tenth} s` : `${clock(verdict.by_ms)}.${tenth}`;
    return verdict.beat ? `You beat ${them} by ${by}.` : `${them} beat you by ${by}.`;
  }
  // (as the terminal says it: "Level on cards home: you got there first" left who won to be
  // worked out)
  if (!verdict.by_cards)
    return verdict.beat
      ? `You beat ${them}: as many ${level}, and you got there first.`
      : `${them} beat you: as many ${level}, and the ghost got there first.`;
  const by = pairs
    ? `${count(Math.floor(verdict.by_cards / 2), "pair")} off`
    : `${count(verdict.by_cards, "card")} home`;
  return verdict.beat ? `You beat ${them} by ${by}.` : `${them} beat you by ${by}.`;
}

/**
 * How far a game not won got, as a board shows it: its cards home ("30/52"), or where
 * cards come off in pairs (the board's `unit`), its pairs ("15/26 pairs").
 * @param {{ home?: number, total?: number, [key: string]: any }} entry
 * @param {string | undefined} unit
 */
export function progressText(entry, unit) {
  const home = entry.home ?? 0;
  const total = entry.total ?? 0;
  return unit === "pairs" ? `${home / 2}/${total / 2} pairs` : `${home}/${total}`;
}

/** a replay's log entries that are no move, in words (the terminal's and the replay page's) */
const ENTRY_WORDS = { "!undo": "undo", "!resign": "resign", "!timeout": "time up", "!hint": "hint" };

/**
 * A replay's log entry as a person reads it: a move's notation, or what the entry that is
 * none did ("!hint": "hint").
 * @param {string} entry
 */
export function entryText(entry) {
  return Object.hasOwn(ENTRY_WORDS, entry) ? ENTRY_WORDS[/** @type {keyof typeof ENTRY_WORDS} */ (entry)] : entry;
}

/**
 * " · 2 hints" for a result with hints asked, else "".
 * @param {{ hints?: number, [key: string]: any }} result
 */
export function hintsText(result) {
  const hints = result.hints;
  if (typeof hints !== "number" || hints <= 0) return "";
  return ` · ${count(hints, "hint")}`;
}

/**
 * A racer whose name changed (`rename`), as [old, new]: one gone from the roster and one
 * come in its place, the others where they were; null for anything else. (A new name
 * read "catD left" and "catty joined".)
 * @param {string[]} before the roster's names, in order, as it was
 * @param {string[]} now as it is
 * @returns {[string, string] | null}
 */
export function renamedIn(before, now) {
  if (before.length !== now.length) return null;
  const changed = before.map((name, i) => [name, now[i]]).filter(([a, b]) => a !== b);
  if (changed.length !== 1) return null;
  const [gone, come] = changed[0];
  return before.includes(come) || now.includes(gone) ? null : [gone, come];
}

/**
 * A quick race wait's rating as every table shows it: the server's `rating_shown`
 * (`rating`, to two decimals for the window, rounded again could say another figure:
 * -2.504, sent as -2.5, read -2 where the profile says -3); from a server before it,
 * `rating` rounded.
 * @param {Record<string, any>} waiting `quick_waiting`
 * @returns {number}
 */
export function shownRating(waiting) {
  return Number.isInteger(waiting.rating_shown) ? waiting.rating_shown : Math.round(waiting.rating);
}
