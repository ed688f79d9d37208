"""Challenges end to end: the real client in pseudo-terminals, against a real server and
Redis. A finished game made a challenge (its link, command and share line shown), a
friend racing its ghost to the verdict and the table, the challenger told; a public
replay raced from the replay viewer."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import threading
from pathlib import Path

from server.engine import new_game
from tests.app.client import player, signed_in
from tests.app.conftest import ServerProcess
from tests.app.test_challenges import made
from tests.solver.positions import HOME

from .terminal import CLIENT, Terminal
from .test_terminal import LEGAL, register, start

#: a challenge's id in its link
LINK = r"http://127\.0\.0\.1:{port}/c/([a-z2-7]{{16}})"


def challenge_made(terminals: list[Terminal], server: ServerProcess, config: Path) -> str:
    """ann plays a Gate deal where ``home`` plays two cards, resigns, and makes it a
    challenge with ``c``: its id, once the link, the command and the share line show."""
    home = HOME["gate"]
    ann = start(terminals, server, config, "play", "gate", "--seed", str(home.seed))
    register(ann, "ann")
    ann.wait_for(LEGAL)
    dealt = new_game("gate", seed=home.seed).cards_home()
    ann.type("home")
    ann.wait_for(rf"home {dealt + 2}/52")
    ann.type("resign")
    ann.wait_for(r"Resign this game\?")
    ann.type("y")
    ann.wait_for(r"RESIGNED")
    ann.wait_for(r"c challenge a friend")
    ann.type("c")
    cid = ann.wait_for(LINK.format(port=server.port)).group(1)
    ann.wait_for(r"Your challenge: ann's game of The Gate \(a solo game\): resigned")
    ann.wait_for(rf"patience-race challenge {cid} --server {re.escape(server.url)}")
    share = rf"Beat my {dealt + 2}/52 cards home on The Gate ·\s+http://127\.0\.0\.1:\d+/c/{cid}"
    ann.wait_for(share)
    ann.wait_for(r"Your challenge is made: send a friend the link")
    return cid


def test_a_challenge_made_raced_and_told(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    ann_config = tmp_path / "ann"
    cid = challenge_made(terminals, server_process, ann_config)
    ann = terminals[0]
    dealt = new_game("gate", seed=HOME["gate"].seed).cards_home()

    bob = start(terminals, server_process, tmp_path / "bob", "challenge", cid)
    register(bob, "bob")
    bob.wait_for(rf"Challenge {cid} · The Gate")
    bob.wait_for(rf"ann's game of The Gate \(a solo game\): resigned, {dealt + 2}/52 home, 2")
    bob.wait_for(rf"1\s+ann \(ghost\)\s+resigned\s+\S+\s+2\s+{dealt + 2}/52")  # the table
    bob.wait_for(r"Press Enter to race ann's ghost \(q to leave\)")
    bob.type("")
    bob.wait_for(r"The Gate · challenge vs ann")
    bob.wait_for(LEGAL, timeout=15)
    # the ghost beside the board, its game over as soon as ann's was (she played it at
    # once: a busy machine may have taken a while, the wait as long)
    bob.wait_for(r"Challenge\s+home moves")
    bob.wait_for(rf"ann \(ghost\)\s+{dealt + 2}/52\s+2 resigned", timeout=30)
    bob.wait_for(rf"▸bob\s+{dealt}/52\s+0 ")
    bob.type("resign")
    bob.wait_for(r"Resign\? Your result goes on the challenge's table")
    bob.type("y")
    bob.wait_for(r"ann's ghost beat you by 2 cards home\.")
    bob.wait_for(r"The table of ann's challenge")
    bob.wait_for(rf"1\s+ann \(ghost\)\s+resigned\s+\S+\s+2\s+{dealt + 2}/52\s+[0-9a-f]{{16}}")
    bob.wait_for(rf"▸2\s+bob\s+resigned\s+\S+\s+0\s+{dealt}/52\s+[0-9a-f]{{16}}")
    # each as pasted works, on this server too (--server: it is not the default one)
    bob.wait_for(r"Yours:   patience-race replay [0-9a-f]{16} --server ws://127\.0\.0\.1:\d+")
    ghost = bob.wait_for(r"Ghost's: patience-race replay ([0-9a-f]{16}) --server ws://").group(1)
    bob.wait_for(r"c challenge a friend with your game · review · q quit")

    # the challenger, connected, is told at once (under the challenge's page)
    ann.wait_for(r"bob raced your ghost at The Gate: resigned, \d+/52 home, 0 moves;")
    # the commands named work as pasted, on this server (not the default one): --server
    # (and last, nothing after it: "...:PORT: 1 new)" went with the address, copied whole)
    ann.wait_for(r"(?m)1 new: patience-race challenges --server ws://127\.0\.0\.1:\d+ *$")
    ann.wait_for(r"you stay ahead")
    ann.type("q", enter=False)  # the page closes: the table again
    ann.wait_for(r"RESIGNED")
    ann.type("q")
    assert ann.exit_code() == 0
    assert f"patience-race challenge {cid}".encode() in ann.output  # told again as she left

    bob.type("q")
    assert bob.exit_code() == 0
    assert b"ann's ghost beat you by 2 cards home." in bob.output
    # (it said "The table: patience-race challenge ID", which reached the default server)
    assert re.search(
        rb"The table:\s+patience-race\s+challenge\s+\w+\s+--server\s+ws://127\.0\.0\.1:\d+",
        bob.output,
    ), bob.output
    # once raced: the table, and nothing to take
    again = start(terminals, server_process, tmp_path / "bob", "challenge", cid)
    again.wait_for(r"You have raced it: your result is in the table above")
    assert again.exit_code() == 0
    assert re.search(r"2\s+bob\s+resigned", again.text), again.text

    # ann, at her next start, hears of the result she has not looked at
    back = start(terminals, server_process, ann_config, "play")
    # (its command whole on a line of its own: it was broken after --server)
    back.wait_for(r"1 new result on your challenges:\npatience-race challenges --server ws://")
    back.wait_for(r"which game\?")
    back.type("q")
    assert back.exit_code() == 0
    # and in a game's message line, its command with nothing after it (a full stop
    # there went with the server's address when the command was copied whole)
    playing = start(terminals, server_process, ann_config, "play", "gate", "--seed", "5")
    playing.wait_for(LEGAL)
    said = re.findall(r"challenges --server ws://127\.0\.0\.1:\d+(\S*)", playing.text)
    assert said and set(said) == {""}, playing.text
    playing.type("q", enter=False)
    assert playing.exit_code() == 0
    listed = start(terminals, server_process, ann_config, "challenges")
    assert listed.exit_code() == 0
    assert re.search(rf"1 new\s+{cid}\s+The Gate\s+resigned, {dealt + 2}/52 home", listed.text)
    assert re.search(r"Your challenges on \S+: 1, 1 new result\n", listed.text), listed.text
    seen = start(terminals, server_process, ann_config, "challenges")
    assert seen.exit_code() == 0
    assert "1 new" not in seen.text and cid in seen.text, seen.text

    # anyone may race the ghost from its replay: r in the replay viewer
    viewer = start(terminals, server_process, tmp_path / "cy", "replay", ghost)
    viewer.wait_for(r"r race this")
    viewer.type("r", enter=False)
    register(viewer, "cy")
    viewer.wait_for(r"ann's game of The Gate \(a solo game\)")
    viewer.wait_for(r"The Gate · challenge vs ann")
    viewer.wait_for(LEGAL, timeout=15)
    viewer.type("resign")
    viewer.wait_for(r"Resign\?")
    viewer.type("y")
    viewer.wait_for(r"ann's ghost beat you by 2 cards home\.")
    # the same challenge, one table: cy did just as bob did (resigned at the deal), and
    # shares his place, listed after him as he took it later
    viewer.wait_for(r"\n\s*=2\s+bob\s+resigned[^\n]*\n\s*▸=2\s+cy\s+resigned")
    viewer.type("q")
    assert viewer.exit_code() == 0


def test_a_challenge_game_left_is_taken_up(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    cid = challenge_made(terminals, server_process, tmp_path / "ann")
    bob = start(terminals, server_process, tmp_path / "bob", "challenge", cid)
    register(bob, "bob")
    bob.wait_for(r"Press Enter to race ann's ghost")
    bob.type("")
    first = bob.wait_for(LEGAL, timeout=15).group(1)
    bob.type(first)
    bob.wait_for(r"moves 1")
    bob.type("q")  # the game is kept, its clock running
    assert bob.exit_code() == 0
    assert re.search(
        # (wrapped between words: any space may be a line's end)
        rf"(?m)its clock runs on. To take it up: patience-race challenge {cid} --server "
        r"ws://[\d.:]+\r?$".replace(" ", r"\s+").encode(),
        bob.output,
    ), bob.output

    again = start(terminals, server_process, tmp_path / "bob", "challenge", cid)
    again.wait_for(r"Your challenge game, as you left it")
    again.wait_for(r"The Gate · challenge vs ann")
    assert "moves 1" in again.text and "Press Enter" not in again.text
    again.type("resign")
    again.wait_for(r"Resign\?")
    again.type("y")
    again.wait_for(r"ann's ghost beat you by \d+ cards? home\.|You beat ann's ghost")
    again.wait_for(r"▸\d\s+bob\s+resigned\s+\S+\s+1\s")
    again.type("q")
    assert again.exit_code() == 0


async def cys_challenge(url: str) -> str:
    """cy's Gate game, resigned at once, made a challenge: its id."""
    cy = await player(url, "cy")
    try:
        game = await cy.call("new_game", game="gate", seed=5)
        await cy.call("resign", game=game["game"])
        return str((await made(cy, game["game"]))["id"])
    finally:
        await cy.close()


