// @ts-check
// A game being played, whatever its kind (solo, daily, practice, race): its board, the
// buttons the server offers (undo while `view.can_undo`, home, hint where allowed,
// resign, the word moves such as `deal`), the notation box with completion from the
// legal moves, and the keyboard shortcuts. Every move goes to the server, whose reply
// is the only truth about the position.
//
// The board fills the room its box is given by the style sheet (the screen fits the
// window: the box takes what the heading, the controls and the move box leave). The box
// is kept from one draw to the next and watched (ResizeObserver), so a move reads no
// layout to size the board: the box's size is known, and a change of it redraws the board
// alone. Every pile can be reached with Tab and picked with Enter or Space; focus stays
// on the pile or in the move box across the redraw a move makes.

import { BoxWatch, clock, count, h, replace, replaceKeeping, statusText } from "./dom.js";
import { drawBoard, easeHeight, pileAt, pilesOf } from "./board.js";
import { Dragging } from "./drag.js";
import { hintSaid, homeSaid, moveSaid, timeWarning, undoSaid } from "./spoken.js";
import { click, isWord, unreadPair } from "./clicks.js";
import { challengeMaker } from "./share.js";
import { cardsMove } from "./motion.js";
import { ended, lostNote, lostText, wonNote } from "./ending.js";
import { reviewBox } from "./review.js";
import { touchedPiles } from "./touched.js";
import { LINK_NOTES, ServerError, errorText } from "./link.js";
import { cardWords, cardsSpoken } from "./cards.js";
import { arrowToPile, firstFound, holdFocus, liveRegion, nextKeys, say } from "./focus.js";
import { shortcutsHelp, singleKeys, standingsNow } from "./shortcuts.js";
import { focusChoice, statusLine } from "./choices.js";
import { placeControls } from "./sides.js";
import { playControls } from "./controls.js";
import { Turns } from "./turns.js";

/** the requests that are moves, counted when the link being down kept them from going */
const MOVES = ["move", "home", "undo"];

export { shownSaid } from "./spoken.js"; // (main.js's: a solo game shown, said)

/** @typedef {import("./types.js").App} App */
/** @typedef {import("./types.js").Message} Message */
/** @typedef {import("./dom.js").Child} Child */
/** @typedef {import("./ending.js").Lost} Lost */

/**
 * How a screen plays its game: hints allowed (unless false), told when the game ends,
 * something drawn above the board, buttons of its own beside the game's, the "Challenge a
 * friend" box once the game is over (solo, daily, practice), and the clock's start and end
 * (server time, ms) where they are not the game's own start and no end, and what the head
 * calls the game where its kind would mislead (a quick race's ghosts are raced in a
 * challenge game).
 * @typedef {object} GameOptions
 * @property {boolean} [hints]
 * @property {(status: string) => void} [onOver]
 * @property {() => Child} [extra]
 * @property {(game: GameScreen) => (Node | string)[]} [actions]
 * @property {boolean} [challenge]
 * @property {() => number | null | undefined} [clockFrom]
 * @property {() => number | null | undefined} [clockTo]
 * @property {string} [label]
 * @property {boolean} [untabled] a race against ghosts that keeps no table (a quick race's)
 * @property {boolean} [secret] a game of a daily deal before the day's reset: no review yet
 *   (it would tell the order of the stock; the server refuses it)
 * @property {() => boolean} [racing] a race's game whose race is still on: reviewed once it
 *   ends (the server refuses it before: its deal is still being raced)
 * @property {() => string} [endSaid] what the live region says after the game's end, as it
 *   says it (the daily's result, come before the move's reply: said first, it had been)
 */

/** the longest move the server reads (protocol.md, `move`) */
const MOVE_MOST = 64;

