"""``patience-race group ...``: the player's groups, made, joined by a link, shown (who is
in it and online, its link, its members' challenges), left, and the owner's changes; and
a group's boards (``group top GROUP [BOARD]``, also ``top BOARD --group GROUP``; no
BOARD: :func:`default_board`).

A group is named by its id or its name (any case, among the player's groups); a link is
``http://HOST/g/ID?k=KEY`` as the browser shows it, or its path. Pure parts
(:func:`parse_link`, :func:`group_view`, :func:`groups_view`) are tested as text.

>>> parse_link("http://127.0.0.1:8765/g/k3v9xq2mab?k=Zm9vYmFyYmF6cXV4")
('k3v9xq2mab', 'Zm9vYmFyYmF6cXV4')
>>> parse_link("/g/k3v9xq2mab?k=Zm9v&x=1"), parse_link("k3v9xq2mab"), parse_link("/c/ab")
(('k3v9xq2mab', 'Zm9v'), None, None)
"""

from __future__ import annotations

import argparse
import asyncio
import re
import shlex
import time
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import parse_qs, urlsplit

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from . import pager
from .boards import board_id, board_view, pick_day, with_unit
from .challenge import command, http_url, result_words, unit_of
from .connection import Connection, LinkError, ServerError
from .fitted import fitted
from .league_watch import link_words
from .lines import Glyphs, HeadersWhole, as_int, aside, kept, race_time
from .printing import _console, _print
from .queries import _fail, _me, _signed_in, cmd_top
from .sanitize import clean


def parse_link(text: str) -> tuple[str, str] | None:
    """A group link's id and key, or None when ``text`` is no group link."""
    parts = urlsplit(text.strip())
    found = re.fullmatch(r"(?:.*/)?g/([A-Za-z0-9]+)/?", parts.path)
    keys = parse_qs(parts.query).get("k")
    if found is None or not keys:
        return None
    return found[1].lower(), keys[0]


def groups_view(reply: Mapping[str, Any], ascii: bool = False, server: str = "") -> RenderableType:
    """A ``groups`` reply: the player's groups; its commands with ``--server`` where
    ``server`` is not the default, each one piece to copy (:func:`~.lines.kept`)."""
    g = Glyphs(ascii)
    listed = [x for x in reply.get("groups") or [] if isinstance(x, Mapping)]
    if not listed:
        make, join = (kept(command(server, f"group {w}")) for w in ("new NAME", "join LINK"))
        # (each command last on its line: "...; join one: ..." after one ran as a second
        # command when it was copied whole)
        return Text(f"You are in no group. Make one: {make}\nJoin one: {join}")
    table = Table(box=g.box, show_edge=False, pad_edge=False)
    table.add_column("group", no_wrap=True, overflow="ellipsis", max_width=32)
    table.add_column("id", no_wrap=True)
    table.add_column("members", justify="right")
    table.add_column("")
    for x in listed:
        table.add_row(
            clean(x.get("name", ""), 32),
            clean(x.get("id", ""), 16),
            str(as_int(x.get("members"))),
            "yours" if x.get("owner") else "",
        )
    head = Text(f"Your groups ({len(listed)} of at most {as_int(reply.get('most'))})")
    show, top = (kept(command(server, f"group {w}")) for w in ("show GROUP", "top GROUP BOARD"))
    more = f"A group: {show}\nIts boards: {top}"
    # (a long group name cut "members" to nothing: the names give way)
    parts = (head, Text(""), HeadersWhole(table, first=(0,)), Text(""), Text(more, style="dim"))
    return Group(*parts)


