"""Leaderboards as tables: which board a ``top`` command means, and a ``board`` reply
drawn for a terminal of 80 columns.

Pure: :func:`board_id` reads the command line's BOARD and ``--day``; :func:`board_view`
turns a ``board`` reply into rich renderables (the title and size, the table, the entry to
beat), :func:`overview` the first entry of every game's daily board.

>>> board_id("gate", None), board_id("Gate", "2026-11-21"), board_id("races/week", None)
('daily/gate', 'daily/gate/2026-11-21', 'races/week')
>>> board_id("daily/nestor", "2026-11-21"), board_id("races/week/2026-w47", None)
('daily/nestor/2026-11-21', 'races/week/2026-W47')
>>> board_id("wins/gate", "2026-11-21")
Traceback (most recent call last):
ValueError: --day picks a day of a daily board: top GAME --day DATE
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from .difficulty import difficulty_of, difficulty_words
from .lines import Glyphs, HeadersWhole, clock, kept, race_time
from .par import par_words
from .sanitize import clean

DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
DAY_MS = 86_400_000
#: what a counting board counts
COUNTS = {"wins": "wins", "races": "races won"}


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def day_of(server_ms: int, days_back: int = 0) -> str:
    """The UTC date of a server time, ``days_back`` days earlier.

    >>> day_of(1795309164784), day_of(1795309164784, 1)
    ('2026-11-22', '2026-11-21')
    """
    when = datetime.datetime.fromtimestamp(server_ms / 1000, datetime.UTC)
    return (when.date() - datetime.timedelta(days=days_back)).isoformat()


def pick_day(text: str, server_ms: int) -> str:
    """``--day``: ``YYYY-MM-DD``, ``today`` or ``yesterday`` (UTC, on the server's clock).

    >>> pick_day("yesterday", 1795309164784), pick_day("2026-01-02", 0)
    ('2026-11-21', '2026-01-02')
    >>> pick_day("2026-02-30", 0)
    Traceback (most recent call last):
    ValueError: --day '2026-02-30': no such day (YYYY-MM-DD, or today, yesterday)
    """
    word = text.strip().lower()
    if word in ("today", "yesterday"):
        return day_of(server_ms, 1 if word == "yesterday" else 0)
    if not DAY.fullmatch(word):
        raise ValueError(f"--day {text!r}: a day is YYYY-MM-DD (or today, yesterday)")
    try:  # (a day of the calendar: 2026-13-45 went to the server, which said "no day")
        datetime.date.fromisoformat(word)
    except ValueError:
        raise ValueError(f"--day {text!r}: no such day (YYYY-MM-DD, or today, yesterday)") from None
    return word


def board_id(board: str | None, day: str | None) -> str | None:
    """The board id that BOARD and ``--day`` name: a game alone is its daily board (of
    ``day``, else today's); ``None`` with no BOARD (every game's daily board)."""
    if board is None:
        return None
    text = re.sub(r"-w(\d)", r"-W\1", board.strip().lower())
    if "/" not in text:
        text = f"daily/{text}"
    if day is None:
        return text
    parts = text.split("/")
    if parts[0] != "daily":
        raise ValueError("--day picks a day of a daily board: top GAME --day DATE")
    if len(parts) == 2:
        return f"{text}/{day}"
    if parts[2:] != [day]:
        raise ValueError(f"{text} names its day already")
    return text


def next_reset(server_ms: int) -> int:
    """Server ms of the next 00:00 UTC."""
    return (server_ms // DAY_MS + 1) * DAY_MS


#: a countdown is drawn again this long after its second has passed: its words have
#: changed by then
PAST_S = 0.05


def reset_left(page: Mapping[str, Any], server_ms: int | None) -> int | None:
    """The ms to the reset that the view of ``page`` counts down at ``server_ms`` (today's
    daily board: its replays are public after it); None where it shows none."""
    entries = page.get("entries")
    board = clean(page.get("board", ""), 64)
    if page.get("kind") != "daily" or not isinstance(entries, list) or not entries:
        return None
    if server_ms is None or board.rsplit("/", 1)[-1] != day_of(server_ms):
        return None
    return next_reset(server_ms) - server_ms


def next_words_s(page: Mapping[str, Any], server_ms: int | None) -> float | None:
    """Seconds until the view of ``page`` reads otherwise by the clock alone, its
    countdown to the reset passing a second (``--watch`` draws it again then: it stood
    at its first value until the board changed, hours off on a quiet one); None: never.

    >>> page = {"kind": "daily", "board": "daily/gate/2026-11-22", "entries": [{}]}
    >>> next_words_s(page, 1795309164600), next_words_s(page, None)
    (0.45, None)
    >>> next_words_s({**page, "board": "daily/gate/2026-11-21"}, 1795309164600) is None
    True
    """
    left = reset_left(page, server_ms)
    return None if left is None else (left % 1000) / 1000 + PAST_S


def describe(entry: Mapping[str, Any] | None, kind: str, unit: str = "cards") -> str:
    """An entry's result in words (``unit``: the board's, ``pairs`` where cards come off
    in pairs).

    >>> describe({"won": True, "time_ms": 205_300, "moves": 142}, "daily")
    'won in 3:25.3, 142 moves'
    >>> describe({"won": False, "home": 30, "total": 52, "moves": 1}, "best")
    'not won, 30/52 home, 1 move'
    >>> describe({"won": False, "home": 30, "total": 52, "moves": 1}, "daily", "pairs")
    'not won, 15/26 pairs off, 1 move'
    >>> describe({"count": 1}, "races"), describe({"count": 3}, "wins")
    ('1 race won', '3 wins')
    >>> describe({"rating": 12, "races": 7}, "rating")
    'rating 12 after 7 races'
    """
    if entry is None:
        return ""
    if kind == "rating":
        return f"rating {_int(entry.get('rating'))} after {_int(entry.get('races'))} races"
    if kind in COUNTS:
        count = _int(entry.get("count"))
        word = COUNTS[kind]
        if count == 1:
            word = "race won" if kind == "races" else "win"
        return f"{count} {word}"
    count = _int(entry.get("moves"))
    moves = f"{count} move" if count == 1 else f"{count} moves"
    if entry.get("won"):
        return f"won in {race_time(_int(entry.get('time_ms')))}, {moves}"
    return f"not won, {got(entry, unit)}, {moves}"


def fraction(entry: Mapping[str, Any], unit: str) -> str:
    """How far a game not won got, as a table cell: its cards home (``30/52``), or, where
    cards come off in pairs, its pairs (``15/26 pairs``; the board's entries count cards)."""
    home, total = _int(entry.get("home")), _int(entry.get("total"))
    return f"{home // 2}/{total // 2} pairs" if unit == "pairs" else f"{home}/{total}"


def with_unit(page: Mapping[str, Any], games: Any) -> dict[str, Any]:
    """A board ``page`` with its ``unit`` (``pairs`` where the game takes cards off in
    pairs) filled in from the games list (``welcome``'s ``games``) where the reply gave
    none, as a group's board from a server before it said its unit gives none: its Nestor
    results read ``4/52`` where ``top nestor`` reads ``2/26 pairs``. A daily or best
    board's game is its id's second part.

    >>> games = [{"id": "nestor", "unit": "pairs"}, {"id": "gate", "unit": "cards"}]
    >>> with_unit({"board": "daily/nestor/2026-11-28", "kind": "daily"}, games)["unit"]
    'pairs'
    >>> with_unit({"board": "best/gate", "kind": "best"}, games)["unit"]
    'cards'
    >>> "unit" in with_unit({"board": "races/week", "kind": "races"}, games)
    False
    """
    page = dict(page)
    if "unit" in page or page.get("kind") not in ("daily", "best"):
        return page
    parts = str(page.get("board") or "").split("/")
    game = parts[1] if len(parts) > 1 else ""
    for g in games if isinstance(games, list) else []:
        if isinstance(g, Mapping) and g.get("id") == game:
            page["unit"] = "pairs" if g.get("unit") == "pairs" else "cards"
    return page


def got(entry: Mapping[str, Any], unit: str) -> str:
    """The same in words: ``30/52 home``, ``15/26 pairs off``."""
    return f"{fraction(entry, unit)} {'off' if unit == 'pairs' else 'home'}"


def _hints(entry: Mapping[str, Any]) -> str:
    """The hints an entry took ("" for one written before hints were counted)."""
    hints = entry.get("hints")
    return str(hints) if isinstance(hints, int) and not isinstance(hints, bool) else ""


def _table(
    page: Mapping[str, Any],
    me: str | None,
    g: Glyphs,
    day_under: bool = False,
    replay: bool = True,
) -> Table:
    """The board's table; ``day_under`` (a best-times board too wide for the screen):
    each entry's day under the player's name, not a column of its own; ``replay``: the
    replay ids' column (left out where the names would be cut)."""
    kind = clean(page.get("kind", ""), 16)
    unit = clean(page.get("unit", "cards"), 8)
    entries = page.get("entries")
    # the hints taken, as the web board shows them, where some entry counts them
    hinted = isinstance(entries, list) and any(
        isinstance(e, Mapping) and _hints(e) for e in entries
    )
    table = Table(box=g.box, show_edge=False, pad_edge=False)
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column(  # (a day under the name keeps its ten cells)
        "player",
        no_wrap=True,
        overflow="ellipsis",
        max_width=20,
        min_width=10 if day_under else None,
    )
    if kind in COUNTS:
        table.add_column(COUNTS[kind], justify="right")
    elif kind == "rating":  # (docs/ratings.md)
        table.add_column("rating", justify="right")
        table.add_column("races", justify="right")
    elif kind == "best":
        table.add_column("time", justify="right", no_wrap=True)
        table.add_column("moves", justify="right")
        if hinted:
            table.add_column("hints", justify="right")
        if not day_under:
            table.add_column("day", no_wrap=True)
        if replay:
            table.add_column("replay", no_wrap=True, min_width=16)  # (copied whole: never cut)
    else:
        # a result is "won", or how many cards got home (30/52): one column, leaving room
        # for the hints
        table.add_column("result", no_wrap=True)
        table.add_column("time", justify="right", no_wrap=True)
        table.add_column("moves", justify="right")
        if hinted:
            table.add_column("hints", justify="right")
        if replay:
            table.add_column("replay", no_wrap=True, min_width=16)
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, Mapping):
            continue
        name = clean(entry.get("player", ""), 20)
        mine = me is not None and name.lower() == me.lower()
        rank = Text(f"{g.me if mine else ''}{_int(entry.get('rank'))}")
        player = Text(name, style="bold" if mine else "")
        ids = [clean(entry.get("replay") or "", 32)] if replay else []
        if kind in COUNTS:
            table.add_row(rank, player, str(_int(entry.get("count"))))
        elif kind == "rating":
            table.add_row(
                rank, player, str(_int(entry.get("rating"))), str(_int(entry.get("races")))
            )
        elif kind == "best":
            day = clean(entry.get("day") or "", 10)
            if day_under:
                player.append(f"\n{day}", style="dim")
            table.add_row(
                rank,
                player,
                race_time(_int(entry.get("time_ms"))),
                str(_int(entry.get("moves"))),
                *([_hints(entry)] if hinted else []),
                *([] if day_under else [day]),
                *ids,
            )
        else:
            won = bool(entry.get("won"))
            home = fraction(entry, unit)
            table.add_row(
                rank,
                player,
                Text("won", style="green") if won else Text(home),
                # (a game not won is ranked by its cards and moves, not its time)
                race_time(_int(entry.get("time_ms"))) if won else "—",
                str(_int(entry.get("moves"))),
                *([_hints(entry)] if hinted else []),
                *ids,
            )
    return table