export class GameScreen {
  /**
   * @param {App} app the client (link, games, notice)
   * @param {Message} snap a game snapshot
   * @param {GameOptions} [opts]
   */
  constructor(app, snap, opts = {}) {
    this.app = app;
    this.opts = opts;
    // the first snapshot's fields, which every snapshot has (docs/protocol.md); take()
    // reads each snapshot and reply after it, and this one's other fields
    /** @type {string} the game's id */
    this.id = snap.game;
    /** @type {string} solo, daily, practice, race or challenge */
    this.kind = snap.kind;
    /** @type {string} the game's rules, by id ("gate") */
    this.rules = snap.rules ?? (snap.view && snap.view.game);
    /** @type {Message} the position as the server last sent it */
    this.view = snap.view;
    /** @type {string[]} */
    this.legal = snap.legal;
    /** @type {string} the server's: playing, won, lost, resigned or timeout */
    this.status = snap.status;
    /** @type {Lost | null | undefined} why it was lost, and whether undo takes it back */
    this.lost = undefined;
    /** @type {number | undefined} when it started, server time in ms */
    this.startedAt = undefined;
    /** @type {number | null} when it ended (a game over), server time in ms */
    this.finishedAt = null;
    /** @type {ReturnType<typeof setInterval> | undefined} the clock's */
    this.ticker = undefined;
    /** @type {{ replay: string, node: HTMLElement } | undefined} the challenge box, once over */
    this.maker = undefined;
    /** @type {{ game: string, node: HTMLElement } | undefined} the review box, once over */
    this.reviewer = undefined;
    /** @type {string | null} */
    this.picked = null;
    this.note = "";
    /** @type {string[]} the moves a tap fitted, offered in the status line (choices.js) */
    this.choices = [];
    this.busy = false;
    this.turns = new Turns(); // (one request at a time, in order: act)
    /** moves of the requests running now refused for the link being down (none sent) */
    this.unsent = 0;
    /** @type {string | null} the move a hint gave, lit up until the next action */
    this.hinted = null;
    /** @type {string | null} the end the live region has said (a game over's status) */
    this.saidEnd = null;
    /** the last of a timed game's marks said (a minute, ten seconds left) */
    this.warnedAt = Infinity;
    /** @type {string} what the tick said of the time left */
    this.warning = "";
    /**
     * what the live region says of the last action (a move, an undo, the cards sent home, a
     * hint: spoken.js), while the status line says what it said then (`note`); `fresh`
     * until the draw after it has said it
     * @type {{ text: string, note: string, fresh: boolean } | null}
     */
    this.said = null;
    /** @type {HTMLElement | undefined} the shortcuts' help, made at the first draw */
    this.keysHelp = undefined;
    this.take(snap);
    this.root = h("section", { class: "game fit", dataset: { game: this.id, kind: this.kind } });
    // what a screen reader hears of the game: the status line's words and the game's end,
    // in one region kept in the page from draw to draw (one made anew went unheard)
    this.live = liveRegion();
    this.root.append(this.live);
    this.keys = (/** @type {KeyboardEvent} */ event) => this.key(event);
    document.addEventListener("keydown", this.keys);
    this.dragging = new Dragging(); // (drag.js: a pile dragged onto another)
    this.dragged = false; // a drop just made a move: the click that follows is no pick
    this.boardBox = h("div", {
      class: "board-box",
      onpointerdown: (/** @type {PointerEvent} */ e) => this.dragging.down(e, this.over),
      onpointerup: (/** @type {PointerEvent} */ e) => {
        const dropped = this.dragging.up(e);
        if (dropped) this.drop(dropped.from, dropped.to);
      },
      onpointermove: (/** @type {PointerEvent} */ e) => this.dragging.move(e),
      onpointercancel: () => this.dragging.cancel(),
      onclick: (/** @type {MouseEvent} */ e) => {
        if (this.dragged) {
          this.dragged = false;
          return;
        }
        const at = pileAt(e.target);
        if (at) this.pick(at.label);
      },
      onkeydown: (/** @type {KeyboardEvent} */ e) => {
        const at = pileAt(e.target);
        if (!at || (e.key !== "Enter" && e.key !== " ") || e.ctrlKey || e.metaKey || e.altKey) return;
        e.preventDefault(); // Space would scroll
        this.pick(at.label, "key");
      },
    });
    // the box's size, kept as the page lays it out: a move's draw reads nothing
    this.box = new BoxWatch(this.boardBox, () => {
      placeControls(this.boardBox, this.view); // (beside the board or under it: sides.js)
      if (this.view) this.drawBoard();
    });
    this.list = h("datalist", { id: "legal-moves" });
    this.input = h("input", {
      id: "notation",
      list: "legal-moves",
      autocomplete: "off",
      autocapitalize: "off",
      spellcheck: "false",
      "aria-label": "move in notation",
    });
    this.form = h(
      "form",
      {
        class: "notation",
        onsubmit: (/** @type {SubmitEvent} */ e) => {
          e.preventDefault();
          const text = this.input.value.trim();
          if (text.length > MOVE_MOST) {
            // (a paste gone wrong: the server's words were "move: field 'move' is longer
            // than 64"; the text stays in the box to be put right)
            this.note = `A move is at most ${MOVE_MOST} characters, and this has ${text.length}: it was not sent.`;
            this.draw();
          } else if (text) {
            this.input.value = "";
            this.move(text);
          }
        },
      },
      this.input,
      this.list,
      h("button", { type: "submit" }, "Play"),
    );
    this.draw();
  }

