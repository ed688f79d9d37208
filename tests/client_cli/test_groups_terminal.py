"""``patience-race group ...`` in a pseudo-terminal, against a real server and Redis: ann
makes a group, bob joins it from the link ann's screen shows, and the group's boards show
its members only (not cat, who played the same daily)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from client_cli.config import Account, TokenStore
from client_cli.groups import parse_link
from tests.app.client import player, signed_in
from tests.app.conftest import ServerProcess

from .terminal import Terminal
from .test_name_terminal import registered


def accounts(url: str, root: Path) -> dict[str, Path]:
    """ann, bob and cat, each with a config folder of their own holding their token;
    all three have played today's Nestor daily (resigned at once)."""

    async def go() -> dict[str, Path]:
        folders = {}
        for name in ("ann", "bob", "cat"):
            client = await player(url, name)
            await client.call("daily", game="nestor")
            await client.call("resign")
            assert client.token is not None
            folders[name] = root / name
            TokenStore(folders[name] / "patience-race").put(url, Account(name, client.token))
            await client.close()
        return folders

    return asyncio.run(go())


def run(terminals: list[Terminal], url: str, config: Path, *args: str) -> Terminal:
    terminal = Terminal(list(args), server=url, config=config, cols=100, rows=40)
    terminals.append(terminal)
    return terminal


