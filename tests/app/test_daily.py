"""The daily challenge, its boards, streaks and replays, end to end on a real Redis."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from itertools import count
from pathlib import Path
from typing import Any, cast

from server.app import store
from server.app.domain.daily import daily_seed, day_of, next_reset_ms
from server.app.settings import Settings
from server.engine import new_game
from server.protocol import parse_request

from .client import Client, player
from .conftest import ManualClock, Running, running, until, with_settings

GAME = "doubles-and-quits"


def first_move_wins(secret: str, day: str) -> bool:
    game = new_game(GAME, seed=daily_seed(secret.encode(), day, GAME))
    while game.legal_moves():
        game.play(game.legal_moves()[0])
    return game.status == "won"


def secret_winning_on(*days: str) -> str:
    """A server secret whose daily Doubles and Quits deals, on these days, are won by
    always playing the first legal move."""
    for n in count():
        secret = f"test-secret-{n}"
        if all(first_move_wins(secret, day) for day in days):
            return secret
    raise AssertionError


def next_day(clock: ManualClock) -> str:
    """Move the server clock just past the next UTC midnight; the new day."""
    now = clock.now_ms()
    clock.advance((next_reset_ms(now) - now) / 1000 + 1)
    return day_of(clock.now_ms())


#: a person's gap between moves (seconds): a test standing in for a person whose result
#: must reach the boards moves the server's clock on so before each move, as the pace
#: policy judges play by the server's times (docs/leaderboards.md, "Fair play")
PERSON_GAP = 0.6


async def play_out(
    client: Client, reply: dict[str, Any], clock: ManualClock | None = None
) -> dict[str, Any]:
    """Play the first legal move until none is left; with ``clock``, at a person's pace."""
    while reply["legal"]:
        if clock is not None:
            clock.advance(PERSON_GAP)
        reply = await client.call("move", move=reply["legal"][0])
    return reply


async def test_everyone_gets_the_same_daily_deal_from_the_secret(server: Running) -> None:
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    a = await ann.call("daily", game="gate")
    b = await bob.call("daily", game="gate")
    assert a["view"] == b["view"] and a["game"] != b["game"]
    day = day_of(server.clock.now_ms())
    seed = daily_seed(server.service.daily.secret, day, "gate")
    assert a["view"] == new_game("gate", seed=seed).view()
    # another game, another day or another secret: another deal
    assert daily_seed(server.service.daily.secret, day, "gate-narrow") != seed
    assert daily_seed(b"other", day, "gate") != seed
    assert a["day"] == day and a["ranked"] is True
    assert a["reset_at"] == next_reset_ms(server.clock.now_ms())
    assert 0 < a["reset_in_ms"] <= 86_400_000


async def test_the_first_attempt_is_ranked_and_later_ones_are_practice(server: Running) -> None:
    ann = await player(server.url, "ann")
    first = await ann.call("daily", game="nestor")
    again = await ann.call("daily", game="nestor")
    assert again["game"] == first["game"] and again["ranked"]  # resumed, still ranked
    await ann.call("resign")
    result = await ann.event("daily_result")
    assert result["status"] == "resigned" and result["rank"] == 1
    practice = await ann.call("daily", game="nestor")
    assert not practice["ranked"] and "practice" in practice["note"]
    assert practice["view"]["piles"] == first["view"]["piles"]
    await ann.call("resign")
    board = await ann.call("top", board="daily/nestor")
    assert board["size"] == 1 and board["entries"][0]["home"] == 0
    assert not [e for e in ann.events if e["type"] == "daily_result"]  # practice: no result


async def test_exactly_one_ranked_attempt_when_two_servers_race(settings: Settings) -> None:
    """Two processes asked for the same player's daily at the same moment (a sign-in on
    the second signs out the first connection, but requests already in flight on both
    still race): one ranked game wins, through SET NX in Redis."""
    async with running(settings) as one, running(settings) as two:
        ann = await player(one.url, "ann")
        pid = cast(bytes, await one.redis.get(store.name_key("ann"))).decode()
        sessions = [Seat(pid, "ann"), Seat(pid, "ann")]
        request = parse_request({"type": "daily", "id": 1, "game": "gate"})
        replies = await asyncio.gather(
            one.service.handle(sessions[0], request), two.service.handle(sessions[1], request)
        )
        assert replies[0]["game"] == replies[1]["game"]
        assert all(r["ranked"] for r in replies)
        day = day_of(one.clock.now_ms())
        assert (
            cast(bytes, await one.redis.get(store.daily_key(day, "gate", pid))).decode()
            == replies[0]["game"]
        )
        games = [
            k async for k in one.redis.scan_iter("g:{*}") if not k.endswith((b":log", b":fence"))
        ]
        assert len(games) == 1
        _ = ann


