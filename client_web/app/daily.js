// @ts-check
// The daily challenge: start when ready, the result line with a copy button, streaks, a
// challenge of the attempt; then practice of the day's deal, raced against the board
// ("race the board", on unless unticked): the ghosts of those the player follows who
// have finished the day and of the day's leaders move along the racers' panel by the
// server time since the practice was dealt (their recorded points: the client decides
// nothing), and at its end the server's placing among them (`ghosts_result`). Left open
// over the day's reset, the screen turns to the new day as dailyday.js says.

import { backToGames, button, clock, count, h, replace } from "./dom.js";
import { GameScreen } from "./game.js";
import { drawRacers, resultsTable } from "./room.js";
import { beatenText, ghostAt, liveOrder, ordinal, placed, resultText } from "./ranking.js";
import { errorText } from "./link.js";
import { focusLost, focusOn, liveRegion, say } from "./focus.js";
import { challengeMaker, copyButton } from "./share.js";
import { gradeOf } from "./difficulty.js";
import { commitmentLine, difficultyLine, parLine, reviewNote, streakText } from "./dailylines.js";
import { endByResult, newDealLine, pastDeal, pastHead, pastPractice, resultHeading, resultSaid } from "./dailyday.js";
import { dealBeside, keepRaceLine } from "./elsewhere.js";
import { dailyCaughtUp } from "./catchup.js";

/** @typedef {import("./types.js").App} App */
/** @typedef {import("./types.js").Message} Message */
/** @typedef {import("./ranking.js").Ghost} Ghost */
/** @typedef {{ game: string, start: number, ghosts: Ghost[] }} BoardRace practice racing the board */

export { beatenText }; // the notice of a placing that comes on another screen (main.js)

const RACE_BOARD_KEY = "patience-race.race-the-board";

// whether practice races the board: the player's last choice in this browser, else yes
function raceBoard() {
  try {
    return localStorage.getItem(RACE_BOARD_KEY) !== "off";
  } catch {
    return true;
  }
}

/** @param {boolean} on */
function keepRaceBoard(on) {
  try {
    localStorage.setItem(RACE_BOARD_KEY, on ? "on" : "off");
  } catch {
    /* this page only */
  }
}

/**
 * When a ghost first stood at `home` cards home (ms from the start), as the server counts it.
 * @param {Ghost} ghost
 * @param {number} home
 */
function reachedAt(ghost, home) {
  const point = (ghost.points || []).find((p) => p[1] === home);
  return point ? point[0] : 0;
}

export class DailyScreen {
  /**
   * @param {App} app
   * @param {string} rules the game's id
   */
  constructor(app, rules) {
    this.app = app;
    this.rules = rules;
    /** @type {GameScreen | null} */
    this.game = null;
    /** @type {BoardRace | null} */
    this.race = null;
    /** the race's placing is shown: the panel gives way to it until the game plays on */
    this.decided = false;
    /** @type {number | null} ms from the start when the player's practice was seen won */
    this.wonAt = null;
    /** @type {{ home: number, at: number | null }} when the player's cards home last changed */
    this.reached = { home: 0, at: null };
    /** @type {Map<string, string>} each ghost's status when last seen */
    this.ghostSeen = new Map();
    /** @type {string | null} the racers' panel as last drawn */
    this.drawn = null;
    /** @type {number | null} the player's place in it */
    this.place = null;
    /** @type {Message | null} the ranked attempt's `daily_result`, once it has come */
    this.ended = null;
    /** @type {number | null} when the next deal comes, on `performance.now()`'s clock */
    this.resetAt = null;
    /** @type {number | null} the `resetAt` whose passing the screen has shown (dayTurned) */
    this.turnedAt = null;
    /** @type {string | null} the day the screen shows */
    this.day = null;
    /** @type {string | null} that day's ranked attempt's game id (its replay's), once known */
    this.rankedId = null;
    /** @type {string | null} what shows: "start" (the Start screen), "ended" (the result), "game" */
    this.stage = null;
    this.askedAt = 0;
    this.root = h("section", { class: "daily" });
    this.top = h("div", { class: "daily-head" });
    this.placingBox = h("div", { class: "placing" });
    this.standingBox = h("p", { class: "muted standing" });
    this.barsBox = h("div", { class: "bars board-race" });
    this.gameBox = h("div");
    // a race of the player's on (begun on another device, say): said above the Start
    // screen and the result, with the way back to it (not over a game: its board keeps the
    // room); Start and practice ask first while it is on (dealBeside)
    this.raceBox = h("div", { class: "race-slot", hidden: true });
    // (the ranked attempt's start and its result read out: kept in the page from the first)
    this.live = liveRegion();
    /** @type {string[]} the result's words, for the game's live region to say after its end */
    this.resultSaid = [];
    /** the screen was shown in place of the one with the focus: its heading takes it (main.js) */
    this.wantsFocus = false;
    this.root.append(this.live, this.raceBox, this.top, this.placingBox, this.standingBox, this.barsBox, this.gameBox);
    this.ticker = setInterval(() => {
      this.tick();
      this.countDown();
      this.raceNow();
    }, 200);
    this.ask();
  }

