// @ts-check
// What a click or tap on the board means: pick a pile, then the pile it goes to. Pure
// (no DOM), like the terminal client's client_cli/clicks.py, whose cases it shares
// (tests/fixtures/clicks.json; client_web/tests/clicks.test.js): it reads the notation's
// shape only (`src>dst`, a counted `c3:2>e2`, a pair `4+8`, a word like `deal`); the
// server still decides what is legal.

/**
 * What a click asks for: a move to send, or a note to show; and the pile picked after it.
 * `choices`: the moves the click fits, where it fits several (The Blockade's whole run
 * and its parts, `g6>a6`, `g6:1>a6`, `g6:2>a6`), for the player to choose among.
 * @typedef {{ move?: string, note?: string, picked: string | null, choices?: string[] }} Click
 */

// the kinds a click on deals, when a word move such as `deal` is legal (the talon only
// when no move starts from it)
const STOCK_KINDS = new Set(["stock", "talon"]);

/**
 * The piles a move starts from: before `>` or `:`, or both halves of a pair; a word whole.
 * @param {string} move
 * @returns {string[]}
 */
export function movePiles(move) {
  if (move.includes("+")) return move.split("+").filter(Boolean);
  return [move.split(/[>:]/)[0]];
}

/** @param {string} move */
function target(move) {
  return move.includes(">") ? move.slice(move.lastIndexOf(">") + 1) : "";
}

/**
 * Whether `move` ends on pile `label`, or on its family: a target no pile is named
 * (`f`, `d`) stands for the foundations whose names start with it (`f` is any of
 * fc..fs), never a cell that happens to (Babette's `d2` is no foundation down).
 * @param {string} move
 * @param {string} label
 * @param {Record<string, string>} kinds every pile's kind, by label
 */
function goesTo(move, label, kinds) {
  const to = target(move);
  if (!to) return false;
  if (label === to) return true;
  return !(to in kinds) && label.startsWith(to) && (kinds[label] || "").startsWith("foundation");
}

/**
 * The legal moves that start at pile `label` (either half of a pair).
 * @param {string} label
 * @param {string[]} legal
 */
export function candidates(label, legal) {
  return legal.filter((move) => move !== label && movePiles(move).includes(label));
}

/**
 * Whether a move is a word (`deal`, `reserve`): it names no pile to go to.
 * @param {string} move
 */
export function isWord(move) {
  return movePiles(move).length === 1 && movePiles(move)[0] === move;
}

/**
 * What a click on pile `label` means, given the pile picked before (or null): a move to
 * send, a note, and the pile picked after. The server still decides what is legal.
 * @param {string | null} picked
 * @param {string} label
 * @param {string[]} legal
 * @param {Record<string, string>} kinds every pile's kind, by label
 * @param {string} [verb] what the player does to a pile: "tap" on a touch screen, "click"
 *   with a mouse, "key" on the keyboard (Tab to a pile, Enter)
 * @returns {Click}
 */
export function click(picked, label, legal, kinds, verb = "tap") {
  const words = legal.filter(isWord);
  if (picked === null) {
    if (legal.includes(label)) return { move: label, picked: null };
    const options = candidates(label, legal);
    // (the talon deals too, but not over a card of its own that can be played)
    if (STOCK_KINDS.has(kinds[label]) && words.length && (kinds[label] === "stock" || !options.length))
      return { move: words[0], picked: null };
    if (!options.length) return { note: `no legal move starts at ${label}`, picked: null };
    const pair = options.some((m) => m.includes("+"));
    if (options.length === 1 && !pair && !options[0].includes(">")) return { move: options[0], picked: null };
    const goal = pair ? "its pair" : "where it goes";
    const next = verb === "key" ? `Tab to ${goal} and press Enter` : `${verb} ${goal}`;
    return { note: `${label} picked: ${next}`, picked: label };
  }
  if (label === picked) {
    const options = candidates(label, legal);
    if (options.length === 1) return { move: options[0], picked: null };
    if (!options.length) return { note: "", picked: null };
    return { note: `${label}: which move? ${options.join(", ")}`, picked: null, choices: options };
  }
  const fromPicked = candidates(picked, legal);
  const pairs = fromPicked.filter((m) => m.includes("+") && movePiles(m).includes(label));
  const moves = pairs.length ? pairs : fromPicked.filter((m) => goesTo(m, label, kinds));
  if (moves.length === 1) return { move: moves[0], picked: null };
  if (moves.length) return { note: `which move? ${moves.join(", ")}`, picked: null, choices: moves };
  if (fromPicked.some((m) => m.includes("+"))) return { note: `${picked} and ${label} are not a pair`, picked: null };
  return { move: `${picked}>${label}`, picked: null }; // the server says why not
}

/**
 * The labels a picked pile's moves go to (lit up as targets).
 * @param {string} picked
 * @param {string[]} legal
 * @param {{ label: string, kind: string }[]} piles
 * @returns {Set<string>}
 */
export function targets(picked, legal, piles) {
  const kinds = Object.fromEntries(piles.map((p) => [p.label, p.kind]));
  const out = new Set();
  for (const move of candidates(picked, legal)) {
    if (move.includes("+")) movePiles(move).forEach((l) => l !== picked && out.add(l));
    else for (const label of Object.keys(kinds)) if (goesTo(move, label, kinds)) out.add(label);
  }
  return out;
}

// the piles a refusal names by their kind, not by their label
/** @type {Record<string, string>} */
const PLACES = { stock: "the stock", talon: "the talon", waste: "the waste", reserve: "the reserve" };

/**
 * Why a pile picked and the pile chosen after it are no move, where the server could
 * not read them as one in the game's notation (Babette's d1 then its stock: "cannot
 * read 'd1>s' as a move of Babette. Moves look like …", words for the move box, not for
 * piles picked): the picked pile's top card and where it cannot go. Else null (the
 * server's reason, "8D cannot go on KD", is plain already).
 * @param {unknown} error the refusal
 * @param {string | null} top the code of the picked pile's top card (null: none)
 * @param {string} kind the kind of the pile chosen after it
 * @param {string} from the picked pile's label
 * @param {string} to the chosen pile's label
 * @returns {string | null}
 */
export function unreadPair(error, top, kind, from, to) {
  const refused = /** @type {{ code?: unknown, message?: unknown }} */ (error ?? {});
  if (refused.code !== "illegal_move" || typeof refused.message !== "string") return null;
  if (!refused.message.startsWith("cannot read ")) return null;
  return `${top ?? `Nothing on ${from}`} cannot go to ${PLACES[kind] || to}`;
}
