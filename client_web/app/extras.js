// @ts-check
// The leaderboards (the read-only pages' boards, updated live) and replays drawn as
// boards with a scrubber, play and pause, and speed (the server's `replay_view`), with
// "Race this": the replay's challenge, taken.

import { BoxWatch, backToGames, button, clock, count, finishTime, h, replace } from "./dom.js";
import { drawBoard } from "./board.js";
import { cardsMove } from "./motion.js";
import { errorText } from "./link.js";
import { reviewBox } from "./review.js";
import { parWords } from "./par.js";
import { difficultyText, gradeOf } from "./difficulty.js";
import { entryText, hintsText, progressText } from "./ranking.js";
import { focusKey, keepFocus } from "./focus.js";
import { replayKeysHelp, stepButton } from "./replaybar.js";
import { placeControls } from "./sides.js";

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

export class ReplayScreen {
  /**
   * @param {App} app
   * @param {string} id the replay's id
   */
  constructor(app, id) {
    this.app = app;
    this.id = id;
    /** @type {Map<number, Message>} the views of the steps seen, by step */
    this.views = new Map();
    /** @type {Message | undefined} the view drawn last */
    this.shown = undefined;
    this.step = 0;
    // the replay's moves, as `[ms from the start, the move]`, and how many: once loaded
    /** @type {[number, string][]} */
    this.moves = [];
    this.steps = 0;
    this.speed = 2;
    /** @type {ReturnType<typeof setInterval> | undefined} while it plays */
    this.timer = undefined;
    this.root = h("section", { class: "replay fit" });
    // the board fills what the buttons leave of the window, its box watched as a game's is
    this.boardBox = h("div", { class: "board-box" });
    this.box = new BoxWatch(this.boardBox, () => {
      placeControls(this.boardBox, this.shown);
      if (this.shown) this.drawBoard(this.shown);
    });
    // the controls, shown once the replay is loaded
    this.range = h("input", {
      type: "range",
      min: 0,
      max: 0,
      value: 0,
      "aria-label": "step",
      oninput: () => this.show(Number(this.range.value)),
    });
    this.playButton = button("Play", () => this.toggle(), { "data-act": "play" });
    this.stepText = h("span", { class: "step" });
    this.note = h("p", { class: "note", role: "status" });
    // the viewer's keys, wherever the focus is (as the terminal's viewer has them): the
    // arrows a step, Home and End the deal and the end, Space plays and pauses
    this.keys = (/** @type {KeyboardEvent} */ e) => this.key(e);
    document.addEventListener("keydown", this.keys);
    this.load();
  }

  destroy() {
    clearInterval(this.timer);
    this.box.stop();
    document.removeEventListener("keydown", this.keys);
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    if (!this.root.isConnected || !this.steps || e.ctrlKey || e.metaKey || e.altKey) return;
    const target = /** @type {HTMLElement} */ (e.target);
    // (a field or a list keeps its own keys, and a button, a link or a summary its Space
    // and Enter; the arrows, Home and End do nothing there, and step the replay: pressed on
    // its step buttons they had been lost)
    if (target.closest && target.closest("input, select, textarea")) return;
    if (e.key === " " && target.closest && target.closest("button, a, summary")) return;
    /** @type {Record<string, () => unknown>} */
    const keys = {
      ArrowRight: () => this.show(this.step + 1),
      ArrowLeft: () => this.show(this.step - 1),
      Home: () => this.show(0),
      End: () => this.show(this.steps),
      " ": () => this.toggle(),
    };
    const act = keys[e.key];
    if (!act) return;
    e.preventDefault(); // (the page would scroll)
    act();
  }

  /** @param {Message} view */
  drawBoard(view) {
    // (its controls beside the board or under it: decided as its box changes, and once
    // for its first board, which comes after the box was first laid out)
    if (!this.shown) requestAnimationFrame(() => placeControls(this.boardBox, this.shown));
    this.shown = view;
    const size = this.box.size();
    drawBoard(this.boardBox, view, {
      legal: [],
      picked: null,
      width: size.width,
      height: size.height || Infinity,
      still: true,
    });
  }

