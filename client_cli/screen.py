"""Whole screens, drawn from the model by pure functions.

:func:`render_screen` returns the lines above the input line, at most ``height`` of them,
none wider than ``width``: a header, then the board (with the racers beside it in a race),
the lobby, the countdown, the results, a daily challenge's result or the help, then the
last message and the keys.
``now`` is the local clock in ms, passed in so that a screen is a function of its inputs.
:func:`plain` and :func:`ansi` turn the lines into text for the golden tests and for the
terminal.
"""

from __future__ import annotations

import io
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from .commands import KEYS
from .model import (
    COUNTDOWN,
    DAILY,
    FINISHED,
    LOBBY,
    PRACTICE,
    RACING,
    ROOM,
    WATCH,
    Model,
    stuck_note,
)
from .render import draw_board
from .sanitize import clean

#: view fields every game has; the rest are the game's own, shown under the header
STANDARD_FIELDS = frozenset({"game", "piles", "status", "home", "total", "moves", "can_undo"})
#: game fields that only describe the layout (the board shows them)
LAYOUT_FIELDS = frozenset({"rows", "width"})
#: how a few game fields read; any other field shows as "name value"
FIELD_NAMES = {"redeals": "redeals left", "stage": "stage", "wedge": "the Wedge at"}
#: the narrowest race panel beside the board
PANEL_MIN = 18
PANEL_MAX = 32


class Glyphs:
    def __init__(self, ascii: bool) -> None:
        self.sep = " | " if ascii else " · "
        self.me = ">" if ascii else "▸"
        self.full = "#" if ascii else "█"
        self.empty = "." if ascii else "░"
        self.dash = "-" if ascii else "—"
        self.won = "won" if ascii else "✓ won"
        self.box = box.ASCII2 if ascii else box.SIMPLE_HEAD


def clock(ms: int) -> str:
    """``m:ss``, or ``h:mm:ss`` from an hour.

    >>> clock(0), clock(75_400), clock(3_725_000)
    ('0:00', '1:15', '1:02:05')
    """
    seconds = max(ms, 0) // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def race_time(ms: Any) -> str:
    """A winner's time, to the tenth of a second.

    >>> race_time(83_456), race_time(None)
    ('1:23.4', '')
    """
    if not isinstance(ms, int) or isinstance(ms, bool):
        return ""
    return f"{clock(ms)}.{(ms % 1000) // 100}"


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _fit(text: Text, width: int) -> Text:
    text = text.copy()
    text.truncate(width, overflow="ellipsis")
    return text


def _wrap(text: str, width: int, style: str, most: int) -> list[Text]:
    lines = textwrap.wrap(text, width=max(width, 10)) or [""]
    if len(lines) > most:
        lines = [*lines[: most - 1], textwrap.shorten(" ".join(lines[most - 1 :]), width)]
    return [_fit(Text(line, style=style), width) for line in lines]


def _console(width: int) -> Console:
    """A console that renders to a string at a fixed width, in standard colours."""
    return Console(
        width=width,
        file=io.StringIO(),
        force_terminal=True,
        color_system="standard",
        legacy_windows=False,
        emoji=False,
        highlight=False,
    )


def lines_of(renderable: RenderableType, width: int) -> list[Text]:
    """A rich renderable (a table) as styled lines."""
    console = _console(width)
    out = []
    for segments in console.render_lines(renderable, console.options, pad=False):
        line = Text()
        for seg in segments:
            if not seg.control:
                line.append(seg.text, seg.style)
        line.rstrip()
        out.append(line)
    while out and not out[-1].plain:
        out.pop()
    return out


# -- pieces ----------------------------------------------------------------------------


