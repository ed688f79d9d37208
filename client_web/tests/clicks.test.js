// The browser's clicks (app/clicks.js) on the cases it shares with the terminal client's
// clicks.py (tests/fixtures/clicks.json, read by tests/client_cli/test_clicks.py too):
// the move a click sends, the pile picked after it, the note's common words, and the
// piles lit as a picked pile's targets.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { click, isWord, movePiles, targets, unreadPair } from "../app/clicks.js";
import { choiceName } from "../app/choices.js";

const fixture = JSON.parse(readFileSync(new URL("../../tests/fixtures/clicks.json", import.meta.url), "utf8"));

for (const position of fixture.positions) {
  for (const c of position.clicks) {
    test(`${position.game}: ${c.picked ?? "nothing"} picked, ${c.label} clicked: ${c.why}`, () => {
      const got = click(c.picked, c.label, position.legal, position.kinds);
      assert.equal(got.move ?? null, c.move);
      assert.equal(got.picked, c.after);
      if (c.says !== undefined) assert.ok(got.note?.includes(c.says), `${got.note} says ${c.says}`);
    });
  }
  const piles = Object.entries(position.kinds).map(([label, kind]) => ({ label, kind }));
  for (const [picked, expected] of Object.entries(position.targets)) {
    test(`${position.game}: the targets of ${picked}`, () => {
      assert.deepEqual([...targets(picked, position.legal, piles)].sort(), [...expected].sort());
    });
  }
}

test("a picked pile's note says what the player does next: tap on a touch screen, click with a mouse, Tab and Enter on the keyboard", () => {
  const kinds = { t1: "bar", t2: "bar", b1: "bar" };
  assert.equal(click(null, "t1", ["t1>t2", "t1>b1"], kinds).note, "t1 picked: tap where it goes");
  assert.equal(click(null, "t1", ["t1>t2", "t1>b1"], kinds, "click").note, "t1 picked: click where it goes");
  assert.equal(
    click(null, "1", ["1+2", "1+3"], { 1: "cell", 2: "cell", 3: "cell" }, "click").note,
    "1 picked: click its pair",
  );
  assert.equal(
    click(null, "1", ["1+2", "1+3"], { 1: "cell", 2: "cell", 3: "cell" }, "key").note,
    "1 picked: Tab to its pair and press Enter",
  );
});

test("the piles a move starts from, read off its notation", () => {
  assert.deepEqual(movePiles("t1>b2"), ["t1"]);
  assert.deepEqual(movePiles("c3:2>e2"), ["c3"]);
  assert.deepEqual(movePiles("4+8"), ["4", "8"]);
  assert.deepEqual(movePiles("deal"), ["deal"]);
  assert.ok(isWord("deal") && isWord("reserve") && !isWord("r>f") && !isWord("1+3"));
});

test("a tap that fits several moves offers each to choose by a tap (The Blockade's whole run and its parts)", () => {
  const kinds = { g6: "cell", a6: "cell", d6: "cell" };
  const legal = ["g6>a6", "g6:1>a6", "g6:2>a6", "g6>d6"];
  const got = click("g6", "a6", legal, kinds);
  assert.equal(got.move, undefined);
  assert.deepEqual(got.choices, ["g6>a6", "g6:1>a6", "g6:2>a6"]);
  assert.ok(got.note?.startsWith("which move?"));
  // the pile tapped twice: every move from it
  assert.deepEqual(click("g6", "g6", legal, kinds).choices, legal);
  // one move: played, nothing to choose
  assert.equal(click("g6", "d6", legal, kinds).move, "g6>d6");
  assert.equal(click("g6", "d6", legal, kinds).choices, undefined);
  // each choice named with what it moves
  assert.equal(choiceName("g6:1>a6", got.choices ?? []), "play g6:1>a6: the top card of g6 to a6");
  assert.equal(choiceName("g6:2>a6", got.choices ?? []), "play g6:2>a6: the top 2 cards of g6 to a6");
  assert.equal(choiceName("g6>a6", got.choices ?? []), "play g6>a6: the whole run on g6 to a6");
  assert.equal(choiceName("l>t4", ["l>t4", "l>b1"]), "play l>t4");
});

test("every legal move of every position can be played by taps alone: a button, a tap, two, or a choice after them", () => {
  for (const position of fixture.positions) {
    const labels = Object.keys(position.kinds);
    for (const move of position.legal) {
      if (isWord(move)) continue; // (its button: game.js)
      const reached = labels.some((first) => {
        const one = click(null, first, position.legal, position.kinds);
        if (one.move === move || one.choices?.includes(move)) return true;
        if (one.picked === null) return false;
        return labels.some((second) => {
          const two = click(first, second, position.legal, position.kinds);
          return two.move === move || Boolean(two.choices?.includes(move));
        });
      });
      assert.ok(reached, `${position.game}: ${move}`);
    }
  }
});

test("a pick the server cannot read as a move is said as the card and where it cannot go", () => {
  const unread = { code: "illegal_move", message: "cannot read 'd1>s' as a move of Babette." };
  assert.equal(unreadPair(unread, "8D", "stock", "d1", "s"), "8D cannot go to the stock");
  assert.equal(unreadPair(unread, null, "cell", "d1", "e2"), "Nothing on d1 cannot go to e2");
  // the server's own reason is plain already; a link's refusal is not the pick's
  assert.equal(unreadPair({ code: "illegal_move", message: "8D cannot go on KD" }, "8D", "", "a", "b"), null);
  assert.equal(unreadPair({ code: "not_connected", message: "cannot read" }, "8D", "", "a", "b"), null);
});
