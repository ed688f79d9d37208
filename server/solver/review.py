"""A finished game looked back on: where it was lost, or how far over par it was won.

Pure like the rest of the solver (the standard library and :mod:`server.engine`), and
given plain values only (the game's id, its seed, the moves of its line), so that a
worker process can run it (``server.app.handlers.review``). The game is over, so the
search may know the stock: every verdict here is *thoughtful*, as :func:`server.solver.solve`'s.

**Where a lost game was lost** (:func:`where_lost`). Along the game's line (its moves with
the undone ones taken out), whether a player who knew the stock could still win is
monotone: a position from which a win is possible follows one from which it was too (play
the move, then win), so once no win is left none comes back. A binary search over the
positions of the line, one solve each, finds the last from which a win was possible: the
move played there lost it, and the first move of the line that wins from there kept it.
A solve may end ``unknown`` (its share of the budget ran out): such a position is left
out and another tried, and what could not be decided is said so (``between``,
``undecided``), never guessed. A winning line found from a position that begins with the
move the player played there shows that the next position could be won too, for free.

Every continuation shown has been played through a fresh engine from the deal, the
player's moves up to the position and then the line, and won (:func:`~server.solver.check_line`);
one that does not raises :class:`~server.solver.CertificateError`, a fault, never a review.

**How far over par a won game was** (:func:`over_par`): par is the day's book line for a
daily deal (given), otherwise the shortest line A* finds from the deal within the budget
(:func:`server.solver.shortest.best_first`, bounded by the player's own line, so par is
never more than the player's moves), proved the shortest when A* finishes.

>>> line = "6+7 3+7 4+7 1+7 1+7 1+7 1+6 1+4 4+8 4+6 3+6 3+8 3+8 reserve 2+r1".split()
>>> found = where_lost("nestor", 1, line, budget_s=5)
>>> found["found"], found["at"], found["played"], found["better"]
('lost_at', 5, '1+7', '1+5')
"""

from __future__ import annotations

import math
import time
from typing import Any

from server.engine import Game, new_game

from . import WON, CertificateError, check_line, hooks_for
from .portfolio import run
from .search import LOST, UNKNOWN
from .shortest import best_first

__all__ = [
    "BETWEEN",
    "DEAL_LOST",
    "LOST_AT",
    "STILL_WINNABLE",
    "UNDECIDED",
    "over_par",
    "review",
    "where_lost",
]

#: what a lost game's review found (``found``):
#: the position at ``at`` could be won and the next one could not: the move played lost it
LOST_AT = "lost_at"
#: the position at ``at`` could be won and the one at ``lost_by`` could not (or nothing
#: after ``at`` was decided, ``lost_by`` None); the positions between were not decided
BETWEEN = "between"
#: the deal itself could not be won, even by a player who knew the stock
DEAL_LOST = "deal_lost"
#: the game ended (resigned, out of time) in a position that could still be won
STILL_WINNABLE = "still_winnable"
#: no position was found winnable, and the deal was not proved lost
UNDECIDED = "undecided"

#: the least a solve is given, seconds (a share smaller than this decides little)
MIN_SOLVE_S = 0.25


def _position(game_id: str, seed: int, line: list[str], k: int) -> Game:
    game = new_game(game_id, seed=seed)
    for move in line[:k]:
        game.play(move)
    return game


class _Probe:
    """Solves of positions along one line, within one budget, each verdict kept."""

    def __init__(self, game_id: str, seed: int, line: list[str], budget_s: float) -> None:
        self.game_id, self.seed, self.line = game_id, seed, line
        self.deadline = time.perf_counter() + budget_s
        self.verdicts: dict[int, str] = {}
        self.wins: dict[int, list[str]] = {}
        self.solves = 0
        self.nodes = 0

    def left(self) -> float:
        return self.deadline - time.perf_counter()

    def known_win(self, k: int, win: list[str]) -> None:
        """``win`` wins from position ``k`` (checked): so does its tail from each position
        the player's line shares with it."""
        check_line(self.game_id, self.line[:k] + win, seed=self.seed)
        while True:
            self.verdicts[k] = WON
            self.wins[k] = win
            if k >= len(self.line) or not win or win[0] != self.line[k]:
                return
            k, win = k + 1, win[1:]

    def solve(self, k: int, budget_s: float) -> str:
        """The verdict of position ``k`` (the position after the line's first ``k``
        moves), searched for at most ``budget_s`` seconds."""
        game = _position(self.game_id, self.seed, self.line, k)
        status = game.status
        if status == WON:
            self.known_win(k, [])
        elif status == LOST:
            self.verdicts[k] = LOST
        else:
            self.solves += 1
            found = run(game, hooks_for(self.game_id), budget_s=max(budget_s, 0.001))
            self.nodes += found.nodes
            if found.verdict == WON:
                self.known_win(k, list(found.line))
            else:
                self.verdicts[k] = found.verdict
        return self.verdicts[k]


