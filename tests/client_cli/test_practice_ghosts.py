"""Practising the daily against the board, without a server: the ghosts a ``daily``
practice reply brings, moved along by the server's time from the practice's start; the
racers' panel with several ghosts (as many as fit, the nearest the player, how many
more), every game fitting 80x24 with eight of them; and the placing at ``ghosts_result``,
against golden text."""

from __future__ import annotations

import re
from typing import Any

import pytest

from client_cli.board_race import placing
from client_cli.board_screen import racers
from client_cli.cli import parser
from client_cli.endings import daily_greeting
from client_cli.lines import plain
from client_cli.model import Model
from client_cli.room_screen import racers_panel, summary
from client_cli.screen import render_screen

from .conftest import check_golden
from .views import GAME_IDS, GAME_LIST, played, snapshot

WIDTH, ROWS = 80, 23  # (the input line is the 24th)
START = 1_795_671_234_073  # the practice game's started_at, server ms
RESET = START + 13 * 3_600_000
LINE = "Patience Race · The Gate · 2026-11-22 · not won · 30 moves · 9/52 home"


def ghost(name: str, home: int, moves: int, status: str = "resigned", at: int = 90_000) -> Any:
    """A ghost that reached ``home`` cards in ``moves`` moves by 40 s, then ended."""
    return {
        "name": name,
        "total": 52,
        "points": [[0, 1, 0], [20_000, max(home // 2, 1), moves // 2], [40_000, home, moves]],
        "end": {"status": status, "at": at},
        "hints": 0,
    }


#: the day's board as the server sends it: those followed first, then the leaders
GHOSTS = [
    ghost("bob", 9, 30),
    ghost("catherine_of_aragon", 52, 140, "won", 80_000),
    ghost("p1", 20, 60),
    ghost("p2", 15, 44),
    ghost("p3", 8, 12),
    ghost("p4", 6, 25),
    ghost("p5", 4, 9),
    ghost("p6", 2, 3),
]


def practice(game_id: str = "gate", moves: int = 12, ghosts: Any = GHOSTS) -> Model:
    """dee's practice of the day's deal, as the ``daily`` reply with ghosts opens it."""
    model = Model(server="ws://127.0.0.1:8765", me="dee")
    model.set_games(GAME_LIST)
    reply = {
        **snapshot(played(game_id, seed=3, moves=moves), gid="4c1f0e2a9b7d3365", kind="practice"),
        "day": "2026-11-22",
        "ranked": False,
        "note": "practice: your ranked attempt today has ended; this one is not ranked",
        "reset_at": RESET,
        "ranked_result": LINE,
        "streak": {"game": {"current": 1, "best": 1}, "all": {"current": 1, "best": 1}},
        "started_at": START,
    }
    if ghosts is not None:
        reply["ghosts"] = ghosts
    model.set_daily(reply, START)
    return model


def screen(model: Model, now: int, rows: int = ROWS) -> str:
    lines = render_screen(model, WIDTH, rows, now)
    assert len(lines) <= rows
    assert all(line.cell_len <= WIDTH for line in lines)
    return plain(lines)


def ghost_lines(text: str) -> list[str]:
    return re.findall(r"(\S+) \(ghost\)", text)


# -- the ghosts ----------------------------------------------------------------------


def test_practice_with_ghosts_races_them_from_its_start_by_the_servers_clock() -> None:
    model = practice()
    race = model.against_board
    assert race is not None and race.gid == "4c1f0e2a9b7d3365" and race.start_at == START
    assert [g.name for g in race.ghosts] == [g["name"] for g in GHOSTS]
    standing = {r["name"]: (r["home"], r["moves"], r["status"]) for r in racers(model, START)}
    assert standing["bob"] == (1, 0, "playing")  # as dealt
    later = {r["name"]: r for r in racers(model, START + 41_000)}
    assert (later["bob"]["home"], later["bob"]["moves"]) == (9, 30)
    assert later["dee"]["moves"] == 12 and not later["dee"].get("ghost")
    # the local clock is the server's less the offset measured at sign-in
    model.offset_ms = 90_000
    ended = {r["name"]: r["status"] for r in racers(model, START)}
    assert ended["catherine_of_aragon"] == "won" and ended["bob"] == "resigned"
    # best first, as the panel shows them
    homes = [r["home"] for r in racers(model, START)]
    assert homes == sorted(homes, reverse=True)


def test_only_a_practice_asked_with_ghosts_races_the_board() -> None:
    assert practice(ghosts=None).against_board is None  # practice alone (--no-ghosts)
    model = practice()
    assert model.game is not None
    model.set_daily({**snapshot(played("gate", seed=3, moves=0), kind="daily"),
                     "day": "2026-11-22", "ranked": True, "ghosts": GHOSTS}, START)  # fmt: skip
    assert model.against_board is None  # a ranked attempt races no one
    model = practice()
    model.set_solo(snapshot(played("gate", seed=3, moves=0)), START)
    assert model.against_board is None  # another game on the table
    args = parser().parse_args(["daily", "gate", "--no-ghosts"])
    assert args.no_ghosts and not parser().parse_args(["daily"]).no_ghosts


def test_practice_says_it_races_the_board_or_that_it_is_alone() -> None:
    assert daily_greeting(practice())[0] == (
        "Practice, not ranked: racing 8 ghosts of today's board, as they played."
    )
    # no one else has finished the day's deal yet: the server's note, and no panel
    alone = practice(ghosts=[])
    assert daily_greeting(alone)[0].startswith("Practice: your ranked attempt today has ended")
    assert "vs the board" not in screen(alone, START + 41_000)


# -- the panel -----------------------------------------------------------------------


def test_the_panel_beside_the_board_has_every_ghost_where_they_fit() -> None:
    model = practice()
    model.say("Practice, not ranked: racing 8 ghosts of today's board, as they played.", "warn")
    text = screen(model, START + 41_000)
    check_golden("screen-practice-ghosts", text)
    assert re.search(r"vs the board +home moves", text), text
    assert sorted(ghost_lines(text)) == sorted(
        ["bob", "catheri…", "p1", "p2", "p3", "p4", "p5", "p6"]
    )
    assert re.search(r"▸dee +\d+/52 +12 ", text), text
    assert re.search(r"bob \(ghost\) +9/52 +30 ", text), text
    assert "more ahead" not in text and "more behind" not in text
    # a terminal of 16 lines leaves the panel 9: dee and the ghosts nearest her
    short = screen(model, START + 41_000, rows=16)
    assert re.search(r"▸dee +3/52", short) and re.search(r" 2 more ahead\n", short), short
    assert sorted(ghost_lines(short)) == ["bob", "p2", "p3", "p4", "p5", "p6"]


def test_a_short_panel_shows_the_ghosts_nearest_the_player_and_how_many_more() -> None:
    model = practice()
    now = START + 41_000
    # dee, 12 moves in, stands between p3 (8 home) and p4 (6)... wherever dealt: the
    # panel keeps those next to her in the standing, and says the rest
    field = racers(model, now)
    mine = [r["name"] for r in field].index("dee")
    panel = plain(racers_panel(field, "vs the board", model, 30, most=6))
    lines = panel.splitlines()
    assert len(lines) == 6
    shown = [re.sub(r"\s.*", "", line.strip().lstrip("▸")) for line in lines[1:-1]]
    near = sorted(range(len(field)), key=lambda n: (abs(n - mine), n > mine))[:4]
    assert shown == [field[n]["name"] for n in sorted(near)]
    assert "dee" in shown
    hidden_ahead = sum(1 for n in range(mine) if n not in near)
    hidden_behind = len(field) - 4 - hidden_ahead
    said = lines[-1].strip()
    if hidden_ahead and hidden_behind:
        assert said == f"{hidden_ahead} more ahead, {hidden_behind} behind"
    else:
        assert (
            said == f"{hidden_ahead or hidden_behind} more {'ahead' if hidden_ahead else 'behind'}"
        )


def test_the_player_leading_or_last_sees_the_racers_nearest_them() -> None:
    model = practice()
    field = [{"name": "dee", "home": 52, "moves": 90, "total": 52, "status": "won"}]
    field += [{"name": f"g{n}", "ghost": True, "home": 40 - n, "moves": 9, "total": 52}
              for n in range(8)]  # fmt: skip
    lines = plain(racers_panel(field, "vs the board", model, 30, most=5)).splitlines()
    assert lines[1].startswith("▸dee") and "g0 (ghost)" in lines[2] and "g1 (ghost)" in lines[3]
    assert len(lines) == 5 and lines[4].strip() == "6 more behind"
    field[0] = {**field[0], "home": 1, "status": "resigned"}  # last: those just ahead
    lines = plain(racers_panel(field, "vs the board", model, 30, most=5)).splitlines()
    assert "g6 (ghost)" in lines[1] and "g7 (ghost)" in lines[2] and lines[3].startswith("▸dee")
    assert lines[4].strip() == "6 more ahead"
    model.me = None  # not racing (a watcher): the leaders
    lines = plain(racers_panel(field, "Race 1", model, 30, most=4)).splitlines()
    assert lines[-1].strip() == "7 more behind" and "g0 (ghost)" in lines[1]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_fits_with_eight_ghosts(game_id: str) -> None:
    model = practice(game_id, moves=40)
    model.say("Practice, not ranked: racing 8 ghosts of today's board, as they played.", "warn")
    text = screen(model, START + 41_000)
    assert "dee" in text  # beside the board, or in the line under it
    total = 26 if game_id in ("nestor", "doubles-and-quits") else 52  # pairs, or cards
    assert re.search(rf"\(ghost\) +\d+/{total}", text), text
    beside = "vs the board" in text
    if beside:  # the whole panel, or the ghosts nearest dee and how many more
        assert len(ghost_lines(text)) == 8 or re.search(r"\d+ more (ahead|behind)", text), text
    else:
        assert re.search(r"\+\d+ more", text), text  # eight ghosts do not fit in a line
    # on a terminal a few lines short of 24, the panel keeps to the board's room
    short = screen(model, START + 41_000, rows=16)
    assert "dee" in short
    if "vs the board" in short:
        assert len(ghost_lines(short)) == 8 or re.search(r"\d+ more (ahead|behind)", short)


def test_the_line_under_a_wide_board_keeps_the_player_and_counts_the_rest() -> None:
    model = practice()
    field = racers(model, START + 41_000)
    line = summary(field, "dee", 80, " · ").plain
    assert len(line) <= 80 and "dee " in line
    count = int(re.search(r"\+(\d+) more$", line).group(1))  # type: ignore[union-attr]
    assert count + len(ghost_lines(line)) == 8
    assert summary(field[:2], "dee", 80, " · ").plain.count("/52") == 2  # all fit: all said


# -- the placing ---------------------------------------------------------------------


def entry(rank: int, name: str, status: str, home: int, moves: int, ghost: bool = True,
          time_ms: int | None = None) -> dict[str, Any]:  # fmt: skip
    return {"rank": rank, "player": name, "ghost": ghost, "status": status, "time_ms": time_ms,
            "moves": moves, "home": home, "total": 52, "hints": 0}  # fmt: skip


RESULT: dict[str, Any] = {
    "type": "ghosts_result",
    "game": "4c1f0e2a9b7d3365",
    "you": entry(3, "dee", "resigned", 16, 80, ghost=False),
    "beaten": 6,
    "table": [
        entry(1, "catherine_of_aragon", "won", 52, 140, time_ms=80_000),
        entry(2, "p1", "resigned", 20, 60),
        entry(3, "dee", "resigned", 16, 80, ghost=False),
        entry(4, "p2", "resigned", 12, 44),
        entry(5, "bob", "resigned", 9, 30),
        entry(6, "p3", "resigned", 8, 12),
        entry(7, "p4", "resigned", 6, 25),
        entry(8, "p5", "resigned", 4, 9),
        entry(9, "p6", "resigned", 2, 3),
    ],
}


def test_the_placing_in_words() -> None:
    assert placing(RESULT) == "You placed 3rd of 9 against the board: you beat 6 of 8 ghosts."
    first = {**RESULT, "beaten": 8, "table": [{**RESULT["table"][2], "rank": 1}]}
    first["table"] += [{**e, "rank": n} for n, e in enumerate(RESULT["table"][3:], start=2)]
    assert placing(first) == "You placed 1st of 7 against the board: you beat every ghost."
    one = {
        "beaten": 0,
        "table": [entry(1, "bob", "won", 52, 90), entry(2, "dee", "lost", 3, 9, False)],
    }
    assert placing(one) == "You placed 2nd of 2 against the board: you beat 0 of 1 ghost."


def test_the_practice_placed_among_the_ghosts() -> None:
    model = practice(moves=80)
    assert model.game is not None
    model.apply_ghosts_result({**RESULT, "game": "another"})  # not this practice's
    model.apply_resigned({"game": model.game.gid, "status": "resigned"}, START + 95_000)
    assert not model.placed
    assert model.apply_ghosts_result(RESULT)
    assert model.placed and model.context() == "over"
    model.say("You placed 3rd of 9 against the board: you beat 6 of 8 ghosts. n: practise again.")
    text = screen(model, START + 100_000)
    check_golden("screen-practice-placed", text)
    assert "You placed 3rd of 9 against the board: you beat 6 of 8 ghosts." in text
    assert re.search(r"▸3\s+dee\s+resigned\s+\S+\s+80\s+16/52", text), text
    assert re.search(r"1\s+catherine_of_aragon \(ghost\)\s+won\s+1:20\.0\s+140\s+52/52", text)
    assert len(re.findall(r"\(ghost\)", text)) == 8
    assert "n the same deal again (practice)" in text


def test_a_ghosts_end_is_said_in_words_where_its_name_can_give_way() -> None:
    """In a narrow panel a racer's end was a bare mark ("bob3333… (ghost)  0/52  0 x"),
    which said nothing: the name gives way first, and the word is whole."""
    model = Model(me="dee")
    field = [
        {"name": "dee", "home": 9, "moves": 30, "total": 52, "status": "playing"},
        {"name": "bob333324", "ghost": True, "home": 0, "moves": 0, "total": 52,
         "status": "resigned"},
    ]  # fmt: skip
    lines = plain(racers_panel(field, "vs the ghosts", model, 36)).splitlines()
    ghost = next(line for line in lines if "(ghost)" in line)
    assert ghost.rstrip().endswith("resigned"), lines
    assert max(len(line) for line in lines) <= 36, lines
