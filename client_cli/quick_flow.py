"""``patience-race quick GAME``: the quick race, before the screen.

:func:`begin` joins the game's queue (``quick``) and shows the wait at the plain prompt:
the player's rating and the window they are matched within, widening as they wait, and
when ghosts take over. Then either a room (``quick_matched``: the race's screen, counting
down, as a race room's) or ghosts (``quick_ghosts``: the challenge's screen, the ghosts
of a recorded race beside the board). Ctrl-C while waiting leaves the queue (closing the
connection does too). A ghost race still in play (``welcome.resume.quick``: the terminal
closed, or another took over, mid-race) is taken up again where it stands instead.

A dropped connection (a server restart, a network blip, a process killed) may have left
the queue: the wait says it dropped, and once the connection is back (any reconnection,
to any server process) says ``Reconnected.`` and asks ``quick`` again, the reply's
``since`` telling whether the queue kept the first wait's time; unless the ``welcome``'s
``resume`` shows the player was matched meanwhile (a room of the game counting down or
racing, or a ghost race of it), which is gone to instead. Signed out (another terminal
took over), or its token refused on signing in again, the wait stops.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from rich.text import Text

from .connection import RETRYING, SIGNED_OUT, Connection, LinkError, SignedOut
from .controller import Client, Left, now_ms
from .lines import to_ascii
from .model import GOOD, INFO
from .quick_words import (
    back_words,
    dropped_words,
    ghosts_words,
    matched_away_words,
    stopped_words,
    waiting_line,
)
from .sanitize import clean

#: the events the wait listens for (the ``room`` events: the matched room's first state)
WAIT_EVENTS = frozenset({"quick_waiting", "quick_matched", "quick_ghosts", "room"})
#: what the wait hears of the link itself, as events of its own (never the server's)
DROPPED, BACK = " dropped", " back"


AskGame = Callable[[Client], Awaitable[str]]


async def begin(
    game: str | None, client: Client, ask_game: AskGame, resume: Mapping[str, Any] | None = None
) -> bool:
    """Wait in the queue until a room or ghosts: True once the screen has something to
    show (the room counting down, or the ghosts' countdown). A ghost race in play
    (``resume``: ``welcome.resume.quick``) of the game asked for, or of any without one,
    is taken up again instead. After a reconnection the queue is joined again, or what
    the player was matched with meanwhile taken up; signed out, :class:`Left`."""
    model, conn = client.model, client.conn
    assert conn is not None
    if isinstance(resume, Mapping) and (game is None or resume.get("rules") == game.lower()):
        take_up(client, resume)
        return True
    rules = (game or await ask_game(client)).lower()
    name = model.game_name(rules)
    events: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    client.quick_watch = events.put_nowait
    unhook = _hook(conn, events.put_nowait)
    try:
        first = await _join(client, rules, name)  # (the first wait's start, once known)
        rooms: dict[str, dict[str, Any]] = {}
        down = False
        while True:
            event = await events.get()
            kind = event.get("type")
            if kind == DROPPED and not down:  # (said once: retries are not news)
                down = True
                _say(client, dropped_words(event.get("delay")))
            elif kind == BACK:
                down = False
                if _matched_away(client, event.get("resume"), rules):
                    return True
                since = await _join(client, rules, name, again=True, first=first)
                first = first if first is not None else since
            elif kind in ("signed_out", "link_error"):  # (no reconnection comes)
                _say(client, stopped_words(event))
                raise Left
            elif kind == "room":
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
        unhook()
        client.quick_watch = None


async def _join(
    client: Client, rules: str, name: str, *, again: bool = False, first: int | None = None
) -> int | None:
    """Ask ``quick`` and show the wait; its start (``since``), or None when the connection
    dropped before the reply (the reconnection asks again). ``again``: the queue joined
    again after a reconnection, said, and whether it kept the first wait (``first``: its
    start, if known)."""
    assert client.conn is not None
    try:
        reply = await client.conn.request("quick", game=rules)
    except SignedOut:
        raise
    except LinkError:
        return None
    since = reply.get("since")
    since = since if isinstance(since, int) and not isinstance(since, bool) else None
    if again:
        _say(client, back_words(since is not None and since == first))
    _say(client, waiting_line(reply, name, reply.get("now") or 0))
    return since


def _hook(conn: Connection, put: Callable[[dict[str, Any]], None]) -> Callable[[], None]:
    """The link's news (dropped, signed in again, signed out) heard by the wait too, as
    well as by the client; the function that unhooks it."""
    on_link, on_welcome = conn.on_link, conn.on_welcome

    def link(state: str, delay: float | None) -> None:
        on_link(state, delay)
        if state == RETRYING:
            put({"type": DROPPED, "delay": delay})
        elif state == SIGNED_OUT:
            put({"type": "signed_out"})

    def welcome(said: dict[str, Any]) -> None:
        on_welcome(said)
        put({"type": BACK, "resume": said.get("resume")})

    conn.on_link, conn.on_welcome = link, welcome

    def unhook() -> None:
        conn.on_link, conn.on_welcome = on_link, on_welcome

    return unhook


def _matched_away(client: Client, resume: Any, rules: str) -> bool:
    """What the player was matched with while the connection was down, as the
    reconnection's ``welcome.resume`` has it, taken up: a room of the game counting down
    or racing (its race game as it stands), or a ghost race. False: nothing (the wait
    goes on, the queue joined again)."""
    if not isinstance(resume, Mapping):
        return False
    model = client.model
    quick = resume.get("quick")
    if isinstance(quick, Mapping) and quick.get("rules") == rules:
        _say(client, matched_away_words(None))
        take_up(client, quick)
        return True
    room = resume.get("room")
    if not isinstance(room, Mapping) or room.get("game") != rules:
        return False
    state = room.get("state")
    if state not in ("countdown", "racing"):
        return False
    model.enter_room(room)
    race = resume.get("race")
    if isinstance(race, Mapping):
        model.apply_race_start(race)
    players = room.get("players") or []
    names = [clean(p.get("name", ""), 20) for p in players if isinstance(p, Mapping)]
    said = matched_away_words([n for n in names if n and n != model.me], state == "racing")
    _say(client, said)
    model.say(said, GOOD)
    return True


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