  /**
   * What a snapshot or a reply says about the game (the fields it has).
   * @param {Message} snap
   */
  take(snap) {
    this.id = snap.game ?? this.id;
    this.kind = snap.kind ?? this.kind;
    this.rules = snap.rules ?? (snap.view && snap.view.game) ?? this.rules;
    if (snap.view) this.view = snap.view;
    if (Array.isArray(snap.legal)) this.legal = snap.legal.map(String);
    if (snap.status) this.status = snap.status;
    if (snap.status) this.lost = snap.lost || null; // why it was lost, and whether undo takes it back
    if (snap.started_at) this.startedAt = snap.started_at;
    // a game over: when the server took its end (an undo of a loss takes it away)
    if (snap.status) this.finishedAt = typeof snap.finished_at === "number" ? snap.finished_at : null;
    if (LINK_NOTES.some((words) => this.note.startsWith(words))) {
      // (the link back, the game as it is; the moves it did not send still said)
      this.note = this.unsent ? `${count(this.unsent, "move")} made while the link was down were not sent` : "";
    }
  }

  destroy() {
    document.removeEventListener("keydown", this.keys);
    this.box.stop();
    clearInterval(this.ticker);
  }

  get over() {
    return this.status !== "playing";
  }

  // whether anything here goes home a card at a time (Nestor and Doubles and Quits take
  // pairs off onto a discard instead: no Home, and progress in pairs)
  get homes() {
    return pilesOf(this.view).some((p) => p.kind.startsWith("foundation"));
  }

  get pairs() {
    return !this.homes && pilesOf(this.view).some((p) => p.kind === "discard");
  }

  kinds() {
    /** @type {Record<string, string>} */
    const out = {};
    for (const p of this.view.piles || []) out[p.label] = p.kind;
    return out;
  }

  /**
   * Ask the server (a move, undo, home, hint, resign), a request at a time in the order
   * asked (turns.js), and draw what it answers.
   * @param {string} kind the request
   * @param {Message} [fields]
   * @param {(error: unknown) => string | null} [why] the words for a refusal, not the server's
   */
  async act(kind, fields = {}, why) {
    if (this.turns.waiting === 0) this.unsent = 0; // (a new run of requests)
    const turn = this.turns.take(() => this.run(kind, fields, why));
    if (this.turns.waiting > 1) this.draw(); // (how many wait, shown at once)
    if (await turn) return;
    this.note = "Too many moves are waiting for the server: this one was not sent.";
    this.draw();
  }

