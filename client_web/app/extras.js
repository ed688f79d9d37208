// @ts-check
// The leaderboards (the read-only pages' boards, updated live), and the replays
// (replay.js's, loaded with them).

import { backToGames, button, count, finishTime, h, replace } from "./dom.js";
import { errorText } from "./link.js";
import { parWords } from "./par.js";
import { difficultyText, gradeOf } from "./difficulty.js";
import { hintsText, progressText } from "./ranking.js";
import { focusKey, keepFocus } from "./focus.js";

export { ReplayScreen } from "./replay.js"; // (main.js loads it with the leaderboards)

/** @typedef {import("./types.js").App} App */
/** @typedef {import("./types.js").Message} Message */

/** @type {string | null} the picker's field that had the focus as it chose a board: the next board's gets it */
let picking = null;

/**
 * A board's result, linking to its game's replay where the one looking may see it: a
 * daily game's is anyone's once its day is before the server's `today`, and its own
 * player's before that (the server refuses the rest: docs/protocol.md, `board`).
 * @param {Message} entry
 * @param {string} text
 * @param {string | undefined} today the board reply's `today`
 * @param {boolean} mine whether the entry is the viewer's own
 */
function replayLink(entry, text, today, mine) {
  const shown = entry.replay && (mine || !entry.day || !today || entry.day < today);
  return shown ? h("a", { href: `/play#replay=${encodeURIComponent(entry.replay)}` }, text) : text;
}

export class BoardScreen {
  /**
   * @param {App} app
   * @param {string | null} board the board's name (`races/week`, `best/gate`,
   *   `daily/gate/2026-11-26`); none: this week's races
   */
  constructor(app, board) {
    this.app = app;
    this.board = board || "races/week";
    /** @type {string | null} the board the server sends updates of (board_watch) */
    this.watched = null;
    /** @type {"top" | "around" | "friends"} the whole board's top, or around the player, or those they follow */
    this.view = "top";
    /** @type {Set<string> | null} the names the player follows, lower case (their profile's) */
    this.following = null;
    /** @type {Message | null} the page on screen */
    this.page = null;
    this.root = h("section", { class: "boards" });
    this.load(true);
    this.loadFollowing();
  }

  // whom the player follows: each row of another player's offers Follow or Following
  async loadFollowing() {
    if (!this.app.player) return;
    try {
      const profile = await this.app.link.request("profile", {});
      this.following = new Set((profile.following || []).map((/** @type {string} */ n) => n.toLowerCase()));
    } catch {
      return; // (the board shows without the buttons)
    }
    if (this.page) this.render(this.page);
  }

  /** @param {string} name */
  async toggleFollow(name) {
    const was = this.following && this.following.has(name.toLowerCase());
    try {
      const reply = await this.app.link.request(was ? "unfollow" : "follow", { name });
      this.following = new Set(reply.names.map((/** @type {string} */ n) => n.toLowerCase()));
    } catch (error) {
      this.app.notice(errorText(error));
      return;
    }
    if (this.view === "friends") this.load(false);
    else if (this.page) this.render(this.page);
  }

  // the whole board, the player's place on it, or those they follow (a signed-in player's)
  views() {
    if (!this.app.player) return null;
    /** @type {[typeof this.view, string][]} */
    const views = [
      ["top", "Top"],
      ["around", "Around me"],
      ["friends", "Those I follow"],
    ];
    return h(
      "div",
      { class: "controls board-views", role: "group", "aria-label": "which entries" },
      views.map(([view, text]) =>
        button(
          text,
          () => {
            this.view = view;
            this.load(false);
          },
          { class: "small", "data-view": view, "aria-pressed": String(this.view === view) },
        ),
      ),
    );
  }

  destroy() {
    if (this.watched) this.app.link.request("board_unwatch", { board: this.watched }).catch(() => {});
  }

