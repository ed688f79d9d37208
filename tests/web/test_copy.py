"""Copy buttons on a page that is no secure context: the server reached over plain http
from another machine (the README's way to race a friend, ``http://192.168.1.5:8765``),
where ``navigator.clipboard`` is undefined.

The page is opened as ``http://lan.test:PORT``: Chromium is launched with
``--host-resolver-rules=MAP lan.test 127.0.0.1``, so the real server is reached by a
name that is not localhost, and ``isSecureContext`` is false, as on a LAN. What was
copied is read back on a page of ``http://127.0.0.1:PORT`` (a secure context) in the
same browser. No Copy button copied there (each called ``navigator.clipboard`` alone), and
on a phone the lobby's said "Press Ctrl+C"; now each copies by selecting its field's text
and ``document.execCommand("copy")`` (share.js's ``copyText``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.app.conftest import ServerProcess

from .conftest import ARGS, CHROMIUM, signed_in
from .test_challenge import PHONE
from .test_elsewhere_race import registered
from .test_phone_faults import protocol

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
#: what a touch screen's copy button says where nothing could copy
SELECTED = "Link selected: copy it from the menu"


@pytest.fixture
def lan_browser(browser: Any) -> Iterator[Any]:
    """Chromium resolving ``lan.test`` to this machine (a second browser, for this file)."""
    lan = browser.browser_type.launch(
        executable_path=CHROMIUM, args=[*ARGS, "--host-resolver-rules=MAP lan.test 127.0.0.1"]
    )
    yield lan
    lan.close()


def lan(proc: ServerProcess) -> str:
    return f"http://lan.test:{proc.port}"


def clipboard(context: Any, proc: ServerProcess) -> str:
    """The clipboard's text, read on a page of the same server that is a secure context."""
    page = context.new_page()
    try:
        page.goto(f"http://127.0.0.1:{proc.port}/livez")
        text: str = page.evaluate("navigator.clipboard.readText()")
        return text
    finally:
        page.close()


def finished_solo(page: Any) -> None:
    """A solo game of The Gate, one move made, resigned: its Challenge a friend box open."""
    page.goto(page.url.split("/play")[0] + "/play#home")
    page.click('.game-row[data-game="gate"] [data-act=solo]')
    page.wait_for_selector(".game .pile")
    moves = page.evaluate("window.patienceRace.screen.legal")
    page.fill("#notation", moves[0])
    page.press("#notation", "Enter")
    page.wait_for_selector(".game .moves:text-is('1 move')")
    page.click("[data-act=resign]")
    page.click("[data-act=challenge]")
    page.wait_for_selector(".challenge-share input.share")


# In the page: how many lines the share line's `text` (its last occurrence) is drawn on
LINES_OF = """(text) => {
  const code = document.querySelector('.share-line code');
  const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
  const at = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode())
    for (let i = 0; i < node.data.length; i++) at.push([node, i]);
  const from = code.textContent.lastIndexOf(text);
  const range = document.createRange();
  range.setStart(...at[from]);
  range.setEnd(at[from + text.length - 1][0], at[from + text.length - 1][1] + 1);
  return new Set([...range.getClientRects()].filter((r) => r.width > 0)
    .map((r) => Math.round(r.top))).size;
}"""


def lines_of(page: Any, text: str) -> int:
    """The lines the share line's ``text`` is drawn on."""
    found: int = page.evaluate(LINES_OF, text)
    return found


