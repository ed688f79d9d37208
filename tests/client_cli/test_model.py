"""The model follows the server's messages; the client package stays off the rules."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from client_cli.endings import end_note
from client_cli.model import ROOM, Model
from client_cli.notices import room_notices
from client_cli.room_screen import race_panel
from server.engine import new_game

from .views import snapshot

CLIENT = Path(__file__).resolve().parents[2] / "client_cli"


def test_the_client_never_imports_the_rules_or_the_server() -> None:
    for path in CLIENT.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                assert not name.startswith(("server.engine", "server.app")), (path.name, name)
    code = (
        "import sys, client_cli.cli, client_cli.session, client_cli.replay_tui;"
        "bad = [m for m in sys.modules if m.startswith(('server.engine', 'server.app'))];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_race_as_the_messages_come() -> None:
    model = Model(me="bob")
    lobby = {
        "code": "ABCDEF",
        "game": "gate",
        "state": "lobby",
        "race": 0,
        "host": "ann",
        "players": [{"name": "ann", "ready": False, "host": True}, {"name": "bob"}],
    }
    model.apply_room(lobby)  # before we are in it: not ours
    assert model.room is None
    model.enter_room(lobby)
    assert model.screen == ROOM and model.context() == "lobby" and not model.is_host
    model.apply_room({**lobby, "code": "OTHER1", "state": "racing"})  # another room: ignored
    assert model.room_state == "lobby"
    model.apply_room({**lobby, "state": "countdown", "race": 1})
    assert model.context() == "countdown"
    game = new_game("gate", seed=9)
    model.apply_race_start({"code": "ABCDEF", "race": 1, **snapshot(game, "g1", "race")})
    assert model.racing and model.context() == "play"
    model.apply_progress(
        {"code": "ABCDEF", "player": "ann", "home": 7, "total": 52, "moves": 4, "status": "playing"}
    )
    assert model.room is not None and model.room["players"][0]["home"] == 7
    model.apply_reply({"game": "g1", "view": game.view(), "legal": [], "status": "won"}, 5)
    assert model.context() == "waiting"
    model.apply_results({"code": "ABCDEF", "race": 1, "results": [{"rank": 1, "player": "bob"}]})
    assert model.context() == "finished" and not model.racing
    # a rematch: the old board goes, the countdown comes
    model.apply_room({**lobby, "state": "countdown", "race": 2})
    assert model.game is None and model.context() == "countdown"


def test_replies_for_another_game_are_ignored() -> None:
    model = Model()
    model.set_solo(snapshot(new_game("nestor", seed=1), "g1"), 0)
    before = model.game.view if model.game else None
    model.apply_reply({"game": "g2", "view": {"piles": []}, "legal": [], "status": "won"}, 1)
    assert model.game is not None and model.game.view == before and not model.game.over


def test_signing_in_announces_an_old_room_that_is_not_ours_now() -> None:
    """The server tells a player signing in about the room they are in; a client that
    then creates a new room shows the new one."""
    model = Model(me="ann")
    old = {"code": "OLD111", "state": "racing", "race": 2, "players": [], "now": 5}
    model.apply_room(old)  # the sign-in's event, before the welcome
    model.enter_room({"code": "NEW222", "state": "lobby", "race": 0, "players": [], "now": 6})
    model.apply_room({**old, "now": 7})  # the old room's last word, as we left it
    assert model.room is not None and model.room["code"] == "NEW222"
    assert model.context() == "lobby"


def test_taking_up_a_finished_race_shows_its_results() -> None:
    model = Model(me="ann")
    room = {"code": "ABCDEF", "state": "finished", "race": 1, "players": [], "results": []}
    model.enter_room(room)
    game = new_game("gate", seed=1)
    resume = {"code": "ABCDEF", "race": 1, **snapshot(game, "g1", "race"), "status": "resigned"}
    model.apply_race_start(resume)
    assert model.context() == "finished" and model.game is not None and model.game.over


def test_a_stuck_event_marks_the_game_until_the_position_changes() -> None:
    from tests.solver.positions import STUCK

    game = STUCK["wedge"].game("wedge")
    model = Model()
    model.set_solo(snapshot(game, "g1"), 0)
    moves = game.moves
    # another game's, or a position already left: not taken
    assert not model.apply_stuck({"type": "stuck", "game": "g2", "moves": moves})
    assert not model.apply_stuck({"type": "stuck", "game": "g1", "moves": moves - 1})
    assert model.game is not None and not model.game.stuck
    assert model.apply_stuck({"type": "stuck", "game": "g1", "moves": moves})
    assert model.game.stuck
    move = game.legal_moves()[0]
    game.play(move)
    reply = {"game": "g1", "move": move.text, "view": game.view(), "legal": [], "status": "x"}
    model.apply_reply(
        {**reply, "legal": [m.text for m in game.legal_moves()], "status": "playing"}, 1
    )
    assert not model.game.stuck


def test_a_game_that_takes_pairs_off_ends_counting_pairs_off() -> None:
    """Nestor's resigned game said "20/26 pairs home": nothing goes home in it."""
    game = new_game("nestor", seed=16)
    game.play("1+5")
    model = Model()
    model.set_solo({**snapshot(game), "status": "resigned"}, 0)  # (as the server resigns it)
    note = end_note(model)
    assert note is not None
    assert note[0] == "The game is resigned, 1/26 pairs off. n deals again.", note
    model.set_solo({**snapshot(new_game("gate", seed=1)), "status": "resigned"}, 0)
    note = end_note(model)
    assert note is not None and note[0].startswith("The game is resigned, 0/52 home."), note


