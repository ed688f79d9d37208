"""A command the client writes in a sentence comes last on its line, with nothing after
it: copied whole, the words after it went with it ("patience-race name NEW --server
ws://... changes it." ran as ``name NEW`` against the server ``ws://...`` with
``changes it.`` given as more arguments; "...; join one: ..." ran ``join one:`` as a
second command). Against a server that is not the default one each command ends with its
``--server URL``: that is the end of its line, as printed (each command whole: pieces to
copy are kept together, :func:`~client_cli.lines.kept`)."""

from __future__ import annotations

import re
from pathlib import Path

from rich.console import Console

from client_cli.boards import board_view, overview
from client_cli.config import Unwritable, not_kept
from client_cli.endings import farewell
from client_cli.groups import groups_view
from client_cli.lines import between_words
from client_cli.model import Model
from client_cli.profile import profile_view
from client_cli.session import no_room_help

from .test_boards import DAILY, NOW, page, text
from .test_printed_commands import printed
from .test_screen import RESULTS, racing, room, screen
from .views import played, snapshot

URL = "ws://127.0.0.1:9480"
#: an escape sequence of the terminal's (a colour), not part of what is read
ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def last_on_its_line(out: str, url: str = URL) -> None:
    """Every command of ``url`` in ``out`` ends its line (nothing after ``--server
    URL`` but spaces); at least one is there."""
    text = ESCAPE.sub("", out).replace("\u00a0", " ")
    end = f"--server {url}"
    assert end in text, f"no command of {url} in:\n{text}"
    for line in text.splitlines():
        for after in line.split(end)[1:]:
            assert not after.strip(), f"words after the command: {line!r}\nin:\n{text}"


def said(words: str) -> str:
    """A sentence as printed (its pieces to copy whole), wide enough for no break."""
    return between_words(words, 400)


def test_a_game_kept_on_the_server_says_its_command_last() -> None:
    model = Model(me="ann", server=URL)
    model.set_solo(snapshot(played("gate", seed=3, moves=2)), 0)
    last_on_its_line(said(farewell(model)))  # (it said "... play --server URL takes it up.")
    # a ranked daily and a practice game kept
    daily = {**snapshot(played("gate", seed=3, moves=2), kind="daily"), "day": "2026-11-22"}
    model.set_daily({**daily, "ranked": True}, 0)
    last_on_its_line(said(farewell(model)))
    model.set_daily({**daily, **snapshot(played("gate", seed=3, moves=2), kind="practice")}, 0)
    last_on_its_line(said(farewell(model)))


def test_a_challenge_or_quick_race_kept_says_its_command_last() -> None:
    game = played("gate", seed=3, moves=2)
    model = Model(me="ann", server=URL)
    shown = {"id": "ua5j4vekfxk6uogy", "player": "bob", "game": "gate"}
    model.take_challenge({"challenge": shown, "game": "g" * 16}, 0)
    model.apply_challenge_start(snapshot(game, gid="g" * 16, kind="challenge"), 0)
    last_on_its_line(said(farewell(model)))
    quick = {"challenge": {"id": "", "player": "the ghosts", "game": "gate"}, "game": "g" * 16}
    for ghosts in ([], [{"name": "bob", "total": 52}]):
        model.take_challenge({**quick, "ghosts": ghosts}, 0)
        model.apply_challenge_start(snapshot(game, gid="g" * 16, kind="challenge"), 0)
        last_on_its_line(said(farewell(model)))


def test_the_groups_commands_end_their_lines() -> None:
    # in no group: "Make one: CMD; join one: CMD" ran "join one:" pasted whole
    last_on_its_line(printed(groups_view({"groups": [], "most": 10}, server=URL), 200))
    listed = {"groups": [{"name": "Owls", "id": "k3v9xq2mab", "members": 2}], "most": 10}
    last_on_its_line(printed(groups_view(listed, server=URL), 200))


def test_the_profile_names_the_rating_board_last() -> None:
    reply = {"player": "ann", "ratings": [{"game": "gate", "rating": 3, "races": 2}]}
    last_on_its_line(printed(profile_view(reply, server=URL), 200))


def test_a_boards_commands_end_their_lines() -> None:
    best = [dict(DAILY[0], day="2026-11-20")]
    board = page("best", "best/gate", "The Gate: best daily times, all time", best)
    # ("Watch one: CMD (of today's deal: after the reset)")
    last_on_its_line(text(board_view(board, me="ann", server_ms=NOW, server=URL), 200), URL)
    pages = [("The Gate", page("daily", "daily/gate/2026-11-22", "", DAILY[:1], size=1))]
    # ("A board: CMD (--day DATE, --around-me, --friends)")
    last_on_its_line(text(overview(pages, me="bob", server=URL), 200), URL)


def test_a_token_not_kept_and_a_room_not_found_say_their_commands_last() -> None:
    unkept = Unwritable(Path("/x/tokens.json"), "Read-only file system")
    token = "t" * 32
    # (the command's own "-- TOKEN" after its --server: the line ends with the token)
    lines = said(not_kept(URL, "zed", token, unkept)).splitlines()
    assert lines[-1].endswith(f"patience-race link --server {URL} -- {token}"), lines
    # ("patience-race race new GAME opens one of your own.", and with no --server)
    last_on_its_line(said(no_room_help(URL)))


def test_a_quick_races_results_say_race_again_last() -> None:
    model = racing()
    model.server = URL
    assert model.game is not None
    model.apply_resigned({"game": model.game.gid, "status": "resigned"}, NOW)
    model.enter_room(room("finished", results=RESULTS, quick=True))
    last_on_its_line(screen(model, width=200))  # ("CMD races again.")


def test_printed_console_is_what_the_helper_reads() -> None:
    """(The helper fails where a command has words after it.)"""
    console = Console(width=80, color_system=None, record=True)
    console.print(f"patience-race name NEW --server {URL} changes it.")
    try:
        last_on_its_line(console.export_text())
    except AssertionError:
        return
    raise AssertionError("a command with words after it passed")
