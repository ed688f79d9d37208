"""A replay, shown as the server kept it: its header and its moves, stepped through, and
the board at each step where the server draws it.

The client knows no rules, so it cannot play the moves from the seed itself: a replay is
shown as what it is, the game, the player, the result, and the log of moves with their
times from the start, the current one highlighted. Undo entries take back the move before
them (the protocol's meaning of ``!undo``, no rule of any game), so the moves they took
back are marked. Where the replay's seed is public the server answers ``replay_view`` with
the view after any number of entries: the viewer keeps the views it has fetched
(:attr:`Stepper.views`) and draws the board of the current step beside the moves (above
them when the board is too wide), with the one renderer of the game screens. Pure:
:class:`Replay` checks a ``replay`` map, :class:`Stepper` is where the viewer is,
:func:`render_replay` draws the screen.

>>> r = Replay.from_message({"id": "ab12", "game": "gate", "seed": None, "kind": "daily",
...     "start_ms": 1000, "moves": [[1400, "b4>t3"], [2100, "deal"], [2500, "!undo"]],
...     "result": {"status": "resigned", "time_ms": 3000, "moves": 1, "home": 1,
...     "total": 52}, "player": "ann", "day": "2026-11-22"})
>>> [(e.number, e.text, e.undone) for e in r.entries]
[(1, 'b4>t3', False), (2, 'deal', True), (3, 'undo', False)]
>>> r.entries[2].note
'takes back 2'
>>> s = Stepper(r)
>>> s.step(2), s.at, s.step(5), s.at, s.step(-9), s.at
(True, 2, True, 3, True, 0)
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .commands import narrowed
from .lines import (
    Glyphs,
    HeadersWhole,
    fit,
    kept_parts,
    plural,
    race_time,
    side_by_side,
    split_line,
    status_words,
    to_ascii,
    wrap,
)
from .par import par_words
from .render import draw_board
from .replay_rows import listing
from .sanitize import clean
from .screen import FIELD_NAMES, LAYOUT_FIELDS, STANDARD_FIELDS

#: how log entries that are not moves read
ENTRY_WORDS = {"!undo": "undo", "!resign": "resign", "!timeout": "time up", "!hint": "hint"}
MIN_SPEED, MAX_SPEED = 0.25, 64.0
KEYS = "Enter/space next · b back · p play/pause · + - speed · g G start/end · q quit"
#: the keys of a replay the viewer may race (its ghost: ``patience-race challenge --replay``)
RACE_KEYS = "Enter/space next · b back · p play · + - speed · g G ends · r race this · q quit"
#: shorter words for a keys line wider than the screen (60 columns: both lost "q quit"),
#: tried in turn until it fits, as the game's keys are (:func:`.commands.narrowed`): the
#: same in fewer words, then, beside r, the ends (g and G still work)
NARROWER = (
    ("Enter/space next", "space next"),
    ("p play/pause", "p play"),
    ("g G start/end", "g G ends"),
    ("r race this", "r race"),
    (" · g G ends", ""),
)
#: the narrowest list of moves beside the board; fewer columns: the list goes under it
SIDE_MIN = 26
#: the most moves listed under a board (fewer where it needs the room)
UNDER_MIN = 5
#: the fewest moves listed under a board that needs the room
LIST_MIN = 3


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


@dataclass(frozen=True)
class Entry:
    number: int
    at_ms: int
    text: str
    #: a move taken back by a later undo
    undone: bool = False
    #: what the entry did, beyond its text ("takes back 12")
    note: str = ""


def _whose(msg: Mapping[str, Any]) -> str:
    """The name a replay was played under, and the name now where its player changed it.

    >>> _whose({"player": "ann", "player_now": "Annika"}), _whose({"player": "ann"})
    ('ann (now Annika)', 'ann')
    """
    then = clean(msg.get("player", ""), 20)
    now = clean(msg.get("player_now") or then, 20)
    return then if now == then else f"{then} (now {now})"


@dataclass
class Replay:
    rid: str
    rules: str
    seed: int | None
    kind: str
    start_ms: int
    entries: list[Entry]
    status: str
    time_ms: int | None
    moves: int
    home: int
    total: int
    player: str
    day: str = ""
    room: str = ""
    race: int = 0
    #: the game's name, from the games list
    name: str = ""
    #: the version of the game's rules it was played under (1 when the replay names none)
    rules_version: int = 1
    #: the player's name now (``player``: the name it was played under, and the name now
    #: beside it where they differ)
    player_now: str = ""
    #: a book line's par (its length), and whether it is proved the shortest
    par: int | None = None
    shortest: bool | None = None
    #: its cards come off in pairs (the games list's ``unit``): progress counts pairs
    pairs: bool = False
    #: the hints its player asked for
    hints: int = 0

    @classmethod
    def from_message(cls, msg: Mapping[str, Any], games: Mapping[str, str] | None = None) -> Replay:
        """A ``replay`` map, every field checked and cleaned; ``games`` names the rules."""
        start = _int(msg.get("start_ms"))
        raw = msg.get("moves")
        log: list[tuple[int, str]] = []
        for item in raw if isinstance(raw, list) else []:
            if isinstance(item, list | tuple) and len(item) == 2:
                log.append((_int(item[0]), clean(item[1], 32)))
        entries: list[Entry] = []
        standing: list[int] = []  # indexes of the moves on the board
        notes: dict[int, str] = {}
        undone: set[int] = set()
        for n, (_at, text) in enumerate(log):
            if text == "!undo" and standing:
                taken = standing.pop()
                undone.add(taken)
                notes[n] = f"takes back {taken + 1}"
            elif not text.startswith("!"):
                standing.append(n)
        for n, (at, text) in enumerate(log):
            entries.append(
                Entry(
                    number=n + 1,
                    at_ms=at - start,
                    text=ENTRY_WORDS.get(text, text),
                    undone=n in undone,
                    note=notes.get(n, ""),
                )
            )
        result = msg.get("result")
        result = result if isinstance(result, Mapping) else {}
        seed = msg.get("seed")
        time_ms = result.get("time_ms")
        return cls(
            rid=clean(msg.get("id", ""), 32),
            rules=clean(msg.get("game", ""), 32),
            seed=seed if isinstance(seed, int) and not isinstance(seed, bool) else None,
            kind=clean(msg.get("kind", ""), 16),
            start_ms=start,
            entries=entries,
            status=clean(result.get("status", ""), 16),
            time_ms=time_ms if isinstance(time_ms, int) and not isinstance(time_ms, bool) else None,
            moves=_int(result.get("moves")),
            home=_int(result.get("home")),
            total=_int(result.get("total")),
            player=_whose(msg),
            day=clean(msg.get("day") or "", 10),
            room=clean(msg.get("room") or "", 16),
            race=_int(msg.get("race")),
            name=(games or {}).get(clean(msg.get("game", ""), 32), ""),
            rules_version=max(1, _int(msg.get("rules_version"))),
            player_now=clean(msg.get("player_now") or msg.get("player", ""), 20),
            par=_int(msg.get("par")) if isinstance(msg.get("par"), int) else None,
            shortest=msg.get("shortest") if isinstance(msg.get("shortest"), bool) else None,
            hints=max(0, _int(result.get("hints"))),
        )

    def title(self) -> str:
        """The game and the version of its rules: ``The Gate, rules v2``."""
        return f"{self.name or self.rules}, rules v{self.rules_version}"

    def where(self) -> str:
        """Which game this was: ``race 1 of room STGJHS``, ``daily 2026-11-22``."""
        if self.kind == "race":
            return f"race {self.race} of room {self.room}"
        if self.kind == "daily":
            return f"daily {self.day}"
        if self.kind == "book" and self.par is not None:
            return f"the book line of {self.day}, {par_words(self.par, self.shortest)}"
        return self.kind

    def outcome(self) -> str:
        """``won in 3:25.0``, ``resigned at 0:12.0``."""
        took = race_time(self.time_ms)
        if self.status == "won":
            return f"won in {took}"
        said = status_words(self.status)  # (timeout: "time ran out at 0:30.0")
        return f"{said} at {took}" if took else said

    def summary(self, sep: str = " · ") -> str:
        parts = [
            self.where(),
            self.outcome(),
            plural(self.moves, "move"),
            f"{self.home // 2}/{self.total // 2} pairs off"
            if self.pairs
            else f"{self.home}/{self.total} home",
            *([plural(self.hints, "hint")] if self.hints else []),
            f"seed {self.seed}" if self.seed is not None else "no seed yet",
        ]
        return sep.join(parts)

    def started(self) -> str:
        if not self.start_ms:
            return ""
        when = datetime.datetime.fromtimestamp(self.start_ms / 1000, datetime.UTC)
        return when.strftime("%Y-%m-%d %H:%M:%S UTC")


@dataclass
class Stepper:
    """Where the viewer is: ``at`` entries shown (0: the deal, before any)."""

    replay: Replay
    at: int = 0
    playing: bool = False
    speed: float = 2.0
    message: str = ""
    tone: str = "info"
    version: int = field(default=0)
    #: the board is drawn (the server answers ``replay_view``); False: the moves only
    boards: bool = False
    #: the views fetched so far, by step
    views: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: ``r`` races this replay's ghost (offered where the viewer may: not their own game)
    raceable: bool = False

    def keep_view(self, step: int, view: Any) -> bool:
        """Keep a ``replay_view`` reply's view of ``step``; False if it is no view."""
        if not isinstance(view, Mapping) or not isinstance(view.get("piles"), list):
            return False
        self.views[step] = dict(view)
        self.version += 1
        return True

    def wanted(self) -> int | None:
        """The step whose view to fetch next: the current one, then the next few (ahead
        while playing, either side while paused); None when they are all kept."""
        if not self.boards:
            return None
        at = self.at
        around = [at + 1, at + 2, at + 3, at + 4] if self.playing else [at + 1, at - 1, at + 2]
        for step in [at, *around]:
            if 0 <= step <= self.last and step not in self.views:
                return step
        return None

    def view(self) -> tuple[dict[str, Any] | None, int | None]:
        """The view to draw and its step: the current step's, else (while it is fetched)
        the nearest kept one's; (None, None) when none is kept."""
        if self.at in self.views:
            return self.views[self.at], self.at
        if not self.views:
            return None, None
        near = min(self.views, key=lambda step: (abs(step - self.at), step))
        return self.views[near], near

    @property
    def last(self) -> int:
        return len(self.replay.entries)

    def step(self, by: int) -> bool:
        """Move ``by`` entries (negative: back); False when already at that end."""
        target = min(max(self.at + by, 0), self.last)
        if target == self.at:
            return False
        self.at = target
        if self.at == self.last:
            self.playing = False
        self.version += 1
        return True

    def toggle(self) -> None:
        if not self.playing and self.at == self.last:
            self.at = 0  # at the end: play from the deal again
        self.playing = not self.playing
        self.version += 1

    def faster(self, factor: float) -> None:
        self.speed = min(max(self.speed * factor, MIN_SPEED), MAX_SPEED)
        self.version += 1


