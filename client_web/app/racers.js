// @ts-check
// The racers' panel (a live bar per racer) and a race's results table: a room's, a
// challenge's, a daily practice's and a quick race's.

import { clock, count, h, replace, statusText } from "./dom.js";
import { placeCell, progressText } from "./ranking.js";

/** @typedef {import("./types.js").Message} Message */

/**
 * A racer's row in the racers' panel: a missing count is drawn as none (total: 52), a
 * missing status as playing.
 * @typedef {object} RacerRow
 * @property {string} name
 * @property {number} [home]
 * @property {number} [total]
 * @property {number} [moves]
 * @property {string} [status]
 * @property {boolean} [ghost]
 * @property {boolean} [left] a racer who left the room during the race
 * @property {boolean} [forfeited] a racer the server resigned, away too long
 */

// The racers' panel, a race's and a challenge's: a live bar per racer (cards home, moves,
// how their game ended), one's own row lit, a ghost's marked as one.
/**
 * @param {Element} box
 * @param {RacerRow[]} rows
 * @param {string | null} me the player's name
 * @param {string} [unit] the game's: `pairs` shows pairs off ("3/26 pairs"), as it plays
 */
export function drawRacers(box, rows, me, unit) {
  // (what the game's `s` key says: shortcuts.js)
  if (box instanceof HTMLElement) box.dataset.standings = standingsSaid(rows, me, unit);
  // a list, a racer an item (a screen reader read the panel as one run of text)
  box.setAttribute("role", "list");
  box.setAttribute("aria-label", "racers");
  replace(
    box,
    rows.map((p) => {
      const total = p.total || 52;
      const home = p.home || 0;
      const fill = h("div", { class: "fill" });
      fill.style.width = `${Math.round((100 * home) / total)}%`;
      const mine = p.name === me && !p.ghost;
      return h(
        "div",
        {
          class: `bar-row${mine ? " mine" : ""}${p.ghost ? " ghost" : ""}`,
          role: "listitem",
          dataset: { player: p.name, status: p.status || "playing" },
        },
        h(
          "span",
          { class: "who", title: p.ghost ? `${p.name}'s ghost: the recorded game` : p.name },
          // (the name shortened with an ellipsis where it is long, never the tag after it)
          h("span", { class: "name" }, p.name),
          p.ghost ? h("span", { class: "tag ghost" }, "ghost") : null,
        ),
        h("div", { class: "track" }, fill),
        h(
          "span",
          { class: "nums" },
          `${progressText({ home, total }, unit)} · ${count(p.moves || 0, "move")}${endedText(p) ? ` · ${endedText(p)}` : ""}`,
        ),
      );
    }),
  );
}

/**
 * The racers' panel in words, for a screen reader (the game's `s` key): the racers by
 * cards home, most first (a race over: in its results' order), each with their moves and
 * how their game ended.
 * @param {RacerRow[]} rows
 * @param {string | null} me
 * @param {string} [unit]
 */
export function standingsSaid(rows, me, unit) {
  if (!rows.length) return "No racers yet.";
  const ranked = [...rows].sort((a, b) => (b.home || 0) - (a.home || 0));
  const each = ranked.map((p) => {
    const who = p.ghost ? `${p.name}'s ghost` : p.name === me ? `you (${p.name})` : p.name;
    const home = p.home || 0;
    const total = p.total || 52;
    const got = unit === "pairs" ? `${home / 2} of ${total / 2} pairs off` : `${home} of ${total} cards home`;
    const ended = endedText(p);
    return `${who}, ${got}, ${count(p.moves || 0, "move")}${ended ? `, ${ended}` : ""}`;
  });
  return `Standings: ${each.join("; ")}.`;
}

/**
 * How a racer's game stands, after their counts: nothing while it is played; a racer who
 * left the room said so, as the results and the terminal say it ("resigned, left": it
 * said "resigned" alone), and one the server resigned, away too long ("resigned, away
 * too long": not given up).
 * @param {RacerRow} p
 */
export function endedText(p) {
  const status = p.status && p.status !== "playing" ? statusText(p.status) : "";
  if (p.left) return status ? `${status}, left` : "left";
  return p.forfeited && status ? `${status}, away too long` : status;
}

// Results ranked as a race's (a challenge's table too): rank, player (a ghost marked;
// the name links to the replay, where one is named, as on the leaderboards), how it
// ended, the time of a win, moves and cards home: narrow enough for a phone.
/**
 * @param {Message[]} results as the server ranks them: rank, player, status, time_ms
 *   (null unless won), moves, home, total; replay and ghost where they apply
 * @param {string | null} me the player's name
 * @param {string} [unit] the game's: `pairs` counts pairs off (a column of pairs)
 */
export function resultsTable(results, me, unit) {
  // a rated race's (docs/ratings.md): each racer's rating after it, and its change
  const rated = results.some((r) => typeof r.rating === "number");
  // the hints each racer was given, where any was (a room made with hints allowed)
  const hinted = results.some((r) => typeof r.hints === "number" && r.hints > 0);
  // on a phone the result goes under the name (app.css), leaving the name the result's
  // column to fit in
  const rows = results.map((r) => {
    // (one who left the room ranks below one who stayed with as many: said so; one the
    // server resigned, away too long, did not give up)
    const ended = endedText({ name: r.player, status: r.status || "timeout", left: r.left, forfeited: r.forfeited });
    const result = r.review === "held" ? `${ended} (held for review)` : ended;
    return h(
      "tr",
      {
        class: `${r.ghost ? "ghost" : ""}${r.player === me && !r.ghost ? " mine" : ""}`,
        dataset: { player: r.player },
      },
      h("td", { class: "n" }, placeCell(r, results)),
      h(
        "td",
        {},
        r.replay
          ? h("a", { href: `/play#replay=${encodeURIComponent(r.replay)}`, title: `${r.player}'s replay` }, r.player)
          : r.player,
        // (a space before the tag: a screen reader read the name and it as one word)
        r.ghost ? [" ", h("span", { class: "tag ghost" }, "ghost")] : null,
        h("span", { class: "result-under" }, result),
      ),
      h("td", { class: "result" }, result),
      h("td", { class: "n" }, r.time_ms === null || r.time_ms === undefined ? "—" : clock(r.time_ms)),
      h("td", { class: "n" }, String(r.moves)),
      h("td", { class: "n" }, unit === "pairs" ? `${r.home / 2}/${r.total / 2}` : `${r.home}/${r.total}`),
      hinted ? h("td", { class: "n" }, String(r.hints || 0)) : null,
      rated ? h("td", { class: "n rating" }, ratingChange(r)) : null,
    );
  });
  const table = h(
    "table",
    {},
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        [
          "#",
          "player",
          "result",
          "time",
          "moves",
          unit === "pairs" ? "pairs" : "home",
          ...(hinted ? ["hints"] : []),
          ...(rated ? ["rating"] : []),
        ].map((t) => h("th", { class: t === "result" ? "result" : t === "player" ? "" : "n" }, t)),
      ),
    ),
    h("tbody", {}, rows),
  );
  const replays = results.some((r) => r.replay) ? h("p", { class: "muted" }, "A name opens its replay.") : null;
  return h("div", { class: "table-box results-table" }, table, replays);
}

/**
 * A racer's rating after a rated race and its change, "12 (+3)"; "" for one not rated.
 * @param {Message} result
 * @returns {string}
 */
export function ratingChange(result) {
  if (typeof result.rating !== "number") return "";
  const change = Number(result.rating_change) || 0;
  return `${result.rating} (${change >= 0 ? "+" : ""}${change})`;
}
