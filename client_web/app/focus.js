// @ts-check
// Keeping the keyboard's place and telling screen readers what changed, for screens that
// draw themselves again: a redraw that takes a focused control out of the page drops the
// focus to <body> (the next Tab starts again from the top, and a screen reader says
// nothing), and a live region made anew with its text already in it is not reliably
// announced. So the focus is handed to the control's successor, found by what names it,
// and each screen says what happens in one live region kept in the page, its text set in
// place and only when it changes.

/** the attributes that name a control across redraws, the first an element has */
const NAMES = ["data-focus", "id", "data-pile", "data-act", "data-view", "aria-label"];

/**
 * What finds `node`'s successor after a redraw: a selector, or null for a node unnamed.
 * @param {Element} node
 * @returns {string | null}
 */
export function focusKey(node) {
  for (const name of NAMES) {
    const value = node.getAttribute(name);
    if (value) return `${node.localName}[${name}="${CSS.escape(value)}"]`;
  }
  return null;
}

/** what can take the focus: a control, a link, or anything given a tabindex */
const CONTROLS = "a[href], button, input, select, textarea, summary, [tabindex]";

/**
 * Whether `node` can take the focus now (drawn, not disabled, a control or given a
 * tabindex: a game over's pile, no button now, cannot).
 * @param {Element | null | undefined} node
 * @returns {node is HTMLElement}
 */
function focusable(node) {
  return (
    node instanceof HTMLElement && node.isConnected && node.matches(CONTROLS) && !node.matches(":disabled, [hidden]")
  );
}

/**
 * What finds again, after a redraw, each control that comes after the focused one in
 * `root` (a button gone or disabled hands the focus to the next: `firstFound`); none
 * where the focus is not in `root`.
 * @param {Element} root
 * @returns {string[]}
 */
export function nextKeys(root) {
  const held = document.activeElement;
  if (!(held instanceof HTMLElement) || !root.contains(held)) return [];
  /** @type {string[]} */
  const keys = [];
  for (const node of root.querySelectorAll(CONTROLS)) {
    const key = held.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING ? focusKey(node) : null;
    if (key && !keys.includes(key)) keys.push(key);
  }
  return keys;
}

/**
 * The first of `keys` (`nextKeys`) that finds a control in `root` able to take the focus.
 * @param {Element} root
 * @param {string[]} keys
 * @returns {HTMLElement | null}
 */
export function firstFound(root, keys) {
  for (const key of keys) {
    const node = root.querySelector(key);
    if (focusable(node)) return node;
  }
  return null;
}

/**
 * Where the focus is in `root` before a redraw, to give back after it (the redraw may
 * begin before the drawing: a kept node moved into a new one loses the focus then):
 * call the function returned once the redraw is done. Where the redraw lost the focus it
 * goes to the same node if it is still drawn, else to the one named as it was, else to
 * `fallback`'s (a node in reach: the screen's heading, its next control).
 * @param {Element} root
 * @returns {(fallback?: () => Element | null | undefined) => void}
 */
export function holdFocus(root) {
  const held = document.activeElement;
  if (!(held instanceof HTMLElement) || held === root || !root.contains(held)) return () => {};
  const key = focusKey(held);
  return (fallback) => {
    const now = document.activeElement;
    // (the redraw put the focus somewhere itself, as a game's board does on its pile)
    if (now === held || (now && now !== document.body)) return;
    const next = [held, key ? root.querySelector(key) : null, fallback ? fallback() : null].find(focusable);
    if (next) next.focus({ preventScroll: true });
  };
}

/**
 * Redraw `root` (`redraw`) keeping the focus, as `holdFocus` gives it back.
 * @template T
 * @param {Element} root
 * @param {() => T} redraw
 * @param {() => Element | null | undefined} [fallback]
 * @returns {T}
 */
export function keepFocus(root, redraw, fallback) {
  const back = holdFocus(root);
  const out = redraw();
  back(fallback);
  return out;
}

/**
 * Set `node`'s text only where it changes: a live region rewritten with the same words
 * (a countdown's digit ten times a second) is read again, or read over.
 * @param {Node} node
 * @param {string} text
 * @returns {boolean} whether it changed
 */
export function setText(node, text) {
  if (node.textContent === text) return false;
  node.textContent = text;
  return true;
}

/**
 * Say `text` in a live region: as `setText`, but where `again` (a new event: the second
 * pair of 8s taken off) and its words are those it says already, said again (a space no
 * one hears added or taken away: the same text is no change, and went unheard).
 * @param {Node} node
 * @param {string} text
 * @param {boolean} [again]
 */
export function say(node, text, again = false) {
  const now = node.textContent || "";
  if (again && text && now.replace(/\u00a0$/, "") === text) text = now.endsWith("\u00a0") ? text : `${text}\u00a0`;
  return setText(node, text);
}

/**
 * A screen's live region: unseen, polite, kept in the page from the screen's first draw
 * (`say` sets its words in place).
 * @returns {HTMLElement}
 */
export function liveRegion() {
  const node = document.createElement("p");
  node.className = "spoken live";
  node.setAttribute("role", "status");
  return node;
}

/** @type {HTMLElement | null} the page's own live region, once made */
let pageLive = null;

/**
 * The page's own live region, outside the screens, made as the first screen is shown
 * (main.js) and kept: what a screen says as it is shown (a new deal, a game taken up
 * again), which a region shown with it, made anew, would not be heard saying.
 * @returns {HTMLElement}
 */
