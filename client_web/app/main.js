// @ts-check
// The browser client of Patience Race: a full client of the race server on its own
// port, with no rules of its own. Screens: the name form (first visit: the token is kept
// in this browser's localStorage, never in an address), the games (solo play, the
// daily and its practice against the board, a race, the rules), a race room (/r/CODE), a challenge (/c/ID) and the
// player's challenges, the leaderboards and replays.
//
// The first screen (the name form or the games: front.js, with recovery.js and rename.js)
// needs this module, dom.js, notices.js and link.js (with msgpack) besides; every other screen's module
// is loaded (`import()`) the first time one of its screens is asked for, see `withModule`.

import { button, count, h, messageScreen as message, newTabLink, replace } from "./dom.js";
import { focusGoesWith, focusStart, homeScreen, nameForm, signedOutScreen } from "./front.js";
import { Link, ServerError, errorText, storedToken } from "./link.js";
// up front all the same: the header's mute button is on every screen, and the first
// gesture (the one a browser lets a page start its audio on) may be on the first screen
import "./sound.js";
import { followInPage } from "./links.js";
import { challengeId, groupLink, hashField, roomCode } from "./address.js";
import { PlayerScreen } from "./ratings.js";
import { titleFrom } from "./title.js";
import { pageRegion, say } from "./focus.js";
import { linkNotice, notice } from "./notices.js";
import { allowedOnce, askResume, elsewhereScreen, heardOf, learnRace, racingNow, toRaceOnSignIn } from "./elsewhere.js";

/** @typedef {import("./types.js").App} App */
/** @typedef {import("./types.js").Message} Message */
/** @typedef {import("./types.js").Screen} Screen */

/**
 * The application as this module holds it: the screen shown, whether the first welcome
 * has been routed, whether the welcome's `resume` has been taken up, the address routed.
 * @typedef {App & { screen: Screen | null, started: boolean, resumedOnce?: boolean, routed?: string, dealing?: string | null }} Main
 */

// the modules the first screen does not need, by name; `loaded` holds those loaded so far
/**
 * @typedef {object} Modules
 * @property {typeof import("./challenge.js")} challenge
 * @property {typeof import("./daily.js")} daily
 * @property {typeof import("./devices.js")} devices
 * @property {typeof import("./extras.js")} extras
 * @property {typeof import("./game.js")} game
 * @property {typeof import("./groups.js")} groups
 * @property {typeof import("./league.js")} league
 * @property {typeof import("./quick.js")} quick
 * @property {typeof import("./ranking.js")} ranking
 * @property {typeof import("./room.js")} room
 */
/** @type {{ [N in keyof Modules]: () => Promise<Modules[N]> }} */
const MODULES = {
  challenge: () => import("./challenge.js"), // a challenge (/c/ID), the player's challenges
  daily: () => import("./daily.js"),
  devices: () => import("./devices.js"), // link codes and the player's devices
  extras: () => import("./extras.js"), // the leaderboards and the replays
  game: () => import("./game.js"), // a solo game (with the board, motion and the ending)
  groups: () => import("./groups.js"), // the player's groups, a group (#group=ID), its link (/g/ID)
  league: () => import("./league.js"), // this week's league: the standings (#league[=WEEK])
  quick: () => import("./quick.js"), // the quick race's queue, and its ghosts
  ranking: () => import("./ranking.js"),
  room: () => import("./room.js"), // a race room (/r/CODE)
};
/** @type {Partial<Modules>} */
const loaded = {};

// bumped by each screen shown (app.show) or asked for (withModule): a screen whose module
// comes after another screen was shown or asked for is not shown
let asked = 0;
// while a screen's module is loading, the server's events wait here, in order, for the
// screen it is loaded for: they reach it as they would have had it been shown at once
let loading = 0;
/** @type {Message[]} */
const held = [];
/** @type {Message | null} the `signed_out` that stopped this tab, if one did */
let stopped = null;

/**
 * An element of the page's own (index.html), which is there.
 * @param {string} id
 * @returns {HTMLElement}
 */
