"""Each game's measured winnability: how many of 1,000 deals (seeds 0 to 999) the solver
won, proved lost, or left undecided at 10 s a deal (``patience-race-server winnability
GAME --deals 1000 --budget 10 --jobs 2``, measured 2026-11-24, The Labyrinth again under its
corrected rules and Light and Shade after its solver's count of the Rivals on
2026-11-26; ``docs/games/README.md``
has the table, its intervals and times). What the ``games`` list and the rules pages
tell players; measured again when a game's rules or the solver change.

>>> MEASURED["gate"].won, MEASURED["nestor"].lost
(1000, 667)
>>> MEASURED["wedge"].text()
'won 949 of 1,000 deals (lost 51)'
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class Winnability:
    deals: int
    won: int
    lost: int
    budget_s: float = 10.0

    @property
    def unknown(self) -> int:
        return self.deals - self.won - self.lost

    def text(self) -> str:
        """What a player is told: ``won 949 of 1,000 deals (lost 51)``."""
        parts = [f"lost {self.lost:,}"] if self.lost else []
        if self.unknown:
            parts.append(f"{self.unknown:,} undecided in {self.budget_s:g} s")
        rest = f" ({', '.join(parts)})" if parts else ""
        return f"won {self.won:,} of {self.deals:,} deals{rest}"

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "unknown": self.unknown, "text": self.text()}


MEASURED: dict[str, Winnability] = {
    "gate": Winnability(1000, 1000, 0),
    "gate-narrow": Winnability(1000, 999, 0),
    "nestor": Winnability(1000, 333, 667),
    "doubles-and-quits": Winnability(1000, 437, 563),
    "babette": Winnability(1000, 997, 0),
    "labyrinth": Winnability(1000, 969, 30),
    "blockade": Winnability(1000, 1000, 0),
    "blockade-ten": Winnability(1000, 1000, 0),
    "light-and-shade": Winnability(1000, 574, 12),
    "wedge": Winnability(1000, 949, 51),
}
