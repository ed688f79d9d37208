"""Whole screens against golden text at 80x24, and every view of every game fitting."""

from __future__ import annotations

import re
from typing import Any

import pytest
from rich.text import Text

from client_cli.commands import KEYS, narrowed
from client_cli.endings import left_room
from client_cli.lines import ansi, between_words, plain
from client_cli.model import WATCH, Model
from client_cli.screen import render_screen
from server.engine import new_game

from .conftest import check_golden
from .views import GAME_IDS, GAME_LIST, played, playouts, snapshot

WIDTH, HEIGHT = 80, 24
#: the lines above the input line
ROWS = HEIGHT - 1
START = 1_795_309_165_000  # a server time, ms
NOW = START + 83_000


def solo(game: Any, *, ascii: bool = False, message: str = "") -> Model:
    model = Model(server="ws://127.0.0.1:8765", me="ann", ascii=ascii)
    model.set_games(GAME_LIST)
    model.set_solo(snapshot(game), NOW - 75_000)
    if message:
        model.say(message, "error")
    return model


def room(state: str, **extra: Any) -> dict[str, Any]:
    racing = state in ("racing", "finished")
    players = [
        {"name": "ann", "ready": False, "present": True, "host": True},
        {"name": "bob", "ready": True, "present": True, "host": False},
        {"name": "catherine_of_aragon", "ready": False, "present": False, "host": False},
    ]
    if racing:
        for p, (home, moves, status) in zip(
            players, [(9, 14, "playing"), (21, 30, "playing"), (2, 3, "resigned")], strict=True
        ):
            p.update(home=home, total=52, moves=moves, status=status)
    return {
        "type": "room",
        "code": "8GY8VQ",
        "game": "gate",
        "state": state,
        "race": 1,
        "host": "ann",
        "max_players": 8,
        "time_limit": 600 if racing else None,
        "start_at": START if state != "lobby" else None,
        "end_at": START + 600_000 if racing else None,
        "now": START,
        "players": players,
        "watchers": 1,
        "results": None,
        **extra,
    }


def in_room(state: str, me: str = "ann", **extra: Any) -> Model:
    model = Model(me=me)
    model.set_games(GAME_LIST)
    model.enter_room(room(state, **extra))
    return model


def racing(game_id: str = "gate", moves: int = 12) -> Model:
    model = in_room("racing")
    game = played(game_id, seed=3, moves=moves)
    model.apply_race_start({"code": "8GY8VQ", "race": 1, **snapshot(game, kind="race")})
    return model


def screen(model: Model, width: int = WIDTH, rows: int = ROWS, now: int = NOW) -> str:
    return plain(render_screen(model, width, rows, now))


RESULTS = [
    {"rank": 1, "player": "bob", "status": "won", "time_ms": 183_456, "moves": 88,
     "home": 52, "total": 52, "resigned": False, "replay": "b0b0b0b0b0b0b0b0"},
    {"rank": 2, "player": "ann", "status": "lost", "time_ms": None, "moves": 61,
     "home": 30, "total": 52, "resigned": False, "replay": "0123456789abcdef"},
    {"rank": 3, "player": "catherine_of_aragon", "status": "resigned", "time_ms": None,
     "moves": 3, "home": 2, "total": 52, "resigned": True, "replay": "ca7ca7ca7ca7ca7c"},
]  # fmt: skip


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_solo_screen_of_every_game(game_id: str) -> None:
    check_golden(f"screen-solo-{game_id}", screen(solo(played(game_id, seed=5, moves=25))))


def test_solo_refused_move_keeps_the_board() -> None:
    model = solo(
        new_game("gate", seed=1234),
        message="illegal move 'l>t1': 8D cannot go on KD: bars build down in alternate colours",
    )
    check_golden("screen-solo-refused", screen(model))


def test_solo_stuck_offers_to_resign() -> None:
    """A ``stuck`` event: the line stays on the screen while the position stands, under
    whatever the last message is."""
    from tests.solver.positions import STUCK

    game = STUCK["wedge"].game("wedge")
    model = solo(game)
    assert model.game is not None
    assert model.apply_stuck({"type": "stuck", "game": model.game.gid, "moves": game.moves})
    model.say("illegal move 'w>1': 9C cannot go on 4D: build down in alternate colours", "error")
    check_golden("screen-solo-stuck", screen(model))


