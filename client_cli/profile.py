"""``patience-race profile [NAME]`` (or ``me``): a player's ratings at each game they
have raced a rated race at (``profile``; ``docs/ratings.md``), yours without NAME.

Pure: :func:`profile_view` turns a ``profile`` reply into rich renderables.

>>> from rich.console import Console
>>> from .printing import _print
>>> _print(Console(width=60, color_system=None), profile_view({"player": "ann", "ratings": [
...     {"game": "gate", "rating": 12, "races": 7, "mu": 21.2, "sigma": 3.1}]}, ascii=True,
...     games={"gate": "The Gate"}, server="ws://127.0.0.1:9480"), ascii=True)
ann's ratings
<BLANKLINE>
game     | rating | races |    mu | sigma
---------+--------+-------+-------+------
The Gate |     12 |     7 | 21.20 |  3.10
<BLANKLINE>
The rating shown is mu - 3 sigma, rounded. A game's racers
ranked (GAME: gate):
patience-race top rating/GAME --server ws://127.0.0.1:9480
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .challenge import command
from .config import TokenStore, config_dir
from .lines import Glyphs, HeadersWhole, kept
from .printing import _console, _print
from .queries import _anonymous, _fail, _me, _signed_in
from .sanitize import clean


def _number(value: Any) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def profile_view(
    reply: Mapping[str, Any],
    *,
    ascii: bool = False,
    games: Mapping[str, str] | None = None,
    me: str | None = None,
    server: str = "",
) -> RenderableType:
    """A ``profile`` reply: whose, and a table of their ratings, highest first, each
    game by its name (``games``: the games list's, id to name). ``me``: the player asking,
    whom the words call you (another's profile names its player: "rates you" there was
    told to the wrong person). ``server``: the command's, said in the command it names
    where it is not the default."""
    names = games or {}
    g = Glyphs(ascii)
    name = clean(reply.get("player", ""), 20)
    ratings = reply.get("ratings")
    rows = [r for r in ratings if isinstance(r, Mapping)] if isinstance(ratings, list) else []
    head = Text(f"{name}'s ratings", style="bold")
    if not rows:
        whom = "you" if me is not None and name.lower() == me.lower() else name
        said = f"No rated race yet: a race against people rates {whom}."
        return Group(head, Text(""), Text(said))
    table = Table(box=g.box, show_edge=False, pad_edge=False)
    table.add_column("game", no_wrap=True)
    for column in ("rating", "races", "mu", "sigma"):
        table.add_column(column, justify="right")
    for row in rows:
        rules = clean(row.get("game", ""), 32)
        table.add_row(
            names.get(rules) or rules,
            str(round(_number(row.get("rating")))),
            str(round(_number(row.get("races")))),
            f"{_number(row.get('mu')):.2f}",
            f"{_number(row.get('sigma')):.2f}",
        )
    ids = ", ".join(clean(row.get("game", ""), 32) for row in rows)
    board = kept(command(server, "top rating/GAME"))  # (one piece to copy)
    note = Text(
        f"The rating shown is mu - 3 sigma, rounded. A game's racers ranked (GAME: {ids}): {board}",
        style="dim",
    )
    # (a long game's name cut every figure's header: the name gives way)
    return Group(head, Text(""), HeadersWhole(table, first=(0,)), Text(""), note)


def cmd_profile(args: argparse.Namespace) -> int:
    async def ask() -> tuple[dict[str, Any], str | None]:
        name = getattr(args, "name", None)
        # (another's ratings are anyone's to see: without a token saved, ask unsigned)
        signed = not name or TokenStore(config_dir()).get(args.server) is not None
        conn, welcome = await (_signed_in(args.server) if signed else _anonymous(args.server))
        try:
            reply = await conn.request("profile", name=name)
        finally:
            await conn.close()
        listed = welcome.get("games")
        for game in listed if isinstance(listed, list) else []:
            if isinstance(game, Mapping):
                games[clean(game.get("id", ""), 32)] = clean(game.get("name", ""), 40)
        return reply, _me(args.server, welcome)  # (whose profile is the player's own)

    games: dict[str, str] = {}
    try:
        reply, me = asyncio.run(ask())
    except Exception as exc:
        return _fail(args, exc)
    shown = profile_view(reply, ascii=args.ascii, games=games, me=me, server=args.server)
    _print(_console(args), shown, args.ascii)
    return 0
