"""Commands printed by the one-shot commands' views, as printed (``_print``, and the
redrawn ``--watch`` view's ``_render``) at 80 columns against a server that is not the
default one: each carries ``--server`` so that it works as pasted, and each is printed
whole on one line (on a line of its own where it does not fit beside its words; a line
break inside ``... --server`` / ``ws://...`` ran half of it). Also a malformed
``league --week``, ``--join`` with ``--week`` and a ``top --day`` that is no date are
known before asking a server (exit 2), and one mover moves."""

from __future__ import annotations

import io
import re
import sys

import pytest
from rich.console import Console

from client_cli.cli import main
from client_cli.groups import group_view, groups_view
from client_cli.league import moves_words
from client_cli.printing import _print, _render
from client_cli.profile import profile_view

URL = "ws://127.0.0.1:9480"
#: no server listens there: a command that asked one would fail with 1, not 2
NOWHERE = "ws://127.0.0.1:9"


def printed(renderable: object, width: int = 80, ascii: bool = False) -> str:
    """As printed; ``ascii``: through ASCII, which ``_print`` writes to stdout."""
    console = Console(file=io.StringIO(), width=width, color_system=None)
    if not ascii:
        _print(console, renderable, ascii)
        return console.file.getvalue()  # type: ignore[attr-defined]
    stdout, sys.stdout = sys.stdout, io.StringIO()
    try:
        _print(console, renderable, ascii)
        return sys.stdout.getvalue()
    finally:
        sys.stdout = stdout


def whole(command: str, out: str) -> None:
    """``command`` printed in one piece (no line break, nor a space lost), and on a line
    of its own or at the end of one, never cut by the line's end."""
    assert command in out, f"{command!r} not whole in:\n{out}"


CHALLENGED = {
    "type": "group",
    "group": {
        "id": "k3v9xq2mab",
        "name": "friday club",
        "link": "/g/k3v9xq2mab?k=abc",
        "members": [{"name": "annD", "owner": True, "online": True}],
        "online": 1,
    },
    "challenges": [
        {
            "challenge": {"id": "xfgwnvisfl6n5xeg", "player": "annD", "game_name": "The Gate"},
            "table": [],
        }
    ],
}


@pytest.mark.parametrize("width", [60, 80])
def test_a_members_challenge_is_printed_whole(width: int) -> None:
    command = f"patience-race challenge xfgwnvisfl6n5xeg --server {URL}"
    out = printed(group_view(CHALLENGED, URL), width)
    whole(command, out)
    assert "annD: The Gate ·" in out, out
    # and redrawn by group show --watch (where it fits the width: a redrawn view cannot
    # leave a line wider than it to the terminal)
    whole(command, _render(group_view(CHALLENGED, URL), False, 80).plain)


def test_in_no_group_the_commands_carry_the_server() -> None:
    out = printed(groups_view({"groups": [], "most": 10}, server=URL))
    whole(f"patience-race group new NAME --server {URL}", out)
    whole(f"patience-race group join LINK --server {URL}", out)
    # and after leaving a group (the list that follows the words)
    listed = groups_view({"groups": [{"name": "Owls", "id": "k3v9xq2mab"}], "most": 10}, server=URL)
    whole(f"patience-race group show GROUP --server {URL}", printed(listed))
    # the default server: no --server
    assert "--server" not in printed(groups_view({"groups": [], "most": 10}))


def test_the_profile_names_the_rating_board_with_the_server() -> None:
    reply = {"player": "ann", "ratings": [{"game": "gate", "rating": 3, "races": 2}]}
    for ascii in (False, True):
        out = printed(profile_view(reply, ascii=ascii, server=URL), ascii=ascii)
        whole(f"patience-race top rating/GAME --server {URL}", out)


@pytest.mark.parametrize("width", [60, 80])
def test_a_command_wider_than_the_terminal_is_left_to_it_to_fold(width: int) -> None:
    far = "wss://patience-race.a-rather-long-host-name.example.org:8765"
    out = printed(groups_view({"groups": [], "most": 10}, server=far), width)
    whole(f"patience-race group new NAME --server {far}", out)
    for line in out.splitlines():  # (prose still wraps between words)
        assert len(line) <= width or line.startswith("patience-race"), out


def test_one_mover_moves() -> None:
    assert moves_words(1, 5).startswith("The top 1 moves up a tier at the week's end")
    tiers = ["bronze", "silver", "gold"]
    assert moves_words(1, 5, "bronze", tiers).startswith("The top 1 moves up")
    assert moves_words(1, 5, "gold", tiers).startswith("The bottom 1 moves down")
    assert moves_words(2, 5).startswith("The top 2 move up")


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["league", "--week", "garbage"], r"'garbage' is no ISO week \(YYYY-Www"),
        (["league", "--week", "2026-W60"], r"'2026-W60' is no ISO week"),
        (["league", "--week", "2025-W53"], r"'2025-W53' is no ISO week"),
        (["league", "--join", "--week", "2026-W47"], r"--join .* --week .*not both"),
        (["league", "join", "--week", "2026-W47"], r"--join .* --week .*not both"),
        (["top", "gate", "--day", "2026-13-45"], r"--day '2026-13-45': no such day"),
        (["top", "gate", "--day", "2026-02-30"], r"--day '2026-02-30': no such day"),
        (["top", "--day", "garbage"], r"--day 'garbage': a day is YYYY-MM-DD"),
    ],
)
def test_a_wrong_week_or_day_is_known_before_asking_a_server(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*argv, "--server", NOWHERE]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert re.search(said, err), err
    assert "cannot reach" not in err
