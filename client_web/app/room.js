// A race room, as a racer or a watcher: the lobby (the link to share, who is ready,
// ready and start), a large countdown, the race (one's own board, and a live bar per
// racer: cards home and moves), notices (joined, left, finished first), the results
// with each racer's replay (and a challenge of one's own game), and the rematch. Every
// `room` event is the room's whole state.

import { button, clock, count, h, replace } from "./dom.js";
import { GameScreen } from "./game.js";
import { challengeMaker } from "./share.js";
import { countdown } from "./sound.js";

// The racers' panel, a race's and a challenge's: a live bar per racer (cards home, moves,
// how their game ended), one's own row lit, a ghost's marked as one. rows: {name, home,
// total, moves, status, ghost}.
export function drawRacers(box, rows, me) {
  replace(
    box,
    rows.map((p) => {
      const total = p.total || 52;
      const home = p.home || 0;
      const fill = h("div", { class: "fill" });
      fill.style.width = `${Math.round((100 * home) / total)}%`;
      const mine = p.name === me && !p.ghost;
      return h(
        "div",
        {
          class: `bar-row${mine ? " mine" : ""}${p.ghost ? " ghost" : ""}`,
          dataset: { player: p.name, status: p.status || "playing" },
        },
        h(
          "span",
          { class: "who", title: p.ghost ? `${p.name}'s ghost: the recorded game` : p.name },
          p.name,
          p.ghost ? h("span", { class: "tag ghost" }, "ghost") : null,
        ),
        h("div", { class: "track" }, fill),
        h(
          "span",
          { class: "nums" },
          `${home}/${total} · ${count(p.moves || 0, "move")}${p.status && p.status !== "playing" ? ` · ${p.status}` : ""}`,
        ),
      );
    }),
  );
}

// Results ranked as a race's (a challenge's table too): rank, player (a ghost marked;
// the name links to the replay, where one is named, as on the leaderboards), how it
// ended, the time of a win, moves and cards home: narrow enough for a phone.
export function resultsTable(results, me) {
  const rows = results.map((r) =>
    h(
      "tr",
      {
        class: `${r.ghost ? "ghost" : ""}${r.player === me && !r.ghost ? " mine" : ""}`,
        dataset: { player: r.player },
      },
      h("td", { class: "n" }, String(r.rank)),
      h(
        "td",
        {},
        r.replay
          ? h("a", { href: `/play#replay=${encodeURIComponent(r.replay)}`, title: `${r.player}'s replay` }, r.player)
          : r.player,
        r.ghost ? h("span", { class: "tag ghost" }, "ghost") : null,
      ),
      h("td", {}, r.status),
      h("td", { class: "n" }, r.time_ms === null || r.time_ms === undefined ? "" : clock(r.time_ms)),
      h("td", { class: "n" }, String(r.moves)),
      h("td", { class: "n" }, `${r.home}/${r.total}`),
    ),
  );
  const table = h(
    "table",
    {},
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        ["#", "player", "result", "time", "moves", "home"].map((t) => h("th", {}, t)),
      ),
    ),
    h("tbody", {}, rows),
  );
  const replays = results.some((r) => r.replay) ? h("p", { class: "muted" }, "A name opens its replay.") : null;
  return h("div", { class: "table-box" }, table, replays);
}

export class RoomScreen {
  // room: a `room` message; race: a `race_start` (or resume.race) map or null
  constructor(app, room, race = null, watching = false) {
    this.app = app;
    this.watching = watching;
    this.room = null;
    this.progress = new Map();
    this.game = null;
    this.firstDone = false;
    this.root = h("section", { class: "room" });
    this.headBox = h("div", { class: "room-head" });
    this.countBox = h("div", { class: "countdown", "aria-live": "polite" });
    this.barsBox = h("div", { class: "bars" });
    this.gameBox = h("div", { class: "race-game" });
    this.resultsBox = h("div", { class: "results" });
    this.root.append(this.headBox, this.countBox, this.barsBox, this.resultsBox, this.gameBox);
    this.update(room);
    if (race) this.raceStart(race);
    this.ticker = setInterval(() => this.tick(), 100);
  }

