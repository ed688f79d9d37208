// @ts-check
// The board: one renderer for every game, from the layout data in the view (as the
// terminal client's render.py): each pile has a label, a kind, a place on a table grid
// (x columns, y rows growing downwards), a fan (down, right or none), its face-up cards
// and a count of face-down ones. The renderer knows no game; which piles light up comes
// from the legal moves the server sent.
//
// The board fits the box it is given, width and height (layout.js works out the sizes):
// the cards take the width first, and where the board would then be too tall its fans
// close up, rows of single cards half cover the row before (as Babette's seed lays a
// long garden), the middle of a long fan squares up, and only then do the cards shrink
// (small, they take their rows' labels into their corners, at the foot of each top card).
// The sizes go to the board as custom properties (--cw, --ch) that the style sheet sizes
// every card from; the piles are placed in pixels. Nothing here reads the page's layout:
// one draw is one write of the board.

import { h } from "./dom.js";
import { cardBack, cardFace, cardName } from "./cards.js";
import { movePiles } from "./clicks.js";
import { GAP, arrange, fannedRight, small } from "./layout.js";
import { pickedTargets } from "./touched.js";

/** @typedef {import("./types.js").Message} Message */
/** @typedef {import("./layout.js").Pile} Pile */

/**
 * What a board is drawn with besides its view: the legal moves (none: nothing lights up),
 * the pile picked, and the room it has in pixels (height Infinity, or none: its natural
 * height); `still`: a board to look at, not to play (a replay's, a review's): its piles
 * are no buttons, nor stops of Tab's.
 * @typedef {{ legal: string[], picked: string | null, width: number, height?: number, still?: boolean }} BoardState
 */

/**
 * A cell of The Wedge's path: the arrow toward the next cell ("" at its end) and that
 * cell's label (null at the end).
 * @typedef {{ arrow: string, next: string | null }} PathStep
 */

// kinds whose count of cards beneath the top card is not shown (the progress says it)
const HOME_KINDS = new Set(["foundation", "foundation-up", "foundation-down", "discard"]);
// view fields whose value names a pile the board marks (The Wedge)
const MARKING_FIELDS = ["wedge"];
// what a pile of each kind is called in its accessible name (a kind not here: its own name)
/** @type {Record<string, string>} */
const KIND_NAMES = {
  "foundation-up": "foundation up",
  "foundation-down": "foundation down",
  "reserve-card": "reserve card",
};
/** @type {Record<string, string>} */
const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
/** @type {Record<string, string>} */
const SUIT_NAMES = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };

// a card's corner (its rank and suit), in card widths (app.css: .card's font size), and a
// label inside a card, in pixels
const INDEX = 0.34;
const INNER_LABEL = 12;
// the legend under the board (The Wedge's path): a line, two on a narrow board, in pixels
const LEGEND_LINE = 17;

// The Wedge's path (the view's `path`: the cells the Wedge and the cards ahead of it step
// through, to its exit): for each cell but the last, the arrow toward the next one.
/**
 * @param {Message} view
 * @param {Pile[]} piles
 * @returns {Map<string, PathStep>} by the cell's label, in the path's order
 */
function pathArrows(view, piles) {
  /** @type {string[]} */
  const path = Array.isArray(view.path) ? view.path.map(String) : [];
  const at = new Map(piles.map((p) => [p.label, p]));
  /** @type {Map<string, PathStep>} */
  const arrows = new Map();
  path.forEach((label, i) => {
    const here = at.get(label);
    const next = at.get(path[i + 1]);
    if (!here) return;
    if (!next) {
      arrows.set(label, { arrow: "", next: null });
      return;
    }
    const arrow = next.x < here.x ? "←" : next.x > here.x ? "→" : next.y > here.y ? "↓" : "↑";
    arrows.set(label, { arrow, next: next.label });
  });
  return arrows;
}

/**
 * `value` held to low..high where it is an integer, else `low`.
 * @param {unknown} value
 * @param {number} low
 * @param {number} high
 */
function int(value, low, high) {
  return typeof value === "number" && Number.isInteger(value) ? Math.min(Math.max(value, low), high) : low;
}

/**
 * The view's piles, each field read defensively (a missing or odd one has a default).
 * @param {Message | null | undefined} view
 * @returns {Pile[]}
 */
