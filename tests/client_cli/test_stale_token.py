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
            "reset?): play once to register again (patience-race play, or daily)\n"
        ), args
