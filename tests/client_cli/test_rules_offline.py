"""``patience-race rules [GAME]`` with no server at all: the page shipped with the client,
through a pager at a terminal too short for it (``PAGER`` respected), printed plain
everywhere else; the games listed with no GAME; an unknown game refused with exit code 2.
The real client, in a pseudo-terminal and through a pipe."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
from pathlib import Path

import pytest

from client_cli import rules
from client_cli.cli import parser
from tests.app.conftest import free_port

from .terminal import CLIENT, Terminal

#: a pager that marks every line it is given
MARKING_PAGER = "sed 's/^/|paged| /'"


@pytest.fixture
def nowhere() -> str:
    """A server address nothing listens on."""
    return f"ws://127.0.0.1:{free_port()}"


def piped(server: str, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PATIENCE_SERVER": server,
        "XDG_CONFIG_HOME": str(tmp_path),
        "PAGER": MARKING_PAGER,
    }
    return subprocess.run(
        [CLIENT, *args], env=env, capture_output=True, text=True, timeout=60, check=False
    )


def test_a_page_goes_through_the_pager_at_a_short_terminal(
    nowhere: str, tmp_path: Path, terminals: list[Terminal], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PAGER", MARKING_PAGER)
    monkeypatch.delenv("MANPAGER", raising=False)
    page = rules.page("gate")
    assert len(page.splitlines()) > 24
    term = Terminal(["rules", "gate"], server=nowhere, config=tmp_path)
    terminals.append(term)
    assert term.exit_code() == 0
    shown = term.output.decode().replace("\r\n", "\n")
    for line in page.splitlines():
        assert f"|paged| {line}".rstrip() in shown
    assert "cannot reach" not in shown


def test_a_page_that_fits_is_printed_without_a_pager(
    nowhere: str, tmp_path: Path, terminals: list[Terminal], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PAGER", MARKING_PAGER)
    term = Terminal(["rules", "nestor"], server=nowhere, config=tmp_path, rows=120)
    terminals.append(term)
    assert term.exit_code() == 0
    shown = term.output.decode().replace("\r\n", "\n")
    assert "|paged|" not in shown
    assert rules.page("nestor").splitlines()[0] in shown


def test_through_a_pipe_the_page_is_plain_text(nowhere: str, tmp_path: Path) -> None:
    done = piped(nowhere, tmp_path, "rules", "light-and-shade")
    assert done.returncode == 0, done.stderr
    assert done.stdout == rules.page("light-and-shade")  # no pager, no markup
    assert done.stderr == ""


def test_no_game_lists_the_games(nowhere: str, tmp_path: Path) -> None:
    done = piped(nowhere, tmp_path, "rules")
    assert done.returncode == 0, done.stderr
    for game in rules.games():
        assert f"  {game} " in done.stdout
    # each game named as the server's games list names it (it said "The Gate, Bars of Three")
    assert "The Gate (bars of three)" in done.stdout
    assert "The Blockade (rows of ten)" in done.stdout
    assert "patience-race rules GAME" in done.stdout


def test_an_unknown_game_is_refused(nowhere: str, tmp_path: Path) -> None:
    done = piped(nowhere, tmp_path, "rules", "klondike")
    assert done.returncode == 2
    assert done.stdout == ""
    assert "no rules page for 'klondike'; the games: babette, " in done.stderr


def test_no_command_shows_the_commands(nowhere: str, tmp_path: Path) -> None:
    """``patience-race`` alone, as a new user types it first: the commands, not argparse's
    "the following arguments are required: COMMAND"."""
    done = piped(nowhere, tmp_path)
    assert done.returncode == 2
    for command in ("play", "games", "rules", "race", "daily", "top", "challenge"):
        assert f"\n    {command} " in done.stdout, command
    assert "required" not in done.stdout + done.stderr


def test_the_command_list_names_actions_as_they_are_typed() -> None:
    """The line ``patience-race`` gives a command with actions names each as the command
    takes it: it said ``group``'s were "make, join by a link, ...", and ``group make``
    was refused (``new`` makes one)."""
    top = parser()
    sub = next(a for a in top._actions if isinstance(a, argparse._SubParsersAction))
    helps = {c.dest: str(c.help) for c in sub._choices_actions}
    for name in ("race", "group"):
        listed = re.sub(r"\([^)]*\)", "", helps[name].split(":", 1)[1])
        words = [item.split()[0] for item in listed.split(",") if item.strip()]
        taken = next(a.choices for a in sub.choices[name]._actions if a.dest in ("race", "action"))
        assert words and set(words) <= set(taken), (name, words, sorted(taken))


@pytest.mark.parametrize(
    ("flag", "value", "said"),
    [
        ("--max-players", "1", "argument --max-players: from 2 to 16 racers"),
        ("--max-players", "17", "argument --max-players: from 2 to 16 racers"),
        ("--time-limit", "5", "argument --time-limit: from 10 to 86400 seconds"),
        ("--time-limit", "x", "argument --time-limit: a whole number of seconds"),
    ],
)
def test_a_rooms_limits_are_checked_before_the_server_is_asked(
    nowhere: str, flag: str, value: str, said: str
) -> None:
    """``race new`` with a limit the server would refuse: the flag named, no server asked
    (it said ``room_create: field 'max_players' must be from 2 to 16``, from the server)."""
    out = subprocess.run(
        [CLIENT, "--server", nowhere, "race", "new", "gate", flag, value],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    assert out.returncode == 2, out
    assert said in out.stderr, out.stderr


@pytest.mark.parametrize("cols", [60, 40])
def test_every_rules_page_wrapped_again_for_a_narrow_screen_keeps_every_word(cols: int) -> None:
    """Over the table at 60 columns (and 40), each page's paragraphs and lists are wrapped
    again for the screen (written 73 wide, each of their lines was cut at 60), with every
    word kept, in order but for a term over two lines (``t1..t4,`` ``b1..b4``); only its
    boards, drawn as the game lays them out, may be wider."""
    for game in rules.games():
        text = rules.page(game)
        lines = rules.reflow(text, cols - 1)
        words = " ".join(lines).split()
        assert sorted(words) == sorted(text.split()), game
        # a line that stood alone stands alone ("First move on deal 4: r>b4" had the
        # paragraph under it run on after it)
        first = next(line for line in text.splitlines() if line.startswith("First move on"))
        assert first in lines, (game, lines)
        board = False
        for line in lines:
            board ^= line.startswith("  ---")
            if not (board or line.startswith("  ---")):
                assert len(line) < cols, (game, line)