def speed_text(speed: float) -> str:
    """Moves a second, as short as it goes.

    >>> speed_text(2.0), speed_text(0.5)
    ('2', '0.5')
    """
    return f"{speed:g}"


def _listing(stepper: Stepper, g: Glyphs, width: int, room: int) -> tuple[Text, list[Text]]:
    """The heading of the moves, and the moves around the current one (highlighted) in
    ``room`` lines, then a line for the end (:func:`.replay_rows.listing`)."""
    replay = stepper.replay
    end = replay.outcome() if stepper.at == stepper.last and stepper.last else ""
    return listing(replay.entries, stepper.at, g, width, room, end)


def _view_parts(view: Mapping[str, Any], g: Glyphs, pairs: bool = False) -> list[Text]:
    """The parts of the line over a board: cards home (pairs off, where they come off in
    pairs), moves, the game's own counters and how it ended, from a view."""
    home, total = _int(view.get("home")), _int(view.get("total"))
    parts = [f"pairs off {home // 2}/{total // 2}" if pairs else f"home {home}/{total}"]
    parts.append(f"moves {_int(view.get('moves'))}")
    for key, value in view.items():
        if key in STANDARD_FIELDS or key in LAYOUT_FIELDS or not isinstance(key, str):
            continue
        name = clean(FIELD_NAMES.get(key, key.replace("_", " ")), 24)
        if isinstance(value, bool):
            parts.append(f"{name}: {'yes' if value else 'no'}")
        elif value is not None:
            parts.append(f"{name} {clean(value, 16)}")
    out = [Text(part) for part in parts]
    status = clean(view.get("status") or "", 16)
    if status and status != "playing":
        out.append(Text(status.upper(), style="bold green" if status == "won" else "bold red"))
    return out


