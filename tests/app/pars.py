"""A certified daily deal with its par, fixed in Redis as the certifier fixes it, for the
tests of where par is shown (the server's replies and pages, both clients): the deal of
a seed, its solver's winning line as the book line (kept as its replay too), and
whether it is proved shortest as the test says (so both words can be seen without
waiting for A*)."""

from __future__ import annotations

import datetime

from server.app.domain import replays
from server.app.domain.daily import day_start_ms, previous_day
from server.app.store.connect import open_redis
from server.app.store.daily import Dailies
from server.app.store.replays import Replays
from server.solver import WON, solve


async def fix_certified(redis_url: str, day: str, game_id: str, seed: int, shortest: bool) -> int:
    """Fix ``day``'s deal of ``game_id`` as certified, its seed ``seed``, its par the
    length of the solver's line, ``shortest`` as given: the par."""
    result = solve(game_id, seed=seed, budget_s=10)
    assert result.verdict == WON
    redis = open_redis(redis_url, cluster=False)
    try:
        dailies = Dailies(redis)
        deal = {"n": 0, "seed": seed, "line": result.line, "tried": 1, "certified": True}
        await dailies.fix_deal(day, game_id, deal)
        found = {"line": result.line, "par": len(result.line), "shortest": shortest}
        await dailies.fix_par(day, game_id, found)
        # its book line kept as a replay, as the certifier keeps it
        shown = replays.book(day, day_start_ms(day), game_id, seed, result.line)
        shown["shortest"] = shortest
        await Replays(redis).keep([(shown["id"], shown, "")])
    finally:
        await redis.aclose()
    return len(result.line)


def today_and_yesterday() -> tuple[str, str]:
    """The day a server on the real clock plays now (UTC), and the day before."""
    today = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d")
    return today, previous_day(today)


async def fix_pars(redis_url: str) -> dict[str, int]:
    """Today's Nestor (par proved shortest), and yesterday's Nestor (proved) and Gate
    (not proved), fixed before a server starts (a server with certification off fixes
    today's deals uncertified as it starts): their pars, by ``today/nestor``,
    ``yesterday/nestor``, ``yesterday/gate``."""
    today, yesterday = today_and_yesterday()
    return {
        "today/nestor": await fix_certified(redis_url, today, "nestor", 1, True),
        "yesterday/nestor": await fix_certified(redis_url, yesterday, "nestor", 1, True),
        "yesterday/gate": await fix_certified(redis_url, yesterday, "gate", 7, False),
    }