  destroy() {
    clearInterval(this.ticker);
    if (this.game) this.game.destroy();
  }

  get me() {
    return this.app.player ? this.app.player.name : null;
  }

  event(message) {
    if (message.code && this.room && message.code !== this.room.code) return false;
    if (message.type === "room") this.update(message);
    else if (message.type === "race_start") this.raceStart(message);
    else if (message.type === "progress") this.onProgress(message);
    else if (message.type === "results") this.onResults(message);
    else return false;
    return true;
  }

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

  update(room) {
    const before = this.room;
    if (before && room.race !== before.race) {
      this.progress.clear();
      this.firstDone = false;
      if (this.game) {
        this.game.destroy();
        this.game = null;
        replace(this.gameBox);
      }
    }
    if (before) {
      const was = new Set(before.players.map((p) => p.name));
      const now = new Set(room.players.map((p) => p.name));
      for (const name of now) if (!was.has(name)) this.app.notice(`${name} joined`);
      for (const name of was) if (!now.has(name)) this.app.notice(`${name} left`);
      const me = this.me;
      const wasReady = new Set(before.players.filter((p) => p.ready).map((p) => p.name));
      if (room.state === "lobby") {
        for (const p of room.players) {
          if (p.ready && !wasReady.has(p.name) && p.name !== me) this.app.notice(`${p.name} is ready`);
        }
      }
      const others = room.players.filter((p) => p.name !== room.host);
      const allReady = (r) => r.state === "lobby" && r.players.filter((p) => p.name !== r.host).every((p) => p.ready);
      if (room.host === me && others.length && allReady(room) && !allReady(before)) {
        this.app.notice("everyone is ready: press Start");
      }
    }
    this.room = room;
    for (const p of room.players) {
      if (p.total !== undefined && !this.progress.has(p.name)) this.progress.set(p.name, p);
    }
    if (room.state === "closed") this.app.notice("the room was closed");
    this.drawHead();
    this.drawBars();
    this.drawResults();
    this.tick();
  }

  isMember() {
    return this.room.players.some((p) => p.name === this.me);
  }

