// @ts-check
// A replay drawn as boards with a scrubber, play and pause, and speed (the server's
// `replay_view`), with "Race this": the replay's challenge, taken. Each step is said in a
// live region in the card words a game says its moves in (`spoken.js`), and the
// scrubber's value in the same words; its heading takes the focus as it opens.

import { BoxWatch, backToGames, button, clock, count, h, replace, replaceKeeping } from "./dom.js";
import { drawBoard } from "./board.js";
import { cardsMove } from "./motion.js";
import { errorText } from "./link.js";
import { reviewBox } from "./review.js";
import { parWords } from "./par.js";
import { entryText, hintsText, progressText } from "./ranking.js";
import { focusLost, focusOn, liveRegion, say } from "./focus.js";
import { replayKeysHelp, stepButton } from "./replaybar.js";
import { placeControls } from "./sides.js";
import { moveSaid } from "./spoken.js";

/** @typedef {import("./types.js").App} App */
/** @typedef {import("./types.js").Message} Message */

/**
 * A replay's step in words: "step 0 of 33: the deal", "step 1 of 33: pair of queens off"
 * (a move, from the boards before and after it, as a game says it), "step 9 of 33:
 * resign" (an entry that is no move).
 * @param {number} step
 * @param {number} steps
 * @param {string | undefined} entry the step's log entry (its move), none for step 0
 * @param {Message | null | undefined} before the board before it
 * @param {Message | null | undefined} after the board after it
 */
export function stepSaid(step, steps, entry, before, after) {
  const what =
    step === 0 || entry === undefined
      ? "the deal"
      : entry.startsWith("!")
        ? entryText(entry)
        : moveSaid(entry, before, after);
  return `step ${step} of ${steps}: ${what}`;
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
      oninput: () => this.show(Number(this.range.value), true),
    });
    this.playButton = button("Play", () => this.toggle(), { "data-act": "play" });
    this.stepText = h("span", { class: "step" });
    this.note = h("p", { class: "note", role: "status" });
    // each step said (kept in the page from the first: load() keeps it)
    this.live = liveRegion();
    this.root.append(this.live);
    /** shown in place of the screen with the focus: its heading takes it once loaded */
    this.wantsFocus = false;
    // the viewer's keys, wherever the focus is (as the terminal's viewer has them): the
    // arrows a step, Home and End the deal and the end, Space plays and pauses
    this.keys = (/** @type {KeyboardEvent} */ e) => this.key(e);
    document.addEventListener("keydown", this.keys);
    this.load();
  }

  // shown in place of the screen that had the focus ("Your game's replay" pressed): its
  // heading takes it once the replay is loaded (front.js focusStart)
  focusStart() {
    this.wantsFocus = true;
    this.headFocus();
  }

  headFocus() {
    if (this.wantsFocus && focusLost()) this.wantsFocus = !focusOn(this.root.querySelector("h1"));
  }

  /**
   * Who played the replay's game, as its review says it: "you" for one's own, else the
   * player's name now.
   * @param {Message} r the replay
   */
  playedBy(r) {
    const now = r.player_now || r.player;
    return this.app.player && now === this.app.player.name ? "you" : String(now);
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
    replaceKeeping(
      this.root,
      this.live,
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
        r.kind !== "book" && this.app.player
          ? reviewBox(this.app, this.id, (step) => this.show(step), this.playedBy(r))
          : null,
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
    this.show(0, false);
    this.headFocus();
  }

  /**
   * A replay raced at once (`/play#race=ID`: a replay page's "Race this"): its challenge
   * taken; where it cannot be, the replay's viewer, saying why.
   * @param {App} app
   * @param {string} id the replay's id
   */
  static async raceAtOnce(app, id) {
    try {
      app.raceChallenge(await app.link.request("challenge_take", { replay: id }));
    } catch (error) {
      const screen = new ReplayScreen(app, id);
      app.show(screen);
      screen.note.textContent = errorText(error);
    }
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

  /**
   * @param {number} step
   * @param {boolean} [told] said in the live region (not as the replay opens)
   */
  async show(step, told = true) {
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
    // the step in words, from the board before it (fetched where not seen yet)
    const entry = step > 0 ? String(this.moves[step - 1][1]) : undefined;
    let before = step > 0 ? this.views.get(step - 1) : null;
    if (step > 0 && !before && !entry?.startsWith("!")) {
      try {
        /** @type {Message} */
        const fetched = (await this.app.link.request("replay_view", { replay: this.id, step: step - 1 })).view;
        this.views.set(step - 1, fetched);
        before = fetched;
      } catch {
        before = null; // (said as its notation)
      }
      if (this.step !== step) return;
    }
    const said = stepSaid(step, this.steps, entry, before, view);
    this.range.setAttribute("aria-valuetext", said);
    if (told) say(this.live, said, true);
    const settle = cardsMove(this.boardBox, view); // the step's card slides to where it went
    this.drawBoard(view);
    settle();
    this.boardBox.dataset.step = String(step);
  }
}
