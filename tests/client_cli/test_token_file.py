"""The tokens file when it is not as the client wrote it: hand-edited into something
that is not its JSON (a stray comma), or on a file system that refuses writing (read-only,
full). An outside tester lost a player's token, the only credential, and every other
server's with it: the file, read as empty, was written over by the next registration;
and a read-only directory gave tracebacks after the server had registered a name (its
token lost) or renamed one (once in 30 days).

Root is not stopped by a directory's mode (CI runs as root), so the file systems that
refuse here refuse root too: ``XDG_CONFIG_HOME`` below a regular file (no directory can be
made there), and a file size limit of 0 (``RLIMIT_FSIZE``: a write fails as on a full
disk)."""

from __future__ import annotations

import asyncio
import io
import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from client_cli import session
from client_cli.config import (
    DEFAULT_SERVER,
    Account,
    TokenStore,
    Unreadable,
    Unwritable,
)
from tests.app.client import signed_in
from tests.app.conftest import ServerProcess

from .terminal import CLIENT, Terminal, flat, unwrapped
from .test_name_terminal import registered

URL = "ws://127.0.0.1:19180"
TOKEN = "8vXw0qZ1y2aB3cD4eF5gH6iJ7kL8mN9o"

#: hand-edited files the client cannot read as its own, and what it says of each
GARBLED = {
    # the tester's: one stray comma after the entry
    "comma": (
        f'{{"servers": {{"{URL}": {{"name": "ann", "token": "{TOKEN}"}},}}}}\n',
        "it is not JSON: Expecting property name enclosed in double quotes, at line 1, column 99",
    ),
    "not json": ("ann " + TOKEN, "it is not JSON: Expecting value, at line 1, column 1"),
    "a list": ("[]", "it is not of the form"),
    "servers a list": ('{"servers": []}', 'its "servers" is not of the form'),
    "entry a string": (f'{{"servers": {{"{URL}": "{TOKEN}"}}}}', f"its entry for {URL} is not"),
    "entry without token": (
        f'{{"servers": {{"{URL}": {{"name": "ann", "tokn": "{TOKEN}"}}}}}}',
        f"its entry for {URL} is not",
    ),
}


@pytest.mark.parametrize("form", list(GARBLED))
def test_a_file_the_client_cannot_read_is_never_written_over(tmp_path: Path, form: str) -> None:
    text, said = GARBLED[form]
    store = TokenStore(tmp_path)
    store.path.write_text(text)
    with pytest.raises(Unreadable) as raised:
        store.get(URL)
    assert said in raised.value.words() and str(store.path) in raised.value.words()
    writes = [lambda: store.put(URL, Account("ann2", "t")), lambda: store.keep_name(URL, "x")]
    if not form.startswith("entry"):  # (the whole file: nothing at all is written)
        writes += [lambda: store.put("ws://elsewhere:1", Account("bob", "t")), store.check_writable]
    for write in writes:
        with pytest.raises(Unreadable):
            write()
        assert store.path.read_text() == text  # untouched
    assert [p.name for p in tmp_path.iterdir()] == ["tokens.json"]
    if form.startswith("entry"):  # another server's token is kept beside it; it, as it is
        store.put("ws://elsewhere:1", Account("bob", "t"))
        data = json.loads(store.path.read_text())["servers"]
        assert data[URL] == json.loads(text)["servers"][URL] and "ws://elsewhere:1" in data


def test_a_directory_where_the_file_should_be_is_said(tmp_path: Path) -> None:
    store = TokenStore(tmp_path)
    store.path.mkdir()
    with pytest.raises(Unreadable, match="it is a directory, not a file"):
        store.get(DEFAULT_SERVER)


def no_writing() -> None:
    """The process may write no byte into a file, root or not: as a full disk."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))


def client(
    url: str, config: Path, *args: str, full: bool = False
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATIENCE_SERVER": url, "XDG_CONFIG_HOME": str(config)}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return subprocess.run(
        [CLIENT, *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        preexec_fn=no_writing if full else None,
    )


def below_a_file(tmp_path: Path) -> Path:
    """An ``XDG_CONFIG_HOME`` where no directory can be made: its place is a file's."""
    (tmp_path / "a-file").write_text("not a directory\n")
    return tmp_path / "a-file" / "sub"


