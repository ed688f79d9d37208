"""The interactive client: a full-screen prompt_toolkit application around pure screens.

The screen above the input line is :func:`client_cli.screen.render_screen` of the model,
redrawn when the model changes and twice a second for the clock; the input line completes
moves from the server's legal ones with Tab. Typed lines are read by
:func:`client_cli.commands.interpret` and handled one at a time, in order; server events
update the model as they come. Everything runs on one asyncio loop: prompt_toolkit reads
the keyboard there, the connection reads the socket there.

:func:`run` is the whole session: connect, sign in (registering on the first run), do what
the command asked (a solo game, a room to create, join or watch), then the screen until
the player quits. :func:`run_replay` steps through a replay, with keys of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from prompt_toolkit import PromptSession
from prompt_toolkit.application import Application, get_app
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import CompleteEvent, Completer, Completion, WordCompleter
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import ANSI
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import Float, FloatContainer, HSplit, Layout, Window
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.layout.processors import BeforeInput
from rich.console import Console
from rich.text import Text

from .commands import completions, interpret
from .config import Account, TokenStore
from .connection import (
    DOWN,
    RETRYING,
    SIGNED_OUT,
    UP,
    Connection,
    LinkError,
    ServerError,
)
from .model import DAILY, ERROR, GOOD, INFO, PRACTICE, ROOM, SOLO, WARN, WATCH, Game, Model
from .replay import Replay, Stepper, render_replay
from .sanitize import clean
from .screen import ansi, render_screen


def now_ms() -> int:
    return int(time.time() * 1000)


@dataclass(frozen=True)
class Plan:
    """What the command asked for: ``play`` (``game``, ``seed``), ``daily`` (``game``),
    ``race-new`` (``game``, ``seed``, ``max_players``, ``time_limit``), ``race-join`` or
    ``race-watch`` (``code``)."""

    kind: str
    game: str | None = None
    seed: int | None = None
    code: str | None = None
    max_players: int | None = None
    time_limit: int | None = None

    @property
    def needs_player(self) -> bool:
        return self.kind != "race-watch"


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
        self._lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[Any]] = set()

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
        except LinkError as exc:
            self.model.say(f"{exc}: nothing was sent; wait for the reconnection", ERROR)
        return None

    # -- server events ---------------------------------------------------------------

    def on_event(self, event: dict[str, Any]) -> None:
        model = self.model
        kind = event.get("type")
        if kind == "room":
            before = model.room_state
            model.apply_room(event)
            after = model.room_state
            if after != before and after == "countdown" and model.screen == ROOM:
                model.say(f"Race {event.get('race')} is dealt: it starts in a moment", INFO)
            elif after == "closed":
                model.say("The room is closed.", INFO)
        elif kind == "race_start":
            model.apply_race_start(event)
            if model.screen == ROOM:
                model.say("Go!", GOOD)
        elif kind == "progress":
            model.apply_progress(event)
        elif kind == "results":
            model.apply_results(event)
            model.say(self._result_note(event), GOOD)
        elif kind == "daily_result":
            model.apply_daily_result(event)
        elif kind == "signed_out":
            model.link = "signed out"
            model.say("You signed in from another client: this one has stopped. q quits.", ERROR)
        elif kind == "link_error":
            model.say(f"cannot sign in again: {clean(event.get('message', ''), 200)}", ERROR)
        self.redraw()

    def _result_note(self, event: Mapping[str, Any]) -> str:
        results = event.get("results") or []
        for r in results:
            if isinstance(r, Mapping) and r.get("player") == self.model.me:
                return f"Race over: you came {r.get('rank')} of {len(results)}."
        return "Race over."

    def on_link(self, state: str, delay: float | None) -> None:
        model = self.model
        if state == RETRYING:
            model.link = f"reconnecting in {delay:g} s"
            model.changed()
        elif state == UP:
            model.link = ""
            if self.conn is not None:
                model.offset_ms = self.conn.offset_ms
            model.say("Reconnected.", GOOD)
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
        if model.screen == SOLO and same_game:
            model.game = Game.from_message(solo)  # type: ignore[arg-type]
        room = resume.get("room")
        if model.screen == ROOM and isinstance(room, Mapping):
            model.apply_room(room)
        race = resume.get("race")
        if model.screen == ROOM and isinstance(race, Mapping):
            model.apply_race_start(race)
        if model.screen == WATCH and model.room is not None:
            self.spawn(self._watch_again(clean(model.room.get("code", ""), 16)))
        model.changed()
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
        legal = game.legal if game is not None else []
        labels = game.labels if game is not None else frozenset()
        context = model.context()
        action = interpret(text, context, legal, labels)
        if context == "confirm":
            question, model.confirm = model.confirm, None
            model.say("", INFO)
            if action.kind == "yes" and question == "leave":
                await self.leave()
            elif action.kind == "yes" and question == "resign":
                await self.resign()
            return
        kind = action.kind
        if kind == "none":
            return
        if kind == "say":
            model.say(action.note, ERROR)
        elif kind == "help":
            model.help = True
            model.changed()
        elif kind == "quit":
            await self.quit()
        elif kind == "move" and action.arg:
            await self.move(action.arg)
        elif kind == "undo":
            await self.undo()
        elif kind == "resign":
            if model.screen == ROOM:
                model.confirm = "resign"
                model.say("Resign this race? Your game ends here; the race goes on.", ERROR)
            elif model.daily_kind == DAILY:
                model.confirm = "resign"
                model.say(
                    "Resign today's ranked attempt? It goes on the board as it stands.", ERROR
                )
            else:
                await self.resign()
        elif kind == "new" and model.daily_kind is not None:
            await self.daily(action.arg or (game.rules if game else None))
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

    async def move(self, move: str) -> None:
        model = self.model
        game = model.game
        assert game is not None
        reply = await self.call("move", move=move, game=game.gid)
        if reply is None:
            return
        model.apply_reply(reply, now_ms())
        model.say("", INFO)
        self._note_end()

    def _note_end(self) -> None:
        model = self.model
        game = model.game
        if game is None or not game.over:
            return
        view = game.view
        home = f"{view.get('home')}/{view.get('total')}"
        if model.screen == ROOM:
            verb = "won" if game.status == "won" else f"ended ({game.status})"
            model.say(f"Your game is {verb}, {home} home: waiting for the others.", GOOD)
        elif model.daily_kind == PRACTICE:
            model.say(f"Practice over ({game.status}, {home} home), not ranked. n: again.", WARN)
        elif model.result_shown:
            rank = (model.daily_result or {}).get("rank")
            model.say(f"Today's ranked attempt is over ({game.status}): rank {rank}.", GOOD)
        elif game.status == "won":
            model.say(f"You won! All {view.get('total')} cards home. n deals again.", GOOD)
        else:
            model.say(f"The game is {game.status}, {home} home. n deals again.", INFO)

    async def undo(self) -> None:
        model = self.model
        game = model.game
        assert game is not None
        reply = await self.call("undo", game=game.gid)
        if reply is not None:
            model.apply_reply(reply, now_ms())
            model.say(f"took back {clean(reply.get('move', ''), 32)}", INFO)

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
            self.model.say("which game? new GAME (patience-race games lists them)", ERROR)
            return False
        reply = await self.call("new_game", game=rules, seed=seed)
        if reply is None:
            return False
        self.model.set_solo(reply, now_ms())
        self.model.say("", INFO)
        return True

    async def daily(self, rules: str | None) -> bool:
        """Today's challenge of a game: the ranked attempt, or practice once it has ended."""
        if not rules:
            self.model.say("which game? new GAME (patience-race games lists them)", ERROR)
            return False
        reply = await self.call("daily", game=rules)
        if reply is None:
            return False
        self.model.set_daily(reply, now_ms())
        self.model.say(*daily_greeting(self.model))
        return True

    async def leave(self) -> None:
        """Leave the room (resigning a race game in play) and quit."""
        if self.model.me is not None and self.conn is not None and self.conn.connected:
            await self.call("room_leave")
        raise Quit(0)

    async def quit(self) -> None:
        model = self.model
        context = model.context()
        if model.link == "signed out":
            raise Quit(0)
        if model.screen == ROOM and context == "play":
            model.confirm = "leave"
            model.say("Leave the race? Your game will be resigned.", ERROR)
            return
        if model.screen == WATCH:
            raise Quit(0)  # closing the connection ends the watching
        if model.screen == ROOM:
            await self.leave()
        game = model.game
        result = model.daily_result
        if model.daily_kind == DAILY and game is not None and not game.over:
            self.farewell = (
                f"Your ranked attempt is kept on the server, and its clock runs on: "
                f"patience-race daily {game.rules} takes it up."
            )
        elif model.daily_kind == PRACTICE and game is not None and not game.over:
            self.farewell = (
                f"Your practice game is kept on the server: patience-race daily {game.rules} "
                "takes it up."
            )
        elif result and model.result_shown:
            self.farewell = f"Your result, to paste into a chat:\n\n{result['line']}\n"
        elif game is not None and not game.over:
            self.farewell = "Your game is kept on the server: patience-race play takes it up."
        ranked = (model.daily or {}).get("ranked_result") if model.daily_kind == PRACTICE else ""
        if ranked:
            more = f"Today's ranked result, to paste into a chat:\n\n{ranked}\n"
            self.farewell = f"{self.farewell}\n\n{more}" if self.farewell else more
        raise Quit(0)


