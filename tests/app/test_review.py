"""Reviews of finished games end to end: the real server, its worker processes and a
real Redis (``handlers/review.py``; ``docs/protocol.md``, "review")."""

from __future__ import annotations

import asyncio
from typing import Any

from server.app.domain.daily import daily_seed, day_of
from server.app.handlers.review import HOUR_MS, PER_HOUR, REVIEW
from server.app.settings import Settings
from server.app.store.keys import review_key
from server.app.store.limits import Limit
from server.engine import GAMES, new_game
from server.protocol import ErrorCode
from server.solver import solve

from .client import Client, player
from .conftest import ManualClock, Running, running, with_settings
from .test_daily import GAME as DAILY_GAME
from .test_daily import next_day, play_out, secret_winning_on
from .test_race import lobby, start

#: a Nestor deal that can be won, and a line from it that loses: after its first five
#: moves a win is still possible (1+5 keeps it), and 1+7 there loses it
SEED = 1
LOST_LINE = [
    "6+7",
    "3+7",
    "4+7",
    "1+7",
    "1+7",
    "1+7",
    "1+6",
    "1+4",
    "4+8",
    "4+6",
    "3+6",
    "3+8",
    "3+8",
    "reserve",
    "2+r1",
]
#: another way to lose it, whose last move (8+r4) can be undone
UNDONE_LINE = [
    "6+7",
    "3+7",
    "4+7",
    "1+7",
    "1+7",
    "1+7",
    "1+6",
    "1+4",
    "4+8",
    "4+6",
    "3+4",
    "4+8",
    "reserve",
    "2+r1",
    "2+8",
    "2+8",
    "1+8",
    "reserve",
    "reserve",
    "reserve",
    "8+r4",
]


def ends_won(game_id: str, seed: int, line: list[str]) -> bool:
    game = new_game(game_id, seed=seed)
    for move in line:
        game.play(move)
    return game.status == "won"


async def play(client: Client, moves: list[str], game: str | None = None) -> dict[str, Any]:
    reply: dict[str, Any] = {}
    for move in moves:
        reply = await client.call("move", move=move, **({"game": game} if game else {}))
    return reply


async def play_lost_line(client: Client, played: int = 0) -> dict[str, Any]:
    """Play the lost line (its first ``played`` moves played already), then the first
    legal move until none is left."""
    reply = await play(client, LOST_LINE[played:])
    while reply["status"] == "playing":
        reply = await client.call("move", move=reply["legal"][0])
    return reply


def check_lost_review(review: dict[str, Any], line: list[str]) -> None:
    """Where the lost line was lost, and the continuation shown wins from there (played
    through the engine here too)."""
    assert review["found"] == "lost_at" and review["status"] == "lost"
    assert review["deal"] == "won" and review["lost_by"] == review["at"] + 1
    at = review["at"]
    assert (at, review["move"], review["played"]) == (5, 6, line[5])
    assert review["better"] != review["played"]
    continuation = review["continuation"]
    assert continuation[0] == review["better"]
    assert ends_won("nestor", SEED, line[:at] + continuation)
    # the position shown is the one the player stood in before the move that lost it
    position = new_game("nestor", seed=SEED)
    for move in line[:at]:
        position.play(move)
    assert review["view"] == position.view()


async def test_a_lost_solo_game_is_reviewed_once_and_its_better_line_wins(
    server: Running,
) -> None:
    assert solve("nestor", seed=SEED).verdict == "won"
    ann = await player(server.url, "ann")
    gid = (await ann.call("new_game", game="nestor", seed=SEED))["game"]
    await play(ann, LOST_LINE[:3])
    early = await ann.request("review", game=gid)
    assert early["code"] == ErrorCode.GAME_NOT_OVER and "not over" in early["message"]
    # to another player, a game in play is no game, as its replay is
    bob = await player(server.url, "bob")
    for kind in ("review", "replay"):
        theirs = await bob.request(kind, **{"game" if kind == "review" else "replay": gid})
        assert theirs["code"] in ("no_such_game", "no_such_replay"), theirs
        assert "not over" not in theirs["message"], theirs
    over = await play_lost_line(ann, 3)
    assert over["status"] == "lost"
    replay = (await ann.call("replay", replay=gid))["replay"]
    line = [what for _, what in replay["moves"]]
    review = await ann.call("review", game=gid)
    assert review["type"] == "review" and review["game"] == gid and review["cached"] is False
    check_lost_review(review, line)
    # the replay viewer shows that position at the review's step
    shown = await ann.call("replay_view", replay=gid, step=review["step"])
    assert shown["view"] == review["view"]
    # kept: asked again (by anyone who may see the replay), it is not searched again
    reviewing = server.service.reviewing
    assert reviewing.searched == 1
    again = await bob.call("review", game=gid)
    assert again["cached"] is True and reviewing.searched == 1
    assert {k: v for k, v in again.items() if k not in ("id", "cached")} == {
        k: v for k, v in review.items() if k not in ("id", "cached")
    }
    assert await server.redis.exists(review_key(gid))


