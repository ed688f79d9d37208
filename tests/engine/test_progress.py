"""Which moves play a card home, which plainly get a game on, and a position rebuilt from
a player's view: every game, along random playouts."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from server.engine import GAMES, Game, new_game
from server.engine.cards import CODE
from server.engine.games.gate import Gate
from server.engine.games.nestor import Nestor
from server.engine.positions import STAND_IN


def positions(game_id: str, seeds: int = 4, steps: int = 300) -> Iterator[Game]:
    """Every position along a few random playouts of ``game_id``."""
    for seed in range(seeds):
        rng = random.Random(seed)
        game = new_game(game_id, seed=seed)
        for _ in range(steps):
            yield game
            legal = game.legal_moves()
            if not legal:
                break
            game.play(rng.choice(legal))


@pytest.mark.parametrize("game_id", GAMES)
def test_home_moves_are_the_moves_whose_card_lands_on_a_foundation(game_id: str) -> None:
    went_home = 0
    for game in positions(game_id):
        home = set(game.home_moves())
        for move in game.legal_moves():
            game.play(move)
            # (the journal's transfers: the first is the move's own, before the rules'
            # automatic steps, which may send an ace home after any move)
            first = game._journal[-1][3][0]
            game.pop()
            lands_home = first[1] in game.HOME
            assert lands_home == game.goes_home(move) == (move in home), move.text
            went_home += lands_home
    assert went_home > 10


@pytest.mark.parametrize("game_id", GAMES)
def test_without_plain_progress_no_move_plays_home_or_shows_a_card(game_id: str) -> None:
    """When ``plain_progress`` is False, no legal move plays a card home or brings a
    face-down card into view (what the rules' automatic steps do after a move, an ace
    going home, is for the stuck check to find)."""
    unplain = 0
    for game in positions(game_id):
        if game.plain_progress():
            assert any(m.kind in game.PROGRESS_KINDS for m in game.legal_moves())
            continue
        unplain += game.status == "playing"
        for move in game.legal_moves():
            assert not game.goes_home(move)
            game.play(move)
            assert game.can_undo(), move.text
            game.pop()
    if game_id in ("nestor", "doubles-and-quits", "blockade-ten"):
        # every legal move there plays home or deals: no position wants a closer look
        assert unplain == 0


@pytest.mark.parametrize("game_id", GAMES)
def test_from_view_rebuilds_what_the_player_sees(game_id: str) -> None:
    cls = GAMES[game_id].cls
    for game in positions(game_id, seeds=2):
        view = game.view()
        seen = cls.from_view(view)
        again = seen.view()
        assert again.pop("can_undo") is False  # nothing to undo: no moves behind it
        view.pop("can_undo")
        assert again == view
        assert [m.text for m in seen.legal_moves()] == [m.text for m in game.legal_moves()]
        assert seen.counters() == game.counters()
        for i in game.HIDDEN:
            assert seen.p[i] == [STAND_IN] * len(game.p[i])


def test_from_view_keeps_no_hidden_card() -> None:
    """Two deals whose views agree give the same position, whatever their stocks hold."""
    game = Gate.from_seed(5)
    piles = {pile["label"]: " ".join(pile["cards"]) for pile in game.view()["piles"]}
    piles["s"] = " ".join(CODE[c] for c in reversed(game.p[Gate.STOCK]))  # the order reversed
    other = Gate.from_layout(piles)
    assert other.view() == game.view() and other.key() != game.key()
    assert Gate.from_view(other.view()).key() == Gate.from_view(game.view()).key()


def test_from_view_refuses_what_is_not_a_view_of_its_game() -> None:
    view = Gate.from_seed(1).view()
    with pytest.raises(ValueError, match="not of nestor"):
        Nestor.from_view(view)
    with pytest.raises(ValueError, match="not a view of gate"):
        Gate.from_view({**view, "piles": [{"label": "nowhere", "cards": [], "down": 0}]})
    with pytest.raises(ValueError, match="not a view of gate"):
        Gate.from_view({"game": "gate"})