class MoveCompleter(Completer):
    """Tab completes from the legal moves the server sent."""

    def __init__(self, model: Model) -> None:
        self.model = model

    def get_completions(self, document: Document, event: CompleteEvent) -> Iterator[Completion]:
        game = self.model.game
        legal = game.legal if game is not None else []
        text = document.text_before_cursor
        for word in completions(text, self.model.context(), legal):
            yield Completion(word, start_position=-len(text))


class Tui:
    """The full-screen application: the screen, the input line, the completion menu."""

    def __init__(self, client: Client) -> None:
        self.client = client
        model = client.model
        self._cache: tuple[Any, ANSI] | None = None
        self.buffer = Buffer(
            multiline=False,
            completer=MoveCompleter(model),
            complete_while_typing=False,
            history=InMemoryHistory(),
            accept_handler=self._accept,
        )
        keys = KeyBindings()

        @keys.add("c-c")
        @keys.add("c-d")
        def _quit(event: KeyPressEvent) -> None:
            client.spawn(self._run(client.quit()))

        @keys.add("escape", eager=True)
        def _escape(event: KeyPressEvent) -> None:
            if model.help or model.confirm:
                model.help = False
                model.confirm = None
                model.say("", INFO)
            self.buffer.reset()

        body = Window(FormattedTextControl(self._text, show_cursor=False), wrap_lines=False)
        line = Window(BufferControl(self.buffer, input_processors=[BeforeInput("> ")]), height=1)
        root = FloatContainer(
            HSplit([body, line]),
            floats=[Float(xcursor=True, ycursor=True, content=CompletionsMenu(max_height=8))],
        )
        self.app: Application[int] = Application(
            layout=Layout(root, focused_element=line),
            key_bindings=keys,
            full_screen=True,
            refresh_interval=0.5,
            mouse_support=False,
        )

    def _text(self) -> ANSI:
        size = get_app().output.get_size()
        now = now_ms()
        model = self.client.model
        key = (model.version, size.columns, size.rows, now // 250)
        if self._cache is None or self._cache[0] != key:
            lines = render_screen(model, size.columns, size.rows - 1, now)
            self._cache = (key, ANSI(ansi(lines, size.columns)))
        return self._cache[1]

    def _accept(self, buffer: Buffer) -> bool:
        self.client.spawn(self._run(self.client.handle(buffer.text)))
        return False

    async def _run(self, coro: Any) -> None:
        try:
            await coro
        except Quit as stop:
            if self.app.is_running:
                self.app.exit(result=stop.code)


# -- the session ---------------------------------------------------------------------


async def ask(question: str, words: list[str] | None = None) -> str:
    """A question at the plain prompt, before the full screen (EOF: an empty answer)."""
    session: PromptSession[str] = PromptSession()
    completer = WordCompleter(words) if words else None
    try:
        return (await session.prompt_async(question, completer=completer)).strip()
    except (EOFError, KeyboardInterrupt):
        return ""


async def register(conn: Connection, console: Console, store: TokenStore) -> str | None:
    """The first run on a server: choose a name, register, keep the token."""
    console.print(
        Text(
            f"Welcome to Patience Race on {conn.url}. Choose a name to race under: "
            "2 to 20 letters, digits, _ or -."
        )
    )
    while True:
        name = await ask("name: ")
        if not name:
            return None
        try:
            reply = await conn.request("register", name=name)
        except ServerError as exc:
            console.print(Text(exc.message, style="red"))
            continue
        player = reply.get("player") or {}
        token = reply.get("token")
        if not isinstance(token, str):
            console.print(Text("the server sent no token", style="red"))
            return None
        registered = clean(player.get("name", name), 20)
        store.put(conn.url, Account(registered, token))
        conn.token = token
        console.print(Text(f"Registered as {registered}; the token is kept in {store.path}."))
        return registered


async def connect(
    server: str, store: TokenStore, console: Console, client: Client, *, need_player: bool
) -> dict[str, Any] | None:
    """Connect and sign in (registering if needed): the welcome, or None."""
    # a watcher needs no name, and must not sign the player's racing client out
    account = store.get(server) if need_player else None
    conn = Connection(
        server,
        token=account.token if account else None,
        on_event=client.on_event,
        on_link=client.on_link,
        on_welcome=client.on_welcome,
    )
    client.conn = conn
    try:
        welcome = await conn.open()
    except ServerError as exc:
        if exc.code != "bad_token":
            console.print(Text(f"the server refused us: {exc.message}", style="red"))
            return None
        console.print(
            Text(
                f"{server} does not know the saved token for {account.name if account else '?'} "
                "(was its data reset?): register again.",
                style="yellow",
            )
        )
        store.forget(server)
        conn.token = None
        welcome = await conn.open()
    except (OSError, TimeoutError, Exception) as exc:  # refused, unreachable, not websocket
        console.print(
            Text(
                f"Cannot reach the race server at {server} ({clean(exc, 120)}). "
                "Is it running? (make run starts a local one; --server URL picks another)",
                style="red",
            )
        )
        return None
    client.model.set_games(welcome.get("games"))
    client.model.offset_ms = conn.offset_ms
    player = welcome.get("player")
    if isinstance(player, Mapping):
        client.model.me = clean(player.get("name", ""), 20)
    elif need_player:
        name = await register(conn, console, store)
        if name is None:
            return None
        client.model.me = name
        welcome = {**welcome, "resume": {}}
    return welcome


def daily_greeting(model: Model) -> tuple[str, str]:
    """The message a daily game opens with: practice says so; a ranked attempt says it
    counts, with the streaks."""
    daily = model.daily or {}
    if not daily.get("ranked"):
        note = daily.get("note") or "practice: this game is not ranked"
        return f"{note[:1].upper()}{note[1:]}.", WARN
    streak = daily.get("streak") or {}
    mine, every = streak.get("game") or {}, streak.get("all") or {}
    return (
        f"Today's deal, your one ranked attempt: its clock runs on the server until it ends. "
        f"Streak {mine.get('current', 0)} (best {mine.get('best', 0)}), any game "
        f"{every.get('current', 0)} (best {every.get('best', 0)}).",
        INFO,
    )


async def _ask_game(client: Client) -> str | None:
    """Ask which game, at the plain prompt (Tab completes the ids)."""
    model, console = client.model, client.console
    console.print(Text(f"Games: {', '.join(model.games)}"))
    while True:
        rules = await ask("which game? ", list(model.games))
        if not rules:
            return None
        if rules in model.games:
            return rules
        console.print(Text(f"no game {rules!r}", style="red"))


async def start(plan: Plan, client: Client, welcome: dict[str, Any]) -> bool:
    """Do what the command asked, before the screen opens. False: it could not be done
    (the reason printed)."""
    model, console = client.model, client.console
    assert client.conn is not None
    resume = welcome.get("resume") or {}
    room_resume = resume.get("room") if isinstance(resume.get("room"), Mapping) else None
    try:
        if plan.kind == "play":
            if plan.game is None:
                solo = resume.get("solo")
                if isinstance(solo, Mapping) and solo.get("status") == "playing":
                    model.set_solo(solo, now_ms())
                    model.say("Your game, as you left it.", INFO)
                else:
                    rules = await _ask_game(client)
                    if rules is None:
                        return False
                    reply = await client.conn.request("new_game", game=rules)
                    model.set_solo(reply, now_ms())
            else:
                reply = await client.conn.request("new_game", game=plan.game, seed=plan.seed)
                model.set_solo(reply, now_ms())
            if room_resume is not None and room_resume.get("state") in ("racing", "countdown"):
                code = clean(room_resume.get("code", ""), 16)
                model.say(f"You are in a race in room {code}: race join {code} goes back.", INFO)
        elif plan.kind == "daily":
            rules = plan.game
            solo = resume.get("solo")
            taken_up = (
                isinstance(solo, Mapping)
                and solo.get("status") == "playing"
                and solo.get("kind") in (DAILY, PRACTICE)
            )
            if rules is None and taken_up:
                assert isinstance(solo, Mapping)
                rules = clean(solo.get("rules", ""), 32)  # take the daily up
            if rules is None:
                rules = await _ask_game(client)
                if rules is None:
                    return False
            reply = await client.conn.request("daily", game=rules.lower())
            model.set_daily(reply, now_ms())
            model.say(*daily_greeting(model))
        elif plan.kind == "race-new":
            reply = await client.conn.request(
                "room_create",
                game=plan.game,
                seed=plan.seed,
                max_players=plan.max_players,
                time_limit=plan.time_limit,
            )
            model.enter_room(reply)
            model.say(f"Room {clean(reply.get('code', ''), 16)} is open: tell your friends.")
        elif plan.kind == "race-join":
            code = (plan.code or "").strip().upper()
            if room_resume is not None and room_resume.get("code") == code:
                model.enter_room(room_resume)
                race = resume.get("race")
                if isinstance(race, Mapping):
                    model.apply_race_start(race)
                model.say(f"Back in room {code}.", INFO)
            else:
                model.enter_room(await client.conn.request("room_join", code=code))
        elif plan.kind == "race-watch":
            code = (plan.code or "").strip().upper()
            model.enter_room(await client.conn.request("room_watch", code=code), WATCH)
    except ServerError as exc:
        console.print(Text(exc.message, style="red"))
        if exc.code == "race_started" and plan.code:
            console.print(Text(f"Watch it instead: patience-race race watch {plan.code}"))
        return False
    except LinkError as exc:
        console.print(Text(f"the connection dropped: {exc}", style="red"))
        return False
    return True


async def run(plan: Plan, server: str, store: TokenStore, *, ascii: bool = False) -> int:
    """The whole interactive session; the exit code."""
    console = Console(highlight=False, emoji=False)
    model = Model(server=server, ascii=ascii)
    client = Client(model, console)
    welcome = await connect(server, store, console, client, need_player=plan.needs_player)
    if welcome is None:
        await _close(client)
        return 1
    if not await start(plan, client, welcome):
        await _close(client)
        return 1
    tui = Tui(client)
    client.tui = tui
    try:
        code = await tui.app.run_async()
    finally:
        await _close(client)
    if client.farewell:
        console.print(Text(client.farewell))
    return code or 0


async def _close(client: Client) -> None:
    if client.conn is not None:
        await client.conn.close()
    for task in list(client._tasks):
        task.cancel()
        with contextlib.suppress(BaseException):
            await task


# -- a replay ------------------------------------------------------------------------


def page_url(server: str, replay_id: str) -> str:
    """The replay's page on the server's HTTP side.

    >>> page_url("wss://race.example.org", "ab12")
    'https://race.example.org/replay/ab12'
    """
    scheme, _, rest = server.partition("://")
    return f"{'https' if scheme == 'wss' else 'http'}://{rest}/replay/{replay_id}"


#: the view of a replay after a number of its entries (a ``replay_view`` request)
FetchView = Callable[[int], Awaitable[Any]]

NO_BOARD = "No board: the server keeps this deal secret until the day's reset; the moves only."


class ReplayTui:
    """A replay, stepped through with single keys: Enter or space the next entry, b back,
    p play or pause at ``speed`` entries a second, + and - the speed, g and G the start and
    the end, q quits.

    With ``fetch`` (and :attr:`Stepper.boards`), a task fetches the view of the current
    step, then of the next few, one request at a time, while the keys go on moving the
    viewer: the screen draws the nearest view kept until the current one comes. A refusal
    turns the board off (the moves only)."""

    def __init__(self, stepper: Stepper, ascii: bool, fetch: FetchView | None = None) -> None:
        self.stepper = stepper
        self.ascii = ascii
        self.fetch = fetch
        self._player: asyncio.Task[None] | None = None
        self._fetcher: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        keys = KeyBindings()

        Handler = Callable[[KeyPressEvent], None]

        def on(*names: str) -> Callable[[Handler], Handler]:
            def add(handler: Handler) -> Handler:
                def handle(event: KeyPressEvent) -> None:
                    handler(event)
                    self._wake.set()  # the viewer may have moved: fetch its board

                for name in names:
                    keys.add(name)(handle)
                return handler

            return add

        @on("enter", "space", "right", "down", "n", "j")
        def _next(event: KeyPressEvent) -> None:
            self.stepper.playing = False
            self.stepper.step(1)

        @on("b", "left", "up", "backspace", "k")
        def _back(event: KeyPressEvent) -> None:
            self.stepper.playing = False
            self.stepper.step(-1)

        @on("pageup")
        def _page_up(event: KeyPressEvent) -> None:
            self.stepper.step(-10)

        @on("pagedown")
        def _page_down(event: KeyPressEvent) -> None:
            self.stepper.step(10)

        @on("g", "home")
        def _first(event: KeyPressEvent) -> None:
            self.stepper.playing = False
            self.stepper.step(-self.stepper.last)

        @on("G", "end")
        def _end(event: KeyPressEvent) -> None:
            self.stepper.step(self.stepper.last)

        @on("p")
        def _play(event: KeyPressEvent) -> None:
            self.stepper.toggle()
            if self.stepper.playing and (self._player is None or self._player.done()):
                self._player = asyncio.get_running_loop().create_task(self._play())

        @on("+", "=")
        def _faster(event: KeyPressEvent) -> None:
            self.stepper.faster(2)

        @on("-", "_")
        def _slower(event: KeyPressEvent) -> None:
            self.stepper.faster(0.5)

        @on("q", "Q", "escape", "c-c", "c-d")
        def _quit(event: KeyPressEvent) -> None:
            event.app.exit(result=0)

        body = Window(FormattedTextControl(self._text, show_cursor=False), wrap_lines=False)
        self.app: Application[int] = Application(
            layout=Layout(HSplit([body])),
            key_bindings=keys,
            full_screen=True,
            mouse_support=False,
        )

    def _text(self) -> ANSI:
        size = get_app().output.get_size()
        lines = render_replay(self.stepper, size.columns, size.rows, ascii=self.ascii)
        return ANSI(ansi(lines, size.columns))

    async def _play(self) -> None:
        while self.stepper.playing:
            await asyncio.sleep(1 / self.stepper.speed)
            if self.stepper.playing:
                self.stepper.step(1)
                self._wake.set()
                self.app.invalidate()

    async def _fetch_views(self) -> None:
        """Fetch the views the viewer wants, one at a time, until the board is off."""
        stepper, fetch = self.stepper, self.fetch
        assert fetch is not None
        while stepper.boards:
            step = stepper.wanted()
            if step is None:
                self._wake.clear()
                await self._wake.wait()
                continue
            try:
                view = await fetch(step)
            except ServerError as exc:
                stepper.boards = False
                stepper.message = (
                    NO_BOARD
                    if exc.code == "not_public"
                    else (f"No board: {exc.message}; the moves only.")
                )
                stepper.tone = WARN
            except LinkError as exc:  # wait for a key before trying again
                stepper.message = f"No board for now ({exc}): a key tries again."
                stepper.tone = WARN
                self._wake.clear()
                self.app.invalidate()
                await self._wake.wait()
                continue
            else:
                if not stepper.keep_view(step, view):
                    stepper.boards = False
                    stepper.message = "No board: the server sent no view; the moves only."
                    stepper.tone = WARN
            stepper.version += 1
            self.app.invalidate()

    async def run(self) -> int:
        if self.fetch is not None and self.stepper.boards:
            self._fetcher = asyncio.get_running_loop().create_task(self._fetch_views())
        try:
            return await self.app.run_async() or 0
        finally:
            for task in (self._player, self._fetcher):
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(BaseException):
                        await task


async def run_replay(
    replay: Replay,
    server: str,
    *,
    speed: float = 2.0,
    ascii: bool = False,
    conn: Connection | None = None,
) -> int:
    """Step through a replay full screen, with the board of each step fetched over
    ``conn`` when its seed is public; the exit code."""
    stepper = Stepper(replay, speed=speed)
    fetch: FetchView | None = None
    if replay.seed is None:
        stepper.message = (
            "No seed: a daily replay before its day's reset, shown to its own player only. "
            "The deal stays secret until 00:00 UTC."
        )
        stepper.tone = WARN
    elif conn is None:
        stepper.message = (
            f"The moves as the server kept them. Its page: {page_url(server, replay.rid)}"
        )
    else:
        stepper.boards = True
        stepper.message = (
            f"Each step's board as the server replays it. Its page: {page_url(server, replay.rid)}"
        )

        async def fetch(step: int) -> Any:
            reply = await conn.request("replay_view", replay=replay.rid, step=step)
            return reply.get("view")

    return await ReplayTui(stepper, ascii, fetch).run()