def header(model: Model, width: int, now: int) -> Text:
    g = Glyphs(model.ascii)
    left = Text(" ")
    left.append(model.game_name() or "Patience Race", style="bold")
    room = model.room
    if model.screen in (ROOM, WATCH) and room is not None:
        code = clean(room.get("code", ""), 16)
        left.append(f"{g.sep}{'watching ' if model.screen == WATCH else ''}room {code}")
        state = model.room_state
        if state == RACING:
            start = _int(room.get("start_at"))
            left.append(g.sep + clock(model.server_now(now) - start), style="bold")
            end = room.get("end_at")
            if isinstance(end, int):
                left.append(f" ({clock(end - model.server_now(now))} left)")
        elif state:
            left.append(g.sep + state)
    elif model.game is not None:
        kind = model.daily_kind
        day = clean((model.daily or {}).get("day", ""), 10)
        if kind == DAILY:
            left.append(f"{g.sep}daily {day}".rstrip())
        elif kind == PRACTICE:
            left.append(f"{g.sep}practice {day}".rstrip(), style="bold yellow")
        else:
            left.append(f"{g.sep}solo")
        if model.clock_from is not None:
            elapsed = (model.clock_to or now) - model.clock_from
            left.append(g.sep + clock(elapsed), style="bold")
    right = Text()
    if model.link:
        right.append(model.link, style="bold red")
    elif model.me:
        right.append(model.me)
    right.append(" ")
    room_for_left = max(width - right.cell_len - 1, 10)
    left = _fit(left, room_for_left)
    line = Text()
    line.append_text(left)
    line.append(" " * max(width - left.cell_len - right.cell_len, 1))
    line.append_text(right)
    line.stylize("reverse")
    return _fit(line, width)


def game_line(model: Model, width: int, now: int = 0) -> Text:
    """Cards home, moves, the game's own fields, how it ended; for a daily challenge, the
    streak and the time to the next day's deal."""
    g = Glyphs(model.ascii)
    game = model.game
    assert game is not None
    view = game.view
    parts = [
        f"home {_int(view.get('home'))}/{_int(view.get('total'))}",
        f"moves {_int(view.get('moves'))}",
    ]
    for key, value in view.items():
        if key in STANDARD_FIELDS or key in LAYOUT_FIELDS:
            continue
        name = clean(FIELD_NAMES.get(key, key.replace("_", " ")), 24)
        if isinstance(value, bool):
            parts.append(f"{name}: {'yes' if value else 'no'}")
        elif value is not None:
            parts.append(f"{name} {clean(value, 16)}")
    line = Text(" " + g.sep.join(parts))
    if game.over:
        status = clean(game.status, 16)
        line.append(g.sep)
        line.append(status.upper(), style="bold green" if status == "won" else "bold red")
    daily = model.daily
    if model.daily_kind is not None and daily is not None:
        line.append(f"{g.sep}streak {_int(daily['streak']['game']['current'])}")
        reset = _int(daily.get("reset_at"))
        if reset:
            line.append(f"{g.sep}next deal in {clock(reset - model.server_now(now))}")
    return _fit(line, width)


def ranked_line(model: Model, width: int) -> list[Text]:
    """Practice: the day's ranked attempt's result line (the ``daily`` reply's
    ``ranked_result``), for a player who missed its ``daily_result``; else nothing."""
    if model.daily_kind != PRACTICE:
        return []
    line = clean((model.daily or {}).get("ranked_result") or "", 200)
    if not line:
        return []
    out = []
    for n, piece in enumerate(split_line(line, width - 10)[:2]):
        text = Text(" ranked: " if n == 0 else " " * 9, style="dim")
        text.append(piece, style="bold")
        out.append(_fit(text, width))
    return out


def _bar(home: int, total: int, width: int, g: Glyphs) -> Text:
    filled = round(width * home / total) if total else 0
    return Text(g.full * filled, style="green") + Text(g.empty * (width - filled), style="dim")


def _status_word(player: Mapping[str, Any], g: Glyphs) -> Text:
    status = clean(player.get("status", ""), 12)
    if status == "won":
        return Text(g.won, style="bold green")
    if status in ("lost", "resigned", "timeout"):
        return Text(status, style="red")
    return Text("")


