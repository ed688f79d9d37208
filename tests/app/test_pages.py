"""The leaderboard pages: JSON, and the HTML page as a real headless Chromium renders it.

With ``CI=true`` the browser test must run: ``.ci/run`` installs Debian's chromium.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from .client import player
from .conftest import Running

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def http(server: Running) -> str:
    return f"http://127.0.0.1:{server.web.port}"


async def fetch(url: str) -> tuple[int, str, str]:
    def get() -> tuple[int, str, str]:
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                body = response.read().decode()
                return response.status, response.headers["Content-Type"], body
        except urllib.error.HTTPError as exc:
            return exc.code, exc.headers["Content-Type"], exc.read().decode()

    return await asyncio.to_thread(get)


async def browse(url: str, profile: Path, *extra: str) -> str:
    """The DOM of a page after Chromium has loaded it (or what a screenshot run prints)."""
    if CHROMIUM is None:
        if os.environ.get("CI") == "true":
            pytest.fail("chromium is not installed: .ci/run must install it")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    proc = await asyncio.create_subprocess_exec(
        CHROMIUM,
        *FLAGS,
        f"--user-data-dir={profile}",
        *extra,
        url,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    out, _ = await asyncio.wait_for(proc.communicate(), 60)
    return out.decode()


async def two_results(server: Running) -> str:
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    for client in (ann, bob):
        reply = await client.call("daily", game="nestor")
        await client.call("move", move=reply["legal"][0])
        await client.call("resign")
    return reply["day"]


async def test_the_board_as_json(server: Running) -> None:
    day = await two_results(server)
    status, kind, body = await fetch(f"{http(server)}/leaderboard/daily/nestor.json")
    assert status == 200 and kind == "application/json"
    page = json.loads(body)
    assert page["board"] == f"daily/nestor/{day}"
    assert {e["player"] for e in page["entries"]} == {"ann", "bob"}
    assert all(e["replay"] for e in page["entries"])
    # Nestor takes cards off in pairs: its board says so, and its page counts pairs (it
    # showed 2/52 where the game said 1/26 pairs off)
    assert page["unit"] == "pairs"
    _, _, html = await fetch(f"{http(server)}/leaderboard/daily/nestor")
    assert "/26 pairs</td>" in html and "/52</td>" not in html, html
    _, _, gate = await fetch(f"{http(server)}/leaderboard/daily/gate.json")
    assert json.loads(gate)["unit"] == "cards"
    status, _, _ = await fetch(f"{http(server)}/leaderboard/daily/chess.json")
    assert status == 404


async def test_the_board_page_in_a_real_browser(server: Running, tmp_path: Path) -> None:
    day = await two_results(server)
    dom = await browse(f"{http(server)}/leaderboard/daily/nestor", tmp_path / "a", "--dump-dom")
    assert f"<title>Nestor: daily challenge, {day}</title>" in dom
    assert dom.count("<tr>") == 3  # the head and two entries
    # a name leads to the player's page; today's results to no replay (private till the
    # reset: the link answered 403)
    assert 'href="/play#player=ann">ann</a>' in dom and 'href="/play#player=bob">bob</a>' in dom
    assert 'href="/replay/' not in dom
    assert 'name="viewport"' in dom or "name=viewport" in dom
    # the day picker: a form that names a game and a day
    assert 'name="game"' in dom and 'type="date"' in dom
    picked = await browse(
        f"{http(server)}/leaderboard?game=nestor&day={day}", tmp_path / "b", "--dump-dom"
    )
    assert dom.count("<tr>") == picked.count("<tr>")
    # readable on a phone: it renders at a phone's width
    shot = tmp_path / "phone.png"
    await browse(
        f"{http(server)}/leaderboard/daily/nestor",
        tmp_path / "c",
        "--window-size=390,844",
        f"--screenshot={shot}",
    )
    assert shot.exists() and shot.stat().st_size > 1000


async def test_index_and_replay_pages(server: Running) -> None:
    await two_results(server)
    status, kind, body = await fetch(f"{http(server)}/")
    assert status == 200 and kind.startswith("text/html")
    assert "/leaderboard/daily/gate/" in body
    _, _, page = await fetch(f"{http(server)}/leaderboard/daily/nestor.json")
    replay = json.loads(page)["entries"][0]["replay"]
    status, _, _ = await fetch(f"{http(server)}/replay/{replay}")
    assert status == 403  # a daily replay is public only after the reset
    server.clock.advance(2 * 86_400)
    status, _, body = await fetch(f"{http(server)}/replay/{replay}")
    assert status == 200 and "resigned" in body
    assert " · 1 move · " in body  # one move played (it said "1 moves")
    # a player's replay can be raced: in the browser, or with the terminal's command
    assert f'href="/play#race={replay}"' in body and "Race this" in body
    # (with the server's address, this not being the terminal's default: as pasted)
    port = server.web.port
    assert f"patience-race challenge --replay {replay} --server ws://127.0.0.1:{port}" in body


async def test_a_bad_links_page_says_what_to_check_and_leads_to_the_games(
    server: Running,
) -> None:
    """A mistyped room, challenge or group link once ended on a bare page: a heading that
    it was "not a challenge's link" (for one a letter off a real one) and no way on."""
    for target, what in (
        ("/r/%3Cscript%3E", "race room"),
        ("/c/bdsmzho7eluze000", "challenge"),
        ("/g/abc?k=def", "group"),
    ):
        status, kind, body = await fetch(f"{http(server)}{target}")
        assert status == 404 and kind.startswith("text/html")
        assert f"There is no {what} at this link" in body, body
        assert "check it with whoever sent it" in body, body
        assert '<a href="/play">' in body, body


def test_every_string_on_a_page_is_escaped() -> None:
    from server.app.domain.boards import parse_board
    from server.app.transport.pages import board_html

    board = parse_board("daily/gate/2026-11-22", "2026-11-22", "2026-W47")
    entry = {
        "rank": 1,
        "player": "<script>x</script>",
        "won": True,
        "time_ms": 1000,
        "moves": 3,
        "replay": '"><img src=x>',
    }
    page = board_html({"entries": [entry], "size": 1}, board, "2026-11-22")
    assert "<script>" not in page and "<img" not in page
    assert "&lt;script&gt;" in page


def test_a_game_not_won_has_no_time_on_a_board_page() -> None:
    """A timed board ranks games not won by cards home and moves, not time: their time
    cell says so (a dash), as the race results' do."""
    from server.app.domain.boards import parse_board
    from server.app.transport.pages import STYLE, board_html

    board = parse_board("daily/gate/2026-11-22", "2026-11-22", "2026-W47")
    entries = [
        {"rank": 1, "player": "ann", "won": True, "time_ms": 205_300, "moves": 142},
        {"rank": 2, "player": "bob", "won": False, "time_ms": 61_000, "moves": 40, "home": 30,
         "total": 52},
    ]  # fmt: skip
    html = board_html({"entries": entries, "size": 2}, board, "2026-11-22")
    # to the tenth, as the clients give a board's times (to the second, two times the
    # board ranks apart read the same)
    assert "<td class=n>3:25.3</td>" in html
    assert "1:01" not in html and "<td>30/52</td><td class=n>—</td>" in html, html
    # the numbers' columns headed over them, on the right
    assert "<th class=n>time</th><th class=n>moves</th>" in html and "th.n" in STYLE


