"""A hint's move is ringed on the board on the piles it moves cards from and to. A word
move names no pile: Nestor's ``reserve`` (the reserve's top card turned into the row under
it) rang nothing, and The Gate's ``deal`` (the posts and bars' vacancies filled from the
stock) rang the stock alone, however many piles it filled. (Not a foundation a dealt
card may go to on its own: which card comes is not known before it is turned up.)"""

from __future__ import annotations

from typing import Any

import pytest

from server.engine import new_game
from tests.app.client import player
from tests.app.conftest import ServerProcess

from .conftest import http, shot, signed_in
from .test_review_marks import moved, protocol


def words_only(game_id: str, seed: int) -> list[str]:
    """The first moves that name piles, one after another from the deal, until only word
    moves are legal (a position whose hint must be a word)."""
    game = new_game(game_id, seed=seed)
    line: list[str] = []
    while game.status == "playing":
        legal = [str(m) for m in game.legal_moves()]
        named = [m for m in legal if any(c in m for c in ">:+")]
        if not named:
            assert legal, "the game is stuck"
            return line
        game.play(named[0])
        line.append(named[0])
    raise AssertionError("the game ended first")


async def in_play(url: str, name: str, game_id: str, seed: int, line: list[str]) -> str:
    """``name`` plays ``line`` in a solo game, left in play: the player's token."""
    client = await player(url, name)
    try:
        await client.call("new_game", game=game_id, seed=seed)
        for move in line:
            await client.call("move", move=move)
        assert client.token is not None
        return client.token
    finally:
        await client.close()


@pytest.mark.parametrize(
    ("game_id", "seed", "word"), [("nestor", 0, "reserve"), ("gate", 0, "deal")]
)
def test_a_word_moves_hint_rings_the_piles_it_moves(
    browser: Any, web_server: ServerProcess, game_id: str, seed: int, word: str
) -> None:
    line = words_only(game_id, seed)
    position = new_game(game_id, seed=seed)
    for move in line:
        position.play(move)
    assert [str(m) for m in position.legal_moves()] == [word]
    token = protocol(in_play(web_server.url, f"ring{game_id[:6]}", game_id, seed, line))
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        signed_in(page, http(web_server), token, f"/play#solo={game_id}")
        page.wait_for_selector(f".game .moves:text-is('{len(line)} moves')")
        page.locator("[data-act=hint]").click()
        page.wait_for_selector(f".game .note:has-text('hint: {word}')")
        rung: list[str] = page.evaluate(
            "() => [...document.querySelectorAll('.game .pile.hinted')].map(p => p.dataset.label)"
        )
        kinds = {p["label"]: p["kind"] for p in position.view()["piles"]}
        want = {
            label
            for label in moved(game_id, seed, line, word)
            if not kinds[label].startswith("foundation")
        }
        assert want and set(rung) == want, (rung, want)
        shot(page, f"hint-rings-{game_id}")
    finally:
        context.close()