  drawHead() {
    const room = this.room;
    const info = this.app.game(room.game);
    const link = `${location.origin}/r/${room.code}`;
    const share = h("input", { class: "share", readonly: true, value: link, "aria-label": "the room's link" });
    const copy = button("Copy link", async () => {
      try {
        await navigator.clipboard.writeText(link);
        copy.textContent = "Copied";
      } catch {
        share.select();
        copy.textContent = "Press Ctrl+C";
      }
    });
    const players = h(
      "ul",
      { class: "players" },
      room.players.map((p) =>
        h(
          "li",
          { dataset: { player: p.name } },
          p.name,
          p.host ? h("span", { class: "tag" }, "host") : null,
          room.state === "lobby" && !p.host
            ? h("span", { class: p.ready ? "tag ready" : "tag" }, p.ready ? "ready" : "not ready")
            : null,
          p.present ? null : h("span", { class: "tag away" }, "away"),
        ),
      ),
    );
    const actions = h("div", { class: "controls" });
    const member = this.isMember();
    const host = room.host === this.me && member;
    if (room.state === "lobby" && member && !host) {
      const mine = room.players.find((p) => p.name === this.me);
      actions.append(
        button(mine.ready ? "Not ready" : "Ready", () => this.ask("ready", { ready: !mine.ready }), {
          "data-act": "ready",
        }),
      );
    }
    if (room.state === "lobby" && host)
      actions.append(button("Start the race", () => this.ask("start"), { "data-act": "start" }));
    if (room.state === "finished" && host)
      actions.append(button("Rematch", () => this.ask("rematch"), { "data-act": "rematch" }));
    if (member || this.watching)
      actions.append(button(member ? "Leave the room" : "Stop watching", () => this.leave(), { "data-act": "leave" }));
    this.noteBox = h("p", { class: "note", role: "status" });
    const title = `Race ${room.code}: ${info ? info.name : room.game}`;
    const facts = `${room.state}${room.race ? ` · race ${room.race}` : ""} · ${room.players.length}/${room.max_players} racers · ${room.watchers} watching${room.hints ? " · hints allowed" : ""}${room.time_limit ? ` · ${clock(room.time_limit * 1000)} limit` : ""}${this.watching && !member ? " · you are watching" : ""}`;
    // while the race runs the heading is one line: the board and the racers' bars need the room
    this.headBox.classList.toggle("compact", room.state === "racing");
    if (room.state === "racing") {
      // the game's name is in the game's own heading, below
      replace(
        this.headBox,
        h("h1", { title }, `Race ${room.code}`),
        h("span", { class: "muted facts", title: facts }, facts),
        ...actions.children,
        this.noteBox,
      );
      return;
    }
    replace(
      this.headBox,
      h("h1", {}, title),
      h("p", { class: "muted" }, facts),
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

  async ask(kind, fields = {}) {
    try {
      const room = await this.app.link.request(kind, fields);
      this.update(room);
    } catch (error) {
      if (this.noteBox) this.noteBox.textContent = error.message;
    }
  }

  async leave() {
    try {
      await this.app.link.request("room_leave");
    } catch {
      /* gone all the same */
    }
    this.app.go("/play#home");
  }

  raceStart(race) {
    if (this.game && this.game.id === race.game) {
      this.game.take(race);
      this.game.draw();
      return;
    }
    if (this.game) this.game.destroy();
    this.game = new GameScreen(this.app, race, {
      hints: Boolean(this.room && this.room.hints),
      clockFrom: () => this.room && this.room.start_at,
      clockTo: () => this.room && this.room.end_at,
    });
    replace(this.gameBox, this.game.root);
    this.game.draw();
  }

  onProgress(message) {
    const was = this.progress.get(message.player);
    this.progress.set(message.player, message);
    if (message.status === "won" && !this.firstDone && (!was || was.status !== "won")) {
      this.firstDone = true;
      this.app.notice(`${message.player} finished first`);
    } else if (message.status !== "playing" && (!was || was.status !== message.status)) {
      this.app.notice(`${message.player}: ${message.status}`);
    }
    this.drawBars();
  }

  onResults(message) {
    this.room = { ...this.room, results: message.results, state: "finished" };
    if (this.game && this.game.status === "playing") {
      const mine = message.results.find((r) => r.player === this.me);
      if (mine) {
        this.game.status = mine.status;
        this.game.draw();
      }
    }
    this.drawResults();
    this.drawHead();
  }

  drawBars() {
    const room = this.room;
    if (room.state !== "racing" && room.state !== "finished") {
      replace(this.barsBox);
      return;
    }
    const names = room.players.map((p) => p.name);
    for (const name of this.progress.keys()) if (!names.includes(name)) names.push(name);
    drawRacers(
      this.barsBox,
      names.map((name) => ({ name, ...(this.progress.get(name) || room.players.find((q) => q.name === name) || {}) })),
      this.me,
    );
  }

  drawResults() {
    const results = this.room.results;
    if (!results) {
      replace(this.resultsBox);
      return;
    }
    const mine = results.find((r) => r.player === this.me && r.replay);
    if (mine && (!this.maker || this.maker.replay !== mine.replay))
      this.maker = { replay: mine.replay, node: challengeMaker(this.app, mine.replay) };
    replace(this.resultsBox, h("h2", {}, "Results"), resultsTable(results, this.me), mine ? this.maker.node : null);
  }

  tick() {
    const room = this.room;
    if (room.state === "countdown" && room.start_at) {
      const left = room.start_at - this.app.link.serverNow();
      this.countBox.textContent = left > 0 ? String(Math.ceil(left / 1000)) : "Go!";
      this.countBox.classList.add("on");
    } else {
      this.countBox.textContent = "";
      this.countBox.classList.remove("on");
    }
    countdown(this.countBox.textContent); // a tick as each number shows
  }
}
