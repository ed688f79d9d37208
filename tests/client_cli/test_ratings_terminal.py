"""Ratings in the terminal client, in pseudo-terminals against a real server and Redis:
each racer's rating in the lobby, the rating and its change in the results, and
``patience-race me`` / ``profile`` (``docs/ratings.md``)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from client_cli.config import Account, TokenStore
from server.app.domain import ratings as rt
from tests.app.client import player
from tests.app.conftest import ServerProcess

from .terminal import Terminal

#: the races' game: every deal has a pair to take off, so a pair parts two racers who
#: resign (racers parted only by who joined first are rated a draw, and moves part nobody
#: who has not won: docs/ratings.md)
GAME = "doubles-and-quits"


def raced_once(url: str, ann_config: Path, bob_config: Path) -> None:
    """ann and bob race once over the protocol at Doubles and Quits (ann takes a pair off,
    bob plays nothing, both resign: ann ranks first, by pairs off), their tokens saved for
    the terminal client."""

    async def go() -> None:
        ann, bob = await player(url, "ann"), await player(url, "bob")
        code = (await ann.call("room_create", game=GAME))["code"]
        await bob.call("room_join", code=code)
        await bob.call("ready")
        await ann.call("start")
        for client in (ann, bob):
            start = await client.event("race_start")
        await ann.call("move", move=next(m for m in start["legal"] if "+" in m))
        for client in (ann, bob):
            said = await client.request("resign")  # (or the pair left no move: lost)
            assert said["type"] == "resigned" or said.get("code") == "game_over", said
        results = (await ann.event("results"))["results"]
        assert [r["player"] for r in results] == ["ann", "bob"]
        for client, config, name in ((ann, ann_config, "ann"), (bob, bob_config, "bob")):
            await client.call("room_leave")
            assert client.token is not None
            TokenStore(config / "patience-race").put(url, Account(name, client.token))
            await client.close()

    asyncio.run(go())


def test_ratings_in_the_lobby_the_results_and_the_profile(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    url = server_process.url
    raced_once(url, tmp_path / "ann", tmp_path / "bob")
    ann1, bob1 = rt.update([rt.DEFAULT, rt.DEFAULT], [1, 2])
    ann2, bob2 = rt.update([ann1, bob1], [1, 2])
    ann = Terminal(["race", "new", GAME], server=url, config=tmp_path / "ann")
    terminals.append(ann)
    code = ann.wait_for(r"race join ([A-Z0-9]{6})").group(1)
    bob = Terminal(["race", "join", code], server=url, config=tmp_path / "bob")
    terminals.append(bob)
    # the lobby: each racer's rating at the room's game
    ann.wait_for(rf"ann\s+host\s+rating {ann1.shown}\n")
    ann.wait_for(rf"bob\s+not ready\s+rating {bob1.shown}\n")
    bob.type("r")
    ann.wait_for(r"everyone is ready: s to start")
    ann.type("s")
    ann.wait_for(r"legal: #1 \d+\+\d+", timeout=15)
    ann.type("#1")  # (a pair off: the one move between them, ann ranks first again)
    ann.wait_for(r"moves 1\b")
    for terminal in (ann, bob):
        # (one deal in thirty has no move left after its first pair: that game is lost)
        # (a lost race game says "Lost: ...", "Your game is over (lost)" or, once the
        # race says so, "ended (lost)": the second, new, once failed the test on such a
        # deal)
        said = terminal.wait_for(r"legal: |Lost: |game is over \(lost\)|ended \(lost\)", timeout=15)
        if said.group(0) != "legal: ":
            continue
        terminal.type("resign")
        terminal.wait_for(r"Resign this race\?")
        terminal.type("y")
    # the results: the rating after the race and its change
    for terminal in (ann, bob):
        terminal.wait_for(r"Results of race 1")
        terminal.wait_for(r"\brating\b")
        for place, name, before, after in ((1, "ann", ann1, ann2), (2, "bob", bob1, bob2)):
            shown = re.escape(f"{after.shown} ({after.shown - before.shown:+d})")
            terminal.wait_for(rf"{place}\s+{name}\s+(resigned|lost).*{shown}")
    ann.wait_for(re.escape(f"Your rating: {ann2.shown} ({ann2.shown - ann1.shown:+d})."))
    for terminal in (ann, bob):
        terminal.type("q")
        assert terminal.exit_code() == 0
    me = run(url, tmp_path / "ann", "me")
    assert "ann's ratings" in me
    # each game by its name (it said its id), the ids for the board's command below
    assert re.search(rf"Doubles and Quits\s+{ann2.shown}\s+2\s+{ann2.mu:.2f}", me), me
    assert f"(GAME: {GAME})" in " ".join(me.split())
    bobs = run(url, tmp_path / "ann", "profile", "BOB")
    assert "bob's ratings" in bobs
    assert re.search(rf"Doubles and Quits\s+{bob2.shown}\s+2\s", bobs), bobs
    # another's profile wants no sign-in, as top does not (it said to register first)
    strangers = run(url, tmp_path / "stranger", "profile", "bob")
    assert re.search(rf"Doubles and Quits\s+{bob2.shown}\s+2\s", strangers), strangers
    nobody = run(url, tmp_path / "ann", "profile", "nobody", code=1)
    assert "no player named 'nobody'" in nobody
    # one never rated: the words speak of them, not of ann (it said "rates you")
    asyncio.run(registered(url, "carol_w"))
    carols = " ".join(run(url, tmp_path / "ann", "profile", "carol_w").split())
    assert "No rated race yet: a race against people rates carol_w." in carols, carols


async def registered(url: str, name: str) -> None:
    await (await player(url, name)).close()


def run(url: str, config: Path, *args: str, code: int = 0) -> str:
    """A command run to its end: its screen (the exit code checked)."""
    terminal = Terminal(list(args), server=url, config=config)
    try:
        assert terminal.exit_code(timeout=30) == code, terminal.text
        return terminal.text
    finally:
        terminal.close()
