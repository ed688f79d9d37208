// @ts-check
// A race room, as a racer or a watcher: the lobby (the link to share, who is ready,
// ready and start), a large countdown, the race (one's own board, and a live bar per
// racer: cards home and moves), notices (joined, left, finished first), the results
// with each racer's replay (and a challenge of one's own game), and the rematch. Every
// `room` event is the room's whole state.

import { button, clock, h, replace, statusText } from "./dom.js";
import { GameScreen } from "./game.js";
import { challengeMaker, copyButton } from "./share.js";
import { countdown } from "./sound.js";
import { errorText } from "./link.js";
import { raceOverText, renamedIn } from "./ranking.js";
import { focusLost, focusOn, keepFocus, liveRegion, setText } from "./focus.js";
import { drawRacers, resultsTable } from "./racers.js";
import { dropNotices, placeNotices } from "./notices.js";
import { leftRace, mayLeave } from "./elsewhere.js";

// (where challenge.js, daily.js and quick.js have always found them)
export { drawRacers, ratingChange, resultsTable } from "./racers.js";

/** @typedef {import("./types.js").App} App */
/** @typedef {import("./types.js").Message} Message */

/**
 * A member of a room as its `room` message lists them (docs/protocol.md): while the
 * room races and once it has finished, with their game's counts and status too.
 * @typedef {object} RoomPlayer
 * @property {string} name
 * @property {boolean} ready
 * @property {boolean} present connected now
 * @property {boolean} host
 * @property {number} [rating] their shown rating at the room's game (docs/ratings.md)
 * @property {number} [home]
 * @property {number} [total]
 * @property {number} [moves]
 * @property {string} [status]
 */

/**
 * A room's members, from its `room` message.
 * @param {Message} room
 * @returns {RoomPlayer[]}
 */
function playersOf(room) {
  return room.players;
}

/**
 * The racers of a race on who have left its room (their game resigned), from its `room`
 * message: out of `players`, still in the race.
 * @param {Message} room
 * @returns {RoomPlayer[]}
 */
function leftOf(room) {
  return Array.isArray(room.left) ? room.left : [];
}

export class RoomScreen {
  /**
   * @param {App} app
   * @param {Message} room a `room` message
   * @param {Message | null} [race] a `race_start` (or resume.race) map
   * @param {boolean} [watching] as a watcher, not a racer
   */
  constructor(app, room, race = null, watching = false) {
    this.app = app;
    this.watching = watching;
    /** @type {Message} the room's state as last heard (a `room` event or reply) */
    this.room = room;
    /** @type {Map<string, Message>} each racer's last `progress` (or room entry), by name */
    this.progress = new Map();
    /** @type {GameScreen | null} the player's own game in the race */
    this.game = null;
    /** @type {HTMLElement | null} the heading's note (a refused request's error) */
    this.noteBox = null;
    /** @type {{ replay: string, node: HTMLElement } | null} the challenge of one's own game */
    this.maker = null;
    this.firstDone = false;
    /** a rematch's countdown, its first number not yet shown (said with what it counts to) */
    this.rematch = false;
    /** the countdown's first number has been shown (said with what it counts to) */
    this.counted = false;
    this.root = h("section", { class: "room" });
    this.headBox = h("div", { class: "room-head" });
    this.countBox = h("div", { class: "countdown", "aria-live": "polite" });
    /** a watcher's race clock (a racer's is in their game's heading): tick() sets it */
    this.clockBox = h("strong", { class: "race-clock" });
    this.barsBox = h("div", { class: "bars" });
    this.gameBox = h("div", { class: "race-game" });
    this.resultsBox = h("div", { class: "results" });
    // what a screen reader is told of the race (its result), kept in the page
    this.live = liveRegion();
    this.root.append(this.live, this.headBox, this.countBox, this.barsBox, this.resultsBox, this.gameBox);
    this.update(room, null);
    if (race) this.raceStart(race);
    this.ticker = setInterval(() => this.tick(), 100);
  }

  destroy() {
    clearInterval(this.ticker);
    if (this.game) this.game.destroy();
  }

  // the race the player is in, while their game in it is played: the home screen, where
  // the logo leads mid-race, leads back to it (nothing did)
  keepRacing() {
    const room = this.room;
    const on = !this.watching && room && room.state === "racing" && this.game && this.game.status === "playing";
    if (on) this.app.racing = { code: room.code, game: room.game };
    else if (room) {
      leftRace(this.app, room.code);
      // (a member here is out of any other room: its race, if one, resigned as they came)
      if (!this.watching && this.isMember()) leftRace(this.app, room.code, false);
    }
  }

