"""A group's screen in the terminal (``group show``), drawn from a ``group`` reply: its
members' challenges name each ghost as one, as the browser does, and give the command to
race it that works as pasted (``--server`` where it is not the default)."""

from __future__ import annotations

import io
import re

from rich.console import Console

from client_cli.groups import group_view
from client_cli.printing import _print

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
    out = io.StringIO()  # (as printed: its commands whole, the terminal left to fold)
    _print(Console(file=out, width=100, color_system=None), group_view(REPLY, server), False)
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


def test_a_group_boards_leader_leads_the_group_not_the_board() -> None:
    """Among a group's members the first may rank 2nd on the whole board: they lead the
    group ("▸2 ivy" was told "You lead this board."), and the others are told whom to
    beat as the group's leader."""
    from client_cli.groups import group_board_view

    ivy = {"rank": 2, "place": 1, "player": "ivy", "won": True, "time_ms": 67_200, "moves": 116}
    pam = {"rank": 5, "place": 2, "player": "pam", "won": True, "time_ms": 90_100, "moves": 120}
    page = {"board": "daily/gate/2026-11-28", "title": "The Gate, 2026-11-28", "kind": "daily",
            "entries": [ivy, pam], "size": 2, "offset": 0, "leader": ivy, "to_beat": ivy,
            "members": 2, "group_name": "Probe Club"}  # fmt: skip

    def seen(me: str) -> str:
        out = io.StringIO()
        Console(file=out, width=100, color_system=None).print(group_board_view(page, me, False))
        return out.getvalue()

    assert "You lead the group on this board." in seen("ivy")
    assert "You lead this board" not in seen("ivy")
    assert "To beat: ivy (the group's leader, rank 2 on the board)" in seen("pam")


def big_group(size: int, online: list[int]) -> dict[str, object]:
    """A group of ``size`` members in join order, those at ``online`` online (the owner,
    the first, among them)."""
    members = [
        {"name": f"member{n:02d}", "owner": n == 0, "online": n in online, "you": n == 0}
        for n in range(size)
    ]
    group = {"id": "v2gzdv1urn", "name": "Probe Club", "owner": True, "link": "/g/v2gzdv1urn?k=a"}
    return {"type": "group", "group": {**group, "members": members, "online": len(online)}}


def test_a_big_group_watched_fits_the_screen_online_first() -> None:
    """Probe Z1, fault 2: ``group show GROUP --watch`` of 33 members at 80x24 drew 18 of
    them in join order and a lone "..." at the screen's foot: the four who came online
    (late joiners), the watching line and the connection-lost line were cut. Those
    online come first, the rest as many as fit with how many are not shown, and the
    header and the last line (watching, or the connection's state) are always there."""
    from rich.text import Text

    from client_cli.groups import watch_screen

    reply = big_group(33, [0, 29, 30, 31, 32])
    hint = Text("watching: redrawn as members come and go · Ctrl-C stops")
    for width, height in ((80, 24), (60, 20), (80, 12), (60, 6)):
        drawn = watch_screen(reply, "ws://127.0.0.1:8765", False, hint, width, height).plain
        lines = drawn.rstrip("\n").split("\n")
        assert len(lines) <= height, "\n".join(lines)
        assert lines[0].startswith("Probe Club · 33 members · 5 online"), lines
        assert lines[-1] == hint.plain, "\n".join(lines)
        shown = "\n".join(lines)
        if height < 20:  # (a screen too small for them all: counted)
            assert re.search(r"and \d+ more, \d of them online", shown) or height < 8, shown
            continue
        for n in (0, 29, 30, 31, 32):  # (every one online, first)
            assert f"member{n:02d}" in shown, shown
        assert shown.index("member32") < shown.index("member01"), shown
        listed = sum(f"member{n:02d}" in shown for n in range(33))
        assert f"and {33 - listed} more offline" in shown, shown
        assert "..." not in shown
    # the connection's state in the watching line's place, kept on screen too
    lost = Text("connection lost: reconnecting in 2 s · Ctrl-C stops")
    drawn = watch_screen(reply, "ws://127.0.0.1:8765", False, lost, 80, 24).plain
    assert drawn.rstrip("\n").split("\n")[-1] == lost.plain
    # a group that fits is shown whole, with no count of any not shown
    small = watch_screen(big_group(4, [0, 3]), "", False, hint, 80, 24).plain
    assert all(f"member{n:02d}" in small for n in range(4)) and "more offline" not in small