  /** `act`'s request, its turn come @param {string} kind @param {Message} fields @param {(error: unknown) => string | null} [why] */
  async run(kind, fields, why) {
    this.busy = true;
    this.hinted = null;
    this.choices = [];
    this.said = null;
    const before = this.view;
    /** @type {string | null} what the action did, in words (the status line keeps the notation) */
    let said = null;
    try {
      const reply = await this.app.link.request(kind, { game: this.id, ...fields });
      if (kind === "hint") {
        this.hinted = reply.move;
        this.note = reply.move ? `hint: ${reply.move}: ${reply.reason}` : "no hint: no move is legal";
        said = hintSaid(reply.move, reply.reason, this.view);
      } else {
        this.take(reply);
        const moves = Array.isArray(reply.moves) ? reply.moves.map(String) : [];
        this.note = kind === "home" ? (moves.length ? `home: ${moves.join(" ")}` : "no card can go home") : "";
        const move = String(reply.move ?? fields.move ?? "");
        if (kind === "home") said = homeSaid(moves, before, this.view);
        else if (kind === "move") said = moveSaid(move, before, this.view);
        else if (kind === "undo") said = undoSaid(move, before, this.view);
        if (reply.error) [this.note, said] = [reply.error.message, null];
      }
    } catch (error) {
      this.note = (why && why(error)) || errorText(error);
      if (error instanceof ServerError && error.code === "not_connected" && MOVES.includes(kind)) {
        this.unsent += 1; // (never sent: the link was down when its turn came)
        this.note = `${LINK_NOTES[0]} · ${count(this.unsent, "move")} not sent`;
      }
    } finally {
      this.busy = false;
    }
    this.picked = null;
    if (said !== null) this.said = { text: said, note: this.note, fresh: true };
    this.draw();
    if (this.over && this.opts.onOver) this.opts.onOver(this.status);
  }

  /**
   * @param {string} move
   * @param {(error: unknown) => string | null} [why] the words for its refusal
   */
  move(move, why) {
    return this.act("move", { move }, why);
  }

  /**
   * The move a pile picked (or dragged) and the pile chosen after it make: where no legal
   * move joins them, the server says why not, in plain words (`unreadPair`).
   * @param {string} move
   * @param {string} from
   * @param {string} to
   */
  pairMove(move, from, to) {
    if (this.legal.includes(move)) return this.move(move);
    const piles = pilesOf(this.view);
    const cards = piles.find((p) => p.label === from)?.cards || [];
    const kind = piles.find((p) => p.label === to)?.kind || "";
    return this.move(move, (error) => unreadPair(error, cards[cards.length - 1] ?? null, kind, from, to));
  }

  /**
   * @param {string} label
   * @param {string} [verb] "key" from the keyboard; else a mouse's click or a finger's tap
   */
  pick(label, verb = matchMedia("(pointer: fine)").matches ? "click" : "tap") {
    if (this.over) return;
    // (a mouse clicks, a finger taps, a keyboard Tabs and Enters: the note says which)
    const from = this.picked;
    const result = click(from, label, this.legal, this.kinds(), verb);
    this.said = null;
    this.picked = result.picked;
    this.note = result.note || "";
    this.choices = result.choices || [];
    if (result.move && from !== null) this.pairMove(result.move, from, label);
    else if (result.move) this.move(result.move);
    else {
      this.draw();
      if (verb === "key") focusChoice(this.root);
    }
  }

