"""The web tests run in Debian's Chromium headless shell (conftest.py); here the full
browser, Debian's ``chromium``, lays out the same solo game as the shell does, at a
phone's size and a desktop's: every pile, the board and the controls in the same place
to the pixel, the page no wider and no taller. So what the shell's tests find of the
layout is what a person's Chromium shows."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.app.client import player
from tests.app.conftest import ServerProcess

from .conftest import ARGS, FULL, SHELL, http, missing, signed_in
from .test_layout import SETTLED, resize, run

SIZES = [(360, 740), (1280, 800)]

# In the page: where each box is, by a name that is the same in both browsers.
BOXES = """() => {
  const at = {};
  const named = [
    ["board", ".game .board"], ["undo", ".game [data-act=undo]"],
    ["resign", ".game [data-act=resign]"], ["move box", "#notation"],
  ];
  for (const [name, selector] of named) {
    const node = document.querySelector(selector);
    at[name] = node ? node.getBoundingClientRect().toJSON() : null;
  }
  for (const pile of document.querySelectorAll(".game .pile")) {
    at[`pile ${pile.dataset.pile}`] = pile.getBoundingClientRect().toJSON();
  }
  const root = document.documentElement;
  at.page = { width: root.scrollWidth, height: root.scrollHeight };
  return at;
}"""


@pytest.fixture(scope="module")
def full_browser(browser: Any) -> Iterator[Any]:
    """Debian's full Chromium beside the shell the other tests drive."""
    if FULL is None or SHELL is None:
        missing("both chromium and chromium-headless-shell are needed (apt-get install both)")
    full = browser.browser_type.launch(executable_path=FULL, args=ARGS)
    yield full
    full.close()


async def blockade(url: str) -> str:
    """A player with a solo game of The Blockade, five rows dealt: its token."""
    client = await player(url, "fullb")
    await client.call("new_game", game="blockade", seed=7)
    for _ in range(4):  # rows of twelve: a board of fifty-odd piles
        await client.call("move", move="deal")
    token = client.token
    await client.close()
    assert token is not None
    return token


def layout(chromium: Any, base: str, token: str) -> dict[tuple[int, int], dict[str, Any]]:
    context = chromium.new_context()
    try:
        page = context.new_page()
        resize(page, SIZES[0])
        signed_in(page, base, token, "/play")
        page.wait_for_selector(".game .pile")
        seen = {}
        for size in SIZES:
            resize(page, size)
            page.evaluate(SETTLED)  # the board redrawn for the window
            seen[size] = page.evaluate(BOXES)
        return seen
    finally:
        context.close()


def test_the_full_browser_lays_out_a_game_as_the_shell_does(
    browser: Any, full_browser: Any, web_server: ServerProcess
) -> None:
    token = run(blockade(web_server.url))
    base = http(web_server)
    shell = layout(browser, base, token)
    full = layout(full_browser, base, token)
    for size in SIZES:
        assert set(full[size]) == set(shell[size]), size
        assert sum(name.startswith("pile ") for name in shell[size]) > 50, size
        moved = [
            f"{name}: {shell[size][name]} in the shell, {full[size][name]} in the browser"
            for name in shell[size]
            if shell[size][name] is None
            or full[size][name] is None
            or any(abs(shell[size][name][k] - full[size][name][k]) > 1 for k in shell[size][name])
        ]
        assert not moved, f"at {size}:\n" + "\n".join(moved)