  // the race's line as the race stands (over, or begun) and as the screen stands
  raceNow() {
    this.raceBox.hidden = this.stage === null || this.stage === "game";
    keepRaceLine(this.app, this.raceBox);
  }

  destroy() {
    clearInterval(this.ticker);
    if (this.game) this.game.destroy();
  }

  // shown in place of the screen that had the focus (Daily challenge pressed): its heading
  // takes it once drawn (front.js focusStart), the status asked first
  focusStart() {
    this.wantsFocus = true;
    this.headFocus();
  }

  headFocus() {
    if (this.wantsFocus && focusLost()) this.wantsFocus = !focusOn(this.top.querySelector("h1"));
  }

  get me() {
    return this.app.player ? this.app.player.name : null;
  }

  get name() {
    const info = this.app.game(this.rules);
    return info ? info.name : this.rules;
  }

  async ask() {
    this.askedAt = performance.now();
    let status;
    try {
      status = await this.app.link.request("daily", { game: this.rules, start: false });
    } catch (error) {
      replace(this.top, h("p", { class: "note" }, errorText(error)), backToGames());
      return;
    }
    // asked again (the day turned over the Start screen, or the new day asked for): what
    // was shown goes, and a day other than the one shown is said to be new
    const newDay = this.day !== null && this.day !== status.day;
    this.day = status.day;
    this.rankedId = status.game ?? null;
    this.ended = null;
    const title = h("h1", {}, `${this.name}: daily challenge, ${status.day}`);
    const difficulty = difficultyLine(status.difficulty, this.app.game(this.rules)?.unit);
    this.resetsAt(status);
    const resets = this.resets(commitmentLine(status.commitment));
    // the streaks, before the attempt as after it
    const streak = status.streak ? h("p", { class: "muted streak" }, streakText(status.streak)) : null;
    if (status.ranked_attempt === "pending") {
      this.leaveGame();
      this.stage = "start";
      replace(
        this.top,
        title,
        newDay ? h("p", { class: "note new-day" }, `A new day: this is ${status.day}'s deal.`) : null,
        h("p", {}, "One ranked attempt a day; its clock starts when you press Start."),
        difficulty,
        streak,
        button(
          "Start",
          () => dealBeside(this.app, `Start today's ranked attempt at ${this.name}`, () => this.start()),
          {
            class: "big",
            "data-act": "start-daily",
          },
        ),
        resets,
      );
    } else if (status.ranked_attempt === "playing") {
      // under way, its clock running: straight back to it (a reload, the Daily button
      // again) rather than behind a Resume button while the clock ran on
      this.start();
    } else if (this.practising()) {
      this.start(true); // a practice game under way (a reload): back to it, and its ghosts
    } else {
      this.leaveGame();
      this.stage = "ended";
      const maker = status.game ? challengeMaker(this.app, status.game) : null;
      replace(
        this.top,
        title,
        reviewNote(status.review),
        parLine(status),
        this.resultBox(status.ranked_result, status.streak),
        difficulty,
        maker,
        this.practiceControls(),
        this.boardLink(status.day),
        resets,
      );
    }
    this.raceNow();
    this.headFocus();
  }

  /**
   * When the next deal comes, from a `daily` reply's `reset_in_ms` (the server's clock),
   * kept on this page's clock so that the attempt's end can say it again.
   * @param {Message} reply
   */
  resetsAt(reply) {
    if (typeof reply.reset_in_ms === "number") this.resetAt = performance.now() + reply.reset_in_ms;
  }

  /**
   * "A new deal in 12:59:19 (00:00 UTC).", as of now, or nothing where it is not known.
   * @param {...(Node | null)} after
   */
  resets(...after) {
    if (this.resetAt === null) return null;
    const left = clock(this.resetAt - performance.now());
    return h(
      "p",
      { class: "muted resets" },
      "A new deal in ",
      h("span", { class: "left" }, left),
      " (00:00 UTC).",
      ...after,
    );
  }