  /** @param {KeyboardEvent} event */
  key(event) {
    if (!this.root.isConnected || event.ctrlKey || event.metaKey || event.altKey) return;
    const typing = event.target instanceof HTMLInputElement;
    if (event.key === "Escape") {
      this.said = null;
      this.picked = null;
      this.note = "";
      this.choices = [];
      // the move box's line cleared, as the terminal's Esc clears it (blurred with its text
      // kept, the next move typed was added to it); the focus stays in the box
      if (event.target === this.input) this.input.value = "";
      this.draw();
      return;
    }
    if (typing || arrowToPile(event, this.boardBox) || !singleKeys()) return;
    /** @type {Record<string, () => unknown>} */
    const actions = {
      u: () => this.act("undo"),
      o: () => this.homes && this.act("home"),
      i: () => this.hintsAllowed() && this.act("hint"),
      d: () => {
        const word = this.legal.find(isWord);
        if (word) this.move(word);
      },
      s: () => say(this.live, standingsNow(), true),
      n: () => this.input && this.input.focus(),
      "/": () => this.input && this.input.focus(),
    };
    const anyTime = event.key === "s" || (event.key === "u" && this.lost && this.lost.undo);
    if (actions[event.key] && (!this.over || anyTime)) {
      event.preventDefault();
      actions[event.key]();
    }
  }

  hintsAllowed() {
    return this.opts.hints !== false;
  }

  /**
   * Pile `from` dragged onto pile `to` (drag.js): as a click on each.
   * @param {string} from
   * @param {string} to
   */
  drop(from, to) {
    this.dragged = true; // the click that follows this drop is not a pick
    this.picked = null;
    this.said = null;
    const first = click(null, from, this.legal, this.kinds());
    if (first.move) return this.move(first.move);
    const second = click(from, to, this.legal, this.kinds());
    if (second.move) this.pairMove(second.move, from, to);
    else {
      this.note = second.note || "";
      this.choices = second.choices || [];
      this.draw();
    }
  }