async def test_an_undone_loss_is_reviewed_afresh(server: Running) -> None:
    """A solo game's loss may be undone and the game played on: the review kept for
    its loss is not the game's any more."""
    ann = await player(server.url, "ann")
    gid = (await ann.call("new_game", game="nestor", seed=SEED))["game"]
    assert (await play(ann, UNDONE_LINE))["status"] == "lost"
    first = await ann.call("review", game=gid)
    assert first["found"] == "lost_at" and first["cached"] is False
    await ann.call("undo")
    assert (await ann.request("review", game=gid))["code"] == ErrorCode.GAME_NOT_OVER
    assert (await ann.call("move", move=UNDONE_LINE[-1]))["status"] == "lost"
    again = await ann.call("review", game=gid)
    assert again["cached"] is False and again["entries"] == first["entries"] + 2
    assert server.service.reviewing.searched == 2
    assert again["at"] == first["at"]


async def test_two_asking_at_once_share_one_search(server: Running) -> None:
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    gid = (await ann.call("new_game", game="nestor", seed=SEED))["game"]
    await play_lost_line(ann)
    a, b = await asyncio.gather(ann.call("review", game=gid), bob.call("review", game=gid))
    assert a["at"] == b["at"] == 5
    assert server.service.reviewing.searched == 1


async def test_a_won_game_says_its_moves_over_par_and_its_detour(server: Running) -> None:
    """A Blockade win with a there-and-back in it (j1>l2, l2>j1): at least those two
    moves over par, and that detour found."""
    server.service.reviewing.budget_s = 3.0
    won = solve("blockade", seed=1, budget_s=30)
    assert won.verdict == "won"
    line = [*won.line[:9], "j1>l2", "l2>j1", *won.line[9:]]
    ann = await player(server.url, "ann")
    gid = (await ann.call("new_game", game="blockade", seed=1))["game"]
    assert (await play(ann, line))["status"] == "won"
    review = await ann.call("review", game=gid)
    assert review["found"] == "over_par" and review["status"] == "won"
    assert review["moves"] == len(line) and review["par_from"] == "found"
    assert review["over"] == len(line) - review["par"] >= 2
    assert review["detour"] == {"from": 10, "moves": 2}
    assert ends_won("blockade", 1, review["par_line"])
    assert len(review["par_line"]) == review["par"]


async def test_a_race_game_is_reviewed_once_the_race_is_over(server: Running) -> None:
    (ann, bob), _code = await lobby(server, ["ann", "bob"], game="nestor", seed=SEED)
    ann_start, _ = await start([ann, bob])
    gid = ann_start["game"]
    await play_lost_line(ann)
    on = await ann.request("review", game=gid)
    assert on["code"] == ErrorCode.GAME_NOT_OVER and "race is still on" in on["message"]
    # to anyone else, a game of a race still on is no game (an outside probe: "the race
    # is still on" told them it was one, as replay does not)
    other = await player(server.url, "cat")
    hidden = await other.request("review", game=gid)
    assert hidden["code"] == ErrorCode.NO_SUCH_GAME, hidden
    assert hidden["message"] == (await other.request("review", game="0" * 16))["message"].replace(
        "0" * 16, gid
    )
    await bob.call("resign")
    await ann.event("results")
    review = await ann.call("review", game=gid)
    replay = (await ann.call("replay", replay=gid))["replay"]
    check_lost_review(review, [what for _, what in replay["moves"]])


async def test_a_daily_is_reviewed_after_the_reset_only(settings: Settings) -> None:
    """Before the day's reset nobody may review a game of the day's deal, its player
    neither (the review tells the stock); after it anyone may."""
    clock = ManualClock()
    day_secret = secret_winning_on(day_of(clock.now_ms()))
    async with running(with_settings(settings, clock=clock, secret=day_secret)) as server:
        ann = await player(server.url, "ann")
        dealt = await ann.call("daily", game=DAILY_GAME)
        assert (
            dealt["view"]
            == new_game(
                DAILY_GAME, seed=daily_seed(day_secret.encode(), dealt["day"], DAILY_GAME)
            ).view()
        )
        over = await play_out(ann, dealt, server.clock)
        assert over["status"] == "won"
        for who in (ann, await player(server.url, "bob")):
            later = await who.request("review", game=dealt["game"])
            assert later["code"] == ErrorCode.REVIEW_LATER and "reset" in later["message"]
        next_day(server.clock)
        review = await ann.call("review", game=dealt["game"])
        assert review["found"] == "over_par" and review["over"] == 0
        assert review["par"] == 26 and review["shortest"] is True


