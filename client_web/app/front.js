// @ts-check
// The front door: what a visitor sees before playing. The invite page and the name form
// (first visit: a room's or a challenge's link names whose game and which, from the facts
// the server put in the page's head; the form registers, or signs in with a link code or a
// recovery key), the home screen (the games, joining or making a race, the change of name,
// the other devices), and the screen of a tab signed out. main.js shows them; what they
// need of it (the application, the header, the routing, a room made, devices.js loaded
// the first time one of its boxes opens) comes in a `Door`, so nothing here imports main.js.

import { groupLink } from "./address.js";
import { button, h } from "./dom.js";
import { focusOn, headingTakesFocus, say } from "./focus.js";
import { ServerError, deviceLabel, signedOutText, storeToken } from "./link.js";
import { markDailies } from "./dailymarks.js";
import { allow, dealBeside, keepRaceLine, learnRace, mayLeave, signingIn } from "./elsewhere.js";
import { fillRatings, ratedIn } from "./ratings.js";
import { keyTried, recoveryBox, recoveryForm } from "./recovery.js";
import { nameField, renameBox } from "./rename.js";
import { servedName } from "./title.js";

/** @typedef {import("./types.js").App} App */
/** @typedef {import("./types.js").Message} Message */
/** @typedef {import("./types.js").Screen} Screen */
/** @typedef {typeof import("./devices.js")} Devices */

/**
 * What the front door needs of main.js: the application; the header's name and challenges
 * link (a player signed in shows there); the way on once signed in (`route`: the address
 * routed again); a race room made (`createRoom`); devices.js, as loaded so far (`devices`)
 * and loaded (`loadDevices`, kept for next time), with the words for a module that failed.
 * @typedef {object} Door
 * @property {App} app
 * @property {HTMLElement} who
 * @property {HTMLElement} challengesLink
 * @property {() => unknown} route
 * @property {(game: string, hints: boolean, timeLimit: number | undefined) => unknown} createRoom
 * @property {() => Devices | undefined} devices
 * @property {() => Promise<Devices>} loadDevices
 * @property {(error: unknown) => string} unloadable
 * @property {() => HTMLElement} groupsArea the home screen's "Your groups" (groups.js's, loaded)
 */

/**
 * Whether the focus goes to a screen shown in `main`: it was in the screen going, or
 * nowhere (a page loaded into a game left it on <body>, and a screen reader's user had
 * to find the board).
 * @param {HTMLElement} main
 */
export function focusGoesWith(main) {
  const active = document.activeElement;
  return active === null || active === document.body || main.contains(active);
}

/**
 * A screen shown in `main` in place of the one that had the focus (Play, New deal, the
 * name form sent: the focus went with it, to <body>): a game's first pile a move starts
 * from (its `focusStart`: a daily's and a replay's heading once loaded; else its heading),
 * else the screen's first heading, made able to take it, as it is drawn (focus.js
 * `headingTakesFocus`: a leaderboard's, drawn once the server answers, had never had it).
 * @param {HTMLElement} main
 * @param {Screen} screen
 */
export function focusStart(main, screen) {
  if (main.contains(document.activeElement)) return;
  const game = /** @type {{ focusStart?: () => void }} */ (screen);
  if (!game.focusStart) return headingTakesFocus(screen.root);
  game.focusStart();
  if (!main.contains(document.activeElement)) focusOn(screen.root.querySelector("h1, h2, [role=heading]"));
}

/**
 * What a tab signed out (`signed_out`) shows in place of its screen: where the player
 * went, in words, and the way back (a reload: this connection is closed for good).
 * @param {Message} event
 * @returns {Screen}
 */
export function signedOutScreen(event) {
  const again = event.cause === "signed_out" ? "Sign in again" : "Play here again";
  return {
    root: h(
      "section",
      { class: "signed-out" },
      h("h1", {}, "This tab has stopped"),
      h("p", { class: "note", "data-reason": event.reason || "" }, signedOutText(event)),
      // (the page loaded again signs in: mid-race, it goes to the race, elsewhere.js)
      button(again, () => signingIn(true), { "data-act": "reload" }),
    ),
  };
}

// a fact of the invite page (the game, who hosts, how the room stands), put in the page's
// head by the server with the link's preview: <meta name="patience:host" content="...">
/** @param {string} name */
function pageFact(name) {
  const tag = document.querySelector(`meta[name="patience:${name}"]`);
  return tag ? tag.getAttribute("content") : null;
}

