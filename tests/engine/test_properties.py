"""Properties every game keeps, over random seeds and random legal playouts."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.engine import GAMES, IllegalMove, UndoRefused, new_game, replay

from .invariants import (
    assert_conserved,
    assert_every_legal_move_plays,
    assert_snapshot_round_trip,
    check_all,
)

GAME_IDS = sorted(GAMES)
seeds = st.integers(min_value=0, max_value=2**64 - 1)
choices = st.lists(st.integers(min_value=0, max_value=10**6), min_size=10, max_size=150)
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def playout(game_id: str, seed: int, picks: list[int]):
    """Play the moves the picks choose among the legal ones; yield the game after each."""
    game = new_game(game_id, seed=seed)
    yield game
    for pick in picks:
        legal = game.legal_moves()
        if not legal:
            return
        game.play(legal[pick % len(legal)])
        yield game


@pytest.mark.parametrize("game_id", GAME_IDS)
@SETTINGS
@given(seed=seeds, picks=choices)
def test_invariants_hold_at_every_step(game_id: str, seed: int, picks: list[int]) -> None:
    for game in playout(game_id, seed, picks):
        check_all(game)


@pytest.mark.parametrize("game_id", GAME_IDS)
@SETTINGS
@given(seed=seeds, picks=choices)
def test_every_listed_move_is_accepted(game_id: str, seed: int, picks: list[int]) -> None:
    for n, game in enumerate(playout(game_id, seed, picks)):
        if n % 7 == 0:
            assert_every_legal_move_plays(game)


@pytest.mark.parametrize("game_id", GAME_IDS)
@SETTINGS
@given(seed=seeds, picks=choices)
def test_same_seed_and_moves_same_state(game_id: str, seed: int, picks: list[int]) -> None:
    texts: list[str] = []
    game = new_game(game_id, seed=seed)
    for pick in picks:
        legal = game.legal_moves()
        if not legal:
            break
        texts.append(game.play(legal[pick % len(legal)]).text)
    again = replay(game_id, seed, texts)
    assert again.key() == game.key()
    assert again.view() == game.view()


@pytest.mark.parametrize("game_id", GAME_IDS)
@SETTINGS
@given(seed=seeds, picks=choices)
def test_pop_walks_back_to_the_deal(game_id: str, seed: int, picks: list[int]) -> None:
    keys = []
    legals = []
    game = new_game(game_id, seed=seed)
    for g in playout(game_id, seed, picks):
        game = g
        keys.append(game.key())
        legals.append([m.text for m in game.legal_moves()])
    while len(keys) > 1:
        keys.pop()
        legals.pop()
        game.pop()
        assert game.key() == keys[-1]
        assert [m.text for m in game.legal_moves()] == legals[-1]
    with pytest.raises(UndoRefused, match="nothing to undo"):
        game.undo()


@pytest.mark.parametrize("game_id", GAME_IDS)
@SETTINGS
@given(seed=seeds, picks=choices)
def test_undo_refused_exactly_after_a_reveal(game_id: str, seed: int, picks: list[int]) -> None:
    game = new_game(game_id, seed=seed)
    for pick in picks:
        legal = game.legal_moves()
        if not legal:
            break
        before = [list(game.p[i]) for i in sorted(game.HIDDEN)]
        move = game.play(legal[pick % len(legal)])
        after = [game.p[i] for i in sorted(game.HIDDEN)]
        # a card that lay hidden when the move began has left its hidden pile
        revealed = any(a[: len(b)] != b for a, b in zip(after, before, strict=True))
        key = game.key()
        if revealed:
            with pytest.raises(UndoRefused, match="hidden cards"):
                game.undo()
            assert game.key() == key
        else:
            assert game.undo() is move
            game.play(move)
            assert game.key() == key


@pytest.mark.parametrize("game_id", GAME_IDS)
@SETTINGS
@given(seed=seeds, picks=choices)
def test_snapshot_restore_round_trip(game_id: str, seed: int, picks: list[int]) -> None:
    for n, game in enumerate(playout(game_id, seed, picks)):
        if n % 5 == 0:
            assert_snapshot_round_trip(game)


@pytest.mark.parametrize("game_id", GAME_IDS)
@SETTINGS
@given(seed=seeds, picks=choices, probe=st.integers(min_value=0, max_value=10**6))
def test_illegal_moves_change_nothing(
    game_id: str, seed: int, picks: list[int], probe: int
) -> None:
    for game in playout(game_id, seed, picks):
        legal = set(game.legal_moves())
        illegal = [m for m in game.MOVES.values() if m not in legal]
        move = illegal[probe % len(illegal)]
        key, view = game.key(), game.view()
        with pytest.raises(IllegalMove, match=re.escape(f"illegal move {move.text!r}: ")):
            game.play(move.text)
        assert game.key() == key
        assert game.view() == view


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_long_random_playouts_end_or_keep_their_invariants(game_id: str) -> None:
    """Whole games, to the end or a cap: conservation and status after every move."""
    import random

    for seed in range(15):
        rng = random.Random(seed)
        game = new_game(game_id, seed=seed)
        for _ in range(1500):
            legal = game.legal_moves()
            if not legal:
                break
            game.play(rng.choice(legal))
            assert_conserved(game)
        check_all(game)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_copy_is_the_position_alone_and_its_own(game_id: str) -> None:
    game = new_game(game_id, seed=5)
    for move in game.legal_moves()[:1]:
        game.play(move)
    copy = game.copy()
    assert (copy.key(), copy.moves, copy.status) == (
        game.key(),
        game.moves,
        game.status,
    )
    assert [m.text for m in copy.legal_moves()] == [m.text for m in game.legal_moves()]
    assert not copy.can_undo()
    before = game.key()
    for move in copy.legal_moves()[:3]:
        copy.play(move)
        copy.pop()
    copy.play(copy.legal_moves()[0])
    assert game.key() == before  # the original did not move with it