def race_panel(model: Model, width: int, *, wide: bool = False) -> list[Text]:
    """The racers' progress, one line each, best first: cards home, a bar while they
    play, how they ended; ``wide`` (watching) adds their moves."""
    g = Glyphs(model.ascii)
    room = model.room or {}
    players = [p for p in room.get("players") or [] if isinstance(p, Mapping)]
    players.sort(key=lambda p: (-_int(p.get("home")), _int(p.get("moves"))))
    pad = "  " if wide else ""
    out = [_fit(Text(f"{pad}Race {_int(room.get('race'))}", style="bold"), width)]
    longest = max((len(clean(p.get("name", ""))) for p in players), default=4)
    name_width = max(min(longest, 12, width - len(pad) - 11), 3)  # room for " x"
    for p in players:
        name = clean(p.get("name", ""), name_width)
        me = name == model.me
        line = Text(pad)
        line.append(g.me if me else " ", style="bold")
        line.append(f"{name:<{name_width}} ", style="bold" if me else "")
        home, total = _int(p.get("home")), _int(p.get("total"))
        line.append(f"{home:>3}/{total:<3}")
        word = _status_word(p, g)
        if wide:
            line.append(f" {_int(p.get('moves')):>4} moves", style="dim")
        room_left = width - line.cell_len - 1
        if word.plain and word.cell_len > room_left:  # no room: a mark for how it ended
            word = Text(g.won[0] if word.plain.endswith("won") else "x", style=word.style)
        if word.plain:
            line.append(" ")
            line.append_text(word)
        elif not p.get("present", True):
            line.append(" away", style="dim")
        elif room_left >= 4:
            line.append(" ")
            line.append_text(_bar(home, total, min(room_left, 24 if wide else 10), g))
        out.append(_fit(line, width))
    watchers = _int(room.get("watchers"))
    if watchers:
        out.append(Text(f"{pad}{watchers} watching", style="dim"))
    return out


def _side_by_side(left: Sequence[Text], left_width: int, right: Sequence[Text]) -> list[Text]:
    out = []
    for n in range(max(len(left), len(right))):
        line = left[n].copy() if n < len(left) else Text()
        if n < len(right):
            line.align("left", left_width)
            line.append("   ")
            line.append_text(right[n])
        out.append(line)
    return out


def roster(model: Model, width: int) -> list[Text]:
    """The lobby's list: who is in, who is ready, who hosts."""
    g = Glyphs(model.ascii)
    room = model.room or {}
    out = [Text("  Racers", style="bold")]
    state = model.room_state
    for p in room.get("players") or []:
        if not isinstance(p, Mapping):
            continue
        name = clean(p.get("name", ""), 20)
        line = Text(f"   {g.me if name == model.me else ' '} ")
        line.append(f"{name:<20} ", style="bold" if name == model.me else "")
        if p.get("host"):
            line.append("host ", style="cyan")
        elif state == LOBBY:
            line.append(
                "ready" if p.get("ready") else "not ready",
                style=("green" if p.get("ready") else "yellow"),
            )
        if not p.get("present", True):
            line.append("(away)", style="dim")
        out.append(_fit(line, width))
    return out


def results_table(model: Model, width: int) -> list[Text]:
    g = Glyphs(model.ascii)
    room = model.room or {}
    results = room.get("results") or []
    table = Table(box=g.box, show_edge=False, pad_edge=False, expand=False)
    for name, justify in (
        ("#", "right"),
        ("racer", "left"),
        ("result", "left"),
        ("time", "right"),
        ("moves", "right"),
        ("home", "right"),
        ("replay", "left"),
    ):
        table.add_column(  # a replay id is never cut: the racers' names give way
            name,
            justify=justify,  # type: ignore[arg-type]
            no_wrap=name == "replay",
            min_width=16 if name == "replay" else None,
        )
    for r in results:
        if not isinstance(r, Mapping):
            continue
        name = clean(r.get("player", ""), 20)
        status = clean(r.get("status", ""), 12)
        style = "bold" if name == model.me else ""
        table.add_row(
            str(_int(r.get("rank"))),
            Text(name, style=style),
            Text(status, style="green" if status == "won" else ""),
            race_time(r.get("time_ms")) or g.dash,
            str(_int(r.get("moves"))),
            f"{_int(r.get('home'))}/{_int(r.get('total'))}",
            Text(clean(r.get("replay") or "", 32) or g.dash, style="dim"),
        )
    title = Text(f"  Results of race {_int(room.get('race'))}", style="bold")
    return [title, *(Text("  ") + line for line in lines_of(table, width - 2))]


