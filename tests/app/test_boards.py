"""Leaderboards on a real Redis: order, ties, paging, around-me, friends, keep-first and
keep-best, counting boards."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from server.app.domain.boards import Board, parse_board, time_score
from server.app.store.boards import Boards
from server.app.store.keys import board_key

TODAY, WEEK = "2026-11-22", "2026-W47"


@pytest.fixture
async def boards(redis_url: str) -> AsyncIterator[Boards]:
    redis = Redis.from_url(redis_url)
    yield Boards(redis)
    await redis.aclose()


def daily() -> Board:
    return parse_board("daily/gate", TODAY, WEEK)


def result(name: str, won: bool, time_ms: int, moves: int, home: int = 52) -> dict:
    return {"player": name, "won": won, "time_ms": time_ms, "moves": moves, "home": home}


async def fill(boards: Boards, rows: list[tuple[str, bool, int, int, int, int]]) -> None:
    for pid, won, time_ms, moves, home, finished in rows:
        await boards.submit_time(
            daily(), pid, result(pid, won, time_ms, moves, home), finished, "first"
        )


def names(page: dict) -> list[str]:
    return [e["player"] for e in page["entries"]]


def test_board_ids() -> None:
    assert parse_board("daily/gate", TODAY, WEEK).id == "daily/gate/2026-11-22"
    assert parse_board("races/week", TODAY, WEEK).id == "races/week/2026-W47"
    assert parse_board("wins/nestor", TODAY, WEEK).counting
    for bad in ("daily/chess", "daily/gate/2026-13-40", "wins", "races/month", "best/gate/x"):
        with pytest.raises(ValueError):
            parse_board(bad, TODAY, WEEK)


def test_scores_order_wins_by_time_then_moves_and_the_rest_by_cards_home() -> None:
    assert time_score(True, 60_000, 99, 52) < time_score(True, 60_001, 1, 52)
    assert time_score(True, 60_000, 10, 52) < time_score(True, 60_000, 11, 52)
    assert time_score(True, 10**8, 4000, 52) < time_score(False, 1, 1, 51)
    assert time_score(False, 9, 50, 40) < time_score(False, 1, 1, 39)
    assert time_score(True, 2**40, 10**6, 52) < 2**53  # exact in a double


async def test_order_and_ties_go_to_who_finished_first(boards: Boards) -> None:
    await fill(
        boards,
        [
            ("late", True, 50_000, 30, 52, 2_000),
            ("early", True, 50_000, 30, 52, 1_000),  # same time and moves, finished first
            ("quick", True, 40_000, 90, 52, 3_000),
            ("fewer", True, 50_000, 29, 52, 4_000),
            ("stuck", False, 1_000, 5, 48, 500),
            ("stuck2", False, 1_000, 4, 48, 600),
        ],
    )
    page = await boards.top(daily())
    assert names(page) == ["quick", "fewer", "early", "late", "stuck2", "stuck"]
    assert [e["rank"] for e in page["entries"]] == [1, 2, 3, 4, 5, 6]
    assert page["size"] == 6


async def test_only_the_first_result_counts_on_a_daily_board(boards: Boards) -> None:
    await fill(boards, [("ann", False, 5_000, 10, 20, 100)])
    await fill(boards, [("ann", True, 1_000, 10, 52, 200)])
    page = await boards.top(daily())
    assert page["entries"][0]["won"] is False and page["size"] == 1


async def test_a_best_board_keeps_the_best(boards: Boards) -> None:
    best = parse_board("best/gate", TODAY, WEEK)
    assert await boards.submit_time(best, "ann", result("ann", True, 9_000, 50), 1, "best")
    assert not await boards.submit_time(best, "ann", result("ann", True, 9_500, 40), 2, "best")
    assert await boards.submit_time(best, "ann", result("ann", True, 8_000, 60), 3, "best")
    page = await boards.top(best)
    assert page["size"] == 1 and page["entries"][0]["time_ms"] == 8_000


async def test_paging_and_around_me_at_the_top_and_the_bottom(boards: Boards) -> None:
    await fill(boards, [(f"p{n:02d}", True, 1_000 * n, 10, 52, n) for n in range(1, 31)])
    second = await boards.top(daily(), offset=10, limit=10)
    assert names(second) == [f"p{n:02d}" for n in range(11, 21)]
    assert second["entries"][0]["rank"] == 11
    top = await boards.around(daily(), "p01", radius=3)
    assert top["rank"] == 1 and names(top) == ["p01", "p02", "p03", "p04"]
    bottom = await boards.around(daily(), "p30", radius=3)
    assert bottom["rank"] == 30 and names(bottom) == ["p27", "p28", "p29", "p30"]
    middle = await boards.around(daily(), "p15", radius=2)
    assert names(middle) == ["p13", "p14", "p15", "p16", "p17"]
    absent = await boards.around(daily(), "nobody")
    assert absent["rank"] is None and absent["entries"] == []


async def test_a_board_filtered_to_friends_keeps_whole_board_ranks(boards: Boards) -> None:
    await fill(boards, [(f"p{n}", True, 1_000 * n, 10, 52, n) for n in range(1, 8)])
    page = await boards.among(daily(), ["p6", "p2", "nobody", "p4"])
    assert names(page) == ["p2", "p4", "p6"]
    assert [e["rank"] for e in page["entries"]] == [2, 4, 6]


async def test_counting_boards_count_and_break_ties_by_who_got_there_first(
    boards: Boards,
) -> None:
    wins = parse_board("wins/gate", TODAY, WEEK)
    await boards.submit_count(wins, "b", {"player": "b"}, 1_000_000)
    await boards.submit_count(wins, "a", {"player": "a"}, 2_000_000)
    await boards.submit_count(wins, "a", {"player": "a"}, 3_000_000)
    await boards.submit_count(wins, "c", {"player": "c"}, 4_000_000)
    page = await boards.top(wins)
    assert [(e["player"], e["count"]) for e in page["entries"]] == [("a", 2), ("b", 1), ("c", 1)]


async def test_a_days_board_expires_after_thirty_days(boards: Boards) -> None:
    await fill(boards, [("ann", True, 1, 1, 52, 1)])
    ttl = await boards.redis.ttl(board_key(daily().id))
    assert 30 * 86400 < ttl <= 31 * 86400


async def test_a_players_entry_is_theirs_while_results_land_above_it(boards: Boards) -> None:
    """``around`` read the rank, then the board's size, then the entries at that rank:
    results landing above the player in between shifted the board, and the entry at
    the old rank was another player's (a ``board_update`` said "z1p06" for z1p18's
    result, and z1p18's never came; an outside probe, 36 players ending a daily at
    once). Now one script reads them together."""
    await fill(boards, [("cat", False, 90_000, 5, 2, 1)])
    faster = [
        (f"p{n:02d}", True, 10_000 + n, 30, 52, 2 + n) for n in range(40)
    ]  # each lands above cat

    async def land(row: tuple[str, bool, int, int, int, int]) -> None:
        await fill(boards, [row])

    async def look() -> dict:
        return await boards.around(daily(), "cat", radius=0)

    seen = await asyncio.gather(*(task for row in faster for task in (land(row), look())))
    looks = [page for page in seen[1::2] if page is not None]
    assert len(looks) == len(faster)
    for page in looks:
        assert [e["pid"] for e in page["entries"]] == ["cat"], page
        assert page["entries"][0]["rank"] == page["rank"], page
        assert page["rank"] <= page["size"], page
    assert (await look())["rank"] == 41
