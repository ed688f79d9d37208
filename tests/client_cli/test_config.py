"""The token file: XDG config directory, 0600, one account per server."""

from __future__ import annotations

import json
import stat
from pathlib import Path

from client_cli.config import (
    DEFAULT_SERVER,
    Account,
    TokenStore,
    config_dir,
    normalize_server,
    pick_server,
)


def test_config_dir_follows_xdg(tmp_path: Path) -> None:
    assert config_dir({"XDG_CONFIG_HOME": str(tmp_path)}) == tmp_path / "patience-race"
    assert config_dir({}) == Path.home() / ".config" / "patience-race"
    assert config_dir({"XDG_CONFIG_HOME": "relative"}) == Path.home() / ".config/patience-race"


def test_tokens_are_kept_per_server_and_private(tmp_path: Path) -> None:
    store = TokenStore(tmp_path / "patience-race")
    assert store.get(DEFAULT_SERVER) is None
    store.put(DEFAULT_SERVER, Account("ann", "t1"))
    store.put("ws://race.example:9000/", Account("ann2", "t2"))
    assert store.get("ws://127.0.0.1:8765/") == Account("ann", "t1")
    assert store.get("race.example:9000") == Account("ann2", "t2")
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(store.directory.stat().st_mode) == 0o700
    data = json.loads(store.path.read_text())
    assert set(data["servers"]) == {"ws://127.0.0.1:8765", "ws://race.example:9000"}
    store.forget(DEFAULT_SERVER)
    assert store.get(DEFAULT_SERVER) is None and store.get("race.example:9000") is not None
    assert [p.name for p in store.directory.iterdir()] == ["tokens.json"]  # no temp files


def test_no_file_an_empty_one_or_one_below_a_file_is_no_account(tmp_path: Path) -> None:
    """Nothing is lost by writing where there is no file, or an empty one: no account."""
    store = TokenStore(tmp_path / "patience-race")
    assert store.get(DEFAULT_SERVER) is None
    store.directory.mkdir()
    store.path.write_text("  \n")
    assert store.get(DEFAULT_SERVER) is None
    store.put(DEFAULT_SERVER, Account("ann", "t"))
    assert store.get(DEFAULT_SERVER) == Account("ann", "t")
    (tmp_path / "file").write_text("x")  # (XDG_CONFIG_HOME below a file: no tokens there)
    assert TokenStore(tmp_path / "file" / "patience-race").get(DEFAULT_SERVER) is None


def test_another_servers_odd_entry_is_kept_as_it_is(tmp_path: Path) -> None:
    store = TokenStore(tmp_path)
    store.path.write_text('{"servers": {"ws://other:1": "hand-written"}, "mine": 1}')
    store.put(DEFAULT_SERVER, Account("ann", "t"))
    data = json.loads(store.path.read_text())
    assert data["servers"]["ws://other:1"] == "hand-written" and data["mine"] == 1


def test_which_server() -> None:
    assert pick_server(None, {}) == DEFAULT_SERVER
    assert pick_server(None, {"PATIENCE_SERVER": "ws://h:1"}) == "ws://h:1"
    assert pick_server("ws://flag:2", {"PATIENCE_SERVER": "ws://h:1"}) == "ws://flag:2"
    assert normalize_server("wss://Race.Example/ws/") == "wss://race.example/ws"


def test_a_browser_address_names_its_server() -> None:
    """The address a browser shows (``http://HOST:8765/play``, the lobby's link) serves
    the websocket on the same port: given as ``--server`` it was refused as "not a valid
    URI ... Is it running?" of a server that was running."""
    assert normalize_server("http://127.0.0.1:8765") == "ws://127.0.0.1:8765"
    assert normalize_server("HTTPS://Race.Example/") == "wss://race.example"
    # a page's address: the websocket is at the host's root, as the browser's page has it
    assert normalize_server("http://127.0.0.1:8765/r/K7PQ2M") == "ws://127.0.0.1:8765"
    assert normalize_server("https://race.example/play") == "wss://race.example"
    assert pick_server("http://h:1/play", {}) == "ws://h:1"
    # a websocket's path is kept (a proxy's /ws)
    assert normalize_server("wss://race.example/ws") == "wss://race.example/ws"


def test_a_link_given_for_a_room_a_challenge_or_a_group_names_its_server() -> None:
    """``race join``, ``race watch``, ``challenge`` and ``group join`` take a link pasted
    whole: its server is the one used, unless ``--server`` says otherwise."""
    from client_cli.cli import linked, parser

    def server(*argv: str) -> str | None:
        return linked(parser().parse_args(list(argv)))

    assert server("race", "join", "http://h:1/r/K7PQ2M") == "ws://h:1"
    assert server("race", "watch", "https://race.example/r/K7PQ2M") == "wss://race.example"
    assert server("challenge", "http://h:1/c/ua5j4vekfxk6uogy") == "ws://h:1"
    assert server("challenge", "--replay", "http://h:1/replay/6a7b580f7008c0f8") == "ws://h:1"
    assert server("challenge", "--replay", "https://h/play#replay=ab12") == "wss://h"
    assert server("group", "join", "http://h:1/g/k3v9xq2mab?k=Zm9v") == "ws://h:1"
    # a code alone, or another command, names none
    assert server("race", "join", "K7PQ2M") is None
    assert server("challenge", "--replay", "abc") is None
    assert server("group", "show", "http://h:1/g/k3v9xq2mab?k=Zm9v") is None
    assert server("play", "gate") is None
