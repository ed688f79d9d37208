"""``patience-race``: the terminal client people race with.

::

    patience-race play [GAME] [--seed N]     a solo game (no GAME: take up the last one)
    patience-race games                      the games the server plays
    patience-race rules GAME                 a game's rules
    patience-race race new GAME [--seed N] [--max-players N] [--time-limit SECONDS]
    patience-race race join CODE             join a room's lobby (or go back to its race)
    patience-race race watch CODE            watch a room's races
    patience-race daily [GAME]               today's challenge of a game
    patience-race top [BOARD] [--day DATE] [--around-me | --friends] [--watch]
    patience-race follow [NAME]              follow a player (no NAME: who you follow)
    patience-race unfollow NAME
    patience-race replay ID [--speed N]      step through a finished game: board and moves

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
import time
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any

from rich import box
from rich.console import Console, Group
from rich.live import Live
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

from . import __version__
from .app import Plan, run, run_replay
from .boards import board_id, board_view, overview, pick_day
from .config import DEFAULT_SERVER, TokenStore, config_dir, pick_server
from .connection import Connection, ConnectionLost, LinkError, ServerError
from .replay import Replay, replay_table
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


def _limit(text: str) -> int:
    value = _positive(text)
    if value > 100:
        raise argparse.ArgumentTypeError("at most 100")
    return value


def _speed(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("a number of moves a second") from None
    if not 0.25 <= value <= 64:
        raise argparse.ArgumentTypeError("from 0.25 to 64 moves a second")
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
    if isinstance(exc, ConnectionLost) and str(exc) != "the connection dropped":
        # reached, and turned away with a reason (server full, too many connections)
        print(f"patience-race: {server}: {clean(exc, 200)}; try again later", file=sys.stderr)
        return 1
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


def cmd_daily(args: argparse.Namespace) -> int:
    return _interactive(args, Plan("daily", game=args.game))


class NoAccount(Exception):
    """The command needs the player, and no token is saved for this server."""


async def _signed_in(server: str) -> tuple[Connection, dict[str, Any]]:
    """A connection signed in with the saved token (a client of the same player playing
    elsewhere is signed out, as the server allows one connection a player)."""
    account = TokenStore(config_dir()).get(server)
    if account is None:
        raise NoAccount
    conn = Connection(server, token=account.token)
    welcome = await conn.open()
    return conn, welcome


def _fail(args: argparse.Namespace, exc: BaseException) -> int:
    """Say why a command could not be done; its exit code."""
    if isinstance(exc, NoAccount):
        print(
            f"patience-race: this needs your name on {args.server}, and no token is saved "
            "for it: play once to register (patience-race play, or daily)",
            file=sys.stderr,
        )
        return 1
    if isinstance(exc, ServerError):
        message = exc.message
        if exc.code == "bad_token":
            message = f"{args.server} does not know the saved token (was its data reset?)"
        print(f"patience-race: {message}", file=sys.stderr)
        return 1
    return _unreachable(args.server, exc)


def _me(server: str, welcome: dict[str, Any]) -> str | None:
    """The player's name: signed in, the server's; else the saved account's, if any."""
    player = welcome.get("player")
    if isinstance(player, dict):
        return clean(player.get("name", ""), 20)
    account = TokenStore(config_dir()).get(server)
    return clean(account.name, 20) if account else None


def _render(renderable: Any, ascii: bool, width: int) -> Text:
    """A renderable as ANSI text (through ASCII when asked), for a live display."""
    buffer = io.StringIO()
    Console(file=buffer, width=width, force_terminal=True, highlight=False, emoji=False).print(
        renderable
    )
    text = buffer.getvalue()
    return Text.from_ansi(asciify(text) if ascii else text)


