"""``patience-race league``: this week's league (``--join`` joins the week's event), or a
past week's as it closed (``--week``), as a table: rank, name, points, wins, dailies
counted, today's points, and who is on the way up or down (``docs/client.md``).
``--watch`` keeps this week's table on the screen, redrawn as the server sends the
standings again (``event`` with ``watch``), until Ctrl-C.

The table is a pure function of the server's ``event`` reply (:func:`league_view`), so
that it is tested as text at a fixed width."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import re
import time
from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from . import pager
from .challenge import command
from .connection import Connection, LinkError, ServerError
from .league_watch import (
    CLOSING_WORDS,
    POLL_S,
    Watched,
    in_closing_window,
    link_words,
    previous_week,
    watch_screen,
)
from .lines import HeadersWhole, as_int, aside, kept, kept_parts
from .printing import _console, _print
from .queries import _fail, _signed_in
from .sanitize import clean

#: how a zone shows beside a member (``--ascii``: the second)
ZONES = {"up": ("▲ up", "^ up"), "down": ("▼ down", "v down"), "stay": ("", "")}


def _left(ms: int) -> str:
    """``2d 5h``, ``5h 12m``, ``12m``, ``under a minute``: the time left to the week's end
    (26 s left had read "0m").

    >>> _left(26_000), _left(60_000)
    ('under a minute', '1m')
    """
    if ms < 60_000:
        return "under a minute"
    minutes = ms // 60_000
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        return f"{days}d {hours}h"
    return f"{hours}h {minutes}m" if hours else f"{minutes}m"


def ordinal(rank: int) -> str:
    """``1st``, ``2nd``, ``11th``, ``23rd``.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd', '101st', '111th']
    """
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return f"{rank}{suffix}"


def last_week_line(last: dict[str, Any], now: dict[str, Any]) -> str | None:
    """How last week went, for one who has not joined this week's league yet, once last
    week is closed (the browser's ``lastWeekLine``); None where there is nothing to tell.

    >>> last = {"week": "2026-W49", "joined": True, "closed": True, "tier": "bronze",
    ...   "rank": 1, "players": 3, "zone": "up"}
    >>> last_week_line(last, {"tier": "silver"})
    'Last week, 2026-W49: 1st of 3 in Bronze, moved up to Silver.'
    >>> last_week_line({**last, "zone": "stay"}, {"tier": "bronze"})
    'Last week, 2026-W49: 1st of 3 in Bronze, stayed in Bronze.'
    >>> last_week_line({**last, "closed": False}, {"tier": "bronze"}) is None
    True
    """
    if not last.get("joined") or not last.get("closed"):
        return None
    was = clean(str(last.get("tier", "")), 12).capitalize()
    now_tier = clean(str(now.get("tier", "")), 12).capitalize()
    zone = last.get("zone")
    went = {"up": f"moved up to {now_tier}", "down": f"moved down to {now_tier}"}.get(
        str(zone), f"stayed in {was}"
    )
    week = clean(str(last.get("week", "")), 8)
    rank, players = as_int(last.get("rank")), as_int(last.get("players"))
    return f"Last week, {week}: {ordinal(rank)} of {players} in {was}, {went}."


def headline(reply: dict[str, Any]) -> str:
    """The line above the table: the week, the tier and league, the rank, the end.

    >>> headline({"week": "2026-W48", "joined": True, "tier": "gold", "league": "gold-2",
    ...   "rank": 3, "players": 30, "points": 41, "current": True, "ends_in_ms": 93_600_000})
    'Week 2026-W48 · Gold league 2 · you are 3rd of 30 with 41 points · ends in 1d 2h'
    """
    week = clean(str(reply.get("week", "")), 8)
    tier = clean(str(reply.get("tier", "")), 12).capitalize()
    if not reply.get("joined") and not reply.get("current"):
        return f"Week {week} · you did not race in this week's league"
    if not reply.get("joined"):
        return f"Week {week} · you have not joined; you would play in {tier}"
    rank = as_int(reply.get("rank"))
    # ("gold-2": the tier's second league, said by its number, not by the server's id)
    league = clean(str(reply.get("league", "")), 20).rpartition("-")[2]
    players, points = as_int(reply.get("players")), as_int(reply.get("points"))
    line = f"Week {week} · {tier} league {league} · you are {ordinal(rank)} of {players}"
    line += f" with {points} points"
    if reply.get("closed"):
        return line + " · closed"
    if reply.get("current"):
        return line + f" · ends in {_left(as_int(reply.get('ends_in_ms')))}"
    return line + " · ended, closing"


def league_view(reply: dict[str, Any], ascii: bool = False, keep: int | None = None) -> Any:
    """The league's standings as a table (the player's own row in bold); a week over has
    no column for today, and a week gone by the player did not race, its line alone.
    ``keep``: the rows the table may take (a watch fitted to the screen), as
    :func:`picked` picks them, "…" where rows are left out."""
    current = bool(reply.get("current"))
    if not reply.get("joined") and not current:
        return Text(kept_parts(headline(reply)), style="bold")
    table = Table(box=box.ASCII if ascii else box.SIMPLE_HEAD, pad_edge=False)
    columns = [("#", "right"), ("player", "left"), ("points", "right"), ("wins", "right")]
    columns += [("dailies", "right"), *([("today", "right")] if current else []), ("", "left")]
    for column, justify in columns:
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    rows = [e for e in reply.get("standings") or [] if isinstance(e, dict)]
    for entry in rows if keep is None else picked(rows, keep):
        if entry is None:
            table.add_row("..." if ascii else "…", *[""] * (len(columns) - 1))
            continue
        zone = ZONES.get(str(entry.get("zone")), ("", ""))[1 if ascii else 0]
        today = as_int(entry.get("today"))
        table.add_row(
            str(as_int(entry.get("rank"))),
            clean(str(entry.get("name", "?")), 20),
            str(as_int(entry.get("points"))),
            str(as_int(entry.get("wins"))),
            str(as_int(entry.get("played"))),
            *([f"+{today}" if today else ""] if current else []),
            zone,
            style="bold" if entry.get("you") else None,
        )
    rules = reply.get("rules") or {}
    most = (as_int(rules.get("movers")) if isinstance(rules, dict) else 0) or 5
    movers, tiers = reply.get("movers"), reply.get("tiers")
    tier = clean(str(reply.get("tier", "")), 12)
    names = [clean(str(t), 12) for t in tiers] if isinstance(tiers, list) else []
    n = movers if isinstance(movers, int) else None
    if reply.get("closed"):  # (no standings to tell it from: nothing said of moves)
        moves = moved_words(reply, n, tier, names) or ""
    else:
        moves = moves_words(n, most, tier, names)
    notes = Text(
        "A won daily scores 10 points, and up to 10 more for its time among the league's; a "
        f"daily ended without a win scores 2. {moves}".rstrip()
    )
    shown = HeadersWhole(table, first=(1,)) if table.row_count else no_table(reply)
    # (each of its values whole: "ends in 14h" / "31m" printed to a pipe at 80 columns)
    return Group(Text(kept_parts(headline(reply)), style="bold"), shown, notes)


def picked(rows: Sequence[dict[str, Any]], keep: int) -> list[dict[str, Any] | None]:
    """At most ``keep`` lines of a league's ``rows``, None for a line "…" standing for
    those left out: the player's own row (``you``) and those beside it, the top, the
    bottom rows that are to go down (``zone``) where there is room, then more of the top
    and more around one's own.

    >>> rows = [{"rank": n, "you": n == 20, "zone": "down" if n > 25 else ""} for n in range(1, 31)]
    >>> [r["rank"] if r else "…" for r in picked(rows, 12)]
    [1, 2, '…', 19, 20, 21, '…', 26, 27, 28, 29, 30]
    >>> [r["rank"] if r else "…" for r in picked(rows, 6)]
    [1, '…', 19, 20, 21, '…']
    """
    if len(rows) <= keep:
        return list(rows)
    me = next((n for n, r in enumerate(rows) if r.get("you")), None)
    last = len(rows) - 1
    order: list[int] = [] if me is None else [me, me - 1, me + 1]
    order += [0]
    order += [n for n in range(last, -1, -1) if rows[n].get("zone") == "down"]
    for d in range(1, len(rows)):
        order += [d] if me is None else [d, me - 1 - d, me + 1 + d]
    chosen: set[int] = set()

    def lines(taken: set[int]) -> int:  # (each row a line, each run left out a line)
        gaps = sum(1 for n in range(len(rows)) if n not in taken and (n == 0 or n - 1 in taken))
        return len(taken) + gaps

    for n in order:
        if 0 <= n <= last and n not in chosen and lines(chosen | {n}) <= keep:
            chosen.add(n)
    shown: list[dict[str, Any] | None] = []
    for n, row in enumerate(rows):
        if n in chosen:
            shown.append(row)
        elif n == 0 or n - 1 in chosen:
            shown.append(None)
    return shown


def no_table(reply: dict[str, Any]) -> Text:
    """In place of a table without rows: not joined, a reply has no standings (not that
    the league is empty: it said "Nobody is in it yet." of a full one), so what is true,
    with a league's size where the reply gives it (``rules.league_size``).

    >>> no_table({"joined": False, "rules": {"league_size": 30}}).plain
    "You have not joined this week's league: its standings show once you join. A league holds up to 30 players of a tier, placed by when they join."
    """  # noqa: E501
    if reply.get("joined"):
        return Text("No standings yet.")
    rules = reply.get("rules")
    size = as_int(rules.get("league_size")) if isinstance(rules, dict) else 0
    said = "You have not joined this week's league: its standings show once you join."
    if size > 0:
        said += f" A league holds up to {size} players of a tier, placed by when they join."
    return Text(said)


def moves_words(movers: int | None, most: int, tier: str = "", tiers: Sequence[str] = ()) -> str:
    """Who moves at the week's end, in this league at its size (``movers``, where one is
    shown) or in any (``most``): a third of a league of fewer than 15, at most ``most``;
    up, only those with points (``docs/leaderboards.md``).

    >>> moves_words(0, 5)
    "At the week's end nobody moves: a league of fewer than 3 players stays as it is."
    >>> moves_words(None, 5)
    "The top 5 move up a tier at the week's end if they have points, the bottom 5 down."

    Nobody moves down from the lowest tier (``tiers``, lowest first), nor up from the
    highest:

    >>> tiers = ["bronze", "silver", "gold", "platinum", "diamond"]
    >>> moves_words(1, 5, "bronze", tiers).split(" (")[0]
    "The top 1 moves up a tier at the week's end if they have points"
    >>> moves_words(1, 5, "bronze", tiers).split("; ")[1]
    'nobody moves down from Bronze, the lowest.'
    >>> moves_words(5, 5, "diamond", tiers)
    "The bottom 5 move down a tier at the week's end; nobody moves up from Diamond, the highest."

    One mover moves (a league of 3 to 5 players):

    >>> moves_words(1, 5)
    "The top 1 moves up a tier at the week's end if they have points, the bottom 1 down (a third of a league of fewer than 15 players)."
    """  # noqa: E501
    if movers is not None and movers <= 0:
        return "At the week's end nobody moves: a league of fewer than 3 players stays as it is."
    n = most if movers is None else movers
    move = "moves" if n == 1 else "move"
    small = f" (a third of a league of fewer than {3 * most} players)" if n < most else ""
    name = tier.capitalize()
    up = f"The top {n} {move} up a tier at the week's end if they have points"
    if tiers and tier == tiers[0]:
        return f"{up}{small}; nobody moves down from {name}, the lowest."
    if tiers and tier == tiers[-1]:
        return (
            f"The bottom {n} {move} down a tier at the week's end{small}; "
            f"nobody moves up from {name}, the highest."
        )
    return f"{up}, the bottom {n} down{small}."


def _names(names: Sequence[str]) -> str:
    """``ann``, ``ann and bob``, ``ann, bob and cat``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def moved_words(
    reply: dict[str, Any], movers: int | None, tier: str = "", tiers: Sequence[str] = ()
) -> str | None:
    """Who moved at a closed week's end, as its standings show it (each member's
    ``zone``: where they went), by name: only those at the top with points moved up
    (it said "The top 4 moved up a tier" where nobody had points, and nobody had).
    None without standings to tell it.

    >>> rows = [{"name": "ann", "zone": "up"}, {"name": "bob", "zone": "stay"},
    ...   {"name": "cat", "zone": "stay"}, {"name": "dan", "zone": "stay"}]
    >>> moved_words({"standings": rows}, 1, "gold", ["bronze", "gold", "diamond"])
    "At the week's end ann moved up a tier; nobody moved down."
    >>> moved_words({"standings": [{**r, "zone": "stay"} for r in rows]}, 1, "bronze", ["bronze", "gold"])
    "At the week's end nobody moved up a tier, as nobody in the top 1 had points; nobody moved down from Bronze, the lowest."
    """  # noqa: E501
    if movers is not None and movers <= 0:
        return "At the week's end nobody moved: a league of fewer than 3 players stayed as it was."
    rows = [r for r in reply.get("standings") or [] if isinstance(r, dict)]
    if not rows or movers is None:
        return None
    ups = [clean(str(r.get("name", "?")), 20) for r in rows if r.get("zone") == "up"]
    downs = [clean(str(r.get("name", "?")), 20) for r in rows if r.get("zone") == "down"]
    name = tier.capitalize()
    if ups:
        up = f"{_names(ups)} moved up a tier"
        if len(ups) < movers:
            up += f" (of the top {movers}, only those with points)"
    elif tiers and tier == tiers[-1]:
        up = f"nobody moved up from {name}, the highest"
    else:
        up = f"nobody moved up a tier, as nobody in the top {movers} had points"
    if downs:
        down = f"{_names(downs)} moved down"
    elif tiers and tier == tiers[0]:
        down = f"nobody moved down from {name}, the lowest"
    else:
        down = "nobody moved down"
    return f"At the week's end {up}; {down}."


