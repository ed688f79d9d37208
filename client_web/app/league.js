// @ts-check
// This week's league (docs/web.md, "What a player can do"): the box on the home screen (the
// tier, the league, one's rank and points and the time to the week's end, or a button to
// join the week's event) and the standings screen (/play#league, or #league=YYYY-Www for a
// past week as it closed). Both ask the server (`event`, `event_join`); this week's
// standings screen watches its league (`event` with `watch`), so the server sends the
// standings again as they change (a member's daily counted, a member joined, the week
// closed) and the screen redraws; it stops watching when it goes. Loaded when the home
// screen is first drawn (front.js), so the first load stays as it was.

import { button, h, replace } from "./dom.js";
import { keepFocus } from "./focus.js";
import { ServerError } from "./link.js";
import {
  CLOSING_MS,
  CLOSING_TEXT,
  POLL_MS,
  WEEK_MS,
  Watched,
  atEnd,
  inClosingWindow,
  previousWeek,
  wordsChangeIn,
} from "./league_watch.js";

/** @typedef {import("./types.js").App} App */
/** @typedef {import("./types.js").Message} Message */

/**
 * `2d 5h`, `5h 12m`, `12m`, `under a minute` (26 s left had read "0m"): the time left to the week's end.
 * @param {number} ms
 * @returns {string}
 */
export function timeLeft(ms) {
  if (ms < 60_000) return "under a minute";
  const minutes = Math.floor(ms / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days) return `${days}d ${hours}h`;
  return hours ? `${hours}h ${minutes % 60}m` : `${minutes % 60}m`;
}

/** @param {string} tier */
function tierName(tier) {
  return tier ? tier[0].toUpperCase() + tier.slice(1) : "";
}

/**
 * `3rd`
 * @param {number} n
 */
