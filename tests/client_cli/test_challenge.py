"""Challenges in the client, without a server: the ghost's place at any moment, what a
typed ``c`` means, the words and links, and the challenge's screens (the countdown, the
race with the ghost beside the board, the result) against golden text at 80x24, fitting
for every game."""

from __future__ import annotations

import re
from typing import Any

import pytest

from client_cli.challenge import (
    ChallengeRace,
    Ghost,
    about,
    challenge_id,
    made_lines,
    news_notice,
    result_words,
    share,
    table,
    verdict_line,
)
from client_cli.challenge_screen import countdown_second, racers
from client_cli.commands import interpret
from client_cli.lines import lines_of, plain
from client_cli.model import CHALLENGE, Model
from client_cli.screen import render_screen

from .conftest import check_golden
from .views import GAME_IDS, GAME_LIST, played, snapshot

WIDTH, ROWS = 80, 23
#: the games whose cards leave in pairs: their racers' lines count pairs
PAIRS = {"nestor", "doubles-and-quits"}
START = 1_795_671_234_073  # the challenge game's start, server ms
SERVER = "ws://127.0.0.1:8765"

GHOST: dict[str, Any] = {
    "name": "ann",
    "total": 52,
    "points": [[0, 1, 0], [812, 1, 1], [1617, 3, 2], [40_000, 9, 30], [98_715, 52, 123]],
    "end": {"status": "won", "at": 98_715},
}
SHOWN: dict[str, Any] = {
    "id": "ua5j4vekfxk6uogy",
    "game": "gate",
    "game_name": "The Gate",
    "source": "solo",
    "day": None,
    "hints": True,
    "player": "ann",
    "created_at": START - 3_000,
    "expires_at": START + 30 * 86_400_000,
    "result": {"player": "ann", "ghost": True, "status": "won", "time_ms": 98_715,
               "moves": 123, "home": 52, "total": 52, "hints": 0},
    "link": "/c/ua5j4vekfxk6uogy",
    "share": "Beat ann's 1:38 on The Gate · /c/ua5j4vekfxk6uogy",
    "opens_at": None,
}  # fmt: skip
TAKEN: dict[str, Any] = {
    "type": "challenge_taken",
    "challenge": SHOWN,
    "game": "af1fd6a258d06703",
    "start_at": START,
    "now": START - 3_000,
    "ghosts": [GHOST],
}


def taken(me: str = "bob") -> Model:
    model = Model(server=SERVER, me=me)
    model.set_games(GAME_LIST)
    model.take_challenge(TAKEN, START - 3_000)
    return model


def started(game_id: str = "gate", moves: int = 12) -> Model:
    model = taken()
    game = played(game_id, seed=3, moves=moves)
    start = {
        "type": "challenge_start",
        "challenge": SHOWN["id"],
        "start_at": START,
        "ghosts": [GHOST],
        **snapshot(game, gid="af1fd6a258d06703", kind="challenge"),
    }
    model.apply_challenge_start(start, START)
    return model


def screen(model: Model, now: int) -> str:
    return plain(render_screen(model, WIDTH, ROWS, now))


# -- the ghost -----------------------------------------------------------------------


def test_the_ghost_stands_at_its_last_point_and_ends_at_its_end() -> None:
    ghost = Ghost.from_message(GHOST)
    assert ghost.at(0) == (1, 0, "playing")
    assert ghost.at(1616) == (1, 1, "playing")
    assert ghost.at(1617) == (3, 2, "playing")
    assert ghost.at(98_714) == (9, 30, "playing")
    assert ghost.at(98_715) == (52, 123, "won")
    assert ghost.at(10**9) == (52, 123, "won")
    assert ghost.at(-5_000) == (1, 0, "playing")  # the countdown: as dealt


def test_a_ghost_read_from_a_message_it_cannot_trust() -> None:
    # points out of order are put in order; broken ones are left out; no end: never ends
    ghost = Ghost.from_message(
        {"name": "a\x1b[31mnn", "total": 52, "points": [[900, 4, 3], "x", [0, 1, 0], [5]]}
    )
    assert ghost.name == "a[31mnn"
    assert ghost.points == ((0, 1, 0), (900, 4, 3))
    assert ghost.at(10**9) == (4, 3, "playing")
    assert Ghost.from_message({}).at(100) == (0, 0, "playing")


def test_a_challenge_resumed_before_its_start_names_it_by_its_id() -> None:
    race = ChallengeRace.from_message(
        {"game": "af1f", "challenge": "ua5j4vekfxk6uogy", "start_at": START, "ghosts": [GHOST]}
    )
    assert (race.cid, race.gid, race.start_at, race.ghost_name) == (
        "ua5j4vekfxk6uogy",
        "af1f",
        START,
        "ann",
    )


