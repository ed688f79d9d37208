"""Practising the daily against the board: once the ranked attempt is over, a practice
game of the day's deal races ghosts of players who finished it (``daily`` with
``"ghosts": true``: those the player follows, then the day's leaders; up to eight).

Pure: :class:`BoardRace` is such a practice game's ghosts, moved along their points from
the practice game's ``started_at`` by the server's clock, and its ``ghosts_result`` once it
comes; the rest draws them: the racers beside the board (as many as fit, the nearest the
player), and, in place of the board at the end, where the player placed among them.

>>> placing({"beaten": 2, "table": [{"rank": 1, "ghost": True}, {"rank": 2, "ghost": False},
...     {"rank": 3, "ghost": True}, {"rank": 4, "ghost": True}]})
'You placed 2nd of 4 against the board: you beat 2 of 3 ghosts.'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text

from .challenge import Ghost, result_words, table
from .lines import as_int, fit, lines_of
from .places import ordinal, placed
from .sanitize import clean

#: the racers' panel's title
TITLE = "vs the board"


@dataclass
class BoardRace:
    """A practice game raced against the board: its game id, its start (server ms, the
    snapshot's ``started_at``), the ghosts, and the ``ghosts_result`` once it comes."""

    gid: str
    start_at: int
    ghosts: list[Ghost] = field(default_factory=list)
    result: dict[str, Any] | None = None

    @classmethod
    def from_message(cls, msg: Mapping[str, Any]) -> BoardRace | None:
        """A ``daily`` reply's practice and its ghosts; None where it has none (a ranked
        attempt, or practice not asked to race)."""
        ghosts = msg.get("ghosts")
        if msg.get("kind") != "practice" or not isinstance(ghosts, list):
            return None
        return cls(
            gid=clean(msg.get("game", ""), 32),
            start_at=as_int(msg.get("started_at")),
            ghosts=[Ghost.from_message(g) for g in ghosts if isinstance(g, Mapping)],
        )

    def racers(self, me: Mapping[str, Any] | None, ms: int) -> list[dict[str, Any]]:
        """The player (``me``, a racer's map; None: left out) and the ghosts where they
        stand ``ms`` after the start, best first."""
        out = [dict(me)] if me is not None else []
        for ghost in self.ghosts:
            home, moves, status = ghost.at(ms)
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
        return sorted(out, key=lambda p: (-as_int(p.get("home")), as_int(p.get("moves"))))


def _entries(result: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    entries = result.get("table")
    return [e for e in entries if isinstance(e, Mapping)] if isinstance(entries, list) else []


def placing(result: Mapping[str, Any]) -> str:
    """Where the practice placed among the ghosts, in a line (a ``ghosts_result``)."""
    entries = _entries(result)
    ghosts = sum(1 for e in entries if e.get("ghost"))
    if not ghosts:
        return "No ghosts raced: no one else had finished today's deal when you began."
    mine = next((e for e in entries if not e.get("ghost")), {})
    beaten = min(max(as_int(result.get("beaten")), 0), ghosts)
    beat = f"you beat {beaten} of {ghosts} ghost{'s' if ghosts != 1 else ''}"
    if beaten == ghosts:
        beat = "you beat every ghost" if ghosts > 1 else "you beat the ghost"
    where = placed(mine, entries) if mine else ordinal(len(entries))
    return f"You placed {where} of {len(entries)} against the board: {beat}."


def result_lines(
    model_me: str | None, race: BoardRace, width: int, ascii: bool, unit: str = "cards"
) -> list[Text]:
    """In place of the board once the practice is over: the placing, the player's
    result, and the table of the practice and the ghosts, ranked as a challenge's (in
    pairs off where the game's ``unit`` is ``pairs``)."""
    result = race.result or {}
    you = result.get("you")
    you = you if isinstance(you, Mapping) else {}
    entries = _entries(result)
    ghosts = sum(1 for e in entries if e.get("ghost"))
    beaten = as_int(result.get("beaten"))
    style = "bold green" if ghosts and beaten == ghosts else "bold"
    out = [
        Text(""),
        Text(f"  {placing(result)}", style=style),
        Text(f"  Your practice: {result_words(you, unit)} (not ranked)."),
        Text(""),
        Text("  The practice among the day's ghosts", style="bold"),
    ]
    rows = lines_of(table(entries, model_me, ascii, replays=False, unit=unit), width - 2)
    out += [Text("  ") + row for row in rows]
    return [fit(line, width) for line in out]


def result_message(result: Mapping[str, Any]) -> str:
    """The message line at ``ghosts_result``: the placing, and what ``n`` does."""
    return f"{placing(result)} n: practise again."


def board_greeting(ghosts: int) -> str:
    """The message practice against the board opens with.

    >>> board_greeting(8)
    "Practice, not ranked: racing 8 ghosts of today's board, as they played."
    """
    many = f"{ghosts} ghosts" if ghosts != 1 else "1 ghost"
    return f"Practice, not ranked: racing {many} of today's board, as they played."
