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


# moves sent from the move box in one go, and what the screen shows at once after them
SENT_AT_ONCE = """(moves) => {
  const input = document.querySelector('#notation');
  for (const move of moves) {
    input.value = move;
    input.form.requestSubmit();
  }
  const queued = document.querySelector('.game .queued');
  return queued ? queued.textContent : null;
}"""


def test_moves_waiting_for_the_one_on_its_way_are_counted_on_the_screen(
    browser: Any, web_server: ServerProcess
) -> None:
    """Three moves sent at once: one on its way, two waiting, and the screen says so (a
    fast typist saw nothing of the moves queued, then all of them at once)."""
    context, page = game_page(browser, web_server, "gate", 1, name="queue")
    try:
        shown = page.evaluate(SENT_AT_ONCE, ["deal", "deal", "deal"])
        assert shown == "2 moves waiting to be sent"
        until(page, "() => window.patienceRace.screen.view.moves === 3")
        assert page.query_selector(".game .queued") is None
    finally:
        context.close()


def test_moves_a_dropped_link_did_not_send_are_counted(
    browser: Any, web_server: ServerProcess
) -> None:
    """Moves made with the link down are refused one by one ("not connected"): the note
    says how many were not sent, and still does once the link is back (it had said "not
    connected" alone, then nothing: a player could not tell which of their moves went)."""
    context, page = game_page(browser, web_server, "gate", 1, name="dropped")
    try:
        page.wait_for_selector("body[data-link=up]")
        context.set_offline(True)
        page.wait_for_selector("body:not([data-link=up])")
        page.evaluate(SENT_AT_ONCE, ["deal", "deal", "deal"])
        page.wait_for_selector(".game .note:has-text('3 moves not sent')")
        context.set_offline(False)
        page.wait_for_selector("body[data-link=up]", timeout=30000)
        page.wait_for_selector(".game .note:has-text('3 moves made while the link was down')")
        assert page.evaluate("window.patienceRace.screen.view.moves") == 0
    finally:
        context.close()
