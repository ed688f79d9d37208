"""Ranked results held for review: the pace check run on a ranked game
(``domain/pace.py``), the board writes a held result would have made (kept in its
record, so that clearing it makes them as they would have gone), and the operator's
decisions (``patience-race-server review``, ``server/review_cli.py``).

A held result stands for its player (its replay, their own result line, their streak)
and stays off the public boards (``daily/``, ``best/``, ``wins/``, ``races/``) until an
operator clears it, which writes its board entries at its original finish (so it takes
the place it would have had), or removes it for good. Every write here may be done
again: a result is held once (``Reviews.hold``), decided once, and a board write is
kept first (``daily/``), best (``best/``) or counted once a game (``wins/``,
``races/``), so a finish written again after a failure, or a clear run again, changes
nothing more.
"""

from __future__ import annotations

from typing import Any

from .domain import daily as d
from .domain import pace
from .domain.boards import Board, parse_board
from .store.boards import Boards
from .store.leagues import Leagues
from .store.pace import CLEARED, HELD, REMOVED, Reviews

__all__ = [
    "CLEARED",
    "HELD",
    "REMOVED",
    "Undecidable",
    "clear",
    "judge",
    "remove",
    "told",
    "told_of",
]


def time_write(board: str, details: dict[str, Any], at_ms: int, keep: str) -> dict[str, Any]:
    """A timed board's entry (``keep``: ``first`` or ``best``) finished at ``at_ms``."""
    return {"board": board, "how": keep, "details": details, "at": at_ms}


def count_write(
    board: str, details: dict[str, Any], at_ms: int, game: str | None
) -> dict[str, Any]:
    """One more on a counting board, reached at ``at_ms`` (``game``: counted once)."""
    return {"board": board, "how": "count", "details": details, "at": at_ms, "game": game}


def league_write(week: str, details: dict[str, Any], at_ms: int) -> dict[str, Any]:
    """A ranked daily's result in its player's league of ``week``, if they joined that
    week's event (``handlers/leagues.py``): held and cleared as a board entry is."""
    return {"board": f"league/{week}", "how": "league", "details": details, "at": at_ms}


async def put(boards: Boards, pid: str, write: dict[str, Any], now_ms: int) -> Board | None:
    """Make one board write; the board if it changed (None: a first or best result
    kept already, or a league's result, which is on no board)."""
    if write["how"] == "league":
        week = write["board"].partition("/")[2]
        await Leagues(boards.redis).score(week, pid, {**write["details"], "at": write["at"]})
        return None
    board = parse_board(write["board"], d.day_of(now_ms), d.iso_week(now_ms))
    if write["how"] == "count":
        game = write.get("game")
        if game is not None and await boards.counted(board, game):
            return None  # (counted once: a clear run again changes nothing)
        await boards.submit_count(board, pid, write["details"], int(write["at"]), game=game)
        return board
    if await boards.submit_time(board, pid, write["details"], int(write["at"]), write["how"]):
        return board
    return None


async def judge(
    reviews: Reviews, gid: str, log: list[tuple[int, str]] | list[list[Any]], start_ms: int
) -> pace.Pace:
    """The pace check of a ranked game, from its log and its ``home`` chains."""
    return pace.check(log, start_ms, await reviews.chains(gid))


def held_record(
    *,
    gid: str,
    kind: str,
    pid: str,
    name: str,
    rules: str,
    finished_ms: int,
    check: pace.Pace,
    writes: list[dict[str, Any]],
    **where: Any,
) -> dict[str, Any]:
    """What a held result's record keeps: whose, what (``kind``: ``daily`` or ``race``,
    and ``where``: the day, or the room and race), when it finished, the check's figures
    and verdict, and the board writes it would have made."""
    return {
        "id": gid,
        "kind": kind,
        "player": pid,
        "name": name,
        "rules": rules,
        "finished": finished_ms,
        **where,
        "boards": [write["board"] for write in writes],
        "writes": writes,
        "pace": check.record(),
    }


def note(state: str | None, decision: dict[str, Any] | None, why: list[str]) -> str | None:
    """What the player is told of their result's review (None: it was never held).

    >>> note("held", None, ["10 actions in a row each under 0.25 s (0.90 s in all)"])[:49]
    'held for review: played faster than people play ('
    >>> note("removed", {"reason": "a script"}, [])
    'removed from the boards after review: a script'
    >>> note(None, None, []) is None
    True
    """
    if state is None:
        return None
    if state == HELD:
        return pace.held_note(why)
    reason = (decision or {}).get("reason") or "no reason given"
    if state == CLEARED:
        return f"cleared after review ({reason}): on the boards"
    return f"removed from the boards after review: {reason}"


def told(state: str | None, decision: dict[str, Any] | None, why: list[str]) -> dict[str, Any]:
    """``review`` as a reply carries it (``daily_result``, ``daily_status``, a daily
    board's ``top`` with ``around`` or ``friends``): only for a result the pace check
    held, its state and a note in words; nothing for any other.

    >>> told(None, None, [])
    {}
    >>> told("removed", {"reason": "a script"}, [])["review"]["state"]
    'removed'
    """
    if state is None:
        return {}
    return {"review": {"state": state, "note": note(state, decision, why)}}


async def told_of(reviews: Reviews, gid: str) -> dict[str, Any]:
    """:func:`told` of the ranked game ``gid``'s result, as its review stands now."""
    state, decision = await reviews.state(gid)
    if state is None:
        return {}
    record = await reviews.record(gid) or {}
    return told(state, decision, record.get("pace", {}).get("why", []))


class Undecidable(Exception):
    """A decision on a result that is not held (never held, or decided already)."""


async def clear(
    reviews: Reviews, boards: Boards, rid: str, reason: str, now_ms: int
) -> dict[str, Any]:
    """Clear a held result: its board writes made as they would have gone (each at its
    original finish), the reason kept. A result cleared already is written again (the
    writes change nothing a second time: a clear cut short by a failure is finished
    so). The result's record, with the boards written."""
    record = await reviews.record(rid)
    if record is None:
        raise Undecidable(f"no result {rid!r} was held for review")
    before = await reviews.decide(rid, CLEARED, reason, now_ms)
    if before not in (HELD, CLEARED):
        raise Undecidable(f"result {rid} was {before} already; it stays so")
    written = []
    for write in record.get("writes", []):
        board = await put(boards, record["player"], write, now_ms)
        if board is not None:
            written.append(board.id)
    return {**record, "written": written, "again": before == CLEARED}


async def remove(reviews: Reviews, rid: str, reason: str, now_ms: int) -> dict[str, Any]:
    """Remove a held result for good: it never reaches the boards; the reason is kept
    and its player's own record says so (``daily_status``)."""
    record = await reviews.record(rid)
    if record is None:
        raise Undecidable(f"no result {rid!r} was held for review")
    before = await reviews.decide(rid, REMOVED, reason, now_ms)
    if before != HELD:
        raise Undecidable(f"result {rid} was {before} already; it stays so")
    return record