function ordinal(n) {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${suffix}`;
}

/**
 * The line that sums up one's league: "Gold · 3rd of 30 · 41 points · ends in 1d 2h".
 * @param {Message} e an `event` reply
 * @returns {string}
 */
export function summary(e) {
  if (!e.joined && !e.current) return "You did not race in this week's league";
  if (!e.joined) return `Not joined: you would race in ${tierName(e.tier)}`;
  const end = e.closed ? "closed" : e.current ? `ends in ${timeLeft(e.ends_in_ms)}` : "closing";
  return `${tierName(e.tier)} · ${ordinal(e.rank)} of ${e.players} · ${e.points} points · ${end}`;
}

/**
 * How last week went, for one who has not joined this week's league yet (a returning
 * player, after the close: nothing said they had moved up): "Last week, 2026-W49: 1st of
 * 3 in Bronze, moved up to Silver." Null where there is nothing to tell (not in it, or
 * not closed yet).
 * @param {Message} last the `event` reply of last week
 * @param {Message} now this week's (`tier`: the tier the player races in now)
 * @returns {string | null}
 */
export function lastWeekLine(last, now) {
  if (!last.joined || !last.closed) return null;
  const was = tierName(last.tier);
  const went =
    last.zone === "up"
      ? `moved up to ${tierName(now.tier)}`
      : last.zone === "down"
        ? `moved down to ${tierName(now.tier)}`
        : `stayed in ${was}`;
  return `Last week, ${last.week}: ${ordinal(last.rank)} of ${last.players} in ${was}, ${went}.`;
}

/**
 * The line under the league's heading: the week, the league (when in one), the summary.
 * @param {Message} e an `event` reply
 * @returns {string}
 */
export function leagueLine(e) {
  // ("bronze-1": the tier's first league, said by its number, not by the server's id)
  const league = e.league ? `league ${String(e.league).split("-").pop()}` : null;
  return [e.week, league, summary(e)].filter(Boolean).join(" · ");
}

/**
 * Count the time left down on `line`, this week's (`e`) as `words` say it: the line's
 * text alone set again as the words change (each minute; each hour while days are left),
 * by the page's clock, and "closing" at the end; nothing else is redrawn, so the focus
 * stays where it is. It had read as the last reply said: "ends in 2m" with under a
 * minute left. It stops once the line has left the page (a redraw starts its own).
 * @param {HTMLElement} line
 * @param {Message} e
 * @param {number} endAt the page's clock (performance.now()) at the week's end
 * @param {(e: Message) => string} words
 */
export function countDown(line, e, endAt, words) {
  if (!e.current || e.closed || !e.joined) return; // (the time is in a joined week's line alone)
  const step = () => {
    if (!line.isConnected) return;
    const left = Math.max(0, endAt - performance.now());
    const text = words(left > 0 ? { ...e, ends_in_ms: left } : atEnd(e));
    if (line.textContent !== text) line.textContent = text;
    if (left > 0) setTimeout(step, wordsChangeIn(left));
  };
  setTimeout(step, wordsChangeIn(endAt - performance.now()));
}

/** @param {unknown} error */
function errorText(error) {
  return error instanceof ServerError ? error.message : "the server could not be reached";
}

/**
 * The home screen's "This week's league" box, filled in once the server answers.
 * @param {App} app
 * @returns {HTMLElement}
 */
export function leagueBox(app) {
  // not a live region: filled as the screen comes, it was read out after the greeting
  // each time the home screen came; a join is said by a status of its own
  const box = h("section", { class: "league-box" }, h("h2", {}, "This week's league"));
  const said = h("p", { class: "spoken", role: "status" });
  // (the time of this week's reply, from which its time left is counted down)
  let heardAt = performance.now();
  const fill = (/** @type {Message} */ e, closing = false, /** @type {Message | null} */ last = null) => {
    const line = h("p", { class: "league-line", dataset: { zone: e.zone || "" } }, summary(e));
    countDown(line, e, heardAt + Number(e.ends_in_ms || 0), summary);
    const told = last && !e.joined ? lastWeekLine(last, e) : null;
    const before = told
      ? h("p", { class: "league-last" }, told, " ", h("a", { href: `/play#league=${last?.week}` }, "Its standings"))
      : null;
    const join = closing
      ? h("p", { class: "note league-closing" }, CLOSING_TEXT)
      : button("Join this week", () => joinNow(app, box, joined), { "data-act": "league-join" });
    replace(
      box,
      h("h2", {}, "This week's league"),
      before,
      line,
      e.joined ? h("a", { href: "/play#league" }, "Standings") : join,
      // (a daily ended before the join scores nothing: leaderboards.md, Points)
      e.joined ? null : h("p", { class: "muted" }, "Joining counts the dailies you end from now on, not those before."),
      said,
    );
  };
  // (the focus, on Join this week as it goes, to the standings' link in its place: it
  // had dropped to <body>)
  const joined = (/** @type {Message} */ e) => {
    heardAt = performance.now();
    keepFocus(
      box,
      () => fill(e),
      () => box.querySelector("a[href='/play#league']"),
    );
    said.textContent = `Joined this week's league: ${summary(e)}.`;
  };
  const ask = () =>
    app.link.request("event").then(
      async (e) => {
        heardAt = performance.now();
        const closing = await closingNow(app, e);
        // (asked again once the first minutes are over: the join then offered)
        if (closing) setTimeout(() => box.isConnected && ask(), CLOSING_MS - (WEEK_MS - e.ends_in_ms) + 1000);
        fill(e, closing, e.joined || !e.current ? null : await lastWeek(app, e));
      },
      (error) => {
        replace(box, h("h2", {}, "This week's league"), h("p", { class: "note" }, errorText(error)));
      },
    );
  ask();
  return box;
}

/**
 * Last week's `event` reply, or null where it cannot be had.
 * @param {App} app
 * @param {Message} e this week's
 * @returns {Promise<Message | null>}
 */
async function lastWeek(app, e) {
  try {
    return await app.link.request("event", { week: previousWeek(e.week) });
  } catch {
    return null;
  }
}

/**
 * Whether a join of this week (`e`, not joined) would now be refused as last week's
 * leagues are being closed: in the week's first minutes, last week not closed.
 * @param {App} app
 * @param {Message} e
 */
async function closingNow(app, e) {
  if (e.joined || !inClosingWindow(e)) return false;
  try {
    return !(await app.link.request("event", { week: previousWeek(e.week) })).closed;
  } catch {
    return true;
  }
}

/**
 * @param {App} app
 * @param {HTMLElement} box
 * @param {(e: Message) => void} fill
 */
function joinNow(app, box, fill) {
  app.link.request("event_join").then(fill, (error) => {
    box.append(h("p", { class: "note", role: "status" }, errorText(error)));
  });
}

/**
 * Who moves at the week's end, in this league at its size (`movers`, where one is shown)
 * or in any (`most`): a third of a league of fewer than 15, at most `most` each way; none
 * down from the lowest of `tiers` (lowest first), nor up from the highest. A week
 * `closed` is told as done ("moved up": it said "move up" of those who had moved).
 * @param {number | undefined} movers
 * @param {number} most
 * @param {string} [tier] the league's
 * @param {string[]} [tiers]
 * @param {boolean} [closed]
 */