  picker() {
    const kinds = [
      ["daily", "today's daily"],
      ["best", "best times"],
      ["wins", "most wins"],
      ["rating", "ratings"],
    ];
    const options = [
      h("option", { value: "races/week" }, "Races won this week"),
      h("option", { value: "races/all" }, "Races won, all time"),
    ];
    for (const g of this.app.games)
      for (const [kind, text] of kinds) options.push(h("option", { value: `${kind}/${g.id}` }, `${g.name}: ${text}`));
    const [kind, game] = this.board.split("/");
    const select = h("select", { "aria-label": "board" }, options);
    select.value = kind === "daily" ? `daily/${game}` : this.board;
    // a daily board has a day picker, as the read-only page has
    const day =
      kind === "daily"
        ? h("input", { type: "date", "aria-label": "day", value: this.board.split("/")[2] || "" })
        : null;
    const go = () => {
      const chosen =
        select.value === `daily/${game}` && day && day.value ? `${select.value}/${day.value}` : select.value;
      if (chosen === this.board) return;
      const held = document.activeElement;
      picking = held instanceof Element && held !== document.body ? focusKey(held) : null;
      this.app.go(`/play#board=${chosen}`);
    };
    // A choice is gone to once made: picked with a pointer, or Enter (or Show) from the
    // keyboard. An arrow key on the list or the day changes it at once, and going there
    // on each (another screen drawn, the focus dropped) let no one past the first.
    let keyed = false;
    return h(
      "form",
      {
        class: "controls board-picker",
        onkeydown: (/** @type {KeyboardEvent} */ e) => {
          keyed = e.key !== "Enter";
          if (e.key === "Enter" && e.target === select) {
            e.preventDefault();
            go();
          }
        },
        onpointerdown: () => (keyed = false),
        onchange: () => keyed || go(),
        onsubmit: (/** @type {SubmitEvent} */ e) => {
          e.preventDefault();
          go();
        },
      },
      select,
      day,
      h("button", { type: "submit", class: "small", "data-act": "show-board" }, "Show"),
    );
  }

  /**
   * The board's page, watched (its first page, and updates of it) or read whole (`top`:
   * after an update, or where it is longer than the watched page).
   * @param {boolean} watch
   * @returns {Promise<void>}
   */
  async load(watch) {
    let page;
    try {
      if (watch) {
        page = await this.app.link.request("board_watch", { board: this.board });
        this.watched = page.board;
      }
      if (!watch || this.view !== "top") {
        const view = this.view === "top" ? { limit: 100 } : { [this.view]: true };
        page = await this.app.link.request("top", { board: this.watched || this.board, ...view });
      }
    } catch (error) {
      // (no picker: for a board that is none it was an empty box above the refusal)
      replace(this.root, h("p", { class: "note" }, errorText(error)), backToGames());
      return;
    }
    if (!page) return;
    if (watch && this.view === "top" && page.size > page.entries.length) return this.load(false);
    this.render(page);
  }

  // not `draw`: the app calls a screen's draw() with nothing as it shows it
  /** @param {Message} page a `board` reply */
  render(page) {
    this.page = page;
    if (page.kind === "daily") this.board = page.board; // the day it resolved to
    const me = this.app.player ? this.app.player.name.toLowerCase() : null;
    // Follow or Following beside another player's name, once whom one follows is known
    const follow = (
      /** @type {string} */ name,
      text = this.following?.has(name.toLowerCase()) ? "Following" : "Follow",
    ) =>
      this.following && me && name.toLowerCase() !== me
        ? button(text, () => this.toggleFollow(name), {
            class: "small follow",
            "data-act": "follow",
            "data-focus": `follow ${name}`, // (its focus kept through the redraw)
            "aria-label": `${text} ${name}`, // (a screen reader heard "Follow" on every row)
            "aria-pressed": String(this.following.has(name.toLowerCase())),
            title: `${name}'s results in "Those I follow", and their ghosts in your daily practice`,
          })
        : null;
    const counting = page.kind === "wins" || page.kind === "races";
    const rating = page.kind === "rating"; // (docs/ratings.md)
    const head = counting
      ? ["#", "player", "count"]
      : rating
        ? ["#", "player", "rating", "races"]
        : ["#", "player", "result", "time", "moves"];
    const mine = (/** @type {Message} */ e) => me !== null && e.player.toLowerCase() === me;
    const rows = page.entries.map((/** @type {Message} */ e) =>
      h(
        "tr",
        // one's own row marked, as the terminal's ▸ marks it
        { class: mine(e) ? "mine" : null, dataset: { player: e.player } },
        h("td", { class: "n" }, String(e.rank)),
        // a name opens the player's page (their ratings); a result, its game's replay
        h(
          "td",
          {},
          h("a", { href: `/play#player=${encodeURIComponent(e.player)}`, dataset: { to: "player" } }, e.player),
          follow(e.player),
        ),
        counting
          ? h("td", { class: "n" }, String(e.count))
          : rating
            ? [h("td", { class: "n" }, String(e.rating)), h("td", { class: "n" }, String(e.races))]
            : [
                h(
                  "td",
                  {},
                  replayLink(e, (e.won ? "won" : progressText(e, page.unit)) + hintsText(e), page.today, mine(e)),
                ),
                // (a game not won is ranked by its cards and moves, not its time)
                h("td", { class: "n" }, e.won ? finishTime(e.time_ms || 0) : "—"),
                h("td", { class: "n" }, String(e.moves)),
              ],
      ),
    );
    // (a view's button, Follow: the focus stays on it through the redraw)
    keepFocus(this.root, () => this.paint(page, head, rows));
    // (the field a board was chosen with: the same field of the board chosen)
    if (picking) /** @type {HTMLElement | null} */ (this.root.querySelector(picking))?.focus();
    picking = null;
  }

