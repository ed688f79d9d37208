// @ts-check
// What a move did, in words a listener understands (a game's live region says them: the
// board changing under a screen reader tells it nothing). Worked out from the notation
// and the views the server sent before and after the move (docs/protocol.md, "The view"):
// the cards that left the pile a move starts from and came onto the pile it goes to, the
// cards a deal turned up and where, the cards that went home. Only what the player can
// see: a face-down card is counted, never named. Pure; game.js says them.

import { NAMES, cardName } from "./cards.js";
import { caption, pilesOf } from "./board.js";
import { count, statusText } from "./dom.js";

/** @typedef {import("./types.js").Message} Message */
/** @typedef {import("./layout.js").Pile} Pile */

const RANKS = "A23456789TJQK";
/** @type {Record<string, string>} a rank's name in the plural ("a pair of 8s") */
const PLURALS = { A: "aces", T: "10s", J: "knaves", Q: "queens", K: "kings" };
/** @type {Record<string, string>} a word move, said done */
const DONE = { deal: "dealt", redeal: "redealt", reserve: "turned up" };
// the piles a word move takes its cards from, and the home piles
const SOURCES = new Set(["stock", "reserve"]);
/** the most piles a deal's cards are said pile by pile */
const MOST_SAID = 12;
const HOMES = new Set(["foundation", "foundation-up", "foundation-down", "discard"]);
// the piles whose move is always their top card alone
const SINGLES = new Set(["post", "waste", "talon", "rival", "reserve-card", "grace", "stock", "auxiliary"]);
// how many cards a home's new ones are listed by name before they are counted
const LISTED = 4;

/** @param {Pile} p */
const size = (p) => p.cards.length + p.down;

/**
 * How many cards `a` and `b` share from their bottoms.
 * @param {string[]} a
 * @param {string[]} b
 */