class Seat:
    """A signed-in session as the service sees one, for calling it directly."""

    def __init__(self, player: str, name: str) -> None:
        self.player: str | None = player
        self.name: str | None = name
        self.hello = True
        self.side = False
        self.watching: set[str] = set()
        self.address: str | None = None
        self.sent: list[Any] = []

    def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)

    def send_encoded(self, data: bytes) -> None:
        self.sent.append(data)

    def close(self, code: int, reason: str) -> None:
        self.sent.append(("close", code))


async def test_streak_across_midnight(settings: Settings) -> None:
    clock = ManualClock()
    today = day_of(clock.now_ms())
    tomorrow = day_of(next_reset_ms(clock.now_ms()) + 1000)
    secret = secret_winning_on(today, tomorrow)
    async with running(with_settings(settings, clock=clock, secret=secret)) as server:
        ann = await player(server.url, "ann")
        won = await play_out(ann, await ann.call("daily", game=GAME), clock)
        assert won["status"] == "won"
        first = await ann.event("daily_result")
        assert first["streak"]["game"] == {"current": 1, "best": 1}
        assert first["line"].startswith(f"Patience Race · Doubles and Quits · {today} · won in")
        assert "26/26 pairs off" in first["line"]  # Doubles and Quits takes pairs off
        assert next_day(clock) == tomorrow
        fresh = await ann.call("daily", game=GAME)
        assert fresh["ranked"] and fresh["day"] == tomorrow
        assert fresh["streak"]["game"]["current"] == 1  # still alive: won yesterday
        await play_out(ann, fresh, clock)
        second = await ann.event("daily_result")
        assert second["streak"]["game"] == {"current": 2, "best": 2}
        assert second["streak"]["all"] == {"current": 2, "best": 2}
        wins = await ann.call("top", board=f"wins/{GAME}")
        assert wins["entries"][0]["count"] == 2
        # a day missed: the streak is broken, the best is kept
        next_day(clock)
        next_day(clock)
        later = await ann.call("daily", game=GAME)
        assert later["streak"]["game"] == {"current": 0, "best": 2}


async def test_replays_are_private_until_the_reset_then_verify(
    server: Running, tmp_path: Path
) -> None:
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    reply = await ann.call("daily", game="gate")
    await ann.call("move", move=reply["legal"][0])
    await ann.call("resign")
    entry = (await bob.call("top", board="daily/gate"))["entries"][0]
    assert entry["player"] == "ann" and entry["replay"] == reply["game"]
    hidden = await bob.request("replay", replay=entry["replay"])
    assert hidden["code"] == "not_public"
    own = (await ann.call("replay", replay=entry["replay"]))["replay"]
    assert own["seed"] is None  # not even its player learns the seed before the reset
    next_day(server.clock)
    public = (await bob.call("replay", replay=entry["replay"]))["replay"]
    assert public["seed"] == daily_seed(server.service.daily.secret, reply["day"], "gate")
    assert [what for _, what in public["moves"]] == [reply["legal"][0], "!resign"]
    good = tmp_path / "good.json"
    good.write_text(json.dumps(public))
    assert verify(good).returncode == 0
    tampered = dict(public, result={**public["result"], "moves": 0})
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(tampered))
    checked = verify(bad)
    assert checked.returncode == 1 and "does not reproduce" in checked.stdout
    # a move that was never legal there (the waste heap is empty at the start)
    swapped = dict(public, moves=[[public["moves"][0][0], "w>f"], public["moves"][1]])
    bad.write_text(json.dumps(swapped))
    checked = verify(bad)
    assert checked.returncode == 1 and "move 1 is not legal" in checked.stdout
    # moves timed backwards
    backwards = dict(public, moves=[public["moves"][0], [public["start_ms"] - 1, "!resign"]])
    bad.write_text(json.dumps(backwards))
    assert "move 2 (!resign) is timed before the move before it" in verify(bad).stdout
    # the first move timed before the start: said so ("before the one before it" named none)
    early = dict(public, moves=[[public["start_ms"] - 1, public["moves"][0][1]]])
    bad.write_text(json.dumps(early))
    said = verify(bad).stdout
    assert "move 1 (" in said and "is timed before the game's start" in said, said


