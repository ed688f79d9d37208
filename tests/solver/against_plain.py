"""Checking a game's hooks against the plain search, on positions small enough for it.

The positions are the deals played on by random legal moves for a while: random play
leaves many positions lost and many won, and few enough cards in play that the plain
search finishes. Two checks:

- :func:`verdicts`: the hooks' search and the plain one agree wherever both finish;
- :func:`dominances`: wherever the hooks play one move where more are legal (a
  dominance), the position after that move is won whenever the position before it is.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

from server.engine import Game, new_game
from server.solver import LOST, UNKNOWN, WON, Hooks
from server.solver.search import search

PLAIN = Hooks()


def played_on(game_id: str, seed: int, moves: int) -> Game:
    """The deal of ``seed`` after up to ``moves`` random legal moves (fewer if it ends)."""
    game = new_game(game_id, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        game.play(rng.choice(legal))
    return game


def verdicts(game_id: str, hooks: Hooks, seeds: range, moves: int, max_nodes: int) -> Counter[str]:
    """The verdicts both searches reached, by verdict, after asserting they agree."""
    found: Counter[str] = Counter()
    for seed in seeds:
        game = played_on(game_id, seed, moves)
        plain = search(game, PLAIN, max_nodes=max_nodes).verdict
        ours = search(game, hooks, max_nodes=max_nodes).verdict
        if UNKNOWN in (plain, ours):
            continue
        assert ours == plain, f"{game_id} seed {seed} after {moves} moves: {ours}, plainly {plain}"
        found[ours] += 1
    return found


def _dominated(game_id: str, hooks: Hooks, seed: int, moves: range) -> Iterator[Game]:
    """The positions of one random playout, at the move numbers in ``moves``, where the
    hooks make a dominance, each left as found (the playout goes on from there once the
    caller is done with it)."""
    game = new_game(game_id, seed=seed)
    rng = random.Random(seed)
    for n in range(moves.stop):
        legal = game.legal_moves()
        if not legal:
            return
        if n in moves and len(legal) > 1 and len(hooks.expand(game)) == 1:
            yield game
        game.play(rng.choice(legal))


def dominances(
    game_id: str, hooks: Hooks, seeds: range, moves: range, max_nodes: int
) -> Counter[str]:
    """Per dominance met on random playouts (at the move numbers in ``moves``: early
    positions are too big for the plain search), the plain verdicts before and after the one
    move the hooks chose; asserts that a win before stays a win after. Counts the pairs
    of verdicts where both searches finished."""
    found: Counter[str] = Counter()
    for seed in seeds:
        for game in _dominated(game_id, hooks, seed, moves):
            before = search(game, PLAIN, max_nodes=max_nodes).verdict
            if before == UNKNOWN:
                continue
            (move,) = hooks.expand(game)
            game.play(move)
            after = search(game, PLAIN, max_nodes=max_nodes).verdict
            game.pop()
            if after == UNKNOWN:
                continue
            assert not (before == WON and after == LOST), (
                f"{game_id} seed {seed} move {game.moves}: {move} turns a win into a loss"
            )
            found[f"{before}>{after}"] += 1
    return found
