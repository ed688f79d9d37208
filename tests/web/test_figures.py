"""The figures of docs/web.md, measured in Chromium (printed and written beside the
screenshots as figures.txt; nothing here asserts a time): the bytes a first visit
transfers, the time until the first screen can be used, and the websocket frames one
move exchanges, solo and in a race."""

from __future__ import annotations

from typing import Any

from tests.app.conftest import ServerProcess

from .conftest import SHOTS, http
from .test_race import register


def frames(page: Any) -> tuple[int, int]:
    sent, received = page.evaluate(
        "[window.patienceRace.link.frames.sent, window.patienceRace.link.frames.received]"
    )
    return int(sent), int(received)


def one_move(page: Any, scope: str) -> tuple[int, int]:
    """The frames sent and received for one move typed in the notation box (counted a
    second after its reply, so that the events it causes are in)."""
    before = frames(page)
    move = page.eval_on_selector_all("#legal-moves option", "os => os.map(o => o.value)")[0]
    page.fill("#notation", move)
    page.press("#notation", "Enter")
    page.wait_for_selector(f"{scope} .moves:text-is('1 move')")
    page.wait_for_timeout(1000)
    after = frames(page)
    return after[0] - before[0], after[1] - before[1]


def test_figures(browser: Any, web_server: ServerProcess) -> None:
    context = browser.new_context()
    try:
        page = context.new_page()
        sizes: list[tuple[str, int]] = []

        def finished(request: Any) -> None:
            got = request.sizes()
            sizes.append((request.url, got["responseBodySize"] + got["responseHeadersSize"]))

        page.on("requestfinished", finished)
        page.goto(f"{http(web_server)}/play")
        page.wait_for_selector("input[name=name]")
        interactive = page.evaluate("performance.getEntriesByName('interactive')[0].startTime")
        page.wait_for_load_state("networkidle")
        weight = sum(size for _, size in sizes)
        assert len(sizes) > 5 and weight > 0

        register(page, "fig")
        page.click('.game-row[data-game="nestor"] [data-act=solo]')
        page.wait_for_selector(".game .pile")
        solo = one_move(page, ".game")
        page.goto(f"{http(web_server)}/play#home")
        asked: list[str] = []  # (none is expected: a question dismissed unseen left no lobby)

        def answer(dialog: Any) -> None:
            asked.append(dialog.message)
            dialog.accept()

        page.on("dialog", answer)
        page.click('.game-row[data-game="nestor"] [data-act=race]')
        page.wait_for_selector("[data-act=start]", timeout=60_000)
        assert asked == [], asked
        page.click("[data-act=start]")  # a race of one
        page.wait_for_selector(".race-game .pile", timeout=10000)
        race = one_move(page, ".race-game")
    finally:
        context.close()
    lines = [
        f"first load of /play: {len(sizes)} requests, {weight / 1024:.1f} KiB transferred",
        *(f"  {size / 1024:6.1f} KiB  {url.split('/', 3)[3]}" for url, size in sizes),
        f"time to interactive (the name form shown): {interactive:.0f} ms",
        f"frames for one solo move: {solo[0]} sent, {solo[1]} received",
        f"frames for one race move (a race of one): {race[0]} sent, {race[1]} received",
    ]
    SHOTS.mkdir(parents=True, exist_ok=True)
    (SHOTS / "figures.txt").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