  /**
   * The page drawn (not `draw`, as render is not).
   * @param {Message} page
   * @param {string[]} head the columns' headings
   * @param {HTMLElement[]} rows
   */
  paint(page, head, rows) {
    replace(
      this.root,
      h("h1", {}, page.title),
      this.picker(),
      this.views(),
      h(
        "table",
        {},
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            // (a column of numbers headed on its right, over them)
            head.map((t) => h("th", { class: t === "player" || t === "result" ? "" : "n" }, t)),
          ),
        ),
        h("tbody", {}, rows),
      ),
      // (around oneself or among friends: one's own result, where the pace check held it)
      offBoard(page.review),
      page.entries.length || (offBoard(page.review) && this.view === "around")
        ? null
        : h(
            "p",
            { class: "muted" },
            this.view === "around"
              ? "You are not on this board yet."
              : this.view === "friends"
                ? "Nobody you follow is on this board: Follow beside a name adds them."
                : "No results yet.",
          ),
      // a rating board: who is on it (docs/ratings.md)
      page.min_races
        ? h("p", { class: "muted" }, `A racer joins this board after ${count(page.min_races, "rated race")}.`)
        : null,
      page.book ? bookLine(page.book) : null,
      // a daily board: how hard the day's deal is, as the terminal's `top` and the page say
      page.kind === "daily" && gradeOf(page.difficulty)
        ? h(
            "p",
            { class: "difficulty", "data-grade": gradeOf(page.difficulty) },
            difficultyText(page.difficulty, page.unit),
          )
        : null,
      h("p", { class: "muted" }, `${page.size} on this board · updated live`),
    );
  }

  /** @param {Message} message */
  event(message) {
    if (message.type !== "board_update" || message.board !== this.watched) return false;
    this.load(false);
    return true;
  }

  resumed() {
    this.watched = null;
    this.load(true);
  }
}

/**
 * A past day's certified deal on its board: par, proved shortest or not, and its book line.
 * @param {Message} book `book` of a daily board's page
 */
function bookLine(book) {
  const said = parWords(book.par, book.shortest);
  return h(
    "p",
    { class: "book" },
    `${said[0].toUpperCase()}${said.slice(1)}: `,
    h("a", { href: `/play#replay=${encodeURIComponent(book.replay)}` }, "the book line"),
  );
}

/**
 * The player's own result of a daily board's day, held (or removed) by the pace check:
 * why they are not on the board, in the server's words (null for anything else).
 * @param {Record<string, any> | undefined} review the board's `review`
 * @returns {HTMLElement | null}
 */
export function offBoard(review) {
  if (!review || (review.state !== "held" && review.state !== "removed") || !review.note) return null;
  return h(
    "p",
    { class: "review-note", "data-review": String(review.state) },
    `Your result of this day is not on this board: ${review.note}`,
  );
}
