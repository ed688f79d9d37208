"""Ratings: each player's skill at each game, from the races they ran against people,
with the Plackett-Luce model of the ``openskill`` package (Weng and Lin's Bayesian
approximation for ranked multi-player games). ``docs/ratings.md`` tells the model, its
parameters and what is rated; this module is its code, pure: the store is
``server.app.store.ratings``, the race's end that rates is ``handlers/ratings.py``.

A rating is a belief about skill: ``mu`` (the mean) and ``sigma`` (how unsure). What is
shown is the model's ordinal, ``mu - 3 sigma``, rounded: a skill the player is 99.7 %
likely to be above, which starts at 0 and rises as races make the model surer, so a
newcomer's lucky first win cannot put them above a player proven over a hundred races.

>>> first, second = update([DEFAULT, DEFAULT], [1, 2])
>>> (first.shown, second.shown, first.n)
(3, -2, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from openskill.models import PlackettLuce

#: the model, with the package's own defaults, named here so that the docs and the tests
#: can show them: mu 25, sigma 25/3, beta 25/6 (half the starting sigma: the spread of a
#: race's performance around a skill), kappa 0.0001 (the floor of a variance), tau 25/300
#: (added to sigma before each race, so that a rating keeps moving with the player)
MU: Final = 25.0
SIGMA: Final = 25.0 / 3.0
BETA: Final = 25.0 / 6.0
KAPPA: Final = 0.0001
TAU: Final = 25.0 / 300.0
MODEL: Final = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, kappa=KAPPA, tau=TAU)

#: the standard deviations the shown rating takes off the mean
Z: Final = 3.0


@dataclass(frozen=True)
class Rating:
    """A player's rating at a game: the model's ``mu`` and ``sigma``, and how many races
    made it (``n``)."""

    mu: float = MU
    sigma: float = SIGMA
    n: int = 0

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``, as the model has it."""
        return float(MODEL.rating(mu=self.mu, sigma=self.sigma).ordinal(z=Z))

    @property
    def shown(self) -> int:
        """The rating a player sees: the ordinal, rounded."""
        return round(self.ordinal)

    def to_dict(self) -> dict[str, Any]:
        """As the store keeps it (``rtg:{GAME}``'s fields)."""
        return {"mu": self.mu, "sigma": self.sigma, "n": self.n}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rating:
        return cls(float(data["mu"]), float(data["sigma"]), int(data.get("n", 0)))


#: a player who has no rating at a game yet
DEFAULT: Final = Rating()


def update(before: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """The ratings after a race of ``len(before)`` players (each alone: a team of one),
    ranked ``ranks`` (1 is first; equal ranks are a draw: racers the results part only by
    who joined first, ``results.rated_ranks``). ValueError for fewer than two."""
    if len(before) < 2 or len(before) != len(ranks):
        raise ValueError("a rated race has two or more racers, each with a rank")
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    return [
        Rating(float(team[0].mu), float(team[0].sigma), old.n + 1)
        for old, team in zip(before, after, strict=True)
    ]


def figures(before: Rating, after: Rating) -> dict[str, int]:
    """What a racer is told of a race's change to their rating: the rating now and the
    change of the shown figure (both rounded, so that they add up as the player sees)."""
    return {"rating": after.shown, "rating_change": after.shown - before.shown}
