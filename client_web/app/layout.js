// @ts-check
// How big the board's cards are, and where its rows go, for the board to fit a box of a
// given width and height. Pure (no DOM): board.js draws what this works out.
//
// The view places piles on a grid (x columns, y rows). A row is as tall as its tallest
// pile: a card, and a fanned pile a step more for each card past the first; an empty grid
// row is a sliver. The cards first take the width (up to CW_MAX). Where the board is then
// too tall, in this order, each step only as far as the height needs:
//  0. the cards shrink a little (to EASE of the width's size, never under CW_EASE);
//  1. the fans close up (each card shows less of itself, never less than its corner) and
//     a row of single cards half covers the row before it, as Babette's seed lays a long
//     garden (its labels move into the cards' corners);
//  2. the middle of a long fan squares up (the bottom card and the top KEEP stay readable);
//  3. the cards shrink; where that would take them under CW_INSIDE, every row's labels
//     move into its cards' corners (the room above each row goes to the cards: a phone on
//     its side has 320 pixels for The Blockade's eight rows), and they shrink on to CW_MIN;
//  4. and only where even that would not fit, more of a long fan's middle squares up (its
//     bottom card and top card keep their corners), before the board scrolls in its box.
// Heights are linear in the card's height for each step, so each is solved, not searched.
//
// A board much wider than tall (Nestor's reserve beside its columns, The Gate's foundations
// beside its bars) leaves a phone's cards tiny and most of its screen empty: `arrange`
// folds it, as a line of text wraps, moving the columns right of a cut under the rest,
// where that makes the cards at least FOLD_GAIN wider.

/** width of a card over its height */
export const RATIO = 1.4;
/** the gap between piles, in pixels */
export const GAP = 4;
/** a pile's label above it, in pixels */
export const LABEL = 14;
/** the widest and narrowest card, in pixels */
export const CW_MAX = 96;
export const CW_MIN = 16;
/** how much of itself a fanned card shows, in card heights: at ease, and at the least */
export const STEP = 0.28;
export const STEP_MIN = 0.22;
/** a squared card in the middle of a long fan, in card heights */
export const TIGHT = 0.06;
/** the cards at the top of a fan that never square up (but where the board cannot fit otherwise) */
export const KEEP = 4;
/** cards smaller than this take their rows' labels into their corners, where that makes them larger */
export const CW_INSIDE = 24;
/** how much of a card a row covering it leaves, at the least, in card heights */
export const COVER_MIN = 0.3;
/** the least a pile shows of itself to be tapped (a covered row's strip, its gap with it), in pixels */
export const TAP = 24;
/** an empty grid row, in card heights */
export const EMPTY_ROW = 0.2;
/** the cards shrink this far, and no smaller than CW_EASE pixels, before the board closes up */
export const EASE = 0.75;
export const CW_EASE = 48;
/** how far each card of a pile fanned right is from the one beneath, in card widths */
export const RIGHT_FAN = 0.5;
/** how much wider a fold must make the cards for the board to be folded */
export const FOLD_GAIN = 1.15;
/** a waste shows this many of its top cards fanned to the right */
const WASTE_FAN = 3;

/**
 * @typedef {{label: string, kind: string, x: number, y: number, fan: string, cards: string[], down: number}} Pile
 * @typedef {{occupied: boolean, fan: number, columns: Set<number>}} Row
 *   fan: how many cards past the first its longest pile fanned down shows; columns: its piles' x
 * @typedef {{rows: Row[], columns: number}} Grid
 * @typedef {{top: number, outer: boolean, covered: boolean, foot: boolean}} Placed
 *   covered: the row below covers all but the top `cover` pixels of its cards; foot: its
 *   labels at the foot of its piles' top cards (labels inside, on a row not covered: the
 *   corner of a fan's cards under its top stays in sight)
 * @typedef {{cw: number, ch: number, step: number, tight: number, keep: number, label: number,
 *   rightFan: number, width: number, height: number, rows: Placed[], stage: string, cover: number}} Fit
 *   cover: how much of a covered row's card shows, in pixels (its height where none is)
 * @typedef {{inside: boolean, keep: number}} Squeeze
 *   inside: every row's labels in its cards' corners; keep: a long fan's cards that keep
 *   their corners at its top
 */

/**
 * The cards a pile spreads to its right, or null: a pile fanned right, and a waste's top
 * cards (the ones to come after its top card).
 * @param {Pile} p
 * @returns {string[] | null}
 */
