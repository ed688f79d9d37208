"""Undo after a loss, on the real server and Redis: a lost solo or practice game is taken
back by ``undo`` and played on (through a restart too: the game rebuilt from its log is
playing), while a race, a ranked daily and a challenge stay final; every reply carrying
a lost status says why (``lost``); the replay of a game won after an undone loss is
verified and raced as won, and one that claims such an undo in a ranked game is not."""

from __future__ import annotations

import random

import pytest

from server.app.domain import daily as d
from server.app.domain import ghosts, replays
from server.app.settings import Settings
from server.engine import new_game
from tests.solver.positions import LOST

from .client import Client, player, racing, signed_in
from .conftest import ManualClock, Running, running

#: Nestor, seed 16: six moves, lost, the last of them a pair that can be taken back
LOSING = LOST["nestor"].line
#: Nestor, seed 28: nine moves, two that lose it, and a line that wins from before those
#: two (found with the solver and random playouts)
SEED_28 = ["reserve", "6+r1", "reserve", "reserve", "reserve", "1+r4", "1+r2", "1+3", "1+r3"]
LOSES_28 = ["1+4", "2+3"]
WINS_28 = [
    *("2+3", "1+3", "3+5", "1+3", "3+7", "5+6", "2+6", "2+8", "7+8", "5+8", "5+6"),
    *("2+5", "2+8", "4+6", "2+6", "5+7", "4+7", "4+7", "4+8", "4+8", "4+7"),
]
LOST_16 = {
    "why": "No pair is left to take off and the reserve is out.",
    "home": 2,
    "total": 26,
    "unit": "pairs",
}


async def play(client: Client, gid: str, line: list[str], clock: ManualClock | None = None) -> dict:
    """Play ``line``; with ``clock``, at a person's pace (the server's clock moved on
    before each move: a ranked result played faster than people play is held off its
    board, docs/leaderboards.md)."""
    reply: dict = {}
    for move in line:
        if clock is not None:
            clock.advance(0.6)
        reply = await client.call("move", move=move, game=gid)
    return reply


def losing_line(game_id: str, seed: int) -> list[str] | None:
    """A line of random moves that loses the deal, its last move one the engine can take
    back (a daily's deal is only known once dealt), or None if none is found soon."""
    for attempt in range(200):
        rng = random.Random(attempt)
        game = new_game(game_id, seed=seed)
        line: list[str] = []
        while game.status == "playing" and len(line) < 1000:
            line.append(game.play(rng.choice(game.legal_moves())).text)
        if game.status == "lost" and game.can_undo():
            return line
    return None


async def test_a_lost_solo_game_is_undone_and_played_on(server: Running) -> None:
    ann = await player(server.url, "ann")
    gid = (await ann.call("new_game", game="nestor", seed=16))["game"]
    lost = await play(ann, gid, LOSING)
    assert lost["type"] == "moved" and lost["status"] == "lost" and lost["legal"] == []
    assert lost["lost"] == {**LOST_16, "undo": True}
    refused = await ann.request("move", move="1+2", game=gid)
    assert refused["code"] == "game_over"

    undone = await ann.call("undo", game=gid)
    assert undone["type"] == "undone" and undone["move"] == LOSING[-1]
    assert undone["status"] == "playing" and "lost" not in undone
    assert undone["legal"] and undone["view"]["status"] == "playing"
    # played on: the same move loses it again, and undoing it again is accepted
    again = await ann.call("move", move=LOSING[-1], game=gid)
    assert again["status"] == "lost" and again["lost"]["undo"] is True
    assert (await ann.call("undo", game=gid))["status"] == "playing"
    # another connection sees it playing (the game taken afresh from Redis)
    await ann.close()
    back = await signed_in(server.url, ann.token or "")
    solo = back.welcome["resume"]["solo"]  # type: ignore[attr-defined]
    assert solo["game"] == gid and solo["status"] == "playing" and "lost" not in solo
    assert solo["legal"] == undone["legal"]


