"""The terminal UI of a game: a full-screen prompt_toolkit application around the pure
screens.

The screen above the input line is :func:`client_cli.screen.render_screen` of the model,
redrawn when the model changes and twice a second for the clock; the input line completes
moves from the server's legal ones with Tab. Each typed line goes to the controller
(:meth:`client_cli.controller.Client.handle`). Everything runs on one asyncio loop:
prompt_toolkit reads the keyboard there, the connection reads the socket there.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from prompt_toolkit.application import Application, get_app
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import ANSI
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import Float, FloatContainer, HSplit, Layout, Window
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.layout.processors import BeforeInput

from .commands import completions
from .controller import Client, Quit, now_ms
from .lines import ansi
from .model import INFO, Model
from .screen import render_screen


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