export function fannedRight(p) {
  if (p.fan === "right") return p.cards;
  if (p.kind === "waste" && p.fan === "none") return p.cards.slice(-WASTE_FAN);
  return null;
}

/**
 * @param {Pile} p
 * @returns {number}
 */
function spread(p) {
  const cards = fannedRight(p);
  return cards ? Math.max(0, cards.length - 1) : 0;
}

/**
 * The grid's rows and columns as the layout needs them.
 * @param {Pile[]} piles
 * @returns {Grid}
 */
export function rowsOf(piles) {
  const maxY = Math.max(0, ...piles.map((p) => p.y));
  /** @type {Row[]} */
  const rows = Array.from({ length: maxY + 1 }, () => ({ occupied: false, fan: 0, columns: new Set() }));
  for (const p of piles) {
    const row = rows[p.y];
    row.occupied = true;
    row.columns.add(p.x);
    if (p.fan === "down") row.fan = Math.max(row.fan, p.cards.length - 1);
  }
  const columns = Math.max(1, ...piles.map((p) => p.x + 1 + spread(p) * RIGHT_FAN));
  return { rows, columns };
}

/** a fit's way of squeezing the board at its tightest: none @type {Squeeze} */
const LOOSE = { inside: false, keep: KEEP };

/**
 * The gaps of a fan of n + 1 cards that square up (the first and the top `keep` never do).
 * @param {number} n
 * @param {number} [keep]
 */
function squared(n, keep = KEEP) {
  return Math.max(0, n - 1 - keep);
}

/**
 * The board's height as `a + b * ch` for one arrangement: `k` from 1 (at ease) to 0 (fans
 * closed, rows half covering), `t` from 0 to 1 (long fans' middles squared).
 * @param {Row[]} rows
 * @param {boolean} covering whether rows of single cards may cover the row before
 * @param {number} k
 * @param {number} t
 * @param {Squeeze} [squeeze]
 * @param {number} [least] the least a covered row shows, in card heights
 */
function height(rows, covering, k, t, { inside, keep } = LOOSE, least = COVER_MIN) {
  const step = STEP_MIN + k * (STEP - STEP_MIN);
  const tight = step - t * (step - TIGHT);
  const cover = least + k * (1 - least);
  let a = 0;
  let b = 0;
  rows.forEach((row, y) => {
    const last = y === rows.length - 1;
    if (!row.occupied) {
      if (!last) b += EMPTY_ROW;
      return;
    }
    if (!inside && outer(rows, covering, y)) a += LABEL;
    const fan = (row.fan - squared(row.fan, keep)) * step + squared(row.fan, keep) * tight;
    if (last) b += 1 + fan;
    else if (covers(rows, covering, y)) {
      a += GAP;
      b += cover;
    } else {
      a += GAP;
      b += 1 + fan;
    }
  });
  return { a, b };
}

/**
 * Whether row y is half covered by the row below it: a garden's rows, where every pile of
 * row y has one below it, and row y's piles show one card each (a fan's top card is never
 * covered), and the row before or after is one such too. A row above other piles (The
 * Gate's foundations over its stock) keeps its room.
 * @param {Row[]} rows
 * @param {boolean} covering
 * @param {number} y
 */
function covers(rows, covering, y) {
  if (!covering || !coverable(rows, y)) return false;
  // a garden is rows of them: one row alone over another (Doubles and Quits' second,
  // its stock and discard beside the first and third) keeps its room, the cards shrink
  return coverable(rows, y - 1) || coverable(rows, y + 1);
}

/**
 * Whether row y could be half covered by the row below it: every pile of row y has one
 * below it, and row y's piles show one card each.
 * @param {Row[]} rows
 * @param {number} y
 */
function coverable(rows, y) {
  if (y < 0 || y + 1 >= rows.length || !rows[y].occupied || rows[y].fan > 0) return false;
  const below = rows[y + 1].columns;
  return [...rows[y].columns].every((x) => below.has(x));
}

/**
 * Whether row y's labels sit above its cards (else in their corners: the row above covers
 * the room they would have).
 * @param {Row[]} rows
 * @param {boolean} covering
 * @param {number} y
 */
function outer(rows, covering, y) {
  return !(y > 0 && covers(rows, covering, y - 1));
}

/**
 * The sizes that fit `grid` in `width` x `avail` pixels (avail Infinity: at ease).
 * @param {Grid} grid
 * @param {number} width
 * @param {number} avail
 * @returns {Fit}
 */
