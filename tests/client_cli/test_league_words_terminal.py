"""What ``patience-race league`` says in words around its table, against a real server
and Redis (probe W): a player not joined is not told that nobody is in the league they
would join (fault 2); who moves at the week's end is said with its rule's condition
(points), and after the close as it happened (fault 3)."""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from client_cli.config import Account, TokenStore
from client_cli.league import league_view
from client_cli.printing import _render
from server.app.domain import leagues as lg
from tests.app.client import player, signed_in
from tests.app.conftest import ServerProcess

from .test_league_close_terminal import Shifted
from .test_name_terminal import registered, run


def test_one_not_joined_is_not_told_nobody_is_in_the_league(
    server_process: ServerProcess, tmp_path: Path
) -> None:
    url = server_process.url

    async def join(name: str) -> None:
        member = await player(url, name)
        await member.call("event_join")
        await member.close()

    async def three() -> None:
        for name in ("wann", "wbob", "wcat"):
            await join(name)

    asyncio.run(three())
    dan = tmp_path / "dan"
    registered(url, dan, "wdan")
    code, screen = run(url, dan, "league")
    assert code == 0, screen
    assert "Nobody is in it" not in screen, screen
    assert "you have not joined; you would play in Bronze" in screen, screen
    # what is true: the standings are shown once joined, a league's size, how to join
    assert "You have not joined this week's league" in screen, screen
    assert "its standings show once you join" in screen, screen
    assert "up to 30 players" in screen, screen
    assert "Join it: patience-race league --join" in screen, screen


@pytest.fixture
def shifted(redis_url: str, tmp_path: Path) -> Iterator[Shifted]:
    """Server processes whose clocks are just before a week's end (as in
    ``test_league_close_terminal``)."""
    made = Shifted(redis_url, tmp_path)
    yield made
    for proc in made.made:
        if proc.process is not None:
            proc.stop(signal.SIGKILL)


def test_who_moves_is_said_with_its_rule_and_after_the_close_as_it_happened(
    shifted: Shifted, tmp_path: Path
) -> None:
    """Fault 3: a closed week where nobody had points said "The top 1 moved up a tier at
    the week's end": nobody had. Before the close the rule says its condition."""
    one = shifted.process(0, 3600, "one")
    rob = tmp_path / "rob"
    token = registered(one.url, rob, "rob")

    async def joins() -> None:
        for name in ("ann", "bob", "cat"):
            member = await player(one.url, name)
            await member.call("event_join")
            await member.close()
        me = await signed_in(one.url, token, side=True)
        await me.call("event_join")
        await me.close()

    asyncio.run(joins())
    code, screen = run(one.url, rob, "league")
    assert code == 0 and "you are" in screen and "of 4 with 0 points" in screen, screen
    assert "The top 1 moves up a tier at the week's end if they have points" in screen, screen
    # another process, its clock past the close: it closes the week at its first look
    two = shifted.process(lg.CLOSE_GRACE_MS + 60_000, 0.5, "two")
    TokenStore(rob / "patience-race").put(two.url, Account("rob", token))
    deadline = time.monotonic() + 30
    while True:
        code, screen = run(two.url, rob, "league", "--week", shifted.week)
        if "· closed" in screen or time.monotonic() > deadline:
            break
        time.sleep(1)
    assert code == 0 and "with 0 points · closed" in screen, screen
    assert "moved up a tier at the week's end" not in screen, screen
    said = "nobody moved up a tier, as nobody in the top 1 had points"
    assert said in screen, screen
    assert "nobody moved down from Bronze, the lowest" in screen, screen
    assert "▲" not in screen and "▼" not in screen, screen


def closed_reply(points: list[int], tier: str = "silver") -> dict[str, Any]:
    """A closed week's reply as the server makes it (``lg.moves``: the top with points
    up, the bottom down)."""
    names = ["ann", "bob", "cat", "dan", "eve", "fay"][: len(points)]
    rows = [lg.Standing(name, p) for name, p in zip(names, points, strict=True)]
    moved = lg.moves(tier, rows)
    standings = [
        {"rank": i + 1, "name": r.pid, "points": r.points, "wins": 0, "played": 0}
        | {"zone": lg.movement(tier, moved.get(r.pid, tier)), "you": r.pid == "ann"}
        for i, r in enumerate(rows)
    ]
    reply: dict[str, Any] = {"week": "2026-W48", "joined": True, "current": False}
    reply |= {"closed": True, "tier": tier, "league": f"{tier}-1", "rank": 1}
    reply |= {"players": len(rows), "points": points[0], "tiers": list(lg.TIERS)}
    reply |= {"rules": {"movers": 5}, "movers": lg.movers(len(rows))}
    return reply | {"standings": standings}


def words(reply: dict[str, Any]) -> str:
    return " ".join(_render(league_view(reply), False, 200).plain.split())


def test_the_closed_weeks_moves_are_told_from_its_standings() -> None:
    said = words(closed_reply([9, 8, 5, 3, 0, 0]))
    assert "At the week's end ann and bob moved up a tier; eve and fay moved down." in said
    # one of the top two without points stays
    said = words(closed_reply([9, 0, 0, 0, 0, 0]))
    assert "ann moved up a tier (of the top 2, only those with points)" in said, said
    said = words(closed_reply([0, 0, 0, 0, 0, 0]))
    assert "nobody moved up a tier, as nobody in the top 2 had points" in said, said
    assert "eve and fay moved down" in said and "The top" not in said, said
    said = words(closed_reply([0, 0, 0, 0, 0, 0], "bronze"))
    assert "nobody moved down from Bronze, the lowest" in said, said
    said = words(closed_reply([9, 8, 5, 3, 0, 0], "diamond"))
    assert "nobody moved up from Diamond, the highest; eve and fay moved down" in said, said
    said = words(closed_reply([9, 0]))
    assert "nobody moved: a league of fewer than 3 players stayed as it was" in said, said
    # before the close, the rule with its condition
    now = {**closed_reply([9, 8, 5, 3, 0, 0]), "current": True, "closed": False}
    said = words({**now, "ends_in_ms": 60_000})
    assert "The top 2 move up a tier at the week's end if they have points" in said, said