function pageElement(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error(`the page has no #${id}`);
  return node;
}

const main = pageElement("main");
titleFrom(main); // (the tab's title names the screen shown)
pageRegion(); // (what a screen says as it is shown: focus.js)
const who = pageElement("who");
const linkState = pageElement("link-state");
const challengesLink = pageElement("challenges-link");
const unseenBadge = pageElement("challenges-new");

/** @type {Main} */
const app = {
  link: new Link({ onEvent, onState, onWelcome }),
  games: [],
  player: null,
  screen: null,
  started: false,
  welcome: null,
  racing: null, // (a race of the player's under way: the home screen leads back to it)

  game(id) {
    return this.games.find((g) => g.id === id);
  },

  // (above a game's foot and clear of a results table; a lobby's gone at Go!: notices.js)
  notice(text, tag) {
    notice(text, tag);
  },

  show(screen) {
    asked += 1;
    const had = focusGoesWith(main); // (front.js)
    if (this.screen && this.screen.destroy) this.screen.destroy();
    this.screen = screen;
    replace(main, screen.root);
    if (screen.draw) screen.draw();
    if (had) focusStart(main, screen); // (front.js)
    // the first screen a player can use: what "time to interactive" is measured to
    if (performance.getEntriesByName("interactive").length === 0) performance.mark("interactive");
  },

  go(address) {
    history.pushState(null, "", address);
    route();
  },

  // a new deal, asked for: its address, routed once, deals it (routed again, by a reload
  // or Back, the address takes up the game in play instead: soloGame)
  deal(rules) {
    this.dealing = rules;
    this.go(`/play#solo=${encodeURIComponent(rules)}`);
  },

  // the results on the player's challenges not seen yet, as the header's badge
  setUnseen(n) {
    unseenBadge.textContent = n > 0 ? String(n) : "";
    unseenBadge.hidden = !(n > 0);
    challengesLink.setAttribute("aria-label", n > 0 ? `your challenges: ${n} new` : "your challenges");
  },

  // a challenge taken (its `challenge_taken` reply): raced at its link
  raceChallenge(taken) {
    history.pushState(null, "", taken.challenge.link);
    return withModule("challenge", ({ ChallengeScreen }) =>
      this.show(new ChallengeScreen(this, taken.challenge.id, taken)),
    );
  },
};

// what the front door (front.js: the name form, the home screen) needs of this module's
/** @type {import("./front.js").Door} */
const door = {
  app,
  who,
  challengesLink,
  route,
  createRoom,
  devices: () => loaded.devices,
  loadDevices: () => MODULES.devices().then((m) => (loaded.devices = m)),
  unloadable,
  groupsArea,
};

// the home screen's "Your groups" (groups.js's, filled once loaded; no screen waits on it)
function groupsArea() {
  const slot = h("div", { class: "groups-slot" });
  MODULES.groups().then(
    (m) => {
      loaded.groups = m;
      slot.replaceChildren(m.groupsArea(app));
    },
    (error) => slot.replaceChildren(h("p", { class: "note" }, unloadable(error))),
  );
  return slot;
}

/** @param {unknown} error */
function unloadable(error) {
  return `This screen could not be loaded (${errorText(error)}): check the connection, then reload the page.`;
}

/**
 * Call `then(module)` with the module `name` loaded: at once if it is, else once it is
 * loaded, unless another screen was shown or asked for meanwhile; the server's events
 * held until then. A module that cannot be loaded says so in place of the screen.
 * @template {keyof Modules} N
 * @template R
 * @param {N} name
 * @param {(module: Modules[N]) => R} then
 * @returns {Promise<R | undefined>}
 */
async function withModule(name, then) {
  const turn = ++asked;
  const ready = loaded[name];
  if (ready) return then(ready);
  loading += 1;
  /** @type {Modules[N] | null} */
  let module = null;
  try {
    module = loaded[name] = await MODULES[name]();
  } catch (error) {
    if (turn === asked) app.show(message(unloadable(error)));
  }
  loading -= 1;
  try {
    return module && turn === asked ? then(module) : undefined;
  } finally {
    if (!loading) for (const event of held.splice(0)) onEvent(event);
  }
}

