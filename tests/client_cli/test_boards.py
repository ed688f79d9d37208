"""Leaderboards as tables at 80 columns, against golden text; which board a command
means."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from rich.console import Console, Group, RenderableType
from rich.text import Text

from client_cli.boards import board_id, board_view, day_of, overview, pick_day
from client_cli.groups import group_board_view
from client_cli.printing import _render, _whole

from .conftest import check_golden
from .views import GAME_LIST

NOW = 1_795_309_165_000  # 2026-11-22 09:39:25 UTC, on the server's clock


def text(renderable: RenderableType, width: int = 80) -> str:
    """As the commands print it (``printing._whole``: each command to copy whole)."""
    console = Console(width=width, file=io.StringIO(), color_system=None, emoji=False)
    console.print(_whole(renderable, width), crop=False)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert all(len(line) <= width for line in out.splitlines())
    return str(out)


def timed(
    player: str, rank: int, won: bool, time_ms: int, moves: int, home: int, hints: int = 0
) -> dict[str, Any]:
    return {
        "player": player,
        "rank": rank,
        "won": won,
        "time_ms": time_ms,
        "moves": moves,
        "home": home,
        "total": 52,
        "hints": hints,
        "replay": f"{rank:016x}",
        "day": "2026-11-22",
    }


DAILY = [
    timed("bob", 1, True, 205_300, 142, 52),
    timed("ann", 2, True, 312_000, 170, 52, hints=2),
    timed("catherine_of_aragon_", 3, False, 61_000, 40, 30),
    timed("dan", 4, False, 4_400, 1, 1),
]


def page(kind: str, board: str, title: str, entries: list[dict[str, Any]], **extra: Any) -> Any:
    return {
        "type": "board",
        "board": board,
        "title": title,
        "kind": kind,
        "entries": entries,
        "size": len(entries),
        "offset": 0,
        "leader": entries[0] if entries else None,
        "to_beat": entries[0] if entries else None,
        **extra,
    }


def test_which_board() -> None:
    assert board_id(None, None) is None
    assert board_id("gate", None) == "daily/gate"
    assert board_id("gate", "2026-11-21") == "daily/gate/2026-11-21"
    assert board_id("wins/gate", None) == "wins/gate"
    assert board_id("daily/gate/2026-11-21", "2026-11-21") == "daily/gate/2026-11-21"
    with pytest.raises(ValueError, match="names its day already"):
        board_id("daily/gate/2026-11-21", "2026-11-20")
    with pytest.raises(ValueError, match="--day picks a day of a daily board"):
        board_id("races/all", "2026-11-20")
    assert pick_day("today", NOW) == "2026-11-22"
    assert pick_day("Yesterday", NOW) == "2026-11-21"
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        pick_day("22/11/2026", NOW)


def test_a_daily_board() -> None:
    board = page("daily", "daily/gate/2026-11-22", "The Gate: daily challenge, 2026-11-22", DAILY)
    shown = text(board_view(board, me="ann", server_ms=NOW))
    check_golden("top-daily", shown)
    # a game not won has no time on the board (its time ranks nothing: as a race's results)
    (dan,) = [line for line in shown.splitlines() if " dan " in line]
    assert "—" in dan and "0:04.4" not in dan, dan


def test_a_daily_board_says_how_hard_its_deal_is() -> None:
    graded = {
        "grade": "expert",
        "board_wins": 0,
        "tries": 6,
        "line_wins": 2,
        "searches": 6,
        "home_pct": 38,
    }
    board = page("daily", "daily/gate/2026-11-22", "", DAILY, difficulty=graded)
    shown = " ".join(text(board_view(board, me="ann", server_ms=NOW)).split())
    assert (
        "Difficulty: expert for this game (the hint engine, seeing only the board, won 0 of"
        " 6 tries, 38% of the cards home on average; 2 of 6 short solver searches found a win)."
        in shown
    )
    # a game whose cards come off in pairs: paired off, not home
    board = page("daily", "daily/nestor/2026-11-22", "", DAILY, difficulty=graded, unit="pairs")
    shown = " ".join(text(board_view(board, me="ann", server_ms=NOW)).split())
    assert "38% of the cards paired off on average" in shown
    # not graded yet, or a grade this client does not know: nothing said
    for difficulty in (None, {**graded, "grade": "[bold]easy"}):
        board = page("daily", "daily/gate/2026-11-22", "", DAILY, difficulty=difficulty)
        assert "Difficulty" not in text(board_view(board, me="ann", server_ms=NOW))


def test_a_past_day_around_me() -> None:
    board = page(
        "daily",
        "daily/gate/2026-11-21",
        "The Gate: daily challenge, 2026-11-21",
        DAILY,
        rank=4,
        to_beat=DAILY[2],
    )
    shown = text(board_view(board, me="dan", around=True, server_ms=NOW))
    check_golden("top-daily-around", shown)
    assert "To beat: catherine_of_aragon_ (just above you, rank 3)" in shown


def test_around_me_off_the_board_says_so_once() -> None:
    """Around one who is not on a board of three: that, and no "Nobody is on this board
    yet" beside it (it said both)."""
    board = {**page("daily", "daily/gate/2026-11-21", "The Gate", []), "size": 3, "rank": None}
    board["leader"] = board["to_beat"] = DAILY[0]
    shown = text(board_view(board, me="dan", around=True, server_ms=NOW))
    assert "You are not on this board yet." in shown
    assert "Nobody" not in shown, shown


