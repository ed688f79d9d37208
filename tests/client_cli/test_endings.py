"""What the terminal says as a player quits (``endings.farewell``): a solo game over gives
its replay's command, which neither client offered (the replay exists: a finished solo
game's is made from its log when asked for)."""

from __future__ import annotations

from client_cli.endings import farewell
from client_cli.lines import between_words
from client_cli.model import Model

from .views import played, snapshot


def test_a_solo_game_over_leaves_its_replays_command() -> None:
    game = played("gate", seed=3, moves=4)
    model = Model(me="ann")
    model.server = "ws://127.0.0.1:9411"
    model.set_solo({**snapshot(game, gid="daf540ac2d107634"), "status": "resigned"}, 0)
    assert model.game is not None and model.game.over
    said = between_words(farewell(model), 200)  # (as printed: each command whole)
    assert "patience-race replay daf540ac2d107634 --server ws://127.0.0.1:9411" in said, said
    # a game still on says how to take it up, not a replay
    model.set_solo(snapshot(played("gate", seed=3, moves=2)), 0)
    assert "replay" not in farewell(model)


def test_a_racer_out_of_the_race_is_told_their_game_is_over_while_the_others_play() -> None:
    """A racer who resigned while the others race on: "Your game is over (resigned)"
    (it said "Your game is ended (resigned)"); one who won, "Your game is won"."""
    from client_cli.endings import end_note

    from .test_screen import in_room

    for status, said in (
        ("resigned", "Your game is over (resigned), 1/52 home: waiting for the others."),
        ("won", "Your game is won, 1/52 home: waiting for the others."),
    ):
        model = in_room("racing")
        game = played("gate", seed=3, moves=0)
        started = {"code": "8GY8VQ", "race": 1, **snapshot(game, kind="race"), "status": status}
        model.apply_race_start(started)
        note = end_note(model)
        assert note is not None and note[0] == said, note


def test_a_quick_race_against_ghosts_left_or_over_names_the_quick_race() -> None:
    """A quick race's ghost race has no challenge: quitting it printed "patience-race
    challenge  --server ..." (its id left out), which pasted does nothing."""
    game = played("gate", seed=3, moves=2)
    model = Model(me="ann")
    model.server = "ws://127.0.0.1:9480"
    taken = {"challenge": {"id": "", "player": "the ghosts", "game": "gate"}, "game": "g" * 16}
    # alone (nobody matched, no recorded race): no ghost said (it said "against the ghosts")
    model.take_challenge(taken, 0)
    model.apply_challenge_start({**snapshot(game, gid="g" * 16, kind="challenge")}, 0)
    said = between_words(farewell(model), 200)
    assert said == (
        "Your quick race is kept on the server, and its clock runs on. To take it up: "
        "patience-race quick gate --server ws://127.0.0.1:9480"
    ), said
    model.take_challenge({**taken, "ghosts": [{"name": "bob", "total": 52}]}, 0)
    model.apply_challenge_start({**snapshot(game, gid="g" * 16, kind="challenge")}, 0)
    said = between_words(farewell(model), 200)
    assert "challenge  --server" not in said and "patience-race challenge" not in said, said
    assert (
        "Your quick race against the ghosts is kept on the server, and its clock runs on. To"
        " take it up: patience-race quick gate --server ws://127.0.0.1:9480" in said
    ), said
    you = {"status": "resigned", "moves": 2, "home": 1, "total": 52}
    model.apply_challenge_start({**snapshot(game, gid="g" * 16, kind="challenge"),
                                 "status": "resigned"}, 0)  # fmt: skip
    assert model.challenge is not None
    model.challenge.result = {
        "quick": True, "rank": 1, "place": 1, "you": you,
        "table": [{"rank": 1, "place": 1, "ghost": False}, {"rank": 2, "place": 2, "ghost": True},
                  {"rank": 3, "place": 3, "ghost": True}],
    }  # fmt: skip
    said = between_words(farewell(model), 200)
    assert said.startswith("You finished 1st of 3 against the ghosts: resigned"), said
    assert "Another quick race: patience-race quick gate --server ws://127.0.0.1:9480" in said