  get me() {
    return this.app.player ? this.app.player.name : null;
  }

  /** @param {Message} message */
  event(message) {
    if (message.code && this.room && message.code !== this.room.code) return false;
    if (message.type === "room") this.update(message);
    else if (message.type === "race_start") this.raceStart(message);
    else if (message.type === "progress") this.onProgress(message);
    else if (message.type === "results") this.onResults(message);
    else return false;
    return true;
  }

  /** @param {Message} welcome */
  resumed(welcome) {
    const resume = welcome.resume || {};
    if (resume.room && this.room && resume.room.code === this.room.code) {
      this.update(resume.room);
      if (resume.race) this.raceStart(resume.race);
    } else if (this.watching && this.room) {
      this.app.link.request("room_watch", { code: this.room.code }).then(
        (room) => this.update(room),
        () => {},
      );
    }
  }

  /**
   * The room's new state drawn, with notices of what changed since `before` (none where
   * there is nothing before it: the room first shown).
   * @param {Message} room
   * @param {Message | null} [before]
   */
  update(room, before = this.room) {
    if (before && room.race !== before.race) {
      // a new race: the last one's result no longer said (it stood through the next), and
      // a rematch said as one before its countdown's first number (a guest heard "5")
      setText(this.live, "");
      this.rematch = Boolean(before.race) && room.state === "countdown";
      this.progress.clear();
      this.firstDone = false;
      if (this.game) {
        this.game.destroy();
        this.game = null;
        replace(this.gameBox);
      }
    }
    if (before) {
      const me = this.me;
      // (what the lobby says goes at the race's Go!: it had stood over the racing board)
      const tag = room.state === "lobby" || room.state === "countdown" ? "lobby" : undefined;
      const names = (/** @type {Message} */ r) => playersOf(r).map((p) => p.name);
      const was = new Set(names(before));
      const now = new Set(names(room));
      // a new name is no one leaving and another joining (one's own: the bar says it)
      const renamed = renamedIn(names(before), names(room));
      if (renamed) {
        was.delete(renamed[0]);
        now.delete(renamed[1]);
        if (!renamed.includes(me ?? "")) this.app.notice(`${renamed[0]} is ${renamed[1]} now`, tag);
      }
      for (const name of now) if (!was.has(name)) this.app.notice(`${name} joined`, tag);
      for (const name of was) if (!now.has(name)) this.app.notice(`${name} left`, tag);
      const wasReady = new Set(
        playersOf(before)
          .filter((p) => p.ready)
          .map((p) => p.name),
      );
      if (renamed && wasReady.has(renamed[0])) wasReady.add(renamed[1]); // (ready already)
      if (room.state === "lobby") {
        for (const p of room.players) {
          if (p.ready && !wasReady.has(p.name) && p.name !== me) this.app.notice(`${p.name} is ready`, tag);
        }
      }
      const others = playersOf(room).filter((p) => p.name !== room.host);
      const allReady = (/** @type {Message} */ r) =>
        r.state === "lobby" &&
        playersOf(r)
          .filter((p) => p.name !== r.host)
          .every((p) => p.ready);
      if (room.host === me && others.length && allReady(room) && !allReady(before)) {
        this.app.notice("everyone is ready: start the race", tag);
      }
    }
    this.room = room;
    // each racer's standing as the room has it now replaces what was heard before it (a
    // `progress` after it updates it again): kept where a racer had one, the bars stood
    // as they were before the link was cut, however the race had gone on meanwhile
    for (const p of [...room.players, ...leftOf(room)]) if (p.total !== undefined) this.progress.set(p.name, p);
    if (room.state === "closed") this.app.notice("the room was closed");
    this.keptHead();
    // (Start or Ready pressed, gone with the lobby: the heading keeps the focus through
    // the countdown, and Go! hands it to the board)
    if (room.state === "countdown" && focusLost()) focusOn(this.headBox.querySelector("h1"));
    this.drawBars();
    this.drawResults();
    this.tick();
  }

  isMember() {
    return playersOf(this.room).some((p) => p.name === this.me);
  }

