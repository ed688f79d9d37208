"""Every table the terminal draws keeps its header words whole at 60 columns, where the
rows are wide (long names, long game names, a ghost's mark): rich gives way in the
columns it may wrap, whatever they hold, and cut ``player`` to ``play…``, a profile's
``rating`` to ``…``, a group's ``members`` to nothing. An id to copy (a replay's) stays
whole too. ``HeadersWhole`` (client_cli/lines.py) draws them so."""

from __future__ import annotations

import io
import itertools
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console, Group, RenderableType

from client_cli import boards, challenge, groups, league, linking, profile, queries
from client_cli.lines import lines_of
from client_cli.model import Model
from client_cli.replay import Entry, Replay, replay_table
from client_cli.results import results_table
from tests.app.conftest import ServerProcess

from .terminal import Terminal, start
from .test_groups_terminal import accounts

LONG = "bartholomew_longname"  # (20 letters: the most a name has)
GAME = "The Blockade (rows of ten)"
REPLAY = "5c1f0e2a9b7d4463"
HOUR = 3_723_456  # 1:02:03.4


def entry(rank: int, **more: Any) -> dict[str, Any]:
    """A board's or a challenge's entry: a long name, a long time, many moves."""
    return {
        "rank": rank,
        "place": rank,
        "player": LONG,
        "status": "won",
        "home": 52,
        "total": 52,
        "time_ms": HOUR,
        "moves": 1234,
        "hints": 12,
        "replay": REPLAY,
        "day": "2026-01-01",
        "value": 123,
        "rating": 1234,
        "races": 123,
        **more,
    }


def board(kind: str) -> RenderableType:
    page = {
        "board": f"{kind}/blockade-ten/2026-01-01",
        "title": GAME,
        "kind": kind,
        "size": 2,
        "unit": "cards",
        "entries": [entry(1), entry(2, player="ann", status="lost", home=30)],
    }
    return boards.board_view(page, me="ann")


def results(width: int) -> RenderableType:
    model = Model(server="ws://127.0.0.1:8765", me="ann")
    model.room = {  # (a rated race: its ratings' column too)
        "race": 1,
        "results": [
            entry(1, review="held", rating_change=14),
            entry(2, player="ann", status="resigned", time_ms=None, rating_change=-8),
        ],
    }
    return Group(*results_table(model, width))


def replay() -> RenderableType:
    entries = [Entry(n, HOUR + n, f"t{n}>b2", undone=n == 2, note="a note") for n in (1, 2)]
    shown = Replay(
        rid=REPLAY,
        rules="blockade-ten",
        seed=7,
        kind="daily",
        start_ms=0,
        entries=entries,
        status="won",
        time_ms=HOUR,
        moves=2,
        home=52,
        total=52,
        player=LONG,
        name=GAME,
    )
    return replay_table(shown)


#: each table: what draws it at a width, and its headers
TABLES: dict[str, tuple[Callable[[int], RenderableType], tuple[str, ...]]] = {
    "board daily": (lambda w: board("daily"), ("#", "player", "result", "time", "moves")),
    # (at 60 columns each entry's day goes under the name: whole, in WHOLE)
    "board best": (lambda w: board("best"), ("#", "player", "time", "moves", "hints", "replay")),
    "board rating": (lambda w: board("rating"), ("#", "player", "rating", "races")),
    "board wins": (lambda w: board("wins"), ("#", "player", "wins")),
    "daily overview": (
        lambda w: boards.overview(
            [
                (
                    GAME,
                    {"board": "daily/blockade-ten/2026-01-01", "size": 12345, "leader": entry(1)},
                )
            ]
        ),
        ("game", "players", "leader", "result"),
    ),
    "challenge": (
        lambda w: challenge.table(
            [entry(1), entry(2, player="ann", ghost=True, status="lost", home=30)], "ann"
        ),
        ("#", "player", "result", "time", "moves", "home", "replay"),
    ),
    "challenges": (
        lambda w: challenge.listing(
            [
                {
                    "new": 3,
                    "id": "abcdef0123456789",
                    "game_name": GAME,
                    "result": entry(1),
                    "takers": 12345,
                }
            ]
        ),
        ("new", "challenge", "game", "your result", "takers"),
    ),
    "groups": (
        lambda w: groups.groups_view(
            {
                "groups": [
                    {
                        "name": "The Friday Night Patience Club 1",
                        "id": REPLAY,
                        "members": 123,
                        "owner": True,
                    }
                ],
                "most": 10,
            }
        ),
        ("group", "id", "members"),
    ),
    "group": (
        lambda w: groups.group_view(
            {
                "group": {
                    "name": "Friday",
                    "link": "/g/abc",
                    "members": [{"name": LONG, "owner": True, "online": True}],
                }
            },
            "ws://127.0.0.1:8765",
        ),
        ("member",),
    ),
    "group week": (
        lambda w: groups.week_table({"entries": [entry(1, wins=7, played=7)]}, "ann", False),
        ("#", "player", "won", "played", "time"),
    ),
    "league": (
        lambda w: league.league_view(
            {
                "current": True,
                "joined": True,
                "week": "2026-W01",
                "tier": "gold",
                "league": 3,
                "rank": 1,
                "players": 30,
                "points": 300,
                "standings": [
                    {
                        "rank": 12,
                        "name": LONG,
                        "points": 12345,
                        "wins": 70,
                        "played": 70,
                        "today": 20,
                        "zone": "up",
                    }
                ],
            }
        ),
        ("#", "player", "points", "wins", "dailies", "today"),
    ),
    "devices": (
        lambda w: linking.devices_table(
            [
                {
                    "id": "0123abcd",
                    "label": "terminal on a-rather-long-host-name.example.org",
                    "added": 1_795_000_000_000,
                    "seen": 1_795_309_164_784,
                    "this": True,
                }
            ],
        ),
        ("id", "device", "added", "last seen"),
    ),
    "profile": (
        lambda w: profile.profile_view(
            {
                "player": "ann",
                "ratings": [
                    {
                        "game": "blockade-ten",
                        "rating": 1234,
                        "races": 1234,
                        "mu": 1234.56,
                        "sigma": 123.45,
                    }
                ],
            },
            me="ann",
            games={"blockade-ten": f"{GAME}, a longer name"},
        ),
        ("game", "rating", "races", "mu", "sigma"),
    ),
    "games": (
        lambda w: queries.games_table(
            [
                {
                    "id": "doubles-and-quits",
                    "packs": "2",
                    "name": GAME,
                    "summary": "Pairs off a grid of twenty, touching even at a corner " * 3,
                }
            ]
        ),
        ("game", "packs", "name: what it is"),
    ),
    "replay": (lambda w: replay(), ("#", "time", "move")),
    "race results": (results, ("#", "racer", "result", "time", "moves", "home")),
}


