"""The rules engine: pure, standard library only, no I/O.

>>> game = new_game("gate", seed=1)
>>> game.status
'playing'
>>> move = game.legal_moves()[-1]
>>> str(move)
'deal'
>>> _ = game.play("deal")
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from .cards import CARD, Card, card_name, parse_card
from .core import (
    LOST,
    PLAYING,
    WON,
    Game,
    IllegalMove,
    InvalidMove,
    Move,
    PileSpec,
    UndoRefused,
)
from .deal import DEAL_VERSION, SplitMix64, shuffled_deck
from .games.babette import Babette
from .games.blockade import Blockade, BlockadeTen
from .games.doubles import DoublesAndQuits
from .games.gate import Gate, GateNarrow
from .games.labyrinth import Labyrinth
from .games.light_and_shade import LightAndShade
from .games.nestor import Nestor
from .games.wedge import Wedge
from .snapshots import read_snapshot_header

__all__ = [
    "CARD",
    "DEAL_VERSION",
    "GAMES",
    "LOST",
    "PLAYING",
    "WON",
    "Card",
    "Game",
    "GameInfo",
    "IllegalMove",
    "InvalidMove",
    "Move",
    "PileSpec",
    "SplitMix64",
    "UndoRefused",
    "card_name",
    "new_game",
    "parse_card",
    "replay",
    "restore",
    "shuffled_deck",
]


@dataclass(frozen=True)
class GameInfo:
    """A game as the lobby lists it."""

    id: str
    name: str
    packs: int
    summary: str
    cls: type[Game]
    #: the version of its rules (:attr:`Game.rules_version`)
    rules_version: int


def _register(*classes: type[Game]) -> dict[str, GameInfo]:
    games: dict[str, GameInfo] = {}
    for cls in classes:
        if cls.id in games:
            raise ValueError(f"two games with id {cls.id!r}")
        games[cls.id] = GameInfo(cls.id, cls.name, cls.packs, cls.summary, cls, cls.rules_version)
    return games


#: every game, by id. Ids are a promise; a game whose rules are corrected keeps its id and
#: its deals, and its ``rules_version`` goes up (``docs/games/README.md``, rules versions).
GAMES: Final[dict[str, GameInfo]] = _register(
    Gate,
    GateNarrow,
    Nestor,
    DoublesAndQuits,
    Babette,
    Labyrinth,
    Blockade,
    BlockadeTen,
    LightAndShade,
    Wedge,
)


def _game_class(game_id: str) -> type[Game]:
    try:
        return GAMES[game_id].cls
    except (KeyError, TypeError):
        raise ValueError(f"no such game: {game_id!r} (games: {', '.join(GAMES)})") from None


def new_game(
    game_id: str, seed: int | None = None, deck: Iterable[int | str] | None = None
) -> Game:
    """A new game: the deal of ``seed`` (a random one when absent), or of an explicit
    ``deck`` in the order the game's deal consumes it."""
    return _game_class(game_id).new(seed=seed, deck=deck)


def replay(game_id: str, seed: int, moves: Iterable[str]) -> Game:
    """The game reached by playing ``moves`` (notation texts) on the deal of ``seed``."""
    game = new_game(game_id, seed=seed)
    for move in moves:
        game.play(move)
    return game


def restore(data: bytes) -> Game:
    """The game a :meth:`Game.snapshot` was taken of."""
    game_id, rules, reader, seed, moves = read_snapshot_header(data)
    cls = _game_class(game_id)
    if rules != cls.rules_version:
        raise ValueError(
            f"this snapshot was taken under version {rules} of {cls.name}'s rules; "
            f"the engine plays version {cls.rules_version}"
        )
    return cls._restore(reader, seed, moves)
