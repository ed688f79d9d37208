"""Rules versions: which games' rules were corrected, and a snapshot is restored only under
the rules it was taken under."""

from __future__ import annotations

import struct

import pytest

from server.engine import GAMES, new_game, restore

#: the rule sets whose rulings were corrected on 2026-11-24, and The Labyrinth's on
#: 2026-11-25 (docs/games/README.md)
CORRECTED = {"gate", "gate-narrow", "wedge", "babette", "blockade", "blockade-ten", "labyrinth"}


def test_the_corrected_games_are_at_version_two_and_the_others_at_one() -> None:
    versions = {gid: info.rules_version for gid, info in GAMES.items()}
    assert versions == {gid: 2 if gid in CORRECTED else 1 for gid in GAMES}
    assert all(info.cls.rules_version == info.rules_version for info in GAMES.values())


def test_a_snapshot_names_its_rules_version_and_other_versions_are_refused() -> None:
    game = new_game("wedge", seed=7)
    game.play(game.legal_moves()[0])
    data = game.snapshot()
    assert restore(data).key() == game.key()
    # magic, format version, id length, id, then the rules version
    at = 3 + 1 + 1 + len(b"wedge")
    assert struct.unpack_from("<H", data, at) == (2,)
    older = data[:at] + struct.pack("<H", 1) + data[at + 2 :]
    with pytest.raises(ValueError, match="taken under version 1 of The Wedge's rules"):
        restore(older)
