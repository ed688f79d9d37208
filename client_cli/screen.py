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

import re
from collections.abc import Mapping
from itertools import takewhile

from rich.text import Text

from .board_screen import board_panel, placing_lines
from .board_screen import racers as board_racers
from .cards import card_words
from .challenge_screen import challenge_panel, countdown_body, racers, result_lines
from .clicks import Hit
from .commands import narrowed, numbered_piles
from .daily_end import day_over, ranked_end
from .daily_screen import daily_result_lines
from .keys_line import key_words
from .legend import legend
from .lines import (
    Glyphs,
    as_int,
    clock,
    fit,
    side_by_side,
    split_line,
    status_words,
    time_left,
    to_ascii,
    wrap,
)
from .marks import cell_case
from .model import CHALLENGE, DAILY, PRACTICE, RACING, ROOM, SOLO, WATCH, Model, stuck_note
from .render import Spot, draw_board, garden_cells
from .room_screen import race_panel, room_body, summary
from .sanitize import clean

#: view fields every game has; the rest are the game's own, shown under the header
STANDARD_FIELDS = frozenset({"game", "piles", "status", "home", "total", "moves", "can_undo"})
#: game fields that only describe the layout (the board shows them)
LAYOUT_FIELDS = frozenset({"rows", "width", "path"})
#: how a few game fields read; any other field shows as "name value"
FIELD_NAMES = {"redeals": "redeals left", "stage": "stage", "wedge": "the Wedge at"}
#: the narrowest race panel beside the board (it takes all the room beside it: the names
#: are whole where that room has them, the bar no longer than 12 cells)
PANEL_MIN = 18


# -- pieces ----------------------------------------------------------------------------


def header(model: Model, width: int, now: int) -> Text:
    g = Glyphs(model.ascii)
    left = Text()  # (after the game's name, which gives way first: see below)
    room = model.room
    if model.screen in (ROOM, WATCH) and room is not None:
        code = clean(room.get("code", ""), 16)
        left.append(f"{g.sep}{'watching ' if model.screen == WATCH else ''}room {code}")
        state = model.room_state
        if state == RACING:
            start = as_int(room.get("start_at"))
            left.append(g.sep + clock(model.server_now(now) - start), style="bold")
            end = room.get("end_at")
            if isinstance(end, int):
                left.append(f" ({time_left(end - model.server_now(now))} left)")
        elif state:
            left.append(g.sep + state)
    elif model.screen == CHALLENGE and model.challenge is not None:
        race = model.challenge
        if race.cid:
            left.append(f"{g.sep}challenge vs {race.ghost_name}")
        elif race.ghosts:  # a quick race's ghosts
            n = len(race.ghosts)
            left.append(f"{g.sep}quick race vs {n} ghost{'s' if n > 1 else ''}")
        else:  # nobody to race: a fresh deal, alone
            left.append(f"{g.sep}quick race, alone")
        if model.game is None:
            left.append(g.sep + "countdown")
        elif model.clock_from is not None:
            left.append(g.sep + clock((model.clock_to or now) - model.clock_from), style="bold")
    elif model.game is not None:
        kind = model.daily_kind
        day = clean((model.daily or {}).get("day", ""), 10)
        if kind == DAILY:
            left.append(f"{g.sep}daily {day}".rstrip())
        elif kind == PRACTICE:
            left.append(f"{g.sep}practice {day}".rstrip(), style="bold yellow")
        else:
            left.append(f"{g.sep}solo")
        grade = ((model.daily or {}).get("difficulty") or {}).get("grade") if kind else None
        if grade:  # the day's deal's difficulty (client_cli/difficulty.py)
            left.append(f"{g.sep}{grade}")
        if model.clock_from is not None:  # (a ranked attempt's stops at the reset)
            elapsed = (model.clock_to or ranked_end(model, now)) - model.clock_from
            left.append(g.sep + clock(elapsed), style="bold")
    right = Text()
    if model.link:
        right.append(model.link, style="bold red")
    elif model.me:
        right.append(model.me)
    right.append(" ")
    room_for_left = max(width - right.cell_len - 1, 10)
    # the game's name shortened first, the clock kept whole: cut at its end, a race of The
    # Blockade (rows of ten) beside a name of 20 read "0:09 (9:51 le…" at 80 columns
    name = short_name(model.game_name() or "Patience Race", room_for_left - 1 - left.cell_len)
    left = fit(Text(" ") + Text(name, style="bold") + left, room_for_left)
    line = Text()
    line.append_text(left)
    line.append(" " * max(width - left.cell_len - right.cell_len, 1))
    line.append_text(right)
    line.stylize("reverse")
    return fit(line, width)


