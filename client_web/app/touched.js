// @ts-check
// The piles a move moves cards from or to, on the board before it: those it names, or for
// a word move (`deal`, `redeal`, Nestor's `reserve`) the piles the game's rules deal from
// and to (server/engine/games/, docs/games/). Pure: the review's board rings the move
// played and the better one with it (review.js), a game's board its hint (game.js), and
// a picked pile its targets (board.js).
// Only what the player can see: where a card turned up from the stock goes on its own
// (The Gate's aces and kings to their foundations) is not known before it is turned.

import { candidates, targets } from "./clicks.js";

/** @typedef {import("./types.js").Message} Message */

/** @typedef {{ label: string, kind: string, cards: string[], down?: number }} Pile */

/** a pile's cards, face up and face down @param {Pile} pile */
const size = (pile) => pile.cards.length + (pile.down || 0);

/** a garden's cell's row (`c3`: "3"), "" for any other pile @param {Pile} pile */
const row = (pile) => (pile.kind === "cell" && /^[a-z]+(\d+)$/.exec(pile.label)?.[1]) || "";

/** a post's full height in The Gate (docs/games/gate.md: a deal fills it back to five) */
const POST_SIZE = 5;

/**
 * The Gate's `deal` (docs/games/gate.md): with a vacancy (an empty bar cell, a post of
 * fewer than five cards), every vacancy filled in deal order (the left post, the bars,
 * the right post) from the stock, then the waste heap; the Gate complete, a stock card
 * turned onto the waste heap.
 * @param {Pile[]} piles
 * @returns {Pile[]}
 */
function gateDeal(piles) {
  const stock = piles.find((p) => p.kind === "stock");
  const waste = piles.find((p) => p.kind === "waste");
  const [left, right] = piles.filter((p) => p.kind === "post");
  const order = [left, ...piles.filter((p) => p.kind === "bar"), right].filter(Boolean);
  const want = (/** @type {Pile} */ p) => (p.kind === "post" ? POST_SIZE : 1) - size(p);
  if (!order.some((p) => want(p) > 0)) return [stock, waste].filter((p) => p !== undefined);
  let fromStock = stock ? size(stock) : 0;
  let fromWaste = waste ? size(waste) : 0;
  /** @type {Set<Pile>} */
  const touched = new Set();
  for (const pile of order)
    for (let n = want(pile); n > 0 && fromStock + fromWaste > 0; n--) {
      touched.add(pile);
      if (fromStock) {
        fromStock--;
        if (stock) touched.add(stock);
      } else {
        fromWaste--;
        if (waste) touched.add(waste);
      }
    }
  return [...touched];
}

/**
 * A garden's `deal` (Babette, The Labyrinth, The Blockade: server/engine/games/grid.py):
 * the lowest row's vacancies filled left to right from the stock, where the game refills
 * them, else a new row laid (off the board before it: only the stock to ring).
 * @param {Pile[]} piles
 * @param {Message} view
 * @param {boolean} refills
 */
function gardenDeal(piles, view, refills) {
  const stock = piles.find((p) => p.kind === "stock");
  if (!stock) return [];
  const lowest = String(view.rows);
  const vacant = refills ? piles.filter((p) => row(p) === lowest && !size(p)) : [];
  return [stock, ...vacant.slice(0, size(stock))];
}

/**
 * Babette's `redeal`: the garden taken up into the stock, and its first row laid again.
 * @param {Pile[]} piles
 */
function redeal(piles) {
  const stock = piles.find((p) => p.kind === "stock");
  const cells = piles.filter((p) => row(p) && (size(p) || row(p) === "1"));
  return stock ? [stock, ...cells] : cells;
}

/**
 * A stock turned onto the pile beside it (The Wedge's waste heap, Light and Shade's talon).
 * @param {Pile[]} piles
 */
function turnStock(piles) {
  return piles.filter((p) => ["stock", "waste", "talon"].includes(p.kind));
}

/**
 * Nestor's `reserve`: the reserve's top card turned up into the next free place of the
 * row under it (r1 for the first of four, r4 for the last).
 * @param {Pile[]} piles
 */
function turnReserve(piles) {
  const reserve = piles.find((p) => p.kind === "reserve");
  if (!reserve) return [];
  const slots = piles.filter((p) => p.kind === "reserve-card");
  const slot = slots[slots.length - size(reserve)];
  return slot ? [reserve, slot] : [reserve];
}

/**
 * The word moves (a move that names no pile), by game, and the piles each moves cards
 * from and to, given the board before it (server/engine/games/, docs/games/).
 * @type {Record<string, Record<string, (piles: Pile[], view: Message) => Pile[]>>}
 */
