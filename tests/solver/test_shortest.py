"""A* for shorter lines (``server/solver/shortest.py``): what it returns wins, is no
longer than the line it was given, and when it says *proved*, a breadth-first search
written here finds nothing shorter."""

from __future__ import annotations

from server.engine import Game, new_game
from server.engine.keys import packed_key
from server.solver import check_line, hooks_for, solve
from server.solver.hooks import Hooks
from server.solver.shortest import best_first


def fewest_moves(game: Game, limit: int) -> int | None:
    """The fewest moves that win from ``game``, if at most ``limit``: breadth first over
    every legal move, positions by the engine's own key."""
    layer = [game.copy()]
    seen = {packed_key(game)}
    for depth in range(limit + 1):
        if any(g.cards_home() == g.total for g in layer):
            return depth
        nxt = []
        for g in layer:
            for move in g.legal_moves():
                h = g.copy()
                h.play(move)
                k = packed_key(h)
                if k not in seen:
                    seen.add(k)
                    nxt.append(h)
        layer = nxt
    return None


def tail_of(game_id: str, seed: int, keep: int) -> tuple[Game, list[str], list[str]]:
    """The deal played along its first winning line to ``keep`` moves before the end:
    the position, the moves to it, and the rest of the line."""
    line = solve(game_id, seed=seed, budget_s=30).line
    game = new_game(game_id, seed=seed)
    for move in line[:-keep]:
        game.play(move)
    return game, line[:-keep], line[-keep:]


def test_a_star_proves_the_shortest_line_from_near_the_end() -> None:
    # the Gate's deals 1 to 4, twenty moves from the end: deal 4's first line is a
    # move longer than it need be there
    proved = shorter = 0
    for seed in range(1, 5):
        game, before, rest = tail_of("gate", seed, keep=20)
        found = best_first(game, hooks_for("gate"), known=rest, max_nodes=50_000)
        assert len(found.line) <= len(rest)
        check_line("gate", before + found.line, seed=seed)
        if found.proved:
            proved += 1
            shorter += len(found.line) < len(rest)
            fewest = fewest_moves(game, len(found.line))
            assert fewest == len(found.line), seed
    assert proved == 4
    assert shorter >= 1  # the first line is not always the shortest


def test_without_a_bound_a_star_finds_the_shortest_itself() -> None:
    game, _, rest = tail_of("gate", 2, keep=30)
    found = best_first(game, hooks_for("gate"), max_nodes=50_000)
    assert found.proved and len(found.line) == fewest_moves(game, len(rest))


def test_a_star_that_runs_out_says_so() -> None:
    game = new_game("gate", seed=1)
    line = solve("gate", seed=1).line
    found = best_first(game, Hooks(), known=line, max_nodes=500)
    assert (found.line, found.proved) == (line, False)
    assert found.nodes <= 500 + 50


def test_lower_bounds_never_overestimate_along_winning_lines() -> None:
    for game_id in (
        "gate",
        "wedge",
        "babette",
        "labyrinth",
        "blockade-ten",
        "blockade",
        "light-and-shade",
        "nestor",
        "doubles-and-quits",
        "gate-narrow",
    ):
        hooks = hooks_for(game_id)
        for seed in range(1, 60):
            result = solve(game_id, seed=seed, budget_s=5)
            if result.verdict != "won":
                continue
            game = new_game(game_id, seed=seed)
            left = len(result.line)
            assert hooks.lower_bound(game) <= left, (game_id, seed)
            for move in result.line:
                game.play(move)
                left -= 1
                assert hooks.lower_bound(game) <= left, (game_id, seed, game.moves)
            break
        else:
            raise AssertionError(f"no deal of {game_id} won")


def test_solve_shortest_gives_a_checked_line_no_longer() -> None:
    plain = solve("gate", seed=4)
    short = solve("gate", seed=4, shortest=True, budget_s=1)
    assert short.checked and len(short.line) <= len(plain.line)