def view_line(view: Mapping[str, Any], g: Glyphs, pairs: bool = False) -> Text:
    """The line over a board, whole (:func:`_view_parts`)."""
    return Text(" ") + Text(g.sep).join(_view_parts(view, g, pairs))


def view_lines(view: Mapping[str, Any], g: Glyphs, width: int, pairs: bool = False) -> list[Text]:
    """The line over a board across the screen, as a game's own screen draws it (The
    Wedge's stage and where the Wedge is, beside a board 27 cells wide, were cut to
    ``sta…`` even at 120 columns), broken after a separator where it is wider than
    ``width``.

    >>> view = {"home": 1, "total": 52, "moves": 0, "stage": 1, "wedge": "14"}
    >>> [line.plain for line in view_lines(view, Glyphs(False), 80)]
    [' home 1/52 · moves 0 · stage 1 · the Wedge at 14']
    >>> [line.plain for line in view_lines(view, Glyphs(True), 40)]
    [' home 1/52 | moves 0 | stage 1 |', ' the Wedge at 14']
    """
    lines = [Text(" ")]
    parts = _view_parts(view, g, pairs)
    for n, part in enumerate(parts):
        piece = part + Text(g.sep.rstrip() if n < len(parts) - 1 else "")
        if lines[-1].plain.strip() and lines[-1].cell_len + 1 + piece.cell_len > width:
            lines.append(Text(" "))
        elif lines[-1].plain.strip():
            lines[-1].append(" ")
        lines[-1].append_text(piece)
    return [fit(line, width) for line in lines]


