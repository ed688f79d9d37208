"""An outside tester's faults, playing keyboard-only with a screen reader's view in mind,
each seen failing first: a move played (by Enter on its piles, the move box, ``d``, a
pair), an undo, a hint and the cards sent home are said in the game's live region in
card words (a move had cleared it); the focus goes to the new game's first pile a move
starts from after **Play** and **New deal**, to the greeting after the name form, and to
the game's heading when a move ends it (all had dropped to ``<body>``); a pile's
description says it can move, or, once another is picked, that it takes that one's cards;
and in The Narrow Gate Undo disabled hands the focus to the next button, not the one
before it (``deal``)."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from server.engine import card_name, new_game, parse_card
from tests.app.conftest import ServerProcess

from .conftest import http
from .test_keyboard import focused, game_page
from .test_motion import LOST_DEAL, LOST_LINE
from .test_play import until

LIVE = ".game .spoken.live"


def said(page: Any) -> str:
    """What the game's live region says now (a space no one hears at its end aside)."""
    text: str = page.evaluate(f"document.querySelector({LIVE!r}).textContent")
    return text.rstrip("\u00a0")


def top(seed_view: dict[str, Any], label: str) -> str:
    """The top card of pile ``label`` in words, as the board names it."""
    pile = next(p for p in seed_view["piles"] if p["label"] == label)
    return str(card_name(parse_card(pile["cards"][-1])))


def moves_shown(page: Any, n: int) -> None:
    page.wait_for_selector(f".game .moves:text-is('{n} move{'' if n == 1 else 's'}')")


def test_moves_undo_a_deal_a_hint_and_home_are_said_in_card_words(
    browser: Any, web_server: ServerProcess
) -> None:
    start = new_game("gate", seed=1).view()  # t1 goes onto t3; r onto t1
    context, page = game_page(browser, web_server, "gate", 1, name="spgate1")
    try:
        # a pile a move starts from says so; picked, where it can go says whose cards
        t1, t3 = page.locator('.pile[data-pile="t1"]'), page.locator('.pile[data-pile="t3"]')
        expect(t1).to_have_accessible_description("can move")
        t1.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector('.pile.target[data-pile="t3"]')
        expect(t3).to_have_accessible_description("can take from t1")
        t3.focus()
        page.keyboard.press("Enter")
        moves_shown(page, 1)
        assert said(page) == f"{top(start, 't1')} from t1 to t3"
        page.keyboard.press("u")
        moves_shown(page, 0)
        assert said(page) == f"undone: {top(start, 't1')} from t1 to t3"
        # a move typed in the box, the box keeping the focus
        page.fill("#notation", "r>t1")
        page.press("#notation", "Enter")
        moves_shown(page, 1)
        assert said(page) == f"{top(start, 'r')} from r to t1"
        assert focused(page) == "#notation"
        # d: the deal, what it turned up and what is left, never a face-down card
        page.locator('.pile[data-pile="t1"]').focus()
        page.keyboard.press("d")
        moves_shown(page, 2)
        assert said(page).startswith("dealt: ") and " left" in said(page), said(page)
        assert " of " in said(page) or " cards to " in said(page), said(page)
        # a hint: the status line keeps its notation, the region says its cards
        page.keyboard.press("i")
        page.wait_for_selector(".game .note:has-text('hint:')")
        hinted = page.evaluate("window.patienceRace.screen.hinted")
        assert f"hint: {hinted}" in page.inner_text(".game .note")
        if ">" in hinted:
            source = hinted.split(">")[0].split(":")[0]
            assert f" from {source} to " in said(page) and hinted not in said(page), said(page)
        # Cards home: the cards by name, not the notation
        page.keyboard.press("o")
        page.wait_for_selector(".game .note:has-text('home')")
        note = page.inner_text(".game .note")
        if note.startswith("home: "):
            assert said(page).startswith("home: ") and ">" not in said(page), said(page)
        else:
            assert said(page) == note
    finally:
        context.close()