function shared(a, b) {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/**
 * The cards on `after` that were not on `before` (a pile that was not there: all of them).
 * @param {Pile | undefined} before
 * @param {Pile | undefined} after
 */
function added(before, after) {
  if (!after) return [];
  return after.cards.slice(shared(before ? before.cards : [], after.cards));
}

/** @param {string} code */
const rank = (code) => RANKS.indexOf(code[0]);

/**
 * Cards in words: one by name, two by name, more as the first with a count of those on it.
 * @param {string[]} cards bottom to top
 */
export function cardsSaid(cards) {
  if (!cards.length) return "a card";
  if (cards.length === 1) return cardName(cards[0]);
  if (cards.length === 2) return `${cardName(cards[0])} and ${cardName(cards[1])}`;
  return `${cardName(cards[0])} and the ${cards.length - 1} cards on it`;
}

/**
 * A list of cards in words, the first few by name and then how many more.
 * @param {string[]} cards
 */
function listed(cards) {
  if (cards.length <= LISTED) return cards.map(cardName).join(", ");
  return `${cards
    .slice(0, LISTED - 1)
    .map(cardName)
    .join(", ")} and ${cards.length - LISTED + 1} more`;
}

/**
 * The piles of a view by label.
 * @param {Message | null | undefined} view
 * @returns {Map<string, Pile>}
 */
function byLabel(view) {
  return new Map(pilesOf(view).map((p) => [p.label, p]));
}

/**
 * How many of `from`'s top cards a move to `to` takes, from the board before it alone (a
 * hint's move, or a played one whose cards the board after does not show on `to`): a
 * count written (`c3:2>e2`); one from a pile whose top card alone moves, or home; onto a
 * card, the run down to the card one rank below it; into a space, the whole pile (The
 * Blockade's: the run of its suit on top).
 * @param {Pile} from
 * @param {Pile | undefined} to
 * @param {string} game
 */
function reckoned(from, to, game) {
  const cards = from.cards;
  if (cards.length <= 1 || SINGLES.has(from.kind) || !to || HOMES.has(to.kind) || to.kind === "grace") return 1;
  if (to.cards.length) {
    const under = rank(to.cards[to.cards.length - 1]) - 1;
    for (let n = 1; n <= cards.length; n++) if (rank(cards[cards.length - n]) === under) return n;
    return 1;
  }
  if (game !== "blockade") return cards.length;
  let n = 1;
  while (n < cards.length) {
    const [lower, upper] = [cards[cards.length - n - 1], cards[cards.length - n]];
    if (lower[1] !== upper[1] || rank(lower) !== rank(upper) + 1) break;
    n++;
  }
  return n;
}

/**
 * Where a move goes, in words: a pile's label, or a foundation ("the foundation", The
 * Labyrinth's "the foundation, clubs up"), found by the card that came onto it.
 * @param {string} label the move's target (`t1`, or `f`, `u`, `d` for any of them)
 * @param {Map<string, Pile>} piles the board after the move (or before, for a hint)
 * @param {string | undefined} card the card moved onto it, if known
 */
function placeSaid(label, piles, card) {
  const named = piles.get(label);
  if (named && !HOMES.has(named.kind)) return label;
  const homes = [...piles.values()].filter(
    (p) => HOMES.has(p.kind) && (p.label === label || p.label.startsWith(label)),
  );
  // (the one the card came onto; a hint's, the one of its suit: The Labyrinth's `uc`)
  const suit = card ? card[1].toLowerCase() : "";
  const home =
    homes.find((p) => card !== undefined && p.cards.includes(card)) ||
    homes.find((p) => caption(p) && p.label[1] === suit) ||
    named;
  const way = home ? caption(home) : null;
  if (way) return `the foundation, ${way.spoken}`;
  if (label === "u" || label === "d") return `the foundation ${label === "u" ? "up" : "down"}`;
  // which one, where the card shows it: by its suit (The Gate's fs), else its label
  // (Light and Shade's f1); "the foundation" had left a blind player to find it
  const suited = home ? /^f([cdhs])$/.exec(home.label) : null;
  if (suited) return `the ${NAMES[suited[1].toUpperCase()]} foundation`;
  if (home && home.label !== label) return `foundation ${home.label}`;
  return "the foundation";
}

/**
 * A pair taken off (Nestor, Doubles and Quits): "pair of 8s off", from the board before it.
 * @param {string} move `3+7`
 * @param {Map<string, Pile>} before
 */
function pairSaid(move, before) {
  const cards = move.split("+").map((label) => before.get(label)?.cards.at(-1));
  const [a, b] = cards;
  if (!a || !b) return `pair ${move.replace("+", " and ")} off`;
  if (a[0] !== b[0]) return `${cardName(a)} and ${cardName(b)} off`;
  return `pair of ${PLURALS[a[0]] || `${a[0]}s`} off`;
}

/**
 * The cards gone home (onto a foundation or a discard) between two boards, but `moved`.
 * @param {Map<string, Pile>} before
 * @param {Map<string, Pile>} after
 * @param {string[]} [moved] the cards the move itself took there
 */
function homed(before, after, moved = []) {
  const left = [...moved];
  /** @type {string[]} */
  const out = [];
  for (const pile of after.values()) {
    if (!HOMES.has(pile.kind) || pile.kind === "discard") continue;
    for (const card of added(before.get(pile.label), pile)) {
      const at = left.indexOf(card);
      if (at >= 0) left.splice(at, 1);
      else out.push(card);
    }
  }
  return out;
}

/**
 * A word move (`deal`, `redeal`, Nestor's `reserve`): the cards turned up and where, and
 * what is left to deal. "dealt: 5 of hearts to w; stock 23 left".
 * @param {string} word
 * @param {Map<string, Pile>} before
 * @param {Map<string, Pile>} after
 */
function wordSaid(word, before, after) {
  /** @type {string[]} */
  const parts = [];
  let total = 0;
  for (const pile of after.values()) {
    if (SOURCES.has(pile.kind) || HOMES.has(pile.kind)) continue;
    const was = before.get(pile.label);
    const more = size(pile) - (was ? size(was) : 0);
    const top = pile.cards.at(-1);
    const changed = top !== undefined && (!was || was.cards.at(-1) !== top);
    if (more <= 0 && !changed) continue;
    const n = Math.max(more, 1);
    total += n;
    // (each card named that shows: "3 cards to l" had left them to be guessed)
    const shown = pile.cards.slice(-Math.min(n, pile.cards.length)).map(cardName);
    if (n === 1 && top) parts.push(`${cardName(top)} to ${pile.label}`);
    else parts.push(`${n} cards to ${pile.label}${shown.length ? `: ${shown.join(", ")}` : ""}`);
  }
  // a row of The Blockade or The Labyrinth said card by card; more, counted
  const said = parts.length > MOST_SAID ? [`${total} cards to ${parts.length} piles`] : parts;
  const source = [...after.values()].find((p) => SOURCES.has(p.kind));
  if (source) said.push(size(source) ? `${source.kind} ${size(source)} left` : `${source.kind} empty`);
  const home = homed(before, after);
  if (home.length) said.push(`home: ${listed(home)}`);
  return `${DONE[word] || word}: ${said.join("; ") || "nothing moved"}`;
}

/**
 * A pair taken off a table that closes up after it (Doubles and Quits): the cards moving
 * up and the stock dealt into the gap are said, not left to be found ("pair of 8s off;
 * the table closes up, 2 cards dealt; stock 24 left"): a blind player's picture of the
 * table went silently wrong.
 * @param {string} said the pair, said
 * @param {string[]} paired its piles
 * @param {Map<string, Pile>} before
 * @param {Map<string, Pile>} after
 */
function closedUp(said, paired, before, after) {
  const stock = [...after.values()].find((p) => p.kind === "stock");
  const was = stock && before.get(stock.label);
  const dealt = stock && was ? size(was) - size(stock) : 0;
  const moved = [...after.values()].some(
    (p) =>
      !paired.includes(p.label) &&
      p.kind !== "stock" &&
      !HOMES.has(p.kind) &&
      p.cards.at(-1) !== before.get(p.label)?.cards.at(-1),
  );
  if (!moved && dealt <= 0) return said;
  const cards = dealt > 0 ? `, ${dealt} card${dealt === 1 ? "" : "s"} dealt` : "";
  const left = stock ? `; stock ${size(stock) ? `${size(stock)} left` : "empty"}` : "";
  return `${said}; the table closes up${cards}${left}`;
}

/**
 * What a move played did, in words: "5 of diamonds from t to a1", "pair of 8s off",
 * "dealt: stock 77 left"; with the cards that went home on their own after it ("; also
 * home: ace of spades").
 * @param {string} move the move in canonical notation (the reply's `move`)
 * @param {Message | null | undefined} before the view before it
 * @param {Message | null | undefined} after the view after it
 * @param {{ also?: boolean }} [options] `also: false`: not the cards gone home on their own
 * @returns {string}
 */
export function moveSaid(move, before, after, options = {}) {
  const was = byLabel(before);
  const now = byLabel(after);
  if (move.includes("+")) return closedUp(pairSaid(move, was), move.split("+"), was, now);
  if (!move.includes(">")) return wordSaid(move, was, now);
  const [head, to] = move.split(">");
  const [from, written] = head.split(":");
  const source = was.get(from);
  if (!source) return move;
  let n = written ? Number(written) : 0;
  if (!n) {
    // the run the board after shows on the pile it went to, as it left the pile it came from
    const came = added(was.get(to), now.get(to));
    for (let k = Math.min(came.length, source.cards.length); k > 0 && !n; k--)
      if (source.cards.slice(-k).every((card, i) => card === came[i])) n = k;
  }
  const cards = source.cards.slice(-(n || reckoned(source, was.get(to), String(after?.game ?? ""))));
  const said = `${cardsSaid(cards)} from ${from} to ${placeSaid(to, now, cards[0])}`;
  const also = options.also === false ? [] : homed(was, now, cards);
  return also.length ? `${said}; also home: ${listed(also)}` : said;
}

/**
 * An undo in words: "undone: 5 of diamonds from t to a1" (the move taken back, as it was
 * played from the board the undo gives back).
 * @param {string} move the move taken back (the reply's `move`)
 * @param {Message | null | undefined} before the view before the undo
 * @param {Message | null | undefined} after the view after it
 */
export function undoSaid(move, before, after) {
  if (!move) return "undone";
  const said = /[>+]/.test(move) ? moveSaid(move, after, before, { also: false }) : move;
  return `undone: ${said}`;
}

/**
 * The cards a press of "Cards home" sent home: "home: 2 of hearts, 3 of clubs".
 * @param {string[]} moves the moves played (the reply's `moves`)
 * @param {Message | null | undefined} before
 * @param {Message | null | undefined} after
 */
export function homeSaid(moves, before, after) {
  if (!moves.length) return "no card can go home";
  const cards = homed(byLabel(before), byLabel(after));
  return cards.length ? `home: ${listed(cards)}` : `home: ${moves.length} moves`;
}

/**
 * A hint in words, from the board before its move: "hint: 2 of diamonds from t4 to t1:
 * frees a space", "hint: 8 of hearts at 3 and 8 of clubs at 7: pairs off two 8s".
 * @param {string | null} move
 * @param {string | null} reason
 * @param {Message | null | undefined} view
 */
export function hintSaid(move, reason, view) {
  if (!move) return "no hint: no move is legal";
  const piles = byLabel(view);
  let said = move;
  if (move.includes("+")) {
    const cards = move.split("+").map((label) => {
      const top = piles.get(label)?.cards.at(-1);
      return top ? `${cardName(top)} at ${label}` : label;
    });
    said = cards.join(" and ");
  } else if (move.includes(">")) {
    const [head, to] = move.split(">");
    const [from, written] = head.split(":");
    const source = piles.get(from);
    if (source && source.cards.length) {
      const cards = source.cards.slice(-(Number(written) || reckoned(source, piles.get(to), String(view?.game ?? ""))));
      said = `${cardsSaid(cards)} from ${from} to ${placeSaid(to, piles, cards[0])}`;
    }
  }
  return reason ? `hint: ${said}: ${reason}` : `hint: ${said}`;
}

/**
 * A solo game as it is shown: a new deal, with the cards its deal sent home ("Light and
 * Shade: new deal. Home from the deal: ace of clubs, ..."), or the player's game taken up
 * again ("The Gate: your game in play, 33 moves, taken up again."; one just over, how it
 * ended). Play and New deal had put the focus on a pile, and said nothing of a new game.
 * @param {string} name the game's
 * @param {Message} snap its snapshot
 * @param {boolean} dealt a new deal
 */
export function shownSaid(name, snap, dealt) {
  const view = snap.view;
  if (dealt) {
    const home = homed(new Map(), byLabel(view));
    return `${name}: new deal.${home.length ? ` Home from the deal: ${listed(home)}.` : ""}`;
  }
  const moves = count(Number(view?.moves) || 0, "move");
  if (snap.status === "playing") return `${name}: your game in play, ${moves}, taken up again.`;
  return `${name}: your last game, over: ${statusText(snap.status)}, ${moves}.`;
}

/** the time left a timed game says, once each as it passes: a minute, ten seconds */
const WARNINGS = [60_000, 10_000];

/**
 * A timed game's time left, said as it passes a minute and ten seconds (the clock is
 * drawn, not read: a blind racer heard nothing before the time ran out); null while
 * there is nothing new to say. `warnedAt`: the last mark said (Infinity: none yet).
 * @param {number} left ms
 * @param {number} warnedAt
 * @returns {{ at: number, text: string } | null}
 */
export function timeWarning(left, warnedAt) {
  const at = WARNINGS.filter((mark) => left <= mark && mark < warnedAt).at(-1);
  if (at === undefined || left <= 0) return null;
  const seconds = Math.ceil(left / 1000);
  return { at, text: seconds >= 60 ? "1 minute left" : `${seconds} seconds left` };
}
