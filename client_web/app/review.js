// @ts-check
// A finished game's review (the server's `review`, docs/protocol.md "Reviews"): where it
// was lost (the move number, the move played there, a move that kept the win and the line
// that wins from there, checked by the server's engine), or, for a won game, its moves
// over par and its longest detour. At a game's end a Review button asks for it and shows
// the board there; on the replay page the same button moves the replay to that position.
// `reviewLines` is pure (tests/review.test.js); the rest is the thin DOM layer.

import { button, count, h, replace } from "./dom.js";
import { drawBoard } from "./board.js";
import { errorText } from "./link.js";
import { holdFocus } from "./focus.js";
import { touchedPiles } from "./touched.js";

/** a winning line longer than this many moves is folded: its start shown, the rest on a tap */
export const LINE_FOLD = 40;
/** the moves a folded line shows */
export const LINE_PREVIEW = 24;

/** the review's board at most this wide and tall, in CSS pixels */
const REVIEW_WIDTH = 520;
const REVIEW_HEIGHT = 300;

/** @typedef {import("./types.js").App} App */
/** @typedef {import("./types.js").Message} Message */

/**
 * Where the replay shows the position, when its step is not the move's number (the
 * replay counts undos and hints: "move 6" was its step 11, the replay's row 6 another
 * move); else "".
 * @param {Message} r
 */
export function stepNote(r) {
  if (typeof r.at !== "number" || typeof r.step !== "number" || r.step === r.at) return "";
  return ` (step ${r.step} of its replay, which counts undos and hints, shows the board before it)`;
}

/**
 * The review in words: a title and its paragraphs (the winning line last, when there is one).
 * @param {Message} r the `review` reply
 * @param {string} [who] who played the game: "you", or on a replay page of another
 *   player's game their name (it said "you played deal there" of someone else's game)
 * @returns {{ title: string, lines: string[], line: string[] }}
 */
export function reviewLines(r, who = "you") {
  if (r.found === "over_par") {
    const source =
      r.par_from === "book"
        ? "the day's book line"
        : r.shortest
          ? "proved the shortest"
          : "the shortest line the review found in its time, not proved";
    const how = r.over > 0 ? `${r.over} over par` : r.over < 0 ? `${-r.over} under par` : "on par";
    const lines = [`Won in ${r.moves} moves: ${how} (${r.par}, ${source}).`];
    if (r.detour) {
      const last = r.detour.from + r.detour.moves - 1;
      lines.push(`The longest detour: moves ${r.detour.from} to ${last} came back to where they began.`);
    }
    return { title: "How far over par", lines, line: [] };
  }
  /** @type {string[]} */
  const lines = [];
  if (r.found === "lost_at")
    lines.push(
      `Until move ${r.move}${stepNote(r)} a player who knew the face-down cards could still have won: ${who} played ${r.played} there, and from then on no win was left.`,
    );
  else if (r.found === "between")
    lines.push(
      `At move ${r.move}${stepNote(r)} a player who knew the face-down cards could still have won (${who} played ${r.played} there)` +
        // (with no move proved lost after it, "Between them" named nothing)
        (r.lost_by !== null && r.lost_by !== undefined
          ? `; by move ${r.lost_by} no win was left. Between them the review could not decide in its time.`
          : "; the positions after it could not be decided in time."),
    );
  else if (r.found === "still_winnable")
    lines.push(
      r.moves
        ? `The game ended in a position a player who knew the face-down cards could still win (after ${count(r.moves, "move")}).`
        : r.status === "timeout"
          ? "Time ran out before the game's first move: a player who knew the face-down cards could win this deal."
          : "The game was resigned before its first move: a player who knew the face-down cards could win this deal.",
    );
  else if (r.found === "deal_lost")
    lines.push(
      `This deal could not be won, even by a player who knew the face-down cards: nothing ${who} did lost it.`,
    );
  else lines.push("The review could not decide, in its time, where a win was still possible.");
  if (r.better)
    // (a move first: "deal there kept the win" began its sentence in lower case)
    lines.push(
      `Playing ${r.better} there would have kept the win. A line that wins from there (checked by the rules engine):`,
    );
  return { title: "Where the game was lost", lines, line: Array.isArray(r.continuation) ? r.continuation : [] };
}

/**
 * The start of a winning line too long to show whole at first (a Light and Shade line
 * runs to 300 moves: forty lines of a phone's screen above the board), and the toggle's
 * words; null for a line short enough to show whole.
 * @param {string[]} line
 * @returns {{ start: string, more: string } | null}
 */
export function linePreview(line) {
  if (line.length <= LINE_FOLD) return null;
  return { start: `${line.slice(0, LINE_PREVIEW).join(" ")} …`, more: `all ${line.length} moves` };
}

/**
 * The review's text as elements: a long winning line folded to its start, opened on a
 * tap (the whole line is always in `.review-line`).
 * @param {Message} r
 * @param {string} [who] who played it (`reviewLines`)
 */