  // the time to the next deal, counted down where it is shown (it stood still); once it
  // has come, the screen turns to the new day (dayTurned)
  countDown() {
    if (this.resetAt === null) return;
    if (this.resetAt <= performance.now() && this.turnedAt !== this.resetAt) {
      this.turnedAt = this.resetAt;
      this.dayTurned();
    }
    const left = clock(Math.max(this.resetAt - performance.now(), 0));
    for (const span of this.root.querySelectorAll(".resets .left"))
      if (span.textContent !== left) span.textContent = left;
  }

  // whether the day shown is over: its reset has come (a ranked attempt it timed out says so)
  dayOver() {
    if (this.ended && this.ended.status === "timeout") return true;
    return this.resetAt !== null && this.resetAt <= performance.now();
  }

  // The reset has come over the screen (the stood-still "A new deal in 0:00" and a Start
  // that dealt the new day's deal under the old one's words): the Start screen is the new
  // day's, asked again; elsewhere the new deal is said to be here, with the way to it, the
  // result's heading says the day is over, and practice deals the day's deal from its seed.
  dayTurned() {
    if (this.stage === "start") {
      // (asked a moment ago: the server's day had not turned yet; asked again shortly)
      if (performance.now() - this.askedAt < 1000) this.turnedAt = null;
      else this.ask();
      return;
    }
    for (const line of this.root.querySelectorAll(".resets")) line.replaceWith(newDealLine(() => this.ask()));
    const heading = this.top.querySelector("h1.result-heading");
    if (heading && this.ended) heading.textContent = resultHeading(this.ended, true);
    for (const controls of this.root.querySelectorAll(".controls.practice")) {
      const label = controls.querySelector("[data-act=practice]")?.textContent || undefined;
      controls.replaceWith(this.practiceControls(label));
    }
  }

  // the game and a practice's race shown under the screen's head, gone (asked again)
  leaveGame() {
    if (this.game) this.game.destroy();
    this.game = null;
    this.race = null;
    replace(this.gameBox);
    replace(this.placingBox);
    replace(this.barsBox);
    this.standingBox.textContent = "";
  }

  // the player's current solo game, as they signed in, is a practice of this game's deal
  practising() {
    const solo = this.app.welcome && this.app.welcome.resume && this.app.welcome.resume.solo;
    return Boolean(solo && solo.kind === "practice" && solo.rules === this.rules && solo.status === "playing");
  }

  // Practise this deal, and the toggle that makes it a race against the board (one label
  // wherever it shows: "Practise against the board" beside an unticked "race the board"
  // said what the toggle decides)
  practiceControls(label = "Practise this deal") {
    // the day over: its board raced no more, its deal dealt again from its seed
    const practise = `Practise ${this.name}'s daily deal`;
    if (this.dayOver())
      return pastPractice(label, this.day, () => dealBeside(this.app, practise, () => this.practisePast()));
    const toggle = h("input", {
      type: "checkbox",
      "data-act": "race-board",
      onchange: () => keepRaceBoard(toggle.checked),
    });
    toggle.checked = raceBoard();
    return h(
      "div",
      { class: "controls practice" },
      button(label, () => dealBeside(this.app, practise, () => this.start(true)), { "data-act": "practice" }),
      h(
        "label",
        { title: "the ghosts of those you follow who finished today, then the day's leaders" },
        toggle,
        " race the board",
      ),
    );
  }

  /** @param {string} day */
  boardLink(day) {
    return h("p", {}, h("a", { href: `/play#board=daily/${this.rules}/${day}` }, "The day's board"));
  }

  /**
   * @param {string | null | undefined} line
   * @param {Message | null} [streak]
   */
  resultBox(line, streak) {
    if (!line) return null;
    const code = h("code", { class: "line" }, line);
    return h(
      "div",
      { class: "result-line" },
      code,
      copyButton(line, code),
      streak ? h("p", { class: "muted" }, streakText(streak)) : null,
    );
  }

