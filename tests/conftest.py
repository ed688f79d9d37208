"""The suite in parallel (pytest-xdist: ``make pytest`` runs ``pytest -n 4 --dist
loadgroup``): what stays together on one worker, and what is handed out first.

- A module whose fixture is dear to make (a Redis data set of a million keys, a Redis
  Cluster) runs on one worker, so the fixture is made once: with ``--dist loadgroup``,
  such a module is one unit of work (:func:`unit`), every other test a unit of its own.
  The browser tests' modules are kept together too (each with its module's Redis;
  a worker's browser is started once for all its browser tests: tests/web/conftest.py).
- The longest tests (a compile, a solver's long search, the soaks) start first, then
  the modules kept together: one of them handed out last would run alone at the end
  while the other workers stand idle.

Without ``-n`` neither changes anything but the order the tests run in.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

#: modules whose tests run on one worker (their module-scoped fixtures made once)
TOGETHER = (
    "tests/web/",
    "tests/app/test_redis_loading.py",
    "tests/app/test_cluster.py",
)

#: the terminal's tests across the daily's reset
RESET = "tests/client_cli/test_daily_reset_terminal.py"

#: tests (node ids, or their start) of a minute or more, or tens of seconds, on one
#: core: handed out first, longest first; between them, one at a time, those that wait
#: tens of seconds for a real midnight or week's end (a server started just before it,
#: ``clock_offset``), mostly idle, so that their waits overlap the others' work (left in
#: their modules' place, three had waited side by side, a third of the machine idle for
#: half a minute; handed out together first, all four workers had waited at once)
FIRST = (
    "tests/test_native.py::test_it_builds_in_an_installed_package",
    f"{RESET}::test_a_ranked_daily_the_reset_ends_gives_way_to_its_result_its_clock_stopped",
    "tests/solver/test_hints.py::test_hints_do_not_go_round_in_a_circle",
    "tests/deploy/test_read_only_pod.py::test_a_read_only_pod_certifies_the_daily_deals",
    f"{RESET}::test_a_daily_result_left_open_across_the_reset_says_the_day_is_over",
    "tests/app/test_room_locks.py::test_random_interleavings_of_room_requests",
    "tests/app/test_soak.py::",
    f"{RESET}::test_press_enter_left_open_across_the_reset_describes_the_new_deal_first",
    "tests/solver/test_light_and_shade_fast.py::test_the_compact_position_follows_the_engine",
    "tests/client_cli/test_screen.py::test_every_view_fits_80x24",
    "tests/client_cli/test_league_close_terminal.py::",
    "tests/app/test_room_steps.py::test_the_real_entry_keeps_the_machines_rules",
    "tests/app/test_limits.py::test_stuck_checks_are_limited_per_player_across_processes",
    "tests/app/test_daily_reset.py::",
    "tests/app/test_server_only_install.py::",
    "tests/solver/test_light_and_shade_order.py::",
    "tests/client_cli/test_timed_race_terminal.py::",
    "tests/solver/test_garden.py::test_the_dominance_agrees_with_the_plain_search",
    "tests/solver/test_shortest.py::",
)


def _rank(item: pytest.Item) -> int:
    """The longest tests first, then the modules kept together, then the rest."""
    for n, start in enumerate(FIRST):
        if item.nodeid.startswith(start):
            return n
    return len(FIRST) if item.nodeid.startswith(TOGETHER) else len(FIRST) + 1


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_rank)  # (a stable sort: the rest keep their order)


def unit(nodeid: str) -> str:
    """The unit of work a test is handed out in: its module for the modules kept
    together, else the test alone.

    >>> unit("tests/web/test_play.py::test_a_game[gate]")
    'tests/web/test_play.py'
    >>> unit("tests/app/test_race.py::test_a_race")
    'tests/app/test_race.py::test_a_race'
    """
    path = nodeid.split("::", 1)[0]
    return path if path.startswith(TOGETHER) else nodeid


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """With ``--dist loadgroup``: xdist's load-by-scope scheduling, the scope being
    :func:`unit`. (xdist's own groups, its ``xdist_group`` mark, are not used: it marks a
    test's group by rewriting its node id, which pytest 9 no longer reads.)"""
    if config.getvalue("dist") != "loadgroup":
        return None
    config.option.loadscopereorder = False  # (the order is this file's: see _rank)
    from xdist.scheduler import LoadScopeScheduling  # type: ignore[import-untyped]

    class Together(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return unit(nodeid)

    return Together(config, log)


@pytest.fixture(autouse=True)
def _browser_loop_set_aside(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test that does not use the browser runs as if Playwright were not there.

    The browser is kept for a worker's whole run (tests/web/conftest.py), and between its
    calls Playwright's sync API marks its event loop as the thread's running loop: an
    asyncio test, or ``asyncio.run`` in a plain one, would then refuse to start ("cannot
    be called from a running event loop"). The mark is taken off for the test and put
    back after it (``asyncio._get_running_loop`` is asyncio's own, as Playwright's
    greenlets use it)."""
    held = asyncio._get_running_loop()
    if held is None or "browser" in request.fixturenames:
        yield
        return
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(held)
