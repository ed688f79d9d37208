// A finished game's review in words (app/review.js).

import { test } from "node:test";
import assert from "node:assert/strict";

import { LINE_FOLD, LINE_PREVIEW, boardName, boardWords, linePreview, reviewLines } from "../app/review.js";
import { pickedTargets, touchedPiles } from "../app/touched.js";

test("a lost game: the move that lost it, the move that kept the win, its line", () => {
  const got = reviewLines({
    found: "lost_at",
    move: 6,
    played: "1+7",
    better: "1+5",
    continuation: ["1+5", "2+8"],
    lost_by: 6,
  });
  assert.equal(got.title, "Where the game was lost");
  assert.deepEqual(got.lines, [
    "Until move 6 a player who knew the face-down cards could still have won: you played 1+7 there, and from then on no win was left.",
    "Playing 1+5 there would have kept the win. A line that wins from there (checked by the rules engine):",
  ]);
  assert.deepEqual(got.line, ["1+5", "2+8"]);
});

test("another player's game reviewed (a replay page) names its player, not you", () => {
  const lost = reviewLines(
    { found: "lost_at", move: 63, played: "deal", better: "w>t1", continuation: ["w>t1"] },
    "zoe",
  );
  assert.match(lost.lines[0], /: zoe played deal there, and from then on no win was left\.$/);
  const between = reviewLines({ found: "between", move: 3, played: "deal", lost_by: 5 }, "zoe");
  assert.match(between.lines[0], /\(zoe played deal there\)/);
  assert.match(reviewLines({ found: "deal_lost" }, "zoe").lines[0], /nothing zoe did lost it\.$/);
  for (const said of [lost, between].flatMap((r) => r.lines)) assert.doesNotMatch(said, /\byou\b/);
});

test("what the review could not decide is said so", () => {
  const between = reviewLines({ found: "between", move: 3, played: "deal", better: "w>t1", lost_by: null });
  // with no move proved lost after it, nothing "between" to speak of
  assert.match(between.lines[0], /could not be decided in time\.$/);
  assert.doesNotMatch(between.lines[0], /Between them/);
  const bounded = reviewLines({ found: "between", move: 3, played: "deal", lost_by: 9 });
  assert.match(bounded.lines[0], /by move 9 no win was left\. Between them the review could not decide in its time\.$/);
  assert.deepEqual(reviewLines({ found: "undecided" }).lines, [
    "The review could not decide, in its time, where a win was still possible.",
  ]);
  assert.match(reviewLines({ found: "deal_lost" }).lines[0], /nothing you did lost it/);
});

test("a won game: over, under or on par, and the longest detour", () => {
  const over = reviewLines({
    found: "over_par",
    moves: 112,
    par: 108,
    over: 4,
    par_from: "book",
    detour: { from: 30, moves: 2 },
  });
  assert.equal(over.title, "How far over par");
  assert.deepEqual(over.lines, [
    "Won in 112 moves: 4 over par (108, the day's book line).",
    "The longest detour: moves 30 to 31 came back to where they began.",
  ]);
  const under = reviewLines({ found: "over_par", moves: 100, par: 104, over: -4, par_from: "found", shortest: false });
  assert.deepEqual(under.lines, [
    "Won in 100 moves: 4 under par (104, the shortest line the review found in its time, not proved).",
  ]);
  const on = reviewLines({ found: "over_par", moves: 26, par: 26, over: 0, par_from: "found", shortest: true });
  assert.deepEqual(on.lines, ["Won in 26 moves: on par (26, proved the shortest)."]);
});

test("a long winning line is folded to its start; a short one is shown whole", () => {
  const short = Array.from({ length: LINE_FOLD }, (_, n) => `m${n}`);
  assert.equal(linePreview(short), null);
  const long = Array.from({ length: 300 }, (_, n) => `m${n}`);
  const folded = linePreview(long);
  assert.ok(folded);
  assert.equal(folded.start, `${long.slice(0, LINE_PREVIEW).join(" ")} …`);
  assert.equal(folded.more, "all 300 moves");
});

