"""A move made while the one before it is still on its way to the server: played after
it, in order, never dropped. An outside tester typing a winning line at a few moves a
second lost one this way (the move box cleared, nothing sent, no word): every move after
it was refused, and the race was lost on the clock."""

from __future__ import annotations

from typing import Any

from tests.app.conftest import ServerProcess

from .test_keyboard import game_page
from .test_play import until

# two moves sent from the move box in one go: the second while the first is unanswered
TWO_AT_ONCE = """([first, second]) => {
  const input = document.querySelector('#notation');
  for (const move of [first, second]) {
    input.value = move;
    input.form.requestSubmit();
  }
}"""


def test_a_move_sent_while_one_is_on_its_way_is_played_after_it(
    browser: Any, web_server: ServerProcess
) -> None:
    # The Gate's deal 1: `deal` twice, each turning a card of the stock
    context, page = game_page(browser, web_server, "gate", 1, name="quick")
    try:
        assert "deal" in page.evaluate("window.patienceRace.screen.legal")
        page.evaluate(TWO_AT_ONCE, ["deal", "deal"])
        until(page, "() => window.patienceRace.screen.view.moves === 2")
        # then one the first makes legal, sent with it: t1>t3 plays, then r>t1 onto t1
        page.evaluate(TWO_AT_ONCE, ["t1>t3", "r>t1"])
        until(page, "() => window.patienceRace.screen.view.moves === 4")
        assert page.input_value("#notation") == ""
    finally:
        context.close()


def test_a_note_of_the_link_goes_once_the_link_is_back(
    browser: Any, web_server: ServerProcess
) -> None:
    """A move made offline is refused with "not connected: reconnecting"; once the link is
    back and the game as the server has it, the note goes (it stood under the board, the
    link up again, until another action)."""
    context, page = game_page(browser, web_server, "gate", 1, name="train")
    try:
        page.wait_for_selector("body[data-link=up]")
        context.set_offline(True)
        page.wait_for_selector("body:not([data-link=up])")
        page.fill("#notation", "deal")
        page.press("#notation", "Enter")
        page.wait_for_selector(".game .note:has-text('not connected')")
        context.set_offline(False)
        page.wait_for_selector("body[data-link=up]", timeout=30000)
        until(page, "() => !document.querySelector('.game .note').textContent.includes('connect')")
    finally:
        context.close()