export function pilesOf(view) {
  /** @type {Record<string, unknown>[]} the view's piles that are maps, their fields not yet read */
  const raw =
    view && Array.isArray(view.piles)
      ? view.piles.filter((/** @type {unknown} */ p) => p && typeof p === "object")
      : [];
  return raw.map((p) => ({
    label: String(p.label ?? "?").slice(0, 8),
    kind: String(p.kind ?? ""),
    x: int(p.x, 0, 60),
    y: int(p.y, 0, 60),
    fan: String(p.fan ?? "none"),
    cards: Array.isArray(p.cards) ? p.cards.map(String) : [],
    down: int(p.down, 0, 9999),
  }));
}

// A foundation that climbs or falls (`uc`, `dc2`: The Labyrinth's, Babette's, The
// Blockade in tens') is captioned with its way and suit, "up ♣", so that its name is not
// taken for a column `d1` or the grace `g`; null for any other pile.
/**
 * @param {Pile} p
 * @returns {{ long: string, short: string, spoken: string } | null}
 */
export function caption(p) {
  const way = p.kind === "foundation-up" ? "up" : p.kind === "foundation-down" ? "down" : null;
  const suit = /^[ud]([cdhs])\d?$/.exec(p.label);
  if (!way || !suit) return null;
  return {
    long: `${way} ${SUITS[suit[1]]}`,
    short: `${way === "up" ? "↑" : "↓"}${SUITS[suit[1]]}`,
    spoken: `${SUIT_NAMES[suit[1]]} ${way}`,
  };
}

// What a pile says to a screen reader: its kind, its label, its top card and how many
// cards it holds ("bar t1: 9 of hearts, 3 cards"); face-down cards are counted, never named.
// A fanned pile (a column, The Gate's posts and bars, a talon or waste spread to the
// right) shows more than its top card: those are said too, the top one first (the one a
// move takes: a long fan's first words are the ones that matter), then the rest down to
// the lowest face-up card drawn ("post l: 2 of diamonds on top, then 2 of spades, 9 of
// clubs, knave of hearts, 8 of spades; 5 cards").
/** @param {Pile} p */
export function pileName(p) {
  const named = caption(p);
  const kind = named ? `foundation, ${named.spoken},` : KIND_NAMES[p.kind] || p.kind.replace(/-/g, " ");
  /** @type {string[]} */
  const what = [];
  const total = p.cards.length + p.down;
  const seen = shownCards(p);
  /** @type {string} what is on it, the count aside */
  let cards = "";
  if (seen.length > 1)
    cards = `${cardName(seen[seen.length - 1])} on top, then ${seen.slice(0, -1).reverse().map(cardName).join(", ")}`;
  else if (p.cards.length) cards = cardName(p.cards[p.cards.length - 1]);
  if (p.cards.length && total > 1) what.push(`${total} cards`);
  if (p.down) what.push(`${p.down} ${p.cards.length ? "" : p.down === 1 ? "card " : "cards "}face down`);
  const said = seen.length > 1 ? `${cards}; ${what.join(", ")}` : [cards, ...what].filter(Boolean).join(", ");
  // (Nestor's reserve is labelled `reserve`: "reserve reserve" said it twice)
  return `${kind === p.label ? kind : `${kind} ${p.label}`}: ${said || "empty"}`;
}

/**
 * The face-up cards of `p` a sighted player sees, lowest first: a fan's all (down, or
 * to the right), a waste's fanned top three, else its top card alone.
 * @param {Pile} p
 * @returns {string[]}
 */
export function shownCards(p) {
  if (p.fan === "down") return p.cards;
  return fannedRight(p) ?? p.cards.slice(-1);
}

/**
 * What a pile can do now, said after its name (its description): a pile a legal move
 * starts from "can move"; once one is picked, a pile its moves go to "can take from t2"
 * (a pair's other half "pairs with 3"); "" for any other. The drawing's lit labels and
 * outlines say it to the eye.
 * @param {string} label
 * @param {{ playable: boolean, target: boolean, picked: string | null, pairs: boolean }} state
 */
export function pileState(label, { playable, target, picked, pairs }) {
  if (target && picked !== null && picked !== label) return pairs ? `pairs with ${picked}` : `can take from ${picked}`;
  return playable ? "can move" : "";
}

/**
 * The pile `target` is on (the pile itself or something in it) and its label, or null.
 * @param {EventTarget | null} target
 * @returns {{ pile: HTMLElement, label: string } | null}
 */
