"""The commands that show something and quit: ``games``, ``top`` (``--watch`` redraws the
board as it changes), ``follow``, ``unfollow``, ``challenges`` and ``replay`` (stepped
through full screen at a terminal, else printed as a table; ``r`` there races its ghost)
ask the server; ``rules`` reads the page shipped with the client, and asks nothing.

Each is a function from the parsed arguments to an exit code, registered in
:data:`client_cli.cli.COMMANDS`. They connect anonymously, or signed in with the saved
token where they need the player; what they print goes through ASCII with ``--ascii``
(:func:`asciify`). A server that cannot be reached, a refusal or a missing account is said
on stderr, with exit code 1.

The full-screen parts (prompt_toolkit, the game's controller and screens) are imported in
the functions that use them, not at the top: a one-shot command such as ``top`` starts in
half the time without them (``tests/client_cli/test_imports.py`` holds it so).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from . import challenge, pager, rules
from .board_watch import watch_board
from .boards import board_id, board_view, overview, pick_day
from .challenge import challenge_id, command, made_text, not_yet_lines
from .config import TokenFileError, TokenStore, config_dir
from .connection import Connection, ConnectionLost, ServerError, local_ms, too_long
from .lines import HeadersWhole, as_int, aside, kept
from .printing import _console, _print, asciify
from .sanitize import clean


async def _anonymous(server: str) -> tuple[Connection, dict[str, Any]]:
    conn = Connection(server)
    welcome = await conn.open()
    return conn, welcome


def _unreachable(server: str, exc: BaseException) -> int:
    if isinstance(exc, ConnectionLost) and str(exc) != "the connection dropped":
        # reached, and turned away with a reason (server full, too many connections)
        aside(f"patience-race: {server}: {clean(exc, 200)}; try again later")
        return 1
    aside(
        f"patience-race: cannot reach the race server at {server} ({clean(exc, 120)}). "
        "Is it running? (make run starts a local one; --server URL picks another)"
    )
    return 1


# -- commands ----------------------------------------------------------------------------


def games_table(games: list[Any], ascii: bool = False) -> HeadersWhole:
    """The games the server plays (its ``welcome``'s list): id, packs, name and summary."""
    # (no edge: it printed a first line of spaces, and a last)
    table = Table(box=box.ASCII2 if ascii else box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("game", no_wrap=True)
    table.add_column("packs", justify="right")
    # (headed, its name ended by a colon: without bold, names ran into what they are)
    table.add_column("name: what it is")
    for g in games:
        if isinstance(g, dict):
            about = Text(clean(g.get("name", ""), 40) + ":", style="bold")
            about.append(f" {clean(g.get('summary', ''), 200)}")
            table.add_row(clean(g.get("id", ""), 32), clean(g.get("packs", ""), 2), about)
    return HeadersWhole(table, first=(2,))  # (the summary gives way: it wraps)


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
    console = _console(args)
    _print(console, games_table(games, args.ascii), args.ascii)
    play = kept(command(args.server, "play GAME"))
    _print(console, f"Play one: {play}\nIts rules: {kept('patience-race rules GAME')}", args.ascii)
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    """A game's rules page, shipped with the client: no server is asked (it may be down,
    or not there yet), and a page taller than the terminal goes through the pager. No
    GAME: the games there are pages for."""
    if args.game is None:
        lines = ["The games' rules (no server needed):", ""]
        lines += [f"  {game:<18} {rules.title(game)}" for game in rules.games()]
        lines += ["", "A game's rules: patience-race rules GAME"]
        sys.stdout.write("\n".join(lines) + "\n")
        return 0
    try:
        text = rules.page(args.game.strip().lower())
    except rules.UnknownGame as exc:
        aside(f"patience-race: {exc}")
        return 2
    pager.show(asciify(text) if args.ascii else text)
    return 0


class NoAccount(Exception):
    """The command needs the player, and no token is saved for this server."""


class NoName(Exception):
    """A newcomer asked for a name gave none (the prompt said nothing was registered), or
    none could be registered (the prompt said why: a token file that cannot be written)."""


async def _signed_in(server: str, newcomer: bool = False) -> tuple[Connection, dict[str, Any]]:
    """A connection signed in with the saved token, beside the player's own (``side``): a
    game they are playing in another terminal or a browser goes on undisturbed.

    ``newcomer``: the command is one a first-time player may well type first (joining a
    group from a friend's link, the league): with no token saved, and a terminal to ask
    at, it asks for a name and registers, as ``play`` does, rather than refuse."""
    store = TokenStore(config_dir())
    account = store.get(server)
    if account is None and newcomer and sys.stdin.isatty() and sys.stdout.isatty():
        from .controller import Left  # (the prompt's modules: only when asking)
        from .session import register

        conn, welcome = await _anonymous(server)
        try:
            if await register(conn, Console(highlight=False, emoji=False), store) is None:
                raise NoName  # (why, said)
        except Left:
            await conn.close()
            raise NoName from None
        except BaseException:
            await conn.close()
            raise
        return conn, welcome
    if account is None:
        raise NoAccount
    conn = Connection(server, token=account.token, side=True)
    welcome = await conn.open()
    return conn, welcome


def _fail(args: argparse.Namespace, exc: BaseException) -> int:
    """Say why a command could not be done; its exit code."""
    if isinstance(exc, NoName):
        return 1  # (the prompt said so)
    if isinstance(exc, TokenFileError):
        aside(f"patience-race: {exc.words()}")
        return 1
    # (the commands said carry --server where it is not the default: pasted, they went
    # to the default server)
    play, link = kept(command(args.server, "play")), kept(command(args.server, "link CODE"))
    if isinstance(exc, NoAccount):
        aside(
            f"patience-race: this needs your name on {args.server}, and no token is saved "
            f"for it. To play as yourself, enter a link code from a device signed in: "
            f"{link}\nOr play once to register (or daily): {play}"
        )
        return 1
    if isinstance(exc, ServerError):
        message = exc.message
        if exc.code == "bad_token" and message.startswith("this device was signed out"):
            # the token is dead for good: forgotten, so that link CODE needs no --replace
            TokenStore(config_dir()).forget(args.server)
            message = f"{message.rstrip('.')}. To sign in again with a code: {link}"
        elif exc.code == "bad_token":
            account = TokenStore(config_dir()).get(args.server)
            message = (
                f"{args.server} does not know the saved token for "
                f"{account.name if account else '?'} (was its data reset?). Play once to "
                f"register again (or daily): {play}"
            )
        aside(f"patience-race: {message}")
        return 1
    return _unreachable(args.server, exc)


def _me(server: str, welcome: dict[str, Any]) -> str | None:
    """The player's name: signed in, the server's; else the saved account's, if any."""
    player = welcome.get("player")
    if isinstance(player, dict):
        return clean(player.get("name", ""), 20)
    account = TokenStore(config_dir()).get(server)
    return clean(account.name, 20) if account else None


def _no_day(text: str) -> str | None:
    """Why ``--day`` names no day, known before asking a server (``2026-13-45``: the
    server said "no day" and the command failed as a refusal would); None where it is
    one.

    >>> _no_day("2026-13-45"), _no_day("2026-11-21"), _no_day("yesterday")
    ("--day '2026-13-45': no such day (YYYY-MM-DD, or today, yesterday)", None, None)
    """
    try:
        pick_day(text, 0)
    except ValueError as exc:
        return str(exc)
    return None


def cmd_top(args: argparse.Namespace) -> int:
    signed = bool(args.around_me or args.friends)
    console = _console(args)
    wrong = _no_day(args.day) if args.day else None
    named = board_id(args.board, None) if args.board else None
    long = too_long("top", {"board": named}) if named else None
    if long is not None:  # (a command line that is wrong: never sent)
        wrong = long.message
    if wrong is not None:
        aside(f"patience-race: {wrong}")
        return 2

    async def fetch() -> int:
        conn, welcome = await (_signed_in(args.server) if signed else _anonymous(args.server))
        try:
            now = welcome.get("time")
            server_ms = now if isinstance(now, int) else None
            opened = time.monotonic()
            day = pick_day(args.day, server_ms or 0) if args.day else None
            board = board_id(args.board, day)
            me = _me(args.server, welcome)
            if board is None and not signed:
                return await show_overview(conn, welcome, day, me)
            fields: dict[str, Any] = {"limit": args.limit}
            if args.around_me:
                fields["around"] = True
            elif args.friends:
                fields["friends"] = True
            if board is None:
                # no BOARD: the server's pick, the board of the player's last daily
                page, board = await last_daily(conn, fields, day)
            else:
                page = await conn.request("top", board=board, **fields)
            fields["board"] = board

            def server_now() -> int | None:  # (the server's clock, by ours since the hello)
                if server_ms is None:
                    return None
                return server_ms + int((time.monotonic() - opened) * 1000)

            def view(page: dict[str, Any]) -> Any:
                return board_view(
                    page,
                    me=me,
                    around=args.around_me,
                    friends=args.friends,
                    server_ms=server_now(),
                    ascii=args.ascii,
                    picked=args.board is None,
                    server=args.server,
                )

            if not args.watch:
                _print(console, view(page), args.ascii)
                return 0
            return await watch_board(conn, page, fields, view, server_now, console, args.ascii)
        finally:
            await conn.close()

    async def last_daily(
        conn: Connection, fields: dict[str, Any], day: str | None
    ) -> tuple[dict[str, Any], str]:
        """The page of the player's last daily's board (of ``day``, if given: that game's
        board of that day) and its id."""
        try:
            page = await conn.request("top", **fields)
        except ServerError as exc:
            if exc.code == "bad_request":  # a server that always needs a board
                raise ValueError("--around-me and --friends need a BOARD (top GAME ...)") from None
            raise
        board = clean(page.get("board", ""), 64)
        parts = board.split("/")
        if day is not None and len(parts) == 3 and parts[0] == "daily" and parts[2] != day:
            board = f"daily/{parts[1]}/{day}"
            page = await conn.request("top", board=board, **fields)
        return page, board

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
        _print(console, overview(pages, me=me, ascii=args.ascii, server=args.server), args.ascii)
        return 0

    try:
        return asyncio.run(fetch())
    except KeyboardInterrupt:
        return 0
    except ValueError as exc:
        aside(f"patience-race: {exc}")
        return 2
    except Exception as exc:
        return _fail(args, exc)


def _names(reply: dict[str, Any]) -> list[str]:
    """Whom the player follows, from a ``following`` reply."""
    names = reply.get("names")
    return [clean(n, 20) for n in names] if isinstance(names, list) else []


def cmd_follow(args: argparse.Namespace, *, unfollow: bool = False) -> int:
    itself = False
    #: unfollow NAME of a player not followed: said (it answered only with whom one
    #: follows, as if NAME had been unfollowed)
    not_followed = False

    async def fetch() -> list[str]:
        nonlocal itself, not_followed
        conn, welcome = await _signed_in(args.server, newcomer=bool(args.name))
        try:
            me = _me(args.server, welcome) or ""
            if unfollow and args.name and args.name.strip().lower() != me.lower():
                # following yourself changes nothing, and answers with whom you follow
                before = _names(await conn.request("follow", name=me))
                not_followed = args.name.strip().lower() not in {n.lower() for n in before}
            kind = "unfollow" if unfollow else "follow"
            reply = await conn.request(kind, name=args.name or me)
        finally:
            await conn.close()
        if args.name and args.name.lower() == me.lower():
            aside("patience-race: that is you: follow another player")
            itself = True
        return _names(reply)

    try:
        names = asyncio.run(fetch())
    except Exception as exc:
        return _fail(args, exc)
    if names:
        friends = kept(command(args.server, "top GAME --friends"))
        line = f"You follow {', '.join(names)}. To compare you: {friends}"
    else:
        line = f"You follow nobody: {kept(command(args.server, 'follow NAME'))}"
    if not_followed:  # (NAME is a player: the server found them; nothing to undo)
        line = f"You did not follow {clean(args.name.strip(), 20)}. {line}"
    _print(_console(args), line, args.ascii)
    return 1 if itself else 0


def cmd_unfollow(args: argparse.Namespace) -> int:
    return cmd_follow(args, unfollow=True)


def cmd_challenges(args: argparse.Namespace) -> int:
    """The player's challenges, newest first, with the results not seen yet marked (the
    server marks them seen as it answers)."""

    async def fetch() -> list[Any]:
        conn, _welcome = await _signed_in(args.server)
        try:
            reply = await conn.request("challenges")
        finally:
            await conn.close()
        listed = reply.get("challenges")
        return listed if isinstance(listed, list) else []

    try:
        listed = asyncio.run(fetch())
    except Exception as exc:
        return _fail(args, exc)
    console = _console(args)
    if not listed:
        line = "You have made no challenge: c on a finished game's screen makes one."
        _print(console, Text(line), args.ascii)
        return 0
    new = sum(as_int(c.get("new")) for c in listed if isinstance(c, dict))
    head = f"Your challenges on {args.server}: {len(listed)}"
    head += f", {new} new result{'s' if new != 1 else ''}" if new else ""
    _print(console, Text(head, style="bold"), args.ascii)
    _print(console, challenge.listing(listed, args.ascii), args.ascii)
    more = f"A challenge's table, link and share line: {kept(command(args.server, 'challenge ID'))}"
    _print(console, more, args.ascii)
    return 0


def replay_refused(exc: ServerError, rid: str) -> str:
    """Why ``replay`` got no replay, in words as helpful as ``review``'s. The server says
    ``no_such_replay`` alike for an id of no game, of a game not over (one's own race game
    while the race goes on) and of one expired (a solo or practice game's is kept only a
    while): all are said. A book line has no player: before the reset it is nobody's.

    >>> print(replay_refused(ServerError("no_such_replay", "no replay 'ab'"), "ab"))
    ... # doctest: +NORMALIZE_WHITESPACE
    no replay 'ab' (or it has expired): a race's games have their replays once the race
    ends, any other game once it is over; a solo or practice game's is kept only a while
    >>> print(replay_refused(ServerError("not_public", "the book line is public after the "
    ...     "day's reset"), "book20261128gate"))
    the book line is public after the day's reset (00:00 UTC)
    """
    message = exc.message
    if exc.code == "no_such_replay":
        message += (
            " (or it has expired): a race's games have their replays once the race ends, "
            "any other game once it is over; a solo or practice game's is kept only a while"
        )
    elif exc.code == "not_public" and rid.startswith("book"):
        message += " (00:00 UTC)"
    elif exc.code == "not_public":
        message += " (00:00 UTC); until then only its player sees it, without its seed"
    return message


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
            # (a book line is nobody's before the reset: nobody to sign in as)
            if exc.code != "not_public" or rid.startswith("book"):
                raise
            if TokenStore(config_dir()).get(args.server) is None:
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
            aside(f"patience-race: {replay_refused(exc, rid)}")
            return 1
        except Exception as exc:
            return _fail(args, exc)
        from .replay import Replay, replay_table  # (its screen's parts: imported here)

        try:
            games = {
                clean(g.get("id", ""), 32): clean(g.get("name", ""), 40)
                for g in welcome.get("games") or []
                if isinstance(g, dict)
            }
            raw = reply.get("replay")
            replay = Replay.from_message(raw if isinstance(raw, dict) else {}, games)
            # (Nestor, Doubles and Quits: their progress counts pairs, as their games do)
            replay.pairs = any(
                isinstance(g, dict) and g.get("id") == replay.rules and g.get("unit") == "pairs"
                for g in welcome.get("games") or []
            )
            if not (sys.stdin.isatty() and sys.stdout.isatty()):
                _print(_console(args), replay_table(replay, args.ascii), args.ascii)
                return 0
            from .replay_tui import RACE_THIS, run_replay  # (full screen: imported here)

            account = TokenStore(config_dir()).get(args.server)
            mine = account is not None and account.name.lower() == replay.player_now.lower()
            code = await run_replay(
                replay,
                args.server,
                speed=args.speed,
                ascii=args.ascii,
                conn=conn,
                raceable=replay.kind != "book" and not mine,
            )
        finally:
            await conn.close()
        if code != RACE_THIS:
            return code
        # race this: the replay's challenge, signed in (registering on the first run)
        from .session import Plan, run

        store = TokenStore(config_dir())
        return await run(Plan("challenge", replay=rid), args.server, store, ascii=args.ascii)

    try:
        return asyncio.run(main())
    except KeyboardInterrupt:
        return 130


def show_challenge(args: argparse.Namespace) -> int:
    """``challenge ID`` without a terminal (a pipe, a script): the challenge and its
    table, printed as the terminal prints them before a race, and no race (it refused,
    "playing needs a terminal", even for one's own challenge, which is only shown)."""
    from .challenge_flow import show  # (the game screen's parts: imported here)
    from .controller import Client
    from .model import Model

    async def fetch() -> int:
        signed = TokenStore(config_dir()).get(args.server) is not None
        conn, welcome = await (_signed_in(args.server) if signed else _anonymous(args.server))
        try:
            reply = await conn.request("challenge_show", challenge=challenge_id(args.id))
        finally:
            await conn.close()
        model = Model(server=args.server, ascii=args.ascii, me=_me(args.server, welcome))
        now = welcome.get("time")
        if isinstance(now, int) and not isinstance(now, bool):
            model.offset_ms = now - local_ms()
        client = Client(model, _console(args))
        shown = show(client, reply)
        shown_id = clean(shown.get("id", ""), 32)
        if clean(shown.get("player", ""), 20).lower() == (model.me or "").lower():
            _print(client.console, made_text(args.server, shown), args.ascii)
        elif reply.get("closed"):  # (not open to this player yet: why, and the way on)
            lines = not_yet_lines(args.server, shown, reply["closed"])
            _print(client.console, "\n".join(lines), args.ascii)
            return 1
        elif not reply.get("taken"):
            again = kept(command(args.server, f"challenge {shown_id}"))
            _print(client.console, f"To race it, in a terminal: {again}", args.ascii)
        return 0

    try:
        return asyncio.run(fetch())
    except Exception as exc:
        return _fail(args, exc)
