"""``patience-race quick GAME``: the quick race, before the screen.

:func:`begin` joins the game's queue (``quick``) and shows the wait at the plain prompt:
the player's rating and the window they are matched within, widening as they wait, and
when ghosts take over. Then either a room (``quick_matched``: the race's screen, counting
down, as a race room's) or ghosts (``quick_ghosts``: the challenge's screen, the ghosts
of a recorded race beside the board). Ctrl-C while waiting leaves the queue (closing the
connection does too). A ghost race still in play (``welcome.resume.quick``: the terminal
closed, or another took over, mid-race) is taken up again where it stands instead.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from rich.text import Text

from .controller import Client, now_ms
from .lines import to_ascii
from .model import GOOD, INFO
from .quick_words import ghosts_words, waiting_line
from .sanitize import clean

#: the events the wait listens for (the ``room`` events: the matched room's first state)
WAIT_EVENTS = frozenset({"quick_waiting", "quick_matched", "quick_ghosts", "room"})


AskGame = Callable[[Client], Awaitable[str]]


async def begin(
    game: str | None, client: Client, ask_game: AskGame, resume: Mapping[str, Any] | None = None
) -> bool:
    """Wait in the queue until a room or ghosts: True once the screen has something to
    show (the room counting down, or the ghosts' countdown). A ghost race in play
    (``resume``: ``welcome.resume.quick``) of the game asked for, or of any without one,
    is taken up again instead."""
    model, conn = client.model, client.conn
    assert conn is not None
    if isinstance(resume, Mapping) and (game is None or resume.get("rules") == game.lower()):
        take_up(client, resume)
        return True
    rules = (game or await ask_game(client)).lower()
    name = model.game_name(rules)
    events: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    client.quick_watch = events.put_nowait
    try:
        reply = await conn.request("quick", game=rules)
        _say(client, waiting_line(reply, name, reply.get("now") or 0))
        rooms: dict[str, dict[str, Any]] = {}
        while True:
            event = await events.get()
            kind = event.get("type")
            if kind == "room":
                rooms[clean(event.get("code", ""), 16)] = event
            elif kind == "quick_waiting":
                _say(client, waiting_line(event, name, event.get("now") or 0))
            elif kind == "quick_matched":
                code = clean(event.get("code", ""), 16)
                players = [clean(p, 20) for p in event.get("players") or []]
                room = rooms.get(code) or {
                    "code": code,
                    "game": rules,
                    "state": "countdown",
                    "quick": True,
                    "start_at": event.get("start_at"),
                    "players": [{"name": p, "present": True} for p in players],
                }
                model.enter_room(room)
                others = [p for p in players if p != model.me]
                model.say(f"Matched with {', '.join(others)}: the race starts in a moment.", GOOD)
                return True
            elif kind == "quick_ghosts":
                _race_ghosts(client, event, rules)
                _say(client, ghosts_words(event))
                model.say(ghosts_words(event), INFO)
                return True
    finally:
        client.quick_watch = None


def _race_ghosts(client: Client, msg: Mapping[str, Any], rules: str) -> None:
    """The challenge's screen for a ghost race (``quick_ghosts``, or its resume)."""
    client.model.take_challenge(
        {
            "challenge": {"id": "", "player": "the ghosts", "game": rules},
            "game": msg.get("game"),
            "start_at": msg.get("start_at"),
            "ghosts": msg.get("ghosts"),
        },
        now_ms(),
    )


def take_up(client: Client, resume: Mapping[str, Any]) -> None:
    """A ghost race in play, taken up again (``welcome.resume.quick``): its countdown, or
    its game as it stands."""
    model = client.model
    _race_ghosts(client, resume, clean(resume.get("rules", ""), 32))
    started = resume.get("started")
    if isinstance(started, Mapping):
        model.apply_challenge_start(started, now_ms())
    model.say("Your quick race, as you left it.", INFO)


def _say(client: Client, text: str) -> None:
    line = Text(text)
    client.console.print(to_ascii(line) if client.model.ascii else line)