export function pileAt(target) {
  const pile = target instanceof Element ? target.closest(".pile") : null;
  if (!(pile instanceof HTMLElement) || pile.dataset.label === undefined) return null;
  return { pile, label: pile.dataset.label };
}

/**
 * The width of `view`'s cards drawn in `width` x `height` pixels (The Wedge's legend under it).
 * @param {Message} view
 * @param {number} width
 * @param {number} height
 */
export function cardWidth(view, width, height) {
  const piles = pilesOf(view);
  const path = pathArrows(view, piles).size > 0;
  const legend = path ? legendLines(width) * LEGEND_LINE : 0;
  return arrange(piles, width, height - legend, { fold: !path }).size.cw;
}

/** the lines the Wedge's legend takes in a board `width` pixels wide @param {number} width */
const legendLines = (width) => (width < 520 ? 2 : 1);

/**
 * How tall `view` is drawn `width` pixels wide with room to spare (its cards at their
 * largest for the width, nothing covered), in pixels.
 * @param {Message} view
 * @param {number} width
 */
export function easeHeight(view, width) {
  const piles = pilesOf(view);
  const path = pathArrows(view, piles).size > 0;
  const legend = path ? legendLines(width) * LEGEND_LINE : 0;
  return arrange(piles, width, Infinity, { fold: !path }).size.height + legend;
}

// Draw `view` into `root`. `state`: legal (list), picked (label or null), width and
// height (px: the room the board has; height Infinity lays it out at its natural size).
/**
 * @param {Element} root
 * @param {Message} view
 * @param {BoardState} state
 * @returns {Pile[]} the piles drawn
 */