function reviewText(r, who = "you") {
  const { title, lines, line } = reviewLines(r, who);
  const whole = h("p", { class: "review-line" }, h("code", {}, line.join(" ")));
  const preview = linePreview(line);
  const shown = preview
    ? h(
        "details",
        { class: "review-more" },
        h("summary", {}, h("code", {}, preview.start), " ", h("span", { class: "review-all" }, preview.more)),
        whole,
      )
    : whole;
  return [h("h2", {}, title), ...lines.map((text) => h("p", {}, text)), line.length ? shown : null];
}

/**
 * What the review's small board marks, in words: the piles of the move played there and
 * of the one that kept the win, each said only where a pile of the board is ringed for
 * it ("" when none is).
 * @param {Message} r
 */
export function boardWords(r) {
  /** @type {string[]} */
  const words = [];
  if (typeof r.played === "string" && touchedPiles(r.played, r.view).length) words.push(`${r.played} ringed in orange`);
  if (typeof r.better === "string" && touchedPiles(r.better, r.view).length) words.push(`${r.better} in pink`);
  return words.length ? ` (${words.join(", ")})` : "";
}

/**
 * how a game that ended with a win still possible ended, in words
 * @type {Record<string, string>}
 */
const ENDED = { resigned: "the game was resigned", timeout: "time ran out" };

/**
 * The board the review shows, named as it is: the position before the move that lost
 * the game ("board before move 6"), or, for a game that ended still winnable, the one
 * it ended in, after its last move ("board where the game was resigned, after move 39":
 * "before move 40" named a move never played), as the terminal's review names it
 * (client_cli/review.py; "the game was resigned": the replay page may be another's).
 * @param {Message} r
 */
export function boardName(r) {
  if (r.found !== "still_winnable") return `board before move ${r.move}`;
  const ended = ENDED[String(r.status)] || "the game ended";
  const at = typeof r.at === "number" ? r.at : typeof r.move === "number" ? r.move - 1 : 0;
  return `board where ${ended}, ${at ? `after move ${at}` : "at the deal"}`;
}

/**
 * Ring on `board` the piles of `labels`, their labels shown even where a narrow board
 * hides a covered row's.
 * @param {Element} board
 * @param {string[]} labels
 * @param {string} name the class
 */
function mark(board, labels, name) {
  for (const label of labels) board.querySelector(`.pile[data-label="${CSS.escape(label)}"]`)?.classList.add(name);
}

/**
 * A Review button for a finished game; the review shown under it. With `onStep`, a
 * "Show that position" button hands it the replay step of the position (the replay
 * page); without, the board there is drawn under the text.
 * @param {App} app
 * @param {string} gameId the game's id (its replay's)
 * @param {(step: number) => void} [onStep]
 * @param {string} [who] who played the game: "you", or another player's name
 */
export function reviewBox(app, gameId, onStep, who = "you") {
  const box = h("div", { class: "review", "data-review": gameId });
  const note = h("p", { class: "note", role: "status" });
  const ask = async () => {
    note.textContent = "Reviewing: the server searches the game (up to ten seconds)…";
    /** @type {Message} */
    let r;
    try {
      r = await app.link.request("review", { game: gameId });
    } catch (error) {
      note.textContent = errorText(error);
      return;
    }
    const shown = reviewText(r, who);
    // Review pressed from the keyboard: the focus, which the button took with it, on what
    // replaced it (the review's first button, else the review itself)
    const focusBack = holdFocus(box);
    const landing = () => box.querySelector("button") ?? Object.assign(box, { tabIndex: -1 });
    if (onStep && typeof r.step === "number") {
      const step = r.step;
      replace(
        box,
        ...shown,
        h(
          "p",
          {},
          button(`Show the ${boardName(r)}`, () => onStep(step), { "data-act": "review-step" }),
        ),
      );
      focusBack(landing);
      onStep(step);
      return;
    }
    // (a game that ended still winnable is reviewed at its end: the game's own board above)
    const view = r.found === "still_winnable" ? null : r.view;
    const board = h("div", { class: "board review-board" });
    const marked = view ? boardWords(r) : "";
    replace(box, ...shown, view ? h("p", { class: "muted" }, `The ${boardName(r)}${marked}:`) : null, board);
    focusBack(landing);
    // a small board: the game's own stays the larger on the screen
    const width = Math.min(box.clientWidth || REVIEW_WIDTH, REVIEW_WIDTH);
    if (view) {
      drawBoard(board, view, { legal: [], picked: null, width, height: REVIEW_HEIGHT, still: true });
      mark(board, touchedPiles(r.played, view), "played");
      mark(board, touchedPiles(r.better, view), "hinted");
    }
  };
  replace(box, button("Review", ask, { "data-act": "review" }), note);
  return box;
}