def test_another_challenge_asked_for_mid_challenge_goes_back_to_the_first(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """One challenge at a time: ``challenge ID`` of another while a challenge game is in
    play says so and offers the one in play (the server refuses a second take)."""
    cid = challenge_made(terminals, server_process, tmp_path / "ann")
    other = asyncio.run(cys_challenge(server_process.url))
    bob = start(terminals, server_process, tmp_path / "bob", "challenge", cid)
    register(bob, "bob")
    bob.wait_for(r"Press Enter to race ann's ghost")
    bob.type("")
    bob.type(bob.wait_for(LEGAL, timeout=15).group(1))
    bob.wait_for(r"moves 1")
    bob.type("q")
    assert bob.exit_code() == 0

    again = start(terminals, server_process, tmp_path / "bob", "challenge", other)
    again.wait_for(rf"Challenge {other} · The Gate")  # (the one asked for, shown)
    again.wait_for(r"You are racing ann's challenge on The Gate, its clock running: one")
    again.wait_for(r"Press Enter to go back to ann's challenge \(q to leave\)")
    again.type("")
    again.wait_for(r"Your challenge game, as you left it")
    again.wait_for(r"The Gate · challenge vs ann")
    assert "moves 1" in again.text
    again.type("q")
    assert again.exit_code() == 0


def test_a_challenge_of_todays_daily_waits_for_the_takers_own_attempt(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    ann = start(terminals, server_process, tmp_path / "ann", "daily", "gate")
    register(ann, "ann")
    ann.wait_for(r"Press Enter to start your ranked attempt")
    ann.type("")
    ann.wait_for(LEGAL)
    ann.type("resign")
    ann.wait_for(r"Resign today's ranked attempt\?")
    ann.type("y")
    ann.wait_for(r"Your result, to paste into a chat")
    ann.type("c")  # from the daily's result
    cid = ann.wait_for(LINK.format(port=server_process.port)).group(1)
    ann.wait_for(r"ann's game of The Gate \(a ranked daily of \d{4}-\d\d-\d\d\)")
    ann.wait_for(r"opens to each player once their own ranked")
    ann.type("q", enter=False)
    ann.type("q")
    assert ann.exit_code() == 0

    bob = start(terminals, server_process, tmp_path / "bob", "challenge", cid)
    register(bob, "bob")
    bob.wait_for(r"Not yet: this challenge is of today's daily deal of The Gate")
    # and the way on: today's daily first (nothing was offered)
    bob.wait_for(r"Play today's first: patience-race daily gate --server ws://127\.0\.0\.1:\d+")
    assert bob.exit_code() == 1
    assert "Press Enter" not in bob.text
    # the same through a pipe: why not, and the way on (it offered to race it, exit 0)
    piped = subprocess.run(
        [CLIENT, "--server", server_process.url, "challenge", cid],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "bob"), "COLUMNS": "100"},
        timeout=30,
    )
    said = " ".join(piped.stdout.split())
    assert piped.returncode == 1, piped
    assert "Not yet: this challenge is of today's daily deal of The Gate" in said, said
    assert "Play today's first: patience-race daily gate --server ws://" in said
    assert "To race it" not in said


