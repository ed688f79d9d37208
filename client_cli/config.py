"""Where the client keeps the player's token, and which server it talks to.

The token is the player's only credential (the server cannot show it again), so it lives
in one file only its owner can read: ``$XDG_CONFIG_HOME/patience-race/tokens.json``
(``~/.config/patience-race/tokens.json`` by default), mode 0600 in a 0700 directory,
written whole and renamed into place. It holds one entry per server URL::

    {"servers": {"ws://127.0.0.1:8765": {"name": "ann", "token": "..."}}}

A file that is there and cannot be read as that (a stray comma of a hand edit, a
directory) is :class:`Unreadable`, and never written over: it may hold the tokens of
every server. One that cannot be written (a read-only or full file system) is
:class:`Unwritable`; :meth:`TokenStore.check_writable` asks before a token is asked of
the server, which, given and not kept, would be lost.

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
from urllib.parse import urlsplit

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


def not_a_server(url: str) -> bool:
    """Whether ``url`` (as :func:`normalize_server` has it) can name no race server: not
    ``ws://`` or ``wss://``, no host, or a port that is no number. Known before a server
    is asked (``--server ftp://x`` was told the server could not be reached, "Is it
    running?").

    >>> not_a_server("ws://127.0.0.1:8765"), not_a_server("wss://race.example/ws")
    (False, False)
    >>> [not_a_server(normalize_server(u)) for u in ("ftp://x", "ws://", "wss://:1", "h:port")]
    [True, True, True, True]
    """
    parts = urlsplit(url)
    try:
        parts.port  # noqa: B018 (read for its ValueError)
    except ValueError:
        return True
    return parts.scheme not in ("ws", "wss") or not parts.hostname


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


class TokenFileError(Exception):
    """The tokens file cannot be read, or written: its ``path`` and the ``reason``."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason

    def words(self) -> str:
        return f"the token file {self.path} cannot be written ({self.reason})"


class Unreadable(TokenFileError):
    """The tokens file is there and is not what it should be: left as it is."""

    def words(self) -> str:
        from .lines import kept  # (rich: only to say so)

        aside = kept(f"mv {self.path} {self.path}.old")
        return (
            f"the token file {self.path} cannot be read ({self.reason}), so it is left as it "
            "is and nothing is saved over it. Mend it (it keeps your token for each server, "
            f"your only credential there), or move it aside to start afresh: {aside}"
        )


class Unwritable(TokenFileError):
    """The tokens file cannot be written (a read-only or full file system)."""


def _why(exc: OSError) -> str:
    """An error of the file system in words.

    >>> _why(IsADirectoryError(21, "Is a directory")), _why(OSError(28, "No space"))
    ('it is a directory, not a file', 'No space left on device')
    """
    if isinstance(exc, IsADirectoryError):
        return "it is a directory, not a file"
    return os.strerror(exc.errno) if exc.errno else str(exc)


#: the form the file must have, as said when it has another
FORM = '{"servers": {URL: {"name": NAME, "token": TOKEN}}}'


def _entry(data: dict[str, Any], url: str, path: Path) -> Account | None:
    """The account ``data`` keeps for the server ``url``; an entry there that keeps none
    (no token in it: a hand edit gone wrong) is :class:`Unreadable`, not written over."""
    entry = data["servers"].get(url)
    if entry is None:
        return None
    if not isinstance(entry, dict) or not isinstance(entry.get("token"), str):
        raise Unreadable(path, f'its entry for {url} is not {{"name": NAME, "token": TOKEN}}')
    return Account(str(entry.get("name", "")), entry["token"])


def not_kept(
    server: str, name: str, token: str, exc: TokenFileError, how: str = "Registered"
) -> str:
    """What to say of a token the server gave (registering, linking) that could not be
    written into the file: the token, once, to keep, and how to save it later (``link``
    takes a token as a browser's recovery key: the same device; after ``--``, as a token
    may start with "-")."""
    from .challenge import command  # (only to say so)
    from .lines import kept

    save = kept(f"{command(server, 'link')} -- {token}")
    return (
        f"{how} as {name}, but the token file {exc.path} cannot be written ({exc.reason})."
        f" Your token, shown this once: "
        f"{kept(token)} Keep it: it is the only way to play as {name}. Once the file can "
        f"be written, this saves it: {save}"
    )


class TokenStore:
    """The tokens file: one account per server."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.path = directory / TOKENS_FILE

    def _read(self) -> dict[str, Any]:
        """The file's data; none there: no servers. Raises :class:`Unreadable`."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except (FileNotFoundError, NotADirectoryError):
            return {"servers": {}}  # (none yet; or its directory's place is a file's)
        except OSError as exc:
            raise Unreadable(self.path, _why(exc)) from exc
        except UnicodeDecodeError as exc:
            raise Unreadable(self.path, "it is not text (UTF-8)") from exc
        if not text.strip():
            return {"servers": {}}
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            where = f"line {exc.lineno}, column {exc.colno}"
            raise Unreadable(self.path, f"it is not JSON: {exc.msg}, at {where}") from exc
        if not isinstance(data, dict):
            raise Unreadable(self.path, f"it is not of the form {FORM}")
        servers = data.setdefault("servers", {})
        if not isinstance(servers, dict):
            raise Unreadable(self.path, 'its "servers" is not of the form {URL: {...}}')
        return data

    def get(self, server: str) -> Account | None:
        return _entry(self._read(), normalize_server(server), self.path)

    def put(self, server: str, account: Account) -> None:
        data = self._read()
        url = normalize_server(server)
        _entry(data, url, self.path)  # (an entry unread is never written over)
        data["servers"][url] = {"name": account.name, "token": account.token}
        self._write(data)

    def forget(self, server: str) -> None:
        """The server's token forgotten: one it refuses for good. Where the file cannot
        be written, it stays (refused again the next time: nothing is lost by that)."""
        data = self._read()
        if data["servers"].pop(normalize_server(server), None) is not None:
            with contextlib.suppress(Unwritable):
                self._write(data)

    def keep_name(self, server: str, name: str) -> str | None:
        """The name kept beside the server's token, when the player's name there is now
        another (changed here, or on another device). Where the file cannot be written,
        the words to say so (the old name stays beside the token: the token is what signs
        in, and the name is taken in the next time it can be written); else None."""
        account = self.get(server)
        if account is not None and name and account.name != name:
            try:
                self.put(server, Account(name, account.token))
            except Unwritable as exc:
                return (
                    f"The token file {exc.path} cannot be written ({exc.reason}): it still "
                    f"says {account.name}, and says {name} once it can be written."
                )
        return None

    def check_writable(self) -> None:
        """Raise :class:`Unwritable` (or :class:`Unreadable`) unless the file can be
        written now: asked before the server gives a token (registering, linking) that
        would be lost if it could not be kept. A file of the size it would have is written
        beside it and taken away, so that a full file system refuses too, not only a
        read-only one."""
        size = len(json.dumps(self._read())) + 200
        try:
            self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=".tokens-", suffix=".tmp")
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(b" " * size)
                    f.flush()
                    os.fsync(f.fileno())
            finally:
                os.unlink(tmp)
        except OSError as exc:
            raise Unwritable(self.path, _why(exc)) from exc

    def _write(self, data: dict[str, Any]) -> None:
        try:
            self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=".tokens-", suffix=".tmp")
        except OSError as exc:
            raise Unwritable(self.path, _why(exc)) from exc
        try:
            os.fchmod(fd, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f, indent=2, sort_keys=True)
                f.write("\n")
                f.flush()
                os.fsync(f.fileno())  # (whole on the disk before it takes the old one's place)
            os.replace(tmp, self.path)
        except BaseException as exc:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            if isinstance(exc, OSError):
                raise Unwritable(self.path, _why(exc)) from exc
            raise
