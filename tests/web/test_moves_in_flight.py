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