def test_a_group_made_joined_by_its_link_and_its_boards_in_the_terminal(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    url = server_process.url
    config = accounts(url, tmp_path)
    made = run(terminals, url, config["ann"], "group", "new", "Friday", "Club")
    made.wait_for(r"Friday Club · 1 member · 1 online")
    link = made.wait_for(r"Link to join: (http://\S+)")[1]
    assert made.exit_code() == 0
    assert parse_link(link) is not None

    joined = run(terminals, url, config["bob"], "group", "join", link)
    joined.wait_for(r"Friday Club · 2 members")
    assert joined.exit_code() == 0
    assert re.search(r"ann\s+owner", joined.text) and "bob" in joined.text

    # the group's day board: ann and bob, not cat
    board = run(terminals, url, config["bob"], "top", "nestor", "--group", "friday club")
    board.wait_for(r"Among the 2 members of Friday Club")
    assert board.exit_code() == 0
    shown = board.text
    assert "ann" in shown and "bob" in shown and "cat" not in shown
    # Nestor takes cards off in pairs: counted as pairs, as top nestor counts them (the
    # group's board showed cards, 0/52, its reply having no unit)
    assert re.search(r"ann\s+0/26 pairs", shown) and "/52" not in shown, shown
    # the name of two words unquoted after --group too, as group top takes it (it was
    # "error: unrecognized arguments: club")
    unquoted = run(terminals, url, config["bob"], "top", "nestor", "--group", "friday", "club")
    unquoted.wait_for(r"Among the 2 members of Friday Club")
    assert unquoted.exit_code() == 0
    assert re.search(r"ann\s+0/26 pairs", unquoted.text), unquoted.text
    group_top = run(terminals, url, config["ann"], "group", "top", "friday", "club", "nestor")
    group_top.wait_for(r"Among the 2 members of Friday Club")
    assert group_top.exit_code() == 0
    assert re.search(r"bob\s+0/26 pairs", group_top.text), group_top.text
    week = run(terminals, url, config["ann"], "group", "top", "Friday Club", "week/nestor")
    week.wait_for(r"Nestor: the week's dailies")
    assert week.exit_code() == 0
    assert "cat" not in week.text and re.search(r"\bann\b.*\b1\b", week.text)
    # a name of two words unquoted, as group new took it (it read 'friday' as an id)
    named = run(terminals, url, config["ann"], "group", "show", "Friday", "Club")
    named.wait_for(r"Friday Club · 2 members")
    assert named.exit_code() == 0
    top = run(terminals, url, config["ann"], "group", "top", "friday", "club", "week/nestor")
    top.wait_for(r"Nestor: the week's dailies")
    assert top.exit_code() == 0

    # cat with a mistyped link is told so, and is in no group
    # (its last letter changed: to one it is not, or one link in 64 was its own)
    mistyped = link[:-1] + ("R" if link.endswith("Q") else "Q")
    bad = run(terminals, url, config["cat"], "group", "join", mistyped)
    bad.wait_for(r"that link is not this group's: ask for a new one")
    assert bad.exit_code() == 1
    listed = run(terminals, url, config["cat"], "group")
    listed.wait_for(r"You are in no group")
    assert listed.exit_code() == 0


def test_group_show_watched_from_the_terminal(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """``group show GROUP --watch`` redraws the group as members come online and go."""
    url = server_process.url

    async def made() -> tuple[str, str, Path]:
        eve = await player(url, "eve")
        folder = tmp_path / "eve"
        assert eve.token is not None
        TokenStore(folder / "patience-race").put(url, Account("eve", eve.token))
        group = (await eve.call("group_create", name="Owls"))["group"]
        fay = await player(url, "fay")
        await fay.call("group_join", group=group["id"], key=group["key"])
        token = fay.token or ""
        await fay.close()
        await eve.close()
        return group["id"], token, folder

    gid, fay_token, folder = asyncio.run(made())
    watching = run(terminals, url, folder, "group", "show", gid, "--watch")
    watching.wait_for(r"watching: redrawn as members come and go")
    watching.wait_for(r"Owls · 2 members · 1 online")

    async def fay_visits() -> None:
        fay = await signed_in(url, fay_token)
        watching.wait_for(r"Owls · 2 members · 2 online", timeout=15)
        await fay.close()

    asyncio.run(fay_visits())
    watching.wait_for(r"Owls · 2 members · 1 online", timeout=15)
    watching.type("\x03", enter=False)
    assert watching.exit_code() == 0

    # the group deleted (by eve, from another connection) while watched: said, and over
    again = run(terminals, url, folder, "group", "show", gid, "--watch")
    again.wait_for(r"Owls · 2 members")
    token = TokenStore(folder / "patience-race").get(url)
    assert token is not None

    async def deleted() -> None:
        eve = await signed_in(url, token.token)
        await eve.call("group_delete", group=gid)
        await eve.close()

    asyncio.run(deleted())
    again.wait_for(r"You deleted Owls \(on another connection\)\.", timeout=15)  # (its owner)
    assert again.exit_code() == 0
    wrong = run(terminals, url, folder, "group", "--watch")
    wrong.wait_for(r"--watch goes with group show GROUP")
    assert wrong.exit_code() == 2


def test_a_group_name_mistyped_or_missing_is_said_in_words(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """A name that is none of the player's groups is quoted whole (it quoted its first
    word as "not a group's id"); a group's board counts one member as one; GROUP left out
    says what to give."""
    url = server_process.url
    folders = accounts(url, tmp_path)
    made = run(terminals, url, folders["ann"], "group", "new", "Weekend", "Crew")
    made.wait_for(r"Weekend Crew")
    assert made.exit_code() == 0
    typo = run(terminals, url, folders["ann"], "group", "show", "weekend", "crw")
    typo.wait_for(r"no group of yours is called 'weekend crw': patience-race group lists")
    assert typo.exit_code() == 1  # (the server's list said so: 2 is for a wrong command line)
    board = run(terminals, url, folders["ann"], "group", "top", "weekend", "crew", "best/gate")
    board.wait_for(r"Among the 1 member of Weekend Crew")
    assert board.exit_code() == 0
    left = run(terminals, url, folders["ann"], "group", "delete", "weekend", "crew")
    left.wait_for(r"You deleted Weekend Crew\.")
    assert left.exit_code() == 0
    bare = run(terminals, url, folders["ann"], "group", "show")
    bare.wait_for(r"group show needs GROUP: a group's id or name \(patience-race group lists")
    assert bare.exit_code() == 2


def test_leaving_says_who_owns_the_group_now_and_its_board_is_the_weeks_dailies(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """The owner leaving is told whom the group passed to (it said only "You left
    Friday Club."); a group's board with none named is the first game's week board, as
    the browser's group screen shows first (it was races/week here)."""
    url = server_process.url
    folders = accounts(url, tmp_path)
    made = run(terminals, url, folders["ann"], "group", "new", "Friday", "Club")
    link = made.wait_for(r"Link to join: (http://\S+)")[1]
    assert made.exit_code() == 0
    for name in ("bob", "cat"):
        joined = run(terminals, url, folders[name], "group", "join", link)
        joined.wait_for(r"Friday Club · \d members")
        assert joined.exit_code() == 0

    board = run(terminals, url, folders["bob"], "group", "top", "Friday", "Club")
    board.wait_for(r"The Gate: the week's dailies, \d{4}-W\d\d")
    assert board.exit_code() == 0
    also = run(terminals, url, folders["bob"], "top", "--group", "Friday Club")
    also.wait_for(r"The Gate: the week's dailies, \d{4}-W\d\d")
    assert also.exit_code() == 0

    cat_left = run(terminals, url, folders["cat"], "group", "leave", "Friday", "Club")
    cat_left.wait_for(r"You left Friday Club; ann owns it now\.")
    assert cat_left.exit_code() == 0
    ann_left = run(terminals, url, folders["ann"], "group", "leave", "Friday", "Club")
    ann_left.wait_for(r"You left Friday Club; bob owns it now\.")
    assert ann_left.exit_code() == 0
    last = run(terminals, url, folders["bob"], "group", "leave", "Friday", "Club")
    last.wait_for(r"You left Friday Club; you were its last member, so it is gone\.")
    assert last.exit_code() == 0


def test_a_group_board_none_of_its_members_is_on_says_so(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """A board among a group's members with none of them on it said "Nobody is on this
    board yet.", of a board others may well be on."""
    url = server_process.url
    config = tmp_path / "ann"
    registered(url, config, "ann")
    made = run(terminals, url, config, "group", "new", "Solo", "Club")
    made.wait_for(r"Solo Club · 1 member")
    assert made.exit_code() == 0
    board = run(terminals, url, config, "top", "races/week", "--group", "solo club")
    board.wait_for(r"Among the 1 member of Solo Club")
    assert board.exit_code() == 0
    said = " ".join(board.text.split())
    assert "None of the group's members is on this board yet." in said, board.text
    assert "Nobody" not in said, board.text


def test_a_name_two_of_ones_groups_share_names_neither(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """Probe Z1, fault 1: ann is in two groups called Probe Club (names need not be
    unique); ``group leave probe club`` left, and so deleted, whichever came first in the
    list. A name two of one's groups answer to is refused by every command taking GROUP
    (stderr, exit 1, nothing changed), the matches listed with their ids; an id works."""
    url = server_process.url
    folder = tmp_path / "ann"

    async def made() -> tuple[str, str, str]:
        ann = await player(url, "ann")
        assert ann.token is not None
        TokenStore(folder / "patience-race").put(url, Account("ann", ann.token))
        big = (await ann.call("group_create", name="Probe Club"))["group"]
        bob = await player(url, "bob")
        await bob.call("group_join", group=big["id"], key=big["key"])
        await bob.close()
        small = (await ann.call("group_create", name="Probe Club"))["group"]
        await ann.close()
        return big["id"], small["id"], ann.token

    big, small, token = asyncio.run(made())
    said = r"2 of your groups are called Probe Club: give its id \((\w+): (\d) members?,\s+(\w+)"
    for args in (
        ("group", "leave", "probe", "club"),
        ("group", "delete", "Probe Club"),
        ("group", "show", "probe", "club"),
        ("group", "show", "probe", "club", "--watch"),
        ("group", "link", "probe", "club"),
        ("group", "remove", "probe", "club", "bob"),
        ("group", "top", "probe", "club", "gate"),
        ("top", "gate", "--group", "probe", "club"),
    ):
        refused = run(terminals, url, folder, *args)
        found = refused.wait_for(said)
        assert {found[1], found[3]} == {big, small}, refused.text
        words = " ".join(refused.text.split())
        assert f"{big}: 2 members" in words and f"{small}: 1 member" in words, words
        assert refused.exit_code() == 1, args

    async def left() -> list[str]:
        ann = await signed_in(url, token)
        listed = (await ann.call("groups"))["groups"]
        await ann.close()
        return sorted(g["id"] for g in listed)

    assert asyncio.run(left()) == sorted([big, small])  # (nothing changed)
    by_id = run(terminals, url, folder, "group", "show", small)
    by_id.wait_for(r"Probe Club · 1 member · ")
    assert by_id.exit_code() == 0


def test_top_group_refusals_say_the_option_and_what_to_type(
    server_process: ServerProcess, tmp_path: Path
) -> None:
    """Probe Z1, fault 5: ``top gate --day yesterday --group probe club`` (and with
    ``--around-me``, ``--watch``) said only "top --group shows the board among the
    group": now which option is refused, and what to type instead."""
    url = server_process.url
    folder = tmp_path / "ann"
    registered(url, folder, "ann")

    def said(*args: str) -> tuple[int, str]:
        terminal = Terminal(list(args), server=url, config=folder, cols=200, rows=20)
        try:
            return terminal.exit_code(timeout=30), " ".join(terminal.text.split())
        finally:
            terminal.close()

    code, text = said("top", "gate", "--day", "2026-11-29", "--group", "probe", "club")
    assert code == 2, text
    assert (
        "top --group takes no --day: for a past day's board type: patience-race group top" in text
    )
    assert f"group top 'probe club' daily/gate/2026-11-29 --server {url}" in text, text
    code, text = said("top", "gate", "--around-me", "--group", "probe", "club")
    assert code == 2 and "top --group takes no --around-me" in text, text
    assert f"patience-race top gate --around-me --server {url}" in text, text
    assert f"patience-race group top 'probe club' gate --server {url}" in text, text
    code, text = said("top", "gate", "--watch", "--group", "probe", "club")
    assert code == 2 and "top --group takes no --watch" in text, text
    assert f"patience-race top gate --watch --server {url}" in text, text
    code, text = said("top", "--friends", "--group", "probe", "club")
    assert code == 2 and "top --group takes no --friends" in text, text
    # every command ends where its line does: a bracket or a comma after one went
    # with the server's address when it was copied whole
    for option in ("--around-me", "--watch", "--friends"):
        terminal = Terminal(
            ["top", "gate", option, "--group", "probe"],
            server=url,
            config=folder,
            cols=200,
            rows=20,
        )
        try:
            assert terminal.exit_code(timeout=30) == 2
            lines = terminal.text.splitlines()
        finally:
            terminal.close()
        ends = [line.rstrip()[-1] for line in lines if "--server ws://" in line]
        assert ends and all(end.isdigit() for end in ends), lines


def test_a_big_group_watched_in_a_small_terminal(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """Probe Z1, fault 2, on a real screen: a group of 12 watched in a terminal of 14
    rows shows the member who comes online (the last to join), how many are not shown,
    and the watching line at its foot."""
    url = server_process.url
    folder = tmp_path / "eve"

    async def made() -> tuple[str, str]:
        eve = await player(url, "eve")
        assert eve.token is not None
        TokenStore(folder / "patience-race").put(url, Account("eve", eve.token))
        group = (await eve.call("group_create", name="Owls"))["group"]
        token = ""
        for n in range(11):
            other = await player(url, f"owl{n:02d}")
            await other.call("group_join", group=group["id"], key=group["key"])
            token = other.token or ""
            await other.close()
        await eve.close()
        return group["id"], token

    gid, last = asyncio.run(made())
    watching = Terminal(["group", "show", gid, "--watch"], server=url, config=folder, rows=14)
    terminals.append(watching)
    watching.wait_for(r"Owls · 12 members · 1 online")
    watching.wait_for(r"watching: redrawn as members come and go")
    assert "owl10" not in watching.text

    async def visits() -> None:
        owl = await signed_in(url, last)
        watching.wait_for(r"Owls · 12 members · 2 online", timeout=15)
        watching.settle()
        await owl.close()

    asyncio.run(visits())
    text = watching.text
    assert re.search(r"owl10\s+online", text), text
    assert re.search(r"and \d+ more offline", text) and "watching: redrawn" in text, text
    watching.type("\x03", enter=False)
    assert watching.exit_code() == 0
