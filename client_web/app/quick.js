// @ts-check
// The quick race (/play#quick=GAME): waiting in the game's public queue, the rating window
// widening as the server says, and a way out; then the matched room's screen (room.js,
// shown by main.js as for any room), or, matched with nobody in time, the race against
// the ghosts of a recorded race on its deal: the countdown, the game played like a solo
// game with the ghosts moved along beside it by the server time since the start (their
// recorded points: the client decides nothing), and where the player placed among them.

import { backToGames, button, clock, h, replace, statusText } from "./dom.js";
import { GameScreen } from "./game.js";
import { errorText } from "./link.js";
import { ghostAt, placeOf, placed, shownRating } from "./ranking.js";
import { drawRacers, resultsTable } from "./room.js";
import { countdown } from "./sound.js";
import { liveRegion, setText } from "./focus.js";
import { leftRace, raceOn } from "./elsewhere.js";
import { quickCaughtUp } from "./catchup.js";

/** @typedef {import("./types.js").App} App */
/** @typedef {import("./types.js").Message} Message */
/** @typedef {{ game: string, start_at: number, ghosts: import("./ranking.js").Ghost[] }} Race */

/**
 * What the wait says: the rating, the window, and when ghosts take over.
 * @param {Message} waiting `quick_waiting`
 * @param {number} now server ms
 */
export function waitingText(waiting, now) {
  const left = Math.max(0, waiting.ghosts_at - now);
  return `Your rating ${shownRating(waiting)} · looking within ±${waiting.window} · ghosts in ${Math.ceil(left / 1000)} s`;
}

/**
 * Who the ghosts are.
 * @param {{ name: string }[]} ghosts
 */
export function ghostsText(ghosts) {
  if (!ghosts.length)
    return "Nobody was matched in time, and no recorded race is left for you to race: a fresh deal, alone.";
  const names = ghosts.map((g) => g.name);
  const who = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  return `Nobody was matched in time: racing the ghosts of ${who}, on their race's deal.`;
}

export class QuickScreen {
  /**
   * @param {App} app
   * @param {string} rules the game, by id
   * @param {(room: Message) => unknown} showRoom the matched room's screen
   */
  constructor(app, rules, showRoom) {
    this.app = app;
    this.rules = rules;
    this.showRoom = showRoom;
    /** @type {Message | null} the last `quick_waiting` */
    this.waiting = null;
    /** @type {string | null} the room matched into */
    this.matched = null;
    /** @type {Map<string, Message>} the rooms heard of while waiting, by code */
    this.rooms = new Map();
    /** @type {Race | null} the ghosts raced */
    this.race = null;
    /** @type {GameScreen | null} */
    this.game = null;
    /** @type {Message | null} */
    this.result = null;
    /** @type {string | null} */
    this.drawn = null;
    const info = app.game(rules);
    this.root = h("section", { class: "quick challenge", dataset: { quick: rules } });
    this.headBox = h("div", { class: "challenge-head" }, h("h1", {}, info ? `Quick race: ${info.name}` : "Quick race"));
    // the wait's clock, seen (not a live region: read out, it said every second); what a
    // screen reader is told is the live region's, each change of the wait's state
    this.waitBox = h("p", { class: "quick-wait" }, "Joining the queue…");
    this.live = liveRegion();
    this.noteBox = h("p", { class: "note", role: "status" });
    this.leaveButton = button("Leave the queue", () => this.leave(), { "data-act": "quick-leave" });
    this.countBox = h("div", { class: "countdown", "aria-live": "polite" });
    this.barsBox = h("div", { class: "bars" });
    this.resultBox = h("div", { class: "challenge-result" });
    this.gameBox = h("div", { class: "race-game" });
    this.tableBox = h("div", { class: "results" });
    this.headBox.append(this.waitBox, this.leaveButton, this.noteBox);
    this.root.append(this.live, this.headBox, this.countBox, this.barsBox, this.resultBox, this.gameBox, this.tableBox);
    this.ticker = setInterval(() => this.tick(), 100);
    const resume = app.welcome && app.welcome.resume;
    const back = resume && resume.quick;
    if (back && back.rules === rules) {
      resume.quick = null; // taken up once: "Another quick race" joins the queue
      this.takeUp(back);
    } else this.join();
  }

  /**
   * A ghost race in play taken up again (`welcome.resume.quick`: the page reloaded, or
   * the connection came back): its countdown, or its game as it is now.
   * @param {Message} back
   */
  takeUp(back) {
    this.race = { game: back.game, start_at: back.start_at, ghosts: back.ghosts || [] };
    this.state(ghostsText(this.race.ghosts));
    this.leaveButton.hidden = true;
    if (back.started && this.game) {
      this.game.take(back.started);
      this.game.draw();
    } else if (back.started) this.begin(back.started);
    this.tick();
  }

  /**
   * The connection came back: a ghost race goes on where it stands; a wait, which the
   * dropped connection left, is joined again, but for a race of the player's on in a room
   * meanwhile (joining the queue leaves that room, resigning the race: main.js asks first)
   * @param {Message} welcome
   */
  resumed(welcome) {
    const back = welcome && welcome.resume && welcome.resume.quick;
    if (back && !this.result && (!this.race || this.race.game === back.game)) this.takeUp(back);
    else if (!back && this.game && !this.result)
      quickCaughtUp(this); // (it ended while away)
    else if (this.waiting && !this.matched && !this.race && !raceOn(welcome.resume, this.me)) this.join();
  }

  destroy() {
    clearInterval(this.ticker);
    if (this.game) this.game.destroy();
    // another screen shown while waiting (the back button, a link): out of the queue
    if (this.waiting && !this.matched && !this.race) this.app.link.request("quick_leave").catch(() => {});
  }