def test_around_me_with_ones_result_held_says_why_one_is_off_the_board() -> None:
    """A ranked result the pace check held is off the board: looking for oneself there
    says so in the server's words, not "You are not on this board yet"."""
    board = {**page("daily", "daily/gate/2026-11-21", "The Gate", []), "size": 3, "rank": None}
    board["leader"] = board["to_beat"] = DAILY[0]
    note = "held for review: played faster than people play (10 moves in a row under 0.25 s)"
    held = {**board, "review": {"state": "held", "note": note}}
    shown = " ".join(text(board_view(held, me="dan", around=True, server_ms=NOW)).split())
    assert f"Your result of this day is not on this board: {note}" in shown
    assert "You are not on this board yet." not in shown
    cleared = {**board, "review": {"state": "cleared", "note": "cleared after review (ok)"}}
    assert "Your result" not in text(board_view(cleared, me="dan", friends=True, server_ms=NOW))


def test_boards_show_the_hints_taken_as_the_web_board_does() -> None:
    """The daily and best-times tables count each entry's hints; entries written before
    hints were counted (no ``hints``) leave the column blank, and a board none of whose
    entries counts them has no column."""
    board = page("daily", "daily/gate/2026-11-22", "The Gate: daily challenge, 2026-11-22", DAILY)
    shown = text(board_view(board, me="ann", server_ms=NOW))
    assert "hints" in shown.splitlines()[3]
    assert " 170       2 " in shown
    best = page("best", "best/gate", "", [dict(DAILY[1]), {**DAILY[0], "hints": None}])
    shown = text(board_view(best, me="ann", server_ms=NOW))
    assert " 170       2 " in shown
    old = [{k: v for k, v in e.items() if k != "hints"} for e in DAILY]
    shown = text(board_view(page("daily", "daily/gate", "", old), server_ms=NOW))
    assert "hints" not in shown


def test_best_times() -> None:
    best = [dict(DAILY[0], day="2026-11-20"), dict(DAILY[1], day="2026-11-22")]
    board = page("best", "best/gate", "The Gate: best daily times, all time", best)
    check_golden("top-best", text(board_view(board, me="ann", server_ms=NOW)))


def test_a_boards_commands_carry_the_server_it_is_on() -> None:
    """ "Watch one: patience-race replay ID" and "A board: patience-race top GAME" had no
    --server: pasted, they went to the default server."""
    best = [dict(DAILY[0], day="2026-11-20")]
    board = page("best", "best/gate", "The Gate: best daily times, all time", best)
    far = "wss://race.example.org"
    shown = " ".join(text(board_view(board, me="ann", server_ms=NOW, server=far)).split())
    assert f"(of today's deal: after the reset): patience-race replay ID --server {far}" in shown
    pages = [("The Gate", page("daily", "daily/gate/2026-11-22", "", DAILY[:1], size=1))]
    shown = " ".join(text(overview(pages, me="bob", server=far)).split())
    assert f"--friends after it): patience-race top GAME --server {far}" in shown


def test_an_empty_board_of_a_day_over_says_nobody_played_it() -> None:
    # ("Nobody is on this board yet." of a day over: nobody will be)
    past = page("daily", "daily/gate/2026-11-21", "The Gate: daily challenge, 2026-11-21", [])
    assert "Nobody played this day's daily." in text(board_view(past, server_ms=NOW))
    today = page("daily", f"daily/gate/{day_of(NOW)}", "The Gate", [])
    assert "Nobody is on this board yet." in text(board_view(today, server_ms=NOW))