  draw() {
    // taking the screen apart drops the focus (from the move box as soon as the dock is
    // made anew): the pile, the box or the button that had it gets it back
    const focusBack = holdFocus(this.root);
    const later = nextKeys(this.root); // (the controls after the one focused)
    const app = this.app;
    const info = app.game(this.rules);
    const v = this.view;
    if (this.over && this.hinted) {
      // a game ended by the clock or the race, not by an action: its last hint goes too
      // (its words and its ringed piles stood over the results)
      if (this.note.startsWith("hint: ")) this.note = "";
      this.hinted = null;
    }
    const got = this.pairs
      ? `${Math.floor(v.home / 2)}/${Math.floor(v.total / 2)} pairs off`
      : `${v.home}/${v.total} home`;
    // a game over not won: how it ended and what it came to
    const status = !this.over ? got : this.status === "won" ? this.status : `${statusText(this.status)}, ${got}`;
    const clockNode = h("span", { class: "clock" });
    // (the game's name is the screen's heading: a screen reader's list of headings finds it,
    // and a game over's focus has a place to go)
    // (a solo game is the screen: its name heads it; in a race or a daily, under theirs)
    const level = this.kind === "solo" ? "1" : "2";
    const title = h("strong", { role: "heading", "aria-level": level, tabindex: "-1" }, info ? info.name : this.rules);
    const head = h(
      "div",
      { class: `game-head${this.over ? " over" : ""}` },
      title,
      h("span", { class: "kind" }, this.opts.label || this.kind),
      h("span", { class: "status", dataset: { status: this.status } }, status),
      h("span", { class: "moves" }, count(v.moves, "move")),
      clockNode,
    );
    const boardBox = this.boardBox;
    const controls = this.over ? h("div", { class: "controls" }) : playControls(this, v.can_undo, !this.opts.untabled);
    if (this.opts.actions) controls.append(...this.opts.actions(this));
    if (this.over && this.opts.challenge) {
      if (!this.maker || this.maker.replay !== this.id)
        this.maker = { replay: this.id, node: challengeMaker(app, this.id) };
    }
    replace(
      this.list,
      this.legal.map((m) => h("option", { value: m })),
    );
    this.input.placeholder = "move, e.g. " + (this.legal[0] || "t1>b2");
    const form = this.form;
    // (made once: one made on every draw closed as soon as a key was pressed)
    this.keysHelp ??= shortcutsHelp({ homes: this.homes, hints: this.hintsAllowed() });
    // (the server names cards by their codes: "8D cannot go on KD" is said "8♦ ... K♦")
    const words = cardWords(this.note);
    const note = statusLine(words, this.choices, (move) => this.move(move));
    const maker = this.over && this.maker ? this.maker.node : null;
    // a game of today's daily deal is reviewed after the reset (its replay page has the button)
    const reviewable =
      this.over &&
      this.kind !== "daily" &&
      this.kind !== "practice" &&
      !this.opts.secret &&
      !(this.opts.racing && this.opts.racing());
    if (reviewable && (!this.reviewer || this.reviewer.game !== this.id))
      this.reviewer = { game: this.id, node: reviewBox(app, this.id) };
    const reviewer = reviewable && this.reviewer ? this.reviewer.node : null;
    // a solo game's replay, made from its log (a daily's is public after the reset)
    const replay =
      this.over && this.kind === "solo"
        ? h("p", {}, h("a", { href: `/play#replay=${this.id}`, "data-replay": "you" }, "Your game's replay"))
        : null;
    const lost =
      this.status === "lost"
        ? lostNote(this.lost, () => this.act("undo"))
        : this.status === "won" && this.kind === "solo"
          ? wonNote(v.total, v.moves, Boolean(this.pairs))
          : null;
    const settle = cardsMove(this.root, v); // where the cards were: they slide from there
    // the buttons, the move box and the shortcuts share a line where the width allows
    const hint = this.over ? null : h("p", { class: "turn-hint" }, "Turn the phone upright for larger cards."); // app.css
    const dock = h("div", { class: "dock" }, hint, controls, this.over ? null : form, this.keysHelp);
    const extra = this.opts.extra ? this.opts.extra() : null;
    // a game over: its actions on a line (a phone's board keeps its room), no empty note
    const ends = [maker, reviewer, replay].filter((node) => node !== null);
    const actions = ends.length ? h("div", { class: "end-actions" }, ...ends) : null;
    // the requests waiting behind the one on its way, on the status line (its height set:
    // the board keeps its size); not said aloud: each move is, as it is played
    const behind = this.turns.waiting - 1;
    if (behind > 0)
      note.append(
        this.note ? " · " : "",
        h("span", { class: "queued" }, `${count(behind, "move")} waiting to be sent`),
      );
    const noted = this.over && !this.note ? null : note;
    replaceKeeping(this.root, this.live, extra, head, boardBox, lost, noted, actions, dock);
    this.drawBoard();
    // (a button gone or disabled: the next one, or a game over's heading)
    focusBack(() => (this.over ? title : firstFound(this.root, later) || controls.querySelector("button:enabled")));
    // the end said once, as the game turns to it (a game over's notes after it, alone),
    // after the move that ended it; else what the last action did, or the status line
    // (with its moves: "won." alone left out what the screen shows)
    const overSaid = `Game over: ${status}, ${count(v.moves, "move")}.${lostText(this.lost)}`;
    const ending = this.over && this.saidEnd !== this.status ? overSaid : "";
    this.saidEnd = this.over ? this.status : null;
    const said = this.said && this.said.note === this.note ? this.said : null;
    const heard = cardsSpoken(this.note); // (said in words: "2 of clubs", not "2♣")
    const after = ending && this.opts.endSaid ? this.opts.endSaid() : "";
    const told = ending
      ? [said && said.fresh ? `${said.text}.` : "", ending, heard, after]
      : [said ? said.text : heard];
    const text = told.filter(Boolean).join(" ");
    // (nothing new: the time left said by the clock's tick is left to be heard)
    if (text || !this.warning || this.live.textContent !== this.warning) say(this.live, text, Boolean(said?.fresh));
    if (said) said.fresh = false;
    settle();
    ended(this.root, this.status);
    clearInterval(this.ticker);
    const start = this.opts.clockFrom ? this.opts.clockFrom() : this.startedAt;
    const end = this.opts.clockTo ? this.opts.clockTo() : null;
    const tick = () => {
      const now = app.link.serverNow();
      // the time left rounded up, as a countdown's: with the time gone (rounded down) it
      // makes the limit (0:06 and 0:23 left had made 0:29 of a 0:30 race)
      // (on a phone the time left alone: app.css)
      const left = end
        ? h(
            "span",
            { class: "left" },
            h("span", { class: "gone" }, " ("),
            `${clock(Math.ceil((end - now) / 1000) * 1000)} left`,
            h("span", { class: "gone" }, ")"),
          )
        : null;
      // a game over: its time as the server measured it, where it says when it ended (a
      // game whose time ran out, the limit's)
      const finished = this.over ? this.finishedAt || (this.status === "timeout" ? end : null) : null;
      const warning = end && !this.over ? timeWarning(end - now, this.warnedAt) : null;
      if (warning) {
        [this.warnedAt, this.warning] = [warning.at, warning.text]; // (said once each: spoken.js)
        say(this.live, warning.text, true);
      }
      if (!start || (this.over && !finished)) clockNode.replaceChildren();
      else if (finished) clockNode.replaceChildren(clock(finished - start));
      else clockNode.replaceChildren(h("span", { class: "gone" }, clock(now - start)), left ?? "");
    };
    tick();
    if (!this.over) this.ticker = setInterval(tick, 500);
  }