def help_lines(model: Model, width: int) -> list[Text]:
    game = model.game
    rules = game.rules if game else clean((model.room or {}).get("game", ""), 32)
    text = [
        ("Keys", "bold"),
        ("  a move in the game's notation, then Enter (case and spaces do not matter)", ""),
        ("  a pile's label alone plays the one legal move that starts there", ""),
        ("  Tab completes a move from the legal ones; Tab again cycles", ""),
        ("  home  every card that can go home, and again    u undo", ""),
        ("  hint  a move the server suggests (counted: results show the hints taken)", ""),
        ("  resign  give up this game    h help    q quit", ""),
        (
            "  daily, once over: n the same deal again (practice), new GAME another daily"
            if model.daily_kind
            else "  solo, game over: n new deal, new GAME another game",
            "",
        ),
        ("  lobby: r ready, s start (host)    after a race: m rematch (host)", ""),
        ("", ""),
        (f"The rules: patience-race rules {rules or 'GAME'}", ""),
        ("", ""),
    ]
    out = [_fit(Text(t, style=s), width) for t, s in text]
    if game is not None and game.legal:
        out.append(Text("Legal moves now", style="bold"))
        out.extend(_wrap(" ".join(game.legal), width - 2, "", 6))
    return out


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def split_line(line: str, width: int, sep: str = " · ") -> list[str]:
    """A result line in lines of at most ``width``, broken after its separators.

    >>> split_line("Patience Race · The Gate · 2026-11-22 · won in 3:25", 30)
    ['Patience Race · The Gate ·', '2026-11-22 · won in 3:25']
    """
    parts = line.split(sep)
    out: list[str] = []
    current = ""
    for n, part in enumerate(parts):
        piece = part + (sep.rstrip() if n < len(parts) - 1 else "")
        joined = f"{current} {piece}" if current else piece
        if current and len(joined) > width:
            out.append(current)
            current = piece
        else:
            current = joined
    out.append(current)
    return [_fit(Text(one), width).plain for one in out]


def daily_result_lines(model: Model, width: int, now: int) -> list[Text]:
    """The ranked daily's result in place of the board: rank, streaks, the next deal,
    and the line to paste into a chat."""
    result = model.daily_result or {}
    game = model.game
    name = model.game_name()
    status = clean(result.get("status", ""), 16)
    streak = result.get("streak") or {}
    mine = streak.get("game") or {}
    any_game = streak.get("all") or {}
    reset = _int((model.daily or {}).get("reset_at"))
    rules = game.rules if game is not None else ""
    out = [
        Text(""),
        Text(
            f"  Today's daily challenge is done: {status}, rank {_int(result.get('rank'))} on "
            f"the day's board.",
            style="bold",
        ),
        Text(
            f"  Streak: {_plural(_int(mine.get('current')), 'day')} at {name} "
            f"(best {_int(mine.get('best'))}); {_int(any_game.get('current'))} at any game "
            f"(best {_int(any_game.get('best'))})."
        ),
    ]
    if reset:
        out.append(Text(f"  The next deal in {clock(reset - model.server_now(now))}."))
    out += [Text(""), Text("  Your result, to paste into a chat:"), Text("")]
    style = "bold green" if status == "won" else "bold"
    for piece in split_line(clean(result.get("line", ""), 200), width - 4):
        out.append(Text(f"  {piece}", style=style))
    out += [
        Text(""),
        Text("  (q prints it again as you leave, in one piece to copy)", style="dim"),
        Text(""),
        Text(f"  The board:   patience-race top {rules}"),
        Text(f"  Your replay: patience-race replay {clean(result.get('game', ''), 32)}"),
        Text("               (yours alone until the day's reset, then anyone's)", style="dim"),
    ]
    return [_fit(line, width) for line in out]


