"""A race room's screens, drawn from the model by pure functions: the racers beside the
board, the lobby's roster, the countdown, the results and who is in the room for the
rematch, and the room's body (lobby, countdown, a race watched, results, closed)."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text

from .challenge import command, http_url
from .copied import command_in, continued
from .lines import (
    Glyphs,
    as_int,
    clock,
    fit,
    status_words,
)
from .model import COUNTDOWN, FINISHED, LOBBY, RACING, Model
from .results import (
    is_me,
    nearest,
    progress,
    raced,
    replays_line,
    results_table,
    short_results,
)
from .sanitize import clean

#: a bar's partial cell, by eighths
EIGHTHS = "▏▎▍▌▋▊▉"

#: digits five lines tall, for the countdown (``#`` is a filled cell)
BIG_DIGITS = {
    "0": ["###", "# #", "# #", "# #", "###"],
    "1": [" # ", "## ", " # ", " # ", "###"],
    "2": ["###", "  #", "###", "#  ", "###"],
    "3": ["###", "  #", " ##", "  #", "###"],
    "4": ["# #", "# #", "###", "  #", "  #"],
    "5": ["###", "#  ", "###", "  #", "###"],
    "6": ["###", "#  ", "###", "# #", "###"],
    "7": ["###", "  #", "  #", "  #", "  #"],
    "8": ["###", "# #", "###", "# #", "###"],
    "9": ["###", "# #", "###", "  #", "###"],
}


def bar(home: int, total: int, width: int, g: Glyphs) -> Text:
    """A progress bar of ``width`` cells, to an eighth of a cell (whole cells in ASCII).

    >>> bar(13, 52, 10, Glyphs(False)).plain
    '██▌░░░░░░░'
    >>> bar(13, 52, 10, Glyphs(True)).plain
    '##........'
    """
    eighths = (width * 8 * home // total) if total > 0 else 0
    eighths = min(max(eighths, 0), width * 8)
    full, part = divmod(eighths, 8)
    text = Text(g.full * full, style="green")
    if part and not g.ascii:
        text.append(EIGHTHS[part - 1], style="green")
        full += 1
    text.append(g.empty * (width - full), style="dim")
    return text


def big_number(n: int, g: Glyphs) -> list[str]:
    """``n`` in digits five lines tall.

    >>> print("\\n".join(big_number(3, Glyphs(True))))
    ######
        ##
      ####
        ##
    ######
    """
    rows = ["", "", "", "", ""]
    for digit in str(max(n, 0)):
        for row, cells in enumerate(BIG_DIGITS[digit]):
            rows[row] += ("  " if rows[row] else "") + cells.replace("#", g.full * 2).replace(
                " ", "  "
            )
    return [row.rstrip() for row in rows]


def countdown_second(model: Model, now: int) -> int | None:
    """The whole seconds left before the race starts (3, 2, 1; 0 at the start), while the
    room counts down, and 0 through the race's first second; else None. The terminal
    rings as it changes (a countdown never drawn, too short or on a busy machine, left
    the race to start in silence)."""
    room = model.room
    if room is None:
        return None
    left = as_int(room.get("start_at")) - model.server_now(now)
    if model.room_state == COUNTDOWN:
        return max(-(-left // 1000), 0)
    if model.room_state == RACING and room.get("start_at") and -1000 < left <= 0:
        return 0
    return None


def rings(last: int | None, second: int | None) -> bool:
    """Whether the terminal rings as the countdown goes from ``last`` to ``second`` (see
    :func:`countdown_second`): at each of 3, 2, 1, and once at the start.

    >>> [rings(a, b) for a, b in [(None, 3), (3, 3), (3, 2), (1, 0), (0, None), (1, None)]]
    [True, False, True, True, False, True]
    >>> rings(None, None), rings(None, 0), rings(0, 0)
    (False, True, False)
    """
    counting = second is not None and second > 0 and second != last
    going = last is not None and last > 0 and not second  # 0, or the race has begun
    unseen = last is None and second == 0  # (a race in its first second, no countdown seen)
    return counting or going or unseen


def _status_word(player: Mapping[str, Any], g: Glyphs) -> Text:
    status = clean(player.get("status", ""), 12)
    if status == "won":
        return Text(g.won, style="bold green")
    if status in ("lost", "resigned", "timeout"):
        if player.get("left"):
            return Text("left", style="red")
        if player.get("forfeited"):  # (the server resigned them, away too long)
            return Text("forfeit", style="red")
        return Text(status_words(status, short=True), style="red")
    return Text("")


def race_panel(
    model: Model, width: int, *, wide: bool = False, most: int | None = None
) -> list[Text]:
    """The racers' progress, one line each, best first: cards home and moves, a bar while
    they play (to an eighth of a cell), how they ended. ``wide`` (watching) has room for a
    longer bar; ``most`` lines at most (a room of many racers beside a short board)."""
    room = model.room or {}
    players = [p for p in room.get("players") or [] if isinstance(p, Mapping)]
    title = f"Race {as_int(room.get('race'))}"
    watchers = as_int(room.get("watchers"))
    room_for = None if most is None else most - (1 if watchers else 0)
    out = racers_panel(players, title, model, width, wide=wide, most=room_for)
    if watchers:
        out.append(Text(f"{'  ' if wide else ''}{watchers} watching", style="dim"))
    return out


def standing(player: Mapping[str, Any]) -> int:
    """How racers are ordered, best first: more cards home (as many, in the room's order:
    moves part nobody who has not won, as the results)."""
    return -as_int(player.get("home"))


def more_line(players: Sequence[Mapping[str, Any]], shown: Sequence[int], me: str | None) -> str:
    """What a panel that shows only some racers says of the rest: how many ahead of the
    player and behind.

    >>> racers = [{"name": n} for n in "abcdefg"]
    >>> more_line(racers, [2, 3, 4, 5], "e"), more_line(racers, [0, 1, 2], "a")
    ('2 more ahead, 1 behind', '4 more behind')
    """
    mine = [n for n, p in enumerate(players) if is_me(p, me)]
    at = mine[0] if mine else 0
    hidden = [n for n in range(len(players)) if n not in shown]
    ahead = sum(1 for n in hidden if n < at)
    behind = len(hidden) - ahead
    if ahead and behind:
        return f"{ahead} more ahead, {behind} behind"
    return f"{ahead} more ahead" if ahead else f"{behind} more behind"


def racers_panel(
    players: Sequence[Mapping[str, Any]],
    title: str,
    model: Model,
    width: int,
    *,
    wide: bool = False,
    most: int | None = None,
) -> list[Text]:
    """Racers' lines under ``title``, best first (a race's, or a challenge's with its
    ghost: a player marked ``ghost`` has ``(ghost)`` after the name). At most ``most``
    lines: where the racers need more, those nearest the player, and a line saying how
    many more are ahead and behind."""
    g = Glyphs(model.ascii)
    players = sorted(players, key=standing)
    pad = "  " if wide else ""
    hidden = ""
    if most is not None and len(players) + 1 > most:
        shown = nearest(players, model.me, most - 2)  # the title and the line of the rest
        hidden = more_line(players, shown, model.me)
        players = [players[n] for n in shown]
    # a name whole where the panel has room for it beside the whole bar; else up to 12
    # wide, a ghost's with its mark 16 (its name cut less), the bar taking the rest (at
    # 200 columns names were cut to 12 beside 100 free columns); room for " x"
    beside_bar = width - len(pad) - NAME_OTHERS - 1 - (BAR_WIDE if wide else BAR_MOST)
    longest = max(
        (
            min(len(_shown_name(p)), max(NAME_MOST[bool(p.get("ghost"))], beside_bar))
            for p in players
        ),
        default=4,
    )
    name_width = max(min(longest, width - len(pad) - 16), 3)
    heading = Text(f"{pad}{title}", style="bold")
    heading.align("left", max(len(pad) + 1 + name_width + 1, heading.cell_len + 1))
    # the games that take cards off in pairs count pairs, as the player's own line does
    pairs = model.counts_pairs
    heading.append(" pairs moves" if pairs else " home moves", style="dim")
    out = [fit(heading, width)]
    for p in players:
        out.append(fit(_racer_line(p, model, g, pad, name_width, width, wide, pairs), width))
    if hidden:
        out.append(fit(Text(f"{pad} {hidden}", style="dim"), width))
    return out if most is None else out[: max(most, 0)]


def _racer_line(
    p: Mapping[str, Any],
    model: Model,
    g: Glyphs,
    pad: str,
    name_width: int,
    width: int,
    wide: bool,
    pairs: bool = False,
) -> Text:
    name = clean(p.get("name", ""), 20)
    me = name == model.me and not p.get("ghost")
    line = Text(pad)
    line.append(g.me if me else " ", style="bold")
    if p.get("ghost"):  # the mark is kept, the name cut to leave it room
        line.append(clean(name, max(name_width - len(GHOST), 3)))
        line.append(GHOST, style="dim")
        line.append(" " * max(name_width - len(_shown_name(p)), 0))
    else:
        line.append(f"{clean(name, name_width):<{name_width}}", style="bold" if me else "")
    line.append(" ")
    home, total = as_int(p.get("home")), as_int(p.get("total"))
    line.append(f"{home // 2:>2}/{total // 2:<2}" if pairs else f"{home:>2}/{total:<2}")
    line.append(f" {as_int(p.get('moves')):>5}", style="dim")
    word = _status_word(p, g)
    room_left = width - line.cell_len - 1
    short = word.cell_len - room_left
    if word.plain and short > 0 and name_width - short >= 6:
        # the name cut further, for the word whole: its mark alone ("x") said nothing
        return _racer_line(p, model, g, pad, name_width - short, width, wide, pairs)
    if word.plain and word.cell_len > room_left:  # no room: a mark for how it ended
        word = Text(g.won[0] if word.plain.endswith("won") else "x", style=word.style)
    if word.plain:
        line.append(" ")
        line.append_text(word)
    elif not p.get("present", True):
        line.append(" away", style="dim")
    elif room_left >= 4:
        line.append(" ")
        line.append_text(bar(home, total, min(room_left, BAR_WIDE if wide else BAR_MOST), g))
    return line


def summary(
    players: Sequence[Mapping[str, Any]],
    me: str | None,
    width: int,
    sep: str,
    pairs: bool = False,
    won: str = "✓",
) -> Text:
    """The racers in a line, under a board that leaves no room beside it: each one's name
    and cards home (pairs off, where cards leave in pairs) and a short mark of how their
    game stands (:func:`short_mark`; ``won``, a win's), best first as the panel has them
    (in the order given, the leader came last at 60x20, and "resigned" and "away" went
    unsaid); where they do not all fit in ``width``, as many as fit of those nearest the
    player, and how many more."""
    players = sorted(players, key=standing)

    def item(p: Mapping[str, Any], most: int = 12) -> str:
        mark = GHOST if p.get("ghost") else ""
        status = short_mark(p, won)
        return f"{clean(p.get('name', ''), most)}{mark} {progress(p, pairs)}{status}"

    line = sep.join(item(p, 20) for p in players)
    if len(line) <= width:  # the names whole where the line has room for them
        return fit(Text(line, style="bold"), width)
    line = sep.join(item(p) for p in players)
    if len(line) <= width or len(players) < 2:
        return fit(Text(line, style="bold"), width)
    for keep in range(len(players) - 1, 0, -1):
        shown = [players[n] for n in nearest(players, me, keep)]
        rest = f"{sep}+{len(players) - keep} more"
        line = sep.join(item(p) for p in shown)
        if len(line) + len(rest) <= width:
            break
    text = Text(line, style="bold")
    text.append(rest, style="dim")
    return fit(text, width)


def short_mark(player: Mapping[str, Any], won: str = "✓") -> str:
    """How a racer's game stands, in the fewest letters, after their cards home in the
    line under a board: ``won`` (the panel's mark), ``x`` (lost, resigned or out of
    time, as the panel marks them where its word has no room), ``left`` (left the room
    during the race, as the panel says), ``away``; nothing while they play.

    >>> [short_mark(p) for p in ({"status": "won"}, {"status": "resigned"},
    ...  {"status": "resigned", "left": True}, {"present": False}, {"status": "playing"})]
    [' ✓', ' x', ' left', ' away', '']
    """
    status = clean(player.get("status", ""), 12)
    if status == "won":
        return f" {won}"
    if player.get("left"):
        return " left"
    if status in ("lost", "resigned", "timeout"):
        return " x"
    return " away" if not player.get("present", True) else ""


#: after a ghost's name in the racers' panel
GHOST = " (ghost)"
#: the most a racer's name takes in the racers' panel where the whole name and the whole
#: bar do not both fit: a player's, a ghost's with its mark
NAME_MOST = (12, 16)
#: a racer's line besides the name: the mark, then " 13/52" and " moves"
NAME_OTHERS = 13
#: the longest progress bar: beside the board, and watching (the whole screen's width)
BAR_MOST, BAR_WIDE = 12, 24


def _shown_name(player: Mapping[str, Any]) -> str:
    name = clean(player.get("name", ""))
    return f"{name}{GHOST}" if player.get("ghost") else name


def _copied(line: str, width: int, indent: int = 2, style: str = "", hang: int = 2) -> list[Text]:
    """A line holding a command to copy, wrapped between its words (a command's own words
    never split) rather than cut short at the screen's edge; ``indent`` cells in, its
    further lines ``hang`` more. Too wide, a line whose command follows a label ("Replay:
    patience-race ...") puts the command on a line of its own where it fits there whole
    (where it does not, that would only cost a line: a short screen's table row).

    >>> [t.plain for t in _copied("Others: patience-race replay ID --server ws://h:1", 30)]
    ['  Others: patience-race \\\\', '    replay ID \\\\', '    --server ws://h:1']
    >>> [t.plain for t in _copied("Others: patience-race replay ID --server ws://h:1", 46)]
    ['  Others:', '    patience-race replay ID --server ws://h:1']
    >>> [t.plain for t in _copied("Replay: patience-race replay 10e0", 40)]
    ['  Replay: patience-race replay 10e0']

    Wider than the screen even on a line of its own (above; the results at 60 columns, with
    a ``--server``), a command is broken with a shell's line continuation (:mod:`.copied`).
    """
    width = max(width, 20)
    label, colon, said = line.partition(": patience-race ")
    alone = "patience-race " + said
    if indent + len(line) > width and colon and indent + hang + len(alone) <= width:
        return [
            Text(" " * indent + label + ":", style=style),
            Text(" " * (indent + hang) + alone, style=style),
        ]
    found = command_in(line)
    if found is not None and indent + len(line) > width and indent + hang + len(found[1]) > width:
        # (not even on a line of its own: broken with a shell's " \", to paste whole)
        head, command, tail = found
        rows = continued(head, command, width, indent, hang)
        if tail.strip() and len(rows[-1]) + len(tail) <= width:
            rows[-1] += tail
        elif tail.strip():
            rows += textwrap.wrap(tail.strip(), width, initial_indent=" " * (indent + hang))
        return [Text(row, style=style) for row in rows]
    return [
        Text(part, style=style)
        for part in textwrap.wrap(
            line,
            width,
            initial_indent=" " * indent,
            subsequent_indent=" " * (indent + hang),
            break_long_words=False,
            break_on_hyphens=False,
        )
    ]


def rematch_roster(model: Model, width: int) -> list[Text]:
    """Who is in the room after a race, for its rematch, as the browser's name chips show
    it: the results list racers who have gone since, and not those who came for the
    rematch (only a passing "ivy joined" said so). None in a quick race's room (it has no
    rematch).

    >>> model = Model(me="gus")
    >>> model.room = {"players": [{"name": "fay", "host": True}, {"name": "gus"},
    ...                           {"name": "ivy", "present": False}]}
    >>> [line.plain for line in rematch_roster(model, 80)]
    ['  In the room for the rematch: fay (host), gus, ivy (away)']
    """
    room = model.room or {}
    if room.get("quick"):
        return []
    names = []
    for p in room.get("players") or []:
        if isinstance(p, Mapping):
            away = not p.get("present", True)
            marks = [word for word, on in (("host", p.get("host")), ("away", away)) if on]
            name = clean(p.get("name", ""), 20)
            names.append(f"{name} ({', '.join(marks)})" if marks else name)
    return _copied(f"In the room for the rematch: {', '.join(names)}", width) if names else []


def _same_racers(room: Mapping[str, Any]) -> bool:
    """Whether the room's members are the last race's racers, no one gone or come since:
    its roster then tells nothing the results do not.

    >>> _same_racers({"players": [{"name": "a"}], "results": [{"player": "a"}]})
    True
    """
    members = {p.get("name") for p in room.get("players") or [] if isinstance(p, Mapping)}
    racers = {r.get("player") for r in room.get("results") or [] if isinstance(r, Mapping)}
    return members == racers


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
        if p.get("host") and not room.get("quick"):  # (nobody hosts a quick race)
            line.append("host ", style="cyan")
        elif state == LOBBY:
            line.append(
                "ready" if p.get("ready") else "not ready",
                style=("green" if p.get("ready") else "yellow"),
            )
        if not p.get("present", True):
            line.append("(away)", style="dim")
        if isinstance(p.get("rating"), int):  # (the room's game's: docs/ratings.md)
            line.pad_right(max(0, 36 - len(line)))
            line.append(f"rating {as_int(p.get('rating'))}", style="magenta")
        out.append(fit(line, width))
    return out


def join_command(server: str, code: str) -> str:
    """The command a friend types to join: ``--server`` too when this is not the default
    server, so that it works as pasted.

    >>> join_command("ws://127.0.0.1:8765", "8GY8VQ")
    'patience-race race join 8GY8VQ'
    >>> join_command("wss://race.example.org", "8GY8VQ")
    'patience-race race join 8GY8VQ --server wss://race.example.org'
    """
    return command(server, f"race join {code}")


def room_link(server: str, code: str) -> str:
    """The room's link for a browser (``/r/CODE`` on the server's HTTP side, from the
    websocket URL this client uses): it opens straight into the lobby.

    >>> room_link("ws://127.0.0.1:8765", "8GY8VQ"), room_link("wss://race.example.org", "8GY8VQ")
    ('http://127.0.0.1:8765/r/8GY8VQ', 'https://race.example.org/r/8GY8VQ')
    """
    return http_url(server, f"/r/{code}")


def room_body(model: Model, width: int, height: int, now: int, *, watching: bool) -> list[Text]:
    g = Glyphs(model.ascii)
    room = model.room or {}
    state = model.room_state
    code = clean(room.get("code", ""), 16)
    out: list[Text] = [Text("")]
    if state == LOBBY:
        limit = room.get("time_limit")
        limit_text = f"{clock(limit * 1000)} a race" if isinstance(limit, int) else "none"
        out.append(Text(f"  Room {code}: {model.game_name()}", style="bold"))
        if not watching:
            # (wrapped between words: at 60 columns the --server address was cut)
            out.append(Text("  Friends join with:"))
            out += _copied(join_command(model.server, code), width, indent=4, style="bold")
            if model.server:
                out += _copied(f"or in a browser: {room_link(model.server, code)}", width, 4)
        # (a room made with hints says so, as the browser's lobby does; wrapped between
        # words: at 60 columns it would be cut)
        hints = "; hints allowed" if room.get("hints") is True else ""
        out += _copied(
            f"Time limit: {limit_text}; up to {as_int(room.get('max_players'))} racers; "
            f"{as_int(room.get('watchers'))} watching{hints}",
            width,
        )
        if room.get("rated") is False:  # (a seeded room's first race: ratings.md)
            said = "Not rated: its deal was chosen by its seed (a rematch is)."
            out += _copied(said, width, style="dim")
        out.append(Text(""))
        out.extend(roster(model, width))
        out.append(Text(""))
        if not watching:
            host = clean(room.get("host") or "", 20)
            if model.is_host:
                out.append(Text("  You host: start (s) when the others are ready.", style="dim"))
            else:
                mine = [
                    p
                    for p in room.get("players") or []
                    if isinstance(p, Mapping) and p.get("name") == model.me
                ]
                said = (
                    ": you are ready (r again: not ready)."
                    if mine and mine[0].get("ready")
                    else "; say r when ready."
                )
                out += _copied(f"{host} hosts and starts the race{said}", width)
    elif state == COUNTDOWN:
        start = as_int(room.get("start_at"))
        left = max(start - model.server_now(now), 0)
        out.append(Text(f"  Race {as_int(room.get('race'))} of room {code}: {model.game_name()}"))
        out.append(Text(""))
        second = countdown_second(model, now) or 0
        if height >= 16:
            out.extend(Text(f"    {row}", style="bold yellow") for row in big_number(second, g))
            out.append(Text(""))
        out.append(Text(f"  Starting in {left / 1000:.1f} s", style="bold yellow"))
        out.append(Text(""))
        out.extend(roster(model, width))
    elif state == RACING:
        out.extend(race_panel(model, width, wide=True))
    elif state == FINISHED:
        replay: list[Text] = []
        game = model.game
        if not watching and game is not None and raced(model):
            replay = _copied(f"Replay: {command(model.server, f'replay {game.gid}')}", width)
        others: list[Text] = []
        if any(isinstance(r, Mapping) and r.get("replay") for r in room.get("results") or []):
            others = _copied(replays_line(model, own=bool(replay)), width)
        members = rematch_roster(model, width)
        last: list[Text] = []
        if not watching:
            if room.get("quick"):
                again = command(model.server, f"quick {clean(room.get('game') or '', 32)}")
                last = _copied(f"A quick race has no rematch. Race again: {again}", width)
            elif model.is_host:
                last = [Text("  You host: m calls a rematch (a new deal for everyone).")]
            else:
                host = clean(room.get("host") or "", 20)
                last = _copied(f"{host} may call a rematch; q leaves the room.", width)
        table = results_table(model, width)
        short = len(table) + len(replay) + len(others) + len(members) + len(last) > height
        if short and _same_racers(room):  # (it names no one the table does not)
            members = []
        if len(table) + len(replay) + len(others) + len(members) + len(last) > height:
            # too few rows for the whole table (eight racers at 60x20): a line a racer,
            # the rest a key away, and the line of who calls the rematch kept
            rows = height - len(replay) - len(members) - len(last)
            table, others = short_results(model, width, rows), []
        out += [*table, Text(""), *replay, *others, *members, *last]
    else:
        # (the closed event of a room closed once its race was over keeps its results: a
        # watcher's screen was the closed line alone, as the browser keeps the table)
        if any(isinstance(r, Mapping) for r in room.get("results") or []):
            table = results_table(model, width)
            if len(table) + 2 > height:
                table = short_results(model, width, height - 2)
            out += [*table, Text("")]
        out.append(Text(f"  Room {code} is closed."))
    # a short screen loses the blank lines first, from the top: the results of three
    # racers at 20 rows lost the line saying who calls the rematch
    while len(out) > height and any(not line.plain for line in out):
        del out[next(n for n, line in enumerate(out) if not line.plain)]
    return [fit(line, width) for line in out[:height]]
