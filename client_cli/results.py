"""A race's results, drawn from the model by pure functions: the table under its title
(at the room's screen's width), a shorter table where the screen's rows are too few for
it, and the whole table as a page to read (Page Down, on the results)."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from rich.table import Table
from rich.text import Text

from .challenge import command
from .lines import (
    Glyphs,
    HeadersWhole,
    as_int,
    fits_with,
    lines_of,
    race_time,
    split_line,
    status_words,
)
from .model import WATCH, Model
from .places import place_cell
from .sanitize import clean


def progress(entry: Mapping[str, Any], pairs: bool) -> str:
    """A racer's cards home of all, or pairs off of all where cards leave in pairs.

    >>> progress({"home": 22, "total": 52}, False), progress({"home": 22, "total": 52}, True)
    ('22/52', '11/26')
    """
    home, total = as_int(entry.get("home")), as_int(entry.get("total"))
    return f"{home // 2}/{total // 2}" if pairs else f"{home}/{total}"


def results_table(model: Model, width: int) -> list[Text]:
    """The last race's results under their title. Where the table is too wide for the
    screen (60 columns: its headers and names were cut to two letters), each racer's
    replay id and rating go on a second line under their name, the rest keeping a line."""
    g = Glyphs(model.ascii)
    room = model.room or {}
    results = [r for r in room.get("results") or [] if isinstance(r, Mapping)]
    # the games that take cards off in pairs count pairs, as the racers' panel does
    pairs = model.counts_pairs
    rated = any("rating" in r for r in results)
    title = Text(f"  Results of race {as_int(room.get('race'))}", style="bold")
    wide = _results(results, model, g, pairs, rated, whole=True)
    if fits_with(wide, width - 2, 1, 10):
        shown = lines_of(HeadersWhole(wide, first=(1,)), width - 2)  # (names give first)
        return [title, *(Text("  ") + line for line in shown)]
    table = _results(results, model, g, pairs, rated, whole=False)
    lines = lines_of(HeadersWhole(table, first=(1, 2)), width - 2)
    head = len(lines) - len(results)
    out = [title, *(Text("  ") + line for line in lines[:head])]
    indent = " " * (2 + max(lines[0].plain.find("racer"), 0))
    for line, r in zip(lines[head:], results, strict=False):
        out.append(Text("  ") + line)
        parts = [f"replay {clean(r.get('replay') or '', 32) or g.dash}"]
        if rated:
            parts.append(f"rating {rating_change(r, g)}")
        if r.get("review") == "held":
            parts.append("held for review")
        more = split_line(g.sep.join(parts), max(width - len(indent), 20), g.sep)
        out += [Text(f"{indent}{part}", style="dim") for part in more]
    return out


def _results(
    results: Sequence[Mapping[str, Any]],
    model: Model,
    g: Glyphs,
    pairs: bool,
    rated: bool,
    *,
    whole: bool,
    everyone: Sequence[Mapping[str, Any]] | None = None,
) -> Table:
    """The results table: ``whole``, every column; else without the replay id, the
    rating and a win held for review (said on the racer's second line), and every row
    kept to one line (a cell too long cut with an ellipsis), for a narrow screen.
    ``everyone``: all the results, where ``results`` are some of them (a shared place is
    shared with any of them)."""
    table = Table(box=g.box, show_edge=False, pad_edge=False, expand=False)
    for name, justify in (
        ("#", "right"),
        ("racer", "left"),
        ("result", "left"),
        ("time", "right"),
        ("moves", "right"),
        ("pairs" if pairs else "home", "right"),
        *((("rating", "right"), ("replay", "left")) if whole and rated else ()),
        *((("replay", "left"),) if whole and not rated else ()),
    ):
        table.add_column(  # a replay id is never cut: the racers' names give way
            name,
            justify=justify,
            no_wrap=name == "replay" or not whole,
            min_width=16 if name == "replay" else None,
        )
    for r in results:
        name = clean(r.get("player", ""), 20)
        status = status_words(clean(r.get("status", ""), 12))
        if r.get("left") is True:  # (ranked below one who stayed with as many: why)
            status += ", left"
        if r.get("forfeited") is True:  # (the server resigned them: not given up)
            status += ", away too long"
        if whole and r.get("review") == "held":  # (the pace check: not on the race boards)
            status += " (held for review)"
        table.add_row(
            place_cell(r, results if everyone is None else everyone),
            Text(name, style="bold" if name == model.me else ""),
            Text(status, style="green" if status.startswith("won") else ""),
            race_time(r.get("time_ms")) or g.dash,
            str(as_int(r.get("moves"))),
            progress(r, pairs),
            *((rating_change(r, g),) if whole and rated else ()),
            *((Text(clean(r.get("replay") or "", 32) or g.dash, style="dim"),) if whole else ()),
        )
    return table


def rating_change(result: Mapping[str, Any], g: Glyphs) -> str:
    """A racer's rating after a rated race and its change: ``12 (+3)``; a dash for a
    racer the race did not rate."""
    if "rating" not in result:
        return g.dash
    change = as_int(result.get("rating_change"))
    return f"{as_int(result.get('rating'))} ({change:+d})"


def short_results(model: Model, width: int, rows: int) -> list[Text]:
    """The results in ``rows`` lines, where :func:`results_table` needs more (eight
    racers at 60x20: two lines each, the table ran off the screen): one line a racer,
    without the replay ids and ratings, and a line saying Page Down shows them; where even
    that is too many, the racers nearest the player, and how many more there are."""
    g = Glyphs(model.ascii)
    room = model.room or {}
    results = [r for r in room.get("results") or [] if isinstance(r, Mapping)]
    rated = any("rating" in r for r in results)
    title = Text(f"  Results of race {as_int(room.get('race'))}", style="bold")
    keep = max(rows - 4, 1)  # the title, the headers, their rule, the line of Page Down
    shown = results
    if len(results) > keep:
        names = [{"name": r.get("player")} for r in results]
        shown = [results[n] for n in nearest(names, model.me, keep)]
    table = _results(shown, model, g, model.counts_pairs, rated, whole=False, everyone=results)
    lines = lines_of(HeadersWhole(table, first=(1, 2)), width - 2)
    what = "replay ids and ratings" if rated else "replay ids"
    said = f"PgDn: the whole table, with {what}"
    if len(shown) < len(results):
        said = f"{len(results) - len(shown)} more racers{g.sep}PgDn: all, with {what}"
    return [title, *(Text("  ") + line for line in lines), Text(f"  {said}", style="dim")]


def nearest(players: Sequence[Mapping[str, Any]], me: str | None, keep: int) -> list[int]:
    """Which of ``players`` (best first) to show when only ``keep`` fit: those nearest
    the player in the standing (ahead first where as near), the player always; without
    the player, the leaders. Their places in ``players``, in order.

    >>> racers = [{"name": n} for n in "abcdefg"]
    >>> nearest(racers, "e", 4), nearest(racers, "a", 3), nearest(racers, None, 2)
    ([2, 3, 4, 5], [0, 1, 2], [0, 1])
    """
    mine = [n for n, p in enumerate(players) if is_me(p, me)]
    at = mine[0] if mine else 0
    order = sorted(range(len(players)), key=lambda n: (abs(n - at), n > at))
    return sorted(order[: max(keep, 1)])


def is_me(player: Mapping[str, Any], me: str | None) -> bool:
    return me is not None and player.get("name") == me and not player.get("ghost")


def raced(model: Model) -> bool:
    """The player's own game of the race on show is over: a game to replay, to challenge
    a friend with, to review (one who joined the room after it has none)."""
    game = model.game
    return game is not None and game.kind == "race" and game.over


def replays_line(model: Model, *, own: bool) -> str:
    """The command that replays anyone's game of the results: "Others" under the line of
    one's own replay (``own``); else "Replays" (a watcher was told "Others", with no
    line of their own for it to follow).

    >>> replays_line(Model(server="ws://127.0.0.1:8765"), own=False)
    'Replays (ID from the table): patience-race replay ID'

    (The command last: after it, "ID from the table" had wrapped into the command's
    lines, and a command has to be copied whole.)"""
    said = command(model.server, "replay ID")
    return f"{'Others' if own else 'Replays'} (ID from the table): {said}"


def results_page(model: Model, width: int) -> tuple[str, str]:
    """The results as a page over the room (its title, its text): the whole table at
    ``width``, each racer's replay id and rating with it, for a screen too short for it."""
    room = model.room or {}
    lines = [line.plain for line in results_table(model, width)[1:]]
    said = replays_line(model, own=model.screen != WATCH and raced(model))
    lines += [
        "",
        # (indented as the table's lines and as on the room's screen: it stood at the edge)
        *textwrap.wrap(
            said,
            max(width - 2, 20),
            initial_indent="  ",
            subsequent_indent="    ",
            break_long_words=False,
            break_on_hyphens=False,
        ),
    ]
    title = f"Results of race {as_int(room.get('race'))}"
    return title, "\n".join(lines)
