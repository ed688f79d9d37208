// @ts-check
// A race of the player's still on, wherever it was started: on this tab, or on another
// device before this one signed in (the server says so in every welcome's `resume`: the
// room the player is a member of, racing or counting down, with their game in it still
// played). Making a room, joining one, a quick race: each leaves the room the player is in
// first, which in a race resigns their game (docs/protocol.md, room_create). A page that
// did one of them from an old address (a tab left on a finished race's /r/CODE, or on
// /play#quick=GAME, reloaded or "Play here again") resigned the race the same player was
// playing on another device, with no word; the home screen of a second device did not say
// the race was on, and its Race and Quick race started at once. Now the welcome says it
// (`learnRace`), an address that would leave the race asks first (`elsewhereScreen`), and
// the home screen's buttons ask as Play does (`mayLeave`).
//
// A browser signed in mid-race (a link code entered, or "Play here again" pressed on a tab
// the other device had stopped) went to its address's screen (the daily's, say) with no
// word of the race; the daily's Start and "Practise this deal" dealt beside it unasked.
// Now a sign-in goes to the race (`toRaceOnSignIn`), the daily's page says the race is on
// (`raceLine`), and what would deal a game beside it asks first, as Play does
// (`dealBeside`, `besideQuestion`).

import { button, h } from "./dom.js";
import { storedToken } from "./link.js";
import { hashField, roomCode } from "./address.js";

/** @typedef {import("./types.js").App} App */
/** @typedef {import("./types.js").Message} Message */
/** @typedef {{ code: string, game: string, countdown: boolean }} Race a race of the player's still on */

/**
 * The race of the player's still on, from a welcome's `resume` (or a `room` message as
 * `{ room }`): their room racing with their game in it still played (one who left it is
 * in its `left`, not its `players`), or counting down with them in it; else null.
 * @param {Message | null | undefined} resume
 * @param {string | null | undefined} me the player's name
 * @returns {Race | null}
 */
export function raceOn(resume, me) {
  const room = resume && resume.room;
  if (!room || !me || (room.state !== "racing" && room.state !== "countdown")) return null;
  /** @type {Message[]} */
  const players = Array.isArray(room.players) ? room.players : [];
  const mine = players.find((p) => p.name === me);
  if (!mine) return null;
  if (room.state === "racing") {
    const status = mine.status ?? (resume.race ? resume.race.status : undefined);
    if (status !== undefined && status !== "playing") return null;
  }
  return { code: room.code, game: room.game, countdown: room.state === "countdown" };
}

/**
 * What leaving the race for `what` asks first, as Play asks beside it.
 * @param {string} race the race's game, by name
 * @param {boolean} countdown the race not yet dealt
 * @param {string} what what the player asked for ("Race Nestor", "Join room K7PQ2M")
 */
export function leaveQuestion(race, countdown, what) {
  const cost = countdown
    ? `takes you out of the race at ${race} before it starts`
    : `resigns your game in the race at ${race}`;
  const state = countdown ? "is about to start" : "is still on, its clock running";
  return `Your race at ${race} ${state}. ${what}? That leaves your room, and ${cost}.`;
}

/**
 * What dealing a game beside the race asks first (Play on the home screen, the daily's
 * Start and its practice).
 * @param {string} race the race's game, by name
 * @param {boolean} countdown the race not yet dealt
 * @param {string} what what the player asked for ("Play Nestor")
 */
export function besideQuestion(race, countdown, what) {
  const state = countdown ? "is about to start" : "is still on, its clock running";
  return `Your race at ${race} ${state}. ${what} beside it?`;
}

/**
 * @param {App} app
 * @param {string} id a game's id
 */
function gameName(app, id) {
  return (app.game(id) || { name: id }).name;
}

/**
 * The race the welcome (or a `linked` reply's `resume`) says is on, kept as `app.racing`:
 * the home screen says it is on and leads back to it, on a device that has not shown it.
 * @param {App} app
 * @param {Message | null | undefined} resume
 */