// a notice worded by a module not needed up front (loaded, if it is not, for the notice)
/**
 * @template {keyof Modules} N
 * @param {N} name
 * @param {(module: Modules[N]) => string} text
 */
function noticeFrom(name, text) {
  const module = loaded[name];
  if (module) return app.notice(text(module));
  MODULES[name]().then(
    (m) => app.notice(text((loaded[name] = m))),
    (error) => app.notice(unloadable(error)),
  );
}

/**
 * Whether the player races in the room a `room` message is of (a watcher, or one who has
 * just begun watching, does not: its state comes before the screen that takes it).
 * @param {Message} room
 */
function racesIn(room) {
  const me = app.player ? app.player.name : null;
  return Array.isArray(room.players) && room.players.some((/** @type {Message} */ p) => p.name === me);
}

/** @param {Message} message */
function onEvent(message) {
  if (loading) return void held.push(message);
  heardOf(app, message); // (app.racing: the race over, the player out of it)
  if (app.screen && app.screen.event && app.screen.event(message)) return;
  if (message.type === "stuck") app.notice(message.reason);
  else if (message.type === "signed_out") {
    stopped = message; // (wherever the tab goes next: route())
    app.show(signedOutScreen(message));
  } else if (
    message.type === "race_start" ||
    (message.type === "room" && message.state === "countdown" && racesIn(message))
  ) {
    app.notice("your race is starting");
    resumeRoom();
  } else if (message.type === "daily_result") app.notice(message.review ? message.review.note : message.line);
  else if (message.type === "link_used" || message.type === "link_revoked") {
    app.notice(linkNotice(message));
    if (loaded.devices) loaded.devices.linkNews(message); // (its box, if shown)
  } else if (message.type === "ghosts_result") {
    noticeFrom(
      "ranking",
      ({ beatenText }) =>
        `practice: ${beatenText(message.beaten, message.table.filter((/** @type {Message} */ e) => e.ghost).length)}`,
    );
  } else if (message.type === "challenge_news") {
    noticeFrom("challenge", ({ newsText }) => newsText(message, app.game(message.game)?.unit));
    app.setUnseen(message.unseen);
  } else if (message.type === "challenges_seen") {
    app.setUnseen(message.unseen); // (looked at on another device: the badge follows)
  } else if (message.type === "renamed" && message.player) {
    // the name changed from another device (a terminal's `name`): shown wherever it is
    app.player = message.player;
    who.textContent = who.title = message.player.name;
    app.notice(`You race as ${message.player.name} now (was ${message.was}): changed on another device.`);
  } else if (message.type === "challenge_start") {
    app.welcome = { ...app.welcome, resume: { challenge: message } };
    app.resumedOnce = true;
    app.go(`/c/${message.challenge}`);
  }
}

// the link's listeners (app.link's): its state in the header, and each welcome
/**
 * @param {string} state
 * @param {string} [text]
 */
function onState(state, text) {
  linkState.textContent = state === "up" ? "" : state === "signed_out" ? "signed in elsewhere" : (text ?? "");
  linkState.className = state;
  document.body.dataset.link = state;
}

/** @param {Message} welcome */
function onWelcome(welcome) {
  app.games = Array.isArray(welcome.games) ? welcome.games : app.games;
  if (welcome.player) app.player = welcome.player;
  app.welcome = welcome;
  learnRace(app, welcome.resume); // (a race on, perhaps begun on another device: elsewhere.js)
  who.textContent = app.player ? app.player.name : "";
  who.title = who.textContent; // whole, where a phone's bar cuts it
  challengesLink.hidden = !app.player;
  if (typeof welcome.challenges_new === "number") app.setUnseen(welcome.challenges_new);
  if (!app.started) {
    app.started = true;
    route();
  } else if (app.screen && app.screen.resumed) {
    app.screen.resumed(welcome);
  } else if (loaded.game && app.screen instanceof loaded.game.GameScreen && welcome.resume && welcome.resume.solo) {
    app.screen.take(welcome.resume.solo);
    app.screen.draw();
  }
}