def test_a_board_page_links_a_replay_only_once_it_is_public() -> None:
    """A name leads to its player's page; a result to its game's replay where anyone may
    see it: a daily game's from the day after its day (the page linked today's names to
    replays that answered 403 until the reset). The all-time board holds both."""
    from server.app.domain.boards import parse_board
    from server.app.transport.pages import board_html

    board = parse_board("best/gate", "2026-11-22", "2026-W47")
    entries = [
        {"rank": 1, "player": "ann b", "won": True, "time_ms": 9_000, "moves": 90,
         "replay": "aaaaaaaaaaaaaaaa", "day": "2026-11-22"},
        {"rank": 2, "player": "bob", "won": True, "time_ms": 10_000, "moves": 91,
         "replay": "bbbbbbbbbbbbbbbb", "day": "2026-11-21"},
    ]  # fmt: skip
    html = board_html({"entries": entries, "size": 2}, board, "2026-11-22")
    assert '<a href="/play#player=ann%20b">ann b</a>' in html, html
    assert '<a href="/play#player=bob">bob</a>' in html, html
    assert "/replay/aaaaaaaaaaaaaaaa" not in html, html
    assert '<td><a href="/replay/bbbbbbbbbbbbbbbb">won</a></td>' in html, html


async def test_metrics_in_the_prometheus_format(server: Running) -> None:
    ann = await player(server.url, "ann")
    reply = await ann.call("new_game", game="nestor", seed=5)
    await ann.call("move", move=reply["legal"][0])
    await ann.request("move", move="nonsense")
    await ann.call("room_create", game="gate")
    status, kind, body = await fetch(f"{http(server)}/metrics")
    assert status == 200 and kind.startswith("text/plain; version=0.0.4")
    values = dict(
        line.rsplit(" ", 1) for line in body.splitlines() if line and not line.startswith("#")
    )
    assert values["patience_connections"] == "1"
    assert values['patience_rooms{state="lobby"}'] == "1"
    assert values["patience_moves_total"] == "1"
    assert values["patience_errors_total"] == "1"
    assert values['patience_move_seconds_bucket{le="+Inf"}'] == "1"
    assert values["patience_redis_errors_total"] == "0"
    assert values["patience_fenced_total"] == "0"
    assert values["patience_room_conflicts_total"] == "0"
    assert int(values["patience_bus_published_total"]) >= 0


def test_a_replay_page_says_its_hints_and_its_entries_in_words() -> None:
    """A replay's page counts the hints its player asked for, and its log's entries that
    are no move ("!hint", "!resign") are said in words (they were shown raw)."""
    from server.app.transport.pages import replay_html

    replay = {
        "id": "92629d6edd830077", "game": "gate", "rules_version": 2, "seed": 3,
        "player": "ann", "kind": "solo", "start_ms": 1000,
        "moves": [[1500, "b4>t3"], [2000, "!hint"], [2600, "!undo"], [3000, "!resign"]],
        "result": {"status": "resigned", "time_ms": 2000, "moves": 1, "home": 1,
                   "total": 52, "hints": 2},
    }  # fmt: skip
    page = replay_html(replay)
    assert " · 1 move · 1/52 home · 2 hints · " in page, page
    cells = [c.split("</td>")[0] for c in page.split("<td>")[1:]]
    assert cells == ["b4&gt;t3", "hint", "undo (takes back 1)", "resign"], cells


def test_the_pages_know_the_terminals_default_server() -> None:
    """A page's terminal command leaves out ``--server`` only for the server the terminal
    asks when given none, which the browser's link box knows too (``devices.js``)."""
    from client_cli.config import DEFAULT_SERVER
    from server.app.transport.pages import TERMINAL_DEFAULT

    assert TERMINAL_DEFAULT == DEFAULT_SERVER
    devices = (Path(__file__).parents[2] / "client_web" / "app" / "devices.js").read_text()
    assert f'const TERMINAL_DEFAULT = "{DEFAULT_SERVER}";' in devices