def short_name(name: str, room: int) -> str:
    """A game's name in ``room`` cells where it can be: whole, else without the words in
    brackets after it, else cut (never to fewer than 8).

    >>> [short_name("The Blockade (rows of ten)", n) for n in (30, 20, 10, 2)]
    ['The Blockade (rows of ten)', 'The Blockade', 'The Block…', 'The Blo…']
    """
    if len(name) <= room:
        return name
    name = re.sub(r" \(.*\)$", "", name)
    return clean(name, max(room, 8))


def game_line(model: Model, width: int, now: int = 0) -> Text:
    """Cards home, moves, the game's own fields, how it ended; for a daily challenge, the
    streak and the time to the next day's deal: whole, or in fewer words (``deal in
    13:02:11``) where that fits, else left out (a game over, the result under it gives
    it), never cut (at 60 columns it read ``next deal in…``, the time gone)."""
    g = Glyphs(model.ascii)
    game = model.game
    assert game is not None
    view = game.view
    home, total = as_int(view.get("home")), as_int(view.get("total"))
    parts = [
        f"pairs off {home // 2}/{total // 2}" if game.pairs else f"home {home}/{total}",
        f"moves {as_int(view.get('moves'))}",
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
        said = status_words(status).upper()
        line.append(said, style="bold green" if status == "won" else "bold red")
    daily = model.daily
    if model.daily_kind is not None and daily is not None:
        line.append(f"{g.sep}streak {as_int(daily['streak']['game']['current'])}")
        reset = as_int(daily.get("reset_at"))
        forms: list[str] = []
        if reset and day_over(model, now):  # (it stood at "next deal in 0:00")
            forms = ["next deal out"]
        elif reset:
            left = clock(reset - model.server_now(now))
            forms = [f"next deal in {left}", f"deal in {left}"]
        fits = [words for words in forms if line.cell_len + len(g.sep + words) <= width]
        if fits:
            line.append(g.sep + fits[0])
    return fit(line, width)


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
        out.append(fit(text, width))
    return out


def help_lines(model: Model, width: int) -> list[Text]:
    """The keys, as far as they work in the game at hand (as the keys line has them: no
    hint in a race made without hints, no home where cards leave in pairs)."""
    game = model.game
    rules = game.rules if game else clean((model.room or {}).get("game", ""), 32)
    context = model.context()
    if context in ("watch", "spectating"):  # (no move of theirs: the playing keys misled)
        text = [
            ("Keys, watching" if context == "watch" else "Keys, out of this race", "bold"),
            ("  the racers' rows show how each one's game goes, as they play", ""),
            ("  once the race is over: its results, Page Down for all of them as a page", ""),
            ("  F4 or rules: the rules page    h or F1 help", ""),
            ("  q stop watching" if context == "watch" else "  q leave the room", ""),
            ("", ""),
            (f"The rules, away from the table: patience-race rules {rules or 'GAME'}", ""),
        ]
        return [fit(Text(t, style=s), width) for t, s in text]
    text = [
        ("Keys", "bold"),
        ("  a move in the game's notation, then Enter (case and spaces do not matter)", ""),
        ("  a move's number on the legal line, then Enter (#3 where piles are numbered)", ""),
        ("  a pile's label alone plays the one legal move that starts there", ""),
        ("  Tab completes a move from the legal ones; Tab again shows the next", ""),
    ]
    if not (game is not None and game.pairs):
        text.append(("  + or F2  every card that can go home, and again (or type home)", ""))
    if model.hints_allowed:
        text.append(
            ("  ? or F3  a hint from the server (counted: results show the hints taken)", "")
        )
    text += [
        ("  u undo    resign  give up this game    F4 or rules: the rules page", ""),
        ("  h or F1 help    q quit", ""),
    ]
    if model.screen == SOLO or model.daily_kind:  # (a daily's practice races ghosts)
        text.append(
            (
                "  daily, once over: n the same deal again (practice), new GAME another daily"
                if model.daily_kind
                else "  solo, game over: n new deal, new GAME another game",
                "",
            )
        )
    if model.screen == ROOM and not (model.room or {}).get("quick"):
        text.append(("  lobby: r ready, s start (host)    after a race: m rematch (host)", ""))
    text += [
        ("  a game of yours over: c challenge a friend to race its ghost", ""),
        ("  a game over: review, where it was lost (or how far over par)", ""),
        ("", ""),
        (f"The rules, away from the table: patience-race rules {rules or 'GAME'}", ""),
        ("", ""),
    ]
    out = [fit(Text(t, style=s), width) for t, s in text]
    if game is not None and game.legal:
        out.append(Text("Legal moves now", style="bold"))
        out.extend(wrap(" ".join(game.legal), width - 2, "", 6))
    return out


def legal_line(model: Model, width: int, hits: list[Hit] | None = None, at: int = 0) -> Text:
    """The legal moves, numbered for picking (``#3`` in games whose piles are numbered);
    while Tab offers several, those instead. ``hits`` gets where each move is drawn (on
    screen line ``at``), for the mouse."""
    game = model.game
    assert game is not None
    if model.choices:
        line = Text("Tab: ", style="bold")
        line.append(" ".join(model.choices), style="bold")
        line.append("  (Tab again: the next)", style="dim")
        return fit(line, width)
    line = Text("legal: ", style="dim")
    mark = "#" if numbered_piles(game.labels) else ""
    cells = garden_cells(game.view)
    items = []
    for n, move in enumerate(game.legal, start=1):
        item = Text(f"{mark}{n}", style="cyan")
        item.append(f" {cell_case(move, cells)}")
        items.append((item, move))
    # cut between two moves, never inside one, with a mark that reads as no move: with
    # --ascii a cut "#8" ended the line "#.", read as a move to type
    more = "  ..." if model.ascii else "  …"
    whole = line.cell_len + sum(item.cell_len + 2 for item, _ in items) - 2
    for n, (item, move) in enumerate(items):
        if whole > width and line.cell_len + item.cell_len + len(more) > width:
            line.rstrip()
            line.append(more, style="dim")
            break
        left = line.cell_len
        line.append_text(item)
        if hits is not None:
            hits.append(Hit(at, left, min(line.cell_len, width), move=move))
        if n < len(items) - 1:
            line.append("  ")
    if not game.legal:
        line.append("(none)", style="dim")
    return fit(line, width)


def page_lines(model: Model, width: int, height: int) -> list[Text]:
    """A page over the table (a game's rules, ...) from its first line shown, made for
    the screen's width."""
    page = model.page
    if page is None:
        return []
    out = [fit(Text(f"  {page.title}", style="bold"), width)]
    lines = page.at(width, height - 1)  # (the title takes a line)
    for line in lines[page.top : page.top + height - 1]:
        out.append(fit(Text(line), width))
    return out


# -- screens ---------------------------------------------------------------------------


def _message(
    model: Model, width: int, most: int = 2, hits: list[Hit] | None = None, at: int = 0
) -> list[Text]:
    """The last message (one line, two if it is long), then the legal moves while
    playing."""
    out = [Text("")]
    if model.message:
        style = {"error": "bold red", "good": "bold green", "warn": "bold yellow"}.get(
            model.tone, ""
        )
        out = wrap(card_words(model.message, ascii=model.ascii), width - 1, style, most)
    game = model.game
    playing = model.context() == "play" or model.confirm == "stuck"
    if playing and game is not None and not model.help and model.page is None:
        note = stuck_note(game)
        if game.stuck and model.confirm != "stuck" and model.message != note:  # until it moves
            out.append(fit(Text(note, style="bold yellow"), width - 1))
        out.append(legal_line(model, width - 1, hits, at + len(out)))
    return out


def _message_most(model: Model, width: int, height: int) -> int:
    """The lines the message takes wrapped whole between words at ``width``: as many as
    it needs, up to a third of the ``height`` lines (or two). Cut to the lines a screen
    had free, a refusal lost its end: under a challenge's full table, "...a review tells
    [...]" at 80 columns."""
    if not model.message:
        return 1
    most = max(2, height // 3)
    return len(wrap(card_words(model.message, ascii=model.ascii), width - 1, "", most))


def _keys(model: Model, width: int, height: int = 0, now: int | None = None) -> Text:
    context = model.context()
    words = key_words(model, now)  # (what a line that means nothing here is told, too)
    if model.help:
        words = "Enter or Esc: back to the table"
    if model.page is not None:
        page = model.page.at(width, height)
        last = min(model.page.top + height, len(page))
        # (more offered only where there is more, back only where there is a way back)
        more = " · space or PgDn more" if last < len(page) else ""
        back = " · b or PgUp back" if model.page.top > 0 else ""
        lines = f"lines {model.page.top + 1}-{last} of {len(page)}"
        words = f"{lines}{more}{back} · q or Esc: the table"
    words = narrowed(words, width).replace(" · ", Glyphs(model.ascii).sep)
    return fit(Text(words, style="bold" if context == "confirm" else "dim"), width)


def _table(model: Model, width: int, height: int, now: int) -> tuple[list[Text], list[Spot]]:
    """The board, with the race panel beside it (or under it when it cannot fit), and
    where its piles are drawn."""
    game = model.game
    assert game is not None
    legal = game.legal if not game.over else []
    challenge = model.screen == CHALLENGE and model.challenge is not None
    board_race = model.against_board
    ghosts = board_race is not None and bool(board_race.ghosts)
    in_race = challenge or ghosts or (model.screen == ROOM and model.room is not None)
    board = draw_board(
        game.view, width, height, ascii=model.ascii, legal=legal, picked=model.picked
    )
    if not in_race:
        return board.lines, board.spots
    room_left = width - board.width - 3
    if room_left >= PANEL_MIN:
        if challenge:
            panel = challenge_panel(model, room_left, now)
        elif ghosts:
            panel = board_panel(model, room_left, height, now)
        else:
            panel = race_panel(model, room_left, most=height)
        return side_by_side(board.lines, board.width, panel)[:height], board.spots
    # no room beside: a line of the others' progress under the board
    g = Glyphs(model.ascii)
    if challenge:
        players = racers(model, now)
    elif ghosts:
        players = board_racers(model, now)
    else:
        players = (model.room or {}).get("players") or []
    players = [p for p in players if isinstance(p, Mapping)]
    board = draw_board(
        game.view, width, height - 1, ascii=model.ascii, legal=legal, picked=model.picked
    )
    line = summary(players, model.me, width, g.sep, game.pairs, won=g.won.split()[0])
    return [*board.lines, line], board.spots


def page_height(height: int) -> int:
    """How many lines of a page a screen of ``height`` lines shows (the page's title, the
    header, the message and the keys take the rest)."""
    return max(height - 4, 1)


def render_screen(
    model: Model, width: int, height: int, now: int, hits: list[Hit] | None = None
) -> list[Text]:
    """The screen above the input line: at most ``height`` lines of at most ``width``.
    ``hits`` gets where the piles and the legal moves are drawn, for the mouse."""
    width = max(width, 20)
    top = [header(model, width, now)]
    keys = _keys(model, width, page_height(height), now)
    if (
        model.game is not None
        and not (model.page is not None or model.help)
        and (model.screen not in (WATCH, ROOM) or model.racing)
    ):
        game_body = _game_body(model, width, height - 2, now, hits)
        return _finish(model, [*top, *game_body, keys], width)
    message = _message(model, width, most=_message_most(model, width, height))
    room = height - len(top) - len(message) - 1
    bottom = [*message, keys]
    body: list[Text]
    if model.page is not None:
        body = page_lines(model, width, room)
    elif model.help:
        body = help_lines(model, width)
    elif model.screen == WATCH:
        body = room_body(model, width, room, now, watching=True)
    elif model.screen == ROOM and not model.racing:
        body = room_body(model, width, room, now, watching=False)
    elif model.screen == CHALLENGE and model.challenge is not None:
        body = countdown_body(model, width, room, now)
    else:
        body = [Text("")]
    body = body[: max(room, 0)]
    lines = [*top, *body, *[Text("")] * max(room - len(body), 0), *bottom]
    return _finish(model, lines[:height], width)


def _game_body(
    model: Model, width: int, height: int, now: int, hits: list[Hit] | None = None
) -> list[Text]:
    """A game's ``height`` lines between the header and the keys: the game line, the board
    (or a daily's result), the legend, the message and the legal moves. The board's room
    does not change with the message (a row the layout anchors stays put); a message
    takes a second line only where the board leaves one free. ``hits`` (screen lines:
    the header is line 0) gets where the piles and the legal moves are. Where the board
    leaves no line free, a message of two lines takes the legend's line instead; a longer
    one takes what it needs (:func:`_message_most`) from the table's last lines."""
    game = model.game
    assert game is not None
    above = [game_line(model, width, now), *ranked_line(model, width)]
    race = model.challenge if model.screen == CHALLENGE else None
    over = model.result_shown or model.placed or (race is not None and race.result is not None)
    key = legend(game.rules, game.view, ascii=model.ascii, width=width - 1)
    under = [fit(Text(key, style="dim"), width)] if key and not over else []
    message = _message(model, width, most=1)
    # (the room as while playing, a line for the message and one for the legal moves,
    # in every state: a question or the game's end, which have no legal line, moved the
    # Gate's bottom bars a line down)
    room = height - len(above) - len(under) - max(len(message), 2)
    spots: list[Spot] = []
    if model.result_shown:
        table = daily_result_lines(model, width, now)
    elif model.placed:
        table = placing_lines(model, width)
    elif race is not None and race.result is not None:
        table = result_lines(model, race, width, room)  # (the player's row kept)
    else:
        table, spots = _table(model, width, room, now)
    # (``most``: the message's own lines, not the legal moves' under it)
    most = 1
    if len(table) < room:
        most = 2
    elif under and len(wrap(model.message, width - 1, "", 2)) > 1:
        # no line free under the board: a message of two lines takes the legend's (back
        # with the next message) rather than lose its end ("...until [...]": a daily's
        # greeting lost its streaks at 80 columns)
        under, most = [], 2
    need = _message_most(model, width, height)
    if need > most:
        # a message longer still is whole all the same (under a challenge's full table a
        # refusal ended "...a review tells [...]"): it takes the table's last lines, a
        # board's blank ones first, then the legend's, then the table's own, all back
        # with the next message
        blank = len(list(takewhile(lambda line: not line.plain.strip(), reversed(table))))
        if under and need - 1 > max(room - len(table), 0) + blank:
            under = []
        most = need
    if model.confirm == "daily":
        # the question before a ranked clock starts (new GAME over a daily), read whole
        # before Enter starts it: it takes the legend's line and the board's last ones,
        # back with the answer (with the difficulty, five lines at 80 columns: cut to
        # two, it ended "...on the day's [...]" and the difficulty went unseen)
        under, most = [], max(most, len(wrap(model.message, width - 1, "", height)))
    message = _message(model, width, most=most)
    body = [*above, *table][: max(height - len(under) - len(message), 0)]
    filler = [Text("")] * max(height - len(body) - len(under) - len(message), 0)
    if hits is not None:
        at = 1 + len(above)  # the header, then the lines above the board
        hits.extend(
            Hit(at + line, s.left, s.right, label=s.label, kind=s.kind)
            for s in spots
            for line in range(s.top, s.bottom + 1)
            if at + line < 1 + len(body)
        )
        message = _message(model, width, most=most, hits=hits, at=1 + height - len(message))
    return [*body, *filler, *under, *message][:height]


def _finish(model: Model, lines: list[Text], width: int) -> list[Text]:
    """The lines cut to ``width``, and in ASCII for ``--ascii``."""
    lines = [fit(line, width) for line in lines]
    return [to_ascii(line) for line in lines] if model.ascii else lines