def test_a_challenge_shown_without_a_terminal(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """``challenge ID`` through a pipe prints the challenge and its table (it refused,
    "playing needs a terminal", even for one's own challenge, which it only shows)."""
    cid = challenge_made(terminals, server_process, tmp_path / "ann")
    url = server_process.url

    def piped(config: Path, ident: str) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "XDG_CONFIG_HOME": str(config), "COLUMNS": "100"}
        return subprocess.run(
            [CLIENT, "--server", url, "challenge", ident],
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            env=env,
            timeout=30,
        )

    own = piped(tmp_path / "ann", cid)
    assert own.returncode == 0, own
    assert f"Challenge {cid} · The Gate" in own.stdout and "ann (ghost)" in own.stdout
    assert f"patience-race challenge {cid} --server {url}" in own.stdout
    anyone = piped(tmp_path / "nobody", cid)
    assert anyone.returncode == 0, anyone
    assert f"To race it, in a terminal: patience-race challenge {cid} --server {url}" in " ".join(
        anyone.stdout.split()
    )
    nosuch = piped(tmp_path / "nobody", "abcdefghijklmnop")
    assert nosuch.returncode == 1 and "no challenge" in nosuch.stderr, nosuch


def test_racing_ones_own_replay_shows_its_challenge_to_send(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """``challenge --replay`` of one's own game shows its challenge, to send, as
    ``challenge ID`` does for one's own (it made one, then said "this challenge is of
    your own game" and exited 1)."""
    config = tmp_path / "ann"
    ann = start(terminals, server_process, config, "play", "gate", "--seed", "1234")
    register(ann, "ann")
    ann.wait_for(LEGAL)
    ann.type("resign")
    ann.wait_for(r"Resign this game\?")
    ann.type("y")
    ann.wait_for(r"RESIGNED")
    ann.type("q")
    assert ann.exit_code() == 0
    token = json.loads((config / "patience-race" / "tokens.json").read_text())
    found = re.search(r'"token": "([^"]+)"', json.dumps(token))
    assert found is not None

    async def solo_id() -> str:
        client = await signed_in(server_process.url, found.group(1))
        try:
            welcome = await client.call("hello", protocol=1, token=found.group(1))
            gid: str = welcome["resume"]["solo"]["game"]
            return gid
        finally:
            await client.close()

    gid = asyncio.run(solo_id())
    # ann's own connection meanwhile (a browser of hers, say), held in a thread of its own
    ready, done = threading.Event(), threading.Event()
    told: list[str] = []

    def hold() -> None:
        async def main() -> None:
            client = await signed_in(server_process.url, found.group(1))
            ready.set()
            while not done.is_set():
                await asyncio.sleep(0.05)
            told.extend(event["type"] for event in client.events)
            await client.close()

        asyncio.run(main())

    holder = threading.Thread(target=hold, daemon=True)
    holder.start()
    assert ready.wait(20)
    # (the replay's link, as its page shows it: its id, and the server it names)
    link = f"http://127.0.0.1:{server_process.port}/replay/{gid}"
    own = start(terminals, server_process, config, "challenge", "--replay", link)
    own.wait_for(LINK.format(port=server_process.port))
    own.wait_for(r"Your challenge: ann's game of The Gate \(a solo game\): resigned")
    assert own.exit_code() == 0
    assert "your own game" not in own.text
    done.set()
    holder.join(20)
    # one's own replay only shown: looked at beside ann's connection, which it had
    # signed out (as `challenge ID` of one's own had, before it looked beside)
    assert "signed_out" not in told, told
    # another player, signed in before, races it at once: looked at beside, then
    # signed in in place to race, with no question asked
    bob_config = tmp_path / "bob"
    bob = start(terminals, server_process, bob_config, "play", "gate")
    register(bob, "bob")
    bob.wait_for(LEGAL)
    bob.type("q", enter=False)
    assert bob.exit_code() == 0
    racer = start(terminals, server_process, bob_config, "challenge", "--replay", link)
    racer.wait_for(r"The Gate · challenge vs ann")
    racer.wait_for(LEGAL, timeout=15)
    assert "Press Enter to race" not in racer.text
    racer.type("resign")
    racer.wait_for(r"Resign\?")
    racer.type("y")
    racer.wait_for(r"ann's ghost")
    racer.type("q")
    assert racer.exit_code() == 0
