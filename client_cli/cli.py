"""``patience-race``: the terminal client people race with.

::

    patience-race play [GAME] [--seed N]     a solo game (no GAME: take up the last one)
    patience-race games                      the games the server plays
    patience-race rules GAME                 a game's rules
    patience-race race new GAME [--seed N] [--max-players N] [--time-limit SECONDS]
    patience-race race join CODE             join a room's lobby (or go back to its race)
    patience-race race watch CODE            watch a room's races

Every command takes ``--server URL`` (else ``$PATIENCE_SERVER``, else
``ws://127.0.0.1:8765``) and ``--ascii`` (letters for suits, plain ASCII lines). More
commands slot in as more subparsers: each is a function from the parsed arguments to an
exit code, registered in :data:`COMMANDS`.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import sys
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any

from rich import box
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

from . import __version__
from .app import Plan, run
from .config import DEFAULT_SERVER, TokenStore, config_dir, pick_server
from .connection import Connection, ServerError
from .sanitize import clean, clean_block

MAX_SEED = 2**64 - 1

#: characters --ascii replaces that NFKD cannot take apart
_ASCII = str.maketrans(
    {
        "•": "*",
        "→": "->",
        "←": "<-",
        "–": "-",
        "—": "--",
        "‘": "'",
        "’": "'",
        "“": '"',
        "”": '"',
        "…": "...",
        "·": "-",
        "×": "x",
        "−": "-",
        "♣": "C",
        "♦": "D",
        "♥": "H",
        "♠": "S",
        "▌": "|",
        "━": "=",
        "─": "-",
        "│": "|",
        "┃": "|",
        "┏": "+",
        "┓": "+",
        "┗": "+",
        "┛": "+",
        "┌": "+",
        "┐": "+",
        "└": "+",
        "┘": "+",
        "├": "+",
        "┤": "+",
        "┬": "+",
        "┴": "+",
        "┼": "+",
    }
)


def asciify(text: str) -> str:
    """Text for a terminal without Unicode symbols.

    >>> asciify("Aces → up • 10♥ – “done”")
    'Aces -> up * 10H - "done"'
    """
    text = text.translate(_ASCII)
    if text.isascii():
        return text
    out = []
    for ch in text:
        if ch.isascii():
            out.append(ch)
            continue
        base = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode()
        out.append(base or "?")
    return "".join(out)


def _seed(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError("a seed is a whole number") from None
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError("a seed is from 0 to 2**64-1")
    return value


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("a whole number") from None
    if value <= 0:
        raise argparse.ArgumentTypeError("more than 0")
    return value


def _console(args: argparse.Namespace) -> Console:
    return Console(highlight=False, emoji=False)


def _print(console: Console, renderable: Any, ascii: bool) -> None:
    """Print, through ASCII when asked."""
    if not ascii:
        console.print(renderable)
        return
    buffer = io.StringIO()
    Console(
        file=buffer,
        width=console.width,
        force_terminal=console.is_terminal,
        color_system=console.color_system,  # type: ignore[arg-type]
        highlight=False,
        emoji=False,
    ).print(renderable)
    sys.stdout.write(asciify(buffer.getvalue()))
    sys.stdout.flush()


async def _anonymous(server: str) -> tuple[Connection, dict[str, Any]]:
    conn = Connection(server)
    welcome = await conn.open()
    return conn, welcome


def _unreachable(server: str, exc: BaseException) -> int:
    print(
        f"patience-race: cannot reach the race server at {server} ({clean(exc, 120)}). "
        "Is it running? (make run starts a local one; --server URL picks another)",
        file=sys.stderr,
    )
    return 1


# -- commands ----------------------------------------------------------------------------


def cmd_games(args: argparse.Namespace) -> int:
    async def fetch() -> list[Any]:
        conn, welcome = await _anonymous(args.server)
        await conn.close()
        games = welcome.get("games")
        return games if isinstance(games, list) else []

    try:
        games = asyncio.run(fetch())
    except Exception as exc:
        return _unreachable(args.server, exc)
    table = Table(box=box.ASCII2 if args.ascii else box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("game", no_wrap=True)
    table.add_column("packs", justify="right")
    table.add_column("")
    for g in games:
        if isinstance(g, dict):
            about = Text(clean(g.get("name", ""), 40), style="bold")
            about.append(f"  {clean(g.get('summary', ''), 200)}")
            table.add_row(clean(g.get("id", ""), 32), clean(g.get("packs", ""), 2), about)
    console = _console(args)
    _print(console, table, args.ascii)
    _print(
        console,
        Text("Play one: patience-race play GAME; its rules: patience-race rules GAME"),
        args.ascii,
    )
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    async def fetch() -> dict[str, Any]:
        conn, _ = await _anonymous(args.server)
        try:
            return await conn.request("rules", game=args.game)
        finally:
            await conn.close()

    try:
        reply = asyncio.run(fetch())
    except ServerError as exc:
        print(f"patience-race: {exc.message}", file=sys.stderr)
        return 1
    except Exception as exc:
        return _unreachable(args.server, exc)
    text = clean_block(reply.get("text", ""))
    _print(_console(args), Markdown(text, hyperlinks=False), args.ascii)
    return 0


def _interactive(args: argparse.Namespace, plan: Plan) -> int:
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print("patience-race: playing needs a terminal", file=sys.stderr)
        return 2
    store = TokenStore(config_dir())
    try:
        return asyncio.run(run(plan, args.server, store, ascii=args.ascii))
    except KeyboardInterrupt:
        return 130


def cmd_play(args: argparse.Namespace) -> int:
    return _interactive(args, Plan("play", game=args.game, seed=args.seed))


def cmd_race_new(args: argparse.Namespace) -> int:
    plan = Plan(
        "race-new",
        game=args.game,
        seed=args.seed,
        max_players=args.max_players,
        time_limit=args.time_limit,
    )
    return _interactive(args, plan)


def cmd_race_join(args: argparse.Namespace) -> int:
    return _interactive(args, Plan("race-join", code=args.code))


def cmd_race_watch(args: argparse.Namespace) -> int:
    return _interactive(args, Plan("race-watch", code=args.code))


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "play": cmd_play,
    "games": cmd_games,
    "rules": cmd_rules,
    "race new": cmd_race_new,
    "race join": cmd_race_join,
    "race watch": cmd_race_watch,
}


def parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--server",
        default=argparse.SUPPRESS,
        help=f"the race server's URL (default: $PATIENCE_SERVER, else {DEFAULT_SERVER})",
    )
    common.add_argument(
        "--ascii",
        action="store_true",
        default=argparse.SUPPRESS,
        help="letters for suits and plain ASCII, for terminals without the symbols",
    )
    top = argparse.ArgumentParser(
        prog="patience-race",
        description="Race friends at classic patience games, on a race server.",
        parents=[common],
    )
    top.add_argument("--version", action="version", version=f"patience-race {__version__}")
    sub = top.add_subparsers(dest="command", metavar="COMMAND", required=True)

    play = sub.add_parser(
        "play", parents=[common], help="a solo game (no GAME: take up your last one)"
    )
    play.add_argument("game", nargs="?", metavar="GAME", help="a game id (see: games)")
    play.add_argument("--seed", type=_seed, help="deal this seed's layout")
    sub.add_parser("games", parents=[common], help="list the games")
    rules = sub.add_parser("rules", parents=[common], help="show a game's rules")
    rules.add_argument("game", metavar="GAME")

    race = sub.add_parser("race", parents=[common], help="race friends: new, join, watch")
    race_sub = race.add_subparsers(dest="race", metavar="ACTION", required=True)
    new = race_sub.add_parser("new", parents=[common], help="open a room for a game")
    new.add_argument("game", metavar="GAME")
    new.add_argument("--seed", type=_seed, help="the first race's seed (later ones: random)")
    new.add_argument("--max-players", type=_positive, help="2 to 16 (default 8)")
    new.add_argument("--time-limit", type=_positive, metavar="SECONDS", help="per race")
    join = race_sub.add_parser("join", parents=[common], help="join a room by its code")
    join.add_argument("code", metavar="CODE")
    watch = race_sub.add_parser("watch", parents=[common], help="watch a room's races")
    watch.add_argument("code", metavar="CODE")
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    args.server = pick_server(getattr(args, "server", None))
    args.ascii = getattr(args, "ascii", False)
    name = args.command + (f" {args.race}" if args.command == "race" else "")
    return COMMANDS[name](args)


if __name__ == "__main__":
    sys.exit(main())