def test_counting_boards() -> None:
    races = [
        {"player": "ann", "rank": 1, "count": 3},
        {"player": "bob", "rank": 2, "count": 1},
    ]
    board = page("races", "races/week/2026-W47", "Races won, week 2026-W47", races)
    shown = text(board_view(board, me="ann", server_ms=NOW))
    check_golden("top-races", shown)
    assert "You lead this board." in shown
    wins = page("wins", "wins/gate", "The Gate: daily wins, all time", [])
    assert "Nobody is on this board yet." in text(board_view(wins, server_ms=NOW))


def test_friends_nobody() -> None:
    board = page("daily", "daily/gate/2026-11-22", "The Gate: daily challenge", [])
    shown = text(board_view(board, me="ann", friends=True))
    assert "Neither you nor anyone you follow is on this board." in shown


def test_ascii() -> None:
    board = page("daily", "daily/gate/2026-11-22", "The Gate: daily challenge", DAILY)
    shown = text(board_view(board, me="ann", ascii=True))
    assert ">2" in shown and "─" not in shown


def test_every_game_of_a_day() -> None:
    pages = []
    for n, game in enumerate(GAME_LIST):
        entries = DAILY[: n % 3]
        board = f"daily/{game['id']}/2026-11-22"
        pages.append((game["name"], page("daily", board, "", entries[:1], size=len(entries))))
    check_golden("top-overview", text(overview(pages, me="bob")))


def test_a_board_picked_for_the_player_says_so() -> None:
    daily = page("daily", "daily/gate/2026-11-22", "The Gate: daily challenge, 2026-11-22", DAILY)
    shown = text(board_view(daily, me="ann", friends=True, server_ms=NOW, picked=True))
    lines = shown.splitlines()
    assert lines[1].startswith("daily/gate/2026-11-22 · 4 players")
    assert lines[2] == "No BOARD given: the board of your last daily, daily/gate/2026-11-22."
    assert "No BOARD given" not in text(board_view(daily, me="ann", server_ms=NOW))


def test_a_rating_board_says_who_is_on_it() -> None:
    # "Nobody is on this board yet" after a first rated race, and not a word of why
    page = {"board": "rating/babette", "title": "Babette: ratings", "kind": "rating",
            "entries": [], "size": 0, "offset": 0, "leader": None, "to_beat": None,
            "min_races": 5}  # fmt: skip
    shown = text(board_view(page, me="ann"))
    assert "Nobody is on this board yet." in shown
    assert "A racer joins this board after 5 rated races." in shown
    page["min_races"] = 1
    assert "after 1 rated race." in text(board_view(page, me="ann"))


def test_a_replay_is_offered_only_where_it_can_be_watched() -> None:
    """Today's daily replays wait for the reset: a group's board of today's daily said
    "Watch one: patience-race replay ID" (no server clock was given it), and the best
    times, some of them today's, said it with no word of the wait."""
    today = {**page("daily", "daily/gate/2026-11-22", "", DAILY), "group_name": "Friday"}
    shown = " ".join(text(group_board_view(today, "ann", False, NOW)).split())
    assert "Today's replays are public after the reset" in shown and "Watch one" not in shown
    best = " ".join(text(board_view(page("best", "best/gate", "", DAILY), server_ms=NOW)).split())
    assert "Watch one (of today's deal: after the reset): patience-race replay ID" in best


def test_a_board_of_pairs_counts_pairs() -> None:
    """Nestor's and Doubles and Quits' boards (``unit``: ``pairs``) count pairs off, as
    their games do (the board said 30/52 where the game said 15/26 pairs off)."""
    board = page("daily", "daily/nestor/2026-11-22", "", DAILY, unit="pairs")
    shown = text(board_view(board, me="ann", server_ms=NOW))
    assert "15/26 pairs" in shown and "/52" not in shown, shown


def test_every_game_of_a_day_keeps_its_headers_whole() -> None:
    """Leaders and results wider than the overview's 80 columns by a little: rich cut the
    one column it could wrap, players (``play…``, or gone altogether beside long names),
    while the games and results kept every cell. A header is never cut where the other
    columns have room to give: the names give first, the results stay whole."""
    for names in (["bob_t", "carol_w", "dave"], ["bob_t", "catherine_of_aragon_"]):
        pages = []
        for n, game in enumerate(GAME_LIST):
            leader = {"player": names[n % len(names)], "won": n % 4 == 1, "time_ms": 205_300,
                      "home": 4, "total": 52, "moves": 136 if n == 0 else 11}  # fmt: skip
            unit = "pairs" if game["id"] == "doubles-and-quits" else "cards"
            board = f"daily/{game['id']}/2026-11-22"
            pages.append((game["name"], {"board": board, "size": n + 1, "leader": leader,
                                         "unit": unit}))  # fmt: skip
        shown = text(overview(pages, me="bob_t"))
        header = shown.splitlines()[2].split()
        assert header == ["game", "players", "leader", "result"], shown
        assert "\nThe Wedge " in shown and " 10 " in shown, shown
        assert "not won, 2/26 pairs off, 11 moves\n" in shown, shown


