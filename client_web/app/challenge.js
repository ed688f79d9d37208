// @ts-check
// Challenges: a finished game raced again, later, against its ghost (/c/ID). The
// challenge as its link shows it (the game, whose ghost, their result, the table) and
// **Race**; the countdown to the server's start, as a race's; the game, played like a
// solo game, with the ghost moved along in the racers' panel by the server time since
// the start (its recorded points: the client decides nothing); the verdict, both
// replays and the table. And the player's own challenges, with what is new on them.

import { button, count, h, replace, statusText } from "./dom.js";
import { GameScreen } from "./game.js";
import { drawRacers, resultsTable } from "./room.js";
import { ServerError, errorText, storedToken } from "./link.js";
import { challengeMaker, shareBox } from "./share.js";
import { ghostAt, resultText, verdictText } from "./ranking.js";
import { countdown } from "./sound.js";
import { liveRegion, setText } from "./focus.js";
import { challengeCaughtUp } from "./catchup.js";

/** @typedef {import("./types.js").App} App */
/** @typedef {import("./types.js").Message} Message */
/** @typedef {{ game: string, start_at: number, ghosts: import("./ranking.js").Ghost[] }} Race */
/** @typedef {import("./share.js").Challenge & Message} Challenge */

// a challenge's id as its link has it (16 of base32's lower-case letters and digits)
export const CHALLENGE_ID = /^[a-z2-7]{16}$/;

/** @type {Record<string, string>} */
const SOURCES = {
  solo: "a solo game",
  race: "a race",
  daily: "a daily",
  practice: "daily practice",
  challenge: "a challenge raced",
};

/** @param {Message} challenge */
function title(challenge) {
  return challenge.share.replace(` · ${challenge.link}`, "");
}

export class ChallengeScreen {
  /**
   * @param {App} app
   * @param {string} id the challenge's id
   * @param {Message | null} [taken] a `challenge_taken` reply already had ("Race this")
   */
  constructor(app, id, taken = null) {
    this.app = app;
    this.id = id;
    /** @type {Challenge | null} as shown */
    this.challenge = null;
    /** @type {Message | null} the challenge_show reply */
    this.shown = null;
    /** @type {Race | null} taken */
    this.race = null;
    /** @type {GameScreen | null} */
    this.game = null;
    /** @type {Message | null} */
    this.result = null;
    /** @type {Map<string, string>} each ghost's status when last seen */
    this.ghostSeen = new Map();
    /** @type {HTMLElement | null} */
    this.noteBox = null;
    /** @type {string | null} the racers' panel as last drawn */
    this.drawn = null;
    this.root = h("section", { class: "challenge", dataset: { challenge: id } });
    this.headBox = h("div", { class: "challenge-head" });
    this.countBox = h("div", { class: "countdown", "aria-live": "polite" });
    this.barsBox = h("div", { class: "bars" });
    this.resultBox = h("div", { class: "challenge-result" });
    this.tableBox = h("div", { class: "results" });
    this.gameBox = h("div", { class: "race-game" });
    this.live = liveRegion(); // (the verdict read out: its heading is not a live region)
    this.root.append(this.live, this.headBox, this.countBox, this.barsBox, this.resultBox, this.gameBox, this.tableBox);
    const resume = app.welcome && app.welcome.resume && app.welcome.resume.challenge;
    if (taken) this.taken(taken);
    else if (resume && resume.challenge === id && app.welcome) {
      app.welcome.resume = { ...app.welcome.resume, challenge: null }; // (taken up: it grows stale)
      this.carryOn(resume);
    }
    this.ticker = setInterval(() => this.tick(), 100);
    this.load();
  }

  destroy() {
    clearInterval(this.ticker);
    if (this.game) this.game.destroy();
  }

  get me() {
    return this.app.player ? this.app.player.name : null;
  }