  drawHead() {
    const room = this.room;
    const info = this.app.game(room.game);
    const link = `${location.origin}/r/${room.code}`;
    const share = h("input", { class: "share", readonly: true, value: link, "aria-label": "the room's link" });
    const copy = copyButton(link, share, "Copy link", { "data-act": "copy-link" }, "Link");
    const players = h(
      "ul",
      { class: "players" },
      playersOf(room).map((p) =>
        h(
          "li",
          { dataset: { player: p.name } },
          h("span", { class: "name" }, p.name),
          // (a comma, unseen, before each tag: a screen reader read the name and the tags
          // as one word, "annhost"; a space between flex items is no text to it)
          [
            p.host && !room.quick ? h("span", { class: "tag" }, "host") : null, // (nobody hosts a quick race)
            room.state === "lobby" && !p.host
              ? h("span", { class: p.ready ? "tag ready" : "tag" }, p.ready ? "ready" : "not ready")
              : null,
            p.present ? null : h("span", { class: "tag away" }, "away"),
            typeof p.rating === "number"
              ? h("span", { class: "tag rating", title: `${p.name}'s rating at this game` }, `rating ${p.rating}`)
              : null,
          ]
            .filter(Boolean)
            .flatMap((tag) => [h("span", { class: "spoken" }, ", "), tag]),
        ),
      ),
    );
    const actions = h("div", { class: "controls" });
    const member = this.isMember();
    const host = room.host === this.me && member;
    const mine = playersOf(room).find((p) => p.name === this.me); // found where a member
    if (room.state === "lobby" && mine && !host) {
      actions.append(
        button(mine.ready ? "Not ready" : "Ready", () => this.ask("ready", { ready: !mine.ready }), {
          "data-act": "ready",
        }),
      );
    }
    if (room.state === "lobby" && host)
      actions.append(button("Start the race", () => this.ask("start"), { "data-act": "start" }));
    if (room.state === "finished" && host && !room.quick)
      actions.append(button("Rematch", () => this.ask("rematch"), { "data-act": "rematch" }));
    // a race over takes racers for its rematch: who is in the room races it when the host
    // calls it, and a watcher may join for it
    if (room.state === "finished" && member && !host && !room.quick)
      actions.append(
        h("span", { class: "muted", "data-rematch": "host" }, `${room.host}, the host, may call a rematch.`),
      );
    const roomForOne = playersOf(room).length < room.max_players;
    if (room.state === "finished" && !member && this.watching && this.app.player && !room.quick && roomForOne)
      actions.append(
        // (joining leaves the player's room: a race of theirs on there asks first)
        button("Join the rematch", () => this.joinRematch(room.code), { "data-act": "join" }),
      );
    if (room.state === "finished" && member && room.quick)
      actions.append(
        button("Another quick race", () => this.app.go(`/play#quick=${room.game}`), { "data-act": "quick" }),
      );
    // while the race runs a racer's heading is one line: the board and the racers' bars
    // need the room (a watcher has no board: theirs names the game in full)
    const compact = room.state === "racing" && member;
    // (on a phone the compact line's button says "Leave": "Leave the room" took the room
    // the race's number and its watchers needed, app.css; its class is no card's count's,
    // `.more`, whose style had drawn " the room" as a badge in the window's corner)
    const leaveText = compact ? ["Leave", h("span", { class: "leave-more" }, " the room")] : "Leave the room";
    if (member || this.watching)
      actions.append(
        button(member ? leaveText : "Stop watching", () => this.leave(), {
          "data-act": "leave",
          "aria-label": member ? "Leave the room" : null,
        }),
      );
    this.noteBox = h("p", { class: "note", role: "status" });
    const title = `Race ${room.code}: ${info ? info.name : room.game}`;
    const racers = `${playersOf(room).length}/${room.max_players} racers`;
    const rules = `${room.hints ? " · hints allowed" : ""}${room.time_limit ? ` · ${clock(room.time_limit * 1000)} limit` : ""}${room.rated === false ? " · not rated (a deal chosen by its seed)" : ""}`;
    const facts = `${room.state}${room.race ? ` · race ${room.race}` : ""} · ${racers} · ${room.watchers} watching${rules}${this.watching && !member ? " · you are watching" : ""}`;
    this.headBox.classList.toggle("compact", compact);
    if (compact) {
      // the game's name is in the game's own heading, below; the line leads with what
      // the board and the bars do not say, which race and who watches ("racing" goes
      // without saying): where it is cut, on a phone, it is cut after them (it read
      // "racing · r…"), the whole in its title
      const brief = `race ${room.race} · ${room.watchers} watching · ${racers}${rules}`;
      replace(
        this.headBox,
        h("h1", { title }, `Race ${room.code}`),
        h("span", { class: "muted facts", title: facts }, brief),
        ...actions.children,
        this.noteBox,
      );
      return;
    }
    replace(
      this.headBox,
      h("h1", {}, title),
      h("p", { class: "muted" }, facts),
      room.state === "racing" && !member ? h("p", {}, "Race clock: ", this.clockBox) : null,
      room.state === "lobby" ? h("div", { class: "share-row" }, share, copy) : null,
      room.state === "lobby"
        ? h(
            "p",
            { class: "muted" },
            host
              ? "Send the link to friends; start when they are ready."
              : member
                ? "Press Ready, then the host starts."
                : "Waiting for the host to start.",
          )
        : null,
      players,
      actions,
      this.noteBox,
    );
  }

