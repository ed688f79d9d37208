"""The quick race's rules, pure: the rating window a waiting player is matched within,
and which recorded race a lone player races as ghosts. The matcher itself runs in Redis
(``store/scripts/social.py`` ``QUICK_MATCH``, so that every process shares one queue and a
player is matched once); :func:`match` here is the same rule in Python, what the tests
and the documentation hold the script to.

The window widens while a player waits (figures: ``Settings.quick_*``; by default +/- 3
ordinal points, 2 more every 5 s):

>>> rule = Rule(base=3.0, widen=2.0, every_ms=5000, most=8, gather_ms=3000)
>>> [rule.window(ms) for ms in (0, 4999, 5000, 12_000)]
[3.0, 3.0, 5.0, 7.0]

The longest waiting go first: each with the players whose rating is within its own
window, nearest first, up to ``most``; two or more make a room once the one looked at has
waited ``gather_ms`` (or the room is full):

>>> waiting = [Waiting("ann", 0, 10.0), Waiting("bob", 100, 12.0), Waiting("cat", 200, 30.0)]
>>> [[w.pid for w in group] for group in match(waiting, 3000, rule)]
[['ann', 'bob']]
>>> match(waiting, 2000, rule)  # nobody has waited 3 s yet: more may come
[]
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    """The matcher's figures: the window (``base`` +/- ordinal points, ``widen`` more
    every ``every_ms`` waited), the most racers in a room, and how long the one looked at
    waits for more before two or more race."""

    base: float
    widen: float
    every_ms: int
    most: int
    gather_ms: int

    def window(self, waited_ms: int) -> float:
        """+/- ordinal points a player who has waited ``waited_ms`` is matched within."""
        return self.base + self.widen * (max(waited_ms, 0) // self.every_ms)


@dataclass(frozen=True)
class Waiting:
    pid: str
    joined_ms: int
    rating: float


def match(waiting: list[Waiting], now_ms: int, rule: Rule) -> list[list[Waiting]]:
    """The groups one pass of the matcher takes out of the queue (as ``QUICK_MATCH``)."""
    left = {w.pid: w for w in waiting}
    groups = []
    for first in sorted(waiting, key=lambda w: (w.joined_ms, w.pid)):
        if first.pid not in left:
            continue
        waited = max(now_ms - first.joined_ms, 0)
        w = rule.window(waited)
        # (the bounds as the script works them out: the same floats at the edges)
        low, high = first.rating - w, first.rating + w
        near = [o for o in left.values() if low <= o.rating <= high]
        near.sort(key=lambda o: (o.pid != first.pid, abs(o.rating - first.rating), o.pid))
        if len(near) >= 2 and (len(near) >= rule.most or waited >= rule.gather_ms):
            group = near[: rule.most]
            for o in group:
                del left[o.pid]
            groups.append(group)
    return groups


def pick_race(
    candidates: list[tuple[str, float]], seen: set[str], rating: float, window: float
) -> list[str]:
    """The recorded races (``{code}:{race}``, with a rating) a lone player may race as
    ghosts, in the order to try them: those not raced before, nearest rating first (the
    ones within ``window`` first, then any: "when none, any recorded race of that game").

    >>> pick_race([("A:1", 9.0), ("B:1", 40.0), ("C:2", 11.0)], {"C:2"}, 10.0, 5.0)
    ['A:1', 'B:1']
    """
    fresh = [(race, r) for race, r in candidates if race not in seen]
    fresh.sort(key=lambda item: (abs(item[1] - rating) > window, abs(item[1] - rating), item[0]))
    return [race for race, _ in fresh]
