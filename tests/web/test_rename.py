"""A name taken on the name form, said until the name is typed again; a change of name from
the browser's home screen: a refusal said under the form in the
server's words with nothing changed, a change shown at once in the header and the
greeting, and kept (the page reloaded signs in under the new name)."""

from __future__ import annotations

from typing import Any

from tests.app.client import signed_in
from tests.app.conftest import ServerProcess

from .conftest import http, shot
from .test_keyboard import run
from .test_race import register


def test_a_change_of_name_on_the_home_screen(browser: Any, web_server: ServerProcess) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    other = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        lee = other.new_page()
        lee.goto(f"{http(web_server)}/play")
        register(lee, "lee")
        lee.wait_for_selector(".home h1:has-text('Hello, lee')")

        page = context.new_page()
        page.goto(f"{http(web_server)}/play")
        # the name form: a taken name is refused in the server's words, which go as the
        # name is typed again (they stayed, beside the browser's own words on a name too
        # short, as if that one were taken too)
        register(page, "LEE")
        page.wait_for_selector(".welcome .note:has-text(\"the name 'LEE' is taken\")")
        # and, as the terminal says, what to do if it is one's own (on a new device)
        assert "If it is yours: 'Have a link code?' below" in page.inner_text(".welcome .note")
        page.fill("input[name=name]", "k")
        assert page.inner_text(".welcome .note") == ""
        # a name too long, pasted, is said too long; it was cut to its first twenty letters
        # without a word
        page.fill("input[name=name]", "kay" * 8)
        assert page.input_value("input[name=name]") == "kay" * 8
        assert page.inner_text(".welcome .note") == (
            "A name has at most 20 characters: this one has 24."
        )
        # a space after the name (a phone's keyboard puts one after a word it completes)
        # is no part of it: the browser had refused "kay " as not matching the format
        register(page, "kay ")
        page.wait_for_selector(".home h1:has-text('Hello, kay')")
        page.click("summary:has-text('Change your name')")
        assert page.input_value("input[name=new-name]") == "kay"
        page.fill("input[name=new-name]", "Kayla" * 5)
        assert page.inner_text("details.rename .note") == (
            "A name has at most 20 characters: this one has 25."
        )
        page.fill("input[name=new-name]", "LEE")
        page.click("[data-act=rename]")
        page.wait_for_selector("details.rename .note:has-text(\"the name 'LEE' is taken\")")
        assert page.inner_text("#who") == "kay"
        page.fill("input[name=new-name]", "Kayla")
        page.click("[data-act=rename]")
        page.wait_for_selector("details.rename .note:has-text('You race as Kayla now (was kay).')")
        assert page.inner_text("#who") == "Kayla"
        assert page.inner_text(".home h1") == "Hello, Kayla"
        shot(page, "renamed")
        page.fill("input[name=new-name]", "Kaylee")
        page.click("[data-act=rename]")
        page.wait_for_selector("details.rename .note:has-text('once in 30 days')")
        page.reload()
        page.wait_for_selector(".home h1:has-text('Hello, Kayla')")
        assert page.inner_text("#who") == "Kayla"
    finally:
        context.close()
        other.close()


def test_a_change_of_name_from_another_device_shows_at_once(
    browser: Any, web_server: ServerProcess
) -> None:
    """A name changed beside the tab (a terminal's ``patience-race name``, whose one-shot
    connection signs in beside it) is shown at once in the header and the greeting, and
    said: the tab went on showing the old name until it was loaded again."""
    context = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        page = context.new_page()
        page.goto(f"{http(web_server)}/play")
        register(page, "mel")
        page.wait_for_selector(".home h1:has-text('Hello, mel')")
        token = page.evaluate("localStorage.getItem('patience-race-token')")

        async def elsewhere() -> None:
            side = await signed_in(web_server.url, token, side=True)
            await side.call("rename", name="Melody")
            await side.close()

        run(elsewhere())
        page.wait_for_selector(".home h1:text-is('Hello, Melody')")
        assert page.inner_text("#who") == "Melody"
        page.get_by_text("You race as Melody now (was mel): changed on another device.").wait_for()
    finally:
        context.close()
