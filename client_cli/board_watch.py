"""``top BOARD --watch``: the board redrawn as it changes (the server's ``board_update``),
its countdown to the reset as it ticks, until Ctrl-C.

While the connection is down, the line under the board says so (``connection lost:
reconnecting in 2 s``), in place of ``watching: the board is redrawn as it changes``: it
went on saying that with its server killed (an outside tester). Once it is back, the
board is watched again (a reconnection does not bring watching back) and drawn anew.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from rich.console import Console, Group
from rich.text import Text

from . import pager
from .boards import next_words_s
from .connection import Connection, LinkError, ServerError
from .league_watch import link_words
from .printing import _render
from .sanitize import clean

#: the line under a board watched, while its connection is up
HINT = "watching: the board is redrawn as it changes · Ctrl-C stops"


def last_line(link: str) -> Text:
    """The line under the board: the connection's state while it is not up (``link``, as
    :func:`~client_cli.league_watch.link_words` has it), else the hint.

    >>> last_line("connection lost: reconnecting in 2 s").plain
    'connection lost: reconnecting in 2 s · Ctrl-C stops'
    >>> last_line("").plain == HINT
    True
    """
    if link:
        return Text(f"{link} · Ctrl-C stops", style="bold red")
    return Text(HINT, style="dim")


async def watch_board(
    conn: Connection,
    page: dict[str, Any],
    fields: dict[str, Any],
    view: Callable[[dict[str, Any]], Any],
    server_now: Callable[[], int | None],
    console: Console,
    ascii: bool,
) -> int:
    """Watch ``page``'s board over ``conn`` (``fields``: the ``top`` request's), drawn by
    ``view``, until Ctrl-C (raised as :class:`KeyboardInterrupt`)."""
    changes: asyncio.Queue[str] = asyncio.Queue()
    board = clean(page.get("board", ""), 64)
    link = [""]

    def on_event(event: dict[str, Any]) -> None:
        if event.get("type") == "board_update" and event.get("board") == board:
            changes.put_nowait("update")

    def on_link(state: str, delay: float | None) -> None:
        link[0] = link_words(state, delay)
        changes.put_nowait("link")

    conn.on_event = on_event
    conn.on_welcome = lambda welcome: changes.put_nowait("again")
    conn.on_link = on_link
    await conn.request("board_watch", board=board)

    def shown(page: dict[str, Any]) -> Any:  # (at the width now: the terminal's may change)
        return _render(Group(view(page), last_line(link[0])), ascii, console.width)

    with pager.Redrawn(console, shown, page) as live:
        while True:
            # the countdown to the reset drawn again as it reads otherwise, by our own
            # clock: it stood still until the board changed (a pipe takes a version as
            # the board changes, not each second)
            wake = next_words_s(page, server_now()) if console.is_terminal else None
            try:
                what = await asyncio.wait_for(changes.get(), wake)
            except TimeoutError:
                live.update(page)
                continue
            if what == "link":  # (the connection's state: said at once)
                live.update(page)
                continue
            try:
                if what == "again":  # reconnected: watching is not brought back
                    await conn.request("board_watch", board=board)
                page = await conn.request("top", **{**fields, "board": board})
            except (LinkError, ServerError):
                continue
            live.update(page)
