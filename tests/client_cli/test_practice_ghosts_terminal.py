"""Practising the daily against the board, end to end: the real client in a
pseudo-terminal against a real server and Redis. Nine players finish today's daily of
The Gate (over the protocol); dee, who follows the last of them, plays her ranked attempt
in the terminal, then practises the same deal with eight of them as ghosts beside the
board, and on resigning sees where she placed among them."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from client_cli.config import Account, TokenStore
from tests.app.client import player
from tests.app.conftest import ServerProcess

from .terminal import Terminal
from .test_terminal import LEGAL, start

#: the players who finish the day's deal before dee: p<n> makes n moves, then resigns
OTHERS = 9


def the_day_played(url: str, config: Path) -> None:
    """p0 to p8 play today's ranked Gate (p<n>: n moves, then resign); dee, registered
    over the protocol with her token saved for the client, follows p0."""

    async def go() -> None:
        for n in range(OTHERS):
            other = await player(url, f"p{n}")
            game = await other.call("daily", game="gate")
            legal = game["legal"]
            for _ in range(n):
                reply = await other.call("move", game=game["game"], move=legal[0])
                legal = reply["legal"]
                if reply["status"] != "playing" or not legal:
                    break
            else:
                await other.call("resign", game=game["game"])
            await other.event("daily_result")  # (on the board now)
            await other.close()
        dee = await player(url, "dee")
        await dee.call("follow", name="p0")
        assert dee.token is not None
        TokenStore(config / "patience-race").put(url, Account("dee", dee.token))
        await dee.close()

    asyncio.run(go())


def test_practice_races_the_days_ghosts_and_places_among_them(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    config = tmp_path / "dee"
    the_day_played(server_process.url, config)

    dee = start(terminals, server_process, config, "daily", "gate")
    dee.wait_for(r"Press Enter to start your ranked attempt")
    dee.type("")
    day = dee.wait_for(r"The Gate · daily (\d{4}-\d\d-\d\d)").group(1)
    dee.wait_for(LEGAL)
    assert "(ghost)" not in dee.text  # the ranked attempt races no one
    dee.type("resign")
    dee.wait_for(r"Resign today's ranked attempt\?")
    dee.type("y")
    dee.wait_for(r"Your result, to paste into a chat")

    dee.type("n")  # practice: against the board
    dee.wait_for(r"The Gate · practice " + day)
    dee.wait_for(r"Practice, not ranked: racing 8 ghosts of today's board, as they played\.")
    dee.wait_for(r"vs the board +home moves")
    dee.wait_for(LEGAL)
    # each ghost's end comes at its recorded time (a settled screen is no sign of it)
    dee.wait_for(r"(?:p\d \(ghost\) +\d+/52 +\d+ resigned[\s\S]*?){8}", timeout=20)
    dee.settle()
    panel = dee.text
    ghosts = re.findall(r"(p\d) \(ghost\) +\d+/52 +(\d+) resigned", panel)
    assert len(ghosts) == 8, panel  # eight of the nine: the panel has room for them all
    assert "p0" in dict(ghosts), panel  # followed: raced, wherever p0 stands on the board
    # each as its ranked game ended: p<n> made n moves
    assert all(int(moves) == int(name[1:]) for name, moves in ghosts), panel
    assert re.search(r"▸dee +\d+/52 +0 ", panel), panel
    assert "more ahead" not in panel and "more behind" not in panel

    dee.type("resign")  # practice asks too, as every game does
    dee.wait_for(r"Resign this practice\? It ends as it stands \(not ranked\)\.")
    dee.type("y")
    placed = dee.wait_for(
        r"You placed (joint )?(\d+)(?:st|nd|rd|th) of 9 against the board: "
        r"you beat (?:(\d) of 8 ghosts|every ghost)\."
    )
    joint, place, beaten = placed.group(1), int(placed.group(2)), placed.group(3)
    dee.wait_for(r"The practice among the day's ghosts")
    mark = "=" if joint else ""
    table = dee.wait_for(rf"▸{mark}{place}\s+dee\s+resigned\s+\S+\s+0\s+\d+/52")
    rows = re.findall(r"\n\s*▸?(=?)(\d)\s+(p\d \(ghost\)|dee)\s+resigned", dee.text)
    assert sum(1 for *_, who in rows if who.endswith("(ghost)")) == 8, table
    # places as a competition's (1, 2, 2, 4): each is one more than the places above
    # it, and "=" marks exactly those shared
    places = [int(n) for _, n, _ in rows]
    assert len(places) == 9 and places == sorted(places), dee.text
    for shared, n, _ in rows:
        assert int(n) == 1 + sum(1 for p in places if p < int(n)), dee.text
        assert (shared == "=") == (places.count(int(n)) > 1), dee.text
    # the ghosts beaten: those placed below her (a ghost level with her is not beaten)
    assert (int(beaten) if beaten is not None else 8) == sum(1 for p in places if p > place)
    dee.wait_for(r"n the same deal again \(practice\)")
    dee.type("q")
    assert dee.exit_code() == 0
    assert re.search(rb"You placed (joint )?\d+(st|nd|rd|th) of 9 against the board", dee.output)

    # --no-ghosts: the next practice is played alone
    alone = start(terminals, server_process, config, "daily", "gate", "--no-ghosts")
    alone.wait_for(r"The Gate · practice " + day)
    alone.wait_for(r"Practice: your ranked attempt today has ended; this one is not ranked")
    alone.wait_for(LEGAL)
    assert "(ghost)" not in alone.text and "vs the board" not in alone.text
    alone.type("q")
    assert alone.exit_code() == 0