const WORDS = {
  gate: { deal: gateDeal },
  "gate-narrow": { deal: gateDeal },
  babette: { deal: (piles, view) => gardenDeal(piles, view, false), redeal },
  labyrinth: { deal: (piles, view) => gardenDeal(piles, view, true) },
  blockade: { deal: (piles, view) => gardenDeal(piles, view, true) },
  "blockade-ten": { deal: (piles, view) => gardenDeal(piles, view, true) },
  wedge: { deal: turnStock },
  "light-and-shade": { deal: turnStock },
  nestor: { reserve: turnReserve },
};

const RANK_ORDER = "A23456789TJQK";
/** @param {string} code */
const rankOf = (code) => RANK_ORDER.indexOf(code[0]) + 1;
/** @param {string} code */
const red = (code) => code[1] === "D" || code[1] === "H";

/**
 * The foundation a card goes to where a move names the foundations by a letter no pile
 * has (The Gate's `r>f`, Babette's `b1>u`, The Labyrinth's `i1>d`): of the home piles
 * whose label starts with it, the first the card fits, by its suit where the label names
 * one (`fc`, `uh`, `fs2`), else in the other colour (Light and Shade's `f1`..`f8`); a
 * rank up, or on a foundation that builds down a rank down. Null where none fits.
 * @param {string} letter
 * @param {string} card
 * @param {Pile[]} piles
 * @returns {string | null}
 */
function homeFor(letter, card, piles) {
  const rank = rankOf(card);
  for (const p of piles) {
    if (!p.kind.startsWith("foundation") || !p.label.startsWith(letter)) continue;
    const suit = /^[a-z]([cdhs])\d*$/.exec(p.label)?.[1];
    const top = p.cards[p.cards.length - 1];
    if (suit ? suit !== card[1].toLowerCase() : top && red(top) === red(card)) continue;
    const down = p.kind === "foundation-down";
    const under = top ? rankOf(top) : down ? 14 : 0;
    if (rank === (down ? under - 1 : under + 1)) return p.label;
  }
  return null;
}

/**
 * The piles of `view` (the board before the move) that `move` moves cards from or to:
 * those it names (`j3>d`: j3, and d if a pile is so named, else the foundation its card
 * goes to; `1+7`: both), or for a word
 * (`deal`, `redeal`, Nestor's `reserve`) the piles it deals from and to (The Gate's stock
 * and waste heap, or the vacancies it fills; another game's word, the stock). Labels
 * of piles on the board only: none where nothing can be ringed.
 * @param {unknown} move
 * @param {Message | null | undefined} view
 * @returns {string[]}
 */
export function touchedPiles(move, view) {
  if (typeof move !== "string" || !move || !view || !Array.isArray(view.piles)) return [];
  /** @type {Pile[]} */
  const piles = view.piles;
  const labels = new Set(piles.map((p) => p.label));
  if (!/[>:+]/.test(move)) {
    const word = (WORDS[view.game] || {})[move];
    if (word) {
      const moved = new Set(word(piles, view));
      return piles.filter((p) => moved.has(p)).map((p) => p.label); // (in the board's order)
    }
    // (a word of a game not listed: at least the stock it deals from)
    if (!labels.has(move)) return piles.filter((p) => p.kind === "stock").map((p) => p.label);
  }
  const named = move.split(/[>:+]/);
  // a card sent home to "the foundations" (`r>f`): the one it goes on, which the player
  // looks for (the hint named a pile shown nowhere, and rang only where the card was)
  const [from, to] = named;
  const top = piles.find((p) => p.label === from)?.cards.at(-1);
  if (move.includes(">") && to && !labels.has(to) && top) named[1] = homeFor(to, top, piles) || to;
  return [...new Set(named.filter((label) => labels.has(label)))];
}

/**
 * The piles a picked pile's legal moves go to, outlined as targets: as `targets` in
 * clicks.js reads them from the notation, but a move to "the foundations" by a letter
 * no pile has (Light and Shade's `a3>f`, The Gate's `r>f`) outlines the one its card
 * goes on, found from the cards (the eight foundations had all been outlined, those it
 * cannot go on too); the whole family where the cards name none.
 * @param {string} picked
 * @param {string[]} legal
 * @param {Message} view
 * @returns {Set<string>}
 */
export function pickedTargets(picked, legal, view) {
  /** @type {Pile[]} */
  const piles = Array.isArray(view.piles) ? view.piles : [];
  const labels = new Set(piles.map((p) => p.label));
  const out = new Set();
  for (const move of candidates(picked, legal)) {
    const to = move.includes(">") ? move.slice(move.lastIndexOf(">") + 1) : "";
    const top = piles.find((p) => p.label === picked)?.cards.at(-1);
    const home = to && !labels.has(to) && top ? homeFor(to, top, piles) : null;
    for (const label of home ? [home] : targets(picked, [move], piles)) out.add(label);
  }
  return out;
}
