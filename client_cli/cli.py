"""``patience-race``: the terminal client people race with.

::

    patience-race play [GAME] [--seed N]     a solo game (no GAME: take up the last one)
    patience-race games                      the games the server plays
    patience-race rules [GAME]               a game's rules (no server needed; no GAME: the list)
    patience-race race new GAME [--seed N] [--max-players N] [--time-limit SECONDS]
    patience-race race join CODE             join a room's lobby (or go back to its race;
                                             CODE, or the room's link, whose server is used)
    patience-race race watch CODE            watch a room's races
    patience-race quick [GAME]               a quick race: matched with players of your
                                             rating (ghosts when nobody comes)
    patience-race daily [GAME] [--no-ghosts] today's challenge of a game (practice races
                                             the day's board; --no-ghosts: alone)
    patience-race top [BOARD] [--day DATE] [--around-me | --friends] [--watch]
                                             (no BOARD: today's daily boards; with
                                             --around-me or --friends, your last daily's)
    patience-race top BOARD --group GROUP    the board among a group's members
    patience-race group [new NAME | join LINK | show GROUP | leave GROUP | top GROUP [BOARD]
                         | remove GROUP NAME | link GROUP | delete GROUP]
                                             your groups (GROUP: its id or name)
    patience-race follow [NAME]              follow a player (no NAME: who you follow)
    patience-race unfollow NAME
    patience-race link [CODE] [--replace]    a code to play as yourself on another device
                                             (CODE: sign this terminal in with one)
    patience-race devices [sign-out ID | sign-out --everywhere]
                                             your devices, and signing them out
    patience-race replay ID [--speed N]      step through a finished game: board and moves
                                             (ID, or its link, whose server is used)
    patience-race review ID                  where a finished game was lost (a daily's:
                                             after the day's reset; ID, or its replay's link)
    patience-race challenge ID               race a challenge's ghost (ID, or its link)
    patience-race challenge --replay ID      race a replay's ghost ("race this": ID, or its
                                             link)
    patience-race challenges                 your challenges, and who raced them
    patience-race name [NEW]                 the name you race under; NEW changes it
    patience-race profile [NAME]             your ratings at each game (NAME: another's);
                                             also: patience-race me

Every command takes ``--server URL`` (else ``$PATIENCE_SERVER``, else
``ws://127.0.0.1:8765``) and ``--ascii`` (letters for suits, plain ASCII lines). More
commands slot in as more subparsers: each is a function from the parsed arguments to an
exit code, registered in :data:`COMMANDS`.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import importlib.util
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from . import __version__
from .config import (
    DEFAULT_SERVER,
    TokenFileError,
    TokenStore,
    config_dir,
    linked_server,
    not_a_server,
    pick_server,
)
from .ids import not_a_replay, replay_id

MAX_SEED = 2**64 - 1


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


def _between(low: int, high: int, unit: str) -> Callable[[str], int]:
    """A whole number from ``low`` to ``high``, checked before anything is asked of the
    server (whose limits these are: docs/protocol.md, ``room_create``).

    >>> _between(2, 16, "racers")("1")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: from 2 to 16 racers
    """

    def check(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"a whole number of {unit}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"from {low} to {high} {unit}")
        return value

    return check


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


def _interactive(args: argparse.Namespace, kind: str, **plan: Any) -> int:
    """A full-screen command: a :class:`~client_cli.session.Plan` of ``kind`` run. The
    session (and with it prompt_toolkit) is imported here, not at the top: the one-shot
    commands (``top``, ``--help``) start without it, in half the time."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print("patience-race: playing needs a terminal", file=sys.stderr)
        return 2
    from .session import Plan, run

    store = TokenStore(config_dir())
    try:
        return asyncio.run(run(Plan(kind, **plan), args.server, store, ascii=args.ascii))
    except KeyboardInterrupt:
        return 130


def cmd_play(args: argparse.Namespace) -> int:
    return _interactive(args, "play", game=args.game, seed=args.seed)