test("a game left winnable after one move says move, not moves", () => {
  assert.equal(
    reviewLines({ found: "still_winnable", moves: 1 }).lines[0],
    "The game ended in a position a player who knew the face-down cards could still win (after 1 move).",
  );
});

test("a game resigned before its first move says so, not 'after 0 moves'", () => {
  assert.equal(
    reviewLines({ found: "still_winnable", moves: 0 }).lines[0],
    "The game was resigned before its first move: a player who knew the face-down cards could win this deal.",
  );
});

test("a game the clock ended before its first move says so, not that it was resigned", () => {
  assert.equal(
    reviewLines({ found: "still_winnable", moves: 0, status: "timeout" }).lines[0],
    "Time ran out before the game's first move: a player who knew the face-down cards could win this deal.",
  );
});

/**
 * A view's piles from [label, kind, cards] (cards: how many; the stock's face down).
 * @param {string} game
 * @param {[string, string, number][]} piles
 * @param {Record<string, unknown>} [extra]
 */
function view(game, piles, extra = {}) {
  return {
    game,
    ...extra,
    piles: piles.map(([label, kind, n]) =>
      kind === "stock"
        ? { label, kind, cards: [], down: n }
        : { label, kind, cards: Array.from({ length: n }, () => "2C"), down: 0 },
    ),
  };
}

/** @param {number} t1 @param {number} l @param {number} stock @param {number} waste */
const narrowGate = (t1, l, stock, waste) =>
  view("gate-narrow", [
    ["l", "post", l],
    ["r", "post", 5],
    ["t1", "bar", t1],
    ["t2", "bar", 3],
    ["t3", "bar", 1],
    ["b1", "bar", 1],
    ["b2", "bar", 2],
    ["b3", "bar", 1],
    ["w", "waste", waste],
    ["s", "stock", stock],
    ["fc", "foundation", 1],
  ]);

test("a move that names piles rings them, and only piles on the board", () => {
  const gate = narrowGate(1, 5, 6, 3);
  assert.deepEqual(touchedPiles("w>t2", gate), ["w", "t2"]);
  assert.deepEqual(touchedPiles("t3>f", gate), ["t3"]); // (f: no pile of that name)
  assert.deepEqual(
    touchedPiles(
      "1+7",
      view("nestor", [
        ["1", "column", 2],
        ["7", "column", 1],
      ]),
    ),
    ["1", "7"],
  );
  assert.deepEqual(touchedPiles(null, gate), []);
  assert.deepEqual(touchedPiles("deal", null), []);
});

test("a card sent to the foundations rings the one it goes on (the hint named a pile shown nowhere)", () => {
  /** @param {string} game @param {[string, string, string[]][]} piles */
  const board = (game, piles) => ({
    game,
    piles: piles.map(([label, kind, cards]) => ({ label, kind, cards, down: 0 })),
  });
  const gate = board("gate", [
    ["r", "post", ["9H", "2S"]],
    ["fc", "foundation", ["AC"]],
    ["fs", "foundation", ["AS"]],
  ]);
  assert.deepEqual(touchedPiles("r>f", gate), ["r", "fs"]);
  // Babette: up from the ace, down from the king, by suit
  const babette = board("babette", [
    ["b1", "cell", ["KS"]],
    ["b2", "cell", ["2H"]],
    ["us", "foundation-up", []],
    ["uh", "foundation-up", ["AH"]],
    ["ds", "foundation-down", []],
  ]);
  assert.deepEqual(touchedPiles("b1>d", babette), ["b1", "ds"]);
  assert.deepEqual(touchedPiles("b2>u", babette), ["b2", "uh"]);
  // The Labyrinth's kings' piles build down: a queen on its king
  const labyrinth = board("labyrinth", [
    ["i1", "cell", ["QH"]],
    ["dc", "foundation-down", ["KC"]],
    ["dh", "foundation-down", ["KH"]],
  ]);
  assert.deepEqual(touchedPiles("i1>d", labyrinth), ["i1", "dh"]);
  // Light and Shade: any foundation a rank down in the other colour (f2's ace is red)
  const shade = board("light-and-shade", [
    ["a1", "auxiliary", ["2S"]],
    ["f1", "foundation", ["AC"]],
    ["f2", "foundation", ["AD"]],
  ]);
  assert.deepEqual(touchedPiles("a1>f", shade), ["a1", "f2"]);
  // none fits (a view of another time): the pile it comes from alone, as before
  assert.deepEqual(
    touchedPiles(
      "a1>f",
      board("light-and-shade", [
        ["a1", "auxiliary", ["5S"]],
        ["f1", "foundation", ["AD"]],
      ]),
    ),
    ["a1"],
  );
});