def test_the_racers_are_the_player_and_the_ghost_where_it_stands_now() -> None:
    model = started()
    ghost = [r for r in racers(model, START + 2_000) if r.get("ghost")]
    assert [(g["name"], g["home"], g["moves"], g["status"]) for g in ghost] == [
        ("ann", 3, 2, "playing")
    ]
    # the local clock is turned into the server's with the offset measured at sign-in
    model.offset_ms = 40_000
    assert [r["home"] for r in racers(model, START) if r.get("ghost")] == [9]


def test_once_the_result_is_in_the_ghost_is_as_its_game_ended() -> None:
    """Given up before the ghost's end came, the panel showed the ghost where its clock
    had got to ("playing") beside a verdict that gave its end."""
    model = started()
    race = model.challenge
    assert race is not None
    race.result = {"verdict": {"beat": False}, "you": {}, "ghost": {}}
    ghost = [r for r in racers(model, START + 2_000) if r.get("ghost")]
    assert [(g["name"], g["home"], g["status"]) for g in ghost] == [("ann", 52, "won")]


def test_the_countdown_counts_whole_seconds_until_the_game_comes() -> None:
    model = taken()
    assert countdown_second(model, START - 2_400) == 3
    assert countdown_second(model, START - 1_000) == 1
    assert countdown_second(model, START + 10) == 0
    model = started()
    assert countdown_second(model, START - 2_400) is None


# -- what is typed, and said ---------------------------------------------------------


def test_c_makes_a_challenge_once_a_game_is_over() -> None:
    for context in ("over", "finished", "challenge-over"):
        assert interpret("c", context).kind == "challenge"
        assert interpret("challenge", context).kind == "challenge"
    assert interpret("c", "play", ["c>f"], {"c"}).kind != "challenge"  # a pile, playing
    assert interpret("c", "challenge-countdown").kind == "say"


def test_the_words_of_a_challenge() -> None:
    assert challenge_id(" https://race.example.org/c/UA5J4VEKFXK6UOGY ") == "ua5j4vekfxk6uogy"
    assert share("wss://race.example.org", SHOWN) == (
        "Beat ann's 1:38 on The Gate · https://race.example.org/c/ua5j4vekfxk6uogy"
    )
    lines = made_lines("wss://race.example.org", SHOWN)
    assert "    https://race.example.org/c/ua5j4vekfxk6uogy" in lines
    assert "    patience-race challenge ua5j4vekfxk6uogy --server wss://race.example.org" in lines
    assert all(len(line) <= 76 for line in lines)
    assert verdict_line({"beat": True, "by_ms": 75_400, "by_cards": 0}, "ann") == (
        "You beat ann's ghost by 1:15.4."
    )
    assert verdict_line({"beat": True, "by_ms": None, "by_cards": 1}, "ann") == (
        "You beat ann's ghost by 1 card home."
    )
    assert verdict_line(None, "ann") == "Your race against ann's ghost is over."
    # a game the clock ended: in words, not the protocol's "timeout"
    timed = {"player": "bob", "status": "timeout", "moves": 9, "home": 12, "total": 52}
    assert result_words(timed) == "time ran out, 12/52 home, 9 moves"
    assert "time ran out" in plain(lines_of(table([timed], "ann"), 80))
    won = {"player": "bob", "status": "won", "time_ms": 61_000, "moves": 90}
    beaten = {"challenge": "x", "game": "nope", "beat_you": True, "unseen": 0, "result": won}
    assert news_notice(beaten, {}) == (
        "bob raced your ghost at nope: won in 1:01.0, 90 moves; beat you."
    )


# -- the screens ---------------------------------------------------------------------


def test_the_countdown_screen() -> None:
    text = screen(taken(), START - 2_400)
    check_golden("screen-challenge-countdown", text)


def test_the_race_with_the_ghost_beside_the_board() -> None:
    text = screen(started(), START + 41_000)
    assert re.search(r"ann \(ghost\) +9/52 +30 █", text), text
    check_golden("screen-challenge-race", text)
    # once the ghost's game is over, how it ended
    assert re.search(r"ann \(ghost\) 52/52 +123 ✓ won", screen(started(), START + 100_000))


