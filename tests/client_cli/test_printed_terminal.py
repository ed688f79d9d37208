"""The one-shot commands' printed commands, in a pseudo-terminal of 80 columns against a
real server that is not the default one: each carries ``--server URL`` (pasted without
it, it went to the default server, which offered to register a new name there), and
each is printed whole on one line, its bytes read as written (a line break inside one,
``... tokens.json. patience-race`` / ``devices lists your devices.``, is not joined by
``tmux capture-pane -J``), and last on its line, with nothing after it (copied whole,
``patience-race name NEW --server ws://... changes it.`` took the words after it as its
own). And ``unfollow NAME`` of a player not followed says so."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.app.client import signed_in
from tests.app.conftest import ServerProcess

from .terminal import Terminal
from .test_command_last import last_on_its_line
from .test_groups_terminal import accounts
from .test_name_terminal import registered


def run(terminals: list[Terminal], url: str, config: Path, *args: str) -> tuple[int, str]:
    """The exit status, and what was written (line ends as the terminal got them); every
    command of the server in it last on its line, where there is one."""
    terminal = Terminal(list(args), server=url, config=config)
    terminals.append(terminal)
    code = terminal.exit_code(timeout=30)
    out = terminal.output.decode("utf-8", "replace")
    if f"--server {url}" in out:
        last_on_its_line(out, url)
    return code, out


def whole(command: str, out: str) -> None:
    assert command in out, f"{command!r} not whole in {out!r}"


def test_commands_printed_carry_the_server_whole(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    url = server_process.url
    folders = accounts(url, tmp_path)  # (ann, bob and cat)
    ann = folders["ann"]

    code, out = run(terminals, url, ann, "league")
    assert code == 0, out
    whole(f"Join it: patience-race league --join --server {url}", out)

    code, out = run(terminals, url, ann, "name")
    assert code == 0, out
    whole(f"patience-race name NEW --server {url}", out)

    code, out = run(terminals, url, ann, "follow", "bob")
    assert code == 0, out
    whole(f"patience-race top GAME --friends --server {url}", out)
    # cat is a player ann does not follow: said, and nothing is wrong (0)
    code, out = run(terminals, url, ann, "unfollow", "cat")
    said = " ".join(out.split())
    assert code == 0 and "You did not follow cat." in said, said
    assert "You follow bob" in said
    code, out = run(terminals, url, ann, "unfollow", "bob")
    said = " ".join(out.split())
    assert code == 0 and "did not follow" not in said and "You follow nobody" in said, said
    whole(f"patience-race follow NAME --server {url}", out)
    code, out = run(terminals, url, ann, "unfollow", "nobody_here")
    assert code == 1 and "no player named 'nobody_here'" in out, out

    code, out = run(terminals, url, ann, "group")  # (in none yet)
    assert code == 0, out
    whole(f"patience-race group new NAME --server {url}", out)
    whole(f"patience-race group join LINK --server {url}", out)

    code, out = run(terminals, url, ann, "devices")
    assert code == 0, out
    whole(f"patience-race devices sign-out ID --server {url}", out)

    # a second terminal linked: its line names devices whole, on a line of its own
    made = Terminal(["link"], server=url, config=ann)
    terminals.append(made)
    code_of_link = made.wait_for(r"Your link code: (\S+) ")[1]
    assert made.exit_code() == 0
    code, out = run(terminals, url, tmp_path / "laptop", "link", code_of_link)
    assert code == 0, out
    whole(f"Your devices: patience-race devices --server {url}", out)
    code, out = run(terminals, url, ann, "games")
    assert code == 0 and f"Play one: patience-race play GAME --server {url}" in out, out
    code, out = run(terminals, url, ann, "group", "new", "Owls")
    assert code == 0, out
    code, out = run(terminals, url, ann, "group")  # (its list: a group, its boards)
    assert code == 0 and f"A group: patience-race group show GROUP --server {url}" in out, out


def test_a_members_challenge_in_group_show_is_printed_whole(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    url = server_process.url
    folder = tmp_path / "annD"
    token = registered(url, folder, "annD")

    async def made() -> str:
        ann = await signed_in(url, token)
        game = await ann.call("new_game", game="gate", seed=7)
        await ann.call("resign", game=game["game"])
        cid = (await ann.call("challenge_create", replay=game["game"]))["challenge"]["id"]
        await ann.call("group_create", name="friday club")
        await ann.close()
        return str(cid)

    cid = asyncio.run(made())
    command = f"patience-race challenge {cid} --server {url}"
    code, out = run(terminals, url, folder, "group", "show", "friday", "club")
    assert code == 0, out
    whole(command, out)
    code, out = run(terminals, url, folder, "challenges")
    assert code == 0, out
    whole(f"patience-race challenge ID --server {url}", out)
    watched = Terminal(["group", "show", "friday", "club", "--watch"], server=url, config=folder)
    terminals.append(watched)
    watched.wait_for(r"watching: redrawn as members come and go")
    assert command in watched.text, watched.text
    watched.type("\x03", enter=False)
    assert watched.exit_code() == 0
