"""``patience-race name [NEW]``: the name you race under on a server, and a change of it
(``rename``: as often as the server allows, once in 30 days by default). The tokens file
keeps the name beside the token (:mod:`.config`), so a change is written there too; a
change made on another device is taken into it the next time this client signs in
(``session.connect``, ``TokenStore.keep_name``)."""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from .challenge import command
from .config import TokenStore, config_dir
from .lines import aside, kept
from .printing import _console, _print
from .queries import _fail, _signed_in
from .sanitize import clean


def cmd_name(args: argparse.Namespace) -> int:
    async def ask() -> dict[str, Any]:
        conn, welcome = await _signed_in(args.server)
        try:
            if args.name is None:
                return {"player": welcome.get("player") or {}}
            return await conn.request("rename", name=args.name)
        finally:
            await conn.close()

    try:
        reply = asyncio.run(ask())
    except Exception as exc:
        return _fail(args, exc)
    player = reply.get("player")
    name = clean(player.get("name", ""), 20) if isinstance(player, dict) else ""
    if not name:
        return _fail(args, ValueError("the server sent no name"))
    # (a file that cannot be written keeps the old name: said, and no more)
    unkept = TokenStore(config_dir()).keep_name(args.server, name)
    if args.name is None:
        change = kept(command(args.server, "name NEW"))
        line = f"You race as {name} on {args.server}. To change it: {change}"
    else:
        was = clean(reply.get("was", ""), 20)
        line = f"You race as {name} now" + (f" (was {was})." if was and was != name else ".")
    _print(_console(args), line, args.ascii)
    if unkept is not None:
        aside(f"patience-race: {unkept}")
    return 0