  /**
   * @param {string} kind the request (ready, start, rematch)
   * @param {Message} [fields]
   */
  async ask(kind, fields = {}) {
    // one at a time: a double click on Start once asked twice, and the second's refusal
    // ("the race has started") stood over the countdown
    if (this.asking) return;
    this.asking = true;
    try {
      const room = await this.app.link.request(kind, fields);
      this.update(room);
    } catch (error) {
      if (this.noteBox) this.noteBox.textContent = errorText(error);
    } finally {
      this.asking = false;
    }
  }

  /** @param {string} code the room watched, joined for its rematch */
  async joinRematch(code) {
    if (await mayLeave(this.app, `Join the rematch in room ${code}`)) this.ask("room_join", { code });
  }

  async leave() {
    // leaving a race one is playing resigns it: asked first, as Resign is
    const playing = this.room && this.room.state === "racing" && this.game && this.game.status === "playing";
    if (playing && !confirm("Leave the room? Your game in this race is resigned.")) return;
    try {
      await this.app.link.request("room_leave");
    } catch {
      /* gone all the same */
    }
    leftRace(this.app, this.room.code); // (its game resigned: no race of theirs on now)
    this.app.go("/play#home");
  }

  /** @param {Message} race a `race_start`, or the map shaped like it in a resume */
  raceStart(race) {
    if (this.game && this.game.id === race.game) {
      this.game.take(race);
      this.game.draw();
      return;
    }
    if (this.game) this.game.destroy();
    dropNotices("lobby"); // (Go!: the lobby's notices had stood over the board)
    this.game = new GameScreen(this.app, race, {
      hints: Boolean(this.room && this.room.hints),
      clockFrom: () => this.room && this.room.start_at,
      clockTo: () => this.room && this.room.end_at,
      // (out of a race still on: Review once it ends, when onResults draws the game again)
      racing: () => Boolean(this.room && this.room.state === "racing"),
      // (at once: the logo pressed before the next tick led back to a race one was out of)
      onOver: () => this.keepRacing(),
    });
    replace(this.gameBox, this.game.root);
    this.game.draw();
    // the race's start said ("Go!": the countdown had gone silent after its 1), not where
    // a race long under way is taken up again (a reload)
    const now = this.app.link.serverNow();
    if (this.room && this.room.start_at && now - this.room.start_at < 5000) setText(this.live, "Go!");
    // (the heading, which held the focus through the countdown, gives it to the board)
    const held = document.activeElement;
    if (held instanceof HTMLElement && held.matches(".room-head h1")) held.blur();
    this.game.focusStart();
    this.keepRacing(); // (at once: the logo pressed before the next tick led nowhere)
  }

  /** @param {Message} message a `progress` event */
  onProgress(message) {
    const was = this.progress.get(message.player);
    this.progress.set(message.player, message);
    // (one's own, in the second person, and no notice of one's own end: the game says it)
    const mine = message.player === this.me;
    if (message.status === "won" && !this.firstDone && (!was || was.status !== "won")) {
      this.firstDone = true;
      this.app.notice(mine ? "You finished first" : `${message.player} finished first`);
    } else if (!mine && message.status !== "playing" && (!was || was.status !== message.status)) {
      // (the server resigned one away too long: not given up)
      const away = message.forfeited ? " (away too long)" : "";
      this.app.notice(`${message.player}: ${statusText(message.status)}${away}`);
    }
    this.drawBars();
  }

  /** @param {Message} message a `results` event */
  onResults(message) {
    this.room = { ...this.room, results: message.results, state: "finished" };
    if (this.game && this.game.status === "playing") {
      const mine = message.results.find((/** @type {Message} */ r) => r.player === this.me);
      if (mine) this.game.status = mine.status;
    }
    if (this.game) this.game.draw(); // (a game over before the race: its Review now)
    // each racer's bar ends as their result does (drawBars: a game the time ran out on
    // had no `progress` to say so, and its bar said nothing until the page was loaded again)
    this.drawBars();
    this.drawResults();
    this.keptHead();
  }

