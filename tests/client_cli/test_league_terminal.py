"""``patience-race league`` in a pseudo-terminal against a real server and Redis: not
joined, joined (``--join``), the standings with the player's row, a bad week refused;
and the table as text at a fixed width."""

from __future__ import annotations

import asyncio
import datetime
from pathlib import Path
from typing import Any

from rich.text import Text

from client_cli.league import headline, league_view
from client_cli.league_watch import Watched, watch_view
from client_cli.printing import _render
from tests.app.client import player
from tests.app.conftest import ServerProcess

from .terminal import Terminal
from .test_name_terminal import registered, run


def test_the_league_from_the_terminal(server_process: ServerProcess, tmp_path: Path) -> None:
    url = server_process.url
    ann = tmp_path / "ann"
    registered(url, ann, "ann")
    code, screen = run(url, ann, "league")
    assert code == 0, screen
    assert "you have not joined; you would play in Bronze" in screen
    assert "patience-race league --join" in screen
    # (``league join``, as ``group join`` is said, is ``--join``: it was a usage error)
    code, screen = run(url, ann, "league", "join")
    assert code == 0, screen
    assert "You have joined this week's event." in screen
    assert "Bronze league 1 · you are 1st of 1 with 0 points" in screen
    # a league of one: nobody moves at its end (it said the top 5 and the bottom 5 would)
    said = " ".join(screen.split())
    assert "ann" in screen and "At the week's end nobody moves" in said, screen
    assert "The top 5" not in said
    code, screen = run(url, ann, "league", "--join")  # (again: one's league)
    assert code == 0 and "you are 1st of 1" in screen, screen
    code, screen = run(url, ann, "league", "leave")
    assert code == 2 and "invalid choice: 'leave'" in screen, screen
    code, screen = run(url, ann, "league", "--week", "2026-W60")
    # (known before asking the server: the command line is wrong, 2)
    assert code == 2 and "'2026-W60' is no ISO week" in screen
    # a week gone by that ann did not race: said so, with no table to fill nor a week's
    # rules to join by (it said "you have not joined; you would play in Bronze", then an
    # empty table with a today column)
    year, week, _ = (datetime.datetime.now(datetime.UTC) - datetime.timedelta(days=7)).isocalendar()
    last = f"{year}-W{week:02d}"
    code, screen = run(url, ann, "league", "--week", last)
    assert code == 0, screen
    assert f"Week {last} · you did not race in this week's league" in screen
    assert "would play" not in screen and "today" not in screen and "points" not in screen


def test_the_standings_table_at_60_columns() -> None:
    reply = {
        "week": "2026-W48",
        "joined": True,
        "current": True,
        "tier": "silver",
        "league": "silver-1",
        "rank": 2,
        "players": 3,
        "points": 19,
        "ends_in_ms": 3_600_000,
        "rules": {"movers": 5},
        "movers": 1,
        "standings": [
            {
                "rank": 1,
                "name": "bob",
                "points": 20,
                "wins": 1,
                "played": 1,
                "today": 20,
                "zone": "up",
            },
            {
                "rank": 2,
                "name": "ann",
                "points": 19,
                "wins": 1,
                "played": 1,
                "today": 19,
                "zone": "stay",
                "you": True,
            },
            {
                "rank": 3,
                "name": "cat",
                "points": 2,
                "wins": 0,
                "played": 1,
                "today": 0,
                "zone": "down",
            },
        ],
    }
    assert headline(reply).endswith("you are 2nd of 3 with 19 points · ends in 1h 0m")
    text = _render(league_view(reply, ascii=True), True, 60).plain
    rows = [line.split() for line in text.splitlines() if line.strip()[:1].isdigit() or "|" in line]
    flat = " ".join(" ".join(r) for r in rows)
    assert "bob" in flat and "^ up" in flat and "v down" in flat
    assert max(len(line) for line in text.splitlines()) <= 60
    assert "The top 1 moves up a tier" in " ".join(text.split())
    assert "a third of a league of fewer than 15 players" in " ".join(text.split())
    said = " ".join(text.split())
    assert "A won daily scores 10 points, and up to 10 more" in said
    assert "a daily ended without a win scores 2" in said
    # a week over has no today
    over = _render(league_view({**reply, "current": False, "closed": True}, True), True, 60).plain
    assert "today" not in over and "+20" not in over and "bob" in over


