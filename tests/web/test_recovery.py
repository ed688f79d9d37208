"""One player on another device: the recovery key (the token this browser signs in with)
is shown only when asked for, behind a warning, and another browser signs in with it as
the same player; a key of the wrong shape is refused on the spot, and one that signs in no
one says so after the reload, leaving the name form."""

from __future__ import annotations

from typing import Any

from tests.app.conftest import ServerProcess

from .conftest import http, shot
from .test_race import register


def test_a_recovery_key_signs_in_another_browser_as_the_same_player(
    browser: Any, web_server: ServerProcess
) -> None:
    desk = browser.new_context(viewport={"width": 1280, "height": 800})
    phone = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        page = desk.new_page()
        page.goto(f"{http(web_server)}/play")
        register(page, "kay")
        page.wait_for_selector(".home h1:has-text('Hello, kay')")
        assert page.locator("[data-key]").count() == 0  # never shown unasked
        page.click("summary:has-text('Play as yourself on another device')")
        assert "Anyone who has it can play as you" in page.inner_text("details.recovery")
        page.click("[data-act=show-key]")
        key = page.get_attribute("[data-key]", "data-key")
        assert key and len(key) >= 20
        assert key == page.evaluate("localStorage.getItem('patience-race-token')")

        other = phone.new_page()
        other.goto(f"{http(web_server)}/play")
        other.wait_for_selector("input[name=name]")
        other.click("summary:has-text('Have a recovery key?')")
        other.fill("input[name=key]", "not a key!")
        other.click("text=Sign in with it")
        other.wait_for_selector("details.recovery .note:has-text('paste it whole')")
        other.fill("input[name=key]", "x" * 32)  # a key's shape, nobody's key
        other.click("text=Sign in with it")
        other.wait_for_selector("details.recovery .note:has-text('signs in no one')")
        # said once, in the recovery form's words (the name form also said the server's
        # "no player has this token")
        assert other.inner_text(".welcome > .note") == ""
        assert other.locator("input[name=name]").count() == 1
        other.fill("input[name=key]", key)
        other.click("text=Sign in with it")
        other.wait_for_selector(".home h1:has-text('Hello, kay')")
        assert other.inner_text("#who") == "kay"
        shot(other, "phone-recovered")
    finally:
        desk.close()
        phone.close()