export function pageRegion() {
  if (!pageLive || !pageLive.isConnected) {
    pageLive = liveRegion();
    pageLive.id = "page-said";
    document.body.append(pageLive);
  }
  return pageLive;
}

/**
 * Whether the focus is lost: on <body>, or on nothing (the control that had it gone).
 */
export function focusLost() {
  const now = document.activeElement;
  return !now || now === document.body || !now.isConnected;
}

/**
 * Give the focus to `node` (a heading, made able to take it); false where there is none.
 * @param {Element | null | undefined} node
 */
export function focusOn(node) {
  if (!(node instanceof HTMLElement)) return false;
  if (!node.hasAttribute("tabindex")) node.tabIndex = -1;
  node.focus({ preventScroll: true });
  return true;
}

/** a screen's heading */
const HEADING = "h1, h2, [role=heading]";

/**
 * A screen shown in place of the one that had the focus, which draws its heading (or
 * draws it again) once the server answers (a leaderboard, the player's challenges, the
 * league's standings, a player's page: the focus had dropped to <body>, and nothing was
 * said): its heading given the focus as it comes, and again where a redraw drops it, until
 * the player moves it elsewhere (or clicks) or the screen is gone.
 * @param {Element} root
 */
export function headingTakesFocus(root) {
  const observer = new MutationObserver(() => {
    if (!root.isConnected) stop();
    else if (focusLost()) focusOn(root.querySelector(HEADING));
  });
  const moved = (/** @type {FocusEvent} */ event) => {
    const to = event.target;
    if (!(to instanceof Element && root.contains(to) && to.matches(HEADING))) stop();
  };
  function stop() {
    observer.disconnect();
    document.removeEventListener("focusin", moved);
    document.removeEventListener("pointerdown", stop);
  }
  focusOn(root.querySelector(HEADING));
  observer.observe(root, { childList: true, subtree: true });
  document.addEventListener("focusin", moved);
  document.addEventListener("pointerdown", stop); // (a click elsewhere: the player's own)
}

/** the arrow keys' directions: x and y of a step */
const ARROWS = /** @type {Record<string, [number, number]>} */ ({
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
});

/**
 * Of `rects`, the nearest pile in the arrow `key`'s direction from `from`; -1 if none.
 * First the piles in line with it, overlapping it across the way (below: a pile whose
 * left to right overlaps `from`'s), nearest by the edge that leads (below: whose top is
 * nearest under `from`'s top), so that a longer fan beside it (its centre lower) is not
 * "down", and sideways keeps to the row; else, where none is in line, the nearest whose
 * centre lies more that way than across it (off the line counting twice its distance
 * along it): Light and Shade's a1, left, had gone down to the foundations' f2.
 * @param {{left: number, top: number, width: number, height: number}} from
 * @param {{left: number, top: number, width: number, height: number}[]} rects
 * @param {string} key
 */
export function nearestInDirection(from, rects, key) {
  const step = ARROWS[key];
  if (!step) return -1;
  const [dx, dy] = step;
  const cx = from.left + from.width / 2;
  const cy = from.top + from.height / 2;
  /** how far a span at `a` of length `al` and one at `b` of length `bl` overlap */
  const overlap = (
    /** @type {number} */ a,
    /** @type {number} */ al,
    /** @type {number} */ b,
    /** @type {number} */ bl,
  ) => Math.min(a + al, b + bl) - Math.max(a, b);
  let best = -1;
  let bestScore = Infinity;
  let inLine = false;
  rects.forEach((r, n) => {
    const x = r.left + r.width / 2 - cx;
    const y = r.top + r.height / 2 - cy;
    const across = Math.abs(dx ? y : x);
    const lined = dx
      ? overlap(r.top, r.height, from.top, from.height) > 1
      : overlap(r.left, r.width, from.left, from.width) > 1;
    if (lined) {
      const lead = dx ? (r.left - from.left) * dx : (r.top - from.top) * dy;
      if (lead <= 1) return; // (behind, or level with it)
      const score = lead + across / 1e4;
      if (!inLine || score < bestScore) [best, bestScore, inLine] = [n, score, true];
      return;
    }
    if (inLine) return;
    const along = x * dx + y * dy;
    if (along <= 1 || along < across) return; // (behind, or more across than that way)
    const score = along + 2 * across;
    if (score < bestScore) [best, bestScore] = [n, score];
  });
  return best;
}

/**
 * An arrow key on a pile moves the focus to the nearest pile that way (every pile is a
 * Tab stop too: The Wedge's 24>21 was thirty Tabs, then forty). Whether it did.
 * @param {KeyboardEvent} event
 * @param {Element} board the board's box
 */
export function arrowToPile(event, board) {
  const from = event.target;
  if (!(from instanceof HTMLElement) || !from.matches(".pile") || !ARROWS[event.key]) return false;
  const piles = [...board.querySelectorAll(".pile[tabindex='0']")].filter((p) => p !== from);
  const to =
    piles[
      nearestInDirection(
        from.getBoundingClientRect(),
        piles.map((p) => p.getBoundingClientRect()),
        event.key,
      )
    ];
  if (!(to instanceof HTMLElement)) return false;
  event.preventDefault();
  to.focus();
  return true;
}
