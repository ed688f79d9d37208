"""How hard a deal is: graded ``easy``, ``medium``, ``hard`` or ``expert`` from two
measurements, both reproducible (counted in positions, never in seconds, and seeded from
the deal alone), so that anyone who runs them again on the same deal gets the same grade.

1. **The board-only player** (:func:`board_play`): the hint engine
   (:func:`server.solver.hints.suggest`) playing the deal from the start, every move its
   own hint. It sees what a player sees and nothing else: the view. It plays at three
   strengths (:data:`RUNGS`: the positions each hint may search, where the server's
   hints take 12,000), :data:`TRIES_PER_RUNG` tries at each, each try with its own
   determinization seed (the hint's guesses at the face-down cards). A try scores 1 when
   it wins, else its share of the cards home times :data:`LOSS_WEIGHT` (a loss never
   counts as much as a win); the player's figure is the mean over the tries. A deal
   the weakest player wins is easy; one that only the strongest, or none, wins is not;
   among the deals none wins, the one it got further in is the easier. The hints are
   cheap, so that a day's ten games grade in a minute or two of one core.
2. **The solver's winning lines** (:func:`solver_lines`): :data:`SEARCHES` searches from
   the deal by the solver (:func:`server.solver.portfolio.run`, which knows the stock),
   each with the order of the moves the game's hooks would try shuffled and the beam's
   scores blurred by its own seeded generator, each stopped at :data:`SEARCH_NODES`
   positions. A deal with many winning lines is won by most of them; a deal won by a
   narrow path, by few or none. Every line one of them calls winning is played through
   a fresh engine (:func:`server.solver.check_line`) before it counts.

The grade (:func:`grade`) is the deal's place among the deals of its game: the two
shares are folded into one figure (:func:`ease`), compared with each game's thresholds
(:data:`THRESHOLDS`), chosen from the figures of 20 to 30 daily deals a game
(``bench/difficulty.py``; ``docs/solver.md`` has the measurements). Per game, because
the games differ far more than their deals do (the board-only player wins nearly every
Gate and no Light and Shade deal): global thresholds would grade every Gate easy.

Nothing in a grade tells the stock: the board-only player sees only what every player
sees at the start, and the count of lines is one number per deal.

Pure like the rest of the solver; :func:`grade_deal`, the task the server runs in a
worker process, takes plain data and gives plain data back.

>>> found = grade_deal("doubles-and-quits", 3, searches=2)
>>> found["grade"] in GRADES and found["tries"] == TRIES and found["searches"] == 2
True
"""

from __future__ import annotations

import hashlib
import random
import time
from typing import Any, Final

from server.engine import GAMES, Game, Move, new_game

from . import WON, check_line, hooks_for
from .hints import suggest
from .hooks import Hooks
from .portfolio import run

#: the grades, easiest first
GRADES: Final = ("easy", "medium", "hard", "expert")
#: what the measurements and the thresholds are: a grade is comparable with another
#: only at the same version (raised with any change to what is measured or how)
VERSION: Final = 1
#: the board-only player's strengths: the positions each of its hints may search
RUNGS: Final = (15, 60, 240)
#: where a position costs more than most (the server's hints search a quarter as many)
RUNGS_BY_GAME: Final = {"blockade": (4, 15, 60)}
#: the tries at each strength
TRIES_PER_RUNG: Final = 2
#: every try of a grading
TRIES: Final = len(RUNGS) * TRIES_PER_RUNG
#: what a lost try's share of the cards home is worth against a win's 1
LOSS_WEIGHT: Final = 0.75
#: the moves a try may make before it counts as not won (the longest wins take ~260)
MAX_MOVES: Final = 1_000
#: a position met this often in one try ends it, not won (hints going round)
REPEATS: Final = 3
#: the solver's randomized searches from the deal
SEARCHES: Final = 6
#: the positions each may enter
SEARCH_NODES: Final = 5_000
#: how much the beam's scores are blurred (in the hooks' units: about a card home)
_NOISE = 1.0

