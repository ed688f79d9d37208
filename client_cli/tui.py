"""The terminal UI of a game: a full-screen prompt_toolkit application around the pure
screens.

The screen above the input line is :func:`client_cli.screen.render_screen` of the model,
redrawn when the model changes and twice a second for the clock; the input line completes
moves from the server's legal ones with Tab (:meth:`Tui.complete`), and single keys act at
once: F1 help, F2 or ``+`` (on an empty line) home, F3 or ``?`` a hint, F4 the rules page,
which then pages with space, ``b``, the arrows and Page Up/Down, and closes with ``q`` or Esc;
in a lobby, ``r`` (ready) and ``s`` (start) on an empty line, after a race ``m`` (rematch),
``y`` to a question (leave? resign? a stuck game) and its ``n`` (as Esc), and ``q`` in a
solo game or a challenge likewise; in a room ``q`` waits for Enter.
Each typed line goes to the controller (:meth:`client_cli.controller.Client.handle`).
Everything runs on one asyncio loop: prompt_toolkit reads the keyboard there, the connection
reads the socket there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from prompt_toolkit.application import Application, get_app
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.document import Document
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import ANSI
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent, merge_key_bindings
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import HSplit, Layout, Window
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.processors import BeforeInput
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType

from .clicks import Hit, click, hit_at

if TYPE_CHECKING:  # a name for type checkers only
    from prompt_toolkit.key_binding.key_bindings import NotImplementedOrNone
from .challenge_screen import countdown_second as challenge_second
from .commands import common_start, completions, normalize
from .controller import Client, Quit, now_ms
from .lines import ansi
from .model import CHALLENGE, FINISHED, INFO, ROOM, SOLO, WATCH
from .results import results_page
from .room_screen import countdown_second, rings
from .screen import page_height, render_screen
from .stray_keys import mouse_guard


class ScreenControl(FormattedTextControl):
    """The screen above the input line, which hears the mouse: a click (the button let
    go) goes to :meth:`Tui.clicked` with its line and column."""

    def __init__(self, tui: Tui) -> None:
        super().__init__(tui._text, show_cursor=False)
        self.tui = tui

    def mouse_handler(self, mouse_event: MouseEvent) -> NotImplementedOrNone:
        if mouse_event.event_type == MouseEventType.MOUSE_UP:
            self.tui.clicked(mouse_event.position.y, mouse_event.position.x)
            return None
        return NotImplemented


class Tui:
    """The full-screen application: the screen and the input line, with single keys for
    what a player does most (home, hint, help, the rules page, paging through it) and Tab
    completing moves from the legal ones."""

    def __init__(self, client: Client) -> None:
        self.client = client
        model = client.model
        self._cache: tuple[Any, ANSI] | None = None
        #: Tab's choices and the one in the input line, while Tab cycles through them
        self._cycle: list[str] = []
        self._at = 0
        self._tabbing = False
        #: where the last screen drew its piles and legal moves, for the mouse
        self._hits: list[Hit] = []
        #: the countdown's last whole second drawn: the terminal rings as it changes
        self._second: int | None = None
        self.buffer = Buffer(
            multiline=False,
            history=InMemoryHistory(),
            accept_handler=self._accept,
            on_text_changed=self._typed,
        )
        keys = KeyBindings()
        paging = Condition(lambda: model.page is not None)
        empty_line = Condition(lambda: not self.buffer.text)
        playing = Condition(lambda: model.context() == "play" or model.confirm == "stuck")

        def send(line: str) -> None:
            client.spawn(self._run(client.handle(line)))

        @keys.add("c-c")
        @keys.add("c-d")
        def _quit(event: KeyPressEvent) -> None:
            client.spawn(self._run(client.quit()))

        # eager: over a page too (the review, the rules), whose keys take every other key
        # (it did nothing there, and fg's Enter, typed into the client, scrolled the page)
        @keys.add("c-z", eager=True)
        def _suspend(event: KeyPressEvent) -> None:
            # to the shell, as a terminal program is (fg brings it back, redrawn; a link
            # dropped meanwhile reconnects); where nothing can suspend it, nothing happens
            event.app.suspend_to_background()

        @keys.add("escape", eager=True)
        def _escape(event: KeyPressEvent) -> None:
            if model.picked is not None:
                model.picked = None
                model.say("", INFO)
            if model.page is not None:
                model.close_page()
            if model.help or model.confirm:
                model.help = False
                model.confirm = None
                model.say("", INFO)
            self.buffer.reset()
            if self._cycle or model.choices:  # (Tab's choices go with the line)
                self._cycle, model.choices = [], []
                model.changed()

        @keys.add("f1")
        def _help(event: KeyPressEvent) -> None:
            model.close_page()
            send("h")

        @keys.add("f2")
        @keys.add("+", filter=empty_line & playing & ~paging, eager=True)
        def _home(event: KeyPressEvent) -> None:
            send("home")

        @keys.add("f3")
        @keys.add("?", filter=empty_line & playing & ~paging, eager=True)
        def _hint(event: KeyPressEvent) -> None:
            send("hint")

        # the lobby has no move to type: its keys act at once, Enter or not
        lobby = Condition(lambda: model.context() == "lobby" and not model.help)

        @keys.add("r", filter=empty_line & lobby & ~paging, eager=True)
        def _ready(event: KeyPressEvent) -> None:
            send("r")

        @keys.add("s", filter=empty_line & lobby & ~paging, eager=True)
        def _start(event: KeyPressEvent) -> None:
            send("s")

        # after a race, m (the host's rematch) too, as the lobby's keys: it waited for Enter
        # under a key bar listing it as r is listed. q, which leaves the room and the
        # rematch with it, still waits for Enter
        finished = Condition(lambda: model.context() == "finished" and not model.help)

        @keys.add("m", filter=empty_line & finished & ~paging, eager=True)
        def _rematch(event: KeyPressEvent) -> None:
            send("m")

        # a race's results, racing or watching, as a page at the screen's width: where
        # the rows are too few for them (eight racers at 60x20), the replay ids and
        # ratings the screen leaves out
        results = Condition(
            lambda: (
                model.room_state == FINISHED
                and model.screen in (ROOM, WATCH)
                and not model.help
                and bool((model.room or {}).get("results"))
            )
        )

        @keys.add("pagedown", filter=results & ~paging, eager=True)
        def _results(event: KeyPressEvent) -> None:
            title, _ = results_page(model, 80)
            model.open_page(title, lambda w: results_page(model, w)[1].split("\n"))

        # a solo game's (a daily's) q quits at once, as the lobby's keys act: no move, pile or
        # word there starts with q; so does a challenge's, played with the same keys (a
        # quick race's against the ghosts, or alone, too), in its game, its countdown and
        # on its result, and a watcher's, who has no seat. In a room q waits for Enter:
        # leaving gives up a seat
        solo = Condition(
            lambda: (
                model.screen in (SOLO, CHALLENGE, WATCH) and not model.confirm and not model.help
            )
        )

        @keys.add("q", filter=empty_line & solo & ~paging, eager=True)
        def _quit_at_once(event: KeyPressEvent) -> None:
            send("q")

        # a question (leave? resign? a stuck game) takes its yes at once, as the lobby's keys
        asking = Condition(lambda: model.context() in ("confirm", "stuck") and not model.help)

        @keys.add("y", filter=empty_line & asking & ~paging, eager=True)
        def _yes(event: KeyPressEvent) -> None:
            send("y")

        # and its no, as Esc: typed into the line, n waited for Enter, and a "resign" typed
        # after it went with it as the no. (A stuck game's offer plays any other line
        # typed: n there is a line's first letter.)
        saying_no = Condition(lambda: model.context() == "confirm" and model.confirm != "stuck")

        @keys.add("n", filter=empty_line & asking & saying_no & ~paging, eager=True)
        def _no(event: KeyPressEvent) -> None:
            send("n")

        @keys.add("f4")
        def _rules(event: KeyPressEvent) -> None:
            if model.page is not None:
                model.close_page()
            else:
                client.rules_page()

        def page_step(event: KeyPressEvent) -> int:
            return page_height(event.app.output.get_size().rows - 1)

        @keys.add("space", filter=paging, eager=True)
        @keys.add("pagedown", filter=paging, eager=True)
        @keys.add("enter", filter=paging, eager=True)
        def _more(event: KeyPressEvent) -> None:
            height = page_step(event)
            model.scroll_page(height - 1, height)

        @keys.add("b", filter=paging, eager=True)
        @keys.add("pageup", filter=paging, eager=True)
        def _back(event: KeyPressEvent) -> None:
            height = page_step(event)
            model.scroll_page(1 - height, height)

        @keys.add("down", filter=paging, eager=True)
        @keys.add("j", filter=paging, eager=True)
        def _down(event: KeyPressEvent) -> None:
            model.scroll_page(1, page_step(event))

        @keys.add("up", filter=paging, eager=True)
        @keys.add("k", filter=paging, eager=True)
        def _up(event: KeyPressEvent) -> None:
            model.scroll_page(-1, page_step(event))

        @keys.add("q", filter=paging, eager=True)
        def _close(event: KeyPressEvent) -> None:
            model.close_page()

        @keys.add(Keys.Any, filter=paging, eager=True)
        def _swallow(event: KeyPressEvent) -> None:
            """While a page is shown, keys page it; nothing else is typed."""

        @keys.add("tab", filter=~paging)
        def _tab(event: KeyPressEvent) -> None:
            self.complete()

        body = Window(ScreenControl(self), wrap_lines=False)
        line = Window(BufferControl(self.buffer, input_processors=[BeforeInput("> ")]), height=1)
        self.app: Application[int] = Application(
            layout=Layout(HSplit([body, line]), focused_element=line),
            # (a pasted colour's code, ESC [31m, read as a mouse report: dropped)
            key_bindings=merge_key_bindings([mouse_guard(), keys]),
            full_screen=True,
            refresh_interval=0.25,
            # the mouse only while playing: elsewhere the terminal's own selection copies
            # (the daily's result line, a room's code)
            mouse_support=Condition(lambda: model.context() == "play"),
            before_render=self._ring,
        )

    def clicked(self, line: int, column: int) -> None:
        """A click on the screen: a move of the legal line plays it; a pile is picked, and
        the next click says where it goes (:func:`client_cli.clicks.click`)."""
        client, model = self.client, self.client.model
        game = model.game
        hit = hit_at(self._hits, line, column)
        if hit is None or game is None or model.context() != "play":
            return
        if hit.move:
            model.picked = None
            client.spawn(self._run(client.handle(hit.move)))
            return
        kinds = {s.label: s.kind for s in self._hits if s.label}
        action, model.picked = click(model.picked, hit.label, game.legal, kinds)
        if action.kind == "move" and action.arg:
            client.spawn(self._run(client.handle(action.arg)))
        else:
            model.say(action.note, INFO)

    def complete(self) -> None:
        """Tab: a unique completion goes into the line at once; several put their common
        beginning there and show under the board, and each Tab after that puts the next
        one in the line."""
        model = self.client.model
        text = self.buffer.text
        if self._cycle and text == self._cycle[self._at]:
            self._at = (self._at + 1) % len(self._cycle)
            self._put(self._cycle[self._at])
            return
        game = model.game
        legal = game.legal if game is not None else []
        context = "play" if model.confirm == "stuck" else model.context()
        can_undo = game is None or game.view.get("can_undo") is not False  # (as keys_line)
        # (as the keys line: no home in the pair games, no hint where hints are off)
        home = game is None or not game.pairs
        options = completions(text, context, legal, can_undo, home=home, hint=model.hints_allowed)
        self._cycle, self._at = [], 0
        if not options:
            model.choices = []
            model.say(f"nothing legal begins {text.strip()!r}" if text.strip() else "", INFO)
            return
        if len(options) == 1:
            model.choices = []
            self._put(options[0])
            model.changed()
            return
        prefix = common_start(options)
        model.choices = options
        model.changed()
        if len(prefix) > len(normalize(text)):
            self._put(prefix)
        else:
            self._cycle = options
            self._put(options[0])

    def _put(self, text: str) -> None:
        self._tabbing = True
        try:
            self.buffer.document = Document(text, len(text))
        finally:
            self._tabbing = False

    def _typed(self, buffer: Buffer) -> None:
        """Typing (not Tab) ends Tab's choices."""
        if not self._tabbing and (self._cycle or self.client.model.choices):
            self._cycle = []
            self.client.model.choices = []
            self.client.model.changed()

    def _ring(self, app: Application[int]) -> None:
        """The bell at each second of the countdown (3, 2, 1) and at the start, of a race
        or of a challenge."""
        model, now = self.client.model, now_ms()
        second = countdown_second(model, now)
        if second is None:
            second = challenge_second(model, now)
        if rings(self._second, second):
            app.output.bell()
        self._second = second

    def _text(self) -> ANSI:
        size = get_app().output.get_size()
        now = now_ms()
        model = self.client.model
        if model.passes_at is not None and now >= model.passes_at:
            model.say("")  # a message said in passing has gone
        key = (model.version, size.columns, size.rows, now // 250)
        if self._cache is None or self._cache[0] != key:
            hits: list[Hit] = []
            lines = render_screen(model, size.columns, size.rows - 1, now, hits)
            self._hits = hits
            self._cache = (key, ANSI(ansi(lines, size.columns)))
        return self._cache[1]

    def _accept(self, buffer: Buffer) -> bool:
        self._cycle = []
        self.client.model.choices = []
        self.client.spawn(self._run(self.client.handle(buffer.text)))
        return False

    async def _run(self, coro: Any) -> None:
        try:
            await coro
        except Quit as stop:
            if self.app.is_running:
                self.app.exit(result=stop.code)
