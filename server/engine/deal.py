"""Reproducible deals: SplitMix64 driving a Fisher-Yates shuffle.

The algorithm is the project's promise: the same (game, seed) gives the same deal forever,
in any language. ``docs/deals.md`` specifies it step by step, with test vectors.

>>> rng = SplitMix64(0)
>>> hex(rng.next())
'0xe220a8397b1dcdaf'
>>> shuffled_deck(0, packs=1)[:5]
[46, 36, 8, 40, 14]
"""

from __future__ import annotations

from typing import Final

#: bump when the algorithm changes; a change also needs new game ids
DEAL_VERSION: Final = 1

MASK64: Final = (1 << 64) - 1
MAX_SEED: Final = MASK64


class SplitMix64:
    """Sebastiano Vigna's SplitMix64 generator over 64-bit unsigned integers."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        if not 0 <= seed <= MASK64:
            raise ValueError(f"seed must be an integer from 0 to 2**64-1, not {seed}")
        self.state = seed

    def next(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``: outputs at or above the largest multiple of ``n``
        that fits in 2**64 are rejected, then the remainder is taken."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next()
            if x < limit:
                return x % n


def sorted_deck(packs: int) -> list[int]:
    """``packs`` packs in the canonical order: per pack, clubs, diamonds, hearts, spades, each
    from ace to king (card numbers 0..51)."""
    return [c for _ in range(packs) for c in range(52)]


def shuffle(cards: list[int], rng: SplitMix64) -> None:
    """Fisher-Yates in place: for i from len-1 down to 1, swap i with ``rng.below(i + 1)``."""
    for i in range(len(cards) - 1, 0, -1):
        j = rng.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]


def shuffled_deck(seed: int, packs: int) -> list[int]:
    """The first shuffle of a seed: the canonical deck shuffled once. The game deals from
    index 0 onwards."""
    deck = sorted_deck(packs)
    shuffle(deck, SplitMix64(seed))
    return deck


class Shuffler:
    """A seed's stream of shuffles: the first is :func:`shuffled_deck`; a game that must
    start again (Nestor's stuck deal, a Doubles and Quits layout with no pair) takes the
    next, which shuffles a fresh canonical deck with the same generator, continued."""

    __slots__ = ("packs", "rng")

    def __init__(self, seed: int, packs: int) -> None:
        self.rng = SplitMix64(seed)
        self.packs = packs

    def next_deck(self) -> list[int]:
        deck = sorted_deck(self.packs)
        shuffle(deck, self.rng)
        return deck
