// @ts-check
// The home screen's ratings (docs/ratings.md): the player's rating at each game they have
// raced a rated race at, from the server's `profile` (docs/protocol.md#profile), each
// linking to the game's rating board. Shown as the answer comes; a failure says so in
// the box, and the rest of the home screen stands. And another player's page
// (`#player=NAME`, a name on a board leads there): their ratings, as the terminal's
// `profile NAME` shows them.

import { backToGames, h, replace } from "./dom.js";
import { errorText } from "./link.js";

/**
 * `box` (the home screen's) filled once `request("profile")` answers, as the screen comes
 * and again as a rated race's results come while it is shown. (Not a live region: filled
 * as the screen comes, it was read out after the greeting each time the home screen came.)
 * @param {HTMLElement} box
 * @param {(type: string, fields?: Record<string, any>) => Promise<Record<string, any>>} request
 * @param {Record<string, any>[]} games
 */
export function fillRatings(box, request, games) {
  request("profile").then(
    (reply) => replace(box, ...ratingsList(reply.ratings || [], games)),
    (error) => replace(box, h("p", { class: "note" }, errorText(error))),
  );
  return box;
}

/**
 * Whether `message` is a race's results that rated the player `me` (its entry has a
 * `rating`): their ratings have changed.
 * @param {Record<string, any>} message
 * @param {string | null} me
 */
export function ratedIn(message, me) {
  if (message.type !== "results" || !me || !Array.isArray(message.results)) return false;
  return message.results.some(
    (/** @type {Record<string, any>} */ r) => r.player === me && typeof r.rating === "number",
  );
}

/**
 * The box's contents: a heading and a line a game, or how to get a rating.
 * @param {Record<string, any>[]} ratings `profile`'s, highest first
 * @param {Record<string, any>[]} games
 * @param {string | null} [whose] another player's name (null: one's own)
 * @returns {HTMLElement[]}
 */
export function ratingsList(ratings, games, whose = null) {
  const head = h("h2", {}, whose ? `${whose}'s ratings` : "Your ratings");
  if (!ratings.length)
    return [
      head,
      h("p", { class: "muted" }, `No rating yet: a race against people (two or more) rates ${whose || "you"}.`),
    ];
  const name = (/** @type {string} */ id) => (games.find((g) => g.id === id) || { name: id }).name;
  const rows = ratings.map((r) =>
    h(
      "li",
      { dataset: { game: r.game } },
      h("a", { href: `/play#board=${r.board}` }, name(r.game)),
      `: ${r.rating} `,
      h("span", { class: "muted" }, `(${r.races} rated race${r.races === 1 ? "" : "s"})`),
    ),
  );
  return [
    head,
    h("ul", { class: "ratings" }, rows),
    h(
      "p",
      { class: "muted" },
      "A rating starts low, below zero after a first loss, and rises as races show how well you play: " +
        "it counts only what your races have proved (your skill, less three times the doubt left about it).",
    ),
  ];
}

/** A player's page: their ratings at each game, by their name (the server's `profile`). */
export class PlayerScreen {
  /**
   * @param {{ link: { request: (type: string, fields?: Record<string, any>) => Promise<Record<string, any>> }, games: Record<string, any>[] }} app
   * @param {string} name
   */
  constructor(app, name) {
    this.root = h("section", { class: "player", dataset: { player: name } });
    app.link.request("profile", { name }).then(
      (reply) =>
        replace(
          this.root,
          h("h1", {}, reply.player),
          ...ratingsList(reply.ratings || [], app.games, reply.player),
          backToGames(),
        ),
      (error) => replace(this.root, h("p", { class: "note" }, errorText(error)), backToGames()),
    );
  }
}