def group_view(
    reply: Mapping[str, Any],
    server: str,
    ascii: bool = False,
    online_first: bool = False,
    keep: int | None = None,
) -> RenderableType:
    """A ``group`` reply: its name, link, members (online marked; ``online_first``: those
    online first) and, from ``group_show``, its members' challenges. ``keep``: the lines
    the members may take (a watch fitted to the screen: :func:`watch_screen`), the last of
    them saying how many are not shown."""
    g = Glyphs(ascii)
    group = reply.get("group")
    group = group if isinstance(group, Mapping) else {}
    members = [x for x in group.get("members") or [] if isinstance(x, Mapping)]
    listed = sorted(members, key=lambda x: not x.get("online")) if online_first else members
    left_out: list[Mapping[str, Any]] = []
    if keep is not None and keep < len(listed):
        listed, left_out = listed[: max(keep - 1, 0)], listed[max(keep - 1, 0) :]
    head = Text(clean(group.get("name", ""), 32), style="bold")
    count = "1 member" if len(members) == 1 else f"{len(members)} members"
    head.append(f"{g.sep}{count}{g.sep}{as_int(group.get('online'))} online")
    link = http_url(server, clean(group.get("link", ""), 80))
    parts: list[RenderableType] = [head, Text(f"Link to join: {link}"), Text("")]
    table = Table(box=g.box, show_edge=False, pad_edge=False)
    table.add_column("member", no_wrap=True)
    table.add_column("", no_wrap=True)
    for x in listed:
        what = ", ".join(
            w for w, on in (("owner", x.get("owner")), ("online", x.get("online"))) if on
        )
        name = Text(clean(x.get("name", ""), 20), style="bold" if x.get("you") else "")
        table.add_row(name, Text(what, style="green" if x.get("online") else "dim"))
    parts.append(HeadersWhole(table, first=(0,)))
    if left_out:
        online = sum(bool(x.get("online")) for x in left_out)
        more = f"and {len(left_out)} more"
        more += f", {online} of them online" if online else " offline"
        parts.append(Text(f"{more} (a taller terminal shows them)", style="dim"))
    challenges = [c for c in reply.get("challenges") or [] if isinstance(c, Mapping)]
    if challenges:
        # (a member's game's challenge, which anyone who raced its replay may have made)
        parts += [Text(""), Text("Members' challenges", style="bold")]
        for c in challenges:
            made = c.get("challenge")
            made = made if isinstance(made, Mapping) else {}
            # (its command one piece to copy: on a line of its own where it does not fit)
            race = kept(command(server, f"challenge {clean(made.get('id', ''), 32)}"))
            who = f"{clean(made.get('player', ''), 20)}: {clean(made.get('game_name', ''), 40)}"
            parts.append(Text(f"{who}{g.sep}{race}"))
            for entry in c.get("table") or []:
                if isinstance(entry, Mapping):
                    row = f"  {as_int(entry.get('rank'))}. {clean(entry.get('player', ''), 20)}"
                    row += " (ghost)" if entry.get("ghost") else ""  # (as the browser marks it)
                    # (in the challenge's unit: Nestor's counts pairs off, as its game does)
                    parts.append(Text(f"{row}  {result_words(entry, unit_of(made))}"))
    if group.get("owner"):
        parts += [
            Text(""),
            Text(
                f"You own it: {kept('group remove GROUP NAME')}, {kept('group delete GROUP')}"
                f"; a new link: {kept('group link GROUP')}",
                style="dim",
            ),
        ]
    return Group(*parts)


def watch_screen(
    reply: Mapping[str, Any],
    server: str,
    ascii: bool,
    last: Text,
    width: int,
    height: int | None,
) -> Text:
    """``group show GROUP --watch``'s screen: the group, its members online first, fitted
    to ``height`` lines (None: whole) with ``last`` (watching, or the connection's state)
    always its last line; a big group's members past the screen's foot are counted, not
    cut with the lines under them (:mod:`.fitted`)."""
    group = reply.get("group")
    members = group.get("members") if isinstance(group, Mapping) else None
    size = len(members) if isinstance(members, list) else 0

    def make(keep: int | None) -> RenderableType:
        return Group(group_view(reply, server, ascii, online_first=True, keep=keep), last)

    return fitted(make, size, ascii, width, height)


#: a group's id (the server's: ``server/app/domain/groups.py``)
GROUP_ID_RE = re.compile(r"[a-z0-9]{10}")


async def _group_of(
    conn: Connection, words: Sequence[str], name_words: int | None = None
) -> tuple[str, list[str]]:
    """The id of one of the player's groups named by the first of ``words`` (its id, or
    its name in any case, which may take several words: ``group top Friday Club gate``),
    and the words after it; else the first word as it is where it has an id's shape (the
    server says what is wrong with it). :class:`ValueError` for words that are neither,
    naming the first ``name_words`` of them where that many are known to be the group's
    (``top BOARD --group GROUP``: it said no group was called "GROUP BOARD")."""
    reply = await conn.request("groups")
    known = [x for x in reply.get("groups") or [] if isinstance(x, Mapping)]
    for n in range(len(words), 0, -1):  # the longest name first
        text = " ".join(words[:n]).strip().lower()
        by_id = [x for x in known if text == str(x.get("id", ""))]
        named = by_id or [x for x in known if text == str(x.get("name", "")).lower()]
        if len(named) > 1:  # (names need not be unique: never a guess, leave least of all)
            raise ValueError(shared_words(named))
        if named:
            return str(named[0].get("id")), list(words[n:])
    first = words[0].strip().lower()
    if GROUP_ID_RE.fullmatch(first):
        return first, list(words[1:])
    said = clean(" ".join(words[:name_words] if name_words else words), 60)
    raise ValueError(f"no group of yours is called {said!r}: patience-race group lists yours")


