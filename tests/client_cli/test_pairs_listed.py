"""A challenge of a game that takes cards off in pairs (Nestor, Doubles and Quits) is
printed in pairs off wherever its entries are: ``challenges`` (the player's list),
``group show`` (members' challenges) and a quick race's result against ghosts, as the
browser and ``challenge ID`` print it ("10/26 pairs off"), not "20/52 home"."""

from __future__ import annotations

import io

from rich.console import Console

from client_cli.challenge import listing
from client_cli.groups import group_view
from client_cli.quick_words import result_message

LOST = {"status": "lost", "home": 20, "total": 52, "moves": 14}


def printed(renderable: object) -> str:
    out = io.StringIO()
    Console(file=out, width=120, color_system=None).print(renderable)
    return out.getvalue()


def test_the_list_of_ones_challenges_counts_pairs_off() -> None:
    listed = [
        {"id": "ua5j4vekfxk6uogy", "game": "nestor", "game_name": "Nestor", "unit": "pairs",
         "result": LOST, "takers": 1},
        {"id": "ub5j4vekfxk6uogy", "game": "gate", "game_name": "The Gate", "unit": "cards",
         "result": LOST, "takers": 0},
    ]  # fmt: skip
    text = printed(listing(listed))
    assert "lost, 10/26 pairs off, 14 moves" in text
    assert "lost, 20/52 home, 14 moves" in text  # (The Gate: cards)


def test_a_groups_challenges_count_pairs_off() -> None:
    reply = {
        "group": {"name": "Friday Club", "link": "/g/k3v9xq2mab?k=abc", "members": []},
        "challenges": [
            {
                "challenge": {"id": "ufb2dd7lm7qx6dyv", "player": "ivy", "game_name": "Nestor",
                              "unit": "pairs"},
                "table": [{"rank": 1, "player": "ivy", "ghost": True, **LOST}],
            }
        ],
    }  # fmt: skip
    text = printed(group_view(reply, ""))
    assert "1. ivy (ghost)  lost, 10/26 pairs off, 14 moves" in text
    assert "20/52" not in text


def test_a_quick_races_result_against_ghosts_counts_pairs_off() -> None:
    msg = {"rank": 1, "place": 1, "you": LOST, "table": [{"rank": 1, "place": 1}]}
    assert result_message(msg, "pairs") == "Your game: lost, 10/26 pairs off, 14 moves."
    assert result_message(msg) == "Your game: lost, 20/52 home, 14 moves."
