"""The stuck check (``server.solver.stuck``): stuck positions proved stuck, every other
verdict backed by a line the engine plays, the bounds never giving a false stuck, and
nothing but the view deciding."""

from __future__ import annotations

import random

import pytest

from server.engine import GAMES, Game, new_game
from server.engine.cards import CODE
from server.solver.stuck import BOUND, OVER, PROGRESS, STUCK, Verdict, check

from .positions import CHECKED, LONG_SEARCH, LOST
from .positions import STUCK as STUCK_POSITIONS


def assert_gets_on(game: Game, verdict: Verdict) -> None:
    """``verdict.line``, played on the real game, ends in the first move that plays a
    card home or takes out a card that was face down to begin with, and none before it
    does (dealing again what Babette's redeal gathered up shows nothing new)."""
    assert verdict.why == PROGRESS and verdict.line
    home = game.cards_home()
    down = {i: len(game.p[i]) for i in game.HIDDEN}
    for n, move in enumerate(verdict.line, start=1):
        game.play(move)
        got_on = game.cards_home() != home or any(len(game.p[i]) < down[i] for i in down)
        assert got_on == (n == len(verdict.line)), (n, move)


@pytest.mark.parametrize("game_id", STUCK_POSITIONS)
def test_stuck_positions_are_stuck(game_id: str) -> None:
    game = STUCK_POSITIONS[game_id].game(game_id)
    assert game.status == "playing" and game.legal_moves()
    assert not game.plain_progress()
    verdict = check(game.view())
    assert verdict == Verdict(True, STUCK, verdict.positions)
    # every move from a stuck position leads to another
    for move in game.legal_moves():
        game.play(move)
        assert game.status != "playing" or check(game.view()).stuck, move.text
        game.pop()


@pytest.mark.parametrize("game_id", CHECKED)
def test_a_way_on_found_is_one(game_id: str) -> None:
    game = CHECKED[game_id].game(game_id)
    assert not game.plain_progress()
    verdict = check(game.view())
    assert not verdict.stuck and verdict.positions >= 2
    assert_gets_on(game, verdict)


@pytest.mark.parametrize("game_id", GAMES)
def test_no_verdict_along_random_playouts_is_wrong(game_id: str) -> None:
    """Every position along a few random playouts: a way on is a real one (played
    through the engine), and a stuck position's moves all lead to stuck positions."""
    for seed in range(3):
        rng = random.Random(seed)
        game = new_game(game_id, seed=seed)
        while game.status == "playing" and game.moves < 250:
            verdict = check(game.view(), max_positions=2000)
            if verdict.why == PROGRESS:
                probe = game.copy()
                assert_gets_on(probe, verdict)
            elif verdict.stuck:
                assert not game.plain_progress()
                break
            game.play(rng.choice(game.legal_moves()))


def test_the_hidden_cards_and_their_order_change_nothing() -> None:
    """Two games with the same view and different stocks: the same verdict, and the same
    line (which stops at the first card it would deal)."""
    for game_id in ("gate", "wedge", "light-and-shade", "blockade"):
        game = new_game(game_id, seed=11)
        rng = random.Random(3)
        for _ in range(12):
            game.play(rng.choice(game.legal_moves()))
        cls = GAMES[game_id].cls
        stock = game.PILES.index(next(s for s in game.PILES if s.hidden))
        piles = {p["label"]: " ".join(p["cards"]) for p in game.view()["piles"]}
        shuffled = [CODE[c] for c in game.p[stock]]
        rng.shuffle(shuffled)
        piles[game.PILES[stock].label] = " ".join(shuffled)
        other = cls.from_layout(piles, game.counters())
        assert other.view()["piles"] == game.view()["piles"]
        assert other.key() != game.key()
        assert check(other.view()) == check(game.view())


def test_the_bounds_never_give_a_false_stuck() -> None:
    game = STUCK_POSITIONS["gate"].game("gate")
    full = check(game.view())
    assert full.stuck and full.positions >= 2
    bounded = full.positions - 1
    assert check(game.view(), max_positions=bounded) == Verdict(False, BOUND, bounded)
    # a search that runs out of time: it looks at the clock before it expands each new
    # position, so with none left it stops at the first one past the position it is given
    game_id, position = LONG_SEARCH
    long = position.game(game_id)
    assert check(long.view()).positions > 1000
    assert check(long.view(), max_seconds=0) == Verdict(False, BOUND, 1)


def blockade_endgame() -> Game:
    """A Blockade endgame of a random playout (seed 13, 197 moves) whose check runs into
    its bound: hundreds of legal moves a position, a few milliseconds to list them."""
    game = new_game("blockade", seed=13)
    pick = random.Random(13)
    while game.moves < 197:
        game.play(pick.choice(game.legal_moves()))
    assert not game.plain_progress()
    return game


def test_the_time_budget_holds_where_positions_are_dear() -> None:
    """Where listing a position's moves is dear (a Blockade endgame), the clock is looked
    at before every position is expanded, not every 64 (which let a 2 s search run to
    2.15 s of CPU): with no time left the search expands none past the first; with a
    budget of positions it stops exactly there."""
    game = blockade_endgame()
    assert check(game.view(), max_seconds=0) == Verdict(False, BOUND, 1)
    assert check(game.view(), max_positions=300, max_seconds=60) == Verdict(False, BOUND, 300)


def test_a_dead_end_is_stuck_and_a_won_game_is_not() -> None:
    lost = LOST["nestor"].game("nestor")
    assert lost.status == "lost"
    assert check(lost.view()) == Verdict(True, STUCK, 1)
    won = new_game("doubles-and-quits", seed=1)
    while won.legal_moves():
        won.play(won.legal_moves()[0])
    assert won.status == "won"
    assert check(won.view()) == Verdict(False, OVER, 0)


def test_a_view_of_no_game_is_refused() -> None:
    with pytest.raises(ValueError, match="no game"):
        check({"game": "chess", "piles": []})
