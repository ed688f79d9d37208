"""What a run of many deals says: the share of deals that can be won, with its 95% Wilson
interval, unknowns bounding it from both sides (each could be a win or a loss).

>>> s = summarize(["won"] * 30 + ["lost"] * 60 + ["unknown"] * 10)
>>> s.won, s.lost, s.unknown, round(s.low, 3), round(s.high, 3)
(30, 60, 10, 0.219, 0.498)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

#: the normal quantile of a two-sided 95% interval
Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (0, 1 with no trials).

    >>> [round(x, 4) for x in wilson(0, 10)]
    [0.0, 0.2775]
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Summary:
    won: int
    lost: int
    unknown: int
    #: the winnable share's 95% interval: unknowns counted lost for ``low``, won for
    #: ``high``
    low: float
    high: float

    @property
    def deals(self) -> int:
        return self.won + self.lost + self.unknown

    def line(self) -> str:
        """``won 30 · lost 60 · unknown 10 · winnable 21.9%-49.8% (95%)``."""
        return (
            f"won {self.won} · lost {self.lost} · unknown {self.unknown} · "
            f"winnable {100 * self.low:.1f}%-{100 * self.high:.1f}% (95%)"
        )


def summarize(verdicts: Iterable[str]) -> Summary:
    won = lost = unknown = 0
    for verdict in verdicts:
        if verdict == "won":
            won += 1
        elif verdict == "lost":
            lost += 1
        else:
            unknown += 1
    n = won + lost + unknown
    low = wilson(won, n)[0]
    high = wilson(won + unknown, n)[1]
    return Summary(won, lost, unknown, low, high)
