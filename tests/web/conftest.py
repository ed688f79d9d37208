"""The browser client's tests: Playwright for Python driving Debian's Chromium (the
system browser, pointed at by path: nothing is downloaded), against the real server as
a child process on a real Redis (the fixtures of tests/app/conftest.py).

They run in Debian's Chromium headless shell (``chromium-headless-shell``, the package
built from the same Chromium source: the same Blink and V8, without the browser's window,
tabs and the processes behind them), which takes about half the CPU a page the full
browser takes (the web tests: 119 CPU-s against 207); ``test_full_browser.py`` checks
that the full browser lays the pages out as the shell does. Where the shell is not
installed the full browser runs them; ``PATIENCE_CHROMIUM`` names another.

With ``CI=true`` a missing Chromium or a missing browser client (``make web``) fails;
elsewhere it skips. Screenshots of the main screens are taken when asked:
``PATIENCE_SCREENSHOTS=1`` saves them to ``tests/web/screenshots/``, and
``PATIENCE_SCREENSHOTS=update`` to ``docs/screenshots/`` (the ones the README links).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.app.transport import static
from tests.app.conftest import ServerProcess, redis_server, redis_url, server, settings  # noqa: F401

#: Debian's Chromium: the full browser, and its headless shell
FULL = shutil.which("chromium") or shutil.which("chromium-browser")
SHELL = shutil.which("chromium-headless-shell")
#: the browser the tests drive
CHROMIUM = os.environ.get("PATIENCE_CHROMIUM") or SHELL or FULL
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ROOT = Path(__file__).resolve().parents[2]
#: where screenshots go, if anywhere (each costs Chromium a PNG: a tenth of the browser
#: tests' CPU, for pictures nobody looks at in a run that only has to pass)
SHOTS_ASKED = os.environ.get("PATIENCE_SCREENSHOTS", "")
SHOTS = (
    ROOT / "docs" / "screenshots"
    if SHOTS_ASKED == "update"
    else ROOT / "tests" / "web" / "screenshots"
)


def missing(why: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{why}: .ci/run must install it")
    pytest.skip(why)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Chromium, started for a worker's first browser test and kept to its end (a start
    costs about a CPU-second: Playwright's driver and the browser). Playwright's sync API
    marks its event loop as the thread's running loop between its calls, which would stop
    every asyncio test after it: tests/conftest.py sets it aside for the tests that do
    not use the browser."""
    if CHROMIUM is None:
        missing("chromium is not installed (apt-get install chromium-headless-shell chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("the playwright package is not installed (pip install -e '.[dev]')")
    if static.client_ready() is not None:
        missing(f"the browser client is not installed ({static.client_ready()})")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def web_server(redis_url: str, tmp_path: Path) -> Iterator[ServerProcess]:  # noqa: F811
    """The real server (a countdown of a second, so that it is seen), its base URL in
    ``.http``."""
    proc = ServerProcess(redis_url, tmp_path, PATIENCE_COUNTDOWN="1.0")
    proc.start()
    yield proc
    if proc.process is not None:
        proc.stop()


def http(proc: ServerProcess) -> str:
    return f"http://127.0.0.1:{proc.port}"


def signed_in(page: Any, base: str, token: str, address: str) -> None:
    """Open ``address`` signed in with ``token``: the token is put in the origin's storage
    from ``/livez`` (a plain page of the same origin: no client runs there to keep or
    overwrite a token of its own), then the address is loaded afresh."""
    page.goto(f"{base}/livez")
    page.evaluate("t => localStorage.setItem('patience-race-token', t)", token)
    page.goto(f"{base}{address}")


def shot(page: Any, name: str) -> None:
    """Save a screenshot of a main screen (looked at, not compared), when asked
    (``PATIENCE_SCREENSHOTS``)."""
    if not SHOTS_ASKED:
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def misaligned(page: Any, table: str) -> list[str]:
    """The headers of ``table`` (a selector) aligned otherwise than the cells under them
    in its first row (a column of numbers headed on the left sat far from them)."""
    found: list[str] = page.evaluate(
        """(selector) => {
            const table = document.querySelector(selector);
            const cells = [...table.querySelectorAll("tbody tr:first-child td")];
            const align = (e) => getComputedStyle(e).textAlign;
            return [...table.querySelectorAll("thead th")]
                .filter((th, i) => th.textContent && cells[i] && align(th) !== align(cells[i]))
                .map((th) => th.textContent);
        }""",
        table,
    )
    return found
