// What a click or tap on the board means: pick a pile, then the pile it goes to. Pure
// (no DOM), like the terminal client's client_cli/clicks.py, whose cases it shares
// (client_web/tests/): it reads the notation's shape only (`src>dst`, a counted
// `c3:2>e2`, a pair `4+8`, a word like `deal`); the server still decides what is legal.

// the kinds a click on deals, when a word move such as `deal` is legal
const STOCK_KINDS = new Set(["stock", "talon"]);

// the piles a move starts from: before `>` or `:`, or both halves of a pair; a word whole
export function movePiles(move) {
  if (move.includes("+")) return move.split("+").filter(Boolean);
  return [move.split(/[>:]/)[0]];
}

function target(move) {
  return move.includes(">") ? move.slice(move.lastIndexOf(">") + 1) : "";
}

// whether `move` ends on pile `label`, or on its family (`f` is any foundation fc..fs)
function goesTo(move, label, labels) {
  const to = target(move);
  if (!to) return false;
  return label === to || (!labels.has(to) && label.startsWith(to));
}

export function candidates(label, legal) {
  return legal.filter((move) => move !== label && movePiles(move).includes(label));
}

export function isWord(move) {
  return movePiles(move).length === 1 && movePiles(move)[0] === move;
}

// What a click on pile `label` means, given the pile picked before (or null): a move to
// send, a note, and the pile picked after. The server still decides what is legal.
export function click(picked, label, legal, kinds) {
  const labels = new Set(Object.keys(kinds));
  const words = legal.filter(isWord);
  if (picked === null) {
    if (legal.includes(label)) return { move: label, picked: null };
    if (STOCK_KINDS.has(kinds[label]) && words.length) return { move: words[0], picked: null };
    const options = candidates(label, legal);
    if (!options.length) return { note: `no legal move starts at ${label}`, picked: null };
    const pair = options.some((m) => m.includes("+"));
    if (options.length === 1 && !pair && !options[0].includes(">")) return { move: options[0], picked: null };
    return { note: `${label} picked: ${pair ? "tap its pair" : "tap where it goes"}`, picked: label };
  }
  if (label === picked) {
    const options = candidates(label, legal);
    if (options.length === 1) return { move: options[0], picked: null };
    return { note: options.length ? `${label}: which move? ${options.join(", ")}` : "", picked: null };
  }
  const fromPicked = candidates(picked, legal);
  const pairs = fromPicked.filter((m) => m.includes("+") && movePiles(m).includes(label));
  const moves = pairs.length ? pairs : fromPicked.filter((m) => goesTo(m, label, labels));
  if (moves.length === 1) return { move: moves[0], picked: null };
  if (moves.length) return { note: `which move? ${moves.join(", ")}`, picked: null };
  if (fromPicked.some((m) => m.includes("+"))) return { note: `${picked} and ${label} are not a pair`, picked: null };
  return { move: `${picked}>${label}`, picked: null }; // the server says why not
}

// the labels a picked pile's moves go to (lit up as targets)
export function targets(picked, legal, piles) {
  const labels = new Set(piles.map((p) => p.label));
  const out = new Set();
  for (const move of candidates(picked, legal)) {
    if (move.includes("+")) movePiles(move).forEach((l) => l !== picked && out.add(l));
    else for (const label of labels) if (goesTo(move, label, labels)) out.add(label);
  }
  return out;
}
