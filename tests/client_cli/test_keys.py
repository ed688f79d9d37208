"""Single keys and picking moves, end to end: the real client in a pseudo-terminal against a
real server and Redis. Each of these was typing only before: home, a hint, the rules page,
a move's number, Tab putting its one match in the line."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from client_cli.config import TokenStore
from server.engine import new_game
from tests.app.client import signed_in
from tests.app.conftest import ServerProcess
from tests.solver.positions import HOME, homed

from .terminal import Terminal
from .test_terminal import F2, F4, GATE_1234, LEGAL, register, start


def gate_1234(terminals: list[Terminal], server: ServerProcess, config: Path) -> Terminal:
    """ann, registered, at The Gate's deal 1234 with its legal line drawn."""
    ann = start(terminals, server, config, "play", "gate", "--seed", "1234")
    register(ann, "ann")
    ann.wait_for(GATE_1234)
    return ann


def test_plus_plays_home_and_question_mark_asks_a_hint(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    home = HOME["gate"]
    ann = start(terminals, server_process, tmp_path, "play", "gate", "--seed", str(home.seed))
    register(ann, "ann")
    ann.wait_for(LEGAL)
    dealt = new_game("gate", seed=home.seed).cards_home()
    ann.type("+", enter=False)  # on an empty line: at once, no Enter
    ann.wait_for(r"home: " + " ".join(homed(new_game("gate", seed=home.seed))))
    ann.wait_for(rf"home {dealt + 2}/52")
    assert "> +" not in ann.text  # nothing was typed into the line
    ann.type("?", enter=False)
    ann.wait_for(r"hint: \S+ [^·]*· hints this game: 1")
    ann.child.send(F2)  # F2 is home too
    ann.wait_for(r"no card can go home now")
    # in the middle of a line, + is only a character (a pair's sign in other games)
    ann.type("b1+", enter=False)
    ann.wait_for(r"> b1\+")
    ann.child.send("\x15")  # Ctrl-U empties the line
    ann.type("q")
    assert ann.exit_code() == 0


def test_a_move_by_its_number_and_tab_completion(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    ann = gate_1234(terminals, server_process, tmp_path)
    ann.type("3")  # l>t4
    ann.wait_for(r"moves 1\b")
    ann.type("u")
    ann.wait_for(r"took back l>t4")
    ann.type("9")
    ann.wait_for(r"no move numbered 9: the legal line has 1 to 5")

    # one match: Tab puts it in the line at once
    ann.type("l", enter=False)
    ann.child.send("\t")
    ann.wait_for(r"> l>t4")
    ann.child.send("\x15")  # Ctrl-U empties the line
    # several: they show where the legal line was, the board and the keys stay
    ann.type("b", enter=False)
    ann.child.send("\t")
    ann.wait_for(r"Tab: b4>t3 b1>b2  \(Tab again: the next\)\n.*q quit")
    assert "legal:" not in ann.text
    ann.wait_for(r"> b4>t3")  # nothing more in common: the first one, then the next
    ann.child.send("\t")
    ann.wait_for(r"> b1>b2")
    ann.type("")
    ann.wait_for(r"moves 1\b")
    ann.wait_for(r"legal: 1 ")  # the choices went with the line
    ann.type("q")
    assert ann.exit_code() == 0


def test_tab_offers_undo_only_where_a_move_can_be_taken_back(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """On a fresh deal nothing can be taken back (the keys line has no ``u undo``), yet Tab
    offered ``undo``."""
    ann = gate_1234(terminals, server_process, tmp_path)
    ann.type("u", enter=False)
    ann.child.send("\t")
    ann.wait_for(r"nothing legal begins 'u'")
    assert "> undo" not in ann.text, ann.text
    ann.child.send("\x15")  # Ctrl-U empties the line
    ann.type("3")  # l>t4: a move to take back
    ann.wait_for(r"moves 1\b")
    ann.type("u", enter=False)
    ann.child.send("\t")
    ann.wait_for(r"> undo")
    ann.type("")
    ann.wait_for(r"took back l>t4")
    ann.type("q")
    assert ann.exit_code() == 0


def test_tab_offers_home_only_where_cards_go_home_one_at_a_time(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """Nestor pairs cards off: nothing goes home a card at a time (the keys line has no
    ``+ home``), yet Tab offered ``home``."""
    ann = start(terminals, server_process, tmp_path, "play", "nestor", "--seed", "1")
    register(ann, "ann")
    ann.wait_for(LEGAL)
    ann.type("ho", enter=False)
    ann.child.send("\t")
    ann.wait_for(r"nothing legal begins 'ho'")
    ann.child.send("\x15")  # Ctrl-U empties the line
    ann.type("hi", enter=False)
    ann.child.send("\t")
    ann.wait_for(r"> hint")
    ann.child.send("\x15")
    ann.type("q")
    assert ann.exit_code() == 0


def test_numbered_piles_take_a_hash(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """In The Wedge the piles are numbers: ``3`` is pile 3, ``#1`` the first legal move."""
    game = new_game("wedge", seed=7)
    first = str(game.legal_moves()[0])
    ann = start(terminals, server_process, tmp_path, "play", "wedge", "--seed", "7")
    register(ann, "ann")
    ann.wait_for(rf"legal: #1 {first}")
    ann.type("#1")
    ann.wait_for(r"moves 1\b")
    ann.type("q")
    assert ann.exit_code() == 0


def test_the_rules_page_from_the_table(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    ann = gate_1234(terminals, server_process, tmp_path)
    ann.child.send(F4)
    ann.wait_for(r"The rules of The Gate\nTHE GATE  \(gate\)")
    ann.wait_for(r"lines 1-19 of \d+ · space or PgDn more")
    assert "legal:" not in ann.text
    ann.type(" ", enter=False)  # space pages on
    ann.wait_for(r"lines 19-37 of")
    ann.type("b", enter=False)  # and back
    ann.wait_for(r"lines 1-19 of")
    # the window made 60 columns wide: the page is wrapped again for it, where every
    # line of its paragraphs was cut ("... onto four foundations, one…")
    ann.resize(24, 60)
    ann.wait_for(r"One pack\. The goal: all 52 cards onto four foundations, one\nfor each")
    assert "…" not in ann.text, ann.text
    ann.resize(24, 80)
    ann.wait_for(r"One pack\. The goal: all 52 cards onto four foundations, one for each\nsuit")
    ann.type("q", enter=False)  # q closes the page, not the client
    ann.wait_for(GATE_1234)
    ann.type("rules")  # the word does the same
    ann.wait_for(r"The rules of The Gate")
    ann.child.send("\x1b")
    ann.wait_for(GATE_1234)
    ann.type("q")
    assert ann.exit_code() == 0


def test_which_game_tab_and_q(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """The plain prompt before the table: Tab puts a unique match in the line at once, a
    game's number or name is taken as well as its id, and q leaves."""
    ann = start(terminals, server_process, tmp_path, "play")
    register(ann, "ann")
    ann.wait_for(r"which game\?")
    ann.type("wed", enter=False)
    ann.child.send("\t")
    ann.wait_for(r"which game\? \(its id or number; q to leave\) wedge\n\n")  # no menu
    assert "no game" not in ann.text
    ann.child.send("\x15")  # Ctrl-U
    ann.type("q")
    assert ann.exit_code() == 0
    assert b"no game 'q'" not in ann.output

    bob = start(terminals, server_process, tmp_path / "bob", "play")
    register(bob, "bob")
    bob.wait_for(r"which game\?")
    bob.type("The Gate")  # its name, in any case
    bob.wait_for(r"The Gate · solo")
    bob.type("q")
    assert bob.exit_code() == 0


def click(terminal: Terminal, row: int, column: int) -> None:
    """A left click at a screen cell (0-based), as an xterm sends it in SGR mouse mode:
    the button pressed, then let go."""
    terminal.child.send(f"\x1b[<0;{column + 1};{row + 1}M\x1b[<0;{column + 1};{row + 1}m")


def test_moves_by_the_mouse(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """Click a pile, then where it goes; click a move on the legal line; click the stock."""
    ann = gate_1234(terminals, server_process, tmp_path)
    lines = ann.text.splitlines()
    row = next(n for n, line in enumerate(lines) if line.startswith("l   t1  t2"))
    click(ann, row, 0)  # l: picked
    ann.wait_for(r"l picked: click where it goes")
    click(ann, row + 1, lines[row].index("t4"))  # on t4's card
    ann.wait_for(r"moves 1\b")
    ann.wait_for(r"legal: 1 ")
    lines = ann.text.splitlines()
    legal = next(n for n, line in enumerate(lines) if line.startswith("legal: "))
    moves = ann.wait_for(r"legal: 1 (\S+)").group(1)
    click(ann, legal, lines[legal].index(moves))  # the legal line's first move
    ann.wait_for(r"moves 2\b")
    assert "took back" not in ann.text
    lines = ann.text.splitlines()
    stock = next(n for n, line in enumerate(lines) if re.search(r"\[\d+\]", line))
    click(ann, stock, re.search(r"\[\d+\]", lines[stock]).start())  # type: ignore[union-attr]
    ann.wait_for(r"moves 3\b")
    ann.type("q")
    assert ann.exit_code() == 0


def test_daily_without_a_game_marks_the_dailies_done_today(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """``daily`` with no game lists the games with today's marked: done, or under way
    (it asked the same after today's was done, and said nothing of it)."""
    cy = start(terminals, server_process, tmp_path, "daily", "nestor")
    register(cy, "cy")
    cy.wait_for(r"Press Enter to start your ranked attempt")
    cy.type("q")
    assert cy.exit_code() == 0
    token = TokenStore(tmp_path / "patience-race").get(server_process.url)
    assert token is not None

    async def done() -> None:
        client = await signed_in(server_process.url, token.token)
        await client.call("daily", game="gate")
        await client.call("resign")
        await client.close()

    asyncio.run(done())
    again = start(terminals, server_process, tmp_path, "daily")
    again.wait_for(r"which game\?")
    assert re.search(r"gate\s+The Gate  \(done today\)", again.text), again.text
    assert not re.search(r"nestor\s+Nestor  \(", again.text)
    again.type("q")
    assert again.exit_code() == 0


def test_esc_puts_the_legal_line_back_after_tabs_choices(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """Esc clears the line, and with it Tab's choices: "Tab: b4>t3 b1>b2 (Tab again: the
    next)" stayed where the legal line should be, over an empty line."""
    ann = gate_1234(terminals, server_process, tmp_path)
    ann.type("b", enter=False)
    ann.child.send("\t")
    ann.wait_for(r"Tab: b4>t3 b1>b2  \(Tab again: the next\)")
    ann.child.send("\x1b")
    ann.wait_for(r"legal: 1 ")
    assert "Tab:" not in ann.text and "> b" not in ann.text, ann.text
    ann.type("q", enter=False)
    assert ann.exit_code() == 0
