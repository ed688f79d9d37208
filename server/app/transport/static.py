"""The files of the browser client (``client_web/``), as :mod:`.web` serves them under
``/web/...``, and the headers every HTTP answer carries.

Only these files are served, each from its own folder and only with its own endings:

- ``/web/app/NAME.js``: the client's ES modules (``client_web/app/``);
- ``/web/style/NAME.css``: its style sheets (``client_web/style/``);
- ``/web/vendor/msgpack/NAME.mjs``: the published ESM build of ``@msgpack/msgpack``,
  committed unchanged in ``client_web/vendor/msgpack/`` (its version the lockfile's, each
  file's hash recorded: ``tests/web/vendored.py``), so that no npm is needed to run it;
- ``/web/icons/NAME.svg``: the favicon and the app's icons (``client_web/icons/``);
- ``/web/manifest.webmanifest``: the web app manifest, which makes the client
  installable to a phone's home screen;
- ``/web/rules/GAME.txt``: a game's rules for players as the terminal reads them
  (:mod:`rulebook`, ``rulebook/pages/``), for the games this server plays (the browser's
  page of them is ``/rules/GAME``, :mod:`.rules_page`).

A name is a few path segments of letters, digits, ``-`` and ``_`` with one ending: no
``..``, no hidden file, no other folder. The file it names is resolved (links followed)
and must still lie in its folder, so nothing outside those folders can be read, whatever
the request says. Files are read when asked (they are small) and kept while their size and
time of change stay the same. Files over a KiB are also kept gzipped, for the clients
that accept it.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

import rulebook
from server.engine import GAMES

#: the repository's root: the folder holding ``server/``, ``client_web/`` and ``client_cli/``
ROOT = Path(__file__).resolve().parents[3]
WEB_ROOT = ROOT / "client_web"
#: the page of the browser client (``/play``, ``/r/CODE``)
INDEX = WEB_ROOT / "index.html"
MSGPACK = WEB_ROOT / "vendor" / "msgpack"
RULES = ROOT / "rulebook" / "pages"

JAVASCRIPT = "text/javascript; charset=utf-8"
CSS = "text/css; charset=utf-8"
TEXT = "text/plain; charset=utf-8"
SVG = "image/svg+xml; charset=utf-8"
MANIFEST = "application/manifest+json; charset=utf-8"

#: every folder served: its URL prefix under ``/web/``, its place, the one ending allowed
#: and the content type of its files
FOLDERS: dict[str, tuple[Path, str, str]] = {
    "app/": (WEB_ROOT / "app", ".js", JAVASCRIPT),
    "style/": (WEB_ROOT / "style", ".css", CSS),
    "vendor/msgpack/": (MSGPACK, ".mjs", JAVASCRIPT),
    "icons/": (WEB_ROOT / "icons", ".svg", SVG),
    "rules/": (RULES, ".txt", TEXT),
}

#: the files served on their own: their name under ``/web/``, their place and type
FILES: dict[str, tuple[Path, str]] = {
    "manifest.webmanifest": (WEB_ROOT / "manifest.webmanifest", MANIFEST),
}

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}(?:/[A-Za-z0-9][A-Za-z0-9_-]{0,63}){0,3}")

#: the Content-Security-Policy of every answer: scripts and styles only from files of this
#: origin (no inline script or style), websockets to this server, never in a frame
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' ws: wss:; base-uri 'none'; form-action 'self'; "
    "object-src 'none'; frame-ancestors 'none'"
)

#: the headers every HTTP answer carries, a page's, a file's, an error's or a probe's
SECURITY_HEADERS: tuple[tuple[str, str], ...] = (
    ("Content-Security-Policy", CSP),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "same-origin"),
)


@dataclass(frozen=True)
class File:
    """A file served: its content type, its text, its entity tag and, when it is worth
    it (over a KiB), its gzipped bytes."""

    content_type: str
    text: str
    etag: str
    gzipped: bytes | None = None


_cache: dict[Path, tuple[tuple[int, int], File]] = {}


def read(path: Path, content_type: str) -> File | None:
    """The file at ``path`` (None: there is none, or it is not UTF-8 text)."""
    try:
        stat = path.stat()
        key = (stat.st_size, stat.st_mtime_ns)
        kept = _cache.get(path)
        if kept is not None and kept[0] == key:
            return kept[1]
        data = path.read_bytes()
        text = data.decode()
    except (OSError, UnicodeDecodeError):
        return None
    found = served(text, content_type)
    _cache[path] = (key, found)
    return found


def served(text: str, content_type: str) -> File:
    """``text`` as a file is served: its entity tag (from its bytes' hash) and, over a
    KiB, its gzipped form."""
    data = text.encode()
    packed = gzip.compress(data, compresslevel=9, mtime=0) if len(data) > 1024 else None
    return File(content_type, text, f'"{hashlib.sha256(data).hexdigest()[:20]}"', packed)


def web_file(name: str) -> File | None:
    """The file ``/web/NAME`` names, or None: no such file, or not one served."""
    if name in FILES:
        return read(*FILES[name])
    for prefix, (folder, ending, content_type) in FOLDERS.items():
        if not name.startswith(prefix):
            continue
        stem = name[len(prefix) :].removesuffix(ending)
        if stem == name[len(prefix) :] or not _NAME.fullmatch(stem):
            return None
        if prefix == "rules/":
            # a page's source has marks for the browser's form: the text is rendered
            return rules_text(stem) if stem in GAMES else None
        base = folder.resolve()
        path = (base / (stem + ending)).resolve()
        if not path.is_relative_to(base) or not path.is_file():
            return None
        return read(path, content_type)
    return None


@functools.cache
def rules_text(game_id: str) -> File:
    """A game's rules page as the terminal reads it, served as text."""
    return served(rulebook.text(game_id), TEXT)


def client_ready(root: Path = WEB_ROOT) -> str | None:
    """Why the browser client in ``root`` cannot be served, or None: it can."""
    if not (root / "index.html").is_file():
        return "this server was installed without its browser client (client_web/)"
    if not (root / MSGPACK.relative_to(WEB_ROOT) / "index.mjs").is_file():
        return (
            "the browser client's msgpack library is missing from client_web/vendor/msgpack/: "
            "this copy of the server is incomplete (a fresh clone has it)"
        )
    return None
