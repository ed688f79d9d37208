// @ts-check
// This week's league watched across the week's end and its close (docs/web.md, "What a
// player can do"), pure: the terminal's client_cli/league_watch.py in JavaScript. What the
// standings screen shows is a `Watched`, moved on by what the server sends (`heard`), by
// the reply to watching again (after the close, or once the connection is back:
// `rewatched`) and by the local clock (`tick`: the week's end drawn at its time even if
// nothing is pushed). Times are the page's clock (performance.now()), reckoned from the
// time left each reply says, so the server's clock is not needed.

/** @typedef {import("./types.js").Message} Message */

const DAY_MS = 86_400_000;
export const WEEK_MS = 7 * DAY_MS;
/** the close comes this long after the week's end (the server's CLOSE_GRACE_MS) */
export const CLOSE_GRACE_MS = 5 * 60_000;
/** from the week's start, the time a join may be refused (`event_closing`) while last week's leagues are being closed */
export const CLOSING_MS = CLOSE_GRACE_MS + 60_000;
/** between two asks of a week being closed, if its close is not pushed */
export const POLL_MS = 20_000;
/** the time left is redrawn this long after it passes a minute (or an hour): by then its words have changed */
const PAST_MS = 50;

export const CLOSING_TEXT =
  "Last week's leagues are being closed and the tiers settled: this week's league opens to joining in a few minutes.";

/**
 * The standings as they stand at the week's end: no time left, not this week, no day's points.
 * @param {Message} e
 * @returns {Message}
 */
export function atEnd(e) {
  const standings = (e.standings || []).map((/** @type {Message} */ s) => ({ ...s, today: 0 }));
  return { ...e, current: false, ends_in_ms: 0, standings };
}

/**
 * Whether this week's reply came in its first minutes, while last week's leagues may still
 * be being closed (a join refused with `event_closing`).
 * @param {Message} e
 */
export function inClosingWindow(e) {
  const since = WEEK_MS - Number(e.ends_in_ms || 0);
  return Boolean(e.current) && since >= 0 && since < CLOSING_MS;
}

/**
 * The ISO week before `week` ("2026-W01" → "2025-W52").
 * @param {string} week
 */
export function previousWeek(week) {
  const year = Number(week.slice(0, 4));
  const jan4 = Date.UTC(year, 0, 4);
  const monday = jan4 - ((new Date(jan4).getUTCDay() + 6) % 7) * DAY_MS + (Number(week.slice(6)) - 1) * WEEK_MS;
  return weekOfThursday(monday - WEEK_MS + 3 * DAY_MS);
}

/**
 * The ISO week (UTC) of a time in ms, as the server's clock reads it (`link.serverNow()`).
 * @param {number} ms
 */
export function isoWeek(ms) {
  const day = Math.floor(ms / DAY_MS);
  const weekday = (day + 3) % 7; // (Monday 0: 1 January 1970 was a Thursday)
  return weekOfThursday((day - weekday + 3) * DAY_MS);
}

/**
 * The ISO week of the Thursday at `thursday` (a week's Thursday is in its ISO year).
 * @param {number} thursday
 */
function weekOfThursday(thursday) {
  const y = new Date(thursday).getUTCFullYear();
  const n = Math.floor((thursday - Date.UTC(y, 0, 1)) / WEEK_MS) + 1;
  return `${y}-W${String(n).padStart(2, "0")}`;
}

/**
 * How long until the time left (`ms`) reads otherwise (`league.js` `timeLeft`): just past
 * the next whole minute, or the next hour while it reads in days and hours; under a
 * minute, the end itself (then "closing").
 * @param {number} ms
 */
export function wordsChangeIn(ms) {
  if (ms < 60_000) return Math.max(0, ms);
  return (ms % (ms >= DAY_MS ? 3_600_000 : 60_000)) + PAST_MS;
}

export class Watched {
  /**
   * @param {Message} e the reply to watching
   * @param {number} at the page's clock (ms)
   */
  constructor(e, at) {
    /** the week watched */
    this.now = e;
    /** @type {Message | null} the week watched before, ended: its result, shown above the new week until the player joins that */
    this.last = null;
    /** @type {Set<string>} the weeks heard to be closed */
    this.closed = new Set();
    this.endAt = 0;
    this.askedAt = -Infinity;
    this.timed(e, at);
  }

  /** @param {Message} e @param {number} at */
  timed(e, at) {
    if (e.current) this.endAt = at + Number(e.ends_in_ms || 0);
  }

  /** @param {number} at the week watched has ended: its close is first asked about when due */
  ended(at) {
    this.askedAt = at + CLOSE_GRACE_MS - POLL_MS;
  }

  /**
   * A week's standings heard (pushed or asked): whether the week watched is closed, so
   * that the new week's is to be watched.
   * @param {Message} e
   * @param {number} at
   */
  heard(e, at) {
    if (e.closed) this.closed.add(e.week);
    if (e.week === this.now.week) {
      if (e.joined && !this.now.joined) this.last = null; // (joined the new week: its league now)
      if (this.now.current && !e.current) this.ended(at);
      this.now = e;
      this.timed(e, at);
      return Boolean(e.closed);
    }
    if (this.last && e.week === this.last.week) this.last = e;
    return false;
  }

  /**
   * The reply to watching again: the week whose result is to be asked for, where the week
   * watched has ended meanwhile (its result is shown first).
   * @param {Message} e
   * @param {number} at
   * @returns {string | null}
   */
  rewatched(e, at) {
    let ask = null;
    if (e.week !== this.now.week && this.now.joined) {
      this.last = this.now;
      if (!this.closed.has(this.now.week)) ask = this.now.week;
    }
    this.now = e;
    this.timed(e, at);
    return ask;
  }

  /**
   * The week watched as drawn at `at`: its time left counted down by the page's clock
   * (it had been drawn as the last reply said it, "ends in 2m" with under a minute left).
   * @param {number} at
   * @returns {Message}
   */
  shown(at) {
    if (!this.now.current || this.now.closed) return this.now;
    return { ...this.now, ends_in_ms: Math.max(0, Math.round(this.endAt - at)) };
  }

  /** The page's clock at `at`: whether the view changed (the week's end come). @param {number} at */
  tick(at) {
    if (this.now.current && !this.now.closed && at >= this.endAt) {
      this.now = atEnd(this.now);
      this.ended(at);
      return true;
    }
    return false;
  }

  /** Whether last week's leagues are (likely) being closed: a join now would be refused. @param {number} at */
  closing(at) {
    if (!this.now.current) return false;
    const before = previousWeek(this.now.week);
    if (this.closed.has(before)) return false;
    if (this.last && this.last.week === before) return true;
    return at < this.endAt - WEEK_MS + CLOSING_MS;
  }

  /** The week whose close is awaited, to ask about, or null. @param {number} at */
  beingClosed(at) {
    if (!this.now.current && !this.closed.has(this.now.week)) return this.now.week;
    if (this.last && !this.closed.has(this.last.week)) return this.last.week;
    return this.closing(at) ? previousWeek(this.now.week) : null;
  }

  /** Milliseconds to wait before looking again without hearing anything, or null. @param {number} at */
  wake(at) {
    const times = [];
    if (this.now.current && !this.now.closed) {
      times.push(this.endAt);
      if (this.closing(at)) times.push(this.endAt - WEEK_MS + CLOSING_MS);
    }
    if (this.beingClosed(at) !== null) times.push(this.askedAt + POLL_MS);
    return times.length ? Math.max(0, Math.min(...times) - at) : null;
  }
}
