"""Certifying the daily deals as players need them, and politely: today's deals of every
game fixed first, each by the solver's quick verdict (a winning line, checked), before
any search for par, then the days ahead; in worker processes that run at a lower CPU
priority than the server (the hint and stuck-check workers do not); one log line a
day, as it is done."""

from __future__ import annotations

import logging
import os

import pytest

from server.app.domain import daily as d
from server.app.settings import Settings
from server.solver import check_line

from .conftest import running, with_settings

GAMES = ["gate", "nestor"]
#: a secret and a day whose deals (and the next day's) are certified by their first
#: candidates, in a few milliseconds of search each
SECRET, DAY = "the-certify-order-test", "2026-03-01"


def priority() -> int:
    return os.getpriority(os.PRIO_PROCESS, 0)


async def test_the_certifying_workers_run_at_a_lower_priority(settings: Settings) -> None:
    async with running(settings) as server:
        workers = server.service.workers
        mine = priority()
        certifying = await workers.run("certify", os.getpriority, os.PRIO_PROCESS, 0, timeout=60)
        hinting = await workers.run("hints", os.getpriority, os.PRIO_PROCESS, 0, timeout=60)
        assert certifying > mine  # a higher nice value: a lower priority
        assert hinting == mine


def steps(caplog: pytest.LogCaptureFixture) -> list[tuple[str, str, str]]:
    """The certifier's steps, in order: (what, day, game)."""
    return [
        (r.step, r.day, r.game)  # type: ignore[attr-defined]
        for r in caplog.records
        if r.name == "patience.service" and hasattr(r, "step")
    ]


async def test_today_first_the_verdicts_before_par_and_one_line_a_day(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    # the candidates are the secret's and the day's: fixed here, for with a secret of
    # its own a day's eight Nestor candidates are all unwinnable about once in seventy
    # (the deal then uncertified, and no search for par: the step missing from the log)
    small = with_settings(settings, certify_budget=1.0, certify_candidates=8, secret=SECRET)
    async with running(small) as server:
        certifier = server.service.certifier
        today = DAY
        tomorrow = d.next_day(today)
        caplog.set_level(logging.DEBUG, logger="patience.service")
        await certifier.certify_ahead([today, tomorrow], GAMES)
        expected = [
            (step, day, game)
            for day in (today, tomorrow)
            for step in ("verdict", "par")
            for game in GAMES
        ]
        assert steps(caplog) == expected
        # one line at INFO a day, with what it did and what it cost, as soon as that day
        # is done (one at a pass's end: a pass of ten days' pars ran for many minutes
        # with nothing in the log)
        said = [
            (r, i)
            for i, r in enumerate(caplog.records)
            if r.name == "patience.service" and r.levelno >= logging.INFO and "certif" in r.msg
        ]
        assert [r.days for r, _ in said] == [[today], [tomorrow]]  # type: ignore[attr-defined]
        tomorrows_first = min(
            i for i, r in enumerate(caplog.records) if getattr(r, "day", None) == tomorrow
        )
        assert said[0][1] < tomorrows_first
        for summary, _ in said:
            assert summary.certified == 2 and summary.uncertified == 0  # type: ignore[attr-defined]
            assert summary.cpu_seconds > 0 and summary.seconds > 0  # type: ignore[attr-defined]
        # the deal fixed by the verdict is the one kept, with the book line found for par
        for day in (today, tomorrow):
            for game in GAMES:
                deal = await certifier.deal(day, game)
                assert deal["certified"] is True and deal["par"] == len(deal["line"])
                check_line(game, deal["line"], seed=deal["seed"])
                secret = server.service.daily.secret
                assert deal["seed"] == d.candidate_seed(secret, day, game, deal["n"])
        # a pass with nothing left to do says nothing
        caplog.clear()
        await certifier.certify_ahead([today, tomorrow], GAMES)
        assert steps(caplog) == []
        assert not [r for r in caplog.records if r.levelno >= logging.INFO]
