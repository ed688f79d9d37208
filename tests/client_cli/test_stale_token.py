"""A saved token the server does not know (its data was reset, or the token came from
another server on the same address): a command that signs in says so and what to do
next, as ``play`` does by asking for a name again. The real client, its output a pipe,
against a real server and Redis."""

from __future__ import annotations

from pathlib import Path

from client_cli.config import Account, TokenStore
from tests.app.conftest import ServerProcess

from .test_top_last_daily import client


def test_a_command_that_signs_in_with_an_unknown_token_says_what_to_do(
    server_process: ServerProcess, tmp_path: Path
) -> None:
    url = server_process.url
    TokenStore(tmp_path / "patience-race").put(url, Account("bob", "x" * 32))
    for args in (["group"], ["challenges"], ["top", "gate", "--around-me"], ["devices"]):
        done = client(url, tmp_path, *args)
        assert done.returncode == 1, (args, done.stderr)
        assert done.stderr == (
            f"patience-race: {url} does not know the saved token for bob (was its data "
            f"reset?). Play once to register again (or daily): patience-race play --server {url}\n"
        ), args


def test_a_command_that_signs_in_with_no_token_says_how_to_get_one(
    server_process: ServerProcess, tmp_path: Path
) -> None:
    """No token saved for the server: register, or, for one who has a name already (a
    device signed out, a new terminal), a link code (it said only to register, and the
    name prompt then refused their own name as taken)."""
    done = client(server_process.url, tmp_path, "devices")
    assert done.returncode == 1
    said = " ".join(done.stderr.split())
    # (with the server it is on: pasted, the commands went to the default server)
    url = server_process.url
    assert f"play once to register (or daily): patience-race play --server {url}" in said
    assert f"from a device signed in: patience-race link CODE --server {url}" in said