  async load() {
    /** @type {Message} */
    let r;
    try {
      const reply = await this.app.link.request("replay", { replay: this.id });
      r = reply.replay;
    } catch (error) {
      replace(this.root, h("p", { class: "note" }, errorText(error)), backToGames());
      return;
    }
    const info = this.app.game(r.game);
    this.moves = r.moves;
    this.steps = r.moves.length;
    this.range.max = String(this.steps);
    const speed = h(
      "select",
      {
        "aria-label": "speed",
        onchange: () => {
          this.speed = Number(speed.value);
          if (this.timer) {
            this.toggle();
            this.toggle();
          }
        },
      },
      [1, 2, 4, 8].map((s) => h("option", { value: s }, `${s} ${s === 1 ? "move" : "moves"}/s`)),
    );
    speed.value = String(this.speed);
    const res = r.result || {};
    // the name it was played under, and the name now where the player has changed it since
    const now = r.player_now || r.player;
    const whose = now === r.player ? r.player : `${r.player} (now ${now})`;
    const mine = this.app.player && this.app.player.name === now;
    const race =
      this.app.player && !mine && r.kind !== "book"
        ? button("Race this", () => this.race(), {
            "data-act": "race-replay",
            title: `the same deal, against ${now}'s ghost`,
          })
        : null;
    replace(
      this.root,
      h("h1", {}, `${info ? info.name : r.game}: ${whose}`),
      h(
        "p",
        { class: "muted" },
        `${res.status} · ${clock(res.time_ms || 0)} · ${count(res.moves || 0, "move")} · ${info && info.unit === "pairs" ? `${progressText(res, "pairs")} off` : `${res.home}/${res.total} home`}${hintsText(res)}${r.room ? ` · race ${r.room}` : ""}${r.day ? ` · daily ${r.day}` : ""}${r.kind === "book" && typeof r.par === "number" ? ` · the book line, ${parWords(r.par, r.shortest)}` : ""}`,
      ),
      // one row on a wide screen; on a phone's, the steps, then the scrubber, then the
      // speed, "Race this" and the review's button, so that the board keeps its room
      h(
        "div",
        { class: "controls" },
        stepButton("first", () => this.show(0)),
        stepButton("back", () => this.show(this.step - 1), { "data-act": "back" }),
        this.playButton,
        stepButton("forward", () => this.show(this.step + 1), { "data-act": "forward" }),
        stepButton("last", () => this.show(this.steps)),
        h("div", { class: "scrub" }, this.range, this.stepText),
        speed,
        race,
        r.kind !== "book" && this.app.player ? reviewBox(this.app, this.id, (step) => this.show(step)) : null,
      ),
      // (a visitor with no name was offered neither, and told nothing)
      r.kind !== "book" && !this.app.player
        ? h(
            "p",
            { class: "muted" },
            h("a", { href: "/play" }, "Pick a name"),
            " to race this game's ghost, or to review it.",
          )
        : null,
      this.note,
      this.boardBox,
      replayKeysHelp(),
    );
    this.show(0);
  }

  // "Race this": the replay's challenge taken (made if need be), raced at /c/ID
  async race() {
    try {
      const taken = await this.app.link.request("challenge_take", { replay: this.id });
      this.app.raceChallenge(taken);
    } catch (error) {
      this.note.textContent = errorText(error);
    }
  }

  toggle() {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
      this.playButton.textContent = "Play";
      return;
    }
    if (this.step >= this.steps) this.step = 0;
    this.playButton.textContent = "Pause";
    this.timer = setInterval(() => {
      if (this.step >= this.steps) this.toggle();
      else this.show(this.step + 1);
    }, 1000 / this.speed);
  }

  /** @param {number} step */
  async show(step) {
    step = Math.max(0, Math.min(this.steps, step));
    this.step = step;
    this.range.value = String(step);
    const what = step === 0 ? "the deal" : entryText(String(this.moves[step - 1][1]));
    this.stepText.textContent = `step ${step} of ${this.steps}: ${what}`;
    let view = this.views.get(step);
    if (!view) {
      /** @type {Message} */
      let fetched;
      try {
        fetched = (await this.app.link.request("replay_view", { replay: this.id, step })).view;
      } catch (error) {
        this.stepText.textContent = errorText(error);
        return;
      }
      this.views.set(step, fetched);
      view = fetched;
    }
    if (this.step !== step) return;
    const settle = cardsMove(this.boardBox, view); // the step's card slides to where it went
    this.drawBoard(view);
    settle();
    this.boardBox.dataset.step = String(step);
  }
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
