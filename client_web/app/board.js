// The board: one renderer for every game, from the layout data in the view (as the
// terminal client's render.py): each pile has a label, a kind, a place on a table grid
// (x columns, y rows growing downwards), a fan (down, right or none), its face-up cards
// and a count of face-down ones. A grid row starts below the tallest pile of the row
// above it, so fans never run into the next row; card size follows the board's width,
// down to a 360-pixel phone. The renderer knows no game; which piles light up comes
// from the legal moves the server sent.

import { h } from "./dom.js";
import { cardBack, cardFace } from "./cards.js";
import { movePiles, targets } from "./clicks.js";

// kinds whose count of cards beneath the top card is not shown (the progress says it)
const HOME_KINDS = new Set(["foundation", "foundation-up", "foundation-down", "discard"]);
// view fields whose value names a pile the board marks (The Wedge)
const MARKING_FIELDS = ["wedge"];

// a waste shows its top cards fanned to the right (the ones to come after the top card),
// as many as WASTE_FAN; a pile fanned right shows them all
const WASTE_FAN = 3;
// how far each card of a pile fanned right is from the one beneath, in card widths
const RIGHT_FAN = 0.5;

function fannedRight(p) {
  if (p.fan === "right") return p.cards;
  if (p.kind === "waste" && p.fan === "none") return p.cards.slice(-WASTE_FAN);
  return null;
}

// the cards beyond the first that a pile spreads to its right
function spread(p) {
  const cards = fannedRight(p);
  return cards ? Math.max(0, cards.length - 1) : 0;
}

function int(value, low, high) {
  return Number.isInteger(value) ? Math.min(Math.max(value, low), high) : low;
}

export function pilesOf(view) {
  const raw = Array.isArray(view && view.piles) ? view.piles : [];
  return raw
    .filter((p) => p && typeof p === "object")
    .map((p) => ({
      label: String(p.label ?? "?").slice(0, 8),
      kind: String(p.kind ?? ""),
      x: int(p.x, 0, 60),
      y: int(p.y, 0, 60),
      fan: String(p.fan ?? "none"),
      cards: Array.isArray(p.cards) ? p.cards.map(String) : [],
      down: int(p.down, 0, 9999),
    }));
}

// Draw `view` into `root`. `state`: legal (list), picked (label or null), width (px).
export function drawBoard(root, view, state) {
  const piles = pilesOf(view);
  const columns = Math.max(1, ...piles.map((p) => p.x + 1 + spread(p) * RIGHT_FAN));
  const gap = 4;
  const cw = Math.max(20, Math.min(72, Math.floor((state.width - gap) / columns) - gap));
  const ch = Math.round(cw * 1.4);
  const fan = Math.max(12, Math.round(ch * 0.26));
  const labelH = 15;
  const heightOf = (p) => labelH + ch + (p.fan === "down" && p.cards.length > 1 ? fan * (p.cards.length - 1) : 0);
  const maxY = Math.max(0, ...piles.map((p) => p.y));
  const tops = [];
  let top = 0;
  for (let y = 0; y <= maxY; y += 1) {
    tops[y] = top;
    const row = piles.filter((p) => p.y === y);
    top += row.length ? Math.max(...row.map(heightOf)) + gap * 2 : Math.round(ch * 0.2);
  }
  const playable = new Set(state.legal.flatMap(movePiles));
  const lit = state.picked ? targets(state.picked, state.legal, piles) : new Set();
  const marks = new Map();
  for (const field of MARKING_FIELDS) if (typeof view[field] === "string") marks.set(view[field], field);
  const board = h("div", { class: "board", style: null });
  board.style.setProperty("--cw", `${cw}px`);
  board.style.setProperty("--ch", `${ch}px`);
  board.style.height = `${top}px`;
  board.style.width = `${Math.ceil(columns * (cw + gap))}px`;
  for (const p of piles) {
    const classes = ["pile", `kind-${p.kind.replace(/[^a-z-]/g, "")}`];
    if (playable.has(p.label)) classes.push("playable");
    if (state.picked === p.label) classes.push("picked");
    if (lit.has(p.label)) classes.push("target");
    if (marks.has(p.label)) classes.push("marked");
    const pile = h("div", { class: classes.join(" "), dataset: { label: p.label, pile: p.label }, role: "button", "aria-label": `pile ${p.label}` });
    pile.style.left = `${p.x * (cw + gap)}px`;
    pile.style.top = `${tops[p.y]}px`;
    pile.append(h("div", { class: "label" }, p.label));
    const stack = h("div", { class: "stack" });
    if (p.down > 0 && p.cards.length === 0) stack.append(cardBack(p.down));
    else if (p.cards.length === 0) stack.append(h("div", { class: "card empty" }));
    else if (p.fan === "down") {
      p.cards.forEach((code, i) => {
        const card = cardFace(code);
        card.style.top = `${i * fan}px`;
        stack.append(card);
      });
    } else if (fannedRight(p) && fannedRight(p).length > 1) {
      const shown = fannedRight(p);
      shown.forEach((code, i) => {
        const card = cardFace(code);
        card.style.left = `${i * Math.round(cw * RIGHT_FAN)}px`;
        stack.append(card);
      });
      const under = p.cards.length - shown.length;
      if (under > 0) stack.append(h("span", { class: "more under" }, `+${under}`));
    } else {
      const card = cardFace(p.cards[p.cards.length - 1]);
      stack.append(card);
      if (p.cards.length > 1 && !HOME_KINDS.has(p.kind)) stack.append(h("span", { class: "more" }, `+${p.cards.length - 1}`));
    }
    if (marks.has(p.label)) stack.append(h("span", { class: "mark", title: marks.get(p.label) }, "◀"));
    pile.append(stack);
    board.append(pile);
  }
  root.replaceChildren(board);
  return piles;
}
