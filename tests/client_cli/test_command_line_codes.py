"""Exit status 2 for a command line that is wrong, known before a server is asked
(docs/client.md): an outside tester found these exit 1, as a refusal or an unreachable
server would, and ``--server ftp://x`` told to check the server is running. No server
runs here: a command that asked one would say it cannot reach it."""

from __future__ import annotations

from pathlib import Path

import pytest

from client_cli.config import Account, TokenStore

from .test_top_last_daily import client

#: nothing listens there: asked, a command says it cannot reach it (exit 1)
NOWHERE = "ws://127.0.0.1:9"


def said(done: object) -> str:
    return " ".join(getattr(done, "stderr", "").split())


def test_a_board_too_long_to_send_is_a_wrong_command_line(tmp_path: Path) -> None:
    done = client(NOWHERE, tmp_path, "top", "x" * 300)
    assert done.returncode == 2, done.stderr
    assert "too long: a board's id is at most 64 characters" in said(done), done.stderr
    assert "cannot reach" not in said(done)


@pytest.mark.parametrize("code", ["zzzz", "", "k7qx 3mhd 9"])
def test_what_is_no_link_code_is_a_wrong_command_line(tmp_path: Path, code: str) -> None:
    done = client(NOWHERE, tmp_path, "link", code)
    assert done.returncode == 2, done.stderr
    assert f"{code!r} is not a link code: 8 letters and digits" in said(done), done.stderr


def test_no_link_code_is_said_before_a_saved_token_is(tmp_path: Path) -> None:
    """With a token saved, ``link zzzz`` said linking "would replace its token, add
    --replace": the code's form first."""
    TokenStore(tmp_path / "patience-race").put(NOWHERE, Account("ann", "t" * 32))
    done = client(NOWHERE, tmp_path, "link", "zzzz")
    assert done.returncode == 2, done.stderr
    assert "'zzzz' is not a link code" in said(done) and "replace" not in said(done)


@pytest.mark.parametrize("url", ["ftp://x", "ws://", "wss://:8765", "ws://h:port"])
def test_a_server_url_that_is_none_is_a_wrong_command_line(tmp_path: Path, url: str) -> None:
    for args in (["me"], ["top"], ["play", "gate"]):
        done = client(NOWHERE, tmp_path, *args, "--server", url)
        assert done.returncode == 2, (args, done.stderr)
        assert f"--server {url!r} is not a ws:// or wss:// URL with a host" in said(done)
        assert "Is it running?" not in said(done), done.stderr
    done = client(url, tmp_path, "games")  # ($PATIENCE_SERVER's, said as such)
    assert done.returncode == 2, done.stderr
    assert f"$PATIENCE_SERVER {url!r} is not a ws:// or wss:// URL" in said(done)


#: the client's documentation, whose exit codes these are
DOC = Path(__file__).resolve().parents[2] / "docs" / "client.md"


def test_playing_with_no_terminal_exits_2_as_the_docs_say(tmp_path: Path) -> None:
    """``play GAME`` through a pipe exits 2, "playing needs a terminal": a command line
    that cannot work, which the docs' exit codes did not list. And ``-h`` exits 0 (the
    docs read as if it exited 2, as the command alone does)."""
    done = client(NOWHERE, tmp_path, "play", "gate")
    assert done.returncode == 2 and "playing needs a terminal" in said(done), done.stderr
    assert client(NOWHERE, tmp_path, "-h").returncode == 0
    assert client(NOWHERE, tmp_path).returncode == 2
    doc = DOC.read_text(encoding="utf-8")
    codes = " ".join(doc[doc.index("## Commands") : doc.index("```sh")].split())
    assert "`playing needs a terminal`" in codes, codes
    assert "`patience-race -h` lists them (exit status 0)" in codes, codes