def _board_body(stepper: Stepper, g: Glyphs, width: int, room: int, ascii: bool) -> list[Text]:
    """The board of the current step beside the moves, or above them when it is too
    wide, with the line over it: ``room`` lines. That line stands over the board, beside
    the moves' heading, where it fits the board's width, else across the screen over
    both (:func:`view_lines`); while the step's view is fetched, a note takes its place."""
    view, step = stepper.view()
    board_lines: list[Text] = []
    if view is None:
        over, board_width, beside = [Text(" fetching the board…", style="dim")], 22, True
    else:
        over = view_lines(view, g, width, stepper.replay.pairs)
        board = draw_board(view, width, max(room - 1, 1), ascii=ascii)
        beside = len(over) == 1 and over[0].cell_len <= board.width
        if step != stepper.at:
            said = f"(the board of step {step}: fetching {stepper.at}…)"
            if not beside:
                over = [Text(" ") + line for line in wrap(said, width - 1, "dim", 2)]
            else:  # (in fewer words over a narrow board)
                short = f"(step {step}: fetching {stepper.at}…)"
                over = [Text(f" {said if len(said) < board.width else short}", style="dim")]
        if not beside:
            board = draw_board(view, width, max(room - len(over), 1), ascii=ascii)
        board_lines, board_width = board.lines, board.width
    side = width - board_width - 3
    if side >= SIDE_MIN:
        top, left = ([], [over[0], *board_lines]) if beside else (over, board_lines)
        heading, moves = _listing(stepper, g, side, room - len(top) - 2)
        left = [fit(line, board_width) for line in left]
        return [*top, *side_by_side(left, board_width, [heading, *moves])][:room]
    # too wide for a list beside it: the board above, the moves under it. The board has
    # what it needs first, the list at least LIST_MIN moves, up to UNDER_MIN and no more
    # than there are (at 60x20 a garden lost 8 of its 10 rows to the list's blank lines)
    at_end = bool(stepper.last) and stepper.at == stepper.last
    fixed = len(over) + 1 + at_end  # the line over the board, the list's heading, its end
    if view is not None:
        steps = len(stepper.replay.entries) + 1  # (the deal, then each entry)
        natural = len(draw_board(view, width, room, ascii=ascii).lines)
        rows = min(steps, UNDER_MIN, max(LIST_MIN, room - fixed - natural))
        board_lines = draw_board(view, width, max(room - fixed - rows, 1), ascii=ascii).lines
    top = [*over, *(fit(line, width) for line in board_lines)]
    heading, moves = _listing(stepper, g, width, max(room - len(top) - 1 - at_end, 1))
    if not at_end:
        moves = moves[:-1]  # (the end's line, blank before the end)
    return [*top, heading, *moves][:room]