  get me() {
    return this.app.player ? this.app.player.name : null;
  }

  async join() {
    try {
      this.waiting = await this.app.link.request("quick", { game: this.rules });
      // (in the queue, out of any room: a race of the player's there is resigned)
      leftRace(this.app, "", false);
      this.tick();
    } catch (error) {
      this.state(errorText(error));
      this.waitBox.after(backToGames());
      this.leaveButton.hidden = true;
    }
  }

  async leave() {
    try {
      await this.app.link.request("quick_leave");
    } catch {
      /* gone all the same: closing the page leaves the queue too */
    }
    this.waiting = null; // (left: nothing more to leave)
    this.app.go("/play#home");
  }

  /**
   * What the wait has come to, shown and told.
   * @param {string} text
   */
  state(text) {
    setText(this.waitBox, text);
    setText(this.live, text);
  }

  /** @param {Message} message */
  event(message) {
    const type = message.type;
    if (type === "quick_waiting") {
      this.waiting = message;
      this.tick();
    } else if (type === "room" && !this.race) {
      this.rooms.set(message.code, message);
      if (message.code === this.matched) this.showRoom(message);
    } else if (type === "quick_matched") {
      this.matched = message.code;
      const others = message.players.filter((/** @type {string} */ p) => p !== this.me);
      this.state(`Matched with ${others.join(", ")}: the race starts in a moment.`);
      this.leaveButton.hidden = true;
      const room = this.rooms.get(message.code);
      if (room) this.showRoom(room);
    } else if (type === "quick_ghosts") {
      this.race = { game: message.game, start_at: message.start_at, ghosts: message.ghosts || [] };
      this.state(ghostsText(this.race.ghosts));
      this.leaveButton.hidden = true;
      this.tick();
    } else if (type === "quick_ghosts_start" && this.race && message.game === this.race.game) {
      this.begin(message);
    } else if (type === "quick_ghosts_result" && this.race && message.game === this.race.game) {
      this.onResult(message);
    } else return false;
    return true;
  }

  /** @param {Message} start `quick_ghosts_start` */
  begin(start) {
    if (!this.race) return;
    this.race.start_at = start.start_at;
    this.game = new GameScreen(this.app, start, {
      hints: false,
      label: "quick race",
      untabled: true,
      clockFrom: () => (this.race ? this.race.start_at : start.start_at),
      onOver: () => {
        if (!this.result)
          replace(this.resultBox, h("p", { class: "muted" }, "Your game is over: the result is on its way."));
      },
    });
    replace(this.gameBox, this.game.root);
    this.game.draw();
    this.game.focusStart();
    this.tick();
  }

  /** @param {Message} message `quick_ghosts_result` */
  onResult(message) {
    this.result = message;
    if (this.game && this.game.status === "playing") {
      this.game.status = message.you.status;
      this.game.draw();
    }
    const count = message.table.length;
    // the player's own row says whether a ghost shares their place
    const mine = message.table.find((/** @type {Message} */ e) => !e.ghost) || message;
    // alone (no ghost to race): the game's end, and no table of one
    const alone = !message.table.some((/** @type {Message} */ e) => e.ghost);
    const said = alone
      ? `Your game is over: ${statusText(message.you.status)}`
      : `You finished ${placed(mine, message.table)} of ${count} against the ghosts`;
    setText(this.live, said); // (the heading below is not a live region: read out here)
    replace(
      this.resultBox,
      h(
        "h2",
        {
          class: `verdict ${placeOf(mine) === 1 ? "beat" : "lost"}`,
          dataset: { rank: String(message.rank), place: String(placeOf(mine)) },
        },
        said,
      ),
      h(
        "div",
        { class: "controls" },
        button("Another quick race", () => this.app.go(`/play#quick=${this.rules}`), {
          "data-act": "quick",
        }),
        message.replay
          ? h("a", { href: `/play#replay=${encodeURIComponent(message.replay)}`, class: "replay-link" }, "Your replay")
          : null,
      ),
    );
    if (alone) replace(this.tableBox);
    else
      replace(
        this.tableBox,
        h("h2", {}, "Against the ghosts"),
        resultsTable(message.table, this.me, this.app.game(this.rules)?.unit),
      );
    this.tick();
  }

  tick() {
    const now = this.app.link.serverNow();
    const race = this.race;
    if (!race) {
      if (this.waiting && !this.matched) {
        const waited = clock(Math.max(0, now - this.waiting.since));
        setText(this.waitBox, `Waiting ${waited} · ${waitingText(this.waiting, now)}`);
        // (told as the window widens, not as the clock runs)
        const w = this.waiting;
        setText(this.live, `Waiting in the queue · Your rating ${shownRating(w)} · looking within ±${w.window}`);
      }
      return;
    }
    if (!this.game && !this.result) {
      const left = race.start_at - now;
      setText(this.countBox, left > 0 ? String(Math.ceil(left / 1000)) : "Go!"); // (as it changes)
      this.countBox.classList.add("on");
      countdown(this.countBox.textContent);
      return;
    }
    setText(this.countBox, "");
    this.countBox.classList.remove("on");
    countdown("");
    const rows = race.ghosts.map((g) => ghostAt(g, now - race.start_at));
    if (this.game) {
      const v = this.game.view;
      rows.unshift({ name: this.me ?? "", home: v.home, total: v.total, moves: v.moves, status: this.game.status });
    }
    const key = JSON.stringify(rows);
    if (key === this.drawn) return;
    this.drawn = key;
    drawRacers(this.barsBox, rows, this.me, this.app.game(this.rules)?.unit);
  }
}