  async load() {
    try {
      this.shown = await this.app.link.request("challenge_show", { challenge: this.id });
    } catch (error) {
      replace(
        this.headBox,
        h("h1", {}, "A challenge"),
        h("p", { class: "note" }, errorText(error)),
        h("p", {}, h("a", { href: "/play#home" }, "Back to the games")),
      );
      return;
    }
    const challenge = !this.race || !this.challenge ? this.shown.challenge : this.challenge;
    this.challenge = challenge;
    const opts = this.game && /** @type {{ hints?: boolean }} */ (this.game.opts);
    if (this.game && opts && opts.hints !== challenge.hints) {
      opts.hints = challenge.hints; // (a game resumed before this was known)
      this.game.draw();
    }
    this.drawHead();
    if (!this.result) this.drawTable(this.shown.table);
    const raced = this.shown.table.some((/** @type {Message} */ e) => e.player === this.me && !e.ghost);
    if (this.shown.taken && !raced && !this.race) this.findGame();
  }

  // taken and not over, but not found on signing in (the page was left and come back
  // to): signing in again says where the game is
  async findGame() {
    try {
      const welcome = await this.app.link.request("hello", { protocol: 1, token: storedToken() || undefined });
      const resume = welcome.resume && welcome.resume.challenge;
      if (resume && resume.challenge === this.id && !this.race) this.carryOn(resume);
    } catch {
      /* the table says what there is */
    }
  }

  drawHead() {
    const c = this.challenge;
    if (!c) return;
    const shown = this.shown || {};
    const source = `${SOURCES[c.source] || c.source}${c.day ? ` of ${c.day}` : ""}`;
    const line = h(
      "p",
      { class: "muted" },
      `${c.player}'s ghost · ${source} · ${resultText(c.result, c.unit)} · ${c.hints ? "hints allowed" : "no hints"}`,
    );
    /** @type {import("./dom.js").Child[]} */
    const parts = [h("h1", {}, title(c)), line];
    if (this.race) {
      // racing, or raced: the panel, the game and the verdict say the rest
    } else if (c.player === this.me) {
      parts.push(h("p", {}, "This is your challenge: send its link."), shareBox(c));
    } else if (shown.closed) {
      const said = String(shown.closed);
      parts.push(h("p", { class: "note closed" }, said.charAt(0).toUpperCase() + said.slice(1)));
      // today's daily deal: the way on is to play it first
      if (c.opens_at !== null && c.opens_at !== undefined)
        parts.push(
          h("p", {}, h("a", { href: `/play#daily=${c.game}`, "data-act": "daily-first" }, "Play today's daily first")),
        );
    } else if (shown.taken) {
      parts.push(h("p", {}, "You have raced this challenge: see the table."));
    } else {
      parts.push(
        h(
          "p",
          {},
          `The same deal as ${c.player}'s game: a countdown, then ${c.player}'s ghost races beside you, as fast as they played.`,
        ),
        button("Race", () => this.take(), { class: "big", "data-act": "take" }),
      );
    }
    this.noteBox = h("p", { class: "note", role: "status" });
    parts.push(this.noteBox);
    replace(this.headBox, parts);
    // racing: the heading on a line or two, its words cut short, as a race's room's is (it
    // took a phone's board a quarter of the window); whole again once the verdict is in
    this.headBox.classList.toggle("compact", Boolean(this.race && !this.result));
  }

  /** @param {Message[] | undefined} table */
  drawTable(table) {
    if (!table || !table.length) {
      replace(this.tableBox);
      return;
    }
    replace(this.tableBox, h("h2", {}, "The table"), resultsTable(table, this.me, this.challenge?.unit));
  }

  async take() {
    try {
      this.taken(await this.app.link.request("challenge_take", { challenge: this.id }));
    } catch (error) {
      if (this.noteBox) this.noteBox.textContent = errorText(error);
      if (error instanceof ServerError && error.code === "already_taken") this.load();
      if (error instanceof ServerError && error.code === "challenge_in_play") this.pointBack();
    }
  }