def verify(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server.cli", "verify", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )


async def test_a_board_watcher_is_pushed_changes(server: Running) -> None:
    watcher = await Client.connect(server.url)
    await watcher.call("hello", protocol=1)
    page = await watcher.call("board_watch", board="daily/nestor")
    assert page["size"] == 0
    ann = await player(server.url, "ann")
    await ann.call("daily", game="nestor")
    await ann.call("resign")
    update = await watcher.event("board_update")
    assert update["board"] == page["board"]
    assert update["entry"]["player"] == "ann" and update["size"] == 1
    await watcher.call("board_unwatch", board="daily/nestor")


async def test_follow_filters_a_board(server: Running) -> None:
    names = ["ann", "bob", "cat"]
    clients = [await player(server.url, name) for name in names]
    for client in clients:
        await client.call("daily", game="nestor")
        await client.call("resign")
    ann = clients[0]
    assert (await ann.call("follow", name="CAT"))["names"] == ["cat"]
    friends = await ann.call("top", board="daily/nestor", friends=True)
    assert {e["player"] for e in friends["entries"]} == {"ann", "cat"}
    assert (await ann.request("follow", name="nobody"))["code"] == "no_such_player"
    assert (await ann.call("unfollow", name="cat"))["names"] == []


#: positions a winning-line search may visit before it gives a deal up
SEARCH_LIMIT = 50_000


def winning_line(seed: int) -> list[str] | None:
    """A winning line for a Doubles and Quits deal, by search with the stock known (the
    test reads the race's seed from Redis, as no player can); None if there is none, or
    none found within SEARCH_LIMIT positions."""
    game = new_game(GAME, seed=seed)
    seen: set[object] = set()

    def search() -> list[str] | None:
        if game.status == "won":
            return []
        key = game.key()
        if key in seen or len(seen) >= SEARCH_LIMIT:
            return None  # some deals' trees are huge: give up, the race deals another
        seen.add(key)
        for move in game.legal_moves():
            game.play(move)
            rest = search()
            game.pop()
            if rest is not None:
                return [move.text, *rest]
        return None

    return search()


async def test_a_race_win_counts_on_the_races_boards(server: Running) -> None:
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    code = (await ann.call("room_create", game=GAME))["code"]
    await bob.call("room_join", code=code)
    await bob.call("ready")
    await ann.call("start")
    for _ in range(20):  # until a race deals a deal that can be won
        start = await ann.event("race_start")
        bob_start = await bob.event("race_start")
        seed = int(cast(bytes, await server.redis.hget(store.game_key(start["game"]), "seed")))
        line = winning_line(seed)
        await bob.call("resign")
        if line is not None:
            break
        await ann.call("resign")
        await ann.event("results")
        await ann.call("rematch")
    assert line is not None
    for move in line:
        server.clock.advance(PERSON_GAP)
        reply = await ann.call("move", move=move)
    assert reply["status"] == "won"
    await ann.event("results", lambda e: e["results"][0]["status"] == "won")
    week = await ann.call("top", board="races/week")
    assert [(e["player"], e["count"]) for e in week["entries"]] == [("ann", 1)]
    assert (await ann.call("top", board="races/all"))["size"] == 1
    replay = (await bob.call("replay", replay=start["game"]))["replay"]
    assert replay["result"]["status"] == "won" and replay["room"] == code
    # every racer's replay is kept, each from its own log
    assert replay["player"] == "ann" and [m for _, m in replay["moves"]] == line
    theirs = (await ann.call("replay", replay=bob_start["game"]))["replay"]
    assert theirs["player"] == "bob" and theirs["result"]["status"] == "resigned"
    assert [m for _, m in theirs["moves"]] == ["!resign"]
    assert theirs["race"] == replay["race"] and theirs["start_ms"] == replay["start_ms"]


async def test_a_race_alone_or_on_a_chosen_deal_does_not_count(server: Running) -> None:
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    code = (await ann.call("room_create", game=GAME, seed=1))["code"]  # ann may know it
    await bob.call("room_join", code=code)
    await bob.call("ready")
    await ann.call("start")
    start = await ann.event("race_start")
    await bob.call("resign")
    assert (await play_out(ann, start))["status"] == "won"
    assert (await ann.event("results"))["results"][0]["player"] == "ann"
    assert (await ann.call("top", board="races/all"))["size"] == 0
    # alone in a room: no one to beat
    cat = await player(server.url, "cat")
    await cat.call("room_create", game=GAME)
    await cat.call("start")
    solo = await cat.event("race_start")
    await play_out(cat, solo)
    await cat.event("results")
    assert (await cat.call("top", board="races/all"))["size"] == 0


async def test_a_seeded_rooms_first_race_does_not_count_but_its_rematches_do(
    server: Running,
) -> None:
    """The rule of ``Races.count_race_win``: a race counts against someone, on a deal nobody
    chose; a room's seed deals only its first race, so its rematches count."""
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    code = (await ann.call("room_create", game=GAME, seed=1))["code"]
    await bob.call("room_join", code=code)
    await bob.call("ready")
    await ann.call("start")
    start = await ann.event("race_start")
    await bob.call("resign")
    assert (await play_out(ann, start))["status"] == "won"
    first = (await ann.event("results"))["results"][0]
    assert (first["player"], first["status"]) == ("ann", "won")
    for board in ("races/all", "races/week"):
        assert (await ann.call("top", board=board))["size"] == 0, board
    line = None
    for _ in range(20):  # rematches until one deals a deal that can be won
        await ann.call("rematch")
        start = await ann.event("race_start")
        seed = int(cast(bytes, await server.redis.hget(store.game_key(start["game"]), "seed")))
        line = winning_line(seed)
        await bob.call("resign")
        if line is not None:
            break
        await ann.call("resign")
        await ann.event("results")
    assert line is not None
    for move in line:
        server.clock.advance(PERSON_GAP)
        reply = await ann.call("move", move=move)
    assert reply["status"] == "won"
    await ann.event("results", lambda e: e["results"][0]["status"] == "won")
    for board in ("races/all", "races/week"):
        page = await ann.call("top", board=board)
        assert [(e["player"], e["count"]) for e in page["entries"]] == [("ann", 1)], board


async def test_boards_unknown_or_in_the_future_are_refused(server: Running) -> None:
    client = await Client.connect(server.url)
    await client.call("hello", protocol=1)
    assert (await client.request("top", board="daily/chess"))["code"] == "no_such_board"
    future = day_of(server.clock.now_ms() + 3 * 86_400_000)
    assert (await client.request("top", board=f"daily/gate/{future}"))["code"] == "no_such_board"
    assert (await client.request("replay", replay="nope"))["code"] == "no_such_replay"


async def test_a_ranked_daily_ends_at_the_reset(server: Running) -> None:
    """Yesterday's replays are public after the reset: yesterday's game must be over."""
    ann = await player(server.url, "ann")
    reply = await ann.call("daily", game="gate")
    await ann.call("move", move=reply["legal"][0])
    next_day(server.clock)
    late = await ann.request("move", move=reply["legal"][0], game=reply["game"])
    assert late["code"] == "game_over" and "the day is over" in late["message"]
    result = await ann.event("daily_result")
    assert result["status"] == "timeout" and result["day"] == reply["day"]
    board = await ann.call("top", board=f"daily/gate/{reply['day']}")
    assert board["entries"][0]["won"] is False and board["entries"][0]["moves"] == 1
    # today's is a new ranked game
    today = await ann.call("daily", game="gate")
    assert today["ranked"] and today["day"] != reply["day"]


async def test_replay_views_and_result_lines_for_a_client_that_knows_no_rules(
    server: Running,
) -> None:
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    code = (await ann.call("room_create", game="gate"))["code"]
    await bob.call("room_join", code=code)
    await bob.call("ready")
    await ann.call("start")
    start = await ann.event("race_start")
    await bob.event("race_start")
    first = await ann.call("move", move=start["legal"][0])
    await ann.call("resign")
    await bob.call("resign")
    results = (await bob.event("results"))["results"]
    ids = {r["player"]: r["replay"] for r in results}
    assert ids["ann"] == start["game"]
    # anyone may step through a race replay's tables
    watcher = await Client.connect(server.url)
    await watcher.call("hello", protocol=1)
    zero = await watcher.call("replay_view", replay=ids["ann"], step=0)
    assert zero["view"]["piles"] == start["view"]["piles"]
    one = await watcher.call("replay_view", replay=ids["ann"], step=1)
    assert one["view"] == {**first["view"], "can_undo": one["view"]["can_undo"]}
    too_far = await watcher.request("replay_view", replay=ids["ann"], step=99)
    assert too_far["code"] == "bad_request"
    # a daily's tables are secret until the reset, but to its player (tests/app/
    # test_own_replay.py)
    daily = await ann.call("daily", game="nestor")
    assert daily["started_at"] <= server.clock.now_ms()
    await ann.call("resign")
    await ann.event("daily_result")
    hidden = await bob.request("replay_view", replay=daily["game"], step=0)
    assert hidden["code"] == "not_public"
    own = await ann.call("replay_view", replay=daily["game"], step=0)
    assert own["view"]["piles"] == daily["view"]["piles"]
    # the ranked result line again, on the practice attempt's reply
    practice = await ann.call("daily", game="nestor")
    assert practice["ranked_result"].startswith("Patience Race · Nestor · ")


async def test_boards_nobody_watches_any_more_are_forgotten(server: Running) -> None:
    ann = await player(server.url, "ann")
    days = ["2026-11-20", "2026-11-21", "2026-11-22"]
    for day in days:
        await ann.call("board_watch", board=f"daily/gate/{day}")
    await ann.call("board_unwatch", board=f"daily/gate/{days[0]}")
    assert len(server.service.leaderboards.board_watchers) == 2
    await ann.close()
    await until(lambda: not server.service.leaderboards.board_watchers)