// a link to a hash fires both: the address is routed once (a second `challenges`
// would find its new results already marked seen by the first)
const routeChanged = () => {
  if (location.href !== app.routed) route();
};
window.addEventListener("popstate", routeChanged);
window.addEventListener("hashchange", routeChanged);
followInPage((address) => app.go(address));

async function route() {
  app.routed = location.href;
  // a tab signed out has no connection, and will have none: it says so wherever it goes
  if (stopped) return app.show(signedOutScreen(stopped));
  if (toRaceOnSignIn(app)) return; // (signed in mid-race: a link code, "Play here again")
  const code = roomCode();
  const challenge = challengeId();
  if (
    !app.player &&
    !(code && hashField("watch") !== null) &&
    hashField("replay") === null &&
    hashField("board") === null
  ) {
    app.show(nameForm(door, code, challenge));
    return;
  }
  if (code) return enterRoom(code);
  const joining = groupLink();
  if (joining) return withModule("groups", ({ joinGroup }) => joinGroup(app, joining.group, joining.key));
  if (challenge) return withModule("challenge", ({ ChallengeScreen }) => app.show(new ChallengeScreen(app, challenge)));
  const resume = (app.welcome && app.welcome.resume) || {};
  if (hashField("challenges") !== null)
    return withModule("challenge", ({ ChallengesScreen }) => app.show(new ChallengesScreen(app)));
  // each field read as the address is routed (a screen made once its module is loaded)
  const replay = hashField("replay");
  if (replay !== null) return withModule("extras", ({ ReplayScreen }) => app.show(new ReplayScreen(app, replay)));
  const raced = hashField("race"); // (a replay page's "Race this": its ghost raced at once)
  if (raced) return withModule("extras", ({ ReplayScreen }) => ReplayScreen.raceAtOnce(app, raced));
  const group = hashField("group");
  if (group !== null)
    return withModule("groups", ({ GroupScreen }) => app.show(new GroupScreen(app, group, hashField("board"))));
  const player = hashField("player"); // another player's page: their ratings
  if (player) return app.show(new PlayerScreen(app, player));
  const league = hashField("league");
  if (league !== null) return withModule("league", ({ LeagueScreen }) => app.show(new LeagueScreen(app, league)));
  const board = hashField("board");
  if (board !== null) return withModule("extras", ({ BoardScreen }) => app.show(new BoardScreen(app, board)));
  // the rules are a page of their own (the server renders them from the same source as the terminal's)
  const rules = hashField("rules");
  if (rules !== null) return location.replace(`/rules/${encodeURIComponent(rules)}`);
  const daily = hashField("daily");
  if (daily !== null) return withModule("daily", ({ DailyScreen }) => app.show(new DailyScreen(app, daily || "gate")));
  const solo = hashField("solo");
  if (solo !== null) {
    const asked = app.dealing === solo;
    app.dealing = null;
    return asked ? newGame(solo) : soloGame(solo);
  }
  const quick = hashField("quick");
  if (quick !== null) return quickRace(quick || "gate");
  if (hashField("home") !== null) return app.show(homeScreen(door));
  // once, what the player was doing: a game in play first (a race under way, a challenge, a
  // ghost race of the quick race, a solo game), then a room's lobby or a race's results
  if (app.resumedOnce) return app.show(homeScreen(door));
  app.resumedOnce = true;
  const room = app.started ? resume.room : null;
  if (room && (room.state === "countdown" || room.state === "racing")) return app.go(`/r/${room.code}`);
  if (resume.challenge) return app.go(`/c/${resume.challenge.challenge}`);
  if (resume.quick) return app.go(`/play#quick=${resume.quick.rules}`);
  if (resume.solo && resume.solo.status === "playing") {
    // the daily's ranked attempt or its practice: back on the daily's screen (a ranked
    // attempt drawn as a plain game offered New deal, which left its clock running)
    if (resume.solo.kind === "practice" || resume.solo.kind === "daily")
      return app.go(`/play#daily=${resume.solo.rules}`);
    return showGame(resume.solo);
  }
  if (room) return app.go(`/r/${room.code}`);
  app.resumedOnce = false; // (nothing to take up: a later welcome may have it)
  app.show(homeScreen(door));
}