def test_a_racer_who_leaves_the_race_stays_in_its_panel_marked_left() -> None:
    """bob left mid-race: his row went from the racers' panel (the room lists who is in
    it), though he is in the race and its results; now it stays, saying he left."""
    model = Model(me="ann")
    racers = [
        {"name": "ann", "status": "playing", "home": 3, "total": 52, "moves": 4},
        {"name": "bob", "status": "playing", "home": 5, "total": 52, "moves": 9},
    ]
    room = {"code": "ABCDEF", "state": "racing", "race": 1, "players": racers}
    model.enter_room(room)
    before = model.room
    model.apply_room({**room, "players": racers[:1]})
    assert model.room is not None
    assert room_notices(before, model.room, "ann") == ["bob left"]
    panel = [line.plain for line in race_panel(model, 40)]
    assert any("bob" in line and "left" in line and " 5/52" in line for line in panel), panel
    again = model.room
    model.apply_room({**room, "players": racers[:1]})  # a later message: said once
    assert model.room is not None
    assert room_notices(again, model.room, "ann") == []
    assert any("bob" in line for line in (t.plain for t in race_panel(model, 40)))
    model.apply_room({**room, "race": 2, "state": "lobby", "players": racers[:1]})
    assert [p["name"] for p in (model.room or {})["players"]] == ["ann"]  # the next race


def test_a_racer_renamed_mid_race_is_one_row_under_the_new_name() -> None:
    """dora renamed herself Dorothy mid-race: every terminal's panel kept a second row,
    "dora ... left", under "Dorothy" until the race ended."""
    model = Model(me="carl")
    racers = [
        {"name": "carl", "status": "playing", "home": 0, "total": 52, "moves": 0},
        {"name": "dora", "status": "playing", "home": 0, "total": 52, "moves": 1},
    ]
    room = {"code": "ABCDEF", "state": "racing", "race": 1, "players": racers}
    model.enter_room(room)
    before = model.room
    model.apply_room({**room, "players": [racers[0], {**racers[1], "name": "Dorothy"}]})
    assert model.room is not None
    assert [p["name"] for p in model.room["players"]] == ["carl", "Dorothy"]
    assert room_notices(before, model.room, "carl") == ["dora is Dorothy now"]
    panel = [line.plain for line in race_panel(model, 40)]
    assert not any("dora" in line for line in panel), panel
    assert not any("left" in line for line in panel), panel