  // The board alone, in the room its box has (a move's draw, or the box resized); the
  // pile that had the focus has it again.
  /** @param {string | null} [focused] the pile to give the focus, by label */
  drawBoard(focused = null) {
    const box = this.boardBox;
    if (!this.box.seen && box.isConnected) {
      // once, before the observer has said: the one read of the layout a screen makes
      this.box.seen = { width: Math.floor(box.clientWidth), height: Math.floor(box.clientHeight) };
    }
    const size = this.box.size();
    const active = document.activeElement;
    if (focused === null && active instanceof HTMLElement && box.contains(active))
      focused = active.dataset.pile || null;
    // (what the box may not shrink below once a review is under it: app.css)
    box.style.setProperty("--ease", `${Math.ceil(easeHeight(this.view, size.width))}px`);
    drawBoard(box, this.view, {
      legal: this.over ? [] : this.legal,
      still: this.over, // (a game over's piles are no buttons: sixteen dead stops of Tab's)
      picked: this.picked,
      width: size.width,
      height: size.height || Infinity,
    });
    if (this.hinted)
      for (const label of touchedPiles(this.hinted, this.view))
        box.querySelector(`.pile[data-label="${CSS.escape(label)}"]`)?.classList.add("hinted");
    if (focused) {
      const pile = /** @type {HTMLElement | null} */ (box.querySelector(`.pile[data-pile="${CSS.escape(focused)}"]`));
      pile?.focus({ preventScroll: true });
    }
  }

  // A race's start (a room's, a challenge's, a quick race's): the focus, which the lobby's
  // buttons took with them, on the first pile a move starts from, else on the word move's
  // button (The Labyrinth's `deal`: in the move box its key `d` typed itself), else in the
  // move box.
  focusStart() {
    const now = document.activeElement;
    if (this.over || (now && now !== document.body)) return;
    const word = this.legal.find(isWord);
    const start = [
      this.boardBox.querySelector(".pile.playable"),
      word ? this.root.querySelector(`button[data-act="${CSS.escape(word)}"]`) : null,
    ].find((node) => node instanceof HTMLElement && !node.matches(":disabled"));
    (start instanceof HTMLElement ? start : this.input).focus({ preventScroll: true });
  }
}
