// @ts-check
// The tab's title names the screen shown ("The Gate · Patience Race", "Race K7PQ2M: The
// Gate · Patience Race"): it said "Patience Race" on every screen, and neither a screen
// reader's user nor one with several tabs could tell them apart. Each screen draws its own
// heading, some only once their data has come (a leaderboard's names its board), so the
// title follows the first heading in the screen's box as it changes.

const NAME = "Patience Race";
const SEP = " · ";

// the title the server gave the page, read before any screen is drawn: a room's or a
// challenge's link says what it is there ("Race ann at The Wedge: waiting for racers, 1
// in · Patience Race", its link preview's)
const SERVED = document.title;

/**
 * What the page's title named as the server served it, without the client's name ("" for
 * none): the name form opened from a link keeps it (front.js).
 * @returns {string}
 */
export function servedName() {
  return SERVED.endsWith(SEP + NAME) ? SERVED.slice(0, -(SEP + NAME).length) : "";
}

/**
 * What names a heading's screen: its `data-title` where its words do not ("Hello, ann"
 * greets rather than names), else its `title` where that says more (a racer's one-line
 * "Race K7PQ2M" has the game's name there), else its words.
 * @param {Element | null} heading
 * @returns {string}
 */
export function screenName(heading) {
  if (!(heading instanceof HTMLElement)) return "";
  return (heading.dataset.title ?? (heading.title || heading.textContent) ?? "").trim();
}

/**
 * Keep the document's title to the screen shown in `box` (the page's <main>), from now on.
 * @param {HTMLElement} box
 */
export function titleFrom(box) {
  const name = () => {
    const shown = screenName(box.querySelector("h1, [role=heading]"));
    // (the name form's heading is the client's name alone)
    const title = shown && shown !== NAME ? shown + SEP + NAME : NAME;
    if (document.title !== title) document.title = title;
  };
  new MutationObserver(name).observe(box, { childList: true, subtree: true, characterData: true });
  name();
}