def test_solo_won() -> None:
    game = played("doubles-and-quits", seed=1, moves=26, policy="deal")
    assert game.status == "won"
    model = solo(game)
    model.clock_to = NOW - 1_000
    model.say("You won! All 26 pairs off. n deals again.", "good")
    check_golden("screen-solo-won", screen(model))


def test_ascii_screens() -> None:
    model = solo(played("gate", seed=5, moves=25), ascii=True)
    text = screen(model)
    assert text.isascii()
    check_golden("screen-solo-gate-ascii", text)
    model = racing()
    model.ascii = True
    text = screen(model)
    assert text.isascii()
    check_golden("screen-race-ascii", text)


def test_race_screen() -> None:
    check_golden("screen-race-gate", screen(racing()))


def test_race_screen_of_the_widest_garden() -> None:
    check_golden("screen-race-blockade", screen(racing("blockade", 60)))


def test_lobby_as_host_and_as_guest() -> None:
    check_golden("screen-lobby-host", screen(in_room("lobby")))
    check_golden("screen-lobby-guest", screen(in_room("lobby", me="bob")))


def test_nobody_hosts_a_quick_race() -> None:
    """A quick race's room names no host (the server keeps one, but nobody starts it nor
    calls a rematch): the racers' list said "ann  host" in its countdown."""
    assert re.search(r"ann +host", screen(in_room("countdown")))
    shown = screen(in_room("countdown", quick=True))
    assert "ann" in shown and not re.search(r"\bhost", shown), shown


def test_commands_to_copy_under_the_results_are_whole_at_80_columns() -> None:
    """Under a race's results, the commands a player copies (another quick race, the
    replays) wrap rather than lose their end: on another server than the default, at 80
    columns, they were cut to "--server ws://127.0.0.1…"."""
    model = racing("nestor")
    model.server = "ws://127.0.0.1:9311"
    model.enter_room(room("finished", game="nestor", results=RESULTS, quick=True))
    shown = screen(model, width=80)
    joined = " ".join(shown.split())
    assert "Race again: patience-race quick nestor --server ws://127.0.0.1:9311" in joined
    assert "Others (ID from the table):" in joined
    # (a command copied whole: on a line of its own where the label and it are too wide)
    assert "\n    patience-race replay ID --server ws://127.0.0.1:9311\n" in shown, shown
    assert "…" not in shown, shown


def test_a_seeded_rooms_first_race_says_it_is_not_rated() -> None:
    """(it went unrated without a word, and the results showed no rating)"""
    shown = screen(in_room("lobby", rated=False))
    assert "Not rated: its deal was chosen by its seed (a rematch is)." in shown
    assert "Not rated" not in screen(in_room("lobby", rated=True))


def test_a_lobby_says_when_its_room_allows_hints() -> None:
    """A room made with hints says so in its lobby, as the browser's does ("hints
    allowed"): the terminal's said only "Time limit: 3:00 a race; up to 8 racers". A room
    without them says nothing of hints."""
    for width in (80, 60):
        shown = screen(in_room("lobby", hints=True, time_limit=180), width=width)
        said = " ".join(shown.split())
        assert "Time limit: 3:00 a race; up to 8 racers; 1 watching; hints allowed" in said, shown
        assert "…" not in shown, shown
        for without in (in_room("lobby", hints=False), in_room("lobby")):
            assert "hint" not in screen(without, width=width)


def test_countdown() -> None:
    check_golden("screen-countdown", screen(in_room("countdown"), now=START - 2_400))


def test_results() -> None:
    model = in_room("finished", results=RESULTS)
    model.say("Race over: you came 2nd of 3.", "good")
    shown = screen(model)
    check_golden("screen-results", shown)
    # every racer's replay id, whole, beside the longest name
    assert re.search(r"catherine_of_aragon .* 2/52 +ca7ca7ca7ca7ca7c\n", shown), shown
    # (ann has no game of the race here, no line of her own replay: "Others" followed none)
    assert "Replays (ID from the table): patience-race replay ID" in shown


