"""The replay viewer: a replay stepped through full screen, with single keys.

The screen is :func:`client_cli.replay.render_replay` of a :class:`~client_cli.replay.Stepper`;
:class:`ReplayTui` moves the stepper on the keys, plays it at its speed, and fetches each
step's board from the server in the background where the replay's seed is public (and,
before the day's reset, for a daily's own player).
:func:`run_replay` sets it up for ``patience-race replay``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from prompt_toolkit.application import Application, get_app
from prompt_toolkit.formatted_text import ANSI
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent, merge_key_bindings
from prompt_toolkit.layout import HSplit, Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl

from .connection import Connection, LinkError, ServerError
from .lines import ansi
from .model import WARN
from .replay import Replay, Stepper, render_replay
from .stray_keys import mouse_guard


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
#: the viewer's exit code when the player asked to race the replay's ghost (``r``)
RACE_THIS = 64


class ReplayTui:
    """A replay, stepped through with single keys: Enter or space the next entry, b back,
    p play or pause at ``speed`` entries a second, + and - the speed, g and G the start and
    the end, q quits; where :attr:`Stepper.raceable`, r leaves to race its ghost
    (:data:`RACE_THIS`).

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

        @keys.add("c-z")
        def _suspend(event: KeyPressEvent) -> None:
            # to the shell, as the game's screen is (fg brings the viewer back, redrawn)
            event.app.suspend_to_background()

        @on("r")
        def _race(event: KeyPressEvent) -> None:
            if self.stepper.raceable:
                event.app.exit(result=RACE_THIS)

        body = Window(FormattedTextControl(self._text, show_cursor=False), wrap_lines=False)
        self.app: Application[int] = Application(
            layout=Layout(HSplit([body])),
            # (its mouse off, ESC [31m pasted still read as a mouse report: dropped)
            key_bindings=merge_key_bindings([mouse_guard(), keys]),
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
        # the message and tone the connection's warning took the place of: back once a
        # board comes again (the warning stayed through the steps after it)
        before: tuple[str, str] | None = None
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
                if before is None:
                    before = (stepper.message, stepper.tone)
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
                elif before is not None:
                    stepper.message, stepper.tone = before
                    before = None
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
    raceable: bool = False,
) -> int:
    """Step through a replay full screen, with the board of each step fetched over
    ``conn`` (where its seed is public, and for a daily's own player before the reset,
    who gets the boards they played without the seed); the exit code (:data:`RACE_THIS`:
    ``raceable``, and the player asked to race it)."""
    stepper = Stepper(replay, speed=speed, raceable=raceable)
    if conn is None:
        stepper.message = (
            f"The moves as the server kept them. Its page: {page_url(server, replay.rid)}"
        )
        return await ReplayTui(stepper, ascii, None).run()
    link = conn

    async def fetch(step: int) -> Any:
        reply = await link.request("replay_view", replay=replay.rid, step=step)
        return reply.get("view")

    stepper.boards = True
    if replay.seed is None:
        # (a server that keeps the boards from their player too refuses: the moves only)
        stepper.message = (
            "No seed: a daily replay before its day's reset, shown to its own player only, "
            "with the boards you played. The deal stays secret until 00:00 UTC."
        )
        stepper.tone = WARN
    else:
        stepper.message = (
            f"Each step's board as the server replays it. Its page: {page_url(server, replay.rid)}"
        )
    return await ReplayTui(stepper, ascii, fetch).run()