def where_lost(
    game_id: str,
    seed: int,
    line: list[str],
    budget_s: float,
    known: list[str] | None = None,
) -> dict[str, Any]:
    """Where the game played along ``line`` (moves from the deal of ``seed``, undone ones
    taken out; it did not end won) stopped being winnable for a player who knew the
    stock, searched for at most about ``budget_s`` seconds. ``known``: a line known to win
    from the deal (a daily's book line), which saves a solve.

    The answer: ``found`` (:data:`LOST_AT`, :data:`BETWEEN`, :data:`DEAL_LOST`,
    :data:`STILL_WINNABLE`, :data:`UNDECIDED`), ``at`` (the last position found winnable,
    as the number of the line's moves played before it), ``played`` (the move played
    there, None at the line's end), ``better`` and ``continuation`` (a move that kept the
    win and the line that wins from there, starting with it: checked), ``lost_by`` (the
    first position proved lost after ``at``), ``moves`` (the line's length), ``deal`` (the
    deal's verdict), ``solves``, ``nodes``, ``seconds``."""
    started = time.perf_counter()
    probe = _Probe(game_id, seed, line, budget_s)
    n = len(line)
    if known is not None:
        probe.known_win(0, list(known))
    # the end first: a game lost with no move left is lost there without a search
    end = _position(game_id, seed, line, n)
    if end.status == LOST:
        probe.verdicts[n] = LOST
    else:
        probe.solve(n, probe.left() / 3)
    if probe.verdicts.get(n) != WON and 0 not in probe.verdicts:
        probe.solve(0, probe.left() / 2)

    def bounds() -> tuple[int, int]:
        lo = max((k for k, v in probe.verdicts.items() if v == WON), default=-1)
        hi = min((k for k, v in probe.verdicts.items() if v == LOST), default=n + 1)
        return lo, hi

    while probe.left() > 0:
        lo, hi = bounds()
        if lo >= 0 and probe.verdicts.get(lo) == WON and lo == n:
            break
        if probe.verdicts.get(0) == LOST:
            break
        todo = [k for k in range(max(lo, 0), min(hi, n + 1)) if k not in probe.verdicts]
        if not todo:
            break
        # a position left unknown is most likely lost (a win is found sooner than a
        # loss is proved): the positions before it are tried first
        soft = min((k for k, v in probe.verdicts.items() if v == UNKNOWN and k > lo), default=hi)
        nearer = [k for k in todo if k < soft]
        if nearer:
            todo, top = nearer, soft
        else:
            top = hi
        mid = (max(lo, 0) + min(top, n + 1)) / 2
        k = min(todo, key=lambda k: (abs(k - mid), k))
        share = probe.left() / max(1, math.ceil(math.log2(len(todo) + 1)))
        probe.solve(k, max(share, min(MIN_SOLVE_S, probe.left())))

    lo, hi = bounds()
    out: dict[str, Any] = {
        "moves": n,
        # (a position on the line found winnable: the line to it and on wins the deal)
        "deal": WON if lo >= 0 else probe.verdicts.get(0, UNKNOWN),
        "at": None,
        "played": None,
        "better": None,
        "continuation": None,
        "lost_by": hi if hi <= n else None,
        "solves": probe.solves,
        "nodes": probe.nodes,
    }
    if lo < 0:
        out["found"] = DEAL_LOST if probe.verdicts.get(0) == LOST else UNDECIDED
    else:
        win = probe.wins[lo]
        if win and lo < n and win[0] == line[lo]:  # never: known_win walked along it
            raise CertificateError(f"{game_id}: the better move is the move played")
        out.update(
            at=lo,
            played=line[lo] if lo < n else None,
            better=win[0] if win else None,
            continuation=list(win),
        )
        if lo == n:
            out["found"] = STILL_WINNABLE
        else:
            out["found"] = LOST_AT if hi == lo + 1 else BETWEEN
    out["seconds"] = round(time.perf_counter() - started, 3)
    return out


