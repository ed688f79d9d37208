"""The Gate with bars of three: the same rules as The Gate, so the same knowledge (the
hooks read the pile indexes off the game)."""

from __future__ import annotations

from .gate import GateHooks

HOOKS = GateHooks()
