// A race of the player's still on, from a welcome's `resume` (app/elsewhere.js): what the
// home screen says is on, and what leaving it asks first; the browser side is
// tests/web/test_elsewhere_race.py.

import { test } from "node:test";
import assert from "node:assert/strict";

import { besideQuestion, leaveQuestion, raceOn } from "../app/elsewhere.js";

const racing = (status, more = {}) => ({
  room: { code: "K7PQ2M", game: "gate", state: "racing", players: [{ name: "ann", status }], left: [], ...more },
});

test("a race is on while the player's game in it is played, or while it counts down", () => {
  assert.deepEqual(raceOn(racing("playing"), "ann"), { code: "K7PQ2M", game: "gate", countdown: false });
  const countdown = { room: { code: "K7PQ2M", game: "gate", state: "countdown", players: [{ name: "ann" }] } };
  assert.deepEqual(raceOn(countdown, "ann"), { code: "K7PQ2M", game: "gate", countdown: true });
  // (a server without the players' status: the race's own game says it)
  const bare = { room: { ...racing("playing").room, players: [{ name: "ann" }] }, race: { status: "playing" } };
  assert.ok(raceOn(bare, "ann"));
});

test("nothing is on for a game over, a player who left, a room not racing, or no room", () => {
  assert.equal(raceOn(racing("won"), "ann"), null);
  assert.equal(raceOn(racing("resigned"), "ann"), null);
  // one who left is in `left`, not `players`
  const left = { room: { ...racing("playing").room, players: [{ name: "bo", status: "playing" }] } };
  assert.equal(raceOn(left, "ann"), null);
  for (const state of ["lobby", "finished", "closed"])
    assert.equal(raceOn({ room: { ...racing("playing").room, state } }, "ann"), null, state);
  assert.equal(raceOn({}, "ann"), null);
  assert.equal(raceOn(null, "ann"), null);
  assert.equal(raceOn(racing("playing"), null), null);
});

test("leaving a race asks as Play beside it does, and says what it costs", () => {
  assert.equal(
    leaveQuestion("The Gate", false, "Make a room to race Nestor"),
    "Your race at The Gate is still on, its clock running. Make a room to race Nestor? " +
      "That leaves your room, and resigns your game in the race at The Gate.",
  );
  assert.equal(
    leaveQuestion("The Gate", true, "Join room K7PQ2M"),
    "Your race at The Gate is about to start. Join room K7PQ2M? " +
      "That leaves your room, and takes you out of the race at The Gate before it starts.",
  );
});

test("a game dealt beside the race asks as Play does, the daily's Start and practice too", () => {
  assert.equal(
    besideQuestion("The Gate", false, "Play Nestor"),
    "Your race at The Gate is still on, its clock running. Play Nestor beside it?",
  );
  assert.equal(
    besideQuestion("The Gate", false, "Start today's ranked attempt at Nestor"),
    "Your race at The Gate is still on, its clock running. Start today's ranked attempt at Nestor beside it?",
  );
  assert.equal(
    besideQuestion("The Gate", true, "Practise Nestor's daily deal"),
    "Your race at The Gate is about to start. Practise Nestor's daily deal beside it?",
  );
});
