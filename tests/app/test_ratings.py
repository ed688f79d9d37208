"""Ratings end to end (``handlers/ratings.py``, ``docs/ratings.md``): a race of two or
more people rates its racers with openskill's Plackett-Luce, once, and the figures
reach the results, the lobby, ``profile`` and the ``rating/GAME`` board; ghosts,
challenges, practice, a race of one and a deal someone chose change nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from openskill.models import PlackettLuce

from server.app.domain import ratings as rt
from server.app.settings import Settings
from server.app.store.codec import text, unpack
from server.app.store.ratings import Ratings

from .client import Client, player
from .conftest import Running, running, with_settings
from .test_challenges import made, solo_won
from .test_pace import HUMAN_GAP, home_first_else_random
from .test_pages import fetch

#: the races' game: its ``deal`` (a stock card onto the talon) never sends a card home,
#: so racers who deal more often than the one before them rank below them
#: a pairing game: every deal has a pair to take off at once (200 of 200 seeds tried), by
#: which the races below part their racers (who took it off first)
GAME = "doubles-and-quits"
#: a game the pace test's script wins
WIN_GAME = "gate"


async def give_up(client: Client) -> None:
    """``client`` resigns the race's game, which a first pair taken off may already have lost
    (about one Doubles and Quits deal in thirty leaves no move after it): ``game_over``
    while others race on, ``no_such_game`` once that loss ended the race (a race of one)."""
    said = await client.request("resign")
    assert said["type"] == "resigned" or said.get("code") in ("game_over", "no_such_game"), said


async def race(
    server: Running, racers: list[Client], parted: bool = True, **room: Any
) -> list[dict[str, Any]]:
    """A race of ``racers`` that finishes in that order: each takes off the deal's first
    pair, the k-th a second after the one before, and all resign (so the results rank
    them by who reached that count first; not ``parted``: nobody plays, and they share
    the place, ranked only by who joined first); its results, and everyone out of the
    room again."""
    code = (await racers[0].call("room_create", game=GAME, **room))["code"]
    for client in racers[1:]:
        server.clock.advance(1)
        await client.call("room_join", code=code)
        await client.call("ready")
    await racers[0].call("start")
    starts = [await c.event("race_start", lambda e: e["code"] == code) for c in racers]
    pair = next(m for m in starts[0]["legal"] if "+" in m)
    for client in racers:
        if parted:
            server.clock.advance(1)
            await client.call("move", move=pair)
        await give_up(client)
    told = [await c.event("results", lambda e: e["code"] == code) for c in racers]
    results: list[dict[str, Any]] = told[0]["results"]
    for client in racers:
        await client.call("room_leave")
    return results


async def stored(server: Running, name: str) -> dict[str, Any] | None:
    pid = await server.redis.get(f"pname:{name}")
    raw = await server.redis.hget(f"rtg:{{{GAME}}}", text(pid)) if pid else None
    return None if raw is None else dict(unpack(raw))


def ordinal(mu: float, sigma: float) -> int:
    return round(mu - 3 * sigma)


@pytest.fixture
def board_of_two(settings: Settings) -> Settings:
    return with_settings(settings, rating_board_races=2)


async def test_a_known_sequence_gives_the_librarys_figures(board_of_two: Settings) -> None:
    """Four races between four players: the stored ratings, the results' figures, the
    lobby, ``profile`` and the rating board all give what openskill gives for them."""
    sequence = [["ann", "bob", "cat"], ["cat", "ann"], ["bob", "dan", "ann", "cat"], ["dan", "cat"]]
    model = PlackettLuce()  # the package's defaults: the server's model (docs/ratings.md)
    expected = {name: model.rating() for name in ("ann", "bob", "cat", "dan")}
    races = {name: 0 for name in expected}
    async with running(board_of_two) as server:
        clients = {name: await player(server.url, name) for name in expected}
        for order in sequence:
            before = {name: expected[name].ordinal() for name in order}
            rated = model.rate(
                [[expected[name]] for name in order], ranks=[1.0, 2.0, 3.0, 4.0][: len(order)]
            )
            for name, team in zip(order, rated, strict=True):
                expected[name] = team[0]
                races[name] += 1
            results = await race(server, [clients[name] for name in order])
            assert [r["player"] for r in results] == order
            for result in results:
                new = expected[result["player"]]
                shown = ordinal(new.mu, new.sigma)
                assert result["rating"] == shown
                assert result["rating_change"] == shown - round(before[result["player"]])
        for name, rating in expected.items():
            kept = await stored(server, name)
            assert kept is not None
            assert kept["mu"] == pytest.approx(rating.mu, abs=1e-9)
            assert kept["sigma"] == pytest.approx(rating.sigma, abs=1e-9)
            assert kept["n"] == races[name]
        # the lobby shows each racer's rating at the room's game
        lobby = await clients["ann"].call("room_create", game=GAME)
        await clients["dan"].call("room_join", code=lobby["code"])
        room = await clients["ann"].event(
            "room", lambda e: e["code"] == lobby["code"] and len(e["players"]) == 2
        )
        lobby_ratings = {p["name"]: p["rating"] for p in room["players"]}
        assert lobby_ratings == {
            n: ordinal(expected[n].mu, expected[n].sigma) for n in ("ann", "dan")
        }
        # profile: one's own, and another's by name
        mine = await clients["bob"].call("profile")
        assert mine["player"] == "bob"
        assert mine["ratings"] == [
            {
                "game": GAME,
                "rating": ordinal(expected["bob"].mu, expected["bob"].sigma),
                "races": 2,
                "mu": round(expected["bob"].mu, 3),
                "sigma": round(expected["bob"].sigma, 3),
                "board": f"rating/{GAME}",
            }
        ]
        # one's own names whom one follows (a browser shows Follow or Following by it)
        assert mine["following"] == []
        await clients["bob"].call("follow", name="Cat")
        assert (await clients["bob"].call("profile"))["following"] == ["cat"]
        cats = await clients["bob"].call("profile", name="CAT")
        assert cats["player"] == "cat" and cats["ratings"][0]["races"] == 4
        assert "following" not in cats  # (whom another follows is theirs)
        nobody = await clients["bob"].request("profile", name="nobody")
        assert nobody["code"] == "no_such_player"
        # another's profile is anyone's to see, as the boards are (it wanted a sign-in)
        stranger = await Client.connect(server.url)
        await stranger.call("hello", protocol=1)
        seen = await stranger.call("profile", name="cat")
        assert {k: v for k, v in seen.items() if k != "id"} == {
            k: v for k, v in cats.items() if k != "id"
        }
        assert (await stranger.request("profile"))["code"] == "not_authenticated"
        await stranger.close()
        # the board: higher ordinal first; everyone has raced twice or more
        board = await clients["ann"].call("top", board=f"rating/{GAME}")
        by_ordinal = sorted(expected, key=lambda n: -expected[n].ordinal())
        assert [e["player"] for e in board["entries"]] == by_ordinal
        assert board["kind"] == "rating" and board["title"] == "Doubles and Quits: ratings"
        top = board["entries"][0]
        best = expected[by_ordinal[0]]
        assert (
            top["rating"] == ordinal(best.mu, best.sigma) and top["races"] == races[by_ordinal[0]]
        )
        # and its page, over HTTP
        http = f"http://127.0.0.1:{server.web.port}"
        status, _, page = await fetch(f"{http}/leaderboard/rating/{GAME}")
        assert status == 200 and "<th class=n>rating</th><th class=n>races</th>" in page
        cells = f"<td class=n>{top['rating']}</td><td class=n>{top['races']}</td>"
        name = by_ordinal[0]
        assert f'<td><a href="/play#player={name}">{name}</a></td>{cells}' in page


async def test_the_board_waits_for_enough_races(server: Running) -> None:
    """Only a player with ``rating_board_races`` rated races (5 by default) is on it."""
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    for _ in range(4):
        await race(server, [ann, bob])
    empty = await ann.call("top", board=f"rating/{GAME}")
    assert empty["size"] == 0
    assert empty["min_races"] == 5  # what it waits for, said with it (the page says so too)
    http = f"http://127.0.0.1:{server.web.port}"
    _, _, page = await fetch(f"{http}/leaderboard/rating/{GAME}")
    assert "A racer joins this board after 5 rated races." in page
    assert "min_races" not in await ann.call("top", board="races/week")
    await race(server, [bob, ann])
    board = await ann.call("top", board=f"rating/{GAME}")
    assert [e["player"] for e in board["entries"]] == ["ann", "bob"]
    assert board["entries"][0]["races"] == 5


async def test_two_processes_ending_one_race_rate_it_once(settings: Settings) -> None:
    """The racers on two processes resign at once, so that both may end the race: it is
    rated once (each racer's ``n`` is 1 and the figures those of one update), and an
    end tried again (another process, a retry) writes nothing more."""
    async with running(settings) as one, running(settings) as two:
        ann, bob = await player(one.url, "ann"), await player(two.url, "bob")
        code = (await ann.call("room_create", game=GAME))["code"]
        await bob.call("room_join", code=code)
        await bob.call("ready")
        await ann.call("start")
        await ann.event("race_start")
        await bob.event("race_start")
        await asyncio.gather(ann.call("resign"), bob.call("resign"))
        results = (await ann.event("results"))["results"]
        assert (await bob.event("results"))["results"] == results
        # (both resigned with nothing played: a draw, below)
        first, second = rt.update([rt.DEFAULT, rt.DEFAULT], [1, 1])
        kept = {r["player"]: await stored(one, r["player"]) for r in results}
        assert [kept[r["player"]]["n"] for r in results] == [1, 1]  # type: ignore[index]
        assert kept[results[0]["player"]]["mu"] == pytest.approx(first.mu)  # type: ignore[index]
        assert results[0]["rating"] == first.shown and results[1]["rating"] == second.shown
        # the end tried again, on the other process: the same figures, nothing written
        room = two.service.rooms.get(code) or await two.service.host.reload(code)
        assert room is not None
        entries = await two.service.steps._race_entries(room)
        again = [{k: v for k, v in r.items() if not k.startswith("rating")} for r in results]
        await two.service.ratings.rate(room, again, entries)
        assert again == results
        for name in ("ann", "bob"):
            assert (await stored(two, name)) == kept[name]


async def test_what_is_not_a_race_of_people_rates_nobody(server: Running) -> None:
    """A race of one, a room's first race on a seed its creator chose, a challenge taken
    against a ghost and a daily's practice against the board's ghosts change no rating."""
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    alone = await race(server, [ann])
    assert "rating" not in alone[0]
    seeded = await race(server, [ann, bob], seed=5)
    assert all("rating" not in r for r in seeded)
    challenge = await made(ann, await solo_won(ann))
    taken = await bob.call("challenge_take", challenge=challenge["id"])
    server.clock.advance(10)
    await bob.call("resign", game=taken["game"])
    await bob.event("challenge_result")
    await ann.call("daily", game=GAME)
    await ann.call("resign")
    practice = await ann.call("daily", game=GAME, ghosts=True)
    await ann.call("resign", game=practice["game"])
    await ann.event("ghosts_result")
    assert await server.redis.exists(f"rtg:{{{GAME}}}") == 0
    profile = await ann.call("profile")
    assert profile["ratings"] == []
    # and the room's rematch, on a random deal, is rated; the room says which is which
    # before it starts (a seeded room's first race went unrated without a word)
    assert (await ann.call("room_create", game=GAME))["rated"] is True
    await ann.call("room_leave")
    made_room = await ann.call("room_create", game=GAME, seed=5)
    assert made_room["rated"] is False
    code = made_room["code"]
    await bob.call("room_join", code=code)
    await bob.call("ready")
    await ann.call("start")
    for client in (ann, bob):
        await client.event("race_start")
        await client.call("resign")
    await ann.event("results")
    assert (await ann.call("rematch"))["rated"] is True
    for client in (ann, bob):
        second = await client.event("race_start", lambda e: e["race"] == 2)
    await bob.call("move", move=next(m for m in second["legal"] if "+" in m))
    for client in (ann, bob):
        await give_up(client)
    rated = await ann.event("results", lambda e: e["race"] == 2)
    assert [r["rating_change"] for r in rated["results"]] == [3, -2]
    assert [r["player"] for r in rated["results"]] == ["bob", "ann"]


async def test_racers_parted_only_by_who_joined_first_are_rated_a_draw(
    server: Running,
) -> None:
    """Two racers who both resign at the start with nothing played, or time out alike:
    the table ranks them 1 and 2 (by who joined first) but the rating reads a draw, the
    same change for both (the first to join gained 3 and the second lost 2). A pair taken
    off first makes it a race again. And one who played but got nothing more home than
    the deal shares the place with one who did nothing (fewer moves had put the idle one
    first)."""
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    drawn = await race(server, [ann, bob], parted=False)
    assert [r["rank"] for r in drawn] == [1, 2] and [r["player"] for r in drawn] == ["ann", "bob"]
    first, second = rt.update([rt.DEFAULT, rt.DEFAULT], [1, 1])
    assert first == second and first.mu == rt.DEFAULT.mu
    assert [r["rating_change"] for r in drawn] == [first.shown - rt.DEFAULT.shown] * 2
    raced = await race(server, [ann, bob])
    assert [r["player"] for r in raced] == ["ann", "bob"]
    assert raced[0]["rating_change"] > 0 > raced[1]["rating_change"]
    code = (await ann.call("room_create", game="light-and-shade"))["code"]
    await bob.call("room_join", code=code)
    await bob.call("ready")
    await ann.call("start")
    for client in (ann, bob):
        await client.event("race_start", lambda e: e["code"] == code)
    await bob.call("move", move="deal")  # a card turned, none home (never, in this game)
    for client in (ann, bob):
        await client.call("resign")
    tried = (await ann.event("results", lambda e: e["code"] == code))["results"]
    assert [(r["player"], r["place"], r["moves"]) for r in tried] == [("ann", 1, 0), ("bob", 1, 1)]
    assert tried[0]["rating_change"] == tried[1]["rating_change"]


def of_race(n: int) -> Callable[[dict[str, Any]], bool]:
    """An event of race ``n`` of a room."""
    return lambda event: event["race"] == n


async def test_a_win_held_for_review_rates_nobody(server: Running) -> None:
    """A race won at a script's pace is held for review (the pace policy): it changes no
    rating; the same race won at a person's pace is rated."""
    rated: list[bool] = []
    for pace_gap in (0.0, HUMAN_GAP):
        n = len(rated)
        ann, bob = await player(server.url, f"ann{n}"), await player(server.url, f"bob{n}")
        code = (await ann.call("room_create", game=WIN_GAME))["code"]
        await bob.call("room_join", code=code)
        await bob.call("ready")
        await ann.call("start")
        line = None
        for race_no in range(1, 31):  # until a race deals a deal the script wins
            this_race = of_race(race_no)
            start = await ann.event("race_start", this_race)
            await bob.event("race_start", this_race)
            seed = int(await server.redis.hget(f"g:{{{start['game']}}}", "seed") or 0)
            line = home_first_else_random(seed)
            await bob.call("resign")
            if line is not None:
                break
            await ann.call("resign")
            await ann.event("results", this_race)
            await ann.call("rematch")
        assert line is not None
        await server.redis.delete(f"rtg:{{{WIN_GAME}}}")  # (the races lost on the way)
        for move in line:
            server.clock.advance(pace_gap)
            await ann.call("move", move=move)
        results = (await ann.event("results", lambda e: e["results"][0]["status"] == "won"))[
            "results"
        ]
        assert (results[0].get("review") == "held") == (pace_gap == 0.0)
        rated.append(all("rating" in r for r in results))
        assert rated[-1] == (await server.redis.exists(f"rtg:{{{WIN_GAME}}}") == 1)
    assert rated == [False, True]


class ReadEarly(Ratings):
    """The repository, its first read of the ratings made early (before another race's
    write landed): what a process sees when two races of a player end at once."""

    def __init__(self, redis: Any, early: dict[str, bytes | None]) -> None:
        super().__init__(redis)
        self.early: dict[str, bytes | None] | None = early

    async def _raw(self, game: str, pids: list[str]) -> dict[str, bytes | None]:
        early, self.early = self.early, None
        return early if early is not None else await super()._raw(game, pids)


async def test_a_rating_changed_meanwhile_is_read_again(server: Running) -> None:
    """Two races of one player rated at once (the other's write lands between this one's
    read and its write): this one is worked out again from the ratings the other left,
    so neither race's change is lost; a race rated again writes nothing."""
    store = server.service.ctx.ratings
    calls: list[dict[str, rt.Rating]] = []

    def work_out(
        before: dict[str, rt.Rating],
    ) -> tuple[dict[str, rt.Rating], dict[str, Any]]:
        calls.append(before)
        after = dict(zip(before, rt.update(list(before.values()), [1, 2]), strict=True))
        return after, {pid: r.to_dict() for pid, r in after.items()}

    early = ReadEarly(server.redis, await store._raw(GAME, ["a", "b"]))
    await store.rate(GAME, "other", ["a", "c"], work_out)  # lands after that read
    figures = await early.rate(GAME, "one", ["a", "b"], work_out)
    kept = await store.read(GAME, ["a", "b", "c"])
    assert (kept["a"].n, kept["b"].n, kept["c"].n) == (2, 1, 1)
    # worked out twice: from the early read (refused), then from the other race's "a"
    assert [c["a"].n for c in calls] == [0, 0, 1]
    assert figures["a"] == kept["a"].to_dict()
    again = await store.rate(GAME, "one", ["a", "b"], work_out)
    assert again == figures and await store.read(GAME, ["a", "b", "c"]) == kept
    assert len(calls) == 4  # (worked out, but the race's mark kept the first figures)
