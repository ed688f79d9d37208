"""A ranked daily's end, and its day's: the ``daily_result`` event read
(:func:`result_of`), the game on the table ended as the result says
(:func:`end_by_result`: a game the day's reset ended was told by nothing else, so it stayed
live, its clock running), and whether the day of the daily on the table is over
(:func:`day_over`), which the result screen, the game line and the keys then say.

Pure, as :mod:`.model` is: the model calls :func:`end_by_result` as the event comes;
:mod:`.screen` and :mod:`.keys_line` ask :func:`day_over` with the time they draw at.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from .sanitize import clean

if TYPE_CHECKING:
    from .model import Model

#: the statuses a ranked attempt's result ends its game with (``timeout``: still open at
#: the day's reset, docs/protocol.md, "The daily challenge", its reset)
ENDED = frozenset({"won", "lost", "resigned", "timeout"})


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def streaks(value: Any) -> dict[str, dict[str, int]]:
    """A ``streak`` map, checked: ``game`` and ``all``, each ``current`` and ``best``."""
    value = value if isinstance(value, Mapping) else {}
    out = {}
    for which in ("game", "all"):
        one = value.get(which)
        one = one if isinstance(one, Mapping) else {}
        out[which] = {"current": _int(one.get("current")), "best": _int(one.get("best"))}
    return out


def result_of(msg: Mapping[str, Any], gid: str) -> dict[str, Any]:
    """A ``daily_result`` event of the game ``gid``, checked, as the model keeps it."""
    par, shortest = msg.get("par"), msg.get("par_shortest")
    return {
        "day": clean(msg.get("day", ""), 10),
        "game": gid,
        "rules": clean(msg.get("rules", ""), 32),
        "status": clean(msg.get("status", ""), 16),
        "rank": _int(msg.get("rank")),
        "board": clean(msg.get("board", ""), 64),
        "streak": streaks(msg.get("streak")),
        "line": clean(msg.get("line", ""), 200),
        # the day's par, once told, and whether it is proved the shortest
        "par": _int(par) if isinstance(par, int) else None,
        "par_shortest": shortest if isinstance(shortest, bool) else None,
        # a result the pace check held off the public boards (else empty)
        "review": clean((msg.get("review") or {}).get("note") or "", 400),
    }


def day_end_ms(day: str) -> int | None:
    """Server ms of the reset that ends ``day`` (the 00:00 UTC after it); None for text
    that is no day.

    >>> day_end_ms("2026-11-22") - day_end_ms("2026-11-21"), day_end_ms("soon")
    (86400000, None)
    """
    try:
        start = datetime.strptime(day, "%Y-%m-%d").replace(tzinfo=UTC)
    except ValueError:
        return None
    return int((start + timedelta(days=1)).timestamp() * 1000)


def end_by_result(model: Model, now: int | None) -> None:
    """The ranked game on the table ends as its result (``model.daily_result``) says, if
    nothing ended it yet: a ``timeout`` at the day's reset comes with no reply to any
    request of ours. Its clock stops where the server's did: at the reset for a timeout
    (its ``time_ms`` runs to 00:00), else ``now`` (the reply that ended it sets it
    too); a question about the game (resign?) goes with it."""
    game, result = model.game, model.daily_result
    if game is None or result is None or result.get("game") != game.gid:
        return
    status = result.get("status", "")
    if not game.over and status in ENDED:
        game.status, game.legal, game.stuck = status, [], False
        model.picked, model.choices = None, []
        if model.confirm in ("resign", "stuck"):
            model.confirm = None
    if game.over and model.clock_to is None:
        end = day_end_ms(result.get("day", "")) if game.status == "timeout" else None
        model.clock_to = end - model.offset_ms if end is not None else now


def day_over(model: Model, now: int) -> bool:
    """The day of the daily on the table (ranked or practice) is over on the server's
    clock: its reset has come, and the next day's deal with it (a ranked attempt the
    reset timed out says so, whatever this clock makes of the server's)."""
    if model.daily_kind is None:
        return False
    if (model.daily_result or {}).get("status") == "timeout":
        return True
    reset = _int((model.daily or {}).get("reset_at"))
    return reset > 0 and model.server_now(now) >= reset


def ranked_end(model: Model, now: int) -> int:
    """Where the header's clock of a ranked attempt stops at the latest: the day's reset
    ends it (its result may come a few seconds later, or, from a process that died, half
    a minute), so the clock never runs on past 00:00; else ``now``."""
    reset = _int((model.daily or {}).get("reset_at"))
    if model.daily_kind == "daily" and reset > 0:
        return min(now, reset - model.offset_ms)
    return now