def test_results_say_who_left_the_room() -> None:
    """One who left ranks below one who stayed with as many cards home: the table said
    "resigned" of both, and not why."""
    left = [RESULTS[0], RESULTS[1], {**RESULTS[2], "left": True}]
    shown = screen(in_room("finished", results=left))
    assert re.search(r"catherine_of\S* +resigned, left ", shown), shown
    assert "lost, left" not in shown


def test_results_of_an_older_server_have_no_replay_column_ids() -> None:
    old = [{k: v for k, v in r.items() if k != "replay"} for r in RESULTS]
    shown = screen(in_room("finished", results=old))
    assert "Anyone's" not in shown and "b0b0" not in shown


def test_watching_a_race() -> None:
    model = in_room("racing", me="dan")
    model.screen = WATCH
    check_golden("screen-watch", screen(model))


def test_help() -> None:
    model = solo(new_game("wedge", seed=2))
    model.help = True
    check_golden("screen-help", screen(model))


def test_reconnecting_shows_in_the_header() -> None:
    model = solo(new_game("nestor", seed=2))
    model.link = "reconnecting in 2 s"
    first = screen(model).splitlines()[0]
    assert first.rstrip().endswith("reconnecting in 2 s")


def test_race_clock_runs_on_the_server_clock() -> None:
    model = racing()
    model.offset_ms = 5_000  # the server is 5 s ahead of us
    assert "1:28 (8:32 left)" in screen(model, now=NOW).splitlines()[0]


def test_the_race_clock_and_the_time_left_add_up_to_the_limit() -> None:
    """The time left counts down as a countdown does, rounded up (0:01 until the last
    moment): floored as the time run is, a 0:30 race read "0:06 (0:23 left)"."""
    model = racing()
    assert "0:06 (9:54 left)" in screen(model, now=START + 6_500).splitlines()[0]
    for ms in (0, 1, 999, 1_000, 6_500, 59_999, 599_001, 599_999):
        found = re.search(r"(\d+):(\d\d) \((\d+):(\d\d) left\)", screen(model, now=START + ms))
        assert found, ms
        run_m, run_s, left_m, left_s = map(int, found.groups())
        assert (run_m + left_m) * 60 + run_s + left_s == 600, (ms, found.group(0))


def test_the_header_shortens_the_games_name_before_the_clock() -> None:
    """A race of The Blockade (rows of ten), the player's name of 20 on the right: at 80
    columns the header was cut at its end, "0:09 (9:51 le… catherine_of_aragon1"."""
    model = in_room("racing", me="catherine_of_aragon1", game="blockade-ten")
    first = screen(model).splitlines()[0]
    assert first == (
        " The Blockade · room 8GY8VQ · 1:23 (8:37 left)             catherine_of_aragon1"
    ), first


def test_colour_reaches_the_terminal() -> None:
    text = ansi(render_screen(solo(new_game("gate", seed=1)), WIDTH, ROWS, NOW), WIDTH)
    assert "\x1b[31m" in text  # red suits


def test_names_from_the_server_are_escaped() -> None:
    model = in_room("lobby")
    assert model.room is not None
    model.room["players"][1]["name"] = "[bold]bob\x1b]0;pwned\x07"
    text = ansi(render_screen(model, WIDTH, ROWS, NOW), WIDTH)
    assert "[bold]bob]0;pwned" in text and "\x07" not in text and "\x1b]" not in text


# -- fitting -----------------------------------------------------------------------------


def _fits(model: Model, where: str) -> None:
    lines = render_screen(model, WIDTH, ROWS, NOW)
    assert len(lines) <= ROWS, where
    for line in lines:
        assert isinstance(line, Text) and line.cell_len <= WIDTH, f"{where}: {line.plain!r}"
    assert "enlarge the terminal" not in plain(lines), f"{where}: cropped\n{plain(lines)}"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_view_fits_80x24(game_id: str) -> None:
    """Every position of random, deal-first and build-first playouts fits 80 columns and
    24 rows, solo and in a race of three: fanned piles are cut to fit where they must."""
    race = racing(game_id, 0)
    for policy, seeds in (("random", range(2)), ("deal", range(1)), ("build", range(1))):
        for n, game in enumerate(playouts(game_id, seeds, policy, limit=300)):
            if n % 3:
                continue  # every third position: enough to meet every shape, and quick
            snap = snapshot(game)
            model = solo(game)
            _fits(model, f"{game_id} {policy} solo {game.moves}")
            assert race.game is not None
            race.game.view, race.game.legal = snap["view"], snap["legal"]
            race.changed()
            _fits(race, f"{game_id} {policy} race {game.moves}")


