"""A race room's screens, drawn from the model by pure functions: the racers beside the
board, the lobby's roster, the countdown, the results, and the room's body (lobby,
countdown, a race watched, results)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.table import Table
from rich.text import Text

from .lines import Glyphs, as_int, clock, fit, lines_of, race_time
from .model import COUNTDOWN, FINISHED, LOBBY, RACING, Model
from .sanitize import clean


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
    players.sort(key=lambda p: (-as_int(p.get("home")), as_int(p.get("moves"))))
    pad = "  " if wide else ""
    out = [fit(Text(f"{pad}Race {as_int(room.get('race'))}", style="bold"), width)]
    longest = max((len(clean(p.get("name", ""))) for p in players), default=4)
    name_width = max(min(longest, 12, width - len(pad) - 11), 3)  # room for " x"
    for p in players:
        name = clean(p.get("name", ""), name_width)
        me = name == model.me
        line = Text(pad)
        line.append(g.me if me else " ", style="bold")
        line.append(f"{name:<{name_width}} ", style="bold" if me else "")
        home, total = as_int(p.get("home")), as_int(p.get("total"))
        line.append(f"{home:>3}/{total:<3}")
        word = _status_word(p, g)
        if wide:
            line.append(f" {as_int(p.get('moves')):>4} moves", style="dim")
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
        out.append(fit(line, width))
    watchers = as_int(room.get("watchers"))
    if watchers:
        out.append(Text(f"{pad}{watchers} watching", style="dim"))
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
        out.append(fit(line, width))
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
            str(as_int(r.get("rank"))),
            Text(name, style=style),
            Text(status, style="green" if status == "won" else ""),
            race_time(r.get("time_ms")) or g.dash,
            str(as_int(r.get("moves"))),
            f"{as_int(r.get('home'))}/{as_int(r.get('total'))}",
            Text(clean(r.get("replay") or "", 32) or g.dash, style="dim"),
        )
    title = Text(f"  Results of race {as_int(room.get('race'))}", style="bold")
    return [title, *(Text("  ") + line for line in lines_of(table, width - 2))]


def room_body(model: Model, width: int, height: int, now: int, *, watching: bool) -> list[Text]:
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
                f"  Time limit: {limit_text}; up to {as_int(room.get('max_players'))} racers; "
                f"{as_int(room.get('watchers'))} watching"
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
        start = as_int(room.get("start_at"))
        left = max(start - model.server_now(now), 0)
        out.append(Text(f"  Race {as_int(room.get('race'))} of room {code}: {model.game_name()}"))
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
    return [fit(line, width) for line in out[:height]]