// the room's module is loaded before the server is asked (here, in enterRoom and in
// createRoom), so that its screen is shown as soon as the reply comes, as before
function resumeRoom() {
  return withModule("room", ({ RoomScreen }) =>
    app.link.request("hello", { protocol: 1, token: storedToken() || undefined }).then(
      (welcome) => {
        if (welcome.resume && welcome.resume.room) {
          const r = welcome.resume;
          history.pushState(null, "", `/r/${r.room.code}`);
          app.show(new RoomScreen(app, r.room, r.race || null));
        }
      },
      () => {},
    ),
  );
}

/** @typedef {typeof import("./room.js").RoomScreen} RoomScreenClass */

// the room a quick race matched the player into (its first `room` message)
/** @param {Message} room */
function showQuickRoom(room) {
  return withModule("room", ({ RoomScreen }) => {
    history.pushState(null, "", `/r/${room.code}`);
    app.show(new RoomScreen(app, room));
  });
}

/** The quick race's queue: it leaves the player's room (asked first in a race). @param {string} rules */
async function quickRace(rules) {
  const yes = allowedOnce(`quick:${rules}`);
  const race = await racingNow(app);
  const what = `Quick race at ${(app.game(rules) || { name: rules }).name}`;
  if (race && !yes) return app.show(elsewhereScreen(app, race, { key: `quick:${rules}`, what }, route));
  return withModule("quick", ({ QuickScreen }) => app.show(new QuickScreen(app, rules, showQuickRoom)));
}

/** @param {string} code */
function enterRoom(code) {
  return withModule("room", ({ RoomScreen }) => joinRoom(code, RoomScreen));
}

/**
 * @param {string} code
 * @param {RoomScreenClass} RoomScreen
 */
async function joinRoom(code, RoomScreen) {
  const yes = allowedOnce(`room:${code}`);
  const resume = (app.welcome && app.welcome.resume) || {};
  if (app.welcome && resume.room && resume.room.code === code && app.player) {
    app.welcome.resume = {};
    return app.show(new RoomScreen(app, resume.room, resume.race || null));
  }
  if (app.player && hashField("watch") === null) {
    // back in the room by Back, Forward or its link while a member: as the server has it
    // now, with the race and the player's game in it (room_join would answer the room
    // alone, and the race would show without the player's board)
    const now = await freshResume();
    if (now.room && now.room.code === code) return app.show(new RoomScreen(app, now.room, now.race || null));
    // (a race on in the player's room, begun on another device: not resigned unasked)
    const race = /** @type {import("./elsewhere.js").Race | null} */ (app.racing);
    const target = { key: `room:${code}`, what: `Join room ${code}`, watch: code };
    if (race && !yes) return app.show(elsewhereScreen(app, race, target, route));
    try {
      const room = await app.link.request("room_join", { code });
      return app.show(new RoomScreen(app, room));
    } catch (error) {
      const why = error instanceof ServerError ? error.code : null;
      if (why !== "race_started" && why !== "room_full") return app.show(roomRefused(error));
    }
  }
  try {
    const room = await app.link.request("room_watch", { code });
    app.show(new RoomScreen(app, room, null, true));
  } catch (error) {
    app.show(roomRefused(error));
  }
}

/**
 * A room the server refused: its words, and for a code it does not know what to check.
 * @param {unknown} error
 * @returns {Screen}
 */