async def test_bad_review_requests_get_documented_errors(server: Running) -> None:
    anon = await Client.connect(server.url)
    await anon.call("hello", protocol=1)
    assert (await anon.request("review", game="0123456789abcdef"))[
        "code"
    ] == ErrorCode.NOT_AUTHENTICATED
    ann = await player(server.url, "ann")
    assert (await ann.request("review"))["code"] == ErrorCode.BAD_REQUEST
    bad = await ann.request("review", game=5)
    assert bad["code"] == ErrorCode.BAD_REQUEST and "'game' must be text" in bad["message"]
    assert (await ann.request("review", game="x" * 33))["code"] == ErrorCode.BAD_REQUEST
    for gid in ("0123456789abcdef", "../../etc", ""):
        assert (await ann.request("review", game=gid))["code"] == ErrorCode.NO_SUCH_GAME
    # a game played under rules this server no longer plays: its replay is kept, but
    # it is not replayed (nor reviewed) under rules it was not played under
    old: dict[str, Any] = {
        "id": "0ld0ld0ld0ld0ld0",
        "game": "labyrinth",
        "rules_version": GAMES["labyrinth"].rules_version - 1,
        "seed": 1,
        "kind": "race",
        "start_ms": 0,
        "moves": [[1, "deal"]],
        "result": {"status": "lost", "time_ms": 1, "moves": 1, "home": 8, "total": 104},
    }
    await server.service.replays.keep([(old["id"], old, "nobody")])
    refused = await ann.request("review", game=old["id"])
    assert refused["code"] == ErrorCode.OTHER_RULES and "version 1" in refused["message"]
    assert (await ann.call("ping"))["type"] == "pong"


async def test_two_processes_search_a_game_once(settings: Settings) -> None:
    """Two server processes on one Redis, asked at once: one searches under the game's
    claim, the other answers with the review it keeps; a third request through either
    is answered from Redis."""
    async with running(settings) as one, running(settings) as two:
        ann = await player(one.url, "ann")
        bob = await player(two.url, "bob")
        gid = (await ann.call("new_game", game="nestor", seed=SEED))["game"]
        await play_lost_line(ann)
        a, b = await asyncio.gather(ann.call("review", game=gid), bob.call("review", game=gid))
        assert a["at"] == b["at"] == 5 and a["continuation"] == b["continuation"]
        assert one.service.reviewing.searched + two.service.reviewing.searched == 1
        again = await bob.call("review", game=gid)
        assert again["cached"] is True
        assert one.service.reviewing.searched + two.service.reviewing.searched == 1


async def test_a_certified_dailys_par_is_its_book_line(settings: Settings) -> None:
    """A won game of a certified daily deal is measured against the day's book line (a
    Gate deal: nearly every one can be won, so one of the three candidates is)."""
    from .test_certified import beyond_the_window, certifying

    async with running(certifying(settings)) as server:
        day = beyond_the_window(server)
        fixed = await server.service.certifier.certify_one(day, "gate")
        assert fixed is not None and fixed["certified"] is True
        while day_of(server.clock.now_ms()) != day:
            next_day(server.clock)
        ann = await player(server.url, "ann")
        dealt = await ann.call("daily", game="gate")
        assert (await play(ann, fixed["line"]))["status"] == "won"
        next_day(server.clock)
        review = await ann.call("review", game=dealt["game"])
        assert review["found"] == "over_par" and review["par_from"] == "book"
        assert review["par"] == fixed["par"] == len(fixed["line"]) and review["over"] == 0
        assert review["par_line"] is None  # the book line is the day's, on its own page


async def test_thirty_reviews_worked_out_an_hour(server: Running) -> None:
    """Past 30 reviews worked out in an hour a player is refused; a review kept is
    answered all the same, and an hour later one more is worked out."""
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    kept = (await ann.call("new_game", game="nestor", seed=SEED))["game"]
    await play_lost_line(ann)
    await ann.call("review", game=kept)
    fresh = (await ann.call("new_game", game="nestor", seed=SEED))["game"]
    await play_lost_line(ann)
    reviewing = server.service.reviewing
    pid = next(p for p, s in server.service.sessions.items() if s.name == "bob")
    for _ in range(PER_HOUR):
        use = await reviewing.limits.take(
            Limit(REVIEW, PER_HOUR, HOUR_MS), pid, server.clock.now_ms()
        )
        assert use.allowed
    limited = await bob.request("review", game=fresh)
    assert limited["code"] == ErrorCode.RATE_LIMITED
    assert f"at most {PER_HOUR} reviews worked out an hour" in limited["message"]
    assert (await bob.call("review", game=kept))["cached"] is True
    server.clock.advance(3601)
    assert (await bob.call("review", game=fresh))["cached"] is False
