"""Board ids as the server reads them, over the websocket (``top``) and over HTTP: an id
is the whole text, never a prefix of it, and names a day or a week that exists and has
come."""

from __future__ import annotations

from typing import Any

import pytest

from server.app.domain.daily import DAY_MS, day_of, iso_week

from . import rawhttp
from .client import Client
from .conftest import Running


async def anonymous(server: Running) -> Client:
    client = await Client.connect(server.url)
    await client.call("hello", protocol=1)
    return client


async def top(client: Client, board: str) -> dict[str, Any]:
    return await client.request("top", board=board)


def today(server: Running) -> str:
    return day_of(server.clock.now_ms())


def week(server: Running) -> str:
    return iso_week(server.clock.now_ms())


ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")


async def test_an_id_with_a_trailing_newline_names_no_board(server: Running) -> None:
    client = await anonymous(server)
    day, this_week = today(server), week(server)
    for board in (
        f"daily/gate/{day}",
        "daily/gate",
        "best/gate",
        "wins/gate",
        "races/all",
        "races/week",
        f"races/week/{this_week}",
    ):
        assert (await top(client, board))["type"] == "board", board
        reply = await top(client, f"{board}\n")
        assert reply["type"] == "error" and reply["code"] == "no_such_board", (board, reply)
        assert reply["message"] == f"no board {board + chr(10)!r}"


async def test_digits_of_an_id_are_ascii(server: Running) -> None:
    """``\\d`` matches any decimal digit, such as ``٢``: a month ago written with one would
    be a second board of that day."""
    client = await anonymous(server)
    past = day_of(server.clock.now_ms() - 30 * DAY_MS)
    assert (await top(client, f"daily/gate/{past}"))["type"] == "board"
    for board in (
        f"daily/gate/{past[:-1]}{past[-1].translate(ARABIC_INDIC)}",
        f"races/week/{week(server)[:-1]}{week(server)[-1].translate(ARABIC_INDIC)}",
    ):
        reply = await top(client, board)
        assert reply["type"] == "error" and reply["code"] == "no_such_board", (board, reply)


async def test_the_day_pickers_query_with_a_newline_names_no_board(server: Running) -> None:
    port = server.web.port
    day = today(server)
    ok = await rawhttp.get(port, f"/leaderboard?game=gate&day={day}")
    assert ok.status == 200 and f"daily challenge, {day}" in ok.text
    for query in (f"game=gate&day={day}%0A", f"game=gate%0A&day={day}"):
        answer = await rawhttp.get(port, f"/leaderboard?{query}")
        assert answer.status == 404, query
        assert answer.content_type == "text/html; charset=utf-8"
        assert "no board" in answer.text


def test_parse_board_takes_the_whole_text() -> None:
    from server.app.domain.boards import parse_board

    for bad in ("daily/gate/2026-11-22\n", "best/gate\n", "races/all\n", "races/week/2026-W47\n"):
        with pytest.raises(ValueError):
            parse_board(bad, "2026-11-22", "2026-W47")


def week_after(server: Running, days: int) -> str:
    return iso_week(server.clock.now_ms() + days * DAY_MS)


async def test_a_week_that_does_not_exist_or_has_not_come_is_refused(server: Running) -> None:
    """ISO weeks run W01 to W52, or W53 in a year whose 28 December falls in week 53
    (2020 and 2026 have one; 2021 and 2025 do not). This week and past weeks are boards."""
    client = await anonymous(server)
    for good in (f"races/week/{week(server)}", "races/week/2020-W53", "races/week/2025-W01"):
        reply = await top(client, good)
        assert reply["type"] == "board" and reply["board"] == good, reply
    refused = {
        "races/week/2026-W99": "no week '2026-W99'",
        "races/week/2026-W00": "no week '2026-W00'",
        "races/week/2025-W53": "no week '2025-W53'",
        "races/week/2021-W53": "no week '2021-W53'",
        "races/week/0000-W01": "no week '0000-W01'",
    }
    for later in (week_after(server, 7), week_after(server, 400), "9999-W52"):
        refused[f"races/week/{later}"] = f"{later} has not come yet"
    for board, message in refused.items():
        reply = await top(client, board)
        assert reply["type"] == "error", (board, reply)
        assert (reply["code"], reply["message"]) == ("no_such_board", message), board
    # a future week, as a future day is
    later = day_of(server.clock.now_ms() + 3 * DAY_MS)
    reply = await top(client, f"daily/gate/{later}")
    assert reply["message"] == f"{later} has not come yet"


async def test_a_week_that_does_not_exist_or_has_not_come_is_no_page(server: Running) -> None:
    port = server.web.port
    this = await rawhttp.get(port, f"/leaderboard/races/week/{week(server)}.json")
    assert this.status == 200 and this.json()["board"] == f"races/week/{week(server)}"
    for bad in ("2026-W99", "2026-W00", "2025-W53", week_after(server, 7)):
        answer = await rawhttp.get(port, f"/leaderboard/races/week/{bad}.json")
        assert answer.status == 404, bad
        assert answer.json()["error"] == "no_such_board"
        page = await rawhttp.get(port, f"/leaderboard/races/week/{bad}")
        assert page.status == 404 and page.content_type.startswith("text/html"), bad


async def test_a_page_path_is_read_with_its_percent_escapes_decoded(server: Running) -> None:
    """``%2D`` is ``-`` (RFC 3986), so an id reaches the boards as it reaches ``top``, and a
    newline written ``%0A`` is refused as it is there."""
    port = server.web.port
    day = today(server)
    escaped = day.replace("-", "%2D")
    answer = await rawhttp.get(port, f"/leaderboard/daily/gate/{escaped}.json")
    assert answer.status == 200 and answer.json()["board"] == f"daily/gate/{day}"
    for board in (f"daily/gate/{day}", "races/all", f"races/week/{week(server)}"):
        answer = await rawhttp.get(port, f"/leaderboard/{board}%0A.json")
        assert answer.status == 404, board
        assert answer.json() == {
            "error": "no_such_board",
            "message": f"no board {board + chr(10)!r}",
        }
        assert (await rawhttp.get(port, f"/leaderboard/{board}%0A")).status == 404
