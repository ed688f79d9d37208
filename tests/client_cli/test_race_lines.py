"""A race's lines as an outside tester found them in long races, drawn in-process as
test_screen.py's: racers who left the race on (the room message's ``left``) beside and
under the board, the line of racers under a board ordered and marked as the panel, and a
rating kept with its change where the message line wraps."""

from __future__ import annotations

import re
from typing import Any

from client_cli.endings import result_note
from client_cli.model import WATCH, Model
from client_cli.notices import progress_notice
from client_cli.room_screen import race_panel

from .test_screen import RESULTS, START, in_room, racing, room, screen
from .views import GAME_LIST, played, snapshot

#: bob left the race on before the message: out of ``players``, in ``left``
BOB_LEFT = {"name": "bob", "home": 21, "total": 52, "moves": 30, "status": "resigned"}


def without_bob(state: str = "racing") -> dict[str, Any]:
    """The room message of a race bob has left, as the server sends it now."""
    message = room(state)
    message["players"] = [p for p in message["players"] if p["name"] != "bob"]
    return {**message, "left": [BOB_LEFT]}


def test_a_racer_listed_as_left_is_in_the_race_marked_as_one_seen_leaving() -> None:
    """A watcher who came after bob left never saw him (the room message listed only who
    was in the room): now its ``left`` puts him in the panel, marked ``left``, the line
    the panel has for a racer seen leaving; and in the line under a narrow board."""
    came_after = Model(me="dan")
    came_after.set_games(GAME_LIST)
    came_after.enter_room(without_bob(), screen=WATCH)
    seen = in_room("racing", me="dan")
    seen.screen = WATCH
    seen.apply_room({**without_bob(), "left": [], "now": START + 1})
    for model in (came_after, seen):
        shown = screen(model)
        assert re.search(r"\bbob +21/52 +30 left\n", shown), shown
    panels = [[line.plain for line in race_panel(m, 40)] for m in (came_after, seen)]
    bob = [[line for line in panel if "bob" in line] for panel in panels]
    assert bob[0] == bob[1] and bob[0], bob  # (the same line, seen leaving or not)
    # a racer's own screen, in a race taken up after bob left (a client started again)
    racer = Model(me="ann")
    racer.set_games(GAME_LIST)
    racer.enter_room(without_bob())
    game = snapshot(played("blockade", seed=3, moves=60), kind="race")
    racer.apply_race_start({"code": "8GY8VQ", "race": 1, **game})
    assert "bob 21/52 left" in screen(racer), screen(racer)  # (the line under the board)
    assert re.search(r"bob +21/52 +30 left", screen(racer, width=200)), screen(racer, width=200)


def test_the_line_under_a_board_is_ordered_and_marked_as_the_panel() -> None:
    """At 60x20 the racers under the board kept the room's order (the leader could come
    last) and said nothing of a racer who had resigned or was away."""
    model = racing("blockade", 60)
    assert model.room is not None
    players = model.room["players"]
    players[0].update(home=4)  # ann (me)
    players[1].update(home=52, status="won")  # bob
    players[2].update(name="cat", home=2, status="resigned", present=True)
    players.append({"name": "dot", "home": 9, "total": 52, "moves": 9, "status": "playing",
                    "present": False})  # fmt: skip
    shown = screen(model, width=60, rows=19)
    assert "bob 52/52 ✓ · dot 9/52 away · ann 4/52 · cat 2/52 x" in shown, shown
    model.ascii = True
    assert "bob 52/52 won | dot 9/52 away | ann 4/52 | cat 2/52 x" in screen(model, 60, 19)


def test_a_rating_is_kept_with_its_change_on_the_message_line() -> None:
    """The message line wrapped "Your rating: -4" / "(+1)." (at 60 columns, and 64)."""
    rated = [
        {**RESULTS[0], "place": 1, "rating": 9, "rating_change": 2},
        {**RESULTS[1], "rank": 2, "place": 2, "rating": -4, "rating_change": 1},
        {**RESULTS[2], "rank": 3, "place": 2, "rating": 0, "rating_change": -1},
    ]
    model = in_room("finished", results=rated)
    said = result_note({"results": rated}, "ann")
    assert said.endswith("level with catherine_of_aragon. Your rating: -4 (+1)."), said
    for message in (said, "Race over: you came 2nd of 3. Your rating: -4 (+1)."):
        model.say(message, "good")
        for width in (47, 60, 64):
            shown = screen(model, width=width)
            assert "Your rating: -4 (+1)." in shown, shown  # (one line's)


def test_a_racer_the_server_resigned_for_being_away_is_said_so() -> None:
    """A racer away longer than the server waits is resigned by it (``forfeited``): the
    notice, the panel and the results table said "resigned", as if they had given up."""
    model = in_room("racing")
    assert model.room is not None
    cat = {"code": model.room["code"], "player": "catherine_of_aragon", "home": 2, "total": 52}
    assert progress_notice(model.room, {**cat, "status": "playing", "moves": 3}) == ""
    model.room["players"][2]["status"] = "playing"
    said = progress_notice(model.room, {**cat, "status": "resigned", "forfeited": True})
    assert said == "catherine_of_aragon resigned (away too long)"
    model.apply_progress({**cat, "moves": 3, "status": "resigned", "forfeited": True})
    panel = [line.plain for line in race_panel(model, 60)]
    assert [line for line in panel if "catherine" in line and line.endswith("forfeit")], panel
    finished = in_room("finished")
    forfeited = [{**r, "forfeited": True} if r["rank"] == 3 else r for r in RESULTS]
    finished.apply_results({"code": "8GY8VQ", "results": forfeited})
    assert "resigned, away too long" in screen(finished, width=100), screen(finished, width=100)