test("The Gate's deal: the stock onto the waste heap, or the vacancies it fills", () => {
  // complete: a stock card turned onto the waste heap
  assert.deepEqual(touchedPiles("deal", narrowGate(1, 5, 6, 3)), ["w", "s"]);
  // a vacancy (t1 empty, the left post two short): filled from the stock, in deal order
  assert.deepEqual(touchedPiles("deal", narrowGate(0, 3, 6, 3)), ["l", "t1", "s"]);
  // the stock out: filled from the waste heap
  assert.deepEqual(touchedPiles("deal", narrowGate(0, 5, 0, 3)), ["t1", "w"]);
  // the stock has one card for two vacancies: the waste heap gives the second
  assert.deepEqual(touchedPiles("deal", narrowGate(0, 4, 1, 3)), ["l", "t1", "w", "s"]);
  // the whole gate of The Gate too (its four-wide bars)
  const wide = { ...narrowGate(1, 5, 6, 3), game: "gate" };
  assert.deepEqual(touchedPiles("d", wide), ["s"]); // (a word no game has: the stock)
  assert.deepEqual(touchedPiles("deal", wide), ["w", "s"]);
});

test("a stock dealt onto a waste heap or a talon rings both", () => {
  const wedge = view("wedge", [
    ["1", "cell", 3],
    ["w", "waste", 2],
    ["s", "stock", 9],
    ["fc", "foundation", 1],
  ]);
  assert.deepEqual(touchedPiles("deal", wedge), ["w", "s"]);
  const shade = view("light-and-shade", [
    ["a1", "auxiliary", 1],
    ["t", "talon", 0],
    ["s", "stock", 40],
  ]);
  assert.deepEqual(touchedPiles("deal", shade), ["t", "s"]);
});

test("a garden's deal: the stock, and the lowest row's vacancies where the game refills them", () => {
  /** @param {string} game */
  const garden = (game) =>
    view(
      game,
      [
        ["a1", "cell", 1],
        ["b1", "cell", 0],
        ["a2", "cell", 1],
        ["b2", "cell", 0],
        ["c2", "cell", 0],
        ["s", "stock", 1],
        ["uc", "foundation-up", 1],
      ],
      { rows: 2, width: 3 },
    );
  // (the stock has one card: b2 filled, c2 not)
  assert.deepEqual(touchedPiles("deal", garden("labyrinth")), ["b2", "s"]);
  assert.deepEqual(touchedPiles("deal", garden("blockade-ten")), ["b2", "s"]);
  // Babette never refills: a new row, not on the board yet
  assert.deepEqual(touchedPiles("deal", garden("babette")), ["s"]);
  // Babette's redeal: the garden taken up into the stock, its first row laid again
  assert.deepEqual(touchedPiles("redeal", garden("babette")), ["a1", "b1", "a2", "s"]);
});

test("Nestor's reserve: the reserve and the place its card is turned up in", () => {
  /** @param {number} left */
  const nestor = (left) =>
    view("nestor", [
      ["1", "column", 2],
      ["reserve", "reserve", left],
      ["r1", "reserve-card", 4 - left > 0 ? 1 : 0],
      ["r2", "reserve-card", 0],
      ["r3", "reserve-card", 0],
      ["r4", "reserve-card", 0],
    ]);
  assert.deepEqual(touchedPiles("reserve", nestor(4)), ["reserve", "r1"]);
  assert.deepEqual(touchedPiles("reserve", nestor(3)), ["reserve", "r2"]);
  assert.deepEqual(touchedPiles("reserve", nestor(1)), ["reserve", "r4"]);
});

