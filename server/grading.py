"""``patience-race-server difficulty``: a deal's difficulty graded as the server grades
its dailies (:func:`server.solver.difficulty.grade_deal`), so that anyone can grade a
revealed daily again (its seed is public after the day's reset) and see the same grade.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from server.engine import GAMES
from server.solver.difficulty import grade_deal

from .solving import seed_arg


def cmd_difficulty(args: argparse.Namespace) -> int:
    if args.game not in GAMES:
        print(
            f"difficulty: no such game: {args.game!r} (games: {', '.join(GAMES)})",
            file=sys.stderr,
        )
        return 2
    found = grade_deal(args.game, args.seed)
    if args.json:
        print(json.dumps(found))
        return 0
    tries, searches = found["tries"], found["searches"]
    print(
        f"{GAMES[args.game].name}, seed {args.seed}: {found['grade']} (ease {found['ease']:.3f})"
        f" · the hint engine, seeing only the board, won {found['board_wins']} of {tries}"
        f" tries, {found['home_pct']}% of the cards home on average"
        f" · {found['line_wins']} of {searches} short solver searches found a win"
        f" · {found['seconds']:.1f} s"
    )
    return 0


def add_difficulty(sub: Any) -> None:
    """The ``difficulty`` subcommand, on ``patience-race-server``'s parser."""
    grade = sub.add_parser("difficulty", help="grade a deal as the server grades its dailies")
    grade.add_argument("game", metavar="GAME")
    grade.add_argument("--seed", type=seed_arg, required=True)
    grade.add_argument("--json", action="store_true", help="the figures as one JSON line")
    grade.set_defaults(func=cmd_difficulty)
