// @ts-check
// Building the page: every text goes in as a text node, never as HTML, so nothing a
// player or the server wrote can become markup.

/**
 * What an element may be given as a child: a node, a text (a number is written out), a
 * list of them, or nothing (null, undefined, false: skipped).
 * @typedef {Node | string | number | null | undefined | false | Child[]} Child
 */

/**
 * An element: its attributes (`class`; `dataset`, an object; `onEVENT`, a listener; the
 * rest set as attributes, `true` as an empty one, null/undefined/false left out) and its
 * children.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any>} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  node.append(...nodes(children));
  return node;
}

/**
 * Children as the DOM takes them: nodes and texts (a text becomes a text node, never
 * markup), nothing for null, undefined or false.
 * @param {Child[]} children
 * @returns {(Node | string)[]}
 */
function nodes(children) {
  const out = [];
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    out.push(child instanceof Node ? child : String(child));
  }
  return out;
}

/**
 * Put `children` in place of what `node` holds.
 * @param {Element} node
 * @param {...Child} children
 */
export function replace(node, ...children) {
  node.replaceChildren(...nodes(children));
}

/**
 * Put `children` in place of what `node` holds but `kept`, which stays where it is: a
 * live region taken out and put back is a new one to a screen reader, and is not heard.
 * @param {Element} node
 * @param {Node} kept
 * @param {...Child} children
 */
export function replaceKeeping(node, kept, ...children) {
  for (const child of [...node.childNodes]) if (child !== kept) child.remove();
  node.append(...nodes(children));
}

/**
 * A duration as a clock shows it: "0:07", "12:34", "1:02:03".
 * @param {number} ms
 */
export function clock(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

/**
 * A finish time to the tenth of a second ("1:23.4"), as boards and results rank them:
 * to the second, two times a board puts apart could read the same (the terminal's too).
 * @param {number} ms
 */
export function finishTime(ms) {
  return `${clock(ms)}.${Math.floor(Math.max(0, ms) / 100) % 10}`;
}

/**
 * How a game ended, in the words people say it: the protocol's `timeout` is "time ran
 * out" (it read like a fault of the software); the rest as they are.
 * @param {string} status
 */
export function statusText(status) {
  return status === "timeout" ? "time ran out" : status;
}

/**
 * What Resign asks before a game of `kind` ends (the terminal asks the same): what ends,
 * and where its result goes.
 * @param {string | undefined} kind the game's: solo, daily, practice, race, challenge
 * @param {boolean} [table] a challenge's game whose result goes on its table (a quick
 *   race's ghosts keep none)
 */
export function resignQuestion(kind, table = true) {
  if (kind === "race") return "Resign this race? Your game ends here; the race goes on.";
  if (kind === "daily") return "Resign today's ranked attempt? It goes on the board as it stands.";
  if (kind === "practice") return "Resign this practice? It ends as it stands (not ranked).";
  if (kind === "challenge")
    return table
      ? "Resign? Your result goes on the challenge's table as it stands."
      : "Resign? Your game ends as it stands.";
  return "Resign this game? It ends as it stands.";
}

/** The way back to the games, under a screen's refusal. */
export function backToGames() {
  return h("p", {}, h("a", { href: "/play#home" }, "Back to the games"));
}

/**
 * A screen that says `text` (and `more`, where given), with the way back to the games
 * (main.js's, where a screen cannot be shown: a room refused, a module not loaded).
 * @param {string} text
 * @param {string | null} [more]
 * @returns {import("./types.js").Screen}
 */
export function messageScreen(text, more = null) {
  return { root: h("section", {}, h("p", { class: "note" }, text), more ? h("p", {}, more) : null, backToGames()) };
}

/**
 * A link that opens in a new tab, saying so (a screen reader's user was not told).
 * @param {string} href
 * @param {string} text
 */
export function newTabLink(href, text) {
  return h(
    "a",
    { href, target: "_blank", rel: "noopener" },
    text,
    h("span", { class: "spoken" }, " (opens in a new tab)"),
  );
}

/**
 * @param {Child} text
 * @param {(event: MouseEvent) => unknown} onclick
 * @param {Record<string, any>} [attrs]
 */
export function button(text, onclick, attrs = {}) {
  return h("button", { type: "button", onclick, ...attrs }, text);
}

/**
 * "1 move", "2 moves"
 * @param {number} n
 * @param {string} word
 */
export function count(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * A board's box watched as the page lays it out: `seen` is its size in whole pixels as last
 * laid out (null until the first report), and `changed` hears each change, so a draw reads
 * no layout of its own.
 */
export class BoxWatch {
  /**
   * @param {HTMLElement} node
   * @param {() => void} changed
   */
  constructor(node, changed) {
    /** @type {{ width: number, height: number } | null} */
    this.seen = null;
    this.observer = new ResizeObserver(([entry]) => {
      const width = Math.floor(entry.contentRect.width);
      const height = Math.floor(entry.contentRect.height);
      if (this.seen && this.seen.width === width && this.seen.height === height) return;
      this.seen = { width, height };
      changed();
    });
    this.observer.observe(node);
  }

  /** The size to draw in: as seen, else a guess from the window's width, height unbounded. */
  size() {
    return this.seen || { width: Math.min(window.innerWidth - 16, 1100), height: Infinity };
  }

  stop() {
    this.observer.disconnect();
  }
}

/**
 * Say when a field's text (its ends trimmed) is longer than `most` characters, as a paste
 * makes it: `told` the words ("" once it fits again), and the field held invalid meanwhile,
 * so that its form is not sent. (A maxlength cut a paste to its first `most` characters
 * without a word.)
 * @param {HTMLInputElement} input
 * @param {number} most
 * @param {string} what "A name", "A group's name"
 * @param {(text: string) => void} told
 * @returns {(value: string) => string} the words for a value: "" where it fits
 */
export function heldTo(input, most, what, told) {
  const over = (/** @type {string} */ value) =>
    value.length > most ? `${what} has at most ${most} characters: this one has ${value.length}.` : "";
  input.addEventListener("input", () => {
    const said = over(input.value.trim());
    input.setCustomValidity(said);
    told(said);
  });
  return over;
}