def cmd_daily(args: argparse.Namespace) -> int:
    return _interactive(args, "daily", game=args.game, ghosts=not args.no_ghosts)


def cmd_race_new(args: argparse.Namespace) -> int:
    return _interactive(
        args,
        "race-new",
        game=args.game,
        seed=args.seed,
        max_players=args.max_players,
        time_limit=args.time_limit,
    )


def cmd_quick(args: argparse.Namespace) -> int:
    return _interactive(args, "quick", game=args.game)


def room_code(text: str) -> str:
    """The room a ``race join`` or ``race watch`` argument names: its code, or its link
    pasted whole (``http://HOST:8765/r/CODE``, whose server is used: :func:`linked`).

    >>> room_code("K7PQ2M"), room_code("http://h:8765/r/K7PQ2M/")
    ('K7PQ2M', 'K7PQ2M')
    """
    return text.strip().rstrip("/").rpartition("/")[2]


def cmd_race_join(args: argparse.Namespace) -> int:
    return _interactive(args, "race-join", code=room_code(args.code))


def cmd_race_watch(args: argparse.Namespace) -> int:
    return _interactive(args, "race-watch", code=room_code(args.code))


def cmd_challenge(args: argparse.Namespace) -> int:
    if (args.id is None) == (args.replay is None):
        print("patience-race: challenge ID, or challenge --replay ID", file=sys.stderr)
        return 2
    if args.id is not None and not (sys.stdin.isatty() and sys.stdout.isatty()):
        from .queries import show_challenge

        return show_challenge(args)  # (its table, printed: racing it needs a terminal)
    return _interactive(args, "challenge", code=args.id, replay=args.replay)


#: each command's function: here, or named ``module:function`` in this package, imported
#: only when its command runs (``--help`` and ``top`` load none of the others' modules,
#: nor the full screen's: prompt_toolkit alone was a third of their start)
COMMANDS: dict[str, Callable[[argparse.Namespace], int] | str] = {
    "play": cmd_play,
    "games": "queries:cmd_games",
    "rules": "queries:cmd_rules",
    "race new": cmd_race_new,
    "race join": cmd_race_join,
    "race watch": cmd_race_watch,
    "daily": cmd_daily,
    "quick": cmd_quick,
    "top": "groups:cmd_top_group",  # (cmd_top, or the board among a group: --group)
    "group": "groups:cmd_group",
    "follow": "queries:cmd_follow",
    "unfollow": "queries:cmd_unfollow",
    "link": "linking:cmd_link",
    "devices": "linking:cmd_devices",
    "replay": "queries:cmd_replay",
    "challenge": cmd_challenge,
    "challenges": "queries:cmd_challenges",
    "name": "names:cmd_name",
    "rename": "names:cmd_name",
    "league": "league:cmd_league",
    "profile": "profile:cmd_profile",
    "review": "review:cmd_review",
    "me": "profile:cmd_profile",
}


#: what the client needs beyond the server's packages (pyproject.toml's ``client`` extra)
CLIENT_PACKAGES = ("rich", "prompt_toolkit")


def missing_packages() -> list[str]:
    """The client's packages not installed: ``pip install .`` installs the server's
    alone, and the command then ended in a traceback (``No module named 'rich'``)."""
    return [name for name in CLIENT_PACKAGES if importlib.util.find_spec(name) is None]