def test_a_pair_the_reserve_and_a_move_that_ends_the_game(
    browser: Any, web_server: ServerProcess
) -> None:
    game, seed = LOST_DEAL
    context, page = game_page(browser, web_server, game, seed, name=f"sp{game[:6]}{seed}")
    try:
        engine = new_game(game, seed=seed)
        first = LOST_LINE[0]
        page.fill("#notation", first)
        page.press("#notation", "Enter")
        moves_shown(page, 1)
        rank = top(engine.view(), first.split("+")[0]).split(" ")[0]
        assert said(page) == f"pair of {rank}s off"
        engine.play(first)
        # the reserve, by d: the card it turns up and what is left
        page.locator(".game .pile.playable").first.focus()
        for n, word in enumerate(LOST_LINE[1:-1], start=2):
            assert word == "reserve"
            page.keyboard.press("d")
            moves_shown(page, n)
            engine.play(word)
            left = next(p for p in engine.view()["piles"] if p["kind"] == "reserve")["down"]
            assert said(page).startswith("turned up: ") and said(page).endswith(
                f"reserve {left} left" if left else "reserve empty"
            ), said(page)
        # the last pair, by Enter on its piles: r4 says it pairs with 8, and the game lost
        # by it is said after the pair, the focus on the game's heading
        a, b = LOST_LINE[-1].split("+")
        page.locator(f'.pile[data-pile="{a}"]').focus()
        page.keyboard.press("Enter")
        page.wait_for_selector(f'.pile.target[data-pile="{b}"]')
        expect(page.locator(f'.pile[data-pile="{b}"]')).to_have_accessible_description(
            f"pairs with {a}"
        )
        page.locator(f'.pile[data-pile="{b}"]').focus()
        page.keyboard.press("Enter")
        page.wait_for_selector(".game .status[data-status=lost]")
        assert said(page).startswith(f"pair of {top(engine.view(), a).split(' ')[0]}s off. ")
        assert re.search(r"Game over: lost, \d+/\d+ pairs off, \d+ moves?\.", said(page)), said(
            page
        )
        assert page.evaluate("document.activeElement.getAttribute('role')") == "heading"
        assert page.evaluate("document.activeElement.textContent") == "Nestor"
        # Undo the last move: said
        page.keyboard.press("u")
        page.wait_for_selector(".game .status[data-status=playing]")
        assert said(page).startswith("undone: pair of "), said(page)
    finally:
        context.close()


def test_a_new_game_and_the_name_form_give_the_focus_a_place(
    browser: Any, web_server: ServerProcess
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(f"{http(web_server)}/play")
        # the name form sent: the greeting has the focus
        page.fill("input[name=name]", "spfocus")
        page.press("input[name=name]", "Enter")
        page.wait_for_selector(".game-row")
        until(page, "() => document.activeElement.tagName === 'H1'")
        assert page.evaluate("document.activeElement.textContent") == "Hello, spfocus"
        # Play: the first pile a move starts from
        page.locator('.game-row[data-game="gate"] [data-act=solo]').focus()
        page.keyboard.press("Enter")
        page.wait_for_selector(".game .pile")
        until(page, "() => document.activeElement.classList.contains('playable')")
        first = page.evaluate("window.patienceRace.screen.id")
        # New deal, with a move made (asked, and yes): the new game's first such pile
        page.fill("#notation", page.evaluate("window.patienceRace.screen.legal")[0])
        page.press("#notation", "Enter")
        moves_shown(page, 1)
        page.locator("[data-act=new]").focus()
        page.keyboard.press("Enter")
        until(page, "id => window.patienceRace.screen.id !== id", first)
        moves_shown(page, 0)
        until(page, "() => document.activeElement.classList.contains('playable')")
        # a page loaded into the game in play: there too (it stayed on <body>)
        page.reload()
        page.wait_for_selector(".game .pile")
        until(page, "() => document.activeElement.classList.contains('playable')")
    finally:
        context.close()


def test_undo_disabled_hands_the_focus_to_the_next_button(
    browser: Any, web_server: ServerProcess
) -> None:
    context, page = game_page(browser, web_server, "gate-narrow", 0, name="spgate-n0")
    try:
        page.fill("#notation", "b3>t1")
        page.press("#notation", "Enter")
        moves_shown(page, 1)
        page.locator("[data-act=undo]").focus()
        page.keyboard.press("Enter")
        moves_shown(page, 0)
        assert page.locator("[data-act=undo]").is_disabled()
        # the button after Undo, not deal before it
        assert focused(page) == "act home"
    finally:
        context.close()


def test_a_refused_move_is_said_in_words_not_symbols(
    browser: Any, web_server: ServerProcess
) -> None:
    """The refusal's words drawn with the suits' symbols ("2♣ cannot go on 6♠") were said
    as they were drawn: "2 black club suit", "r greater than t2". The live region says the
    cards' names and the move in words; the note under the board keeps its symbols."""
    context, page = game_page(browser, web_server, "gate", 1, name="spgate2")
    try:
        page.fill("#notation", "t1>t2")
        page.keyboard.press("Enter")
        page.wait_for_selector(".game .note:has-text('cannot')")
        heard = said(page)
        assert "illegal move t1 to t2: " in heard and " of " in heard, heard
        assert not any(symbol in heard for symbol in "♣♦♥♠>'"), heard
        assert any(symbol in page.inner_text(".game .note") for symbol in "♣♦♥♠")
    finally:
        context.close()
