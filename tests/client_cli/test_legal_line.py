"""The legal line cut at the screen's edge ends between two moves, with a mark that reads
as no move: with ``--ascii`` it ended ``#7 23>22  #.`` (its ``…`` one for one a ``.``,
after half of the next move's number), which reads like a move to type."""

from __future__ import annotations

import re

from client_cli.lines import plain
from client_cli.screen import render_screen

from .test_screen import NOW, solo
from .views import played


def legal_line(ascii: bool, width: int) -> tuple[str, list[str]]:
    game = played("wedge", seed=5, moves=3)  # (seven legal moves)
    model = solo(game, ascii=ascii)
    assert model.game is not None
    lines = plain(render_screen(model, width, 23, NOW)).splitlines()
    return next(line for line in lines if line.startswith("legal: ")), model.game.legal


def test_a_cut_legal_line_ends_between_moves_with_a_mark_read_as_none() -> None:
    for ascii in (True, False):
        for width in range(40, 62):
            line, legal = legal_line(ascii, width)
            shown = re.findall(r"#(\d+) (\S+)", line)
            assert shown and all(legal[int(n) - 1] == move for n, move in shown), line
            if len(shown) < len(legal):  # cut: after a whole move, then the mark alone
                assert line.endswith("  ..." if ascii else "  …"), (width, line)
            assert not re.search(r"#[.…]?$", line), (width, line)