def command(name: str) -> Callable[[argparse.Namespace], int]:
    """The function of the command ``name`` (its module imported now, if named)."""
    found = COMMANDS[name]
    if isinstance(found, str):
        module, _, function = found.partition(":")
        found = getattr(importlib.import_module(f".{module}", __package__), function)
    assert callable(found)
    return found


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
    # not required: no COMMAND shows the commands (main), as a new user types it first
    sub = top.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser(
        "play", parents=[common], help="a solo game (no GAME: take up your last one)"
    )
    play.add_argument("game", nargs="?", metavar="GAME", help="a game id (see: games)")
    play.add_argument("--seed", type=_seed, help="deal this seed's layout")
    sub.add_parser("games", parents=[common], help="list the games")
    rules = sub.add_parser(
        "rules", parents=[common], help="a game's rules, read with no server (no GAME: the list)"
    )
    rules.add_argument("game", nargs="?", metavar="GAME", help="a game id (no GAME: the list)")

    race = sub.add_parser("race", parents=[common], help="race friends: new, join, watch")
    race_sub = race.add_subparsers(dest="race", metavar="ACTION", required=True)
    new = race_sub.add_parser("new", parents=[common], help="open a room for a game")
    new.add_argument("game", metavar="GAME")
    new.add_argument("--seed", type=_seed, help="the first race's seed (later ones: random)")
    new.add_argument("--max-players", type=_between(2, 16, "racers"), help="2 to 16 (default 8)")
    new.add_argument(
        "--time-limit",
        type=_between(10, 24 * 3600, "seconds"),
        metavar="SECONDS",
        help="per race: 10 to 86400",
    )
    join = race_sub.add_parser("join", parents=[common], help="join a room by its code")
    join.add_argument(
        "code", metavar="CODE", help="the room's code, or its link (its server is used)"
    )
    watch = race_sub.add_parser("watch", parents=[common], help="watch a room's races")
    watch.add_argument("code", metavar="CODE")

    quick = sub.add_parser(
        "quick",
        parents=[common],
        help="a quick race: players of your rating, matched at once (ghosts if none come)",
    )
    quick.add_argument("game", nargs="?", metavar="GAME", help="a game id (see: games)")
    daily = sub.add_parser("daily", parents=[common], help="today's challenge of a game")
    daily.add_argument("game", nargs="?", metavar="GAME", help="a game id (see: games)")
    daily.add_argument(
        "--no-ghosts",
        action="store_true",
        help="practise alone: no ghosts of the day's board beside you",
    )
    board = sub.add_parser(
        "top",
        parents=[common],
        help="a leaderboard (no BOARD: today's daily boards, or your last daily's)",
        description="BOARD: a game (its daily board), daily/GAME[/DATE], best/GAME, "
        "wins/GAME, rating/GAME, races/week[/YYYY-Www] or races/all. No BOARD: every game's daily "
        "board; with --around-me or --friends, the board of the last daily you played "
        "on this server.",
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
    board.add_argument(  # (the words up to the next option: a name of several, unquoted)
        "--group",
        nargs="+",
        metavar="GROUP",
        help="among a group's members (its id or name, unquoted even of several words)",
    )
    group = sub.add_parser(
        "group",
        parents=[common],
        help="your groups (signs in): new, join by a link, show, leave, top (their boards)",
        description="No ACTION: your groups. new NAME; join LINK (http://HOST/g/ID?k=KEY); "
        "show GROUP (members, who is online, the link, members' challenges); leave GROUP; "
        "top GROUP [BOARD] (a board among its members: a game's daily, best/GAME, "
        "wins/GAME, races/week, races/all, or week/GAME, the group's week of dailies, "
        "the first game's by default); "
        "the owner's: remove GROUP NAME, link GROUP (a new link; the old one stops "
        "working), delete GROUP. GROUP: the group's id or name.",
    )
    group.add_argument(
        "action",
        nargs="?",
        choices=["new", "join", "show", "leave", "top", "remove", "link", "delete"],
        metavar="ACTION",
    )
    group.add_argument("words", nargs="*", metavar="ARG")
    group.add_argument(
        "--watch", action="store_true", help="show GROUP kept on screen, redrawn as it changes"
    )
    profile = sub.add_parser("profile", parents=[common], help="your ratings at each game")
    profile.add_argument("name", nargs="?", metavar="NAME", help="another player's")
    sub.add_parser("me", parents=[common], help="your ratings at each game (profile)")
    follow = sub.add_parser("follow", parents=[common], help="follow a player (top --friends)")
    follow.add_argument("name", nargs="?", metavar="NAME", help="no NAME: whom you follow")
    unfollow = sub.add_parser("unfollow", parents=[common], help="stop following a player")
    unfollow.add_argument("name", metavar="NAME")
    link = sub.add_parser(
        "link",
        parents=[common],
        help="play as yourself on another device: a code to enter there (signs in)",
        description="No CODE: a code to enter on another device (a browser, another "
        "terminal), good once for a few minutes. CODE: sign this terminal in as the player "
        "who showed it, with a token of its own, kept as play keeps one; or a browser's "
        "recovery key, as that browser's device.",
    )
    link.add_argument(
        "code",
        nargs="*",
        metavar="CODE",
        help="a code from your other device (in one word or two: K7QX-3MHD, K7QX 3MHD)",
    )
    link.add_argument(
        "--replace", action="store_true", help="replace the player this terminal plays as"
    )
    devices = sub.add_parser(
        "devices", parents=[common], help="your devices, and signing them out (signs in)"
    )
    devices.add_argument("action", nargs="?", choices=["sign-out"], metavar="sign-out")
    devices.add_argument("id", nargs="?", metavar="ID", help="the device to sign out")
    devices.add_argument(
        "--everywhere", action="store_true", help="sign out every device but this one"
    )
    review = sub.add_parser(
        "review",
        parents=[common],
        help="where a finished game was lost, by its id (signs in)",
        description="ID: a finished game's id (its replay's), or its replay's link "
        "(http://HOST/replay/ID, whose server is used). A daily deal's game is "
        "reviewed after the day's reset.",
    )
    review.add_argument(
        "id", metavar="ID", help="a finished game's id (its replay's), or its replay's link"
    )
    replay = sub.add_parser("replay", parents=[common], help="step through a game's replay")
    replay.add_argument(
        "id", metavar="ID", help="a replay id (a board entry's, a race game's), or its link"
    )
    replay.add_argument(
        "--speed", type=_speed, default=2.0, help="moves a second when playing (default 2)"
    )
    challenge = sub.add_parser(
        "challenge",
        parents=[common],
        help="race a challenge's ghost: a finished game, on the same deal",
        description="ID: a challenge's id, or its link (http://HOST/c/ID). --replay ID: race "
        "the ghost of a replay instead (a race's, a solo game's, a past daily's), by its id "
        "or its link (http://HOST/replay/ID).",
    )
    challenge.add_argument("id", nargs="?", metavar="ID", help="a challenge id, or its link")
    challenge.add_argument(
        "--replay", metavar="ID", help="race this replay's ghost (its id, or its link)"
    )
    sub.add_parser(
        "challenges", parents=[common], help="your challenges, and who raced them (signs in)"
    )
    name = sub.add_parser(
        "name",
        aliases=["rename"],
        parents=[common],
        help="the name you race under; NEW changes it (once in 30 days)",
    )
    name.add_argument(
        "name",
        nargs="?",
        metavar="NEW",
        help="2 to 20 letters (A to Z), digits, _ or -, first a letter or digit",
    )
    league = sub.add_parser(
        "league", parents=[common], help="this week's league: standings, tiers (signs in)"
    )
    # (``league join`` as ``group join`` is said: the same as --join)
    league.add_argument("action", nargs="?", choices=["join"], help="join: as --join")
    league.add_argument("--join", action="store_true", help="join this week's event")
    league.add_argument("--week", metavar="YYYY-Www", help="a past week's league, as it closed")
    league.add_argument(
        "--watch", action="store_true", help="keep the table, redrawn as the standings change"
    )
    return top


def linked(args: argparse.Namespace) -> str | None:
    """The server a link given for a room, a challenge, a group or a replay names, if one
    was."""
    if args.command == "race" and args.race in ("join", "watch"):
        return linked_server(args.code)
    if args.command == "challenge":  # (a replay's, without the browser's #replay=ID)
        return linked_server(
            args.id if args.id is not None else (args.replay or "").partition("#")[0]
        )
    if args.command == "group" and args.action == "join" and args.words:
        return linked_server(args.words[0])
    if args.command in ("replay", "review"):  # (its address, without the browser's #replay=ID)
        return linked_server(args.id.partition("#")[0])
    return None


#: the options ``link`` takes (a word after ``link`` starting with "-" and not one of these
#: is its CODE: a recovery key may start with "-")
LINK_OPTIONS = frozenset({"-h", "--help", "--server", "--ascii", "--replace"})


def with_key_kept(argv: Sequence[str]) -> list[str]:
    """``argv`` with ``--`` put before a recovery key that starts with "-" (a token's
    alphabet has it: argparse took ``link -wbDH...`` for an unknown option). Only for the
    ``link`` command (``group link GROUP`` is another's).

    >>> with_key_kept(["link", "-wbDHr"]), with_key_kept(["--server", "ws://h:1", "link", "-x"])
    (['link', '--', '-wbDHr'], ['--server', 'ws://h:1', 'link', '--', '-x'])
    >>> with_key_kept(["link", "--replace", "K7QX-3MHD"]), with_key_kept(["group", "link", "-x"])
    (['link', '--replace', 'K7QX-3MHD'], ['group', 'link', '-x'])
    """
    args = list(argv)
    command: str | None = None
    value = False
    for n, arg in enumerate(args):
        if value:
            value = False
        elif arg == "--":
            return args
        elif arg == "--server":
            value = True
        elif command is None:
            if not arg.startswith("-"):
                command = arg
                if command != "link":
                    return args
        elif arg.startswith("-") and arg.split("=", 1)[0] not in LINK_OPTIONS:
            return [*args[:n], "--", *args[n:]]
    return args


def main(argv: Sequence[str] | None = None) -> int:
    top = parser()
    args = top.parse_args(with_key_kept(sys.argv[1:] if argv is None else argv))
    if args.command is None:
        top.print_help()
        return 2
    # --server, else the server a link given names, else $PATIENCE_SERVER, else the local one
    flag, link = getattr(args, "server", None), linked(args)
    args.server = pick_server(flag or link)
    if args.command != "rules" and not_a_server(args.server):  # (rules asks no server)
        from .lines import aside  # (rich: only to refuse, wrapped between words)

        given = flag or link or os.environ.get("PATIENCE_SERVER", "")
        whose = "--server" if flag else "the link" if link else "$PATIENCE_SERVER"
        aside(
            f"patience-race: {whose} {given!r} is not a ws:// or wss:// URL with a host: "
            "ws://HOST:PORT (a browser's http:// address of the server is taken too)"
        )
        return 2
    args.ascii = getattr(args, "ascii", False)
    # a replay's id, or its link (its server taken above): one that names none is refused
    # here, as a command line that is wrong ("xyz" of http://HOST/garbage/xyz was asked for)
    given = args.id if args.command == "replay" else None
    if args.command == "challenge" and args.replay is not None:
        given = args.replay
    found = None if given is None else replay_id(given)
    if given is not None and found is None:
        from .lines import aside  # (rich: only to refuse, wrapped between words)

        aside(f"patience-race: {not_a_replay(given)}")
        return 2
    if args.command == "replay":
        args.id = found
    elif args.command == "challenge" and args.replay is not None:
        args.replay = found
    name = args.command + (f" {args.race}" if args.command == "race" else "")
    missing = missing_packages()
    if missing:
        print(
            f"patience-race: the terminal client needs {' and '.join(missing)}, not installed"
            " here: pip install 'patience-race[client]' (in a checkout: pip install '.[client]')",
            file=sys.stderr,
        )
        return 1
    try:
        return command(name)(args)
    except TokenFileError as exc:  # (read where no command said it: a file never written over)
        from .lines import aside

        aside(f"patience-race: {exc.words()}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