// what the name form says first: whose game and which, where the link's page names them
/**
 * @param {string | null} code the room's, at /r/CODE
 * @param {string | null} challenge the challenge's id, at /c/ID
 */
function invite(code, challenge) {
  const host = pageFact("host");
  const game = pageFact("game-name");
  const state = pageFact("state");
  if (code && pageFact("room") === "none") {
    return {
      heading: `There is no race room ${code}`,
      line:
        "Check the code with whoever sent it, and that it is for this server: a room closes once " +
        "everyone has left it. You can still play here, and open a room of your own.",
    };
  }
  if (code && host && game) {
    return { heading: `${host} invites you to race ${game}`, line: `Room ${code}: ${state}.` };
  }
  if (challenge && host && game) {
    return {
      heading: `${host} challenges you to ${game}`,
      line: `${state}: race ${host}'s game on the same deal, against its ghost, whenever you like.`,
    };
  }
  if (code) return { heading: `You are invited to race (room ${code})`, line: null };
  if (challenge) return { heading: "You are challenged to a race", line: null };
  // (a group's link, /g/ID?k=KEY: its page names the group where the key is its own, as
  // a group is its members' and its link holders'; the form had not said it joins one)
  const group = groupLink() ? pageFact("group-name") : null;
  if (group)
    return {
      heading: `You are invited to join ${group}`,
      line: "Once you have picked a name, the link joins you to the group: you see its members and their boards.",
    };
  if (groupLink())
    return {
      heading: "You are invited to join a group",
      line: "Once you have picked a name, the link joins you to the group: you see its members and their boards.",
    };
  return { heading: "Patience Race", line: null };
}

/**
 * @param {Door} door
 * @param {string | null} code the room's, at /r/CODE
 * @param {string | null} challenge the challenge's id, at /c/ID
 * @returns {Screen}
 */
export function nameForm(door, code, challenge) {
  const { app } = door;
  const none = code !== null && pageFact("room") === "none"; // a link to no room
  // a stored token the server refused says why here (a device signed out, say); a refusal
  // goes as the name is typed again (a name of the wrong shape is said here as the
  // browser refuses to send it, one too long as it is typed: rename.js nameField)
  // (a recovery key just tried and refused: its own form says so, in the words it was given)
  const note = h("p", { class: "note", role: "status", id: "name-note" }, keyTried() ? "" : app.link.refused || "");
  const input = nameField(
    { name: "name", placeholder: "your name", "aria-label": "your name", "aria-describedby": "name-note" },
    (text, again) => say(note, text, again),
  );
  const form = h(
    "form",
    {
      class: "name-form",
      onsubmit: async (/** @type {SubmitEvent} */ event) => {
        event.preventDefault();
        try {
          const reply = await app.link.request("register", { name: input.value.trim(), device: deviceLabel() });
          storeToken(reply.token);
          if (none) history.replaceState(null, "", "/play"); // on to the games
          signedIn(door, reply);
        } catch (error) {
          note.textContent = error instanceof ServerError ? error.message : String(error);
          input.setAttribute("aria-invalid", "true");
          // (their own name, perhaps, on a new device: the terminal says the same)
          if (error instanceof ServerError && error.code === "name_taken")
            note.textContent +=
              ". If it is yours: 'Have a link code?' below, with a code from a device where you play. Else another name.";
        }
      },
    },
    input,
    h(
      "button",
      { type: "submit" },
      code && !none ? "Join the race" : challenge ? "See the challenge" : groupLink() ? "Join the group" : "Play",
    ),
  );
  const watch = code && !none ? h("p", {}, h("a", { href: `/r/${code}#watch` }, "Just watch this race")) : null;
  const { heading, line } = invite(code, challenge);
  return {
    root: h(
      "section",
      { class: "welcome" },
      // (the tab's title, title.js: as the server gave the page, which names the room or
      // the challenge a link is to)
      h("h1", { "data-title": servedName() || null }, heading),
      line ? h("p", { class: "invite" }, line) : null,
      h(
        "p",
        {},
        "Pick a name to play under: 2 to 20 letters (A to Z), digits, - or _, the first a letter or a digit. It is kept in this browser.",
      ),
      form,
      note,
      lazyBox(door, h("summary", {}, "Have a link code?"), "link-code-form", ({ linkCodeForm }) =>
        linkCodeForm(app, (reply) => signedIn(door, reply)),
      ),
      recoveryForm(),
      watch,
    ),
    draw() {
      input.focus();
    },
  };
}

