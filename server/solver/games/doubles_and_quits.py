"""Doubles and Quits: see :mod:`server.solver.games.pairs`."""

from .pairs import PairHooks

HOOKS = PairHooks()
