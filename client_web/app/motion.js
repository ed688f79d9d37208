// @ts-check
// Cards that move. The board is redrawn whole from each view the server sends, so a card
// played would just vanish from one pile and appear on another; instead it slides there
// (FLIP: each card's box is recorded before the redraw, measured again after it, and the
// card animated from the old box to its new place with the Web Animations API; transform
// and opacity only, so no frame lays the page out again). A card that was not on the
// board before (turned up, dealt, uncovered) fades in. Nothing moves for a reader who asked
// for less motion (`prefers-reduced-motion: reduce`).
//
// Use: `const settle = cardsMove(root, view)` before drawing `view` into `root`, then
// `settle()` once it is drawn. Only a new view moves cards: a redraw of the same view (a
// resize, a pile picked, a hint) records nothing.

/** how long a card takes to slide to its new place, in milliseconds */
export const SLIDE_MS = 150;

const lessMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

/** whether the reader asked for less motion: then nothing slides or celebrates */
export function still() {
  return lessMotion.matches;
}

/** @type {WeakMap<Element, unknown>} the view each root last had drawn in it */
const drawn = new WeakMap();

/**
 * Where the board's top left corner is on the screen: cards are placed from it, so that
 * the board moved as a whole (a line above it wrapped differently) moves no card.
 * @param {Element} root
 * @returns {Box}
 */
function origin(root) {
  const board = root.querySelector(".board");
  const box = board ? board.getBoundingClientRect() : { x: 0, y: 0 };
  return { x: box.x, y: box.y, width: 0, height: 0 };
}

/** @typedef {{x: number, y: number, width: number, height: number}} Box */

/**
 * A card's box on the board.
 * @param {Element} card
 * @param {Box} from the board's corner
 * @returns {Box}
 */
function place(card, from) {
  const box = card.getBoundingClientRect();
  return { x: box.x - from.x, y: box.y - from.y, width: box.width, height: box.height };
}

/**
 * The boxes of the cards in `root`, by card code (a two-pack game has two of some).
 * @param {Element} root
 * @returns {Map<string, Box[]>}
 */
function boxes(root) {
  /** @type {Map<string, Box[]>} */
  const out = new Map();
  const corner = origin(root);
  for (const card of root.querySelectorAll("[data-card]")) {
    const code = /** @type {HTMLElement} */ (card).dataset.card || "";
    const list = out.get(code) || [];
    list.push(place(card, corner));
    out.set(code, list);
  }
  return out;
}

/**
 * A card dropped by a drag (the copy that followed the pointer, `.card.ghost`, gone by the
 * time the move's reply is drawn): where it was let go, so that it slides on from there
 * rather than from the pile it was dragged from. Seen in the capture phase, before the
 * board's own pointerup handler takes the copy away; forgotten at the next redraw.
 * @type {{code: string, box: Box} | null}
 */
let dropped = null;

document.addEventListener(
  "pointerup",
  () => {
    const ghost = /** @type {HTMLElement | null} */ (document.querySelector(".card.ghost[data-card]"));
    if (!ghost) {
      dropped = null;
      return;
    }
    // the copy is drawn tilted: its box unturned, about the same centre
    const box = ghost.getBoundingClientRect();
    const width = ghost.offsetWidth;
    const height = ghost.offsetHeight;
    const x = box.x + (box.width - width) / 2;
    const y = box.y + (box.height - height) / 2;
    dropped = { code: ghost.dataset.card || "", box: { x, y, width, height } };
  },
  true,
);

/**
 * Before `view` is drawn into `root`: where every card is now. Returns what to call once
 * it is drawn.
 * @param {Element} root
 * @param {unknown} view
 * @returns {() => void}
 */
export function cardsMove(root, view) {
  const last = drawn.get(root);
  const drop = dropped;
  drawn.set(root, view);
  dropped = null;
  if (last === undefined || last === view || still()) return () => {};
  const before = boxes(root);
  const from = drop && before.get(drop.code);
  if (drop && from && from.length) {
    const corner = origin(root);
    from[0] = { x: drop.box.x - corner.x, y: drop.box.y - corner.y, width: drop.box.width, height: drop.box.height };
  }
  return () => slide(root, before);
}

/**
 * The old box of each card now in `root`: a card of which there are two is matched to a
 * box at its own place first (the copy that did not move), then in order.
 * @param {Element} root
 * @param {Map<string, Box[]>} before
 * @returns {[HTMLElement, Box | null, Box][]}
 */
function pairs(root, before) {
  /** @type {[HTMLElement, Box | null, Box][]} */
  const out = [];
  /** @type {Map<string, HTMLElement[]>} */
  const now = new Map();
  const corner = origin(root);
  for (const card of root.querySelectorAll("[data-card]")) {
    const el = /** @type {HTMLElement} */ (card);
    const list = now.get(el.dataset.card || "") || [];
    list.push(el);
    now.set(el.dataset.card || "", list);
  }
  for (const [code, cards] of now) {
    const old = [...(before.get(code) || [])];
    const placed = cards.map((el) => place(el, corner));
    /** @type {(Box | null)[]} */
    const from = cards.map(() => null);
    placed.forEach((box, i) => {
      const same = old.findIndex((o) => Math.abs(o.x - box.x) < 1 && Math.abs(o.y - box.y) < 1);
      if (same >= 0) from[i] = old.splice(same, 1)[0];
    });
    from.forEach((box, i) => {
      if (!box && old.length) from[i] = old.shift() || null;
    });
    cards.forEach((el, i) => out.push([el, from[i], placed[i]]));
  }
  return out;
}

/**
 * @param {Element} root
 * @param {Map<string, Box[]>} before
 */
function slide(root, before) {
  const moved = [];
  for (const [card, from, to] of pairs(root, before)) {
    /** @type {Keyframe[]} */
    let frames;
    if (!from) frames = [{ opacity: 0 }, { opacity: 1 }];
    else {
      const dx = from.x - to.x;
      const dy = from.y - to.y;
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
      const sx = to.width ? from.width / to.width : 1;
      const sy = to.height ? from.height / to.height : 1;
      frames = [{ transform: `translate(${dx}px, ${dy}px) scale(${sx}, ${sy})` }, { transform: "none" }];
      moved.push(card.dataset.card);
    }
    // while it slides the card is drawn above the piles it passes over
    card.dataset.sliding = "";
    const animation = card.animate(frames, { duration: SLIDE_MS, easing: "ease-out" });
    animation.finished.then(
      () => {
        delete card.dataset.sliding;
      },
      () => {},
    );
  }
  // the cards that slid last, kept until the next move (for the tests and the curious)
  if (moved.length) /** @type {HTMLElement} */ (root).dataset.slid = moved.join(" ");
}
