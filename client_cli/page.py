"""A page over the table (a game's rules, a review, a race's results, a challenge): its
title, its text made for the screen's width, again when the width changes (a terminal
made narrower cut every line of a page made for the one before), and its first line
shown.

>>> page = Page("Notes", lambda width: [f"{width} wide"])
>>> page.at(80), page.at(80), page.at(60)
(['80 wide'], ['80 wide'], ['60 wide'])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class Page:
    title: str
    #: its lines for a screen of this many columns
    make: Callable[[int], list[str]]
    #: the first line shown
    top: int = 0
    width: int = 0
    lines: list[str] = field(default_factory=list)

    def at(self, width: int, height: int = 1) -> list[str]:
        """Its lines for a screen ``width`` columns wide (made again only for a new width),
        its first line shown kept within them, and no further down than fills ``height``
        lines of page (a terminal made taller showed a page scrolled to its end beside
        blank rows, its top hidden).

        >>> page = Page("Notes", lambda width: [str(n) for n in range(70)], top=34)
        >>> _ = page.at(80, 35); page.top
        34
        >>> _ = page.at(80, 46); page.top
        24
        """
        if width != self.width:
            self.lines, self.width = self.make(width), width
        self.top = min(self.top, max(len(self.lines) - height, 0))
        return self.lines

    def scroll(self, lines: int, height: int) -> None:
        """Move it by ``lines`` (negative: back), within its length for a screen of
        ``height`` lines of page."""
        last = max(len(self.lines) - height, 0)
        self.top = min(max(self.top + lines, 0), last)


def fixed(text: str) -> Callable[[int], list[str]]:
    """A page's text as it is at any width (made for the screen by its caller)."""
    lines = text.rstrip("\n").split("\n")
    return lambda width: lines