export function movesText(movers, most, tier = "", tiers = [], closed = false) {
  if (movers === 0)
    return closed
      ? "At the week's end nobody moved: a league of fewer than 3 players stayed as it was."
      : "At the week's end nobody moves: a league of fewer than 3 players stays as it is.";
  const n = typeof movers === "number" ? movers : most;
  const small = n < most ? ` (a third of a league of fewer than ${3 * most} players)` : "";
  const move = closed ? "moved" : "move";
  const nobody = closed ? "nobody moved" : "nobody moves";
  if (tiers.length && tier === tiers[0])
    return `At the week's end the top ${n} (▲) ${move} up a tier${small}; ${nobody} down from ${tierName(tier)}, the lowest.`;
  if (tiers.length && tier === tiers[tiers.length - 1])
    return `At the week's end the bottom ${n} (▼) ${move} down a tier${small}; ${nobody} up from ${tierName(tier)}, the highest.`;
  return `At the week's end the top ${n} (▲) ${move} up a tier, the bottom ${n} (▼) down${small}.`;
}

/**
 * The standings' columns: today's points only while the week runs (a week over has no
 * today: the terminal's table has none either).
 * @param {boolean} current
 */
export function columns(current) {
  return ["#", "player", "pts", "wins", ...(current ? ["today"] : []), ""];
}

/**
 * One week's standings: its line, its table (or what stands in its place), its rules.
 * @param {Message} e
 * @param {{ join?: () => void, closing?: boolean, short?: boolean }} [o] this week's: its join, or that it cannot be joined yet; `short`: the line alone
 */
function standings(e, o = {}) {
  const line = h("p", { class: "league-line" }, leagueLine(e));
  if (o.short) return [line, joinOrNot(e, o)];
  const rows = e.standings.map((/** @type {Message} */ s) =>
    h(
      "tr",
      { class: s.you ? "you" : "", dataset: { zone: s.zone } },
      h("td", { class: "n" }, String(s.rank)),
      h("td", {}, s.name),
      h("td", { class: "n" }, String(s.points)),
      h("td", { class: "n" }, String(s.wins)),
      e.current ? h("td", { class: "n" }, s.today ? `+${s.today}` : "") : null,
      h("td", { class: "zone" }, s.zone === "up" ? "▲" : s.zone === "down" ? "▼" : ""),
    ),
  );
  const r = e.rules;
  const head = h(
    "tr",
    {},
    // (the ▲▼ column's heading unseen, centred as its cells are: an empty one was read as nothing)
    columns(e.current).map((c) =>
      h(
        "th",
        { class: c === "player" ? "" : c === "" ? "zone" : "n" },
        c || h("span", { class: "spoken" }, "moving up or down"),
      ),
    ),
  );
  return [
    line,
    e.joined
      ? h(
          "div",
          { class: "table-box" },
          h("table", { class: "league-table" }, h("thead", {}, head), h("tbody", {}, rows)),
        )
      : joinOrNot(e, o),
    h(
      "p",
      { class: "muted" },
      `A won daily: ${r.win} points and up to ${r.rank_bonus} more by its time among the league's; ` +
        `ended not won: ${r.played}; a daily counts once you have joined, not before. ${movesText(e.movers, r.movers, e.tier, e.tiers, e.closed)} Tiers: ${e.tiers.map(tierName).join(", ")}.`,
    ),
  ];
}

/**
 * In place of the table of a week not joined: its join, or why there is none.
 * @param {Message} e
 * @param {{ join?: () => void, closing?: boolean }} o
 */
function joinOrNot(e, o) {
  if (e.joined) return null;
  if (e.current && o.join && !o.closing) return button("Join this week", o.join, { "data-act": "league-join" });
  if (e.current && o.join) return h("p", { class: "note league-closing" }, CLOSING_TEXT);
  if (!o.join || e.closed) return h("p", { class: "muted" }, "You did not race that week.");
  // (this week's, ended while watched: it is not to be joined, and the next opens after its close)
  return h(
    "p",
    { class: "note league-closing" },
    "The week has ended. Its leagues are being closed and the tiers settled: the next week's league opens after, in a few minutes.",
  );
}