  // the ranked attempt dealt or resumed; or, once it is over (practice), practice, with
  // the board's ghosts where the player races them
  async start(practice = false) {
    // the day over: Start would deal the new day's attempt under the old day's words, and
    // practice (`daily`) the new day's ranked attempt, unasked
    if (this.dayOver()) return practice ? this.practisePast() : this.ask();
    // Start or practice pressed (not a reload's attempt taken up): the focus had it
    const pressed = this.top.contains(document.activeElement);
    /** @type {Message} */
    const fields = { game: this.rules };
    if (practice && raceBoard()) fields.ghosts = true;
    let reply;
    try {
      reply = await this.app.link.request("daily", fields);
    } catch (error) {
      this.app.notice(errorText(error));
      return;
    }
    this.resetsAt(reply);
    // (Start pressed as the day turned: the server dealt the new day's deal)
    const turned = reply.ranked && this.day !== null && reply.day !== this.day;
    this.day = reply.day;
    this.stage = "game";
    if (reply.ranked) this.rankedId = reply.game;
    if (this.game) this.game.destroy();
    if (this.app.welcome && this.app.welcome.resume)
      this.app.welcome.resume = { ...this.app.welcome.resume, solo: null }; // (taken up: it grows stale)
    this.race =
      reply.kind === "practice" && Array.isArray(reply.ghosts)
        ? { game: reply.game, start: reply.started_at, ghosts: reply.ghosts }
        : null;
    this.wonAt = null;
    this.decided = false;
    // when the player's cards home last changed: 0 in a practice just dealt; else not known
    // (a practice resumed) until it changes, the moment it was first seen
    this.reached = { home: reply.view.home, at: reply.view.moves === 0 ? 0 : null };
    this.ghostSeen.clear();
    this.drawn = null;
    this.place = null;
    replace(this.placingBox);
    replace(this.barsBox);
    this.standingBox.textContent = "";
    const kind = reply.ranked ? "ranked attempt" : this.race ? "practice against the board" : "practice";
    const against = this.race
      ? h(
          "p",
          { class: "muted against" },
          this.race.ghosts.length
            ? `Racing ${count(this.race.ghosts.length, "ghost")}: those you follow who finished today, then the day's leaders, as fast as they played.`
            : "No one else has finished today's deal yet: no ghosts to race.",
        )
      : null;
    replace(
      this.top,
      h(
        "p",
        { class: "muted" },
        `${this.name} · ${reply.day} · ${kind}${gradeOf(reply.difficulty) ? ` · ${gradeOf(reply.difficulty)}` : ""} · ${streakText(reply.streak)}`,
      ),
      reply.note ? h("p", { class: "note" }, reply.note) : null,
      turned ? h("p", { class: "note new-day" }, `A new day: this is ${reply.day}'s deal.`) : null,
      against,
    );
    const endSaid = () => this.resultSaid.splice(0).join(" "); // (the result, once)
    this.game = new GameScreen(this.app, reply, { challenge: true, onOver: () => this.waiting(), endSaid });
    replace(this.gameBox, this.game.root);
    this.game.draw();
    this.tick();
    // Start pressed (its button gone with the Start screen): the focus to the first pile a
    // move starts from, as a solo game's Play and a race's Go! give it, and the clock said
    if (pressed || this.wantsFocus) this.game.focusStart();
    this.wantsFocus = false;
    if (pressed && reply.ranked) say(this.live, `${this.name}: ranked attempt started. Its clock is running.`, true);
  }

  // a past day's deal again, as a solo game (its seed public since the reset); where it
  // cannot be had, the new day's Start screen, which asks first
  async practisePast() {
    const day = this.day;
    let snap;
    try {
      snap = await pastDeal(this.app.link, this.rules, this.rankedId);
    } catch (error) {
      this.app.notice(`${day}'s deal cannot be dealt again: ${errorText(error)}`);
      this.ask();
      return;
    }
    this.leaveGame();
    this.stage = "game";
    replace(this.top, ...pastHead(this.name, day, () => this.ask()));
    this.game = new GameScreen(this.app, snap, { challenge: true });
    replace(this.gameBox, this.game.root);
    this.game.draw();
  }

  waiting() {
    // the ranked attempt's result comes before the reply to the move that ended it: its
    // par line, drawn then, had no winning move count to set against par (a win under
    // par by eleven moves said nothing of it), so it is drawn again now
    const par = this.top.querySelector(".par");
    const now = this.ended && this.game ? parLine(this.ended, this.game) : null;
    if (par && now) par.replaceWith(now);
    if (this.race && !this.placingBox.hasChildNodes())
      replace(
        this.placingBox,
        h("p", { class: "muted" }, "Your practice is over: your place on the board is on its way."),
      );
  }

  /** @param {Message} welcome */
  resumed(welcome) {
    const solo = welcome.resume && welcome.resume.solo;
    if (this.game && solo && solo.game === this.game.id) {
      this.game.take(solo);
      this.game.draw();
    }
    dailyCaughtUp(this, welcome); // (its result missed while the link was down: catchup.js)
  }

