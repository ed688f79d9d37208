"""Real views for the client's tests, built with the engine (the tests may import it; the
client may not)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from server.app.handlers.play import games_list
from server.engine import GAMES, Game, new_game

GAME_IDS = list(GAMES)
#: the games as the ``games`` reply lists them
GAME_LIST: list[dict[str, Any]] = games_list()


def snapshot(game: Game, gid: str = "0123456789abcdef", kind: str = "solo") -> dict[str, Any]:
    """The game as a ``game`` reply carries it."""
    return {
        "game": gid,
        "kind": kind,
        "rules": game.id,
        "view": game.view(),
        "legal": [m.text for m in game.legal_moves()],
        "status": game.status,
    }


def played(game_id: str, seed: int, moves: int, policy: str = "random") -> Game:
    """A game some moves in: ``random`` legal moves (a seeded choice), or ``deal`` (deal
    whenever possible, else the first legal move: gardens grow to their deepest)."""
    game = new_game(game_id, seed=seed)
    chooser = random.Random(seed)
    for _ in range(moves):
        legal = [m.text for m in game.legal_moves()]
        if not legal:
            break
        if policy == "deal" and "deal" in legal:
            game.play("deal")
        elif policy == "deal":
            game.play(legal[0])
        else:
            game.play(chooser.choice(legal))
    return game


def playouts(game_id: str, seeds: range, policy: str, limit: int = 400) -> Iterator[Game]:
    """Every position of a few playouts (the same game object, moved on)."""
    for seed in seeds:
        game = new_game(game_id, seed=seed)
        chooser = random.Random(seed)
        for _ in range(limit):
            yield game
            legal = [m.text for m in game.legal_moves()]
            if not legal:
                break
            if policy == "deal" and "deal" in legal:
                game.play("deal")
            elif policy == "build":
                game.play(next((m for m in legal if m != "deal"), legal[0]))
            else:
                game.play(chooser.choice(legal))