def over_par(
    game_id: str,
    seed: int,
    line: list[str],
    budget_s: float,
    par: int | None = None,
    shortest: bool = False,
    known: list[str] | None = None,
) -> dict[str, Any]:
    """How far over par the game won along ``line`` was: ``par`` when it is given (a
    daily's book line: ``shortest`` whether it is proved the shortest), else the shortest
    winning line A* finds from the deal within ``budget_s`` seconds, bounded by ``line``
    or by ``known``, a shorter winning line from the deal (the shortest an earlier review
    of it found, checked by the caller), whichever is shorter (``par_line``, checked;
    ``shortest`` when A* proved it). The answer: ``moves``,
    ``par``, ``over`` (moves over par; below 0 under it), ``par_from`` (``book`` or
    ``found``), ``shortest``, ``par_line`` (None for a book's), ``seconds``."""
    started = time.perf_counter()
    par_line: list[str] | None = None
    nodes = 0
    check_line(game_id, line, seed=seed)
    direct, detour = without_detours(game_id, seed, line)
    if par is None:
        game = new_game(game_id, seed=seed)
        bound = known if known is not None and len(known) < len(direct) else direct
        short = best_first(game, hooks_for(game_id), known=bound, deadline=started + budget_s)
        check_line(game_id, short.line, seed=seed)
        par_line, par, shortest, nodes = (
            list(short.line),
            len(short.line),
            short.proved,
            short.nodes,
        )
        source = "found"
    else:
        source = "book"
    return {
        "moves": len(line),
        "par": par,
        "over": len(line) - par,
        "par_from": source,
        "shortest": bool(shortest),
        "par_line": par_line,
        "detour": detour,
        "nodes": nodes,
        "seconds": round(time.perf_counter() - started, 3),
    }


def without_detours(
    game_id: str, seed: int, line: list[str]
) -> tuple[list[str], dict[str, int] | None]:
    """``line`` with every stretch that came back to a position it had left taken out
    (the moves after it are as legal from the same position), and the longest such
    detour: ``{"from": the move it began with (numbered from 1), "moves": its length}``,
    or None when the line never came back to a position."""
    game = new_game(game_id, seed=seed)
    #: the position after each kept move, and where in the line it was first reached
    kept: list[str] = []
    index: list[int] = [0]
    seen: dict[object, int] = {game.key(): 0}
    longest: dict[str, int] | None = None
    for n, move in enumerate(line, start=1):
        game.play(move)
        kept.append(move)
        index.append(n)
        k = game.key()
        back = seen.get(k)
        if back is None:
            seen[k] = len(kept)
            continue
        began = index[back]
        if longest is None or n - began > longest["moves"]:
            longest = {"from": began + 1, "moves": n - began}
        del kept[back:]
        del index[back + 1 :]
        seen = {key: at for key, at in seen.items() if at <= back}
    return kept, longest


def review(
    game_id: str,
    seed: int,
    line: list[str],
    won: bool,
    budget_s: float,
    book: dict[str, Any] | None = None,
    known: list[str] | None = None,
) -> dict[str, Any]:
    """The worker's task: :func:`over_par` for a game that ended won, else
    :func:`where_lost`; ``book``: the daily deal's book line and par (``line``, ``par``,
    ``shortest``), or None; ``known``: the shortest winning line of the deal earlier
    reviews found (checked), or None. Plain data in and out."""
    if won:
        if book is not None and book.get("par") is not None:
            return over_par(
                game_id, seed, line, budget_s, int(book["par"]), bool(book.get("shortest"))
            )
        return over_par(game_id, seed, line, budget_s, known=known)
    if book is not None and book.get("line") is not None:
        known = book["line"]
    return where_lost(game_id, seed, line, budget_s, known=known)