class BoardTable:
    """A board's table at the width it is drawn in, its names whole where it can be: a
    best-times board too wide for it (60 columns, with the hints: its times and days were
    cut, ``1:02:0…``, ``2026-0…``) puts each entry's day under the player's name; where
    the names would still be cut, the replay ids' column goes (said under the table: at
    60 columns the names were cut to 7 cells, ``Abcdefg…``, beside ids of 16), and only
    then do the names give, never the times and days."""

    def __init__(self, page: Mapping[str, Any], me: str | None, g: Glyphs) -> None:
        self.page, self.me, self.g = page, me, g

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        kind = clean(self.page.get("kind", ""), 16)
        best = kind == "best"
        ids = kind not in COUNTS and kind != "rating"
        # (replay ids, days beside: the first that keeps the names whole, else the last)
        ways = [(True, False), (True, True), (False, False), (False, True)]
        ways = [(r, d) for r, d in ways if (best or not d) and (ids or r)]
        for replay, under in ways:
            table = _table(self.page, self.me, self.g, day_under=under, replay=replay)
            if names_whole(table, options.max_width):
                break
        yield HeadersWhole(table, first=(1,))  # (the player's name gives first)
        if not replay:
            yield Text("(the replay ids show in a wider terminal)", style="dim")


def names_whole(table: Table, width: int) -> bool:
    """Whether ``table`` is drawn in ``width`` with its names (its second column) whole,
    as :class:`~.lines.HeadersWhole` draws it: its columns two cells apart where that is
    enough (it measured them three apart, and a board of names of two and three letters
    lost its replay ids at 60 columns, though it fit in 58)."""
    return HeadersWhole(table, first=(1,)).whole(1, width)