export function fit(grid, width, avail) {
  // a covered row shows at least TAP pixels, its gap with them (a strip of 16 pixels, at
  // 740x360, was too thin to tap): the least share of a card it shows grows as the cards
  // shrink, so the fit is made again with the share its last cards need, a few times;
  // kept where the cards stay as wide as a tap needs, a gap beside them (Babette's twelve
  // rows at 740x360 would take them to 16 pixels: there they keep the thinner strips)
  const plain = fitWith(grid, width, avail, COVER_MIN);
  let least = COVER_MIN;
  let found = plain;
  for (let i = 0; i < 6 && found.cover < found.ch && found.cover + GAP < TAP - 0.05; i++) {
    least = Math.min(1, Math.max(least, (TAP - GAP + 0.5) / found.ch));
    found = fitWith(grid, width, avail, least);
  }
  return found.cw >= plain.cw || found.cw + GAP >= TAP ? found : plain;
}

/**
 * Whether a fit's piles are smaller than a tap needs: cards narrower, a gap beside them,
 * or a covered row's strip thinner, than TAP pixels.
 * @param {Fit} size
 */
export function small(size) {
  return size.cw + GAP < TAP - 0.5 || size.cover + GAP < TAP - 0.5;
}

/**
 * `fit`, a covered row showing at least `least` of its cards' height.
 * @param {Grid} grid
 * @param {number} width
 * @param {number} avail
 * @param {number} least
 * @returns {Fit}
 */
function fitWith(grid, width, avail, least) {
  const { rows, columns } = grid;
  const room = Number.isFinite(width) && width > 0 ? width : 360;
  let cw = Math.max(CW_MIN, Math.min(CW_MAX, Math.floor((room - GAP) / columns) - GAP));
  let ch = Math.round(cw * RATIO);
  const tall = (/** @type {boolean} */ covering, /** @type {number} */ k, /** @type {number} */ t) => {
    const { a, b } = height(rows, covering, k, t, LOOSE, least);
    return a + b * ch;
  };
  /** @type {[boolean, number, number, string]} */
  let chosen = [false, 1, 0, "at ease"];
  let squeeze = LOOSE;
  if (!(tall(false, 1, 0) <= avail)) {
    const natural = height(rows, false, 1, 0);
    const least = Math.min(ch, Math.max(ch * EASE, CW_EASE * RATIO));
    const fits = (avail - natural.a) / natural.b;
    ch = Math.max(least, Math.min(ch, fits));
    cw = ch / RATIO;
  }
  if (!(tall(false, 1, 0) <= avail)) {
    const at = (/** @type {number} */ k, /** @type {number} */ t) => height(rows, true, k, t, LOOSE, least);
    const ease = at(1, 0);
    const closed = at(0, 0);
    const square = at(0, 1);
    const within = (avail - ease.a) / ch; // the b that fits, for the card height the width gave
    if (ease.b <= within) chosen = [true, 1, 0, "covered"];
    else if (closed.b <= (avail - closed.a) / ch) {
      chosen = [true, ((avail - closed.a) / ch - closed.b) / (ease.b - closed.b), 0, "closed up"];
    } else if (square.b <= (avail - square.a) / ch) {
      chosen = [true, 0, (closed.b - (avail - square.a) / ch) / (closed.b - square.b), "squared"];
    } else {
      // to a hundredth of a pixel: a whole pixel off the card is a row of pixels off each fan
      // (never wider than the width gave them: labels inside may leave more height than needed)
      const widest = cw;
      const shrunk = (/** @type {Squeeze} */ how) => {
        const { a, b } = height(rows, true, 0, 1, how, least);
        return Math.min(widest, Math.floor(((avail - a) / b / RATIO) * 100) / 100);
      };
      cw = shrunk(LOOSE);
      chosen = [true, 0, 1, "shrunk"];
      if (cw < CW_INSIDE) {
        squeeze = { inside: true, keep: KEEP };
        for (let keep = KEEP; keep >= 1; keep--) {
          squeeze = { inside: true, keep };
          if (shrunk(squeeze) >= CW_MIN) break;
        }
        if (shrunk(squeeze) > cw) {
          cw = shrunk(squeeze);
          chosen = [true, 0, 1, squeeze.keep < KEEP ? "squeezed" : "labels inside"];
        } else squeeze = LOOSE;
      }
      cw = Math.max(CW_MIN, cw);
      ch = cw * RATIO;
    }
  }
  const [covering, k0, t0, stage] = chosen;
  const { inside, keep } = squeeze;
  const k = Math.min(1, Math.max(0, k0));
  const t = Math.min(1, Math.max(0, t0));
  const step = ch * (STEP_MIN + k * (STEP - STEP_MIN));
  const tight = step - t * (step - TIGHT * ch);
  const cover = ch * (least + k * (1 - least));
  /** @type {Placed[]} */
  const placed = [];
  let top = 0;
  rows.forEach((row, y) => {
    const out = !inside && outer(rows, covering, y);
    const covered = covers(rows, covering, y);
    placed.push({ top, outer: out, covered, foot: inside && !covered });
    if (!row.occupied) {
      top += EMPTY_ROW * ch;
      return;
    }
    const fan = (row.fan - squared(row.fan, keep)) * step + squared(row.fan, keep) * tight;
    const label = out ? LABEL : 0;
    if (y === rows.length - 1) top += label + ch + fan;
    else if (covers(rows, covering, y)) top += label + GAP + cover;
    else top += label + GAP + ch + fan;
  });
  return {
    cw,
    ch,
    step,
    tight,
    keep,
    label: LABEL,
    rightFan: RIGHT_FAN,
    width: Math.ceil(columns * (cw + GAP)),
    height: Math.ceil(top - 1e-6),
    rows: placed,
    stage,
    cover: covering ? cover : ch,
  };
}

