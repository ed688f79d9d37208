"""One player on two terminals, end to end: the real client in pseudo-terminals against a
real server and Redis. ``link`` shows a code, ``link CODE`` signs another terminal in as
the same player, ``devices`` lists them and signs one out; a terminal taken over says in
words where the player went. A one-shot command signs in beside the player's game, which
goes on."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from tests.app.client import player
from tests.app.conftest import ServerProcess

from .terminal import Terminal
from .test_terminal import GATE_1234, register, start


def test_a_code_links_a_second_terminal_and_the_game_in_the_first_goes_on(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    desk, laptop = tmp_path / "desk", tmp_path / "laptop"
    playing = start(terminals, server_process, desk, "play", "gate", "--seed", "1234")
    register(playing, "ann")
    playing.wait_for(GATE_1234)

    shown = start(terminals, server_process, desk, "link")
    code = shown.wait_for(r"Your link code: ([2-9A-Z]{4}-[2-9A-Z]{4}) \(for 5 minutes, once\)")[1]
    assert shown.exit_code() == 0
    # where a browser takes it (its name form: the home screen only shows codes), and
    # the command as it works pasted (--server: this is not the default server)
    said = " ".join(shown.text.split())
    assert "on the name form, 'Have a link code?'" in said, said
    assert f"patience-race link {code} --server {server_process.url}" in said, said
    # the command signed in beside the game in the first terminal (hello's side), which
    # goes on: its next move is played
    playing.type("b4>t3")
    playing.wait_for(r"moves 1")
    assert "Signed in again" not in playing.text and "has stopped" not in playing.text

    # the laptop plays as nobody yet: the code signs it in as ann, typed as it is read
    # out, in two words (unquoted: "link 9chk jyyj" was refused, unrecognized arguments)
    linked = start(terminals, server_process, laptop, "link", *code.lower().split("-"))
    linked.wait_for(r"This terminal now plays as ann on ws://")
    assert linked.exit_code() == 0
    # the code was entered beside the game (link's side), which goes on: it was thrown
    # out ("signed in on another device") by a command that had saved a token and quit
    playing.settle()
    assert "has stopped" not in playing.text and "another device" not in playing.text
    again = start(terminals, server_process, laptop, "link", code)
    again.wait_for(r"already plays as ann on [\s\S]*add --replace")
    assert again.exit_code() == 1

    listing = start(terminals, server_process, laptop, "devices")
    listing.wait_for(r"Your devices on \S+: 2 \(times in UTC\)")
    listing.wait_for(r"Sign one out")
    rows = re.findall(
        r"^\s*([0-9a-f]{8})\s+terminal on \S+.*?(this one|playing now)?$", listing.text, re.M
    )
    # (the desk's game goes on: its device holds ann's connection)
    assert [this for _id, this in rows] == ["playing now", "this one"], listing.text
    # when each was added (the day) and last seen (the date and the time, as the browser
    # gives them)
    day = r"\d{4}-\d\d-\d\d"
    assert len(re.findall(rf"{day}\s+{day} \d\d:\d\d", listing.text)) == 2, listing.text
    assert listing.exit_code() == 0

    out = start(terminals, server_process, laptop, "devices", "sign-out", rows[0][0])
    out.wait_for(rf"Signed out {rows[0][0]}: its token no longer signs in")
    # the desk's game stops as the laptop signs its device out, and stays stopped: a
    # move typed then says so (it said to "wait for the reconnection", which never comes)
    playing.wait_for(r"This terminal has stopped; q\s+quits")
    playing.type("b1>b2")
    playing.wait_for(r"Nothing was sent: this terminal has stopped \(signed out\); q\s+quits")
    assert "reconnection" not in playing.text
    out.wait_for(r"Your devices on \S+: 1")
    assert out.exit_code() == 0
    refused = start(terminals, server_process, desk, "devices")
    # (the second terminal on this machine is numbered: "terminal on vm 2")
    refused.wait_for(r"this device was signed out from terminal on \S+ 2 on \d{4}-\d\d-\d\d")
    assert refused.exit_code() == 1
    # the dead token is forgotten: the desk links again without --replace
    code = start(terminals, server_process, laptop, "link").wait_for(r"code: (\S+) ")[1]
    relinked = start(terminals, server_process, desk, "link", code)
    relinked.wait_for(r"This terminal now plays as ann")
    assert relinked.exit_code() == 0


def test_bad_codes_are_refused_in_words(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    malformed = start(terminals, server_process, tmp_path, "link", "ABCD-EFG1")
    malformed.wait_for(r"'ABCD-EFG1' is not a link code")
    assert malformed.exit_code() == 1
    # a link, or anything long that is no key: in words (it said "field 'code' is longer
    # than 16")
    long = start(terminals, server_process, tmp_path, "link", "http://127.0.0.1:9132/play")
    assert long.exit_code() == 2 and "longer than" not in long.text  # (known here)
    said = " ".join(long.text.split())  # (wrapped between words)
    assert "is not a link code: 8 letters and digits like ABCD-EFGH, nor a recovery" in said
    unknown = start(terminals, server_process, tmp_path, "link", "2222-3333")
    unknown.wait_for(r"no link code 2222-3333: it may have been used or have expired")
    assert unknown.exit_code() == 1
    assert not (tmp_path / "patience-race" / "tokens.json").exists()
    usage = start(terminals, server_process, tmp_path, "devices", "sign-out")
    usage.wait_for(r"devices sign-out ID, or devices sign-out --everywhere")
    assert usage.exit_code() == 2


def test_a_browsers_recovery_key_signs_a_terminal_in(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """The browser's recovery key (its token) signs a terminal in as its player with
    ``link KEY``, as the browser's name form takes it (the terminal had no way to use
    one); a key that signs in no one is refused in words, and nothing is kept."""

    async def registered() -> str:
        client = await player(server_process.url, "kit")
        await client.close()
        assert client.token is not None
        return client.token

    key = asyncio.run(registered())
    terminal = tmp_path / "terminal"
    linked = start(terminals, server_process, terminal, "link", key)
    linked.wait_for(r"This terminal now plays as kit on ws://")
    assert linked.exit_code() == 0
    devices = start(terminals, server_process, terminal, "devices")
    devices.wait_for(r"Your devices on \S+: 1")  # (the key's device: one token, one device)
    assert devices.exit_code() == 0
    other = tmp_path / "other"
    wrong = start(terminals, server_process, other, "link", "A" * 32)
    wrong.wait_for(r"no player has this token")
    assert wrong.exit_code() == 1
    # a key may start with "-" (a token's alphabet has it): the server is asked, as with
    # any key (argparse took it for an option: "unrecognized arguments", a CI run's key)
    dashed = start(terminals, server_process, other, "link", "-wbDHr-FJUvqHODdnON7GGwDqR1swVcD")
    dashed.wait_for(r"no player has this token")
    assert dashed.exit_code() == 1
    assert not (other / "patience-race" / "tokens.json").exists()
