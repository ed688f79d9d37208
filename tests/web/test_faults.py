"""The browser's own small faults, each found trying the client as a new player would:
a leaderboard address that threw as it opened, the results table's unnamed replay
column, the lobby calling its host "not ready", and the replay's first/last buttons
drawn as empty boxes."""

from __future__ import annotations

from typing import Any

from tests.app.conftest import ServerProcess

from .conftest import http


def test_every_leaderboard_address_opens_without_an_error(
    browser: Any, web_server: ServerProcess
) -> None:
    context = browser.new_context()
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        for board in ("races/week", "races/all", "daily/gate", "best/wedge", "wins/nestor"):
            page.goto(f"{http(web_server)}/play#board={board}")
            page.wait_for_selector(".boards table")  # drawn after the screen is shown
        assert errors == []
    finally:
        context.close()
