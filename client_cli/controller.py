"""What happens on a typed line and on a server event: the model, the connection and the
handling of both.

Typed lines are read by :func:`client_cli.commands.interpret` and handled one at a time,
in order (:meth:`Client.handle`); server events update the model as they come
(:meth:`Client.on_event`, :meth:`Client.on_link`, :meth:`Client.on_welcome`). A request
the server refuses shows as the message. :class:`Quit` leaves the session; the terminal
UI (:mod:`.tui`) redraws after each change. What is said as a game ends and the farewell
printed on leaving are worded in :mod:`.endings`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from rich.console import Console

from . import daily_flow
from .board_race import result_message
from .challenge import made_page, news_notice, verdict_line
from .connection import (
    DOWN,
    RETRYING,
    SIGNED_OUT,
    UP,
    Connection,
    LinkError,
    ServerError,
    SignedOut,
    local_ms,
)
from .endings import (
    end_note,
    farewell,
    leaving_question,
    left_room,
    question_kept,
    resign_question,
    result_note,
    stopped_farewell,
    with_made,
)
from .keys_line import understood
from .model import (
    CHALLENGE,
    ERROR,
    GOOD,
    INFO,
    ROOM,
    SOLO,
    WARN,
    WATCH,
    Model,
    stuck_note,
)
from .notices import PASSING_MS, progress_notice, room_notices, signed_out_notice
from .places import place_of
from .quick_words import result_message as quick_result
from .review import review_page
from .rules import UnknownGame, page, reflow
from .sanitize import clean

if TYPE_CHECKING:
    from .tui import Tui


def now_ms() -> int:
    return local_ms()


def link_words(exc: LinkError) -> str:
    """What a request that got no answer did, as far as this client can know: one that
    never went was not done; one that went may have been (the server applies a move
    before it answers, and the answer may be what was lost).

    >>> from .connection import ConnectionLost, NotConnected
    >>> link_words(NotConnected("not connected"))
    'not connected: nothing was sent; wait for the reconnection'
    >>> lost = ConnectionLost("the connection dropped")
    >>> print(link_words(lost))  # doctest: +NORMALIZE_WHITESPACE
    no answer (the connection dropped): it may have been done; once reconnected, the
    screen shows the game as it stands
    """
    if not exc.sent:
        return f"{exc}: nothing was sent; wait for the reconnection"
    return (
        f"no answer ({exc}): it may have been done; once reconnected, the screen shows "
        "the game as it stands"
    )


class Left(Exception):
    """The player chose to leave before the table (``q`` at a question): no error."""


class Quit(Exception):
    """Leave the session with this exit code."""

    def __init__(self, code: int = 0) -> None:
        self.code = code


class Client:
    """The model, the connection and the handling of typed lines and server events."""

    def __init__(self, model: Model, console: Console) -> None:
        self.model = model
        self.console = console
        self.conn: Connection | None = None
        self.tui: Tui | None = None
        self.farewell = ""
        #: the daily asked about (a ``daily`` confirmation), and the day it described
        self.daily_rules: str | None = None
        self.daily_asked: str | None = None
        #: practice of the daily races the board (``--no-ghosts``: not)
        self.ghosts = True
        self._lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[Any]] = set()
        #: hears every event while a quick race's wait is shown (``quick_flow.begin``)
        self.quick_watch: Callable[[dict[str, Any]], None] | None = None

    # -- plumbing --------------------------------------------------------------------

    def redraw(self) -> None:
        if self.tui is not None:
            self.tui.app.invalidate()

    def spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def call(self, kind: str, **fields: Any) -> dict[str, Any] | None:
        """A request whose refusal is shown as the message: the reply, or None."""
        assert self.conn is not None
        try:
            return await self.conn.request(kind, **fields)
        except ServerError as exc:
            self.model.say(exc.message, ERROR)
        except SignedOut:  # (for good: no reconnection comes)
            stopped = "Nothing was sent: this terminal has stopped (signed out); q quits."
            self.model.say(stopped, ERROR)
        except LinkError as exc:
            self.model.say(link_words(exc), ERROR)
        return None

    async def close(self) -> None:
        """Close the connection and end the tasks still running."""
        if self.conn is not None:
            await self.conn.close()
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task

    # -- server events ---------------------------------------------------------------

    def on_event(self, event: dict[str, Any]) -> None:
        model = self.model
        kind = event.get("type")
        if self.quick_watch is not None:
            self.quick_watch(event)
        if kind == "room":
            before, shown = model.room_state, model.room
            model.apply_room(event)
            after = model.room_state
            news = []
            if model.room is not None and model.room is not shown:
                news = room_notices(shown, model.room, model.me)
            if after != before and after == "countdown" and model.screen in (ROOM, WATCH):
                model.say(f"Race {event.get('race')} is dealt: it starts in a moment", INFO)
            elif after != before and after == "racing" and model.screen == WATCH:
                # (a watcher's line kept "bob is ready" through the countdown and the race)
                model.say(f"Race {event.get('race')} is on.", INFO)
            elif after == "closed":
                model.say("The room is closed.", INFO)
            elif news:
                model.say("; ".join(news), INFO)
        elif kind == "race_start":
            model.apply_race_start(event)
            if model.screen == ROOM:
                model.say("Go!", GOOD)
        elif kind == "progress":
            notice = progress_notice(model.room, event)
            model.apply_progress(event)
            if notice and event.get("player") != model.me:
                model.say(notice, INFO)
        elif kind == "results":
            model.apply_results(event)
            model.say(result_note(event, model.me), GOOD)
        elif kind == "daily_result":  # (the reset's timeout ends the game by itself)
            model.apply_daily_result(event, now_ms())
            if model.result_shown:
                self._note_end()
        elif kind == "ghosts_result":
            if model.apply_ghosts_result(event) and model.against_board is not None:
                model.say(result_message(event), GOOD)
        elif kind == "stuck":
            if model.apply_stuck(event) and model.game is not None:
                offer = model.confirm == "stuck" or (model.confirm is None and not model.help)
                if offer:  # offer to resign: y, or play on
                    model.ask("stuck", stuck_note(model.game, offer=True), WARN)
                else:
                    model.say(stuck_note(model.game, offer=False), WARN)
        elif kind == "challenge_start":
            model.apply_challenge_start(event, now_ms())
            if model.screen == CHALLENGE and model.game is not None:
                ghost = model.challenge.ghost_name if model.challenge else "the"
                model.say(f"Go! {ghost}'s ghost is off too.", GOOD)
        elif kind == "challenge_result":
            model.apply_challenge_result(event)
            race = model.challenge
            if model.screen == CHALLENGE and race is not None and race.result is not None:
                beat = (race.result.get("verdict") or {}).get("beat") is True
                unit = "pairs" if model.counts_pairs else "cards"
                line = verdict_line(race.result.get("verdict"), race.ghost_name, unit)
                model.say(line, GOOD if beat else WARN)
        elif kind == "quick_ghosts_start":
            model.apply_challenge_start(event, now_ms())
            if model.screen == CHALLENGE and model.game is not None:
                ghosts = model.challenge is not None and model.challenge.ghosts
                model.say("Go! The ghosts are off too." if ghosts else "Go!", GOOD)
        elif kind == "quick_ghosts_result":
            race = model.challenge
            if model.screen == CHALLENGE and race is not None and not race.cid:
                model.apply_challenge_result({**event, "challenge": race.shown, "quick": True})
                model.say(quick_result(event, model.unit), GOOD if place_of(event) == 1 else INFO)
        elif kind == "challenge_news":
            said = news_notice(event, model.games, model.pair_games, model.server)
            model.say(said, GOOD if not event.get("beat_you") else WARN)
        elif kind == "renamed":  # changed from another device: the name shown, and said
            name, was = (
                clean(str(n), 20)
                for n in ((event.get("player") or {}).get("name", ""), event.get("was", ""))
            )
            if name:
                model.me = name
                model.say(f"You race as {name} now (was {was}): changed on another device.", INFO)
        elif kind == "signed_out":
            model.link = "signed out"
            model.say(signed_out_notice(event), ERROR)
        elif kind == "link_error":
            model.say(f"cannot sign in again: {clean(event.get('message', ''), 200)}", ERROR)
        question_kept(model)  # (a question on leaving, in the words of the room now)
        self.redraw()

    def on_link(self, state: str, delay: float | None) -> None:
        model = self.model
        if state == RETRYING:
            model.link = f"reconnecting in {delay:g} s"
            model.changed()
        elif state == UP:
            model.link = ""
            if self.conn is not None:
                model.offset_ms = self.conn.offset_ms
            model.say("Reconnected.", GOOD, now_ms() + PASSING_MS)  # (not for minutes)
        elif state == SIGNED_OUT:
            model.link = "signed out"
            model.changed()
        elif state == DOWN:
            model.link = "disconnected"
            model.changed()
        self.redraw()

    def on_welcome(self, welcome: dict[str, Any]) -> None:
        """Signed in again after a reconnection: take up what the server kept."""
        model = self.model
        resume = welcome.get("resume")
        resume = resume if isinstance(resume, Mapping) else {}
        solo = resume.get("solo")
        game = model.game
        same_game = isinstance(solo, Mapping) and game is not None and solo.get("game") == game.gid
        if model.screen == SOLO and same_game:  # (ended while away: its clock stopped)
            daily_flow.taken_up(model, solo, now_ms())  # type: ignore[arg-type]
        room = resume.get("room")
        if model.screen == ROOM and isinstance(room, Mapping):
            model.apply_room(room)
        race = resume.get("race")
        if model.screen == ROOM and isinstance(race, Mapping):
            model.apply_race_start(race)
        if model.screen == WATCH and model.room is not None:
            self.spawn(self._watch_again(clean(model.room.get("code", ""), 16)))
        taken = resume.get("challenge")
        race = model.challenge
        quick = resume.get("quick")
        if race is not None and not race.cid and isinstance(quick, Mapping):
            taken = quick.get("started") or quick  # (a quick race's ghosts: no challenge id)
        if model.screen == CHALLENGE and race is not None and race.result is None:
            if isinstance(taken, Mapping) and isinstance(taken.get("view"), Mapping):
                model.apply_challenge_start(taken, now_ms())  # (started while away)
            elif not isinstance(taken, Mapping) and model.game is not None and race.cid:
                self.spawn(self._ended_away(race.cid))
        model.changed()
        self.redraw()

    async def _ended_away(self, cid: str) -> None:
        """The challenge's game ended while we were away, its result told to no one:
        the table instead (no verdict)."""
        reply = await self.call("challenge_show", challenge=cid)
        race = self.model.challenge
        if reply is not None and race is not None and race.result is None:
            self.model.apply_challenge_result(reply)
            if self.model.game is not None and self.model.game.status == "playing":
                self.model.game.status = "over"
            self.redraw()

    async def _watch_again(self, code: str) -> None:
        reply = await self.call("room_watch", code=code)
        if reply is not None:
            self.model.apply_room(reply)
            self.redraw()

    # -- typed lines -----------------------------------------------------------------

    async def handle(self, text: str) -> None:
        async with self._lock:
            try:
                await self._handle(text)
            finally:
                self.redraw()

    async def _handle(self, text: str) -> None:
        model = self.model
        if model.help:
            model.help = False
            model.changed()
            if not text.strip():
                return
        game = model.game
        context = model.context()
        action = understood(model, text, now_ms())
        if context == "confirm":
            question, model.confirm = model.confirm, None
            model.say("", INFO)
            if action.kind == "yes" and question == "leave":
                await self.leave()
            elif action.kind == "yes" and question in ("resign", "stuck"):
                await self.resign()
            elif question == "daily" and text.strip().lower() in ("", "y", "yes"):
                await daily_flow.daily(self, self.daily_rules, ask=False)
            elif question == "stuck" and text.strip():  # not a no: the line is played
                await self._handle(text)
            return
        kind = action.kind
        if kind == "none":
            return
        if kind == "say":
            model.say(action.note, ERROR)
        elif kind == "help":
            model.help = True
            model.changed()
        elif kind == "rules":
            self.rules_page()
        elif kind == "quit":
            await self.quit()
        elif kind == "move" and action.arg:
            await self.move(action.arg)
        elif kind == "undo":
            await self.undo()
        elif kind == "home" and game is not None and game.pairs:
            model.say("Nothing goes home here: pairs come off as you name them (4+8).", INFO)
        elif kind == "home":
            await self.home()
        elif kind == "hint" and not model.hints_allowed:
            model.say("This race room was made without hints.", ERROR)
        elif kind == "hint":
            await self.hint()
        elif kind == "resign":  # asked first, always: y resigns (endings.resign_question)
            model.ask("resign", resign_question(model), ERROR)
        elif kind == "new" and model.daily_kind is not None:
            await daily_flow.again(self, action.arg)  # (n: that day's deal, its day over)
        elif kind == "new":
            await self.new_game(action.arg or (game.rules if game else None))
        elif kind == "ready":
            players = (model.room or {}).get("players") or []
            me: dict[str, Any] = next((p for p in players if p.get("name") == model.me), {})
            reply = await self.call("ready", ready=not me.get("ready", False))
            if reply is not None:
                model.apply_room(reply)
                model.say("You are ready." if not me.get("ready") else "Not ready.", INFO)
        elif kind == "start":
            reply = await self.call("start")
            if reply is not None:
                model.apply_room(reply)
        elif kind == "rematch":
            reply = await self.call("rematch")
            if reply is not None:
                model.apply_room(reply)
        elif kind == "challenge":
            await self.make_challenge()
        elif kind == "review":
            await self.review()

    async def review(self) -> None:
        """Where the game on the table, now over, was lost (or how far over par it was
        won): the server's ``review``, as a page over the table (``client_cli/review.py``)."""
        model = self.model
        game = model.game
        if game is None or not game.over:
            model.say("no game of yours is over here to review", ERROR)
            return
        model.say("Reviewing the game: the server searches it (up to ten seconds)…", INFO)
        self.redraw()
        reply = await self.call("review", game=game.gid)
        if reply is None:
            return
        model.open_page(
            "Review", lambda w: review_page(reply, min(w - 4, 76), ascii=model.ascii).split("\n")
        )

    async def make_challenge(self) -> None:
        """Make the game on the table, now over, a challenge (``challenge_create`` with
        its id: a game's replay id is its id), and show its link, the command a friend
        types, and the share line, over the table."""
        model = self.model
        game = model.game
        if game is None or not game.over:
            model.say("no game of yours is over here to challenge a friend with", ERROR)
            return
        reply = await self.call("challenge_create", replay=game.gid)
        shown = reply.get("challenge") if reply is not None else None
        if not isinstance(shown, Mapping):
            return
        model.made = dict(shown)
        server = model.server
        model.open_page("Challenge a friend", lambda w: made_page(server, shown, w))
        model.say("Your challenge is made: send a friend the link.", GOOD)

    def rules_page(self) -> None:
        """The rules page of the game on the table (or the room's), over the table; the
        pages ship with the client, so this needs no server."""
        model = self.model
        rules = model.game.rules if model.game is not None else ""
        if not rules and model.room is not None:
            rules = clean(model.room.get("game", ""), 32)
        try:
            text = page(rules)
        except UnknownGame:
            model.say(f"no rules page for {rules or 'this screen'}", ERROR)
            return
        model.open_page(f"The rules of {model.game_name(rules)}", lambda w: reflow(text, w - 1))

    async def on_game(self, kind: str, **fields: Any) -> dict[str, Any] | None:
        """A request about the game on the table (its id added), refused as :meth:`call`
        shows it."""
        game = self.model.game
        assert game is not None
        return await self.call(kind, game=game.gid, **fields)

    async def move(self, move: str) -> None:
        model = self.model
        reply = await self.on_game("move", move=move)
        if reply is None:
            return
        model.apply_reply(reply, now_ms())
        model.say("", INFO)
        self._note_end()

    def _note_end(self) -> None:
        note = end_note(self.model)
        if note is not None:
            self.model.say(*note)

    async def home(self) -> None:
        """Every card that can go home, and again, until none can."""
        model = self.model
        reply = await self.on_game("home")
        if reply is None:
            return
        model.apply_reply(reply, now_ms())
        moves = reply.get("moves")
        moves = [clean(m, 32) for m in moves] if isinstance(moves, list) else []
        if moves:
            model.say(f"home: {' '.join(moves)}", INFO)
        else:
            model.say("no card can go home now", INFO)
        stopped = reply.get("error")
        if isinstance(stopped, Mapping):
            note = clean(stopped.get("message", ""), 200)
            model.say(f"home stopped after {len(moves)}: {note}", ERROR)
        self._note_end()

    async def undo(self) -> None:
        model = self.model
        game = model.game
        was_lost = game is not None and game.status == "lost"
        reply = await self.on_game("undo")
        if reply is not None:
            model.apply_reply(reply, now_ms())
            on = model.game is not None and not model.game.over
            again = ": the game is on again" if was_lost and on else ""
            model.say(f"took back {clean(reply.get('move', ''), 32)}{again}", INFO)

    async def hint(self) -> None:
        """Ask the server for a hint and show it (the server counts it in the game)."""
        model = self.model
        reply = await self.on_game("hint")
        if reply is None:
            return
        move = clean(reply.get("move") or "", 32)
        if not move:
            model.say("no hint: no move is legal", INFO)
            return
        reason = clean(reply.get("reason") or "", 160)
        count = reply.get("hints")
        used = f" · hints this game: {count}" if isinstance(count, int) else ""
        model.say(f"hint: {move}{f' ({reason})' if reason else ''}{used}", INFO)

    async def resign(self) -> None:
        model = self.model
        game = model.game
        if game is None:
            return
        reply = await self.call("resign", game=game.gid)
        if reply is not None:
            model.apply_resigned(reply, now_ms())
            self._note_end()

    async def new_game(self, rules: str | None, seed: int | None = None) -> bool:
        if not rules:
            self.model.say("which game? new GAME, a game's id; the ids: patience-race games", ERROR)
            return False
        reply = await self.call("new_game", game=rules, seed=seed)
        if reply is None:
            return False
        self.model.set_solo(reply, now_ms())
        self.model.say("", INFO)
        return True

    async def leave(self) -> None:
        """Leave the room (resigning a race game in play) and quit, saying what became of
        the race. Only the server's ``left`` makes it so: a leave it never heard (no
        connection, or the request failed) leaves the player in the room with their game
        going on, and the farewell says that, not that the game was resigned."""
        after, unheard = None, "not connected"
        if self.model.me is not None and self.conn is not None and self.conn.connected:
            try:
                reply = await self.conn.request("room_leave")
            except ServerError as exc:
                unheard = exc.message
            except LinkError as exc:
                unheard = str(exc)
            else:
                unheard = ""
                after = reply.get("state")
        self.farewell = left_room(
            self.model, after if isinstance(after, str) else None, unheard=unheard or None
        )
        self._tell_made()
        raise Quit(0)

    async def quit(self) -> None:
        model = self.model
        context = model.context()
        if model.link == "signed out":  # (said, as on leaving: what goes on, and where)
            self.farewell = stopped_farewell(model, self.farewell)
            raise Quit(0)
        asked = leaving_question(model) if context in ("play", "countdown") else None
        if asked is not None:  # (asked again in other words as the room changes)
            model.ask("leave", asked, ERROR)
            return
        if model.screen == WATCH:
            raise Quit(0)  # closing the connection ends the watching
        if model.screen == ROOM:
            await self.leave()
        self.farewell = farewell(model, self.farewell)
        raise Quit(0)

    def _tell_made(self) -> None:
        """The challenge made here, told again as we leave, in one piece to copy."""
        self.farewell = with_made(self.model, self.farewell)
