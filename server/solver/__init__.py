"""The solver: whether a deal can be won, for every game, and a line that wins it.

Pure like the engine beside it (standard library and :mod:`server.engine` only)::

    >>> from server.solver import solve
    >>> result = solve("doubles-and-quits", seed=3)
    >>> result.verdict in ("won", "lost"), result.checked
    (True, True)

``won`` means a winning line exists for a player who knows the order of the hidden cards
(*thoughtful* solving); its ``line`` has been played through a fresh engine from the deal
and won before it is returned, so a fault in the search can never certify a deal.
``lost`` means the whole space was searched without a win: a proof. ``unknown``: the
budget ran out first. ``docs/solver.md`` has the design.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from server.engine import GAMES, IllegalMove, new_game

from .hooks import Hooks, hooks_for
from .portfolio import run
from .search import LOST, UNKNOWN, WON, Outcome
from .shortest import best_first

__all__ = [
    "LOST",
    "UNKNOWN",
    "WON",
    "CertificateError",
    "Hooks",
    "Result",
    "check_line",
    "hooks_for",
    "solve",
]

#: the budget when none is given, in seconds
DEFAULT_BUDGET_S = 10.0


class CertificateError(AssertionError):
    """A line the search called winning does not win when played through the engine: a
    fault in the solver or in a game's hooks, never a verdict."""


@dataclass
class Result:
    game: str
    seed: int | None
    verdict: str
    line: list[str] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    #: why the search stopped short (``time``, ``nodes``), for ``unknown``
    why: str = ""
    #: the hooks the search ran with (what its ``lost`` assumed)
    hooks: str = "plain"
    #: the line was replayed through a fresh engine and won
    checked: bool = False
    #: with ``shortest``: the line's length is proved the shortest (A* finished)
    shortest: bool = False

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def check_line(
    game_id: str, line: Iterable[str], seed: int | None = None, deck: list[Any] | None = None
) -> None:
    """Play ``line`` from the deal through a fresh engine; raise :class:`CertificateError`
    unless every move is legal and the game ends won."""
    game = new_game(game_id, seed=seed, deck=deck)
    for n, move in enumerate(line, start=1):
        try:
            game.play(move)
        except IllegalMove as exc:
            raise CertificateError(f"{game_id}: move {n} of the line, {exc}") from None
    if game.status != WON:
        raise CertificateError(f"{game_id}: the line ends {game.status}, not won")


def solve(
    game_id: str,
    seed: int | None = None,
    deck: Iterable[Any] | None = None,
    budget_s: float | None = DEFAULT_BUDGET_S,
    max_nodes: int | None = None,
    hooks: Hooks | None = None,
    shortest: bool = False,
) -> Result:
    """Search the deal of ``seed`` (or of an explicit ``deck``) of ``game_id`` for a win,
    for at most ``budget_s`` seconds and ``max_nodes`` positions (None: no bound).

    With ``shortest``, a win is followed by A* (:mod:`server.solver.shortest`) for what
    is left of the budget: ``line`` is then the shortest line found, and ``shortest``
    says whether it is proved the shortest."""
    if game_id not in GAMES:
        raise ValueError(f"no such game: {game_id!r} (games: {', '.join(GAMES)})")
    if seed is None and deck is None:
        raise ValueError("give a seed or a deck")
    if budget_s is not None and not budget_s > 0:
        raise ValueError(f"the budget must be more than 0 seconds, not {budget_s}")
    if max_nodes is not None and max_nodes < 1:
        raise ValueError(f"max_nodes must be at least 1, not {max_nodes}")
    cards = None if deck is None else list(deck)
    started = time.perf_counter()
    game = new_game(game_id, seed=seed, deck=cards)  # ValueError for a bad seed or deck
    used = hooks if hooks is not None else hooks_for(game_id)
    found: Outcome = run(game, used, budget_s=budget_s, max_nodes=max_nodes)
    result = Result(
        game=game_id,
        seed=seed,
        verdict=found.verdict,
        line=found.line,
        nodes=found.nodes,
        seconds=0.0,
        why=found.why,
        hooks=used.NAME,
    )
    if found.verdict == WON and shortest:
        deadline = None if budget_s is None else started + budget_s
        short = best_first(game, used, known=found.line, deadline=deadline)
        result.line, result.shortest = short.line, short.proved
        result.nodes += short.nodes
    if found.verdict == WON:
        check_line(game_id, result.line, seed=seed, deck=cards)
        result.checked = True
    result.seconds = time.perf_counter() - started
    return result
