"""``patience-race-server review``: the results the pace check held (``docs/server.md``,
"Results held for review"; the policy: ``docs/leaderboards.md``).

``review list`` shows the results held and not decided: whose, which boards, when, and
what the check saw; ``--all`` adds the decided ones with their decisions.
``review clear ID --reason TEXT`` puts a held result on its boards as it would have gone
(at its original finish, so in its place); ``review remove ID --reason TEXT`` drops it
for good (its player's own record says so). The command reads the Redis the server
uses, from the same flags and ``PATIENCE_*`` variables (``PATIENCE_REDIS_URL``; without
one, the embedded Redis of ``PATIENCE_DATA_DIR``, which a running server has started).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from datetime import UTC, datetime
from typing import Any


def add_commands(sub: Any) -> None:
    """The ``review`` subcommand, on ``patience-race-server``'s parser."""
    review = sub.add_parser(
        "review",
        help="results held by the pace policy: list, clear or remove them",
        description=(__doc__ or "").replace("``", ""),  # (the docstring's code marks)
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = review.add_subparsers(dest="action", required=True)
    listing = actions.add_parser("list", help="the results held and not decided")
    listing.add_argument("--all", action="store_true", help="the decided ones too")
    for name, what in (
        ("clear", "put a held result on its boards, in its place"),
        ("remove", "drop a held result for good"),
    ):
        act = actions.add_parser(name, help=what)
        act.add_argument("id", help="the result's id (its game's), as `review list` shows it")
        act.add_argument("--reason", required=True, help="why (kept with the decision)")
    review.set_defaults(func=cmd_review)


def cmd_review(args: argparse.Namespace, server_flags: list[str] | None = None) -> int:
    from server.app.settings import Settings

    settings = Settings.load(server_flags or [])
    if args.action in ("clear", "remove") and not args.reason.strip():
        print("--reason must say why", file=sys.stderr)
        return 2
    return asyncio.run(_review(args, settings))


async def _review(args: argparse.Namespace, settings: Any) -> int:
    from server.app import review
    from server.app.embedded_redis import socket_path
    from server.app.settings import shown_url
    from server.app.store.boards import Boards
    from server.app.store.connect import open_redis
    from server.app.store.failures import unavailable
    from server.app.store.pace import Reviews

    # the embedded Redis's socket where the server put it (its data directory resolved:
    # a relative one is the server's folder's; a long one's socket is in /tmp)
    url = settings.redis_url or f"unix://{socket_path((settings.data_dir / 'redis').resolve())}"
    redis = open_redis(url, cluster=settings.redis_cluster)
    try:
        try:
            await redis.ping()
        except Exception as exc:
            if not unavailable(exc):
                raise
            where = (
                shown_url(settings.redis_url)
                if settings.redis_url
                else "the embedded Redis of the server of this data directory"
            )
            print(
                f"cannot reach Redis ({where}: {exc}): is the server running, with these "
                "settings (PATIENCE_REDIS_URL, PATIENCE_DATA_DIR)?",
                file=sys.stderr,
            )
            return 1
        if settings.redis_cluster:
            await redis.initialize()
        reviews = Reviews(redis)
        now = settings.clock.now_ms()
        if args.action == "list":
            shown = await reviews.listing(decided=args.all)
            print(_listing(shown, args.all))
            return 0
        try:
            if args.action == "clear":
                done = await review.clear(reviews, Boards(redis), args.id, args.reason.strip(), now)
                for board_id in done["written"]:  # (watchers hear of it, as of a finish)
                    await _announce(redis, board_id, done["player"], now)
                await _announce_league(redis, done)
                # (a league's result is on no board, but written all the same: scored once)
                writes = [] if done["again"] else done.get("writes", [])
                leagues = [w["board"] for w in writes if w.get("how") == "league"]
                boards = ", ".join([*done["written"], *leagues]) or "none changed"
                again = " (cleared before: written again)" if done["again"] else ""
                print(f"cleared {args.id} ({done.get('name')}){again}: boards written: {boards}")
            else:
                done = await review.remove(reviews, args.id, args.reason.strip(), now)
                print(f"removed {args.id} ({done.get('name')}): it stays off the boards")
        except review.Undecidable as exc:
            print(str(exc), file=sys.stderr)
            return 1
        return 0
    finally:
        await redis.aclose()


async def _announce(redis: Any, board_id: str, pid: str, now: int) -> None:
    """``board_update`` to a cleared result's board's watchers, in every process."""
    from server.app.domain import daily as d
    from server.app.domain.boards import parse_board
    from server.app.store.boards import Boards
    from server.app.store.bus import announce_board
    from server.protocol import encode

    board = parse_board(board_id, d.day_of(now), d.iso_week(now))
    page = await Boards(redis).around(board, pid, radius=0)
    entry = page["entries"][0] if page["entries"] else None
    if entry is not None:
        entry.pop("pid", None)
    data = encode({"type": "board_update", "board": board.id, "entry": entry, "size": page["size"]})
    await announce_board(redis, "review", board.id, data)


async def _announce_league(redis: Any, done: dict[str, Any]) -> None:
    """A ``league`` notice for a cleared result that scores in its player's league: the
    league's watchers, in every process, are sent the standings again."""
    from server.app.store.bus import announce_league
    from server.app.store.leagues import Leagues

    for write in done.get("writes", []):
        if write.get("how") == "league":
            week = write["board"].partition("/")[2]
            league = await Leagues(redis).league_of(week, done["player"])
            if league is not None:
                await announce_league(redis, "review", week, league)


def _when(ms: int | None) -> str:
    if not ms:
        return "?"
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def _seconds(ms: int | None) -> str:
    return "?" if ms is None else f"{ms / 1000:.2f} s"


def figures_text(figures: dict[str, Any]) -> str:
    """A check's figures in a line.

    >>> figures_text({"entries": 110, "actions": 104, "median_gap_ms": 3, "run": 104,
    ...     "run_ms": 310, "fastest_stretch_ms": 20, "fastest_per_s": 500.0, "floor_ms": 250})
    '110 moves (104 actions), median gap 0.00 s, 104 in a row under 0.25 s (0.31 s), fastest 10 in 0.02 s (500.0 a second)'
    """  # noqa: E501
    fastest = ""
    if figures.get("fastest_stretch_ms") is not None:
        fastest = (
            f", fastest 10 in {_seconds(figures['fastest_stretch_ms'])}"
            f" ({figures.get('fastest_per_s')} a second)"
        )
    return (
        f"{figures.get('entries')} moves ({figures.get('actions')} actions), "
        f"median gap {_seconds(figures.get('median_gap_ms'))}, "
        f"{figures.get('run')} in a row under {figures.get('floor_ms', 0) / 1000:g} s "
        f"({_seconds(figures.get('run_ms'))}){fastest}"
    )


def _listing(shown: list[dict[str, Any]], everything: bool) -> str:
    if not shown:
        return "no results held for review" + (", and none decided" if everything else "")
    lines = []
    for record in shown:
        what = (
            f"daily {record.get('rules')} {record.get('day')}"
            if record.get("kind") == "daily"
            else f"race {record.get('room')} #{record.get('race')} ({record.get('rules')})"
        )
        check = record.get("pace") or {}
        lines.append(
            f"{record.get('id')}  {record.get('state')}  {record.get('name')}  {what}"
            f"  finished {_when(record.get('finished'))}"
        )
        lines.append(f"  boards: {', '.join(record.get('boards') or []) or 'none'}")
        lines.append(f"  figures: {figures_text(check.get('figures') or {})}")
        lines.append(f"  why: {'; '.join(check.get('why') or []) or '?'}")
        decision = record.get("decision")
        if decision:
            lines.append(
                f"  {decision.get('state')} {_when(decision.get('at'))}: {decision.get('reason')}"
            )
    return "\n".join(lines)