/**
 * The columns a board may be cut before: between parts of the game, no kind of pile on
 * both sides of the cut (Nestor's columns and its reserve, not a row of columns split in
 * two; The Gate's posts stay together), and no pile spread across it.
 * @param {Pile[]} piles
 * @returns {number[]}
 */
export function cuts(piles) {
  const columns = rowsOf(piles).columns;
  /** @type {number[]} */
  const found = [];
  for (let c = 1; c < columns; c++) {
    const left = piles.filter((p) => p.x < c);
    if (!left.length || left.length === piles.length) continue;
    const kinds = new Set(left.map((p) => p.kind));
    if (piles.some((p) => p.x >= c && kinds.has(p.kind))) continue;
    if (left.every((p) => p.x + 1 + spread(p) * RIGHT_FAN <= c)) found.push(c);
  }
  return found;
}

/**
 * `piles` folded before column `c`: the piles right of the cut moved under the rest, to
 * the left edge, an empty row between the two.
 * @param {Pile[]} piles
 * @param {number} c
 * @returns {Pile[]}
 */
export function folded(piles, c) {
  const left = piles.filter((p) => p.x < c);
  const right = piles.filter((p) => p.x >= c);
  const dx = Math.min(...right.map((p) => p.x));
  const dy = Math.max(...left.map((p) => p.y)) + 2 - Math.min(...right.map((p) => p.y));
  return [...left, ...right.map((p) => ({ ...p, x: p.x - dx, y: p.y + dy }))];
}

/**
 * The piles as the board draws them in `width` x `avail` pixels, and their sizes: as the
 * view places them, or folded where a fold makes the cards at least FOLD_GAIN wider (of
 * the folds, the one with the widest cards). `fold` false: never folded (a board whose
 * drawing reads its piles' places, as The Wedge's path arrows do).
 * `kept`, the cut the board was last drawn with: kept while it is a cut of these piles and
 * its cards are no smaller than unfolded, so that a board near the line does not fold and
 * unfold as its fans grow and shrink.
 * @param {Pile[]} piles
 * @param {number} width
 * @param {number} avail
 * @param {{ fold?: boolean, kept?: number | null }} [options]
 * @returns {{ piles: Pile[], size: Fit, cut: number | null }}
 */
export function arrange(piles, width, avail, { fold = true, kept = null } = {}) {
  let best = { piles, size: fit(rowsOf(piles), width, avail), cut: /** @type {number | null} */ (null) };
  if (!fold) return best;
  const plain = best.size.cw;
  for (const c of cuts(piles)) {
    const moved = folded(piles, c);
    const size = fit(rowsOf(moved), width, avail);
    // (kept only where it fits as well: at the smallest cards a fold is no wider, and
    // only taller, and a board kept folded so had The Blockade's stock below the window)
    const fits = size.height <= Math.max(avail, best.size.height);
    if (c === kept && size.cw >= plain && fits) return { piles: moved, size, cut: c };
    // (never to piles too small to tap from a board whose piles are not)
    if (small(size) && !small(best.size)) continue;
    if (size.cw >= plain * FOLD_GAIN && size.cw > best.size.cw) best = { piles: moved, size, cut: c };
  }
  return best;
}