def board_view(
    page: Mapping[str, Any],
    *,
    me: str | None = None,
    around: bool = False,
    friends: bool = False,
    server_ms: int | None = None,
    ascii: bool = False,
    picked: bool = False,
    server: str = "",
) -> RenderableType:
    """A ``board`` reply: its title, id and size, the table (``me`` marked), the entry to
    beat, and where replays come from. ``server_ms`` (the server's clock) says when
    today's daily replays become public; ``picked``: no board was named, and this one is
    the player's last daily's (said under the title); ``server``: the commands said carry
    ``--server`` where it is not the default (they did not, and pasted went elsewhere)."""
    from .challenge import command  # (challenge imports this module)

    g = Glyphs(ascii)
    kind = clean(page.get("kind", ""), 16)
    board = clean(page.get("board", ""), 64)
    size = _int(page.get("size"))
    head = Text(clean(page.get("title", board), 80), style="bold")
    players = "1 player" if size == 1 else f"{size} players"
    about = Text(f"{board}{g.sep}{players}", style="dim")
    if friends:
        about.append(f"{g.sep}you and who you follow")
    parts: list[RenderableType] = [head, about]
    if kind == "rating" and _int(page.get("min_races")):  # who is on it (docs/ratings.md)
        races = _int(page.get("min_races"))
        after = f"{races} rated race{'' if races == 1 else 's'}"
        parts.append(Text(f"A racer joins this board after {after}.", style="dim"))
    if picked:
        parts.append(Text(f"No BOARD given: the board of your last daily, {board}."))
    graded = difficulty_of(page.get("difficulty")) if kind == "daily" else None
    if graded is not None:  # the day's deal's grade (client_cli/difficulty.py)
        parts.append(Text(difficulty_words(graded, str(page.get("unit") or "cards"))))
    parts.append(Text(""))
    entries = page.get("entries")
    if isinstance(entries, list) and entries:
        parts.append(BoardTable(page, me, g))
    elif friends:
        parts.append(Text("Neither you nor anyone you follow is on this board."))
    elif not (around and size):  # (around one who is not on it: said below)
        day = board.rsplit("/", 1)[-1] if kind == "daily" else None
        over = server_ms is not None and day is not None and day < day_of(server_ms)
        # (a day over has no "yet": nobody will play it now; a board among a group's
        # members says who is not on it: others may well be)
        who = "None of the group's members" if "members" in page else "Nobody"
        said = f"{who} played this day's daily." if over else f"{who} is on this board yet."
        parts.append(Text(said))
    parts.append(Text(""))
    to_beat = page.get("to_beat")
    to_beat = to_beat if isinstance(to_beat, Mapping) else None
    rank = page.get("rank")
    review = page.get("review")  # (with --around-me or --friends: one's own, if held)
    review = review if isinstance(review, Mapping) else {}
    off = clean(review.get("note") or "", 400)
    if off and review.get("state") in ("held", "removed"):
        parts.append(Text(f"Your result of this day is not on this board: {off}", style="yellow"))
    elif around and rank is None and size:
        parts.append(Text("You are not on this board yet."))
    # a board among a group's members (``group_board``): its leader leads the group, at
    # whatever rank on the whole board ("▸2 ivy" was told "You lead this board.")
    among = "members" in page
    if to_beat is not None:
        name = clean(to_beat.get("player", ""), 20)
        if me is not None and name.lower() == me.lower():
            lead = "You lead the group on this board." if among else "You lead this board."
            parts.append(Text(lead, style="bold green"))
        else:
            where = f"rank {_int(to_beat.get('rank'))}"
            if around and isinstance(rank, int) and rank > 1:
                where = f"just above you, rank {_int(to_beat.get('rank'))}"
            elif among:
                where = f"the group's leader, rank {_int(to_beat.get('rank'))} on the board"
            elif _int(to_beat.get("rank")) == 1:
                where = "the leader"
            line = Text("To beat: ")
            line.append(name, style="bold")
            unit = clean(page.get("unit", "cards"), 8)
            line.append(f" ({where}): {describe(to_beat, kind, unit)}")
            parts.append(line)
    book = page.get("book")
    if kind == "daily" and isinstance(book, Mapping) and isinstance(book.get("par"), int):
        # a past day's certified deal: its par, and the book line to watch
        shortest = book.get("shortest") if isinstance(book.get("shortest"), bool) else None
        said = par_words(book["par"], shortest)
        replay = clean(str(book.get("replay", "")), 64)
        watch = kept(command(server, f"replay {replay}"))
        parts.append(Text(f"{said[0].upper()}{said[1:]}: the book line, {watch}"))
    if kind in ("daily", "best") and isinstance(entries, list) and entries:
        left = reset_left(page, server_ms)
        if left is not None:
            note = f"Today's replays are public after the reset (00:00 UTC, in {clock(left)})."
            parts.append(Text(note, style="dim"))
        elif kind == "best":  # (today's results among them: their replays wait)
            watch = kept(command(server, "replay ID"))
            parts.append(
                Text(f"Watch one (of today's deal: after the reset): {watch}", style="dim")
            )
        else:
            parts.append(Text(f"Watch one: {kept(command(server, 'replay ID'))}", style="dim"))
    return Group(*parts)


