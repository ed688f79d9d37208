"""An outside tester's faults, keyboard-only with a screen reader's view, on the screens
around a game (each seen failing first): the daily challenge's screen gives its heading
the focus, its ranked attempt's Start puts it on the first pile a move starts from and
says the clock runs, and its result is said after the game's end (the focus had dropped
to ``<body>`` three times, and nothing was said); a replay's heading takes the focus as it
opens, each step is said in card words, and its slider says the step in words; a race's
countdown ends in "Go!" (it went empty), a rematch is said as one (a guest heard a bare
"5"), the focus goes to the board at Go! (it stayed on ``<body>``), and the last race's
result is cleared from the room's live region as the next one starts; and ``s`` says a
race's standings, which nothing read out."""

from __future__ import annotations

from typing import Any

from tests.app.conftest import ServerProcess

from .conftest import http
from .test_keyboard import game_page
from .test_play import until
from .test_race import register

DAILY_LIVE = ".daily > .spoken.live"


def active(page: Any) -> str:
    """The focused element: its tag and classes, a pile's label, a heading's words."""
    where: str = page.evaluate(
        "(() => { const a = document.activeElement;"
        " if (!a || a === document.body) return 'body';"
        " if (a.dataset.pile) return `pile ${a.dataset.pile}`;"
        " if (/^H[1-6]$/.test(a.tagName)) return `${a.tagName.toLowerCase()} ${a.textContent}`;"
        " return a.tagName.toLowerCase() + (a.id ? `#${a.id}` : ''); })()"
    )
    return where


def text_of(page: Any, selector: str) -> str:
    text: str = page.evaluate(f"document.querySelector({selector!r}).textContent")
    return text.rstrip("\u00a0")