def shared_words(named: Sequence[Mapping[str, Any]]) -> str:
    """The refusal of a name that several of the player's groups answer to, each with its
    id and size, to give the id instead.

    >>> shared_words([{"id": "v2gzdv1urn", "name": "Probe Club", "members": 33},
    ...   {"id": "lr0ldy4ofb", "name": "probe club", "members": 1}])
    '2 of your groups are called Probe Club: give its id (v2gzdv1urn: 33 members, lr0ldy4ofb: 1 member)'
    """  # noqa: E501
    each = []
    for x in named:
        members = as_int(x.get("members"))
        each.append(f"{clean(x.get('id', ''), 16)}: {members} member{'' if members == 1 else 's'}")
    name = clean(named[0].get("name", ""), 32)
    return f"{len(named)} of your groups are called {name}: give its id ({', '.join(each)})"


def gone_words(gone: Mapping[str, Any], owner: bool = False) -> str:
    """Why a watched group is no longer the player's (a ``group_gone`` event); ``owner``:
    the player owned it (deleted elsewhere: "by its owner" was themselves).

    >>> gone_words({"name": "Owls", "why": "deleted"})
    'Owls was deleted by its owner.'
    >>> gone_words({"name": "Owls", "why": "deleted"}, owner=True)
    'You deleted Owls (on another connection).'
    >>> gone_words({"name": "Owls", "why": "not_member"})
    'You are no longer in Owls: its owner removed you, or you left it elsewhere.'
    """
    name = clean(gone.get("name") or "the group", 40)
    if gone.get("why") == "deleted":
        if owner:
            return f"You deleted {name} (on another connection)."
        return f"{name} was deleted by its owner."
    return f"You are no longer in {name}: its owner removed you, or you left it elsewhere."


def left_words(reply: Mapping[str, Any], name: str) -> str:
    """What leaving a group did, from ``group_leave``'s reply (its ``left``: whoever
    owns the group now, which the owner leaving has handed on), ``name`` the group's as
    read before.

    >>> left_words({"left": {"name": "Owls", "owner": "bob"}}, "owls")
    'You left Owls; bob owns it now.'
    >>> left_words({"left": {"name": "Owls", "owner": None}}, "Owls")
    'You left Owls; you were its last member, so it is gone.'
    >>> left_words({"groups": []}, "Owls")  # (a server that does not say)
    'You left Owls.'
    """
    left = reply.get("left")
    if not isinstance(left, Mapping):
        return f"You left {name}."
    name = clean(left.get("name") or name, 40)
    owner = left.get("owner")
    if owner is None:
        return f"You left {name}; you were its last member, so it is gone."
    return f"You left {name}; {clean(owner, 20)} owns it now."


def default_board(welcome: Mapping[str, Any]) -> str:
    """The board ``group top GROUP`` shows when none is named: the first game's week
    board, the group's own (every member plays the same daily deals, raced or not), as
    the browser's group screen shows first; ``races/week`` from a server listing no game.

    >>> default_board({"games": [{"id": "gate", "name": "The Gate"}, {"id": "nestor"}]})
    'week/gate'
    >>> default_board({})
    'races/week'
    """
    for game in welcome.get("games") or []:
        if isinstance(game, Mapping) and isinstance(game.get("id"), str):
            return f"week/{game['id']}"
    return "races/week"