export function learnRace(app, resume) {
  app.racing = raceOn(resume, app.player ? app.player.name : null);
}

/**
 * `app.racing` kept as the server's events tell of its room while no room screen keeps it
 * (the race over, the player out of it), shown or not.
 * @param {App} app
 * @param {Message} message
 */
export function heardOf(app, message) {
  const racing = app.racing;
  if (!racing || message.code !== racing.code) return;
  if (message.type === "results") app.racing = null;
  else if (message.type === "room") learnRace(app, { room: message });
}

/**
 * The race in room `code` left (the room's Leave, said yes: the game in it resigned), or
 * any race but the one in room `code` (a member of that room now: joining or making a room
 * leaves the room the player was in). The home screen had gone on saying "Your race at
 * The Gate is on", and Play asking first, until the page was loaded again.
 * @param {App} app
 * @param {string} code
 * @param {boolean} [left] the race in `code` left, not kept
 */
export function leftRace(app, code, left = true) {
  const racing = app.racing;
  if (racing && (racing.code === code) === left) app.racing = null;
}

/**
 * What the player is doing as the server has it now (a welcome's `resume`, asked again:
 * the one the page was welcomed with may be older than a game dealt or a race begun
 * since), the race in it kept (`learnRace`); null when it cannot be asked.
 * @param {App} app
 * @returns {Promise<Message | null>}
 */
export async function askResume(app) {
  try {
    const welcome = await app.link.request("hello", { protocol: 1, token: storedToken() || undefined });
    const resume = welcome.resume || {};
    learnRace(app, resume);
    // (the challenges' badge as the server has it now)
    if (typeof welcome.challenges_new === "number") app.setUnseen(welcome.challenges_new);
    return resume;
  } catch {
    return null;
  }
}

/**
 * The race of the player's on now: none where the page knows of none (a race begun
 * elsewhere signs this tab out, and a welcome says it), else as the server says now (it
 * may be over), else as the page last knew it.
 * @param {App} app
 * @returns {Promise<Race | null>}
 */
export async function racingNow(app) {
  if (!app.racing) return null;
  const known = /** @type {Race} */ (app.racing);
  const resume = await askResume(app);
  return resume ? /** @type {Race | null} */ (app.racing) : known;
}

/**
 * Whether to go on with `what`, which leaves the room the player is in: at once where no
 * race of theirs is on (or it is the room `code` it goes to), else as the player answers.
 * @param {App} app
 * @param {string} what
 * @param {string | null} [code] the room it joins, if it joins one
 */
export async function mayLeave(app, what, code = null) {
  const race = await racingNow(app);
  if (!race || race.code === code) return true;
  return confirm(leaveQuestion(gameName(app, race.game), race.countdown, what));
}

/**
 * `deal` (a game, not in the race's room: the race goes on) done beside the race of the
 * player's on (`app.racing`, kept as the server's events tell of it: asked at once, as the
 * button is pressed): at once where none is, else once the player says so (Play, the
 * daily's Start and its practice: the daily's had dealt unasked, both clocks running).
 * @param {App} app
 * @param {string} what what it deals, in the question's words ("Play Nestor")
 * @param {() => unknown} deal
 */
export function dealBeside(app, what, deal) {
  const race = /** @type {Race | null} */ (app.racing);
  if (!race || confirm(besideQuestion(gameName(app, race.game), race.countdown, what))) deal();
}

/**
 * "Your race at The Gate is on." and **Back to the race**, while a race of the player's
 * is on (`app.racing`), as the home screen and the daily's page say it; else null.
 * @param {App} app
 * @returns {HTMLElement | null}
 */
export function raceLine(app) {
  const race = /** @type {Race | null} */ (app.racing);
  if (!race) return null;
  return h(
    "p",
    { class: "back-to-race", dataset: { race: race.code } },
    `Your race at ${gameName(app, race.game)} is ${race.countdown ? "about to start" : "on"}. `,
    button("Back to the race", () => app.go(`/r/${race.code}`), { "data-act": "back-to-race" }),
  );
}