  /** @param {Message} message */
  event(message) {
    if (message.type === "daily_result") {
      this.ended = message;
      this.day = message.day;
      this.rankedId = message.game;
      this.stage = "ended";
      // (the board's rank as it finished: others finish later, and some before it)
      replace(
        this.top,
        h("h1", { class: "result-heading" }, resultHeading(message, this.dayOver())),
        reviewNote(message.review),
        parLine(message, this.game),
        this.resultBox(message.line, message.streak),
        difficultyLine(message.difficulty, this.app.game(this.rules)?.unit),
        this.practiceControls(),
        this.boardLink(message.day),
        this.dayOver() ? newDealLine(() => this.ask()) : this.resets(),
      );
      // the result's heading said after the game's end (dailyday.js), which a game the
      // reset ended comes to here; the focus, on a pile or Resign, to the game's name then
      const heading = this.top.querySelector("h1");
      this.resultSaid = resultSaid(this.game, message.game, this.live, `${heading?.textContent}.`);
      endByResult(this.game, message);
      if (focusLost()) focusOn(heading);
      return true;
    }
    if (message.type === "ghosts_result" && this.race && message.game === this.race.game) {
      this.placing(message);
      return true;
    }
    return false;
  }

  // where the practice placed among the ghosts: the server's table, ghosts marked
  /** @param {Message} message `ghosts_result` */
  placing(message) {
    /** @type {Message[]} */
    const table = message.table;
    const ghosts = table.filter((e) => e.ghost).length;
    const mine = table.find((e) => !e.ghost) || message.you;
    if (this.game && this.game.status === "playing") {
      this.game.status = message.you.status;
      this.game.draw();
    }
    // the race is decided: the table replaces the panel (until an undo of a lost game
    // plays on, when tick() brings the panel back, and the next end is placed anew)
    this.decided = true;
    replace(this.barsBox);
    // (and the line about the ghosts raced: those who finished since count in the table,
    // under a line that said there were none)
    this.top.querySelector(".against")?.remove();
    this.standingBox.textContent = "";
    replace(
      this.placingBox,
      h(
        "h2",
        {
          class: `verdict${ghosts && message.beaten === ghosts ? " beat" : ""}`,
          dataset: { beaten: String(message.beaten), ghosts: String(ghosts) },
        },
        beatenText(message.beaten, ghosts),
      ),
      h(
        "p",
        {},
        `You placed ${placed(mine, message.table)} of ${message.table.length}: ${resultText(message.you, this.app.game(this.rules)?.unit)}.`,
      ),
      resultsTable(message.table, this.me, this.app.game(this.rules)?.unit),
      this.practiceControls("Practise again"),
    );
    this.placingBox.scrollIntoView({ block: "nearest" });
  }

  tick() {
    const race = this.race;
    if (!race || !this.game) return;
    if (this.decided) {
      if (this.game.status !== "playing") return;
      // a lost practice undone: it races on, and its placing is gone until it ends again
      // (the placing and Practise again stayed over a game in play, and a second end
      // was not placed)
      this.decided = false;
      this.drawn = null;
      this.place = null;
      replace(this.placingBox);
    }
    const ms = this.app.link.serverNow() - race.start;
    const ghosts = race.ghosts.map((g) => {
      const at = ghostAt(g, ms);
      return { ...at, at: at.status === "won" && g.end ? g.end.at : null, reached: reachedAt(g, at.home) };
    });
    for (const g of ghosts) {
      if (this.ghostSeen.get(g.name) === "playing" && g.status === "won")
        this.app.notice(`${g.name}'s ghost won in ${clock(g.at ?? 0)}`);
      this.ghostSeen.set(g.name, g.status);
    }
    const v = this.game.view;
    if (this.game.status === "won" && this.wonAt === null) this.wonAt = ms;
    if (v.home !== this.reached.home || this.reached.at === null) this.reached = { home: v.home, at: ms };
    const mine = {
      name: this.me ?? "",
      home: v.home,
      total: v.total,
      moves: v.moves,
      status: this.game.status,
      at: this.wonAt,
      reached: this.reached.at,
    };
    const rows = liveOrder([mine, ...ghosts]);
    const key = JSON.stringify(rows);
    if (key === this.drawn) return;
    this.drawn = key;
    const place = rows.indexOf(mine);
    this.standingBox.textContent = ghosts.length ? `You: ${ordinal(place + 1)} of ${rows.length} so far` : "";
    drawRacers(this.barsBox, rows, this.me, this.app.game(this.rules)?.unit);
    if (place !== this.place) this.keepInView();
    this.place = place;
  }

  // on a phone the panel scrolls: the player's row is kept in it as their place changes
  keepInView() {
    const box = this.barsBox;
    const row = box.querySelector(".bar-row.mine");
    if (!(row instanceof HTMLElement)) return;
    if (box.scrollHeight <= box.clientHeight) return;
    box.scrollTop = row.offsetTop - (box.clientHeight - row.offsetHeight) / 2;
  }
}