def test_the_league_watched_from_the_terminal(
    server_process: ServerProcess, tmp_path: Path
) -> None:
    """``league --watch`` redraws the table as the standings change: another member
    joining shows without asking again; Ctrl-C ends it."""
    url = server_process.url
    cy = tmp_path / "cy"
    registered(url, cy, "cy")
    code, screen = run(url, cy, "league", "--join")
    assert code == 0, screen
    terminal = Terminal(["league", "--watch"], server=url, config=cy)
    try:
        terminal.wait_for(r"watching: redrawn as the standings change")
        players = int(terminal.wait_for(r"you are \d+\w\w of (\d+)").group(1))

        async def join() -> None:
            dee = await player(url, "dee")
            await dee.call("event_join")
            await dee.close()

        asyncio.run(join())
        terminal.wait_for(rf"you are \d+\w\w of {players + 1}\b", timeout=15)
        terminal.wait_for(r"\bdee\b")  # (its row, drawn after the line on top)
        terminal.type("\x03", enter=False)
        assert terminal.exit_code() == 0
    finally:
        terminal.close()
    code, screen = run(url, cy, "league", "--watch", "--week", "2026-W01")
    assert code == 2 and "not a past week's" in screen


def test_one_not_joined_is_told_so_not_a_table_of_headings() -> None:
    """A reply not joined has no standings, whoever is in the league: it is not said to
    be empty (probe W, fault 2: "Nobody is in it yet." of a full league)."""
    reply = {"week": "2026-W48", "joined": False, "current": True, "tier": "bronze"}
    reply |= {"league": None, "standings": [], "rules": {"movers": 5, "league_size": 30}}
    text = " ".join(_render(league_view(reply), False, 80).plain.split())
    said = "you have not joined; you would play in Bronze You have not joined this week's league"
    assert said in text, text
    assert "A league holds up to 30 players" in text and "Nobody" not in text, text
    assert "points" not in text.split("You have not")[0]


def test_a_closed_week_is_told_in_the_past_and_the_last_minute_in_words() -> None:
    """Probe J, fault 7: a closed week said "The top 2 move up a tier at the week's end"
    of those who had moved; 26 s left read "ends in 0m"."""
    reply = {"week": "2026-W48", "joined": True, "current": False, "closed": True}
    reply |= {"tier": "silver", "league": "silver-1", "rank": 1, "players": 6, "points": 20}
    reply |= {"rules": {"movers": 5}, "movers": 2}
    zones = ["up", "up", "stay", "stay", "down", "down"]
    reply["standings"] = [
        {"rank": i + 1, "name": name, "points": 20 - 3 * i, "zone": zone}
        for i, (name, zone) in enumerate(zip("abcdef", zones, strict=True))
    ]
    said = " ".join(_render(league_view(reply), False, 100).plain.split())
    assert "At the week's end a and b moved up a tier; e and f moved down." in said, said
    assert "move up" not in said
    now = {**reply, "current": True, "closed": False, "ends_in_ms": 26_000}
    assert headline(now).endswith("· ends in under a minute")


