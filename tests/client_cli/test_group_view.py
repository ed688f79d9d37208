"""A group's screen in the terminal (``group show``), drawn from a ``group`` reply: its
members' challenges name each ghost as one, as the browser does, and give the command to
race it that works as pasted (``--server`` where it is not the default)."""

from __future__ import annotations

import io

from rich.console import Console

from client_cli.groups import group_view

REPLY = {
    "type": "group",
    "group": {
        "id": "k3v9xq2mab",
        "name": "Friday Club",
        "owner": False,
        "link": "/g/k3v9xq2mab?k=abc",
        "members": [{"name": "ann", "owner": True, "online": True}, {"name": "bob"}],
        "online": 1,
    },
    "challenges": [
        {
            "challenge": {"id": "ufb2dd7lm7qx6dyv", "player": "ann", "game_name": "The Gate"},
            "table": [
                {"rank": 1, "player": "bob", "status": "resigned", "home": 1, "total": 52,
                 "moves": 0},
                {"rank": 2, "player": "ann", "ghost": True, "status": "resigned", "home": 1,
                 "total": 52, "moves": 1},
            ],
        }
    ],
}  # fmt: skip


def shown(server: str) -> str:
    out = io.StringIO()
    Console(file=out, width=100, color_system=None).print(group_view(REPLY, server))
    return out.getvalue()


def test_a_groups_challenges_mark_the_ghost_and_say_the_command_as_pasted() -> None:
    text = shown("ws://127.0.0.1:9311")
    # the challenges of members' games, as the browser heads them: anyone who raced a
    # member's replay may have made one ("made by members" credited the game's player)
    assert "Members' challenges" in text and "made by" not in text, text
    assert "2. ann (ghost)" in text, text
    assert "1. bob " in text and "(ghost)" not in text.split("1. bob", 1)[1].splitlines()[0]
    assert "patience-race challenge ufb2dd7lm7qx6dyv --server ws://127.0.0.1:9311" in text
    assert "--server" not in shown("ws://127.0.0.1:8765").split("Link to join")[1]
