"""Where the client keeps the player's token, and which server it talks to.

The token is the player's only credential (the server cannot show it again), so it lives
in one file only its owner can read: ``$XDG_CONFIG_HOME/patience-race/tokens.json``
(``~/.config/patience-race/tokens.json`` by default), mode 0600 in a 0700 directory,
written whole and renamed into place. It holds one entry per server URL::

    {"servers": {"ws://127.0.0.1:8765": {"name": "ann", "token": "..."}}}

The server is ``--server URL``, else ``$PATIENCE_SERVER``, else the local one ``make run``
starts (``ws://127.0.0.1:8765``).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_SERVER = "ws://127.0.0.1:8765"
APP_DIR = "patience-race"
TOKENS_FILE = "tokens.json"


def config_dir(environ: Mapping[str, str] | None = None) -> Path:
    """``$XDG_CONFIG_HOME/patience-race``, or ``~/.config/patience-race``."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_CONFIG_HOME", "")
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".config"
    return root / APP_DIR


#: a browser's address names the server whose websocket its page connects to: the same
#: host, at its root (client_web/app/link.js)
WEB_SCHEMES = {"http": "ws", "https": "wss"}


def normalize_server(url: str) -> str:
    """A server URL in the form tokens are kept under. A browser's address (the page a
    lobby's link opens, ``http://HOST:8765/r/CODE``) names the server its page talks
    to: ``ws://HOST:8765``, as the browser's client connects.

    >>> normalize_server("127.0.0.1:9000"), normalize_server("WS://Example.org/")
    ('ws://127.0.0.1:9000', 'ws://example.org')
    >>> normalize_server("http://127.0.0.1:8765/r/K7PQ2M")
    'ws://127.0.0.1:8765'
    """
    url = url.strip()
    if "://" not in url:
        url = "ws://" + url
    scheme, _, rest = url.partition("://")
    host, _, path = rest.partition("/")
    scheme = scheme.lower()
    if scheme in WEB_SCHEMES:
        scheme, path = WEB_SCHEMES[scheme], ""
    path = path.rstrip("/")
    return f"{scheme}://{host.lower()}" + (f"/{path}" if path else "")


def linked_server(text: str | None) -> str | None:
    """The server a link pasted where a code is asked names (a lobby's
    ``http://HOST:8765/r/CODE``, a challenge's ``/c/ID``, a group's ``/g/ID?k=KEY``): its
    websocket, as :func:`normalize_server` has it; None for a code alone.

    >>> linked_server("https://race.example/r/K7PQ2M"), linked_server("K7PQ2M")
    ('wss://race.example', None)
    """
    if text is None or not text.strip().lower().startswith(tuple(f"{s}://" for s in WEB_SCHEMES)):
        return None
    return normalize_server(text)


def pick_server(flag: str | None, environ: Mapping[str, str] | None = None) -> str:
    env = os.environ if environ is None else environ
    return normalize_server(flag or env.get("PATIENCE_SERVER") or DEFAULT_SERVER)


def device_label() -> str:
    """What this client calls itself in the player's list of devices (``hello``'s
    ``device``): the machine's name, so "terminal on desk" tells one terminal from
    another.

    >>> device_label().startswith("terminal on ")
    True
    """
    host = socket.gethostname().split(".")[0].strip() or "this machine"
    return f"terminal on {host}"[:40]


@dataclass(frozen=True)
class Account:
    name: str
    token: str


def forgotten_token(server: str, account: Account | None, message: str) -> str:
    """What to say when the server refuses the saved token (``bad_token``, its
    ``message``): signed out from another of the player's devices, or not known at all.

    >>> forgotten_token("ws://h", Account("ann", "t"), "no player has this token")
    'ws://h does not know the saved token for ann (was its data reset?): register again.'
    """
    if message.startswith("this device was signed out"):
        return (
            f"{server}: {message}. Register as someone new, or sign in as yourself with a "
            "code from that device: patience-race link CODE"
        )
    name = account.name if account else "?"
    return (
        f"{server} does not know the saved token for {name} (was its data reset?): register again."
    )


class TokenStore:
    """The tokens file: one account per server."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.path = directory / TOKENS_FILE

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {"servers": {}}
        if not isinstance(data, dict) or not isinstance(data.get("servers"), dict):
            return {"servers": {}}
        return data

    def get(self, server: str) -> Account | None:
        entry = self._read()["servers"].get(normalize_server(server))
        if isinstance(entry, dict) and isinstance(entry.get("token"), str):
            return Account(str(entry.get("name", "")), entry["token"])
        return None

    def put(self, server: str, account: Account) -> None:
        data = self._read()
        data["servers"][normalize_server(server)] = {"name": account.name, "token": account.token}
        self._write(data)

    def forget(self, server: str) -> None:
        data = self._read()
        if data["servers"].pop(normalize_server(server), None) is not None:
            self._write(data)

    def keep_name(self, server: str, name: str) -> None:
        """The name kept beside the server's token, when the player's name there is now
        another (changed here, or on another device)."""
        account = self.get(server)
        if account is not None and name and account.name != name:
            self.put(server, Account(name, account.token))

    def _write(self, data: dict[str, Any]) -> None:
        self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=".tokens-", suffix=".tmp")
        try:
            os.fchmod(fd, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f, indent=2, sort_keys=True)
                f.write("\n")
            os.replace(tmp, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