#: what must show whole besides the headers: an id to copy
WHOLE = {
    "board daily": (REPLAY,),
    "board best": (REPLAY, "2026-01-01", "1:02:03.4"),
    "challenge": (REPLAY,),
    "devices": ("0123abcd",),
    "race results": (REPLAY,),
}


def header_line(lines: list[str]) -> str:
    """The line above the table's rule (a line of ─, or of - and +)."""
    for above, line in itertools.pairwise(lines):
        if above.strip() and line.strip() and re.fullmatch(r"[\s─\-+|]+", line):
            return above
    raise AssertionError("no table:\n" + "\n".join(lines))


@pytest.mark.parametrize("width", [60, 80])
@pytest.mark.parametrize("name", list(TABLES))
def test_every_header_is_whole(name: str, width: int) -> None:
    draw, headers = TABLES[name]
    lines = [line.plain for line in lines_of(draw(width), width)]
    head = header_line(lines)
    shown = "\n".join(lines)
    # (a board's replay ids give way to its names at 60 columns, said under the table: gone
    # whole, not cut; probe Z1, fault 4)
    gone = "replay ids show in a wider terminal" in shown
    assert not gone or (width == 60 and name.startswith("board")), shown
    for header in headers:
        if gone and header == "replay":
            continue
        assert re.search(rf"(?<![^\s|]){re.escape(header)}(?![^\s|])", head), "\n".join(lines)
    for whole in WHOLE.get(name, ()):  # (an id to copy)
        if gone and whole == REPLAY:
            assert REPLAY[:6] not in shown, shown
            continue
        assert re.search(rf"(?<![^\s|]){whole}(?![^\s|])", shown), shown


def test_the_group_list_at_60_columns_in_the_terminal(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """The real client: a group of a long name listed at 60 columns (its ``members``
    header was cut to ``…``, and the count beside it)."""
    url = server_process.url
    config = accounts(url, tmp_path)["ann"]
    made = start(
        terminals, server_process, config, "group", "new", "The Friday Night Patience Club 1"
    )
    assert made.exit_code() == 0, made.text
    listed = start(terminals, server_process, config, "group", cols=60)
    listed.wait_for(r"Your groups \(1 of")
    assert listed.exit_code() == 0
    head = header_line(listed.text.splitlines())
    assert head.split() == ["group", "id", "members"], listed.text
    # (the name gives way: a group's name is the one cell cut)
    assert re.search(r"The Friday Night \S+( \S+)?\s+\S+\s+1\s+yours", listed.text), listed.text


def test_the_devices_list_fits_sixty_columns_with_nothing_cut() -> None:
    """At 60 columns a device's label wraps, its times whole (it read "termi…" and
    "2026-11-28 …"): the day it was added, the date and time it was last seen."""
    listed = [
        {"id": "955b6b7c", "label": "terminal on a-long-host-name", "added": 1_795_000_000_000,
         "seen": 1_795_309_164_784, "this": True},
    ]  # fmt: skip
    out = io.StringIO()
    Console(file=out, width=60, color_system=None).print(linking.devices_table(listed))
    text = out.getvalue()
    assert "…" not in text, text
    assert "2026-11-18 " in text and "2026-11-22 00:59" in text, text
    assert "terminal" in text and "a-long-h" in text and "ost-name" in text, text


def test_the_games_list_names_the_server_in_its_command(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """``games`` against a server not the default ends with a command that works as
    pasted (it had no ``--server``), its names headed and set off from what they are."""
    listed = start(terminals, server_process, tmp_path, "games")
    # (the command last on its line, nothing after it: it was followed by "; its rules:")
    listed.wait_for(rf"play GAME --server {re.escape(server_process.url)}\n+Its rules:")
    assert listed.exit_code() == 0
    printed = listed.output.decode()  # (its head scrolled off the screen)
    assert "name: what it is" in printed and "The Gate:" in printed, printed
