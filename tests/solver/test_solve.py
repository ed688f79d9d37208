"""solve(): verdicts, certificates and bad input, for every game."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.engine import GAMES, Game, Move, new_game
from server.solver import CertificateError, Hooks, check_line, solve
from server.solver.hooks import hooks_for


@pytest.mark.parametrize("game_id", sorted(GAMES))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**64 - 1))
def test_a_won_line_from_any_seed_replays_to_a_win(game_id: str, seed: int) -> None:
    result = solve(game_id, seed=seed, budget_s=None, max_nodes=2_000)
    if result.verdict == "won":
        assert result.checked
        check_line(game_id, result.line, seed=seed)
    else:
        assert not result.line


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_won_line_replays_to_a_win(game_id: str) -> None:
    found = 0
    for seed in range(6):
        result = solve(game_id, seed=seed, budget_s=None, max_nodes=3_000)
        assert result.verdict in ("won", "lost", "unknown")
        if result.verdict == "won":
            found += 1
            assert result.checked and result.line
            check_line(game_id, result.line, seed=seed)
        elif result.verdict == "unknown":
            assert result.why == "nodes" and result.nodes >= 3_000 and not result.line
    # (every game has a deal among these that a small search wins, except where noted)
    assert found or game_id in {"light-and-shade", "blockade", "blockade-ten"}


def test_a_line_that_does_not_win_is_refused() -> None:
    result = solve("gate", seed=0, budget_s=None)
    assert result.verdict == "won"
    with pytest.raises(CertificateError, match="ends playing, not won"):
        check_line("gate", result.line[:-1], seed=0)
    with pytest.raises(CertificateError, match="move 1 of the line, illegal move 'w>f'"):
        check_line("gate", ["w>f", *result.line], seed=0)


def test_a_faulty_search_is_caught_before_anyone_trusts_its_line() -> None:
    class Faulty(Hooks):
        """A hook with a fault: it plays a move of its own behind the search's back, so
        the line the search records misses that move."""

        def expand(self, game: Game) -> list[Move]:
            legal = game.legal_moves()
            if game.moves == 0 and legal:
                game.play(legal[0])
            return game.legal_moves()

    assert solve("gate", seed=0, budget_s=None).verdict == "won"
    with pytest.raises(CertificateError, match="gate: move"):
        solve("gate", seed=0, budget_s=None, hooks=Faulty())


def test_the_search_leaves_no_trace_on_the_hooks_game() -> None:
    # the hooks are shared between searches: nothing of one search may leak into the next
    first = solve("doubles-and-quits", seed=11, budget_s=None)
    again = solve("doubles-and-quits", seed=11, budget_s=None)
    assert (first.verdict, first.line, first.nodes) == (again.verdict, again.line, again.nodes)
    assert isinstance(hooks_for("gate-narrow"), Hooks)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game_id": "nosuch", "seed": 1}, "no such game: 'nosuch'"),
        ({"game_id": "gate", "seed": -1}, "seed must be an integer from 0 to 2\\*\\*64-1"),
        ({"game_id": "gate", "seed": 2**64}, "seed must be an integer"),
        ({"game_id": "gate", "seed": 1, "budget_s": 0}, "the budget must be more than 0"),
        ({"game_id": "gate", "seed": 1, "max_nodes": 0}, "max_nodes must be at least 1"),
        ({"game_id": "gate"}, "give a seed or a deck"),
        ({"game_id": "gate", "deck": ["AS"] * 52}, "a gate deck holds 52 cards"),
    ],
)
def test_bad_input_is_refused_clearly(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        solve(**kwargs)  # type: ignore[arg-type]


def test_a_deck_lost_by_hand_is_proved_lost() -> None:
    """Nestor dealt so that no two of the columns' lowest cards pair (ranks 2 to 9) and the
    four reserve cards are a ten, a knave, a queen and a king: nothing ever pairs, so the
    deal is lost whatever is played. Rank of row r, column c: (c + 8r) mod 13 + 1 (six
    different ranks a column, so the deal keeps the order)."""
    ranks = "A23456789TJQK"
    used: dict[str, int] = {}

    def card(rank: str) -> str:
        n = used.get(rank, 0)
        used[rank] = n + 1
        return rank + "CDHS"[n]

    deck = [card(ranks[(c + 8 * r) % 13]) for r in range(6) for c in range(8)]
    deck += [card(rank) for rank in "TJQK"]
    game = new_game("nestor", deck=deck)
    assert [game.p[c][-1] % 13 + 1 for c in range(8)] == list(range(2, 10))
    result = solve("nestor", deck=deck, budget_s=None)
    assert result.verdict == "lost" and not result.line
    assert result.nodes == 5  # the deal and four turns of the reserve, nothing else
