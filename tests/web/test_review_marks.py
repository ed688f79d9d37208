"""Faults an outside tester found in a finished game's review in the browser: a game of
The Narrow Gate lost by a ``deal`` said "deal ringed in orange" over a board where no
pile was ringed (the piles were looked up by the move's words, and ``deal`` names
none); and a game resigned still winnable, on its replay page, offered "Show the board
before move 13" for a game of 12 moves, where the board shown is the one it was
resigned in, after its 12th move (as the terminal's review names it)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from server.engine import new_game
from tests.app.client import player
from tests.app.conftest import ServerProcess

from .conftest import http, shot, signed_in
from .test_challenge import PHONE
from .test_play import until

T = TypeVar("T")

#: The Narrow Gate on seed 2 played by random legal moves (``random.Random(2)``) to its
#: loss (48 moves); the review finds it lost at move 39, a ``deal`` that turned the stock
#: onto the waste heap (found with the server's review, ``server.solver.review``)
LOST = ("gate-narrow", 2, 2)
LOST_AT = 39
#: The Gate on seed 0, twelve random legal moves (``random.Random(0)``), then resigned:
#: still winnable there
RESIGNED = ("gate", 0, 0)
RESIGNED_AFTER = 12


def protocol(coroutine: Coroutine[Any, Any, T]) -> T:
    """Protocol work from a thread of its own (Playwright's loop holds this one)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result(60)


def random_line(game_id: str, seed: int, rseed: int, most: int = 1000) -> list[str]:
    """Random legal moves (drawn by ``random.Random(rseed)``) from the deal, until the
    game ends or ``most`` are played."""
    rng = random.Random(rseed)
    game = new_game(game_id, seed=seed)
    line: list[str] = []
    while game.status == "playing" and len(line) < most:
        move = str(rng.choice(game.legal_moves()))
        game.play(move)
        line.append(move)
    return line


def moved(game_id: str, seed: int, line: list[str], move: str) -> set[str]:
    """The piles whose cards ``move`` changed, played after ``line`` (by the engine)."""
    game = new_game(game_id, seed=seed)
    for earlier in line:
        game.play(earlier)
    before = {p["label"]: (p["cards"], p["down"]) for p in game.view()["piles"]}
    game.play(move)
    after = {p["label"]: (p["cards"], p["down"]) for p in game.view()["piles"]}
    return {label for label in before if before[label] != after.get(label)}


async def played(url: str, name: str, game_id: str, seed: int, line: list[str]) -> dict[str, Any]:
    """``name`` plays ``line`` in a solo game of ``game_id`` dealt from ``seed`` (and
    resigns it if it is still on): the player's token and the game's id."""
    client = await player(url, name)
    try:
        game = await client.call("new_game", game=game_id, seed=seed)
        status = "playing"
        for move in line:
            status = (await client.call("move", move=move)).get("status", status)
        if status == "playing":
            await client.call("resign")
        return {"token": client.token, "game": game["game"]}
    finally:
        await client.close()


def marked(page: Any, name: str) -> set[str]:
    """The labels of the review board's piles of class ``name``."""
    labels: list[str] = page.evaluate(
        "c => [...document.querySelectorAll(`.review-board .pile.${c}`)].map(p => p.dataset.label)",
        name,
    )
    return set(labels)


def test_a_deal_that_lost_the_game_is_ringed(browser: Any, web_server: ServerProcess) -> None:
    game_id, seed, rseed = LOST
    line = random_line(game_id, seed, rseed)
    assert line[LOST_AT - 1] == "deal"
    game = protocol(played(web_server.url, "dealer", game_id, seed, line))
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        signed_in(page, http(web_server), game["token"], f"/play#solo={game_id}")
        page.click("[data-act=review]")
        box = page.locator(".review")
        # (a search of a few seconds in the server's worker: given time on a loaded machine)
        box.locator("text=Where the game was lost").wait_for(timeout=90_000)
        text = box.inner_text()
        assert f"Until move {LOST_AT} " in text and "you played deal there" in text, text
        assert f"The board before move {LOST_AT} (deal ringed in orange, " in text, text
        # the deal turned the stock's top card onto the waste heap: both ringed
        assert moved(game_id, seed, line[: LOST_AT - 1], "deal") == {"s", "w"}
        assert marked(page, "played") == {"s", "w"}
        # and the piles of the move that kept the win (w>t2: both named)
        better = text.split("Playing ", 1)[1].split(" there", 1)[0]
        assert marked(page, "hinted") == set(better.split(">")), better
        shot(page, "review-deal-ringed")
    finally:
        context.close()


def test_a_resigned_game_names_the_board_it_was_resigned_in(
    browser: Any, web_server: ServerProcess
) -> None:
    game_id, seed, rseed = RESIGNED
    line = random_line(game_id, seed, rseed, RESIGNED_AFTER)
    game = protocol(played(web_server.url, "quitter", game_id, seed, line))
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        signed_in(page, http(web_server), game["token"], f"/play#replay={game['game']}")
        page.click("[data-act=review]")
        box = page.locator(".review")
        box.locator(f"text=could still win (after {RESIGNED_AFTER} moves)").wait_for(timeout=90_000)
        step = box.locator("[data-act=review-step]")
        assert step.inner_text() == (
            f"Show the board where the game was resigned, after move {RESIGNED_AFTER}"
        ), step.inner_text()
        assert f"move {RESIGNED_AFTER + 1}" not in box.inner_text()
        # the replay moved to its end: the board it was resigned in
        until(page, "() => window.patienceRace.screen.step === window.patienceRace.screen.steps")
        shot(page, "review-resigned-replay")
    finally:
        context.close()