def test_the_watch_draws_the_pushed_end_and_the_close() -> None:
    """What ``league --watch`` shows as the week's end and its close are pushed (or the
    end comes by the local clock), and after a reconnection across the close."""
    week: dict[str, Any] = {"week": "2026-W48", "joined": True, "current": True, "closed": False}
    week |= {"tier": "bronze", "league": "bronze-1", "rank": 1, "players": 1, "points": 2}
    week |= {"ends_in_ms": 60_000, "rules": {"movers": 5}, "movers": 0}
    row = {"rank": 1, "name": "ann", "points": 2, "today": 2, "you": True}
    week["standings"] = [row]
    hint = Text("watching")

    def shown(watched: Watched, at: float) -> str:
        view = watch_view(watched, at, False, "patience-race league --join", hint)
        return " ".join(_render(view, False, 100).plain.split())

    watched = Watched.first(week, at=0.0)
    assert "today" in shown(watched, 0.0) and "ends in 1m" in shown(watched, 0.0)
    ended = {**week, "current": False, "ends_in_ms": 0}
    assert not watched.heard({**ended, "standings": [{**row, "today": 0}]}, 5)
    assert "ended, closing" in shown(watched, 5.0) and "today" not in shown(watched, 5.0)
    # nothing pushed: the local clock ends the week all the same
    clock = Watched.first(week, at=0.0)
    assert not clock.tick(59.0) and clock.tick(60.0)
    assert "ended, closing" in shown(clock, 60.0) and "today" not in shown(clock, 60.0)
    assert clock.being_closed(60.0) == "2026-W48" and clock.wake(60.0) == 300.0
    # closed: the new week is watched, the result shown first
    assert watched.heard({**ended, "closed": True}, 400.0)
    fresh = {"week": "2026-W49", "joined": False, "current": True, "tier": "bronze"}
    fresh |= {"ends_in_ms": 7 * 86_400_000 - 400_000, "standings": [], "rules": {"movers": 5}}
    assert watched.rewatched(fresh, 400.0) is None
    text = shown(watched, 400.0)
    assert text.index("· closed") < text.index("Week 2026-W49 · you have not joined")
    assert "Join it: patience-race league --join" in text and "being closed" not in text
    # joined elsewhere: the new league alone
    watched.heard({**fresh, "joined": True, "league": "bronze-1", "rank": 1, "players": 1}, 500)
    assert "2026-W48" not in shown(watched, 500.0)
    # back after a restart across the close: the week watched is asked for, shown first
    back = Watched.first(week, at=0.0)
    assert back.rewatched(fresh, 400.0) == "2026-W48"
    back.heard({**ended, "closed": False}, 401.0)
    text = shown(back, 401.0)
    assert text.index("ended, closing") < text.index("Week 2026-W49")
    assert "being closed and the tiers settled" in text and "Join it" not in text


def test_the_league_watched_fits_the_screen_with_ones_own_row() -> None:
    """Probe Z1, fault 3: ``league --watch`` of a league of 20 at 80x24 drew ranks 1-18
    and a lone "...": the player's own row (20th), the relegation zone and the watching
    line were cut. Where the table does not fit: its top rows, a "…" line, the rows
    around one's own, and the bottom (the zone down) where there is room; the watching
    line always last."""
    from client_cli.league_watch import watch_screen

    def league(size: int, me: int) -> dict[str, Any]:
        reply: dict[str, Any] = {"week": "2026-W48", "joined": True, "current": True}
        reply |= {"tier": "silver", "league": "silver-1", "rank": me, "players": size}
        reply |= {"points": 0, "ends_in_ms": 3_600_000, "rules": {"movers": 5}, "movers": 5}
        zones = ["up"] * 5 + ["stay"] * (size - 10) + ["down"] * 5
        reply["standings"] = [
            {"rank": n, "name": f"p{n:02d}", "points": 60 - n, "wins": 1, "played": 1,
             "today": 0, "zone": zones[n - 1], "you": n == me}
            for n in range(1, size + 1)
        ]  # fmt: skip
        return reply

    hint = Text("watching: redrawn as the standings change · Ctrl-C stops")
    for size, me, width, height in ((20, 20, 80, 24), (30, 14, 80, 24), (30, 22, 60, 20)):
        watched = Watched.first(league(size, me), at=0.0)
        text = watch_screen(watched, 0.0, False, "patience-race league --join", hint, width, height)
        lines = text.plain.rstrip("\n").split("\n")
        shown = "\n".join(lines)
        assert len(lines) <= height, shown
        assert lines[0].startswith("Week 2026-W48"), shown
        assert lines[-1] == hint.plain, shown
        assert f"p{me:02d}" in shown and "p01" in shown, shown
        assert any(line.strip() == "…" for line in lines), shown
        assert "..." not in shown, shown
        if height == 24:
            assert f"p{size:02d}" in shown and "▼ down" in shown, shown  # (the zone down)
    # one that fits is drawn whole, with no gap
    watched = Watched.first(league(8, 3), at=0.0)
    whole = watch_screen(watched, 0.0, False, "patience-race league --join", hint, 80, 40).plain
    assert all(f"p{n:02d}" in whole for n in range(1, 9)) and "…" not in whole