async def test_a_loss_the_engine_cannot_take_back_says_so(server: Running) -> None:
    """Doubles and Quits, seed 0: its one pair fills the gaps from the stock, which shows
    cards; the loss is final, and ``lost.undo`` says so before the undo is tried."""
    ann = await player(server.url, "ann")
    gid = (await ann.call("new_game", game="doubles-and-quits", seed=0))["game"]
    lost = await play(ann, gid, LOST["doubles-and-quits"].line)
    assert lost["lost"] == {
        "why": "No pair is left to take off.",
        "home": 1,
        "total": 26,
        "unit": "pairs",
        "undo": False,
    }
    refused = await ann.request("undo", game=gid)
    assert refused["code"] == "undo_refused"


async def test_a_lost_race_game_stays_over(server: Running) -> None:
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    await racing(ann, bob, game="nestor", seed=16)
    start = next(e for e in ann.frames if e.get("type") == "race_start")
    lost = await play(ann, start["game"], LOSING)
    assert lost["status"] == "lost" and lost["lost"] == {**LOST_16, "undo": False}
    refused = await ann.request("undo", game=start["game"])
    assert refused["code"] == "game_over"


async def test_a_lost_ranked_daily_stays_over_and_its_practice_is_undone(
    server: Running,
) -> None:
    ann = await player(server.url, "ann")
    day = d.day_of(server.clock.now_ms())
    # a game of the day whose deal random moves lose, taken back (The Labyrinth's almost
    # always is; some Nestor deals end only on a turn of the reserve, never taken back)
    for game_id in ("labyrinth", "blockade-ten", "nestor"):
        seed = int((await server.service.certifier.deal(day, game_id))["seed"])
        line = losing_line(game_id, seed)
        if line is not None:
            break
    assert line is not None
    ranked = await ann.call("daily", game=game_id)
    assert ranked["ranked"] and ranked["kind"] == "daily"
    lost = await play(ann, ranked["game"], line, server.clock)
    assert lost["status"] == "lost" and lost["lost"]["undo"] is False
    refused = await ann.request("undo", game=ranked["game"])
    assert refused["code"] == "game_over"
    await ann.event("daily_result")

    practice = await ann.call("daily", game=game_id)
    assert practice["kind"] == "practice"
    lost = await play(ann, practice["game"], line)
    assert lost["status"] == "lost" and lost["lost"]["undo"] is True
    undone = await ann.call("undo", game=practice["game"])
    assert undone["status"] == "playing" and undone["move"] == line[-1]
    # the day's board holds the ranked attempt, lost, and nothing of the practice
    board = await ann.call("top", board=f"daily/{game_id}/{day}")
    entries = [(e["player"], e["won"], e["replay"]) for e in board["entries"]]
    assert entries == [("ann", False, ranked["game"])]


async def test_a_challenge_stays_over_and_its_source_stands(server: Running) -> None:
    """A challenge taken stays final when lost; and the lost game a challenge was made
    of is no longer undone (the challenge races it as it ended)."""
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    gid = (await ann.call("new_game", game="nestor", seed=16))["game"]
    await play(ann, gid, LOSING)
    cid = (await ann.call("challenge_create", replay=gid))["challenge"]["id"]
    refused = await ann.request("undo", game=gid)
    assert refused["code"] == "game_over" and "challenge" in refused["message"]

    taken = await bob.call("challenge_take", challenge=cid)
    await bob.event("challenge_start")
    lost = await play(bob, taken["game"], LOSING)
    assert lost["status"] == "lost" and lost["lost"]["undo"] is False
    refused = await bob.request("undo", game=taken["game"])
    assert refused["code"] == "game_over"


