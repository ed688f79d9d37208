"""``home`` on the real server and Redis: every card that can go home, as ordinary logged
moves, in every game; in a race and in a ranked daily; and its refusals."""

from __future__ import annotations

from typing import Any, cast

import pytest

from server.app import store
from server.app.domain.daily import day_of
from server.app.domain.lost import CARDS, unit_of
from server.app.settings import Settings
from server.engine import new_game
from tests.solver.positions import HOME, homed

from .client import Client, player, signed_in
from .conftest import ManualClock, Running, running, with_settings
from .test_daily import secret_winning_on
from .test_race import lobby


async def refused(client: Client, code: str, match: str, **fields: Any) -> None:
    reply = await client.request("home", **fields)
    assert reply["type"] == "error" and reply["code"] == code, reply
    assert match in reply["message"], reply


async def logged(server: Running, gid: str) -> list[str]:
    """The game's log in Redis: its entries without their times."""
    entries = cast(list[bytes], await server.redis.lrange(store.log_key(gid), 0, -1))
    return [entry.decode().split(" ", 1)[1] for entry in entries]


#: the games with a home to play to (not the pairing games: ``no_home``, below)
HOMES = [game_id for game_id in HOME if unit_of(game_id) == CARDS]


@pytest.mark.parametrize("game_id", HOMES)
async def test_home_plays_every_card_that_can_go_home(settings: Settings, game_id: str) -> None:
    position = HOME[game_id]
    game = position.game(game_id)
    expected = homed(game)
    assert len(expected) >= 2
    async with running(settings) as server:
        ann = await player(server.url, "ann")
        gid = (await ann.call("new_game", game=game_id, seed=position.seed))["game"]
        for move in position.line:
            await ann.call("move", move=move, game=gid)
        reply = await ann.call("home", game=gid)
        for move in expected:
            game.play(move)
        assert reply["type"] == "homed" and reply["game"] == gid
        assert reply["moves"] == expected
        assert reply["view"] == game.view()
        assert reply["legal"] == [m.text for m in game.legal_moves()]
        assert reply["status"] == game.status
        # each one an ordinary move in the log, after the line
        assert await logged(server, gid) == [*position.line, *expected]
        # nothing more can go home (or the game is over): home again plays nothing
        if game.status == "playing":
            again = await ann.call("home")
            assert again["moves"] == [] and again["view"] == reply["view"]
        token = ann.token
        await ann.close()
    # a restart rebuilds the same position from the log
    async with running(settings) as server:
        assert token is not None
        ann = await signed_in(server.url, token)
        solo = ann.welcome["resume"]["solo"]  # type: ignore[attr-defined]
        assert solo["game"] == gid and solo["view"] == reply["view"]
        await ann.close()


async def test_home_with_nothing_to_play_home_plays_nothing(server: Running) -> None:
    ann = await player(server.url, "ann")
    dealt = await ann.call("new_game", game="gate", seed=1)
    assert not new_game("gate", seed=1).home_moves()
    reply = await ann.call("home")
    assert reply["moves"] == [] and reply["view"] == dealt["view"]
    assert reply["legal"] == dealt["legal"] and reply["status"] == "playing"
    assert await logged(server, dealt["game"]) == []


@pytest.mark.parametrize("game_id", ["nestor", "doubles-and-quits"])
async def test_home_is_refused_where_each_pair_is_the_players_choice(
    server: Running, game_id: str
) -> None:
    """In the pairing games every legal move takes a pair off, so ``home`` had played the
    whole game, choices and all, as one action: a script won Doubles and Quits' daily
    with one request, and its moves counted as one to the pace policy. Refused there,
    with nothing played."""
    ann = await player(server.url, "ann")
    dealt = await ann.call("new_game", game=game_id, seed=HOME[game_id].seed)
    assert dealt["legal"]
    name = new_game(game_id).name
    await refused(ann, "no_home", f"{name} has no home")
    await refused(ann, "no_home", "as a move", game=dealt["game"])
    assert await logged(server, dealt["game"]) == []
    # the game goes on as it was: its first pair still comes off as a move
    moved = await ann.call("move", move=dealt["legal"][0])
    assert moved["view"]["moves"] == 1


async def test_home_refusals(server: Running) -> None:
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    await refused(ann, "no_such_game", "no such game of yours")  # no game at all
    theirs = await bob.call("new_game", game="gate", seed=36)
    await refused(ann, "no_such_game", "no such game of yours", game=theirs["game"])
    await refused(ann, "no_such_game", "no such game of yours", game="0123456789abcdef")
    await refused(ann, "bad_request", "home: field 'game' must be text", game=7)
    await refused(ann, "bad_request", "is longer than 64", game="x" * 65)
    mine = await ann.call("new_game", game="gate", seed=36)
    await ann.call("resign")
    await refused(ann, "game_over", "the game is over (resigned)", game=mine["game"])
    # bob's game was not touched: his cards still go home
    assert (await bob.call("home"))["moves"] == homed(new_game("gate", seed=36))
    # before hello, and without a player
    anon = await Client.connect(server.url)
    reply = await anon.request("home")
    assert reply["code"] == "hello_first"
    await anon.call("hello", protocol=1)
    await refused(anon, "not_authenticated", "register or sign in")


async def test_home_in_a_race_tells_the_room(settings: Settings) -> None:
    position = HOME["gate"]
    async with running(with_settings(settings, countdown=1.5)) as server:
        (ann, bob), _ = await lobby(server, ["ann", "bob"], game="gate", seed=position.seed)
        await ann.call("start")
        await refused(ann, "not_started", "the race has not started")
        starts = [await c.event("race_start") for c in (ann, bob)]
        gid = starts[0]["game"]
        reply = await ann.call("home", game=gid)
        assert reply["moves"] == homed(new_game("gate", seed=position.seed))
        home = reply["view"]["home"]
        progress = await bob.event("progress", lambda e: e["player"] == "ann" and e["home"] == home)
        assert progress["moves"] == len(reply["moves"])
        assert await logged(server, gid) == reply["moves"]


async def test_a_ranked_daily_of_pairs_is_not_won_by_one_request(settings: Settings) -> None:
    """Today's Doubles and Quits, won by always playing the first pair: ``home`` had
    played it to the end in one request and ranked it first. Refused, the attempt goes
    on, its first pair still a move of the player's."""
    secret = secret_winning_on(day_of(settings.clock.now_ms()))
    async with running(with_settings(settings, secret=secret)) as server:
        ann = await player(server.url, "ann")
        daily = await ann.call("daily", game="doubles-and-quits")
        assert daily["ranked"]
        assert isinstance(settings.clock, ManualClock)
        settings.clock.advance(2.0)
        await refused(ann, "no_home", "Doubles and Quits has no home", game=daily["game"])
        assert await logged(server, daily["game"]) == []
        assert not [e for e in ann.events if e["type"] == "daily_result"]
        moved = await ann.call("move", move=daily["legal"][0], game=daily["game"])
        assert moved["status"] == "playing" and moved["view"]["moves"] == 1