export function drawBoard(root, view, state) {
  const path = pathArrows(view, pilesOf(view));
  const lines = legendLines(state.width);
  const legend = path.size
    ? h(
        "p",
        { class: "legend" },
        `◀ the Wedge steps along the arrows as ${[...path.keys()].pop()} empties; cards on them cannot move`,
      )
    : null;
  if (legend) legend.style.height = `${lines * LEGEND_LINE}px`;
  // folded on a narrow screen (layout.js), the fold it was last drawn with kept on the root
  const kept = root instanceof HTMLElement && root.dataset.fold ? Number(root.dataset.fold) : null;
  const room = (state.height ?? Infinity) - (legend ? lines * LEGEND_LINE : 0);
  const { piles, size, cut } = arrange(pilesOf(view), state.width, room, { fold: !path.size, kept });
  if (root instanceof HTMLElement) root.dataset.fold = cut === null ? "" : String(cut);
  const { cw, ch, step, tight, keep } = size;
  const playable = new Set(state.legal.flatMap(movePiles));
  const lit = state.picked ? pickedTargets(state.picked, state.legal, view) : new Set();
  const picked = state.picked;
  const pairs = picked !== null && state.legal.some((m) => m.includes("+") && movePiles(m).includes(picked));
  const marks = new Map();
  for (const field of MARKING_FIELDS) if (typeof view[field] === "string") marks.set(view[field], field);
  // a covered row's labels go in its cards' top right corners: under the corner's rank and
  // suit where the card shows enough of itself, else as low in what it shows as they go,
  // over the foot of the suit at worst (on a narrow board, then hidden but for the piles
  // a line or the legend names)
  const index = Math.ceil(cw * INDEX) + 2;
  const below = size.cover >= index + INNER_LABEL;
  // (small: piles smaller than a tap needs, where even a phone's whole height is too
  // little; app.css then asks a phone on its side to be turned upright)
  // a board to look at is a list of its piles: a screen reader says each apart (their
  // names had run on as one paragraph at a game's end)
  const board = h("div", {
    class: `board${cw < 44 ? " narrow" : ""}${small(size) ? " small" : ""}`,
    role: state.still ? "list" : null,
    "aria-label": state.still ? "the board" : null,
  });
  board.style.setProperty("--label-top", `${Math.floor(Math.min(index, Math.max(1, size.cover - INNER_LABEL)))}px`);
  board.style.setProperty("--label-below", `${index}px`);
  board.style.setProperty("--cw", `${cw}px`);
  board.style.setProperty("--ch", `${ch}px`);
  board.style.setProperty("--step", `${step}px`);
  board.style.setProperty("--label", `${size.label}px`);
  board.style.height = `${size.height}px`;
  board.style.width = `${size.width}px`;
  // in reading order: the tab order, and a lower row drawn over the row it half covers
  const order = [...piles].sort((a, b) => a.y - b.y || a.x - b.x);
  for (const p of order) {
    const row = size.rows[p.y];
    const classes = ["pile", `kind-${p.kind.replace(/[^a-z-]/g, "")}`];
    if (playable.has(p.label)) classes.push("playable");
    if (state.picked === p.label) classes.push("picked");
    if (lit.has(p.label)) classes.push("target");
    if (marks.has(p.label)) classes.push("marked");
    if (!row.outer) classes.push("inner-label");
    // (a row covered shows `cover` pixels of its cards; the last of a garden, them whole)
    if (row.foot) classes.push("label-foot");
    else if (!row.outer && (below || !row.covered)) classes.push("label-below");
    const onPath = path.get(p.label);
    if (onPath) classes.push("on-path");
    // (what it can do now, its description: its name stays what is on it)
    const can = state.still
      ? ""
      : pileState(p.label, { playable: playable.has(p.label), target: lit.has(p.label), picked, pairs });
    const pile = h("div", {
      class: classes.join(" "),
      dataset: { label: p.label, pile: p.label },
      role: state.still ? "listitem" : "button",
      tabindex: state.still ? null : 0,
      "aria-pressed": state.picked === p.label ? "true" : null,
      "aria-describedby": can ? `can-${p.label}` : null,
    });
    if (can) pile.append(h("span", { class: "spoken", id: `can-${p.label}`, "aria-hidden": "true" }, can));
    // its name from its content: the words below, read out; what is drawn is hidden from
    // screen readers (a name given by aria-label would not hold the label seen on the pile)
    pile.append(
      h(
        "span",
        { class: "spoken" },
        pileName(p) + (onPath ? `; on the Wedge's path${onPath.next ? `, toward ${onPath.next}` : ", its end"}` : ""),
      ),
    );
    pile.style.left = `${p.x * (cw + GAP)}px`;
    pile.style.top = `${row.top}px`;
    const named = caption(p);
    pile.append(
      h(
        "div",
        { class: "label", "aria-hidden": "true", title: named ? `${named.spoken} (${p.label})` : null },
        named ? [h("span", { class: "long" }, named.long), h("span", { class: "short" }, named.short)] : p.label,
        onPath && onPath.arrow ? h("span", { class: "arrow" }, onPath.arrow) : null,
      ),
    );
    // what the cards show is in the pile's name; read out, they would only repeat it
    const stack = h("div", { class: "stack", "aria-hidden": "true" });
    const shown = fannedRight(p); // the cards it spreads to its right, if it does
    if (p.down > 0 && p.cards.length === 0) stack.append(cardBack(p.down));
    else if (p.cards.length === 0) stack.append(h("div", { class: "card empty" }));
    else if (p.fan === "down") {
      // the bottom card and the top `keep` show their corners; the middle may square up
      const squared = Math.max(0, p.cards.length - 2 - keep);
      let top = 0;
      p.cards.forEach((code, i) => {
        const card = cardFace(code);
        // a card with one on it shows a strip of `step`: its corner is kept within it
        // (app.css), where it was cut to its top, and a J read as an I, a Q as an O
        if (i < p.cards.length - 1) card.classList.add("fanned");
        // (a squared card shows `tight`: its corner kept within that, where it shows one)
        if (i >= 1 && i <= squared && tight < step) card.style.setProperty("--step", `${tight}px`);
        card.style.top = `${top}px`;
        stack.append(card);
        top += i >= 1 && i <= squared ? tight : step;
      });
      stack.style.height = `${top - step + ch}px`;
    } else if (shown && shown.length > 1) {
      shown.forEach((code, i) => {
        const card = cardFace(code);
        card.style.left = `${i * Math.round(cw * size.rightFan)}px`;
        stack.append(card);
      });
      const under = p.cards.length - shown.length;
      if (under > 0) stack.append(h("span", { class: "more under" }, `+${under}`));
    } else {
      const card = cardFace(p.cards[p.cards.length - 1]);
      stack.append(card);
      if (p.cards.length > 1 && !HOME_KINDS.has(p.kind))
        stack.append(h("span", { class: "more" }, `+${p.cards.length - 1}`));
    }
    if (marks.has(p.label)) stack.append(h("span", { class: "mark", title: marks.get(p.label) }, "◀"));
    pile.append(stack);
    board.append(pile);
  }
  if (legend) root.replaceChildren(board, legend);
  else root.replaceChildren(board);
  return piles;
}