def overview(
    pages: Sequence[tuple[str, Mapping[str, Any]]],
    *,
    me: str | None = None,
    ascii: bool = False,
    server: str = "",
) -> RenderableType:
    """Every game's daily board of one day: how many played, and who leads. ``pages``:
    (the game's name, its ``board`` reply of one entry)."""
    g = Glyphs(ascii)
    day = ""
    table = Table(box=g.box, show_edge=False, pad_edge=False)
    table.add_column("game", no_wrap=True)
    table.add_column("players", justify="right")
    table.add_column("leader", no_wrap=True, overflow="ellipsis", max_width=20)
    table.add_column("result", no_wrap=True)
    for name, page in pages:
        day = day or clean(page.get("board", ""), 64).rsplit("/", 1)[-1]
        leader = page.get("leader")
        leader = leader if isinstance(leader, Mapping) else None
        who = clean(leader.get("player", ""), 20) if leader else g.dash
        mine = me is not None and leader is not None and who.lower() == me.lower()
        table.add_row(
            Text(clean(name, 32)),
            str(_int(page.get("size"))),
            Text(who, style="bold" if mine else ""),
            describe(leader, "daily", clean(page.get("unit", "cards"), 8)),
        )
    head = Text(f"Daily challenges, {day}" if day else "Daily challenges", style="bold")
    from .challenge import command  # (challenge imports this module)

    top = kept(command(server, "top GAME"))
    hint = Text(f"A board (--day DATE, --around-me, --friends after it): {top}")
    hint.stylize("dim")
    # (a header whole: rich cut the players column, the one it may wrap, to "play…"; the
    # names give before the results)
    return Group(head, Text(""), HeadersWhole(table, first=(0, 2)), Text(""), hint)