  // another challenge is being raced (one at a time): signing in again says which, and the
  // note links to it
  async pointBack() {
    try {
      const welcome = await this.app.link.request("hello", { protocol: 1, token: storedToken() || undefined });
      const resume = welcome.resume && welcome.resume.challenge;
      if (!resume || resume.challenge === this.id || !this.noteBox) return;
      this.noteBox.append(
        " ",
        h("a", { href: `/c/${resume.challenge}`, "data-act": "back-to-challenge" }, "Go back to it"),
      );
    } catch {
      /* the note says what there is */
    }
  }

  /** @param {Message} reply `challenge_taken` */
  taken(reply) {
    this.challenge = reply.challenge;
    this.race = { game: reply.game, start_at: reply.start_at, ghosts: reply.ghosts || [] };
    this.drawHead();
    this.tick();
  }

  // a challenge game being played (or counted down to) found on signing in again
  /** @param {Message} resume `welcome.resume.challenge` */
  carryOn(resume) {
    this.race = { game: resume.game, start_at: resume.start_at, ghosts: resume.ghosts || [] };
    if (resume.view) this.begin(resume);
    this.drawHead();
  }

  /** @param {Message} start `challenge_start`, or a resume with its view */
  begin(start) {
    this.race = {
      game: start.game,
      start_at: start.start_at,
      ghosts: start.ghosts || (this.race && this.race.ghosts) || [],
    };
    if (this.game && this.game.id === start.game) {
      this.game.take(start);
      this.game.draw();
      return;
    }
    if (this.game) this.game.destroy();
    const hints = this.challenge ? this.challenge.hints : true;
    this.game = new GameScreen(this.app, start, {
      hints,
      // a daily deal's, before the day's reset (`opens_at`): reviewed after it
      secret: Boolean(this.challenge && this.challenge.opens_at),
      clockFrom: () => (this.race ? this.race.start_at : start.start_at),
      onOver: () => this.waiting(),
    });
    replace(this.gameBox, this.game.root);
    this.game.draw();
    this.game.focusStart();
    this.tick();
  }

  waiting() {
    if (!this.result)
      replace(this.resultBox, h("p", { class: "muted" }, "Your game is over: the result is on its way."));
  }

  /** @param {Message} message */
  event(message) {
    if (message.type === "challenge_start" && message.challenge === this.id) this.begin(message);
    else if (message.type === "challenge_result" && message.challenge && message.challenge.id === this.id)
      this.onResult(message);
    else if (message.type === "challenge_news" && message.challenge === this.id) {
      // one's own challenge, open: the new result is seen as the table is asked again
      this.app.notice(newsText(message, this.app.game(message.game)?.unit));
      this.app.setUnseen(Math.max(0, message.unseen - 1));
      this.load();
    } else return false;
    return true;
  }

  /** @param {Message} welcome */
  resumed(welcome) {
    const resume = welcome.resume && welcome.resume.challenge;
    if (resume && resume.challenge === this.id) this.carryOn(resume);
    else if (this.race && !this.result) challengeCaughtUp(this); // it ended while away: the table has it
  }

  /** @param {Message} message `challenge_result` */
  onResult(message) {
    this.result = message;
    this.challenge = message.challenge;
    if (this.game && this.game.status === "playing") {
      this.game.status = message.you.status;
      this.game.draw();
    }
    const you = message.you;
    const ghost = message.ghost;
    const unit = message.challenge && message.challenge.unit;
    const links = h(
      "p",
      { class: "replays" },
      you.replay
        ? h("a", { href: `/play#replay=${encodeURIComponent(you.replay)}`, dataset: { replay: "you" } }, "your replay")
        : null,
      you.replay && ghost.replay ? " · " : null,
      ghost.replay
        ? h(
            "a",
            { href: `/play#replay=${encodeURIComponent(ghost.replay)}`, dataset: { replay: "ghost" } },
            `${ghost.player}'s replay`,
          )
        : null,
    );
    setText(this.live, verdictText(message.verdict, ghost.player, unit));
    replace(
      this.resultBox,
      h(
        "h2",
        {
          class: `verdict ${message.verdict.tied ? "tied" : message.verdict.beat ? "beat" : "lost"}`,
          dataset: { beat: String(message.verdict.beat), tied: String(Boolean(message.verdict.tied)) },
        },
        verdictText(message.verdict, ghost.player, unit),
      ),
      h("p", {}, `You: ${resultText(you, unit)}. ${ghost.player}: ${resultText(ghost, unit)}.`),
      links,
      you.replay ? challengeMaker(this.app, you.replay) : null,
    );
    this.drawHead();
    this.drawTable(message.table);
    this.tick();
  }

