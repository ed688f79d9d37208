"""The daily across the day's reset, in the model and the screen drawn from it (no
terminal; ``test_daily_reset_terminal.py`` crosses a real server's midnight): a ranked
attempt the reset times out ends with its ``daily_result`` alone, its clock stopped at
the reset; a result screen drawn after the reset says the day is over and names it."""

from __future__ import annotations

from client_cli.daily_end import day_end_ms
from client_cli.endings import farewell
from client_cli.keys_line import key_words
from client_cli.model import Model

from .test_screen import screen
from .views import GAME_LIST, played, snapshot

DAY = "2026-11-22"
RESET = day_end_ms(DAY) or 0
#: the client's clock is 4 s behind the server's
OFFSET = 4_000
#: the server's ms of the ranked attempt's deal: six minutes before the reset
STARTED = RESET - 360_200
LINE = "Patience Race · The Gate · 2026-11-22 · not won · 1 move · 1/52 home"


def ranked(*, ended: str | None = None) -> Model:
    """Ann's ranked attempt at the Gate of ``DAY``, in play (or ``ended`` so by her)."""
    model = Model(server="ws://127.0.0.1:9302", me="ann", offset_ms=OFFSET)
    model.set_games(GAME_LIST)
    model.set_daily(
        {
            **snapshot(played("gate", seed=5, moves=1), kind="daily"),
            "started_at": STARTED,
            "day": DAY,
            "ranked": True,
            "reset_at": RESET,
            "streak": {"game": {"current": 0, "best": 0}, "all": {"current": 0, "best": 0}},
        },
        STARTED - OFFSET + 1_000,
    )
    assert model.game is not None
    if ended is not None:
        model.apply_resigned({"game": model.game.gid, "status": ended}, RESET - OFFSET - 240_000)
    return model


def result(model: Model, status: str) -> dict[str, object]:
    assert model.game is not None
    return {
        "type": "daily_result",
        "day": DAY,
        "game": model.game.gid,
        "rules": "gate",
        "status": status,
        "rank": 2,
        "board": f"daily/gate/{DAY}",
        "streak": {"game": {"current": 0, "best": 0}, "all": {"current": 0, "best": 0}},
        "line": LINE,
    }


def test_the_resets_timeout_ends_the_game_on_the_table_its_clock_at_the_reset() -> None:
    """Fault 2 (probe I): ``daily_result`` with ``timeout`` came with no reply to any
    request, nothing marked the game over, and the screen stayed live: the legal line,
    a clock running on (6:40, 6:55 where the board had 6:00.2), and ``q`` saying the
    attempt was kept, its clock running on."""
    model = ranked()
    model.confirm = "resign"  # asked as the reset came
    came = RESET - OFFSET + 300  # (the client's ms)
    model.apply_daily_result(result(model, "timeout"), came)
    game = model.game
    assert game is not None and game.over and game.status == "timeout" and game.legal == []
    assert model.result_shown and model.confirm is None
    # the time the board records: from the deal to 00:00, 6:00.2
    assert model.clock_to is not None and model.clock_from is not None
    assert model.clock_to - model.clock_from == RESET - STARTED
    for later in (came, came + 65_000):
        shown = screen(model, now=later)
        header = shown.splitlines()[0]
        assert " · daily 2026-11-22 · 6:00 " in header, shown
        assert "legal:" not in shown and "The 2026-11-22 daily challenge is done" in shown
    said = farewell(model)
    assert "clock runs on" not in said and "kept on the server" not in said, said
    assert LINE in said.replace("\xa0", " ")  # (kept whole: its spaces unbreakable)


def test_a_ranked_clock_stops_at_the_reset_before_its_result_comes() -> None:
    """The result comes within seconds of the reset (from a process that died, half a
    minute or more): until then the header's clock stops at 00:00, not after it."""
    model = ranked()
    assert " · 6:00 " in screen(model, now=RESET - OFFSET + 20_000).splitlines()[0]


def test_a_result_screen_drawn_after_the_reset_says_the_day_is_over() -> None:
    """Fault 4 (probe I): a result left on the screen across the reset said "Today's
    daily challenge is done", "The next deal in 0:00" (and the header's ``next deal in
    0:00``), pointed ``top`` at the new day's board, called the replay the player's alone
    until the reset, and offered ``n`` as the same deal's practice (it asked to start the
    new day's ranked attempt)."""
    model = ranked(ended="resigned")
    model.apply_daily_result(result(model, "resigned"), RESET - OFFSET - 240_000)
    before = screen(model, now=RESET - OFFSET - 60_000)
    # (so far: others finish after, above it, and the rank shown is not told again)
    assert "Today's daily challenge is done: resigned, rank 2 on the day's board so far." in before
    assert "The next deal in 1:00." in before and "next deal in 1:00" in before.splitlines()[1]
    assert "(yours alone until the day's reset, then anyone's)" in before
    assert key_words(model, RESET - OFFSET - 60_000).startswith("n the same deal again ")

    after = RESET - OFFSET + 60_000
    shown = screen(model, now=after)
    lines = shown.splitlines()
    assert lines[1].endswith("RESIGNED · streak 0 · next deal out"), shown
    assert "Today's" not in shown and "0:00" not in shown, shown
    said = " ".join(shown.split())
    assert (
        "The 2026-11-22 daily challenge is done: resigned, rank 2 on the day's board as you "
        "finished." in said
    )
    assert "  The next day's deal is out: new gate plays it (asked first)." in lines
    board = "patience-race top gate --day 2026-11-22 --server ws://127.0.0.1:9302"
    # (whole, under its label: beside it, 82 columns, it was cut)
    assert lines[lines.index("  The board:") + 1] == f"    {board}", shown
    assert "             (anyone's now: the day is over)" in lines, shown
    keys = key_words(model, after)
    assert keys.startswith("n that day's deal again (practice) · new GAME today's daily"), keys