def cmd_top(args: argparse.Namespace) -> int:
    signed = bool(args.around_me or args.friends)
    console = _console(args)

    async def fetch() -> int:
        conn, welcome = await (_signed_in(args.server) if signed else _anonymous(args.server))
        try:
            now = welcome.get("time")
            server_ms = now if isinstance(now, int) else None
            opened = time.monotonic()
            day = pick_day(args.day, server_ms or 0) if args.day else None
            board = board_id(args.board, day)
            me = _me(args.server, welcome)
            if board is None:
                if signed:
                    raise ValueError("--around-me and --friends need a BOARD (top GAME ...)")
                return await show_overview(conn, welcome, day, me)
            fields = {"board": board, "limit": args.limit}
            if args.around_me:
                fields["around"] = True
            elif args.friends:
                fields["friends"] = True
            page = await conn.request("top", **fields)

            def view(page: dict[str, Any]) -> Any:
                return board_view(
                    page,
                    me=me,
                    around=args.around_me,
                    friends=args.friends,
                    server_ms=server_ms + int((time.monotonic() - opened) * 1000)
                    if server_ms is not None
                    else None,
                    ascii=args.ascii,
                )

            if not args.watch:
                _print(console, view(page), args.ascii)
                return 0
            return await watch_board(conn, page, fields, view)
        finally:
            await conn.close()

    async def show_overview(
        conn: Connection, welcome: dict[str, Any], day: str | None, me: str | None
    ) -> int:
        games = [g for g in welcome.get("games") or [] if isinstance(g, dict)]
        pages = []
        for game in games:
            rules = clean(game.get("id", ""), 32)
            board = f"daily/{rules}" + (f"/{day}" if day else "")
            page = await conn.request("top", board=board, limit=1)
            pages.append((clean(game.get("name", rules), 40), page))
        _print(console, overview(pages, me=me, ascii=args.ascii), args.ascii)
        return 0

    async def watch_board(
        conn: Connection, page: dict[str, Any], fields: dict[str, Any], view: Any
    ) -> int:
        changes: asyncio.Queue[str] = asyncio.Queue()
        board = clean(page.get("board", ""), 64)

        def on_event(event: dict[str, Any]) -> None:
            if event.get("type") == "board_update" and event.get("board") == board:
                changes.put_nowait("update")

        conn.on_event = on_event
        conn.on_welcome = lambda welcome: changes.put_nowait("again")
        await conn.request("board_watch", board=board)
        hint = Text("watching: the board is redrawn as it changes · Ctrl-C stops", style="dim")
        width = console.width

        def shown(page: dict[str, Any]) -> Any:
            return _render(Group(view(page), hint), args.ascii, width)

        with Live(shown(page), console=console, auto_refresh=False) as live:
            while True:
                what = await changes.get()
                try:
                    if what == "again":  # reconnected: watching is not brought back
                        await conn.request("board_watch", board=board)
                    page = await conn.request("top", **{**fields, "board": board})
                except (LinkError, ServerError):
                    continue
                live.update(shown(page), refresh=True)

    try:
        return asyncio.run(fetch())
    except KeyboardInterrupt:
        return 0
    except ValueError as exc:
        print(f"patience-race: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:
        return _fail(args, exc)


def cmd_follow(args: argparse.Namespace, *, unfollow: bool = False) -> int:
    async def fetch() -> list[str]:
        conn, welcome = await _signed_in(args.server)
        try:
            me = _me(args.server, welcome) or ""
            # following yourself changes nothing, and answers with whom you follow
            kind = "unfollow" if unfollow else "follow"
            reply = await conn.request(kind, name=args.name or me)
        finally:
            await conn.close()
        names = reply.get("names")
        if args.name and args.name.lower() == me.lower():
            print("patience-race: that is you", file=sys.stderr)
        return [clean(n, 20) for n in names] if isinstance(names, list) else []

    try:
        names = asyncio.run(fetch())
    except Exception as exc:
        return _fail(args, exc)
    if names:
        line = f"You follow {', '.join(names)}: patience-race top GAME --friends compares you."
    else:
        line = "You follow nobody: patience-race follow NAME"
    _print(_console(args), Text(line), args.ascii)
    return 0


def cmd_unfollow(args: argparse.Namespace) -> int:
    return cmd_follow(args, unfollow=True)


def cmd_replay(args: argparse.Namespace) -> int:
    rid = args.id.strip().lower()

    async def fetch() -> tuple[Connection, dict[str, Any], dict[str, Any]]:
        """The connection (left open: the viewer fetches each step's board over it), the
        reply and the welcome."""
        conn, welcome = await _anonymous(args.server)
        try:
            return conn, await conn.request("replay", replay=rid), welcome
        except ServerError as exc:
            await conn.close()
            if exc.code != "not_public" or TokenStore(config_dir()).get(args.server) is None:
                raise
            # a daily of today: its own player, signed in, may see it (without its seed)
            conn, welcome = await _signed_in(args.server)
            try:
                return conn, await conn.request("replay", replay=rid), welcome
            except ServerError:
                await conn.close()
                raise exc from None
        except BaseException:
            await conn.close()
            raise

    async def main() -> int:
        try:
            conn, reply, welcome = await fetch()
        except ServerError as exc:
            message = exc.message
            if exc.code == "not_public":
                message += " (00:00 UTC); until then only its player sees it, without its seed"
            print(f"patience-race: {message}", file=sys.stderr)
            return 1
        except Exception as exc:
            return _fail(args, exc)
        try:
            games = {
                clean(g.get("id", ""), 32): clean(g.get("name", ""), 40)
                for g in welcome.get("games") or []
                if isinstance(g, dict)
            }
            raw = reply.get("replay")
            replay = Replay.from_message(raw if isinstance(raw, dict) else {}, games)
            if not (sys.stdin.isatty() and sys.stdout.isatty()):
                _print(_console(args), replay_table(replay, args.ascii), args.ascii)
                return 0
            return await run_replay(
                replay, args.server, speed=args.speed, ascii=args.ascii, conn=conn
            )
        finally:
            await conn.close()

    try:
        return asyncio.run(main())
    except KeyboardInterrupt:
        return 130


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
    "daily": cmd_daily,
    "top": cmd_top,
    "follow": cmd_follow,
    "unfollow": cmd_unfollow,
    "replay": cmd_replay,
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

    daily = sub.add_parser("daily", parents=[common], help="today's challenge of a game")
    daily.add_argument("game", nargs="?", metavar="GAME", help="a game id (see: games)")
    board = sub.add_parser(
        "top",
        parents=[common],
        help="a leaderboard (no BOARD: today's daily boards)",
        description="BOARD: a game (its daily board), daily/GAME[/DATE], best/GAME, "
        "wins/GAME, races/week[/YYYY-Www] or races/all.",
    )
    board.add_argument("board", nargs="?", metavar="BOARD", help="a game, or a board id")
    board.add_argument("--day", metavar="DATE", help="a daily board's day: YYYY-MM-DD, yesterday")
    whose = board.add_mutually_exclusive_group()
    whose.add_argument(
        "--around-me", action="store_true", help="you and the players around you (signs in)"
    )
    whose.add_argument(
        "--friends", action="store_true", help="you and the players you follow (signs in)"
    )
    board.add_argument("--limit", type=_limit, default=20, help="entries, 1 to 100 (default 20)")
    board.add_argument("--watch", action="store_true", help="redraw the board as it changes")
    follow = sub.add_parser("follow", parents=[common], help="follow a player (top --friends)")
    follow.add_argument("name", nargs="?", metavar="NAME", help="no NAME: whom you follow")
    unfollow = sub.add_parser("unfollow", parents=[common], help="stop following a player")
    unfollow.add_argument("name", metavar="NAME")
    replay = sub.add_parser("replay", parents=[common], help="step through a game's replay")
    replay.add_argument("id", metavar="ID", help="a replay id (a board entry's, a race game's)")
    replay.add_argument(
        "--speed", type=_speed, default=2.0, help="moves a second when playing (default 2)"
    )
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    args.server = pick_server(getattr(args, "server", None))
    args.ascii = getattr(args, "ascii", False)
    name = args.command + (f" {args.race}" if args.command == "race" else "")
    return COMMANDS[name](args)


if __name__ == "__main__":
    sys.exit(main())