def cmd_group(args: argparse.Namespace) -> int:
    console = _console(args)
    action = args.action or "list"
    words: Sequence[str] = args.words

    async def ask() -> tuple[RenderableType, str | None]:
        # (a friend's link, or a group of one's own: a newcomer's first command, maybe)
        conn, welcome = await _signed_in(args.server, newcomer=action in ("join", "new"))
        try:
            if action == "list":
                return groups_view(await conn.request("groups"), args.ascii, args.server), None
            if action == "new":
                reply = await conn.request("group_create", name=" ".join(words))
                return group_view(reply, args.server, args.ascii), None
            if action == "join":
                link = parse_link(words[0])
                if link is None:
                    return Text(""), f"{words[0]!r} is not a group link (/g/ID?k=KEY)"
                reply = await conn.request("group_join", group=link[0], key=link[1])
                return group_view(reply, args.server, args.ascii), None
            gid, rest = await _group_of(conn, words, getattr(args, "group_words", None))
            if action == "show" and args.watch:
                await watch(conn, gid)  # (until Ctrl-C, or the group is no longer theirs)
                return Group(), None
            if action == "show":
                reply = await conn.request("group_show", group=gid)
            elif action in ("leave", "delete"):
                # (its name first, for the line that says it is done)
                shown = (await conn.request("group_show", group=gid)).get("group") or {}
                name = clean(shown.get("name") or gid, 40)
                reply = await conn.request(f"group_{action}", group=gid)
                done = left_words(reply, name) if action == "leave" else f"You deleted {name}."
                listed = groups_view(reply, args.ascii, args.server)
                return Group(Text(done, style="bold"), listed), None
            elif action == "remove":
                if not rest:
                    return Text(""), "group remove GROUP NAME: whom to remove?"
                reply = await conn.request("group_remove", group=gid, name=rest[0])
            elif action == "link":
                reply = await conn.request("group_link", group=gid)
            else:  # top
                board = board_id(rest[0] if rest else default_board(welcome), None)
                page = await conn.request("group_board", group=gid, board=board)
                # (a server before group_board said its unit names none)
                page = with_unit(page, welcome.get("games"))
                me = _me(args.server, welcome)
                now = welcome.get("time")  # (today's daily replays: public after the reset)
                server_ms = now if isinstance(now, int) and not isinstance(now, bool) else None
                return group_board_view(page, me, args.ascii, server_ms, args.server), None
            return group_view(reply, args.server, args.ascii), None
        finally:
            await conn.close()

    async def watch(conn: Connection, gid: str) -> None:
        """The group, redrawn each time the server sends it again (who is online, who is
        in it), until Ctrl-C; its members' challenges as first shown."""
        came: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        watched = ("group", "group_gone")  # (gone: removed, or the group deleted)
        conn.on_event = lambda e: came.put_nowait(e) if e.get("type") in watched else None
        conn.on_welcome = lambda welcome: came.put_nowait(None)  # (reconnected)
        # (the connection's state, said in the watching line's place until it is back)
        conn.on_link = lambda state, delay: came.put_nowait({"link": link_words(state, delay)})
        hint = Text("watching: redrawn as members come and go · Ctrl-C stops", style="dim")
        link = [""]

        def shown(reply: Mapping[str, Any]) -> Any:
            last = Text(f"{link[0]} · Ctrl-C stops", style="bold red") if link[0] else hint
            # (fitted to the screen's height: a pipe takes every version whole)
            height = console.size.height if console.is_terminal else None
            return watch_screen(reply, args.server, args.ascii, last, console.width, height)

        first = await conn.request("group_show", group=gid, watch=True)
        challenges = first.get("challenges")
        with pager.Redrawn(console, shown, first) as live:
            while True:
                event = await came.get()
                if event is not None and "link" in event:
                    link[0] = str(event["link"])
                    live.update(live.data)
                    continue
                if event is not None and event.get("type") == "group_gone":
                    break
                try:  # (a reconnection: watching is not brought back)
                    event = event or await conn.request("group_show", group=gid, watch=True)
                except (LinkError, ServerError):
                    continue
                live.update({**event, "challenges": challenges})
        owned = bool((first.get("group") or {}).get("owner"))
        _print(console, Text(gone_words(event, owned), style="yellow"), args.ascii)

    if args.watch and action != "show":
        aside("patience-race: --watch goes with group show GROUP")
        return 2
    need = {"new": 1, "join": 1, "show": 1, "leave": 1, "delete": 1, "remove": 2, "link": 1}
    if len(words) < need.get(action, 1 if action == "top" else 0):
        what = {"new": "NAME", "join": "LINK", "remove": "GROUP NAME"}.get(action, "GROUP")
        more = " (GROUP: a group's id or name)" if action == "remove" else ""
        if what == "GROUP":
            more = ": a group's id or name (patience-race group lists yours)"
        aside(f"patience-race: group {action} needs {what}{more}")
        return 2
    try:
        shown, problem = asyncio.run(ask())
    except KeyboardInterrupt:
        return 0
    except ValueError as exc:  # a group named that is none of the player's: the server's
        aside(f"patience-race: {exc}")  # list said so, not the command line (1, not 2)
        return 1
    except Exception as exc:
        return _fail(args, exc)
    if problem is not None:
        aside(f"patience-race: {problem}")
        return 2
    _print(console, shown, args.ascii)
    return 0


