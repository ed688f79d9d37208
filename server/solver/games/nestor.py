"""Nestor: see :mod:`server.solver.games.pairs`."""

from .pairs import PairHooks

HOOKS = PairHooks()