#: ``--week``'s shape: ``YYYY-Www``
WEEK = re.compile(r"(\d{4})-[Ww](\d{2})")


def week_of(text: str) -> str | None:
    """``--week`` as the server takes it (``YYYY-Www``), None where it is no ISO week:
    W01 to W52, or W53 in a year that has one. Known before asking a server.

    >>> week_of("2026-w48"), week_of("2026-W53"), week_of("2025-W53"), week_of("garbage")
    ('2026-W48', '2026-W53', None, None)
    """
    found = WEEK.fullmatch(text.strip())
    if found is None:
        return None
    try:
        datetime.date.fromisocalendar(int(found[1]), int(found[2]), 1)
    except ValueError:
        return None
    return f"{found[1]}-W{found[2]}"


def cmd_league(args: argparse.Namespace) -> int:
    args.join = args.join or getattr(args, "action", None) == "join"
    if args.watch and args.week:
        aside("patience-race: --watch shows this week's league, not a past week's")
        return 2
    if args.join and args.week:
        said = "--join joins this week's league, --week shows a past week's: not both"
        aside(f"patience-race: {said}")
        return 2
    if args.week:
        week = week_of(args.week)
        if week is None:
            aside(f"patience-race: --week {args.week!r} is no ISO week (YYYY-Www, e.g. 2026-W48)")
            return 2
        args.week = week

    async def fetch() -> tuple[dict[str, Any], dict[str, Any] | None, dict[str, Any] | None]:
        """The reply; last week's where it is (likely) being closed (this week not joined,
        in its first minutes): then the join would be refused (``event_closing``); and
        last week's, closed, for one who has not joined this week (how it went)."""
        conn, _welcome = await _signed_in(args.server, newcomer=args.join)
        try:
            if args.join:
                reply = await conn.request("event_join")
            else:
                reply = await conn.request("event", **({"week": args.week} if args.week else {}))
            if args.watch:
                await watch(conn)
            if reply.get("joined") or not reply.get("current"):
                return reply, None, None
            try:
                before = await conn.request("event", week=previous_week(str(reply["week"])))
            except ServerError:  # (this week's table stands without it)
                return reply, None, None
            if in_closing_window(reply) and not before.get("closed"):
                return reply, before, None
            return reply, None, before
        finally:
            await conn.close()

    async def watch(conn: Connection) -> None:
        """The table, redrawn each time the server sends the standings again, and at the
        week's end by the local clock (:mod:`.league_watch`)."""
        console = _console(args)
        came: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        conn.on_event = lambda e: came.put_nowait(e) if e.get("type") == "event" else None
        conn.on_welcome = lambda welcome: came.put_nowait(None)  # (reconnected)
        # (the connection's state, shown until it is back)
        conn.on_link = lambda state, delay: came.put_nowait({"link": link_words(state, delay)})
        hint = Text("watching: redrawn as the standings change · Ctrl-C stops", style="dim")
        join = kept(command(args.server, "league --join"))

        def shown(watched: Watched) -> Any:
            at = time.monotonic()
            # (fitted to the screen's height: a pipe takes every version whole)
            height = console.size.height if console.is_terminal else None
            return watch_screen(watched, at, args.ascii, join, hint, console.width, height)

        watched = Watched.first(await conn.request("event", watch=True), time.monotonic())
        with pager.Redrawn(console, shown, watched) as live:
            while True:
                event: dict[str, Any] | None = {}
                # (none within the wait: the clock, the week's end or a close to ask about)
                with contextlib.suppress(TimeoutError):
                    event = await asyncio.wait_for(came.get(), watched.wake(time.monotonic()))
                if event is not None and "link" in event:
                    watched.link = str(event["link"])
                else:
                    with contextlib.suppress(LinkError, ServerError):
                        await step(conn, watched, event)
                live.update(watched)

    async def step(conn: Connection, watched: Watched, event: dict[str, Any] | None) -> None:
        """``event`` pushed; None: the connection is back (a watch is not brought back:
        watched again, and the week watched shown first if it ended meanwhile); ``{}``:
        the clock."""
        if event is None:
            asked = watched.rewatched(await conn.request("event", watch=True), time.monotonic())
            asked = asked or watched.being_closed(time.monotonic())
            if asked is not None:
                watched.asked_at = time.monotonic()
                watched.heard(await conn.request("event", week=asked), time.monotonic())
            return
        if not event:
            at = time.monotonic()
            watched.tick(at)
            week = watched.being_closed(at)
            if week is None or at < watched.asked_at + POLL_S:
                return
            watched.asked_at = at
            event = await conn.request("event", week=week)
        if watched.heard(event, time.monotonic()):  # (closed: the new week's, watched)
            watched.rewatched(await conn.request("event", watch=True), time.monotonic())

    try:
        reply, before, last = asyncio.run(fetch())
    except KeyboardInterrupt:
        return 0
    except Exception as exc:
        return _fail(args, exc)
    console = _console(args)
    if reply.get("joined_now"):
        _print(console, Text("You have joined this week's event.", style="bold"), args.ascii)
    _print(console, league_view(reply, args.ascii), args.ascii)
    join = kept(command(args.server, "league --join"))
    if before is not None:  # (a join now would be refused: said, not offered)
        if before.get("joined"):
            _print(console, f"Last week: {kept_parts(headline(before))}", args.ascii)
        # (the command last, nothing after it: copied whole, a bracket went with it)
        _print(console, f"{CLOSING_WORDS}. Then: {join}", args.ascii)
    elif not reply.get("joined") and reply.get("current"):
        told = last_week_line(last, reply) if last is not None else None
        if told:
            _print(console, told, args.ascii)
        _print(console, f"Join it: {join}", args.ascii)
    return 0