def test_names_keep_their_room_before_the_replay_ids_at_60_columns() -> None:
    """Probe Z1, fault 4: at 60 columns the names were cut to 7 cells (``W______…``,
    ``Abcdefg…``: two names of the same start read alike) while each replay id kept its
    16; the names now keep their room, the replay ids going first (said under the table),
    the times and days never cut; at 80 columns the ids are there as before."""
    longs = [
        timed("W_________________W9", 1, True, 205_300, 142, 52),
        timed("Abcdefghijklmnopqrst", 2, True, 312_000, 170, 52, hints=2),
        timed("Abcdefghijklmnopqrsu", 3, False, 61_000, 40, 30),
    ]
    daily = page("daily", "daily/gate/2026-11-22", "The Gate: daily challenge, 2026-11-22", longs)
    among = {**daily, "members": 33, "group_name": "Probe Club"}
    for view in (board_view(daily, me="ann", server_ms=NOW), group_board_view(among, "ann", False)):
        narrow = text(view, 60)
        for e in longs:
            assert e["player"] in narrow, narrow
        assert "3:25.3" in narrow and "5:12.0" in narrow, narrow
        assert "0000000000000001" not in narrow, narrow
        assert "replay ids show in a wider terminal" in " ".join(narrow.split()), narrow
        wide = text(view, 80)
        assert "0000000000000001" in wide and "W_________________W9" in wide, wide
        assert "wider terminal" not in wide
    # best times with hints: names and days whole at 60 (the day under the name, or its own)
    best = page("best", "best/gate", "The Gate: best daily times, all time", longs)
    narrow = text(board_view(best, me="ann", server_ms=NOW), 60)
    for e in longs:
        assert e["player"] in narrow, narrow
    assert narrow.count("2026-11-22") == 3 and "3:25.3" in narrow, narrow


def test_short_names_keep_the_replay_ids_at_60_columns() -> None:
    """Probe A2, fault 4: at 60 columns a board of names of two and three letters, the
    player's own marked ``▸2``, left its replay ids out ("the replay ids show in a wider
    terminal"), no name cut: the check measured the table with its columns three cells
    apart, which it is drawn two apart where it is too wide for that (it was 58 wide)."""
    shorts = [
        timed("fa", 1, True, 69_800, 98, 52),
        timed("ret", 2, False, 0, 5, 1),
        timed("fb", 3, False, 0, 0, 0),
    ]
    daily = page("daily", "daily/gate/2026-11-22", "The Gate: daily challenge, 2026-11-22", shorts)
    for me in ("ret", None):
        narrow = text(board_view(daily, me=me, server_ms=NOW), 60)
        assert "wider terminal" not in narrow, narrow
        for e in shorts:
            assert re.search(rf"\b{e['player']}\s.*\s{e['replay']}$", narrow, re.M), narrow


def test_a_watched_boards_book_line_is_whole_at_60_columns() -> None:
    """Probe A2, fault 4: ``top GAME --watch`` at 60 columns cut the book line's command
    at the screen's edge (``--server ws://127.0.0.`` and the rest gone; printed without
    --watch it was whole). The watch's view holds it whole on a line of its own, wider
    than the screen, for the terminal to fold as it does the printed one."""
    url = "ws://127.0.0.1:9411"
    book = {"par": 98, "shortest": False, "replay": "book20261121gate"}
    past = page("daily", "daily/gate/2026-11-21", "The Gate", DAILY[:1], book=book)
    hint = Text("watching: the board is redrawn as it changes · Ctrl-C stops", style="dim")
    for width in (60, 80):
        shown = _render(Group(board_view(past, server_ms=NOW, server=url), hint), False, width)
        lines = [line.rstrip() for line in shown.plain.splitlines()]
        assert f"patience-race replay book20261121gate --server {url}" in lines, lines
        assert all(len(line) <= width or "patience-race" in line for line in lines), lines