#: per game, the least :func:`ease` of each grade but the last (easy, medium, hard):
#: the cuts nearest a quarter of the game's daily deals each, from their figures
#: measured with ``bench/difficulty.py --thresholds`` (2026-12-01 on, a fixed secret:
#: 30 days a game, 26 for The Blockade, 20 for The Blockade in rows of ten, Light and
#: Shade and The Wedge; docs/solver.md#difficulty)
THRESHOLDS: Final[dict[str, tuple[float, float, float]]] = {
    "gate": (0.966, 0.907, 0.885),
    "gate-narrow": (0.718, 0.659, 0.493),
    "nestor": (0.912, 0.716, 0.647),
    "doubles-and-quits": (0.964, 0.774, 0.661),
    "babette": (0.507, 0.461, 0.435),
    "labyrinth": (0.978, 0.770, 0.554),
    "blockade": (0.426, 0.379, 0.232),
    "blockade-ten": (0.983, 0.892, 0.826),
    "light-and-shade": (0.208, 0.156, 0.146),
    "wedge": (0.950, 0.867, 0.744),
}


def _seed(*parts: object) -> int:
    """A 64-bit seed from ``parts``: the same parts, the same seed, on any machine."""
    text = "/".join(str(p) for p in ("difficulty", *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def board_play(game_id: str, seed: int, attempt: int, nodes: int) -> dict[str, Any]:
    """Try ``attempt`` of the board-only player at the deal of ``seed``: every move the
    hint for the view (``suggest``, with ``nodes`` positions and no clock, so the same try
    always plays the same moves), until the game ends, :data:`MAX_MOVES` moves or a
    position met :data:`REPEATS` times. ``{"won", "moves", "home", "total", "line"}`` (the
    moves played: a won try's is a winning line, which the search for par starts from
    where it is the shorter: ``server.solver.certify``)."""
    game = new_game(game_id, seed=seed)
    base = _seed("board", game_id, seed, attempt)
    met: dict[object, int] = {}
    moves = 0
    line: list[str] = []
    while game.status == "playing" and moves < MAX_MOVES:
        hint_seed = (base + moves) % 2**63
        found = suggest(game.view(), game_id, hint_seed, budget_s=None, max_nodes=nodes)
        if found is None:
            break
        game.play(found[0])
        line.append(found[0])
        moves += 1
        key = game.key()
        met[key] = met.get(key, 0) + 1
        if met[key] >= REPEATS:
            break
    home, total = game.progress
    return {"won": game.status == WON, "moves": moves, "home": home, "total": total, "line": line}


def board_results(game_id: str, seed: int) -> list[dict[str, Any]]:
    """The board-only player's tries at the deal of ``seed``, as :func:`board_play`
    gives each, the weakest strength first."""
    return [
        board_play(game_id, seed, rung * TRIES_PER_RUNG + n, nodes)
        for rung, nodes in enumerate(RUNGS_BY_GAME.get(game_id, RUNGS))
        for n in range(TRIES_PER_RUNG)
    ]


def scored(results: list[dict[str, Any]]) -> list[float]:
    """Each try scored: 1 a win, else its share of the cards home times
    :data:`LOSS_WEIGHT`."""
    return [1.0 if r["won"] else LOSS_WEIGHT * r["home"] / r["total"] for r in results]


def board_tries(game_id: str, seed: int) -> list[float]:
    """The board-only player's tries at the deal of ``seed``, scored (:func:`scored`),
    the weakest strength first."""
    return scored(board_results(game_id, seed))


def home_pct(results: list[dict[str, Any]]) -> int:
    """The cards the tries brought home, as a percentage of the deal's, on average (a
    won try 100): what tells apart the deals of a game whose tries mostly lose.

    >>> home_pct([{"won": True, "home": 52, "total": 52}, {"won": False, "home": 26, "total": 52}])
    75
    """
    shares = [1.0 if r["won"] else r["home"] / r["total"] for r in results]
    return round(100 * sum(shares) / len(shares)) if shares else 0


def randomized(inner: Hooks, rng: random.Random) -> Hooks:
    """``inner`` (a game's hooks) with the order of the moves it would try shuffled (a
    dominance's one move stays alone) and the beam's scores blurred, by ``rng``."""

    class Randomized(Hooks):
        NAME = f"{inner.NAME}, randomized"
        ORDERS = inner.ORDERS
        SEARCH = inner.SEARCH
        HOME_PER_MOVE = inner.HOME_PER_MOVE
        AUTO_HOME = inner.AUTO_HOME

        def key(self, game: Game) -> bytes:
            return inner.key(game)

        def expand(self, game: Game) -> list[Move]:
            inner.order = self.order
            moves = inner.expand(game)
            rng.shuffle(moves)
            return moves

        def is_stage(self, move: Move) -> bool:
            return inner.is_stage(move)

        def lower_bound(self, game: Game) -> int:
            return inner.lower_bound(game)

        def score(self, game: Game) -> float:
            inner.order = self.order
            return inner.score(game) + rng.random() * _NOISE

    return Randomized()


def solver_lines(
    game_id: str, seed: int, search: int, nodes: int = SEARCH_NODES, hooks: Hooks | None = None
) -> bool:
    """Whether randomized search number ``search`` of the deal of ``seed`` wins within
    ``nodes`` positions (see the module's docstring), with the game's hooks (or
    ``hooks``); its line, when it does, has been played through a fresh engine and won
    (``CertificateError`` otherwise: a fault)."""
    inner = hooks_for(game_id) if hooks is None else hooks
    rng = random.Random(_seed("lines", game_id, seed, search))
    game = new_game(game_id, seed=seed)
    try:
        found = run(game, randomized(inner, rng), max_nodes=nodes, first_pass=nodes // 4)
    finally:
        inner.order = 0
    if found.verdict != WON:
        return False
    check_line(game_id, found.line, seed=seed)
    return True


def ease(tries: list[float], line_wins: int, searches: int) -> float:
    """The two measurements folded into one figure from 0 to 1 (every try won and every
    search too): the board-only player's mean score counts twice as much as the share
    of searches that won, as it is the nearer to a player's experience; the searches
    tell apart deals the player wins, or loses, alike.

    >>> ease([1.0] * 6, 6, 6), ease([0.0] * 6, 0, 6), round(ease([1, 1, 1, 0, 0, 0], 6, 6), 3)
    (1.0, 0.0, 0.667)
    """
    board = sum(tries) / len(tries) if tries else 0.0
    lines = line_wins / searches if searches else 0.0
    return (2 * board + lines) / 3


def grade(game_id: str, figure: float) -> str:
    """The grade of a deal of ``game_id`` whose :func:`ease` is ``figure``."""
    if game_id not in THRESHOLDS:
        raise ValueError(f"no such game: {game_id!r} (games: {', '.join(GAMES)})")
    for name, least in zip(GRADES, THRESHOLDS[game_id], strict=False):
        if figure >= least:
            return name
    return GRADES[-1]


def grade_deal(game_id: str, seed: int, searches: int = SEARCHES) -> dict[str, Any]:
    """Measure and grade the deal of ``seed``: ``{"grade", "ease", "board_wins",
    "tries", "home_pct", "line_wins", "searches", "version", "seconds"}``. Plain data in and out:
    the task a server's worker runs (the same deal gives the same figures, whatever
    the machine; ``seconds`` is what it took here)."""
    if game_id not in GAMES:
        raise ValueError(f"no such game: {game_id!r} (games: {', '.join(GAMES)})")
    if not 0 <= seed < 2**64:
        raise ValueError(f"a seed is 0 to 2**64 - 1, not {seed}")
    if searches < 1:
        raise ValueError(f"at least one search, not {searches}")
    started = time.perf_counter()
    results = board_results(game_id, seed)
    lines = sum(solver_lines(game_id, seed, n) for n in range(searches))
    figure = ease(scored(results), lines, searches)
    return {
        "grade": grade(game_id, figure),
        "ease": round(figure, 4),
        "board_wins": sum(1 for r in results if r["won"]),
        "tries": len(results),
        "home_pct": home_pct(results),
        "line_wins": lines,
        "searches": searches,
        "version": VERSION,
        "seconds": round(time.perf_counter() - started, 3),
    }
