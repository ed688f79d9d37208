"""The frame time of a card's slide in the browser client on a phone's viewport (360x740,
touch), in Debian's Chromium through Playwright: a solo game of The Gate is played
through a known winning line (the solver's, seed 0: 89 moves, each card sliding 150 ms to
its pile, the last ones celebrated), while the page notes the time of every animation
frame (``requestAnimationFrame``) and of every slide's start (the moment motion.js marks
a card ``data-sliding``, right after the board is redrawn).

    .venv/bin/python bench/web_motion.py [--runs 2] [--throttle 1 4] [--server-tree DIR ...]

A slide's frames are those from its start to its end (150 ms) and one more: the first of
them spans the frame that lays out and paints the redrawn board, the rest the animation
alone (transform and opacity only: composited, no layout). Reported per run: the median
and the worst frame of all slides, and the median of each slide's worst frame.
``--throttle`` slows the page's CPU by each factor given (Chrome's CPU throttling, as
DevTools does to stand for a slower phone). Moves are sent one at a time, each once the
one before has finished sliding.
"""

from __future__ import annotations

import argparse
import itertools
import secrets
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load.servers import Children, alternate, start_server, tree_options  # noqa: E402
from server.solver import solve  # noqa: E402
from tests.web.conftest import ARGS, CHROMIUM  # noqa: E402

GAME, SEED = "gate", 0
SLIDE_MS = 150

#: frames and slides noted as they happen: every animation frame's time, and each slide's
#: start (the first card of a redraw marked sliding)
WATCH = """() => {
  const log = window.motionLog = {frames: [], slides: []};
  const frame = (t) => { log.frames.push(t); requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  new MutationObserver((records) => {
    const sliding = records.some((r) => r.target.hasAttribute('data-sliding'));
    if (sliding) log.slides.push(performance.now());
  }).observe(document.body, {subtree: true, attributes: true, attributeFilter: ['data-sliding']});
}"""

#: one move, resolved once no animation runs on the page any more
MOVE = """async (move) => {
  await window.patienceRace.screen.move(move);
  await new Promise((done) => setTimeout(done, 20));
  await Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)));
}"""


def slide_frames(frames: list[float], slides: list[float]) -> list[list[float]]:
    """Each slide's frame times: the gaps between frames from its start to its end and one
    frame beyond (the first gap spans the redraw's layout and paint)."""
    out = []
    for start in slides:
        inside = [t for t in frames if start <= t <= start + SLIDE_MS]
        after = [t for t in frames if t > start + SLIDE_MS][:1]
        before = [t for t in frames if t < start][-1:]
        times = before + inside + after
        out.append([b - a for a, b in itertools.pairwise(times)])
    return [gaps for gaps in out if gaps]


def run_once(browser: Any, base: str, line: list[str], throttle: float) -> list[list[float]]:
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
    )
    try:
        page = context.new_page()
        page.goto(f"{base}/play")
        page.fill("input[name=name]", f"m{secrets.token_hex(4)}")
        page.click(".name-form button")
        page.wait_for_selector(".game-row")
        page.evaluate(
            "([game, seed]) => window.patienceRace.link.request('new_game', {game, seed})",
            [GAME, SEED],
        )
        page.goto(f"{base}/play")
        page.wait_for_selector(".game .pile")
        if throttle != 1:
            context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": throttle})
        page.evaluate(WATCH)
        for move in line:
            page.evaluate(MOVE, move)
        page.wait_for_selector(".game .status[data-status=won]")
        log: dict[str, list[float]] = page.evaluate("window.motionLog")
        return slide_frames(log["frames"], log["slides"])
    finally:
        context.close()


def measure(
    tree: Path | None, redis_url: str, tmp: Path, throttles: list[float]
) -> dict[float, list[list[float]]]:
    from playwright.sync_api import sync_playwright

    line = solve(GAME, seed=SEED).line
    children = Children()
    try:
        _, url = start_server(children, redis_url, tmp, str(tree) if tree else None)
        base = url.replace("ws://", "http://").rstrip("/")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                return {rate: run_once(browser, base, line, rate) for rate in throttles}
            finally:
                browser.close()
    finally:
        children.stop_all()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    tree_options(parser)
    parser.add_argument(
        "--throttle", type=float, nargs="+", default=[1.0, 4.0], help="CPU slowdown factors"
    )
    args = parser.parse_args()
    if CHROMIUM is None:
        sys.exit("chromium is not installed (apt-get install chromium)")
    results = alternate(
        args, "web-motion-", lambda tree, url, tmp: measure(tree, url, tmp, args.throttle)
    )
    print(
        f"{'tree':<16}{'cpu':>5}{'slides':>8}{'frames':>8}{'median ms':>11}{'p95 ms':>8}"
        f"{'worst ms (slide)':>18}{'median of worsts':>18}{'first frame (median)':>22}"
    )
    for tree, runs in results.items():
        name = tree.name if tree else "this checkout"
        for i, run in enumerate(runs):
            for rate, slides in run.items():
                gaps = [g for slide in slides for g in slide]
                worst = max(range(len(slides)), key=lambda n: max(slides[n]))
                p95 = statistics.quantiles(gaps, n=20)[-1]
                print(
                    f"{name + f' #{i + 1}':<16}{f'{rate:g}x':>5}{len(slides):>8}{len(gaps):>8}"
                    f"{statistics.median(gaps):>11.1f}{p95:>8.1f}"
                    f"{f'{max(slides[worst]):.1f} ({worst + 1})':>18}"
                    f"{statistics.median(max(s) for s in slides):>18.1f}"
                    f"{statistics.median(s[0] for s in slides):>22.1f}"
                )


if __name__ == "__main__":
    main()