def group_board_view(
    page: Mapping[str, Any],
    me: str | None,
    ascii: bool,
    server_ms: int | None = None,
    server: str = "",
) -> RenderableType:
    """A ``group_board`` reply: the board among the group's members (their place in the
    group, their rank on the whole board), or the group's week board; ``server_ms``, the
    server's clock, as :func:`~client_cli.boards.board_view` takes it."""
    name = clean(page.get("group_name", ""), 32)
    members = as_int(page.get("members"))
    about = Text(f"Among the {members} member{'' if members == 1 else 's'} of {name}", style="dim")
    if page.get("kind") == "week":
        title = Text(clean(page.get("title", ""), 80), style="bold")
        return Group(title, about, Text(""), week_table(page, me, ascii))
    view = board_view(page, me=me, ascii=ascii, friends=False, server_ms=server_ms, server=server)
    return Group(about, view)


def week_table(page: Mapping[str, Any], me: str | None, ascii: bool) -> RenderableType:
    """A group's week board: each member's dailies of the week won, played, and the
    total time of those won."""
    g = Glyphs(ascii)
    entries = [e for e in page.get("entries") or [] if isinstance(e, Mapping)]
    if not entries:
        return Text("No member has played this game's daily this week.")
    table = Table(box=g.box, show_edge=False, pad_edge=False)
    for column in ("#", "player", "won", "played", "time"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for e in entries:
        player = clean(e.get("player", ""), 20)
        mine = me is not None and player.lower() == me.lower()
        table.add_row(
            f"{g.me if mine else ''}{as_int(e.get('place'))}",
            Text(player, style="bold" if mine else ""),
            str(as_int(e.get("wins"))),
            str(as_int(e.get("played"))),
            race_time(as_int(e.get("time_ms"))) if as_int(e.get("wins")) else "",
        )
    return HeadersWhole(table, first=(1,))


def cmd_top_group(args: argparse.Namespace) -> int:
    """``top BOARD --group GROUP``: the board among a group's members (``top`` itself
    otherwise)."""
    if getattr(args, "group", None) is None:
        return cmd_top(args)
    refused = top_group_refusal(args)
    if refused is not None:
        aside(f"patience-race: {refused}")
        return 2
    # (no BOARD: the group's default board, cmd_group's pick). GROUP is the words after
    # --group, up to the next option: a BOARD after them is among them, and found there
    # as group top finds it after the group's name
    args.action, args.words = "top", [*args.group, *([args.board] if args.board else [])]
    args.group_words = len(args.group)  # (the group's, named alone in a refusal)
    return cmd_group(args)


def top_group_refusal(args: argparse.Namespace) -> str | None:
    """Why ``top BOARD --group GROUP`` does not take an option given with it (``--day``,
    ``--around-me``, ``--friends``, ``--watch``), and what to type instead; None where it
    takes them all. ``--day``'s board is named with its day, as ``group top`` takes it
    (``today`` and ``yesterday`` by this machine's clock, in UTC)."""
    group = shlex.quote(" ".join(args.group)) if args.group else "GROUP"
    board = args.board or "BOARD"
    among = command(args.server, f"group top {group} {board}")
    if args.day:
        try:
            day = pick_day(args.day, int(time.time() * 1000))
            named = board_id(board, day) if args.board else f"daily/GAME/{day}"
        except ValueError:  # (a day that is none, or a board with no days)
            named = f"daily/{args.board or 'GAME'}/YYYY-MM-DD"
        past = command(args.server, f"group top {group} {named}")
        return f"top --group takes no --day: for a past day's board type: {past}"
    for option, flag in (("--around-me", args.around_me), ("--friends", args.friends)):
        if flag:
            whole = command(args.server, f"top {board} {option}")
            # (each command last on its line: a bracket or a comma after one went with
            # the server's address when it was copied whole)
            return (
                f"top --group takes no {option}: the group's board lists its members with "
                f"their ranks on the whole board:\n  {among}\nOn the whole board:\n  {whole}"
            )
    if args.watch:
        whole = command(args.server, f"top {board} --watch")
        return (
            f"top --group takes no --watch: the group's board is shown once (again for "
            f"fresher):\n  {among}\nThe whole board watched:\n  {whole}"
        )
    return None
