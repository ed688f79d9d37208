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

import { button, h } from "./dom.js";
import { storedToken } from "./link.js";

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
