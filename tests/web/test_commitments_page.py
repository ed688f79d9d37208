"""The daily deals' commitments page (docs/commitments.md) in Chromium on a phone's
width: the 8 days ahead, then, a day later (the server restarted with its clock a day
on), the day before revealed with its seed, salt and the line to check it by hand; no
hash or line wider than the screen."""

from __future__ import annotations

import re
from typing import Any

from server.engine import GAMES
from tests.app.conftest import ServerProcess

from .conftest import http, shot

PHONE = {"width": 360, "height": 740}


def fits(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_commitments_page_reads_on_a_phone(browser: Any, web_server: ServerProcess) -> None:
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(f"{http(web_server)}/daily/commitments")
        assert page.locator("ul.commits li").count() == 8 * len(GAMES)
        assert page.locator("h2").first.inner_text().endswith(": ahead")
        assert "sha256sum" not in page.inner_text("body")  # nothing revealed yet
        fits(page)
        web_server.stop()
        web_server.env["PATIENCE_CLOCK_OFFSET"] = "86400"
        web_server.start()
        page.goto(f"{http(web_server)}/daily/commitments")
        revealed = page.locator("h2", has_text=re.compile(r": revealed$"))
        assert revealed.count() == 1
        assert page.locator("code.hash", has_text="| sha256sum").count() == len(GAMES)
        fits(page)
        shot(page, "commitments")
    finally:
        context.close()