  // the heading drawn again, the focus kept on its button (the host's Start, one's Ready)
  // through the redraw each room event makes, or on the heading where the heading had it
  // (the lobby shown: a racer's joining had dropped it to <body>)
  keptHead() {
    keepFocus(
      this.headBox,
      () => this.drawHead(),
      () => {
        const heading = this.headBox.querySelector("h1");
        if (heading instanceof HTMLElement && !heading.hasAttribute("tabindex")) heading.tabIndex = -1;
        return heading;
      },
    );
  }

  drawBars() {
    const room = this.room;
    if (room.state !== "racing" && room.state !== "finished") {
      replace(this.barsBox);
      return;
    }
    /** @type {Message[]} */
    const results = room.state === "finished" && Array.isArray(room.results) ? room.results : [];
    if (results.length) {
      // a race over: a bar for each of its racers, ended as their result is, however the
      // page came to it (a room read afresh after the server came back had no `results`
      // event to end them by; one who joined for the rematch had a bar of a race they
      // were not in)
      drawRacers(
        this.barsBox,
        results.map((r) => ({ ...(this.progress.get(r.player) || {}), ...r, name: r.player })),
        this.me,
        this.unit(),
      );
      return;
    }
    // the race's racers: the room's, then those who left it on (a watcher who came after
    // had no bar for them), said to have left
    const gone = new Set(leftOf(room).map((p) => p.name));
    const names = [...playersOf(room), ...leftOf(room)].map((p) => p.name);
    // (a server without `left`: whoever was heard of in the race stays)
    if (!Array.isArray(room.left)) for (const name of this.progress.keys()) if (!names.includes(name)) names.push(name);
    drawRacers(
      this.barsBox,
      names.map((name) => ({
        name,
        ...(this.progress.get(name) || playersOf(room).find((q) => q.name === name) || {}),
        left: gone.has(name),
      })),
      this.me,
      this.unit(),
    );
  }

  // the room's game's `unit`: pairs off in Nestor and Doubles and Quits, else cards home
  unit() {
    return this.app.game(this.room.game)?.unit;
  }

  drawResults() {
    /** @type {Message[] | undefined} */
    const results = this.room.results;
    if (!results) {
      replace(this.resultsBox);
      return;
    }
    setText(this.live, raceOverText(results, this.me));
    const mine = results.find((r) => r.player === this.me && r.replay);
    if (mine && (!this.maker || this.maker.replay !== mine.replay))
      this.maker = { replay: mine.replay, node: challengeMaker(this.app, mine.replay) };
    const maker = mine && this.maker ? this.maker.node : null;
    replace(
      this.resultsBox,
      h("h2", { class: "race-over" }, raceOverText(results, this.me)),
      resultsTable(results, this.me, this.unit()),
      maker,
    );
    placeNotices(); // (clear of the table drawn under them: it covered its headers)
  }

  tick() {
    const room = this.room;
    this.keepRacing();
    if (room.state === "racing" && room.start_at && !this.isMember()) {
      // as a racer's: the time gone, and the time left rounded up (game.js)
      const now = this.app.link.serverNow();
      const left = room.end_at ? ` (${clock(Math.ceil((room.end_at - now) / 1000) * 1000)} left)` : "";
      setText(this.clockBox, `${clock(now - room.start_at)}${left}`);
    }
    if (room.state === "countdown" && room.start_at) {
      const left = room.start_at - this.app.link.serverNow();
      // (written as it changes: a live region rewritten ten times a second is read over)
      const shown = left > 0 ? String(Math.ceil(left / 1000)) : "Go!";
      // its first number with what it counts to (the words unseen: the number alone is
      // drawn, large; the first race's had been a bare "5"), and the number alone once it
      // changes
      const words = this.rematch ? "Rematch: the next race starts in " : "The race starts in ";
      if (!this.counted && left > 0) this.countBox.replaceChildren(h("span", { class: "spoken" }, words), shown);
      else if (!this.countBox.firstElementChild || this.countBox.lastChild?.textContent !== shown)
        setText(this.countBox, shown);
      this.rematch = false;
      this.counted = true;
      this.countBox.classList.add("on");
    } else {
      this.counted = false;
      setText(this.countBox, "");
      this.countBox.classList.remove("on");
    }
    countdown(this.countBox.textContent); // a tick as each number shows
  }
}