# -- screens ---------------------------------------------------------------------------


def _message(model: Model, width: int, most: int = 2) -> list[Text]:
    """The last message (one line, two if it is long), then the legal moves while
    playing."""
    out = [Text("")]
    if model.message:
        style = {"error": "bold red", "good": "bold green", "warn": "bold yellow"}.get(
            model.tone, ""
        )
        out = _wrap(model.message, width - 1, style, most)
    game = model.game
    if model.context() == "play" and game is not None and not model.help:
        note = stuck_note(game)
        if game.stuck and model.message != note:  # it stays until the position changes
            out.append(_fit(Text(note, style="bold yellow"), width - 1))
        legal = Text("legal: ", style="dim")
        legal.append(" ".join(game.legal) or "(none)", style="dim")
        out.append(_fit(legal, width - 1))
    return out


def _keys(model: Model, width: int) -> Text:
    context = model.context()
    words = KEYS["confirm" if context == "confirm" else context] if context in KEYS else ""
    if context == "over" and model.daily_kind is not None:
        words = KEYS["daily-over"]
    if model.help:
        words = "Enter or Esc: back to the table"
    words = words.replace(" · ", Glyphs(model.ascii).sep)
    return _fit(Text(words, style="bold" if context == "confirm" else "dim"), width)


def _table(model: Model, width: int, height: int, now: int) -> list[Text]:
    """The board, with the race panel beside it (or under it when it cannot fit)."""
    game = model.game
    assert game is not None
    legal = game.legal if not game.over else []
    in_race = model.screen == ROOM and model.room is not None
    if not in_race:
        return draw_board(game.view, width, height, ascii=model.ascii, legal=legal).lines
    board = draw_board(game.view, width, height, ascii=model.ascii, legal=legal)
    room_left = width - board.width - 3
    if room_left >= PANEL_MIN:
        panel = race_panel(model, min(room_left, PANEL_MAX))
        return _side_by_side(board.lines, board.width, panel)[:height]
    # no room beside: a line of the others' progress under the board
    g = Glyphs(model.ascii)
    players = [p for p in (model.room or {}).get("players") or [] if isinstance(p, Mapping)]
    summary = g.sep.join(
        f"{clean(p.get('name', ''), 12)} {_int(p.get('home'))}/{_int(p.get('total'))}"
        for p in players
    )
    board = draw_board(game.view, width, height - 1, ascii=model.ascii, legal=legal)
    return [*board.lines, _fit(Text(summary, style="bold"), width)]


def render_screen(model: Model, width: int, height: int, now: int) -> list[Text]:
    """The screen above the input line: at most ``height`` lines of at most ``width``."""
    width = max(width, 20)
    top = [header(model, width, now)]
    bottom = [*_message(model, width), _keys(model, width)]
    room = height - len(top) - len(bottom)
    body: list[Text]
    if model.help:
        body = help_lines(model, width)
    elif model.screen == WATCH:
        body = _room_body(model, width, room, now, watching=True)
    elif model.screen == ROOM and not model.racing:
        body = _room_body(model, width, room, now, watching=False)
    elif model.game is not None:
        above = [game_line(model, width, now), *ranked_line(model, width)]
        table = (
            daily_result_lines(model, width, now)
            if model.result_shown
            else _table(model, width, room - len(above), now)
        )
        body = [*above, *table]
    else:
        body = [Text("")]
    body = body[: max(room, 0)]
    lines = [*top, *body, *[Text("")] * max(room - len(body), 0), *bottom]
    lines = [_fit(line, width) for line in lines[:height]]
    return [_ascii(line) for line in lines] if model.ascii else lines