export class LeagueScreen {
  /**
   * @param {App} app
   * @param {string} week "" for this week
   */
  constructor(app, week) {
    this.app = app;
    this.week = week;
    this.root = h("section", { class: "league" }, h("h1", {}, "This week's league"));
    this.gone = false;
    /** @type {Watched | null} this week's, watched */
    this.watched = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    this.load();
  }

  destroy() {
    this.gone = true;
    clearTimeout(this.timer);
    if (!this.week) this.app.link.request("event", { watch: false }).catch(() => {});
  }

  // this week's standings are watched: asked with `watch`, then pushed as they change
  async load() {
    /** @type {Message} */
    let e;
    try {
      e = await this.app.link.request("event", this.week ? { week: this.week } : { watch: true });
    } catch (error) {
      replace(this.root, h("h1", {}, "League"), h("p", { class: "note" }, errorText(error)), back());
      return;
    }
    if (this.week) return this.render(e);
    if (!this.watched) this.watched = new Watched(e, performance.now());
    else {
      // (back after the connection was lost: the week watched, if it ended meanwhile, shown first)
      const asked = this.watched.rewatched(e, performance.now()) || this.watched.beingClosed(performance.now());
      if (asked) await this.ask(asked);
    }
    this.show();
  }

  /**
   * Ask how a week being closed stands, and watch the new week once it is closed.
   * @param {string} week
   */
  async ask(week) {
    const w = /** @type {Watched} */ (this.watched);
    w.askedAt = performance.now();
    try {
      if (w.heard(await this.app.link.request("event", { week }), performance.now())) await this.rewatch();
    } catch {
      // (said on the next look: the connection's state is shown by the page)
    }
  }

  // the week watched is closed: the new week's is watched ("watch the new week's again")
  async rewatch() {
    const w = /** @type {Watched} */ (this.watched);
    w.rewatched(await this.app.link.request("event", { watch: true }), performance.now());
  }

  // the page's clock: the week's end drawn at its time, a close not heard asked about
  async look() {
    const w = this.watched;
    if (!w || this.gone) return;
    const at = performance.now();
    w.tick(at);
    const week = w.beingClosed(at);
    if (week && at >= w.askedAt + POLL_MS) await this.ask(week);
    this.show();
  }

  // this week's screen drawn from what is watched, and the next look set
  show() {
    const w = this.watched;
    if (!w || this.gone) return;
    const at = performance.now();
    const now = w.shown(at); // (its time left as the page's clock counts it down)
    const join = () => this.join();
    const closing = w.closing(at);
    const [line, ...rest] = standings(now, { join, closing, short: Boolean(w.last) && !now.joined });
    if (w.last) {
      replace(
        this.root,
        h("h1", {}, `League of ${w.last.week}`),
        ...standings(w.last),
        h("h2", {}, "This week's league"),
        line,
        ...rest,
        back(),
      );
    } else {
      replace(
        this.root,
        h("h1", {}, now.current ? "This week's league" : `League of ${now.week}`),
        line,
        ...rest,
        back(),
      );
    }
    // (the line alone counted down between redraws: the week's end itself redraws, below)
    if (line) countDown(line, now, w.endAt, leagueLine);
    clearTimeout(this.timer);
    const wait = w.wake(at);
    if (wait !== null) this.timer = setTimeout(() => this.look(), Math.min(wait + 50, 2 ** 31 - 1));
  }

  /** @param {Message} e a past week's */
  render(e) {
    replace(this.root, h("h1", {}, e.current ? "This week's league" : `League of ${e.week}`), ...standings(e), back());
  }

  join() {
    this.app.link.request("event_join").then(
      (e) => {
        if (this.watched) this.watched.heard(e, performance.now());
        this.show();
      },
      (error) => this.app.notice(errorText(error)),
    );
  }

  /**
   * The standings pushed for the watched league: drawn as they come (the week's end, its
   * close: then the new week is watched).
   * @param {Message} message
   * @returns {boolean} whether it was this screen's
   */
  event(message) {
    if (message.type !== "event" || this.week || this.gone) return false;
    const w = this.watched;
    if (!w) return true;
    if (w.heard(message, performance.now()))
      this.rewatch().then(
        () => this.show(),
        () => this.show(),
      );
    this.show();
    return true;
  }

  // the connection came back: a watch is not brought back, so ask (and watch) again
  resumed() {
    this.load();
  }
}

function back() {
  return h("p", {}, h("a", { href: "/play#home" }, "Back to the games"));
}
