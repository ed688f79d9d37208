"""Par, and whether it is proved the shortest, where the server tells it: the ``daily``
reply and the ``daily_result`` event once the ranked attempt is over, a past day's
board (``top``'s ``book``) and its HTML page, and the book line's replay page."""

from __future__ import annotations

from server.app.settings import Settings
from server.solver import solve

from .client import player
from .conftest import running
from .pars import fix_pars, today_and_yesterday
from .test_pages import fetch, http


async def test_par_says_whether_it_is_proved_the_shortest(settings: Settings) -> None:
    assert settings.redis_url is not None
    pars = await fix_pars(settings.redis_url)
    _, yesterday = today_and_yesterday()
    async with running(settings) as server:
        ann = await player(server.url, "ann")
        reply = await ann.call("daily", game="nestor")
        assert reply["certified"] is True
        assert reply["par"] is None and reply["par_shortest"] is None  # not while ranked
        await ann.call("resign")
        result = await ann.event("daily_result")
        assert result["par"] == pars["today/nestor"] and result["par_shortest"] is True
        again = await ann.call("daily", game="nestor")
        assert again["par"] == pars["today/nestor"] and again["par_shortest"] is True
        assert again["over_par"] is None  # (resigned: no win to set against par)

        for game, proved, words in (
            ("nestor", True, "(proved shortest)"),
            ("gate", False, "(shortest found)"),
        ):
            par = pars[f"yesterday/{game}"]
            board = await ann.call("top", board=f"daily/{game}/{yesterday}")
            assert board["book"]["par"] == par and board["book"]["shortest"] is proved
            status, _, page = await fetch(http(server) + f"/leaderboard/daily/{game}/{yesterday}")
            assert status == 200 and f"Par {par} {words}: " in page, page
            # the book line's replay page
            book = board["book"]["replay"]
            status, _, page = await fetch(http(server) + f"/replay/{book}")
            assert status == 200 and f"Par {par} {words}: the day's book line." in page


async def test_a_won_attempt_against_par_is_told_on_coming_back(settings: Settings) -> None:
    """A player back at a day's daily they won is told their win against par, as the
    end of the attempt told it: the practice's ``daily`` and ``daily_status`` carry
    ``over_par`` (the clients had said "You matched par." only at the attempt's end)."""
    assert settings.redis_url is not None
    pars = await fix_pars(settings.redis_url)
    line = solve("nestor", seed=1, budget_s=10).line
    assert len(line) == pars["today/nestor"]
    async with running(settings) as server:
        ann = await player(server.url, "ann")
        status = await ann.call("daily", game="nestor", start=False)
        assert status["over_par"] is None  # (pending)
        reply = await ann.call("daily", game="nestor")
        assert reply["over_par"] is None  # (ranked: par is not told yet)
        for move in line:
            await ann.call("move", move=move, game=reply["game"])
        result = await ann.event("daily_result")
        assert result["status"] == "won" and result["par"] == len(line)
        status = await ann.call("daily", game="nestor", start=False)
        assert status["ranked_attempt"] == "ended" and status["over_par"] == 0
        again = await ann.call("daily", game="nestor")
        assert not again["ranked"] and again["over_par"] == 0