def test_race_results_give_the_replay_id() -> None:
    model = racing()
    assert model.game is not None
    model.apply_resigned({"game": model.game.gid, "status": "resigned"}, NOW)
    model.apply_results({"code": "8GY8VQ", "race": 1, "results": RESULTS})
    shown = screen(model)
    check_golden("screen-results-replay", shown)
    assert f"Replay: patience-race replay {model.game.gid}" in shown


def test_a_race_that_ran_out_of_time_gives_the_players_own_replay() -> None:
    """A timed race's end times out the games still played, and says so only in its
    results (no reply about the player's own game comes): the results lacked "Replay:
    ..." after it, and leaving printed no "Your replay"."""
    model = racing()
    assert model.game is not None
    timed = [{**r, "status": "timeout"} if r["player"] == "ann" else r for r in RESULTS]
    timed[1]["replay"] = model.game.gid
    model.apply_results({"code": "8GY8VQ", "race": 1, "results": timed})
    assert f"Replay: patience-race replay {model.game.gid}" in screen(model)
    printed = between_words(left_room(model), 200)  # (as printed: each command whole)
    assert f"Your replay: patience-race replay {model.game.gid}" in printed
    # (the room's finished state, as a resume brings it, says it the same)
    again = racing()
    assert again.game is not None
    again.apply_room({**room("finished"), "results": timed, "now": START + 1})
    assert f"Replay: patience-race replay {again.game.gid}" in screen(again)


def test_a_game_whose_time_ran_out_says_so_in_words() -> None:
    """The protocol's "timeout" read like the software's error where a racer's result is
    shown: the results say "time ran out", the racers' panel "out of time"."""
    timed = [{**r, "status": "timeout"} if r["player"] == "ann" else r for r in RESULTS]
    shown = screen(in_room("finished", results=timed))
    assert re.search(r"2 +ann +time ran out +— +61 ", shown), shown
    model = racing()
    assert model.room is not None
    model.room["players"][0]["status"] = "timeout"
    shown = screen(model)
    assert re.search(r"ann +9/52 +14 out of time", shown), shown
    assert "timeout" not in shown


def test_the_race_panel_title_is_whole_beside_short_names() -> None:
    """Two racers of two letters: the panel's title still reads "Race 1"."""
    model = racing()
    assert model.room is not None
    for player, name in zip(model.room["players"], ["al", "bo", "cy"], strict=True):
        player["name"] = name
    model.me = "al"
    assert re.search(r"Race 1 +home moves", screen(model)), screen(model)


def test_results_of_a_game_of_pairs_count_pairs() -> None:
    model = racing("nestor")
    model.enter_room(room("finished", game="nestor", results=RESULTS))
    shown = screen(model)
    assert re.search(r"catherine_of_aragon .* 1/26 +ca7ca7ca7ca7ca7c\n", shown), shown
    assert re.search(r"\bpairs\b", shown) and "/52" not in shown, shown


def test_the_line_under_a_narrow_board_counts_pairs_in_a_game_of_pairs() -> None:
    model = racing("nestor")
    shown = screen(model, width=40)
    assert "bob 10/26" in shown and "/52" not in shown, shown


def test_watching_a_race_of_pairs_counts_pairs() -> None:
    model = in_room("racing", me="dan", game="doubles-and-quits")
    model.screen = WATCH
    shown = screen(model)
    assert re.search(r"bob\s+10/26\s+30 ", shown) and "/52" not in shown, shown


def test_the_results_of_a_quick_race_offer_no_rematch() -> None:
    model = racing()
    assert model.game is not None
    model.apply_resigned({"game": model.game.gid, "status": "resigned"}, NOW)
    model.enter_room(room("finished", results=RESULTS, quick=True))
    shown = screen(model)
    assert "rematch" not in shown.replace("has no rematch", ""), shown
    assert "A quick race has no rematch. Race again: patience-race quick gate" in shown
    assert "c challenge a friend · review · q leave (then patience-race quick: another)" in shown


