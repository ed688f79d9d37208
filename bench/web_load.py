"""What the browser client costs a visit to ``/play``: the bytes of every file the page
loads, as the server sends them (gzipped where it gzips; headers apart), and the time
to interactive, in Debian's Chromium through Playwright with a cold cache.

    .venv/bin/python bench/web_load.py [--runs 5] [--files] [--server-tree DIR ...]

Time to interactive is from the start of the navigation to the first screen a player
can use: for a first visit the name form with its button enabled, for a player who has
a name (a new browser context holding only the token) the games listed with their
first button enabled. Both wait for the websocket's ``welcome``. It is read off the
page (a ``MutationObserver`` set before the page's own scripts notes the time the
button appears), so it does not count Playwright's polling. Each ``--server-tree`` (a
checkout: before/after; it needs its own browser client installed) is measured
``--runs`` times, alternating.
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load.servers import Children, alternate, start_server, tree_options  # noqa: E402
from tests.web.conftest import ARGS, CHROMIUM  # noqa: E402

#: the first control of each first screen, enabled
FIRST_BUTTON = {
    "first visit": ".name-form button:not(:disabled)",
    "returning": ".game-row button:not(:disabled)",
}

#: notes in ``window.__ready`` the time (since the navigation started) the selector
#: first matches
WATCH = """
const selector = %r;
const seen = () => {
  if (window.__ready === undefined && document.querySelector(selector)) {
    window.__ready = performance.now();
  }
};
new MutationObserver(seen).observe(document, { childList: true, subtree: true });
"""


@dataclass
class Visit:
    """One visit: each file's path, bytes as sent and bytes unzipped; the time to
    interactive in milliseconds."""

    files: list[tuple[str, int, int]] = field(default_factory=list)
    interactive: float = 0.0

    @property
    def sent(self) -> int:
        return sum(sent for _, sent, _ in self.files)

    @property
    def unzipped(self) -> int:
        return sum(size for _, _, size in self.files)


def visit(browser: Any, base: str, screen: str, state: dict[str, Any] | None) -> Visit:
    """Open ``/play`` in a fresh context (``state``: its stored token) and measure."""
    context = browser.new_context(storage_state=state)
    try:
        page = context.new_page()
        page.add_init_script(WATCH % FIRST_BUTTON[screen])
        found = Visit()

        def finished(request: Any) -> None:
            if not request.url.startswith(base):
                return
            response = request.response()
            body = response.body() if response is not None else b""
            sizes = request.sizes()
            found.files.append((request.url[len(base) :], sizes["responseBodySize"], len(body)))

        page.on("requestfinished", finished)
        page.goto(f"{base}/play")
        page.wait_for_selector(FIRST_BUTTON[screen])
        page.wait_for_load_state("networkidle")
        found.interactive = float(page.evaluate("window.__ready"))
        return found
    finally:
        context.close()


def registered(browser: Any, base: str) -> dict[str, Any]:
    """A context's storage holding a new player's token."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{base}/play")
        page.fill("input[name=name]", f"bench-{secrets.token_hex(4)}")  # names are unique
        page.click(".name-form button")
        page.wait_for_selector(".game-row")
        state: dict[str, Any] = context.storage_state()
        return state
    finally:
        context.close()


def measure(tree: Path | None, redis_url: str, tmp: Path) -> dict[str, Visit]:
    """One run against the server of ``tree``: a first visit and a returning one."""
    from playwright.sync_api import sync_playwright

    children = Children()
    try:
        # one data directory for every run: the daily deals' secret is made there once
        _, url = start_server(children, redis_url, tmp, str(tree) if tree else None)
        base = url.replace("ws://", "http://").rstrip("/")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                state = registered(browser, base)
                return {
                    "first visit": visit(browser, base, "first visit", None),
                    "returning": visit(browser, base, "returning", state),
                }
            finally:
                browser.close()
    finally:
        children.stop_all()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    tree_options(parser)
    parser.add_argument("--files", action="store_true", help="list each file's bytes")
    parser.set_defaults(runs=5)
    args = parser.parse_args()
    if CHROMIUM is None:
        sys.exit("chromium is not installed (apt-get install chromium)")
    results = alternate(args, "web-load-", measure)
    print(
        f"{'tree':<24}{'screen':<13}{'requests':>9}{'KiB sent':>10}{'KiB unzipped':>14}"
        f"{'interactive ms (median, min-max)':>34}"
    )
    for tree, runs in results.items():
        name = tree.name if tree else "this checkout"
        for screen in FIRST_BUTTON:
            visits = [run[screen] for run in runs]
            times = [v.interactive for v in visits]
            last = visits[-1]
            spread = f"{statistics.median(times):.0f} ({min(times):.0f}-{max(times):.0f})"
            print(
                f"{name:<24}{screen:<13}{len(last.files):>9}{last.sent / 1024:>10.1f}"
                f"{last.unzipped / 1024:>14.1f}{spread:>34}"
            )
            if args.files:
                for path, sent, size in last.files:
                    print(f"{'':<37}{sent / 1024:>10.1f}{size / 1024:>14.1f}  {path}")


if __name__ == "__main__":
    main()
