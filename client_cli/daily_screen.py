"""A ranked daily's result in place of its board (:func:`daily_result_lines`): its rank,
the day's par (:func:`par_line`), the streaks, the next deal, the result line to paste,
the board and replay commands and the day's commitment (:func:`commitment_lines`). Once
the day is over (:func:`.daily_end.day_over`) it says so: the day named, the new deal
out, the board command at that day's board, the replay anyone's.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text

from .challenge import command, http_url
from .copied import continued
from .daily_end import day_over
from .lines import as_int, clock, fit, plural, split_line, status_words, wrap
from .model import Game, Model
from .par import against_par, par_words
from .sanitize import clean


def par_line(result: Mapping[str, object], game: Game | None = None) -> list[Text]:
    """The day's par, where the server told it, and whether it is proved the shortest;
    and a won ``game``'s moves against it."""
    par, shortest = result.get("par"), result.get("par_shortest")
    if not isinstance(par, int):
        return []
    said = f"  The day's {par_words(par, shortest if isinstance(shortest, bool) else None)}."
    won = (
        ""
        if game is None
        else against_par(par, as_int(game.view.get("moves")), game.status == "won")
    )
    return [Text(said), *([Text(f"  {won}")] if won else [])]


def daily_result_lines(model: Model, width: int, now: int) -> list[Text]:
    """The ranked daily's result in place of the board: rank, streaks, the next deal,
    and the line to paste into a chat. Once the day is over (:func:`.daily_end.day_over`)
    it names the day, says the next deal is out, points the board command at that day's
    board and says the replay is anyone's."""
    result = model.daily_result or {}
    game = model.game
    name = model.game_name()
    status = status_words(clean(result.get("status", ""), 16))
    streak = result.get("streak") or {}
    mine = streak.get("game") or {}
    any_game = streak.get("all") or {}
    reset = as_int((model.daily or {}).get("reset_at"))
    rules = game.rules if game is not None else ""
    held = clean(result.get("review", ""), 400)
    day = clean(result.get("day") or (model.daily or {}).get("day") or "", 10)
    over = day_over(model, now) and bool(day)
    # (as it stood at the attempt's end: others finish after it, above it, untold here)
    rank = f"rank {as_int(result.get('rank'))} on the day's board"
    place = "held for review" if held else f"{rank} {'as you finished' if over else 'so far'}"
    which = f"The {day} daily challenge" if over else "Today's daily challenge"
    heading = f"{which} is done: {status}, {place}."
    out = [
        Text(""),
        # (wrapped: the day named, at 80 columns it lost its end, "...on the day's boa…")
        *(Text("  ") + line for line in wrap(heading, width - 4, "bold", 2)),
        *par_line(result, game),
        *(Text("  ") + line for line in (wrap(held, width - 4, "yellow", 4) if held else [])),
        # (wrapped between words: at 60 columns it was cut, "...0 at any game (best 0…")
        *_wrapped(
            f"Streak: {plural(as_int(mine.get('current')), 'day')} at {name} "
            f"(best {as_int(mine.get('best'))}); {as_int(any_game.get('current'))} at any game "
            f"(best {as_int(any_game.get('best'))}).",
            width,
        ),
    ]
    if over:
        out += _wrapped(f"The next day's deal is out: new {rules} plays it (asked first).", width)
    elif reset:
        out.append(Text(f"  The next deal in {clock(reset - model.server_now(now))}."))
    out += [Text(""), Text("  Your result, to paste into a chat:"), Text("")]
    style = "bold green" if status == "won" else "bold"
    for piece in split_line(clean(result.get("line", ""), 200), width - 4):
        out.append(Text(f"  {piece}", style=style))
    replay = clean(result.get("game", ""), 32)
    board = f"top {rules} --day {day}" if over else f"top {rules}"
    out += [
        Text(""),
        Text("  (q prints it again as you leave, in one piece to copy)", style="dim"),
        Text(""),
        *_command_line("The board: ", command(model.server, board), width),
        *_command_line("Replay:    ", command(model.server, f"replay {replay}"), width),
        Text(
            "             (anyone's now: the day is over)"
            if over
            else "             (yours alone until the day's reset, then anyone's)",
            style="dim",
        ),
    ]
    out += commitment_lines(model)
    return [fit(line, width) for line in out]


def _wrapped(said: str, width: int) -> list[Text]:
    """``said`` two cells in, wrapped between words (never cut short).

    >>> [t.plain for t in _wrapped("Streak: 0 days at Babette (best 0); 0 at any game", 40)]
    ['  Streak: 0 days at Babette (best 0);', '  0 at any game']
    """
    return [Text("  ") + line for line in wrap(said, width - 4, "", 4)]


def _command_line(label: str, said: str, width: int) -> list[Text]:
    """A command after its label, or under it where the two are wider than the screen (a
    command cut at its end, "--server ws://127.0.0.1:52…", could not be copied).

    >>> [t.plain for t in _command_line("The board: ", "patience-race top gate", 40)]
    ['  The board: patience-race top gate']
    >>> [t.plain for t in _command_line("Replay:    ", "patience-race replay 10e0bf73", 34)]
    ['  Replay:', '    patience-race replay 10e0bf73']

    Wider than the screen even so (a ``--server`` at 60 columns), broken with a shell's
    line continuation (:mod:`.copied`), to paste whole:

    >>> said = "patience-race replay 10e0bf73a1b2c3d4 --server ws://127.0.0.1:38899"
    >>> [t.plain for t in _command_line("Replay:    ", said, 60)]
    ['  Replay:    patience-race replay 10e0bf73a1b2c3d4 \\\\', '    --server ws://127.0.0.1:38899']
    """
    if len(label) + len(said) + 2 <= width:
        return [Text(f"  {label}{said}")]
    if len(said) + 4 <= width:
        return [Text(f"  {label.rstrip()}"), Text(f"    {said}")]
    return [Text(row) for row in continued(label, said, width)]


def commitment_lines(model: Model) -> list[Text]:
    """The day's commitment to the deal, short (its first 12 hex digits), and where the
    commitments are published: to compare after the reset (docs/commitments.md)."""
    made = clean((model.daily or {}).get("commitment") or "", 64)
    if not made:
        return []
    page = http_url(model.server, "/daily/commitments") if model.server else "/daily/commitments"
    return [
        # (in the column of "The board: " and "Replay:    " above: it stood two further)
        Text(f"  The deal:  committed ahead, {made[:12]}"),
        Text(f"             {page}", style="dim"),
    ]
