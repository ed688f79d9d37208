"""``patience-race-server``: the server's command line.

``patience-race-server [serve] [--host H] [--port P] [--redis-url URL] ...`` runs the race
server (every flag has a ``PATIENCE_*`` variable: see docs/server.md). The other commands
stand on the rules engine alone: ``games`` lists the games, ``deal`` shows a deal, ``play``
plays a game at a local console (no network, no accounts: for trying the rules),
``verify FILE`` re-plays a replay file and says whether it reproduces its result (and a
daily's, whether its seed is the one committed to: ``docs/commitments.md``), and
``solve`` and ``winnability`` ask the solver whether deals can be won
(:mod:`server.solving`), and ``review`` lists, clears and removes the results the pace
policy held (:mod:`server.review_cli`); ``difficulty`` grades a deal as the server
grades its dailies (:mod:`server.grading`).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from server.engine import GAMES, IllegalMove, UndoRefused, new_game


def _game_id(text: str) -> str:
    if text not in GAMES:
        raise argparse.ArgumentTypeError(f"no such game {text!r}; try: {', '.join(GAMES)}")
    return text


def cmd_games(args: argparse.Namespace) -> int:
    width = max(map(len, GAMES))
    for info in GAMES.values():
        print(
            f"{info.id:<{width}}  {info.packs} pack{'s' if info.packs > 1 else ' '}  {info.summary}"
        )
    return 0


def cmd_deal(args: argparse.Namespace) -> int:
    game = new_game(args.game, seed=args.seed)
    print(f"{game.name}, seed {game.seed}")
    print(game.text())
    print("legal:", " ".join(m.text for m in game.legal_moves()) or "(none)")
    return 0


CONSOLE_HELP = """Type a move in the game's notation, or:
  ?   list the legal moves      u   undo      q   quit"""


def cmd_play(
    args: argparse.Namespace,
    read: Callable[[str], str] = input,
) -> int:
    game = new_game(args.game, seed=args.seed)
    print(f"{game.name}, seed {game.seed}. {game.NOTATION_HINT}")
    print(CONSOLE_HELP)
    while True:
        home, total = game.progress
        print()
        print(game.text())
        print(f"[{game.status}] home {home}/{total}, moves {game.moves}")
        if game.status != "playing":
            return 0
        try:
            line = read("> ").strip()
        except EOFError:
            print()
            return 0
        if line in ("q", "quit"):
            return 0
        if line in ("?", "h", "help"):
            print("legal:", " ".join(m.text for m in game.legal_moves()))
            continue
        try:
            if line in ("u", "undo"):
                print("undone:", game.undo())
            elif line:
                game.play(line)
        except (IllegalMove, UndoRefused) as exc:
            print(exc)


def cmd_verify(args: argparse.Namespace) -> int:
    from server.app.domain.replays import OtherRules, Tampered, load_file, verify

    try:
        replay = load_file(args.file)
    except OSError as exc:
        print(f"cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    except Exception:
        print(f"{args.file} is not a replay file (JSON or msgpack)", file=sys.stderr)
        return 2
    if replay.get("seed") is None:
        print(
            "this replay has no seed yet: a daily challenge's seed is published after "
            "the day's reset (00:00 UTC); fetch the replay again then",
            file=sys.stderr,
        )
        return 2
    try:
        result = verify(replay)
    except Tampered as exc:
        print(f"does not reproduce: {exc}")
        return 1
    except OtherRules as exc:
        print(f"cannot check this replay: {exc}", file=sys.stderr)
        return 2
    print(verified_line(replay, result))
    return check_commitment(replay, args.commitment)


def verified_line(replay: dict[str, Any], result: dict[str, Any]) -> str:
    """``verify``'s line for a replay that reproduces: its time as the boards and the
    clients give it, to the tenth and cut, not rounded (14,056 ms had read "14.1 s"
    here and 0:14.0 everywhere else).

    >>> verified_line({"game": "gate", "seed": 7},
    ...     {"status": "won", "time_ms": 14_056, "moves": 112, "home": 52, "total": 52})
    'verified: gate (rules version 1) seed 7: won in 0:14.0, 112 moves, 52/52 home'
    """
    from server.app.domain.daily import finish_text

    return (
        f"verified: {replay['game']} (rules version {replay.get('rules_version', 1)}) "
        f"seed {replay['seed']}: {result['status']} in {finish_text(result['time_ms'])}, "
        f"{result['moves']} moves, {result['home']}/{result['total']} home"
    )


def check_commitment(replay: dict[str, Any], expected: str | None) -> int:
    """``verify``'s second half: a daily replay's seed against its day's commitment
    (``docs/commitments.md``), and against ``expected`` (``--commitment``) when given."""
    from server.app.domain.commitments import NoCommitment, NotCommitted, check_replay

    try:
        found = check_replay(replay, expected)
    except NotCommitted as exc:
        print(f"does not match its commitment: {exc}")
        return 1
    except NoCommitment as exc:
        if expected is None:  # (a race's or solo game's, or a daily's from before them)
            if replay.get("day") is not None:
                print(f"no commitment checked: {exc}")
            return 0
        print(f"cannot check the commitment: {exc}", file=sys.stderr)
        return 2
    same = " (the one given)" if expected is not None else ""
    print(
        f"committed: the seed and salt hash to the commitment {found}{same}; compare it "
        f"with the one published for {replay['day']} before the day (/daily/commitments)"
    )
    return 0


def cmd_native(args: argparse.Namespace) -> int:
    from server import native

    if args.action == "build":
        if importlib.util.find_spec("mypyc") is None:  # (a traceback, before)
            print(
                "patience-race-server: error: compiling the move path needs mypy (pip install"
                " mypy) and a C compiler with Python's headers (apt install gcc python3-dev);"
                " without it the server runs the move path from source, slower",
                file=sys.stderr,
            )
            return 1
        files = native.build()
        print(
            f"compiled {len(native.SOURCES)} modules into {native.DIR} (C files: "
            f"{files['compiled']} compiled, {files['cached']} from {files['cache']})"
        )
        return 0
    state = native.status()
    print(state["mode"] + (f" ({state['why']})" if state.get("why") else ""))
    return 0


def build_parser() -> argparse.ArgumentParser:
    # (the solver's commands imported here: serving never builds this parser)
    from server.grading import add_difficulty
    from server.review_cli import add_commands as add_review
    from server.solving import add_commands, seed_arg

    parser = argparse.ArgumentParser(prog="patience-race-server", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("games", help="list the games").set_defaults(func=cmd_games)
    deal = sub.add_parser("deal", help="print the deal of a game and seed")
    deal.add_argument("game", type=_game_id)
    deal.add_argument("--seed", type=seed_arg, default=None, help="0..2**64-1 (random if absent)")
    deal.set_defaults(func=cmd_deal)
    play = sub.add_parser("play", help="play a game at a local console")
    play.add_argument("game", type=_game_id, nargs="?", default="gate")
    play.add_argument("--seed", type=seed_arg, default=None, help="0..2**64-1 (random if absent)")
    play.set_defaults(func=cmd_play)
    verify = sub.add_parser("verify", help="check that a replay file reproduces its result")
    verify.add_argument("file", type=Path)
    verify.add_argument(
        "--commitment",
        metavar="HEX",
        help="a daily's commitment saved before its day: the replay's must be this one",
    )
    verify.set_defaults(func=cmd_verify)
    native = sub.add_parser(
        "native", help="build the compiled modules, or say whether they are in use"
    )
    native.add_argument("action", choices=("build", "status"), nargs="?", default="status")
    native.set_defaults(func=cmd_native)
    add_commands(sub)
    add_difficulty(sub)  # (server/grading.py)
    add_review(sub)
    return parser


TOOLS = (
    "games",
    "deal",
    "play",
    "verify",
    "native",
    "solve",
    "winnability",
    "review",
    "difficulty",
)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in TOOLS:
        from server.app.main import main as serve

        return serve(argv[1:] if argv and argv[0] == "serve" else argv)
    if argv[0] == "review":  # (the server's own flags too: the Redis it reads)
        args, server_flags = build_parser().parse_known_args(argv)
        return int(args.func(args, server_flags))
    args = build_parser().parse_args(argv)
    try:
        result: int = args.func(args)
    except BrokenPipeError:  # (``| head``: the reader has all it wanted)
        # what is still buffered for stdout goes nowhere, not into a second traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return result


if __name__ == "__main__":
    sys.exit(main())
