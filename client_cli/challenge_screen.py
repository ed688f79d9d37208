"""A challenge's screens, drawn from the model by pure functions: the countdown to its
start, the racers beside the board (the player, and the ghost moved along its recorded
points by the server's time), and the result against the ghost with the challenge's
table.
"""

from __future__ import annotations

import sys
from typing import Any

from rich.text import Text

from .challenge import ChallengeRace, about, command, result_words, table, verdict_line
from .lines import Glyphs, fit, lines_of, wrap
from .model import Model
from .places import place_of
from .quick_words import result_message as quick_result
from .room_screen import _copied, big_number, racers_panel
from .sanitize import clean


def race_ms(model: Model, now: int) -> int:
    """How long the challenge's race has run, by the server's clock (negative before
    its start)."""
    race = model.challenge
    return model.server_now(now) - race.start_at if race is not None else 0


def countdown_second(model: Model, now: int) -> int | None:
    """The whole seconds left before the challenge's game starts, while it counts down;
    else None (the terminal rings as it changes, as before a race)."""
    if model.challenge is None or model.game is not None:
        return None
    left = -race_ms(model, now)
    return max(-(-left // 1000), 0)


def racers(model: Model, now: int) -> list[dict[str, Any]]:
    """The player (the game on the table) and the ghosts where they stand now."""
    race = model.challenge
    out: list[dict[str, Any]] = []
    game = model.game
    if game is not None:
        view = game.view
        out.append(
            {
                "name": model.me or "you",
                "home": view.get("home"),
                "total": view.get("total"),
                "moves": view.get("moves"),
                "status": game.status,
            }
        )
    # once the result is in, each ghost as its game ended (as the verdict says), not where
    # its clock had got to when the player's game ended
    at = race_ms(model, now) if race is None or race.result is None else sys.maxsize
    for ghost in race.ghosts if race is not None else []:
        home, moves, status = ghost.at(at)
        out.append(
            {
                "name": ghost.name,
                "ghost": True,
                "home": home,
                "total": ghost.total,
                "moves": moves,
                "status": status,
            }
        )
    return out


def challenge_panel(model: Model, width: int, now: int) -> list[Text]:
    """The racers beside the board: the player and the ghost (a quick race's: its ghosts,
    or none)."""
    race = model.challenge
    title = "Challenge" if race is None or race.cid else "Ghosts" if race.ghosts else "Alone"
    return racers_panel(racers(model, now), title, model, width)


def countdown_body(model: Model, width: int, height: int, now: int) -> list[Text]:
    """Before the start: what is raced, and the seconds left in big digits."""
    race = model.challenge
    assert race is not None
    g = Glyphs(model.ascii)
    left = max(-race_ms(model, now), 0)
    if not race.cid:  # a quick race's ghosts (no challenge)
        out = [Text(""), Text(f"  Quick race · {quick_about(race)}", style="bold"), Text("")]
    else:
        out = [
            Text(""),
            Text(f"  Racing {race.ghost_name}'s ghost", style="bold"),
            # (wrapped between words: at 60 columns it was cut, "...: resigned, 0/52 home…")
            *(Text("  ") + line for line in wrap(about(race.shown), width - 4, "", 3)),
            Text(""),
        ]
    second = countdown_second(model, now) or 0
    if height >= 16:
        out.extend(Text(f"    {row}", style="bold yellow") for row in big_number(second, g))
        out.append(Text(""))
    out.append(Text(f"  Starting in {left / 1000:.1f} s", style="bold yellow"))
    out.append(Text(""))
    if race.cid:
        said = "The same deal; the ghost moves as its game was played."
    elif race.ghosts:
        said = "The same deal; the ghosts move as their games were played."
    else:
        said = "Nobody to race this time: the clock is yours alone."
    out.append(Text(f"  {said}", style="dim"))
    return [fit(line, width) for line in out[:height]]


def _entry(value: Any) -> dict[str, Any]:
    return dict(value) if isinstance(value, dict) else {}


def result_lines(
    model: Model, race: ChallengeRace, width: int, height: int | None = None
) -> list[Text]:
    """In place of the board once the race is over: the verdict, both results, the
    table, both replays; in ``height`` lines where given (:func:`_squeezed`)."""
    result = race.result or {}
    if result.get("quick"):
        return quick_result_lines(model, result, width)
    verdict = result.get("verdict")
    beat = isinstance(verdict, dict) and verdict.get("beat") is True
    style = "bold green" if beat else "bold red"
    ghost = race.ghost_name
    you = _entry(result.get("you"))
    theirs = _entry(result.get("ghost"))
    unit = "pairs" if model.counts_pairs else "cards"  # (Nestor's: pairs off)
    # (each line wrapped between words: a long name ran them past 80 columns, cut there)
    out = [Text(""), *_copied(verdict_line(verdict, ghost, unit), width, 2, style, hang=0)]
    if you or theirs:
        said = f"You: {result_words(you, unit)}. {ghost}: {result_words(theirs, unit)}."
        out += _copied(said, width, hang=0)
    game = model.game
    mine = clean(you.get("replay") or (game.gid if game is not None else ""), 32)
    ghosts = clean(theirs.get("replay") or race.shown.get("replay") or "", 32)
    replays = [Text("")]
    # (the commands with --server where it is not the default: they work as pasted)
    if mine or ghosts:
        replays.append(Text("  The replays", style="bold"))
    if mine:
        replays += _copied(f"Yours:   {command(model.server, f'replay {mine}')}", width, hang=9)
    if ghosts:
        replays += _copied(f"Ghost's: {command(model.server, f'replay {ghosts}')}", width, hang=9)
    if (mine or ghosts) and race.shown.get("opens_at") is not None:  # (today's daily deal)
        said = "(today's daily deal: these replays open after the reset)"
        replays += _copied(said, width, style="dim", hang=1)
    entries = result.get("table")
    entries = [e for e in entries if isinstance(e, dict)] if isinstance(entries, list) else []
    title = [Text(""), Text(f"  The table of {ghost}'s challenge", style="bold")]

    def rows_of(shown: list[dict[str, Any]]) -> list[Text]:
        lines = lines_of(table(shown, model.me, model.ascii, unit=unit), width - 2)
        return [Text("  ") + row for row in lines]

    lines = [*out, *replays, *title, *rows_of(entries)]
    if height is not None and len(lines) > height:
        lines = _squeezed(out, replays, title, entries, rows_of, height, model.me)
    return [fit(line, width) for line in lines]


def _squeezed(
    out: list[Text],
    replays: list[Text],
    title: list[Text],
    entries: list[dict[str, Any]],
    rows_of: Any,
    height: int,
    me: str | None,
) -> list[Text]:
    """The result screen in ``height`` lines: the table's rows cut to the ghost's, the
    player's and those nearest the player, with a line saying how many are left out;
    where even those do not fit, the blank lines go, then the replays' commands (their
    ids are in the table). The player's own row is never cut (at 60x20 the table showed
    only the ghost's row)."""
    me = (me or "").lower()
    at = next(
        (n for n, e in enumerate(entries) if not e.get("ghost") and
         clean(e.get("player", ""), 20).lower() == me),
        0,
    )  # fmt: skip
    ghost = next((n for n, e in enumerate(entries) if e.get("ghost")), at)
    near = sorted(range(len(entries)), key=lambda n: (n not in (at, ghost), abs(n - at), n > at))

    def rows(keep: int) -> list[Text]:
        chosen = sorted(near[:keep])
        left = len(entries) - len(chosen)
        more = [Text(f"  +{left} more", style="dim")] if left else []
        return [*rows_of([entries[n] for n in chosen]), *more]

    least = min(len({at, ghost}), len(entries))
    whole = [*out, *replays, *title]
    blanks = [n for n, line in enumerate(whole) if not line.plain.strip()]
    # (the blank lines go one by one, as few as need to: then the replays' lines)
    tries = [[line for n, line in enumerate(whole) if n not in blanks[:k]] for k in
             range(len(blanks) + 1)]  # fmt: skip
    tries.append([line for line in [*out, *title] if line.plain.strip()])
    for above in tries:
        for keep in range(len(entries), least - 1, -1):
            lines = [*above, *rows(keep)]
            if len(lines) <= height:
                return lines
    return [*above, *rows(least)][-height:] if height > 0 else []


def quick_about(race: ChallengeRace) -> str:
    """What a quick race's ghost race is, in a line.

    >>> from .challenge import Ghost
    >>> race = ChallengeRace("", {}, "g1", 0, [Ghost("ann", 52, ((0, 0, 0),))])
    >>> quick_about(race)
    'against the ghost of ann'
    """
    names = [g.name for g in race.ghosts]
    if not names:
        return "a fresh deal, alone (no recorded race left to race)"
    return f"against the ghost{'s' if len(names) > 1 else ''} of {', '.join(names)}"


def quick_result_lines(model: Model, result: dict[str, Any], width: int) -> list[Text]:
    """A quick race's ghost race over: the place, and the table."""
    first = place_of(result) == 1
    entries = result.get("table")
    entries = entries if isinstance(entries, list) else []
    ghosts = any(isinstance(e, dict) and e.get("ghost") for e in entries)
    unit = "pairs" if model.counts_pairs else "cards"
    said = quick_result(result, unit)
    out = [Text(""), *_copied(said, width, 2, "bold green" if first else "bold", 0)]
    if ghosts:  # (alone: no table of one)
        out += [Text(""), Text("  Against the ghosts", style="bold")]
        rows = lines_of(table(entries, model.me, model.ascii, False, unit), width - 2)
        out += [Text("  ") + row for row in rows]
    again = command(model.server, f"quick {model.game.rules}" if model.game else "quick")
    out += [Text(""), *_copied(f"Another quick race: {again}", width, style="dim")]
    return [fit(line, width) for line in out]