test("the words above the board claim only the rings drawn", () => {
  const gate = narrowGate(1, 5, 6, 3);
  assert.equal(boardWords({ played: "deal", better: "w>t3", view: gate }), " (deal ringed in orange, w>t3 in pink)");
  // a board with no pile the move touches: no ring claimed
  const bare = view("gate-narrow", [["t1", "bar", 1]]);
  assert.equal(boardWords({ played: "deal", better: "t1>b1", view: bare }), " (t1>b1 in pink)");
  assert.equal(boardWords({ played: "deal", better: null, view: bare }), "");
});

test("the board a review shows is named as it is", () => {
  assert.equal(boardName({ found: "lost_at", at: 5, move: 6 }), "board before move 6");
  assert.equal(boardName({ found: "between", at: 5, move: 6 }), "board before move 6");
  // a game left winnable: the board it ended in, after its last move (not "before move 40")
  assert.equal(
    boardName({ found: "still_winnable", status: "resigned", at: 39, move: 40 }),
    "board where the game was resigned, after move 39",
  );
  assert.equal(
    boardName({ found: "still_winnable", status: "timeout", at: 1, move: 2 }),
    "board where time ran out, after move 1",
  );
  assert.equal(
    boardName({ found: "still_winnable", status: "resigned", at: 0, move: 1 }),
    "board where the game was resigned, at the deal",
  );
});

test("a move whose replay step differs (undos and hints before it) says the step", async () => {
  const { stepNote } = await import("../app/review.js");
  const r = { found: "lost_at", move: 6, at: 5, step: 11, played: "1+7" };
  assert.match(
    reviewLines(r).lines[0],
    /^Until move 6 \(step 11 of its replay, which counts undos and hints, shows the board before it\) a player/,
  );
  assert.equal(stepNote({ ...r, step: 5 }), "");
  assert.match(reviewLines({ ...r, found: "between", lost_by: 9 }).lines[0], /^At move 6 \(step 11 of its replay/);
});

test("a pile picked outlines only the foundation its card goes on, where the notation names them all", () => {
  /** @param {string} game @param {[string, string, string[]][]} piles */
  const board = (game, piles) => ({
    game,
    piles: piles.map(([label, kind, cards]) => ({ label, kind, cards, down: 0 })),
  });
  // Light and Shade: a3's black 2 goes on a red ace; the eight foundations had all been
  // outlined for `a3>f`, the clubs' and spades' aces too
  const shade = board("light-and-shade", [
    ["a3", "auxiliary", ["2S"]],
    ["r1", "rival", ["9H"]],
    ["f1", "foundation", ["AD"]],
    ["f2", "foundation", ["AD", "2C"]],
    ["f3", "foundation", ["AH"]],
    ["f5", "foundation", ["AC"]],
    ["f7", "foundation", ["AS"]],
  ]);
  assert.deepEqual([...pickedTargets("a3", ["a3>f", "r1>a3"], shade)], ["f1"]);
  // a move to a pile by name is outlined as ever; a pair's other half too
  assert.deepEqual([...pickedTargets("r1", ["a3>f", "r1>a3"], shade)], ["a3"]);
  const pairs = board("nestor", [
    ["1", "column", ["9H"]],
    ["2", "column", ["9S"]],
    ["3", "column", ["9C"]],
  ]);
  assert.deepEqual([...pickedTargets("1", ["1+2", "1+3"], pairs)].sort(), ["2", "3"]);
  // where no foundation fits by the cards (a view of another time), the family, as before
  const stale = board("light-and-shade", [
    ["a3", "auxiliary", ["5S"]],
    ["f1", "foundation", ["AD"]],
    ["f5", "foundation", ["AC"]],
  ]);
  assert.deepEqual([...pickedTargets("a3", ["a3>f"], stale)].sort(), ["f1", "f5"]);
});
