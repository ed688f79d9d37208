// @ts-check
// Notices: a line of words at the window's foot for 6 s (joined, is ready, finished first,
// resigned, a challenge's news), the newest three (a room of eight joining, readying and
// resigning at once would pile them up the whole board), never in the way of a tap
// (app.css). They stand above a game's dock and what stands over it (the status line, a
// lost game's note, a game over's actions), which a notice would cover, and clear of a
// race's results table: placed as each comes, and again as the page scrolls, is resized
// or draws its results under them (at 740x360 "kay_tl: resigned" covered the table's
// headers), of the heading over the table (the race's verdict: clear of the bars and the
// table alone, a racer's "host: resigned" went in the gap between them, over "Race over:
// you came ..."), and of the room's bars over them (lifted clear of the table alone, they
// hid the bars' ends). A notice of the lobby's (joined, is ready, everyone is ready: `tag` "lobby")
// goes at the race's Go! (`dropNotices`): they had stood over the racing board.

/** notices shown at once, the newest */
const SHOWN = 3;
/** how long a notice stays, in ms */
const LIFE = 6000;
/** what a notice stands above: a game's foot */
const FOOT = ".dock, .game > .note, .game > .lost-note, .game > .won-note, .game > .end-actions";
/** what notices stay clear of: a race's (a challenge's, a placing's) results table, the
 * heading just over it (a race's verdict, "Race over: you came 1st of 2."), and the room's
 * bars over both once it is drawn */
const CLEAR = ".results-table table, h2:has(+ .results-table), .room:has(.results-table table) .bars";
/** the room kept between notices and what they stand clear of, in pixels */
const MARGIN = 8;

/** @returns {HTMLElement | null} */
const box = () => document.getElementById("notices");

/**
 * Show `text` as a notice; `tag` names what it belongs to ("lobby"), for `dropNotices`.
 * @param {string} text
 * @param {string} [tag]
 */
export function notice(text, tag) {
  const notices = box();
  if (!notices) return;
  const item = document.createElement("div");
  item.className = "notice";
  item.textContent = text;
  if (tag) item.dataset.tag = tag;
  notices.append(item);
  while (notices.children.length > SHOWN) notices.firstElementChild?.remove();
  placeNotices();
  follow();
  setTimeout(() => item.remove(), LIFE);
}

let following = false;

/** While notices show, placed again each frame: the page may change under them with no
 * event (a results table drawn again larger, its ratings come: "bob: resigned" then
 * covered its headers in a CI run). */
function follow() {
  if (following) return;
  following = true;
  const step = () => {
    const notices = box();
    if (!notices || !notices.children.length) {
      following = false;
      return;
    }
    placeNotices();
    requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
}

/**
 * The notices of `tag` taken away (the lobby's, at Go!).
 * @param {string} tag
 */
export function dropNotices(tag) {
  box()
    ?.querySelectorAll(`.notice[data-tag="${CSS.escape(tag)}"]`)
    .forEach((item) => item.remove());
}

/**
 * Where the notices' box stands, as the page lies now: its foot above a game's foot in the
 * window (else at the window's); where that crosses what they stay clear of in the window,
 * above the nearest of them with the room to be clear of all, else below, else over the
 * window's top. (A race's bars stand just above its results table: lifted clear of the
 * table alone, a watcher's "ann: resigned" at 740x360 hid the bars' ends.)
 */
export function placeNotices() {
  const notices = box();
  if (!notices || !notices.children.length) return;
  const shown = (/** @type {Element} */ e) => e.checkVisibility();
  const foot = [...document.querySelectorAll(FOOT)].filter(shown).map((e) => e.getBoundingClientRect().top);
  const low = Math.min(innerHeight, ...foot); // the notices' foot, plus the margin
  const tall = notices.getBoundingClientRect().height;
  const boxes = [...document.querySelectorAll(CLEAR)]
    .filter(shown)
    .map((e) => e.getBoundingClientRect())
    .filter((r) => r.bottom > 0 && r.top < innerHeight);
  // the notices' foot at `edge` less the margin crosses none of them
  const free = (/** @type {number} */ edge) =>
    boxes.every((r) => !(edge - MARGIN > r.top && edge - MARGIN - tall < r.bottom));
  const above = boxes
    .map((r) => r.top)
    .filter((top) => top <= low && top - MARGIN - tall >= MARGIN)
    .sort((a, b) => b - a);
  const below = boxes
    .map((r) => r.bottom + 2 * MARGIN + tall)
    .filter((edge) => edge <= innerHeight)
    .sort((a, b) => a - b);
  const edge = [low, ...above, ...below].find(free) ?? tall + 2 * MARGIN;
  notices.style.bottom = `${Math.max(innerHeight - edge, 0) + MARGIN}px`;
}

// (as the page moves under them: a scroll, a window resized or turned)
addEventListener("scroll", placeNotices, { passive: true });
addEventListener("resize", placeNotices);

/**
 * A link code's news in a notice: used on another device (`link_used`), or replaced by a
 * newer one asked for there (`link_revoked`).
 * @param {import("./types.js").Message} message
 */
export function linkNotice(message) {
  return message.type === "link_used"
    ? `Your link code was used: ${message.device} plays as you now.`
    : `Your link code no longer works: a newer one was asked for on ${message.device}.`;
}