#: --ascii: every character the screen may hold, one for one (spans stay in place)
_ONE_FOR_ONE = str.maketrans(
    {
        "…": ".",
        "—": "-",
        "–": "-",
        "·": ".",
        "▸": ">",
        "█": "#",
        "░": ".",
        "✓": "+",
        "─": "-",
        "━": "-",
        "│": "|",
        "♣": "C",
        "♦": "D",
        "♥": "H",
        "♠": "S",
    }
)


def _ascii(line: Text) -> Text:
    """A line with every character ASCII, one for one, so its styles stay in place."""
    text = line.plain.translate(_ONE_FOR_ONE)
    if not text.isascii():
        text = "".join(ch if ch.isascii() else "?" for ch in text)
    return Text(text, style=line.style, spans=list(line.spans), end="")


def _room_body(model: Model, width: int, height: int, now: int, *, watching: bool) -> list[Text]:
    room = model.room or {}
    state = model.room_state
    code = clean(room.get("code", ""), 16)
    out: list[Text] = [Text("")]
    if state == LOBBY:
        limit = room.get("time_limit")
        limit_text = f"{clock(limit * 1000)} a race" if isinstance(limit, int) else "none"
        out.append(Text(f"  Room {code}: {model.game_name()}", style="bold"))
        if not watching:
            out.append(Text(f"  Friends join with:  patience-race race join {code}"))
        out.append(
            Text(
                f"  Time limit: {limit_text}; up to {_int(room.get('max_players'))} racers; "
                f"{_int(room.get('watchers'))} watching"
            )
        )
        out.append(Text(""))
        out.extend(roster(model, width))
        out.append(Text(""))
        if not watching:
            host = clean(room.get("host") or "", 20)
            if model.is_host:
                out.append(Text("  You host: start (s) when the others are ready.", style="dim"))
            else:
                out.append(Text(f"  {host} hosts and starts the race; say r when ready."))
    elif state == COUNTDOWN:
        start = _int(room.get("start_at"))
        left = max(start - model.server_now(now), 0)
        out.append(Text(f"  Race {_int(room.get('race'))} of room {code}: {model.game_name()}"))
        out.append(Text(""))
        out.append(Text(f"  Starting in {left / 1000:.1f} s", style="bold yellow"))
        out.append(Text(""))
        out.extend(roster(model, width))
    elif state == RACING:
        out.extend(race_panel(model, width, wide=True))
    elif state == FINISHED:
        out.extend(results_table(model, width))
        out.append(Text(""))
        game = model.game
        if not watching and game is not None and game.kind == "race" and game.over:
            out.append(Text(f"  Your replay:  patience-race replay {game.gid}"))
        if any(isinstance(r, Mapping) and r.get("replay") for r in room.get("results") or []):
            out.append(Text("  Anyone's:     patience-race replay ID (the replay column)"))
        if not watching:
            if model.is_host:
                out.append(Text("  You host: m calls a rematch (a new deal for everyone)."))
            else:
                host = clean(room.get("host") or "", 20)
                out.append(Text(f"  {host} may call a rematch; q leaves the room."))
    else:
        out.append(Text(f"  Room {code} is closed."))
    return [_fit(line, width) for line in out[:height]]


def plain(lines: Sequence[Text]) -> str:
    """The screen as text, trailing spaces removed: what the golden tests compare."""
    return "\n".join(line.plain.rstrip() for line in lines)


def ansi(lines: Sequence[Text], width: int) -> str:
    """The screen as ANSI text for the terminal."""
    console = _console(width)
    with console.capture() as capture:
        for line in lines:
            console.print(line, end="\n", no_wrap=True, overflow="crop", crop=True)
    return capture.get().rstrip("\n")