def test_the_board_stays_put_through_a_question_and_the_games_end() -> None:
    """The Gate's bottom bars are anchored to the room the board has: a question (no
    legal line under it) and the game's end gave it a line more, and the bars moved a
    line down as the player resigned."""
    game = new_game("gate", seed=5)
    model = solo(game)
    playing = screen(model).splitlines()[:19]
    model.confirm = "resign"
    model.say("Resign this game? It ends as it stands.", "warn")
    assert screen(model).splitlines()[:19] == playing
    model = Model(server="ws://127.0.0.1:8765", me="ann")
    model.set_games(GAME_LIST)
    model.set_solo({**snapshot(game), "status": "resigned", "legal": []}, NOW - 75_000)
    model.say("The game is resigned, 0/52 home. n deals again.")
    over = screen(model).splitlines()
    assert over[1].endswith("RESIGNED")
    assert over[2:19] == playing[2:19]


def test_the_start_rings_where_the_countdown_went_unseen() -> None:
    """The terminal rings at each second of the countdown and at the start, as it draws
    the screen: a countdown short or busy enough to be drawn never (the tests' 0.3 s, a
    loaded machine) left the race to start in silence. A race in its first second rings
    once; one taken up later does not."""
    from client_cli.room_screen import countdown_second, rings

    model = in_room("racing")  # (from the lobby straight into the race: start_at START)
    assert rings(None, countdown_second(model, START + 200))
    assert not rings(0, countdown_second(model, START + 700))  # (once)
    assert not rings(0, countdown_second(model, START + 1_200))
    assert not rings(None, countdown_second(model, START + 5_000))  # (taken up later)
    counting = in_room("countdown")
    seen = [countdown_second(counting, START - t) for t in (2_500, 1_500, 500)]
    assert seen == [3, 2, 1]
    assert rings(1, countdown_second(model, START + 100))  # (seen counting: the start)


def test_a_question_stays_under_what_is_said_while_it_waits() -> None:
    """A racer asked "Resign this race?" when the other racer's resignation came: the
    notice took the question's place, leaving "y yes · anything else: no" under "ann
    resigned" (seen under load in the pty tests). The question stays, after the notice,
    until it is answered."""
    model = racing()
    model.ask("resign", "Resign this race? Your game ends here; the race goes on.")
    model.say("ann resigned", passes_at=NOW + 3_000)
    shown = " ".join(screen(model).split())
    assert "ann resigned · Resign this race? Your game ends here; the race goes on." in shown
    assert "y yes · anything else: no" in shown
    assert "Resign this race?" in " ".join(screen(model, now=NOW + 10_000).split())
    model.confirm = None  # (answered)
    model.say("")
    assert "Resign this race?" not in screen(model)


def test_a_pages_keys_offer_more_and_back_only_where_there_are() -> None:
    """The review's last page still offered "space or PgDn more", its first "b back"."""
    model = solo(new_game("gate", seed=5))
    model.open_page("Notes", "\n".join(f"line {n}" for n in range(40)))
    first = screen(model).splitlines()[-1]
    assert "space or PgDn more" in first and "PgUp back" not in first, first
    assert model.page is not None
    model.page.top = 30
    last = screen(model).splitlines()[-1]
    assert "more" not in last and "b or PgUp back" in last, last
    assert re.search(r"lines \d+-40 of 40", last), last


@pytest.mark.parametrize("width", range(40, 60))
def test_a_keys_line_too_wide_keeps_how_to_leave(width: int) -> None:
    """Under 60 columns a keys line still too wide once shortened was cut at its end, and
    its last words went first: "q leave" while waiting for the others, "q quit" while a
    challenge's result was on its way, "not now" before a ranked daily. The words
    between its first and its last give way instead, and every line fits."""
    for context, words in KEYS.items():
        shown = narrowed(words, width)
        assert len(shown) <= width, (context, shown)
        # (the last words whole, or in their shorter form: "q leave", "not now")
        last = [re.sub(r" \(.*\)$", "", w.split(" · ")[-1]).split()[-1] for w in (shown, words)]
        assert last[0] == last[1], (context, shown)
        assert shown.split(" · ")[0], (context, shown)