/**
 * @param {Door} door
 * @returns {Screen}
 */
export function homeScreen(door) {
  const { app, createRoom } = door;
  const joinNote = h("p", { class: "note", id: "join-note", role: "status" });
  const join = h("input", {
    placeholder: "room code",
    "aria-label": "room code",
    "aria-describedby": "join-note",
    maxlength: 200,
    autocapitalize: "characters",
  });
  const hints = h("input", { type: "checkbox", "aria-label": "hints allowed" });
  const limit = h(
    "select",
    { "aria-label": "time limit" },
    h("option", { value: "" }, "no time limit"),
    [3, 5, 10, 30].map((m) => h("option", { value: String(m * 60) }, `${m} minutes`)),
  );
  const rows = app.games.map((g) =>
    h(
      "li",
      { class: "game-row", dataset: { game: g.id } },
      // (its name a heading, as it looks: a screen reader's heading keys reached no game)
      h("div", {}, h("h3", { class: "game-name" }, g.name), h("p", { class: "muted" }, g.summary)),
      h(
        "div",
        { class: "controls" },
        // (each named with its game: a screen reader going from button to button heard
        // "Play" ten times over)
        button("Play", () => playBeside(app, g), { "data-act": "solo", "aria-label": `Play ${g.name}` }),
        button("Daily", () => app.go(`/play#daily=${g.id}`), {
          "data-act": "daily",
          "aria-label": `Daily challenge: ${g.name}`,
        }),
        // (each of these leaves the player's room: a race of theirs on there asks first)
        button("Race", () => raceAt(app, g, () => createRoom(g.id, hints.checked, Number(limit.value) || undefined)), {
          "data-act": "race",
          "aria-label": `Race at ${g.name}`,
        }),
        button("Quick race", () => quickAt(app, g), {
          "data-act": "quick",
          "aria-label": `Quick race at ${g.name}`,
        }),
        h("a", { href: `/rules/${g.id}`, "aria-label": `Rules of ${g.name}` }, "Rules"),
      ),
    ),
  );
  markDailies((type, fields) => app.link.request(type, fields), rows);
  // a race of the player's on: said, with the way back to it (kept as the server tells of
  // it: its results end it)
  const back = h("div", { class: "race-slot" });
  keepRaceLine(app, back);
  const ratings = h("div", { class: "ratings" });
  const request = (/** @type {string} */ type, /** @type {Message | undefined} */ fields) =>
    app.link.request(type, fields);
  fillRatings(ratings, request, app.games);
  // (signed in: route() says so; the tab's title calls the screen what it is, title.js)
  const hello = h("h1", { "data-title": "Games" }, `Hello, ${app.player ? app.player.name : ""}`);
  const rename = renameBox(app.player ? app.player.name : "", {
    request: (type, fields) => app.link.request(type, fields),
    renamed: (player) => {
      app.player = player;
      door.who.textContent = player.name;
      hello.textContent = `Hello, ${player.name}`;
    },
  });
  return {
    // a name changed from another device: greeted by it (main.js shows it in the bar)
    // and a race's results: the race's line gone, and its ratings shown (the box had said
    // "No rating yet" until a reload)
    event: (/** @type {Message} */ message) => {
      if (message.type === "renamed" && message.player) hello.textContent = `Hello, ${message.player.name}`;
      if (message.type === "results") keepRaceLine(app, back);
      if (ratedIn(message, app.player ? app.player.name : null)) fillRatings(ratings, request, app.games);
      return false;
    },
    root: h(
      "section",
      { class: "home" },
      hello,
      back,
      h(
        "form",
        { class: "join", onsubmit: (/** @type {SubmitEvent} */ e) => joinRace(app, e, join, joinNote) },
        join,
        h("button", { type: "submit" }, "Join a race"),
      ),
      joinNote,
      h(
        "p",
        { class: "muted" },
        "Quick race: raced at once with players of your rating. Race: make a room, send its link, start when your friends are ready. ",
        h("label", { class: "option" }, hints, " hints allowed"),
        " · ",
        limit,
      ),
      leagueSlot(app),
      h("h2", { class: "spoken" }, "Games"),
      h("ul", { class: "games" }, rows),
      door.groupsArea(),
      ratings,
      h(
        "p",
        {},
        h("a", { href: "/play#challenges" }, "Your challenges"),
        " · ",
        h("a", { href: "/play#board=races/week" }, "Leaderboards"),
        " · ",
        h("a", { href: "/" }, "the read-only pages"),
      ),
      rename,
      recoveryBox(lazyBox(door, null, "link-code-box", ({ linkCodeBox }) => linkCodeBox(app))),
      lazyBox(door, h("summary", {}, "Your devices"), "devices-box", ({ devicesBox }) => devicesBox(app)),
    ),
  };
}