/**
 * `slot` holding `raceLine` as the race stands now (drawn again only when that changes:
 * the race over, or begun).
 * @param {App} app
 * @param {HTMLElement} slot
 */
export function keepRaceLine(app, slot) {
  const race = /** @type {Race | null} */ (app.racing);
  const key = race ? `${race.code} ${race.countdown}` : "";
  if (slot.dataset.shown === key) return;
  slot.dataset.shown = key;
  slot.replaceChildren(...[raceLine(app)].filter((e) => e !== null));
}

// a sign-in under way in this tab (a link code entered, or "Play here again" pressed: the
// page loaded again), kept over the reload (sessionStorage: this tab only)
const SIGNING_IN = "patience-race.signing-in";

/** The page signs in afresh: a link code entered, or (`reload`) "Play here again". */
export function signingIn(reload = false) {
  try {
    sessionStorage.setItem(SIGNING_IN, "1");
  } catch {
    /* the race is said where the page goes: the home screen, the daily's page */
  }
  if (reload) location.reload();
}

/**
 * A page just signed in (`signingIn`, forgotten as it is asked) while a race of the
 * player's is on goes to the race, as a link code promises ("straight into what the
 * player was doing"): but for a room's address or the quick race's, which say the race is
 * on themselves and ask (`elsewhereScreen`). Whether it went.
 * @param {App} app
 */
export function toRaceOnSignIn(app) {
  let signed;
  try {
    signed = sessionStorage.getItem(SIGNING_IN) !== null;
    sessionStorage.removeItem(SIGNING_IN);
  } catch {
    return false;
  }
  const race = /** @type {Race | null} */ (app.racing);
  if (!signed || !race || roomCode() !== null || hashField("quick") !== null) return false;
  app.go(`/r/${race.code}`);
  return true;
}

// an address let through once, the player having said yes (`mayLeave`, the screen's button)
/** @type {string | null} */
let allowed = null;

/**
 * The address `key` (`room:CODE`, `quick:GAME`) let through once.
 * @param {string} key
 */
export function allow(key) {
  allowed = key;
}

/**
 * Whether the address `key` was let through (once: it is forgotten as it is asked).
 * @param {string} key
 */
export function allowedOnce(key) {
  const yes = allowed === key;
  allowed = null;
  return yes;
}

/**
 * What an address shows in place of what it would do (join room `code`, or wait in the
 * quick race's queue) while a race of the player's is on in another room: that the race is
 * on, the way back to it, and what the address would cost, done only when asked.
 * @param {App} app
 * @param {Race} race
 * @param {{ key: string, what: string, watch?: string }} target what the address does
 *   (`what`: "Join room K7PQ2M"; `watch`: the room's code, to watch it instead)
 * @param {() => unknown} proceed the address routed again, let through
 * @returns {import("./types.js").Screen}
 */
export function elsewhereScreen(app, race, target, proceed) {
  const name = gameName(app, race.game);
  const cost = race.countdown
    ? "takes you out of that race before it starts"
    : `resigns your game in the race at ${name}`;
  return {
    root: h(
      "section",
      { class: "elsewhere", dataset: { race: race.code } },
      h("h1", {}, `Your race at ${name} is ${race.countdown ? "about to start" : "on"}`),
      h(
        "p",
        { class: "note" },
        `You race in room ${race.code}. ${target.what} here? That leaves your room, and ${cost}.`,
      ),
      h(
        "p",
        { class: "back-to-race" },
        button("Back to the race", () => app.go(`/r/${race.code}`), { "data-act": "back-to-race" }),
        " ",
        button(
          `${target.what} all the same`,
          () => {
            allow(target.key);
            proceed();
          },
          { "data-act": "leave-race" },
        ),
      ),
      target.watch ? h("p", {}, h("a", { href: `/r/${target.watch}#watch` }, `Just watch room ${target.watch}`)) : null,
      h("p", {}, h("a", { href: "/play#home" }, "Back to the games")),
    ),
  };
}