RESULT: dict[str, Any] = {
    "type": "challenge_result",
    "challenge": {**SHOWN, "replay": "32f94c186b3aadc9"},
    "verdict": {"beat": False, "by_ms": None, "by_cards": 49},
    "you": {"player": "bob", "ghost": False, "status": "resigned", "time_ms": None,
            "moves": 12, "home": 3, "total": 52, "hints": 0, "replay": "af1fd6a258d06703"},
    "ghost": {**SHOWN["result"], "replay": "32f94c186b3aadc9"},
    "table": [
        {"rank": 1, **SHOWN["result"], "replay": "32f94c186b3aadc9"},
        {"rank": 2, "player": "cy", "ghost": False, "status": "won", "time_ms": 120_400,
         "moves": 140, "home": 52, "total": 52, "replay": "c7c7c7c7c7c7c7c7"},
        {"rank": 3, "player": "bob", "ghost": False, "status": "resigned", "time_ms": None,
         "moves": 12, "home": 3, "total": 52, "replay": "af1fd6a258d06703"},
    ],
}  # fmt: skip


def test_the_result_against_the_ghost() -> None:
    model = started()
    assert model.game is not None
    model.game.status = "resigned"
    model.clock_to = START - model.offset_ms + 61_000
    model.apply_challenge_result({**RESULT, "challenge": {**SHOWN, "id": "another"}})
    assert model.challenge is not None and model.challenge.result is None  # not this one
    model.apply_challenge_result(RESULT)
    assert model.context() == "challenge-over"
    model.say(verdict_line(RESULT["verdict"], "ann"), "warn")
    check_golden("screen-challenge-result", screen(model, START + 70_000))
    assert "these replays open after the reset" not in screen(model, START + 70_000)


def test_the_result_of_todays_daily_says_when_its_replays_open() -> None:
    """A challenge of today's daily deal: its replays are refused until the reset, and its
    result screen says so (it offered them as any other's)."""
    model = started()
    assert model.game is not None
    model.game.status = "resigned"
    today = {**RESULT["challenge"], "opens_at": START + 3_600_000}
    model.apply_challenge_result({**RESULT, "challenge": today})
    shown = screen(model, START + 70_000)
    assert "(today's daily deal: these replays open after the reset)" in shown, shown


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_with_its_ghost_fits(game_id: str) -> None:
    model = started(game_id, moves=40)
    model.me = "catherine_of_aragon"
    lines = render_screen(model, WIDTH, ROWS, START + 41_000)
    assert len(lines) <= ROWS
    assert all(line.cell_len <= WIDTH for line in lines)
    text = plain(lines)
    # beside the board, or under it; in pairs where cards leave in pairs
    got = "4/26" if game_id in PAIRS else "9/52"
    assert re.search(rf"ann \(ghost\) +{got}", text), text
    assert model.screen == CHALLENGE


def test_a_challenge_of_a_game_of_pairs_counts_pairs_off() -> None:
    """Nestor takes cards off in pairs: the challenge's words, its verdict, its table and
    its news count pairs off, as its game and its boards do (they said "4/52 home")."""
    lost = {"player": "ann", "ghost": True, "status": "lost", "time_ms": None,
            "moves": 9, "home": 18, "total": 52, "hints": 0}  # fmt: skip
    shown = {**SHOWN, "game": "nestor", "game_name": "Nestor", "unit": "pairs", "result": lost}
    mine = {"player": "bob", "ghost": False, "status": "resigned", "time_ms": None,
            "moves": 2, "home": 4, "total": 52, "hints": 0}  # fmt: skip
    assert about(shown) == "ann's game of Nestor (a solo game): lost, 9/26 pairs off, 9 moves"
    assert result_words(mine, "pairs") == "resigned, 2/26 pairs off, 2 moves"
    assert verdict_line({"beat": False, "by_ms": None, "by_cards": 14}, "ann", "pairs") == (
        "ann's ghost beat you by 7 pairs off."
    )
    assert verdict_line({"beat": False, "by_ms": None, "by_cards": 0}, "ann", "pairs") == (
        "ann's ghost beat you: as many pairs off, and the ghost got there first."
    )
    entries = [{"rank": 1, **lost}, {"rank": 2, **mine}]
    cells = plain(lines_of(table(entries, "bob", unit="pairs"), 78))
    assert re.search(r"moves +pairs", cells) and re.search(r"resigned .* 2 +2/26", cells), cells
    news = {"challenge": "x", "game": "nestor", "beat_you": False, "unseen": 0, "result": mine}
    assert news_notice(news, {"nestor": "Nestor"}, {"nestor"}) == (
        "bob raced your ghost at Nestor: resigned, 2/26 pairs off, 2 moves; you stay ahead."
    )