async def test_an_undone_loss_survives_restarts_and_the_game_won_counts_won(
    settings: Settings,
) -> None:
    async with running(settings) as first:
        ann = await player(first.url, "ann")
        gid = (await ann.call("new_game", game="nestor", seed=28))["game"]
        lost = await play(ann, gid, SEED_28 + LOSES_28)
        assert lost["status"] == "lost"
    # rebuilt from its log, the game is lost, and its loss can be undone
    async with running(settings) as second:
        ann = await signed_in(second.url, ann.token or "")
        solo = ann.welcome["resume"]["solo"]  # type: ignore[attr-defined]
        assert solo["status"] == "lost" and solo["lost"]["undo"] is True
        await ann.call("undo", game=gid)
        undone = await ann.call("undo", game=gid)
        assert undone["status"] == "playing"
    # rebuilt again, past the undos: playing, and played on to a win
    async with running(settings) as third:
        ann = await signed_in(third.url, ann.token or "")
        solo = ann.welcome["resume"]["solo"]  # type: ignore[attr-defined]
        assert solo["status"] == "playing" and "lost" not in solo
        assert solo["view"]["moves"] == len(SEED_28)
        won = await play(ann, gid, WINS_28)
        assert won["status"] == "won" and "lost" not in won

        replay = (await ann.call("replay", replay=gid))["replay"]
        entries = [what for _, what in replay["moves"]]
        assert entries == SEED_28 + LOSES_28 + ["!undo", "!undo"] + WINS_28
        assert replay["result"]["status"] == "won"
        assert replays.verify(replay)["status"] == "won"
        challenge = (await ann.call("challenge_create", replay=gid))["challenge"]
        assert challenge["result"]["status"] == "won"


def test_an_undo_after_a_loss_is_verified_only_where_the_server_takes_one() -> None:
    """A replay is checked as the server plays: a solo or practice game may go on after
    an undone loss; a ranked game's replay claiming one is tampered with."""
    game = new_game("nestor", seed=28)
    for move in SEED_28 + WINS_28:
        game.play(move)
    moves = [[1000 + n, what] for n, what in enumerate(SEED_28 + LOSES_28 + ["!undo"] * 2)]
    moves += [[2000 + n, what] for n, what in enumerate(WINS_28)]
    home, total = game.progress
    result = {"status": "won", "time_ms": 2000 + len(WINS_28) - 1 - 1000, "moves": game.moves}
    result.update(home=home, total=total)
    replay = {"game": "nestor", "seed": 28, "start_ms": 1000, "moves": moves, "result": result}
    for kind in ("solo", "practice"):
        assert replays.verify({**replay, "kind": kind})["status"] == "won"
        ghost = ghosts.of_replay({**replay, "kind": kind})
        assert ghost["end"] == {"status": "won", "at": result["time_ms"]}
        assert ghost["points"][-1][1] == 52
    for kind in ("daily", "race", "challenge"):
        with pytest.raises(replays.Tampered, match="comes after the game ended"):
            replays.verify({**replay, "kind": kind})


async def test_a_game_over_says_when_it_ended_and_an_undo_takes_that_back(
    server: Running,
) -> None:
    """The reply that ends a game, and its snapshot after, carry the server's time of its
    end (``finished_at``): a client shows the game's time as the server measured it (the
    browser dropped its clock at the end; the terminal counted to the moment it looked).
    An undo of the loss takes it away again; a resignation has one too."""
    clock = server.clock
    clock.freeze()
    ann = await player(server.url, "ann")
    dealt = await ann.call("new_game", game="nestor", seed=16)
    gid, started = dealt["game"], dealt["started_at"]
    assert "finished_at" not in dealt
    await play(ann, gid, LOSING[:-1])
    clock.advance(7.5)
    lost = await ann.call("move", move=LOSING[-1], game=gid)
    assert lost["status"] == "lost" and lost["finished_at"] == started + 7_500
    clock.advance(60)
    assert ann.token is not None
    again = await signed_in(server.url, ann.token)
    solo = again.welcome["resume"]["solo"]  # type: ignore[attr-defined]
    assert solo["finished_at"] == started + 7_500
    undone = await again.call("undo", game=gid)
    assert undone["status"] == "playing" and "finished_at" not in undone
    welcome = await again.call("hello", protocol=1, token=ann.token)
    assert "finished_at" not in welcome["resume"]["solo"]
    clock.advance(2)
    resigned = await again.call("resign", game=gid)
    assert resigned["finished_at"] == started + 69_500
    await ann.close()
    await again.close()
