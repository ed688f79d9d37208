"""One player on every device, from the terminal: ``link`` shows a code to enter on
another device (a browser, another terminal), ``link CODE`` signs this terminal in as the
player whose code it is (its token saved as ``play`` saves one), ``devices`` lists the
player's devices and ``devices sign-out ID`` / ``--everywhere`` signs others out.

Like the other commands that ask and quit (``queries.py``), they sign in with the saved
token where they need the player: the player's connection elsewhere (a game in another
terminal, a browser tab) is told this terminal took over, as the server allows one
connection a player.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import time
from typing import Any

from rich import box
from rich.table import Table
from rich.text import Text

from .challenge import command, http_url
from .config import (
    Account,
    TokenFileError,
    TokenStore,
    Unwritable,
    config_dir,
    device_label,
    not_kept,
)
from .connection import Connection, ServerError
from .lines import HeadersWhole, as_int, aside, kept
from .printing import _console, _print
from .queries import _fail, _signed_in
from .sanitize import clean


def _clock(ms: int) -> str:
    """A server time as the browser's list of devices gives it: the date and the time, UTC
    (the table's title says so).

    >>> _clock(1_795_309_164_784), _clock(1_795_000_000_000)
    ('2026-11-22 00:59', '2026-11-18 11:06')
    """
    return time.strftime("%Y-%m-%d %H:%M", time.gmtime(ms / 1000))


def _lasting(made: dict[str, Any]) -> str:
    """How long a link code lasts, in words ("for 1 minutes" once, at a ``link_ttl`` of
    a minute).

    >>> _lasting({"ttl": 300}), _lasting({"ttl": 60}), _lasting({"ttl": 90}), _lasting({})
    ('5 minutes', '1 minute', '90 seconds', '1 minute')
    """
    seconds = as_int(made.get("ttl"))
    if 0 < seconds < 120 and seconds % 60:
        return f"{seconds} seconds"
    minutes = max(1, seconds // 60)
    return "1 minute" if minutes == 1 else f"{minutes} minutes"


def cmd_link(args: argparse.Namespace) -> int:
    if not args.code:
        return _show_code(args)
    # a code read out is typed as two words: "link K7QX 3MHD" (the server takes dashes
    # and spaces anywhere in it; a recovery key has neither)
    args.code = "".join(args.code)
    return _enter_code(args)


def _show_code(args: argparse.Namespace) -> int:
    async def fetch() -> dict[str, Any]:
        conn, _welcome = await _signed_in(args.server)
        try:
            return await conn.request("link_code")
        finally:
            await conn.close()

    try:
        made = asyncio.run(fetch())
    except Exception as exc:
        return _fail(args, exc)
    code = clean(made.get("code", ""), 9)
    lines = [
        Text.assemble("Your link code: ", (code, "bold"), f" (for {_lasting(made)}, once)"),
        (
            f"On your other device, sign in with it: in a browser, open "
            f"{http_url(args.server, '/play')} and, on the name form, 'Have a link code?'; "
            f"in a terminal, {kept(command(args.server, f'link {code}'))}"
        ),
        Text("Keep it to yourself: whoever enters it plays as you."),
    ]
    console = _console(args)
    for line in lines:
        _print(console, line, args.ascii)
    return 0


#: a browser's recovery key: the token it signs in with (192 random bits, URL-safe)
KEY_RE = re.compile(r"[A-Za-z0-9_-]{32}")
#: a link code as typed, its dashes and spaces taken out: 8 letters and digits (the
#: server's alphabet leaves out the look-alikes; it says so of a code not of it)
CODE_RE = re.compile(r"[A-Za-z0-9]{8}")


def not_a_code(code: str) -> bool:
    """Whether what was typed can be neither a link code (8 letters and digits, any case,
    dashes and spaces anywhere: the server checks its alphabet) nor a recovery key: a
    command line that is wrong, known before a server is asked.

    >>> not_a_code("k7qx 3mhd"), not_a_code("zzzz"), not_a_code(""), not_a_code("-" * 32)
    (False, True, True, False)
    """
    return KEY_RE.fullmatch(code) is None and CODE_RE.fullmatch(re.sub(r"[\s-]", "", code)) is None


def _enter_code(args: argparse.Namespace) -> int:
    code = args.code.strip()
    key = KEY_RE.fullmatch(code) is not None
    if not_a_code(code):  # (first: "would replace its token" was said of zzzz)
        aside(
            f"patience-race: {clean(code, 40)!r} is not a link code: 8 letters and digits "
            "like ABCD-EFGH, nor a recovery key (a browser's, 32 letters, digits, - and _)"
        )
        return 2
    store = TokenStore(config_dir())
    saved = store.get(args.server)
    if saved is not None and not args.replace:
        aside(
            f"patience-race: this terminal already plays as {clean(saved.name, 20)} on "
            f"{args.server}: linking would replace its token. If that player has another "
            "device, or you mean to leave them, add --replace"
        )
        return 1
    try:  # (before the code is spent: the token it gives would be lost)
        store.check_writable()
    except Unwritable as exc:
        aside(
            f"patience-race: {exc.words()}: the code is not used (it is good for its few "
            f"minutes). Make {exc.path.parent} writable (or free some space), or set "
            "XDG_CONFIG_HOME to a directory that is, and run this again."
        )
        return 1

    async def link() -> dict[str, Any]:
        if key:  # a browser's recovery key: its token, and the same device as it
            conn = Connection(args.server, token=code, side=True)
            welcome = await conn.open()
            await conn.close()
            return {"token": code, "player": welcome.get("player") or {}}
        conn = Connection(args.server)
        await conn.open()
        try:
            # (beside: the game of the device that made the code plays on undisturbed)
            return await conn.request("link", code=code, device=device_label(), side=True)
        finally:
            await conn.close()

    try:
        reply = asyncio.run(link())
    except ServerError as exc:
        if key and exc.code == "bad_token":  # (no saved token is at fault)
            aside(f"patience-race: that recovery key: {exc.message}")
            return 1
        return _fail(args, exc)
    except Exception as exc:
        return _fail(args, exc)
    token = reply.get("token")
    player = reply.get("player") or {}
    if not isinstance(token, str):
        aside("patience-race: the server sent no token")
        return 1
    name = clean(player.get("name", ""), 20)
    try:
        store.put(args.server, Account(name, token))
    except TokenFileError as exc:  # (it could be written a moment ago: filled since)
        aside(f"patience-race: {not_kept(args.server, name, token, exc, how='Linked')}")
        return 1
    line = (
        f"This terminal now plays as {name} on {args.server} ({device_label()}); "
        f"the token is kept in {store.path}. "
        f"Your devices: {kept(command(args.server, 'devices'))}"
    )
    _print(_console(args), line, args.ascii)
    return 0


def devices_table(listed: list[dict[str, Any]], ascii: bool = False) -> HeadersWhole:
    """A ``devices`` reply's devices: each one's id, label, when it was added and last
    seen (UTC), this one marked, and the one playing now if it is another."""
    table = Table(box=box.ASCII2 if ascii else box.SIMPLE_HEAD, pad_edge=False)
    ids = [clean(d.get("id", ""), 16) for d in listed]
    for column in ("id", "device", "added", "last seen", ""):
        # (an id is what sign-out takes: never cut; a label wraps on a narrow screen,
        # where it was cut to five letters)
        widest = max(map(len, ids), default=2) if column == "id" else None
        device = column == "device"
        table.add_column(column, no_wrap=not device, overflow="fold", min_width=widest)
    for d in listed:
        table.add_row(
            clean(d.get("id", ""), 16),
            clean(d.get("label", ""), 40),
            _clock(as_int(d.get("added")))[:10],  # (the day it was added is enough)
            _clock(as_int(d.get("seen"))),
            "this one" if d.get("this") else "playing now" if d.get("connected") else "",
        )
    return HeadersWhole(table, first=(1,))  # (the label gives way)


def cmd_devices(args: argparse.Namespace) -> int:
    if args.action is None and (args.id is not None or args.everywhere):
        aside("patience-race: devices sign-out ID, or devices sign-out --everywhere")
        return 2
    if args.action == "sign-out" and (args.id is None) == (not args.everywhere):
        aside("patience-race: devices sign-out ID, or devices sign-out --everywhere")
        return 2

    async def fetch() -> dict[str, Any]:
        conn, _welcome = await _signed_in(args.server)
        try:
            if args.action == "sign-out":
                fields = {"everywhere": True} if args.everywhere else {"device": args.id}
                reply = await conn.request("sign_out", **fields)
            else:
                reply = await conn.request("devices")
        finally:
            await conn.close()
        return reply

    try:
        reply = asyncio.run(fetch())
    except Exception as exc:
        return _fail(args, exc)
    listed = [d for d in reply.get("devices") or [] if isinstance(d, dict)]
    console = _console(args)
    if args.action == "sign-out":
        done = "Every other device signed out" if args.everywhere else f"Signed out {args.id}"
        _print(console, Text(f"{done}: its token no longer signs in."), args.ascii)
    title = f"Your devices on {args.server}: {len(listed)} (times in UTC)"
    _print(console, Text(title, style="bold"), args.ascii)
    _print(console, devices_table(listed, args.ascii), args.ascii)
    out = kept(command(args.server, "devices sign-out ID"))
    _print(console, f"Sign one out (or all but this one: --everywhere for ID): {out}", args.ascii)
    return 0