def test_every_copy_button_copies_over_plain_http_on_a_phone(
    lan_browser: Any, web_server: ServerProcess
) -> None:
    (ann,) = protocol(registered(web_server.url, "ann"))
    context = lan_browser.new_context(**PHONE)
    context.grant_permissions(
        ["clipboard-read", "clipboard-write"], origin=f"http://127.0.0.1:{web_server.port}"
    )
    try:
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        signed_in(page, lan(web_server), ann, "/play#home")
        page.wait_for_selector(".home .game-row")
        assert page.evaluate("isSecureContext || Boolean(navigator.clipboard)") is False
        # the lobby's Copy link
        page.click('.game-row[data-game="nestor"] [data-act=race]')
        link = page.wait_for_selector(".room input.share").input_value()
        assert link.startswith(lan(web_server) + "/r/"), link
        page.tap(".room .share-row button")
        page.wait_for_selector(".room .share-row button:text-is('Copied')")
        # (a short word beside the field, on its row: only a long one goes under it)
        assert page.evaluate(
            "[...document.querySelectorAll('.room .share-row > *')]"
            ".map((e) => e.getBoundingClientRect().top).every((t, _, all) => t === all[0])"
        )
        assert clipboard(context, web_server) == link
        page.click(".room [data-act=leave]")
        page.wait_for_selector(".home .game-row")
        # the challenge box's two
        finished_solo(page)
        url = page.input_value(".challenge-share input.share")
        page.tap("[data-act=copy-challenge]")
        page.wait_for_selector("[data-act=copy-challenge]:text-is('Copied')")
        assert clipboard(context, web_server) == url
        line = page.inner_text(".share-line code")
        # (a line too long for its box breaks before the challenge's id, not inside it: at
        # 1280x800 "...c/ft4bc4npyoitn6b" ended a line and "n" was the next)
        for wide in range(320, 480, 8):
            page.set_viewport_size({"width": wide, "height": 740})
            assert lines_of(page, url.rsplit("/", 1)[1]) == 1, (wide, line)
        page.set_viewport_size(PHONE["viewport"])
        page.tap("[data-act=copy-share]")
        page.wait_for_selector("[data-act=copy-share]:text-is('Copied')")
        assert clipboard(context, web_server) == line
        # a link code's Copy the code
        page.goto(f"{lan(web_server)}/play#home")
        page.click("summary:has-text('Play as yourself on another device')")
        page.click("[data-act=link-code]")
        code = page.wait_for_selector("[data-code]").get_attribute("data-code")
        page.tap("[data-act=copy-code]")
        page.wait_for_selector("[data-act=copy-code]:text-is('Copied')")
        assert clipboard(context, web_server) == code
    finally:
        context.close()


#: copying refused as well (a browser whose execCommand copies nothing): an init script
#: makes ``document.execCommand`` return false, as such a browser's does
REFUSED = "document.execCommand = () => false;"


def width(page: Any, field: str) -> float:
    """The width of ``field`` on the screen, in CSS pixels."""
    found: float = page.evaluate(
        "(s) => document.querySelector(s).getBoundingClientRect().width", field
    )
    return found


def selected(page: Any, field: str) -> bool:
    """Whether the whole text of the input ``field`` is selected, and focused."""
    done: bool = page.evaluate(
        """(selector) => {
            const input = document.querySelector(selector);
            return document.activeElement === input && input.selectionStart === 0
                && input.selectionEnd === input.value.length;
        }""",
        field,
    )
    return done


def test_where_nothing_copies_the_link_is_selected_with_advice_for_the_device(
    lan_browser: Any, web_server: ServerProcess
) -> None:
    ann, bob = protocol(registered(web_server.url, "ann", "bob"))
    phone = lan_browser.new_context(**PHONE)
    desk = lan_browser.new_context(**DESKTOP)
    try:
        for context in (phone, desk):
            context.add_init_script(REFUSED)
        page, other = phone.new_page(), desk.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        signed_in(page, lan(web_server), ann, "/play#home")
        signed_in(other, lan(web_server), bob, "/play#home")
        # the lobby's Copy link: on a phone no keyboard shortcut, and the field kept wide
        page.click('.game-row[data-game="nestor"] [data-act=race]')
        page.wait_for_selector(".room input.share")
        page.tap(".room .share-row button")
        page.wait_for_selector(f".room .share-row button:text-is('{SELECTED}')")
        assert selected(page, ".room input.share")
        assert width(page, ".room input.share") >= 200
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        other.click('.game-row[data-game="nestor"] [data-act=race]')
        other.wait_for_selector(".room input.share")
        other.click(".room .share-row button")
        other.wait_for_selector(".room .share-row button:text-is('Press Ctrl+C')")
        assert selected(other, ".room input.share")
        # the challenge box's link: selected too, its field as wide
        page.click(".room [data-act=leave]")
        page.wait_for_selector(".home .game-row")
        finished_solo(page)
        page.tap("[data-act=copy-challenge]")
        page.wait_for_selector(f"[data-act=copy-challenge]:text-is('{SELECTED}')")
        assert selected(page, ".challenge-share input.share")
        assert width(page, ".challenge-share input.share") >= 200
        page.tap("[data-act=copy-share]")
        line_selected = SELECTED.replace("Link", "Line")
        page.wait_for_selector(f"[data-act=copy-share]:text-is('{line_selected}')")
        assert page.evaluate("getSelection().toString()") == page.inner_text(".share-line code")
    finally:
        phone.close()
        desk.close()
