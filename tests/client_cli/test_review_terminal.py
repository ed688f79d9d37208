"""A game's review in the terminal client: the real client in a pseudo-terminal, against
a real server and Redis. A lost Nestor game, then ``review``: where it was lost, the
move played, the move that kept the win, and the board there."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
from pathlib import Path

from tests.app.client import player, signed_in
from tests.app.conftest import ServerProcess
from tests.app.test_review import LOST_LINE, SEED, play_lost_line

from .terminal import CLIENT, Terminal
from .test_name_terminal import registered
from .test_terminal import LEGAL, register, start

#: the review's first line, however the terminal wraps it
UNTIL = (
    r"Until\s+move 6 a player\s+who\s+knew\s+the\s+face-down\s+cards\s+could\s+still\s+have\s+won:"
    r"\s+you\s+played\s+1\+7\s+there"
)


def test_review_after_a_lost_game(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    ann = start(
        terminals, server_process, tmp_path / "config", "play", "nestor", "--seed", str(SEED)
    )
    register(ann, "ann")
    ann.wait_for(LEGAL)
    ann.type("review")  # not over yet: the word is a move the server refuses
    ann.wait_for(r"cannot read 'review' as a move")
    for move in LOST_LINE:
        ann.type(move)
    ann.wait_for(r"moves 15")
    for n in range(16, 19):  # the reserve turned three times: no move is left
        ann.type("reserve")
        ann.wait_for(rf"moves {n}")
    ann.wait_for(r"c challenge a friend")
    ann.type("review")
    ann.wait_for(r"Where the game was lost")
    ann.wait_for(UNTIL)
    ann.wait_for(r"The board before move 6")
    ann.wait_for(r"Playing 1\+5 there would have kept the win")
    ann.type("q")


def test_review_a_game_by_its_id(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """``patience-race review ID`` reviews any finished game one may see by its id (the
    replay's): a ranked daily's after the day's reset, when its screen is long gone (only
    the game on the table could be reviewed, so a daily's never could)."""
    config = tmp_path / "config"
    ann = start(terminals, server_process, config, "play", "nestor", "--seed", str(SEED))
    register(ann, "ann")
    ann.wait_for(LEGAL)
    ann.type("q")
    assert ann.exit_code() == 0
    token = re.search(r'"token": "([^"]+)"', (config / "patience-race" / "tokens.json").read_text())
    assert token is not None

    async def games() -> tuple[str, str]:
        client = await signed_in(server_process.url, token.group(1))
        try:
            solo = client.welcome["resume"]["solo"]["game"]  # type: ignore[attr-defined]
            for move in [*LOST_LINE, "reserve", "reserve", "reserve"]:
                await client.call("move", move=move, game=solo)
            daily = (await client.call("daily", game="gate"))["game"]
            await client.call("resign", game=daily)
            return solo, daily
        finally:
            await client.close()

    solo, daily = asyncio.run(games())
    env = {**os.environ, "XDG_CONFIG_HOME": str(config), "COLUMNS": "80"}
    run = [CLIENT, "--server", server_process.url, "review"]
    done = subprocess.run([*run, solo], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done
    assert "Where the game was lost" in done.stdout and done.stdout.endswith("\n")
    assert re.search(UNTIL, done.stdout), done.stdout
    # today's daily: after the reset, said so, and when
    later = subprocess.run([*run, daily], capture_output=True, text=True, env=env, timeout=60)
    assert later.returncode == 1 and "after the day's reset" in later.stderr, later
    assert "patience-race review" in later.stderr  # (what to type then)
    nosuch = subprocess.run([*run, "0" * 16], capture_output=True, text=True, env=env, timeout=60)
    assert nosuch.returncode == 1 and "patience-race: no game" in nosuch.stderr, nosuch


def test_review_of_another_players_game_names_its_player(
    server_process: ServerProcess, tmp_path: Path
) -> None:
    """``review ID`` of someone else's game said "you played 1+7 there", as of one's
    own: it names the game's player."""
    url = server_process.url

    async def lost() -> str:
        ann = await player(url, "ann")
        try:
            gid = str((await ann.call("new_game", game="nestor", seed=SEED))["game"])
            await play_lost_line(ann)
            return gid
        finally:
            await ann.close()

    gid = asyncio.run(lost())
    config = tmp_path / "bob"
    registered(url, config, "bob")
    env = {**os.environ, "XDG_CONFIG_HOME": str(config), "COLUMNS": "80"}
    done = subprocess.run(
        [CLIENT, "--server", url, "review", gid],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done
    said = " ".join(done.stdout.split())
    assert "could still have won: ann played 1+7 there" in said, done.stdout
    assert "you" not in said, done.stdout