def test_the_check_before_registering_finds_a_full_disk(tmp_path: Path) -> None:
    """A size limit of 0 (a write fails as on a full disk): the check writes a file as
    big as the one it would write, so it is refused there, not only where no file can be
    made."""
    store = TokenStore(tmp_path / "patience-race")
    code = (
        "import resource, sys\n"
        "from pathlib import Path\n"
        "from client_cli.config import TokenStore, Unwritable\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))\n"
        f"store = TokenStore(Path({str(store.directory)!r}))\n"
        "try:\n"
        "    store.check_writable()\n"
        "except Unwritable as exc:\n"
        "    print(exc.reason)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.stdout.strip() == "File too large", done.stderr
    assert list(store.directory.iterdir()) == []  # (its trial file taken away)
    with pytest.raises(Unwritable, match="Not a directory"):
        TokenStore(below_a_file(tmp_path) / "patience-race").check_writable()


def test_me_and_play_refuse_a_file_with_a_stray_comma_and_keep_it(
    server_process: ServerProcess, tmp_path: Path
) -> None:
    """The tester's case: ``me`` said no token was saved, ``play`` then asked for a name
    and, registered, wrote the file over: ann's token and another server's were gone."""
    url = server_process.url
    token = registered(url, tmp_path, "ann")
    path = tmp_path / "patience-race" / "tokens.json"
    text = (
        f'{{"servers": {{"{url}": {{"name": "ann", "token": "{token}"}},\n'
        f'  "ws://race.example": {{"name": "ann2", "token": "{TOKEN}"}},}}}}\n'
    )
    path.write_text(text)
    done = client(url, tmp_path, "me")
    said = " ".join(done.stderr.split())
    assert done.returncode == 1, done.stderr
    assert f"the token file {path} cannot be read (it is not JSON: " in said
    assert "at line 2, column" in said and "Mend it" in said
    assert f"move it aside to start afresh: mv {path} {path}.old" in said
    assert "Traceback" not in done.stderr
    terminal = Terminal(["play", "gate"], server=url, config=tmp_path)
    try:
        terminal.wait_for(r"cannot be read \(it is not JSON")
        assert terminal.exit_code() == 1
        assert "name:" not in terminal.text  # (no name asked: nothing registered)
    finally:
        terminal.close()
    assert path.read_text() == text


def test_play_where_the_token_cannot_be_kept_registers_nothing(
    server_process: ServerProcess, tmp_path: Path
) -> None:
    """A token file that cannot be written: said before a name is asked for, and nothing
    registered (the name was taken, then a traceback, and the token lost)."""
    url = server_process.url
    config = below_a_file(tmp_path)
    terminal = Terminal(["play", "gate"], server=url, config=config)
    try:
        terminal.wait_for(r"cannot be\s+written")
        assert terminal.exit_code() == 1
        screen = flat(terminal.text)
    finally:
        terminal.close()
    path = config / "patience-race" / "tokens.json"
    # (the path is wider than a line: the terminal folds it)
    assert unwrapped(f"The token file {path} cannot be written (Not a directory)") in unwrapped(
        screen
    )
    assert "nothing is registered" in screen and "Traceback" not in screen
    assert "name:" not in screen


def test_link_where_the_token_cannot_be_kept_spends_no_code(
    server_process: ServerProcess, tmp_path: Path
) -> None:
    url = server_process.url
    token = registered(url, tmp_path / "ann", "ann")

    async def code() -> str:
        ann = await signed_in(url, token, side=True)
        made = await ann.call("link_code")
        await ann.close()
        return str(made["code"])

    made = asyncio.run(code())
    done = client(url, below_a_file(tmp_path), "link", made)
    said = " ".join(done.stderr.split())
    assert done.returncode == 1, done.stderr
    assert "cannot be written (Not a directory)" in said and "Traceback" not in said
    assert "the code is not used" in said
    done = client(url, tmp_path / "elsewhere", "link", made)  # (still good)
    assert done.returncode == 0, done.stderr
    assert "This terminal now plays as ann" in " ".join(done.stdout.split())


def test_a_rename_where_the_file_cannot_be_written_is_said_and_not_fatal(
    server_process: ServerProcess, tmp_path: Path
) -> None:
    """With a file that can be read and not written: the rename done on the server is
    said, and that the file still has the old name; later the saved name, not the
    server's, stopped ``name`` and ``play`` with a traceback."""
    url = server_process.url
    registered(url, tmp_path, "ann")
    done = client(url, tmp_path, "name", "Annika", full=True)
    said = " ".join(done.stdout.split()) + " ".join(done.stderr.split())
    assert done.returncode == 0, done.stderr
    assert "You race as Annika now (was ann)." in said and "Traceback" not in said
    path = tmp_path / "patience-race" / "tokens.json"
    assert f"The token file {path} cannot be written (File too large): it still says ann" in said
    done = client(url, tmp_path, "name", full=True)
    assert done.returncode == 0, done.stderr
    assert "You race as Annika on" in done.stdout and "Traceback" not in done.stderr
    terminal = Terminal(["play", "gate"], server=url, config=tmp_path, preexec=no_writing)
    try:
        terminal.wait_for("legal:", timeout=20)
        terminal.type("q")
        assert terminal.exit_code() == 0
        assert "Traceback" not in terminal.text
    finally:
        terminal.close()
    # writable again: the name is taken in
    assert client(url, tmp_path, "name").returncode == 0
    assert TokenStore(tmp_path / "patience-race").get(url) is not None
    assert json.loads(path.read_text())["servers"][url]["name"] == "Annika"


class Registering:
    """A connection that registers any name: its token given."""

    url = URL
    token: str | None = None

    async def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        assert kind == "register"
        return {"player": {"name": fields["name"]}, "token": TOKEN}


def test_a_token_given_and_not_kept_is_shown_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file written after the check said it could be (filled meanwhile): the token
    shown once, where it is to be kept and how to save it later, never a traceback."""
    store = TokenStore(tmp_path / "patience-race")

    def fails(data: dict[str, Any]) -> None:
        raise Unwritable(store.path, "No space left on device")

    async def ask(question: str, words: list[str] | None = None) -> str:
        return "zed"

    monkeypatch.setattr(store, "_write", fails)
    monkeypatch.setattr(session, "ask", ask)
    out = io.StringIO()
    console = Console(file=out, width=80, highlight=False)
    assert asyncio.run(session.register(Registering(), console, store)) is None  # type: ignore[arg-type]
    said = " ".join(out.getvalue().split())
    assert f"Registered as zed, but the token file {store.path} cannot be written" in said
    assert f"Your token, shown this once: {TOKEN}" in said
    assert f"this saves it: patience-race link --server {URL} -- {TOKEN}" in said