def test_the_daily_screen_its_start_and_its_result_take_the_focus_and_are_said(
    browser: Any, web_server: ServerProcess
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(f"{http(web_server)}/play")
        register(page, "dkey")
        daily = page.locator('.game-row[data-game="gate"] [data-act=daily]')
        daily.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector("[data-act=start-daily]")
        # the new screen's heading has the focus (it had dropped to <body>)
        until(page, "() => /^H1$/.test(document.activeElement.tagName)")
        assert active(page).startswith("h1 The Gate: daily challenge, "), active(page)
        # Start: the focus on the first pile a move starts from, the clock said to run
        page.locator("[data-act=start-daily]").focus()
        page.keyboard.press("Enter")
        page.wait_for_selector(".game .pile")
        until(page, "() => document.activeElement.classList.contains('playable')")
        assert text_of(page, DAILY_LIVE) == (
            "The Gate: ranked attempt started. Its clock is running."
        )
        # its end: said by the game's live region, the result's heading after it (not its
        # line to paste: test_access_faults.py), the focus on the game's name
        page.locator("[data-act=resign]").focus()
        page.keyboard.press("Enter")
        page.wait_for_selector(".result-heading")
        heading = page.inner_text(".result-heading")
        page.wait_for_selector(".daily .game-head.over")
        until(page, "() => document.activeElement.matches('.game-head strong')")
        assert text_of(page, ".daily .game .spoken.live").endswith(f". {heading}.")
        assert text_of(page, DAILY_LIVE) == (
            "The Gate: ranked attempt started. Its clock is running."
        )
    finally:
        context.close()


def test_a_replay_takes_the_focus_and_says_each_step_in_card_words(
    browser: Any, web_server: ServerProcess
) -> None:
    context, page = game_page(browser, web_server, "gate", 1, name="rkey")
    try:
        page.fill("#notation", "t1>t3")
        page.press("#notation", "Enter")
        page.wait_for_selector(".game .moves:text-is('1 move')")
        played = text_of(page, ".game .spoken.live")  # as the game said the move
        assert played.endswith(" from t1 to t3"), played
        page.locator("[data-act=resign]").focus()
        page.keyboard.press("Enter")
        link = page.wait_for_selector("a[data-replay=you]")
        # the game over's board is a list of its piles, each said apart (they had run on
        # as one paragraph, no longer buttons)
        board = page.get_by_role("list", name="the board")
        piles = page.locator(".game .board .pile").count()
        assert piles > 10 and board.get_by_role("listitem").count() == piles
        assert (
            board.get_by_role("listitem")
            .first.inner_text()
            .startswith(page.locator(".game .board .pile .spoken").first.inner_text())
        )
        assert link is not None
        link.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector(".replay input[type=range]")
        # its heading has the focus (it had dropped to <body>)
        until(page, "() => document.activeElement.matches('.replay h1')")
        steps = int(page.get_attribute(".replay input[type=range]", "max") or "0")
        assert steps >= 1
        slider = page.locator(".replay input[type=range]")
        # (said once the replay's first step is drawn: read at once, it failed on a loaded
        # machine, None)
        until(page, "() => document.querySelector('.replay input[type=range]')"
              ".hasAttribute('aria-valuetext')")  # fmt: skip
        assert slider.get_attribute("aria-valuetext") == f"step 0 of {steps}: the deal"
        # a step on: said in the words the game said it in, and the slider says it too
        page.keyboard.press("ArrowRight")
        first = f"step 1 of {steps}: {played}"
        until(
            page,
            "t => document.querySelector('.replay > .spoken.live').textContent"
            ".replace(/\\u00a0$/, '') === t",
            first,
        )
        assert slider.get_attribute("aria-valuetext") == first
        page.keyboard.press("Home")
        until(
            page,
            "t => document.querySelector('.replay > .spoken.live').textContent"
            ".replace(/\\u00a0$/, '') === t",
            f"step 0 of {steps}: the deal",
        )
        # the slider itself, from the keyboard
        slider.focus()
        page.keyboard.press("ArrowRight")
        until(
            page,
            "t => document.querySelector('.replay > .spoken.live').textContent"
            ".replace(/\\u00a0$/, '') === t",
            first,
        )
    finally:
        context.close()


#: what a room's countdown and live region said, in turn (each change of their words)
RECORDER = """(() => {
  window.__said = [];
  new MutationObserver(() => {
    for (const [sel, key] of [[".countdown", "count"], [".room > .spoken.live", "live"]]) {
      const node = document.querySelector(sel);
      if (!node) continue;
      const last = window.__said.filter((x) => x[0] === key).pop();
      if (!last || last[1] !== node.textContent) window.__said.push([key, node.textContent]);
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
})()"""


def said_in(page: Any, key: str) -> list[str]:
    said: list[list[str]] = page.evaluate("window.__said")
    return [text for k, text in said if k == key]


def test_a_race_says_go_and_a_rematch_and_the_board_takes_the_focus(
    browser: Any, web_server: ServerProcess
) -> None:
    base = http(web_server)
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(2)]
    try:
        ann, bob = (context.new_page() for context in contexts)
        for page in (ann, bob):
            page.add_init_script(RECORDER)
            page.on("dialog", lambda dialog: dialog.accept())
        ann.goto(f"{base}/play")
        register(ann, "annk")
        ann.click('.game-row[data-game="nestor"] [data-act=race]')
        share = ann.wait_for_selector("input.share")
        assert share is not None
        bob.goto(share.input_value())
        register(bob, "bobk")
        ann.wait_for_selector('.players li[data-player="bobk"]')
        bob.locator("[data-act=ready]").focus()
        bob.keyboard.press("Enter")
        ann.wait_for_selector('.players li[data-player="bobk"] .tag.ready')
        ann.locator("[data-act=start]").focus()
        ann.keyboard.press("Enter")
        ann.wait_for_selector(".countdown.on")
        # through the countdown the room's heading holds the focus (it fell to <body>)
        assert active(ann).startswith("h1 Race "), active(ann)
        for page in (ann, bob):
            page.wait_for_selector(".race-game .pile", timeout=10000)
            # at Go! the board has it, and "Go!" is said (the countdown went silent)
            until(page, "() => document.activeElement.matches('.race-game .pile.playable')")
            assert said_in(page, "live")[-1] == "Go!", said_in(page, "live")
        # s says the racers' standings (nothing said them: the bars are drawn, not read)
        ann.keyboard.press("s")
        until(
            ann,
            "() => document.querySelector('.race-game .spoken.live').textContent"
            ".startsWith('Standings: ')",
        )
        standings = text_of(ann, ".race-game .spoken.live")
        assert "you (annk), 0 of 26 pairs off, 0 moves" in standings, standings
        assert "bobk, 0 of 26 pairs off, 0 moves" in standings, standings
        for page in (ann, bob):
            page.locator("[data-act=resign]").focus()
            page.keyboard.press("Enter")
        for page in (ann, bob):
            page.wait_for_selector(".results table")
            until(
                page,
                "() => document.querySelector('.room > .spoken.live')"
                ".textContent.startsWith('Race over')",
            )
        ann.locator("[data-act=rematch]").focus()
        ann.keyboard.press("Enter")
        # the guest hears the rematch named before its countdown's number (a bare "1")
        bob.wait_for_selector(".race-game .pile", timeout=10000)
        until(bob, "() => document.activeElement.matches('.race-game .pile.playable')")
        counted = said_in(bob, "count")
        assert "Rematch: the next race starts in 1" in counted, counted
        # the last race's result is no longer in the live region: the new race's Go! is
        live = said_in(bob, "live")
        assert live[-1] == "Go!", live
        assert live[-2] == "", live  # (cleared as the rematch was called)
    finally:
        for context in contexts:
            context.close()