def _steps_and_speed(stepper: Stepper, g: Glyphs, unit: str) -> Text:
    """The header's right: the step, whether it plays, and the speed in ``unit``.

    >>> stepper = Stepper(Replay.from_message({"moves": [[0, "deal"], [9, "deal"]]}))
    >>> stepper.at = 1
    >>> _steps_and_speed(stepper, Glyphs(True), "moves/s").plain
    'step 1 of 2 | paused | 2 moves/s '
    >>> stepper.playing = True
    >>> _steps_and_speed(stepper, Glyphs(False), "/s").plain
    'step 1 of 2 · playing 2/s '
    """
    # (steps: the log's entries, hints and undos too, not only the moves counted)
    right = Text(f"step {stepper.at} of {stepper.last}{g.sep}")
    speed = f"{speed_text(stepper.speed)}{' ' if unit[0].isalpha() else ''}{unit} "
    if stepper.playing:
        right.append(f"playing {speed}", style="bold")
    else:
        right.append(f"paused{g.sep}" if 0 < stepper.at < stepper.last else "")
        right.append(speed)
    return right


def render_replay(stepper: Stepper, width: int, height: int, *, ascii: bool = False) -> list[Text]:
    """The replay screen: a header, the summary, the board of the current step when
    :attr:`Stepper.boards` (beside the moves, or above them), the moves around the current
    one (the current one highlighted), the message and the keys. At most ``height``
    lines."""
    g = Glyphs(ascii)
    replay = stepper.replay
    width = max(width, 20)
    left = Text(" Replay", style="bold")
    left.append(f"{g.sep}{replay.title()}{g.sep}{replay.player}")
    short = Text(" Replay", style="bold")  # (the player's name before the rules' version)
    short.append(f"{g.sep}{replay.name or replay.rules}{g.sep}{replay.player}")
    # the speed p plays at, always: + and - change it (said only while playing, a tester
    # pressing + + saw nothing change); narrow, "2/s" before the player's name is cut
    right = _steps_and_speed(stepper, g, "moves/s")
    if width - right.cell_len - 1 < short.cell_len:
        right = _steps_and_speed(stepper, g, "/s")
    room = max(width - right.cell_len - 1, 10)
    left = fit(left if left.cell_len <= room else short, room)
    head = Text()
    head.append_text(left)
    head.append(" " * max(width - left.cell_len - right.cell_len, 1))
    head.append_text(right)
    head.stylize("reverse")
    # (on two lines at most, narrow: the second cut short if it must)
    summary = split_line(replay.summary(g.sep), width - 1, g.sep)
    summary = [summary[0], " ".join(summary[1:])] if len(summary) > 2 else summary
    top = [fit(head, width), *(fit(Text(" " + line), width) for line in summary)]
    bottom = [Text("")]
    if stepper.message:
        style = {"warn": "bold yellow", "error": "bold red", "good": "bold green"}
        bottom = wrap(stepper.message, width - 1, style.get(stepper.tone, ""), 2)
    keys = narrowed(RACE_KEYS if stepper.raceable else KEYS, width, NARROWER)
    bottom.append(fit(Text(keys.replace(" · ", g.sep), style="dim"), width))
    if stepper.boards:
        room = max(height - len(top) - len(bottom), 3)
        body = _board_body(stepper, g, width, room, ascii)
        body += [Text("")] * (room - len(body))
    else:
        heading, body = _listing(stepper, g, width, height - len(top) - len(bottom) - 3)
        top += [Text(""), heading]
    lines = [*top, *body, *bottom][:height]
    return [to_ascii(line) for line in lines] if ascii else lines


def replay_table(replay: Replay, ascii: bool = False) -> RenderableType:
    """The whole replay for a pipe or a file: the header, then every entry."""
    g = Glyphs(ascii)
    table = Table(box=g.box, show_edge=False, pad_edge=False)
    table.add_column("#", justify="right")
    table.add_column("time", justify="right")
    table.add_column("move")
    table.add_column("")
    for entry in replay.entries:
        note = " ".join(word for word in ("undone" if entry.undone else "", entry.note) if word)
        table.add_row(str(entry.number), race_time(entry.at_ms), entry.text, note)
    # (each value whole, the lines broken after a separator: printed to a pipe at 80
    # columns, "· seed " / "8469322028102417282")
    head = f"Replay {replay.rid}{g.sep}{replay.title()}{g.sep}{replay.player}"
    parts: Sequence[RenderableType] = [
        Text(kept_parts(head, g.sep), style="bold"),
        Text(kept_parts(replay.summary(g.sep), g.sep)),
        Text(f"started {replay.started()}") if replay.started() else Text(""),
        Text(""),
        HeadersWhole(table, first=(3, 2)),  # (the notes give first, then the moves)
    ]
    return Group(*parts)