  tick() {
    const race = this.race;
    if (!race) return;
    const now = this.app.link.serverNow();
    if (!this.game && !this.result) {
      const left = race.start_at - now;
      setText(this.countBox, left > 0 ? String(Math.ceil(left / 1000)) : "Go!"); // (as it changes)
      this.countBox.classList.add("on");
      countdown(this.countBox.textContent); // a tick as each number shows
      return;
    }
    setText(this.countBox, "");
    this.countBox.classList.remove("on");
    countdown("");
    // once the result is in, each ghost as its game ended (as the verdict says), not where
    // its clock had got to when the player's game ended
    const ghosts = race.ghosts.map((g) => ghostAt(g, this.result ? Infinity : now - race.start_at));
    for (const g of ghosts) {
      const was = this.ghostSeen.get(g.name);
      if (was === "playing" && g.status !== "playing" && !this.result)
        this.app.notice(`${g.name}'s ghost: ${statusText(g.status)}`);
      this.ghostSeen.set(g.name, g.status);
    }
    const rows = [...ghosts];
    if (this.game) {
      const v = this.game.view;
      rows.unshift({ name: this.me ?? "", home: v.home, total: v.total, moves: v.moves, status: this.game.status });
    }
    const key = JSON.stringify(rows);
    if (key === this.drawn) return;
    this.drawn = key;
    drawRacers(this.barsBox, rows, this.me, this.challenge?.unit);
  }
}

// The player's challenges, newest first: each one's share line, how many took it, what is
// new on it (opening the list marks them seen), and its link.
export class ChallengesScreen {
  /** @param {App} app */
  constructor(app) {
    this.app = app;
    this.root = h("section", { class: "challenges" });
    this.load();
  }

  async load() {
    /** @type {Message} */
    let reply;
    try {
      reply = await this.app.link.request("challenges");
    } catch (error) {
      replace(this.root, h("h1", {}, "Your challenges"), h("p", { class: "note" }, errorText(error)));
      return;
    }
    this.app.setUnseen(0);
    const rows = reply.challenges.map((/** @type {Challenge} */ c) =>
      h(
        "li",
        { class: `challenge-row${c.new ? " new" : ""}`, dataset: { challenge: c.id } },
        h(
          "div",
          {},
          h("a", { href: c.link }, title(c)),
          c.new ? h("span", { class: "tag new" }, `${c.new} new`) : null,
        ),
        h(
          "p",
          { class: "muted" },
          `${SOURCES[c.source] || c.source}${c.day ? ` of ${c.day}` : ""} · ${resultText(c.result, c.unit)} · ${count(c.takers, "taker")}`,
        ),
      ),
    );
    replace(
      this.root,
      h("h1", {}, "Your challenges"),
      rows.length
        ? h("ul", { class: "challenge-list" }, rows)
        : h("p", { class: "muted" }, "None yet: finish a game, then press Challenge a friend."),
      h("p", {}, h("a", { href: "/play#home" }, "Back to the games")),
    );
  }

  /** @param {Message} message */
  event(message) {
    if (message.type !== "challenge_news") return false;
    this.app.notice(newsText(message, this.app.game(message.game)?.unit));
    this.load();
    return true;
  }
}

/**
 * A `challenge_news` event as a notice.
 * @param {Message} news
 * @param {string} [unit] its game's (pairs off in a game of pairs)
 */
export function newsText(news, unit) {
  const r = news.result;
  return `${r.player} raced your challenge: ${resultText(r, unit)} (${news.tied ? "level with you" : news.beat_you ? "beat you" : "you stay ahead"})`;
}