/**
 * The player signed in by the name form (`registered`, or `linked` from a link code,
 * which brings what the player was doing: its `resume`).
 * @param {Door} door
 * @param {Message} reply
 */
function signedIn(door, reply) {
  const { app } = door;
  app.player = reply.player;
  door.who.textContent = reply.player.name;
  door.challengesLink.hidden = false;
  if (reply.resume) app.welcome = { ...app.welcome, resume: reply.resume };
  learnRace(app, reply.resume); // (a race on, begun on the device the code came from)
  if (reply.resume) signingIn(); // (a link code's: mid-race, it goes to the race)
  door.route();
}

/**
 * A box of devices.js's (loaded the first time it is opened): a `<details>` with
 * `summary`, or, with none, a part of the enclosing `<details>` (filled once that opens).
 * @param {Door} door
 * @param {HTMLElement | null} summary
 * @param {string} name the box's class
 * @param {(module: Devices) => HTMLElement} build
 */
function lazyBox(door, summary, name, build) {
  const slot = h("div", { class: name });
  const fill = (/** @type {Event} */ event) => {
    const details = /** @type {HTMLDetailsElement} */ (event.currentTarget);
    if (!details.open || slot.childElementCount) return;
    const ready = door.devices();
    if (ready) return void slot.replaceChildren(build(ready));
    door.loadDevices().then(
      (m) => slot.replaceChildren(build(m)),
      (error) => slot.replaceChildren(h("p", { class: "note" }, door.unloadable(error))),
    );
  };
  if (summary) return h("details", { class: `recovery ${name}`, ontoggle: fill }, summary, slot);
  queueMicrotask(() => slot.closest("details")?.addEventListener("toggle", fill));
  return slot;
}

// "This week's league" (league.js, loaded here as the box is first drawn: the first load
// is as it was), above the games
/** @param {App} app */
function leagueSlot(app) {
  const slot = h("div", { class: "league-slot" });
  import("./league.js").then(
    ({ leagueBox }) => slot.replaceChildren(leagueBox(app)),
    () => {},
  );
  return slot;
}

// Join a race: the room's code, or the whole link a friend sent pasted (its code read from it);
// with nothing usable typed, say what to type and stay in the box
/**
 * @param {App} app
 * @param {SubmitEvent} event
 * @param {HTMLInputElement} input
 * @param {HTMLElement} note
 */
async function joinRace(app, event, input, note) {
  event.preventDefault();
  const typed = input.value.trim();
  const code = (typed.match(/\/r\/([A-Za-z0-9]{1,16})/) || [null, typed])[1].toUpperCase();
  if (/^[A-Z0-9]{1,16}$/.test(code)) {
    if (!(await mayLeave(app, `Join room ${code}`, code))) return;
    allow(`room:${code}`);
    app.go(`/r/${code}`);
    return;
  }
  note.textContent = typed
    ? "A room code is letters and digits (up to 16), like the end of the link your friend sent."
    : "Type the room code from your friend's link (the letters after /r/), or open the link itself.";
  input.setAttribute("aria-invalid", "true");
  input.focus();
}

/**
 * Play a solo game of `g`, asked first while a race of the player's is still on (it
 * was dealt with no word, the race's clock running on behind it).
 * @param {App} app
 * @param {Message} g a game of the list
 */
function playBeside(app, g) {
  return dealBeside(app, `Play ${g.name}`, () => app.deal(g.id));
}

/**
 * Make a room to race `g` (`make`), asked first while a race of the player's is on: making
 * a room leaves theirs, resigning their game in it (elsewhere.js).
 * @param {App} app
 * @param {Message} g a game of the list
 * @param {() => unknown} make
 */
async function raceAt(app, g, make) {
  if (await mayLeave(app, `Make a room to race ${g.name}`)) make();
}

/**
 * The quick race of `g`, asked first as `raceAt` is (its queue leaves the player's room).
 * @param {App} app
 * @param {Message} g a game of the list
 */
async function quickAt(app, g) {
  if (!(await mayLeave(app, `Quick race at ${g.name}`))) return;
  allow(`quick:${g.id}`);
  app.go(`/play#quick=${g.id}`);
}