function roomRefused(error) {
  const unknown = error instanceof ServerError && error.code === "no_such_room";
  return message(
    errorText(error),
    unknown
      ? "Check the code with whoever sent it, and that it is for this server: a room closes once " +
          "everyone has left it. Race beside a game opens one of your own."
      : null,
  );
}

/**
 * @param {string} game the rules, by id
 * @param {boolean} hints
 * @param {number | undefined} timeLimit seconds; none: no limit
 */
function createRoom(game, hints, timeLimit) {
  return withModule("room", ({ RoomScreen }) => makeRoom(RoomScreen, game, hints, timeLimit));
}

/**
 * @param {RoomScreenClass} RoomScreen
 * @param {string} game
 * @param {boolean} hints
 * @param {number | undefined} timeLimit
 */
async function makeRoom(RoomScreen, game, hints, timeLimit) {
  try {
    const room = await app.link.request("room_create", { game, hints, time_limit: timeLimit });
    history.pushState(null, "", `/r/${room.code}`);
    app.show(new RoomScreen(app, room));
  } catch (error) {
    app.notice(errorText(error));
  }
}

// the game's module is loaded before the server is asked for a deal (as the room's is);
// a solo game in play, which a new deal gives up, is given up only if the player says so
// (no: back to it)
/**
 * @param {string} rules
 * @returns {Promise<unknown>}
 */
function newGame(rules) {
  return withModule("game", async () => {
    const solo = (await freshResume()).solo;
    if (solo && solo.kind === "solo" && solo.status === "playing" && solo.view.moves > 0) {
      const name = (/** @type {string} */ id) => (app.game(id) || { name: id }).name;
      const moves = count(solo.view.moves, "move");
      const question = `Deal a new game of ${name(rules)}? Your game of ${name(solo.rules)} in play (${moves}) is given up.`;
      if (!confirm(question)) {
        // no: the game in play, the address saying its game (where it was already shown,
        // New deal's no or another game's address typed in, it had kept the other game's),
        // routed as such (the other game's, typed in again, is routed again)
        history.replaceState(null, "", `/play#solo=${encodeURIComponent(solo.rules)}`);
        app.routed = location.href;
        const shown = /** @type {{ id?: string } | null} */ (app.screen);
        return shown && shown.id === solo.game ? undefined : showGame(solo);
      }
    }
    try {
      const snap = await app.link.request("new_game", { game: rules });
      showGame(snap, true);
    } catch (error) {
      app.show(message(errorText(error)));
    }
  });
}

/**
 * The solo game of `rules` the player has (in play or just ended), as the server has it
 * now (asked afresh: the welcome's may be older than a game dealt since); else a new deal.
 * @param {string} rules
 */
function soloGame(rules) {
  return withModule("game", async () => {
    const solo = (await freshResume()).solo;
    if (solo && solo.kind === "solo" && solo.rules === rules) return showGame(solo);
    return newGame(rules);
  });
}

/**
 * What the player is doing as the server has it now (elsewhere.js's `askResume`: the race
 * on in it kept as app.racing); empty when it cannot be asked.
 * @returns {Promise<Message>}
 */
async function freshResume() {
  return (await askResume(app)) || {};
}

/**
 * A solo game shown, and said: a new deal (`dealt`), or the player's game taken up again.
 * @param {Message} snap
 * @param {boolean} [dealt]
 * @returns {Promise<unknown>}
 */
function showGame(snap, dealt = false) {
  app.resumedOnce = true; // (the welcome's game, if another, is older than this one)
  return withModule("game", ({ GameScreen, shownSaid }) => {
    const screen = new GameScreen(app, snap, {
      challenge: true,
      actions: (game) => [
        button("New deal", () => newGame(game.rules), { "data-act": "new" }),
        newTabLink(`/rules/${game.rules}`, "Rules"),
      ],
    });
    app.show(screen);
    say(pageRegion(), shownSaid((app.game(screen.rules) || { name: screen.rules }).name, snap, dealt), true);
  });
}

app.link.open();
Object.assign(window, { patienceRace: app }); // for the browser tests and for the curious: the link's frame counts
