"""The server's version, read from one place: ``pyproject.toml``'s ``version``, as the
installed package's metadata carries it (what ``welcome``, ``/healthz`` and the
``listening`` log line report). A source tree run without installing reads the file.
"""

from __future__ import annotations

import functools
import hashlib
import tomllib
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as installed
from pathlib import Path

#: the distribution's name in ``pyproject.toml``
DISTRIBUTION = "patience-race"

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"
#: the server's own source, which :func:`build` digests
SOURCE = Path(__file__).resolve().parent


def version() -> str:
    """The installed distribution's version; else ``pyproject.toml``'s beside the
    source; else ``0+unknown`` (a copy of the package alone, with neither)."""
    try:
        return installed(DISTRIBUTION)
    except PackageNotFoundError:
        pass
    try:
        with PYPROJECT.open("rb") as f:
            return str(tomllib.load(f)["project"]["version"])
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "0+unknown"


@functools.cache
def build() -> str:
    """This server's build: :func:`digest` of its own source, read once."""
    return digest(SOURCE)


def digest(source: Path) -> str:
    """A digest of a server's source (every ``.py`` under ``server/`` but the compiled
    modules' folder), 12 hex digits. Two trees of one version (a rolling upgrade's old
    and new processes both said 0.2.0) are told apart by it; the same tree gives the
    same, wherever it is installed."""
    hashed = hashlib.sha256()
    for path in sorted(source.rglob("*.py")):
        if "__pycache__" in path.parts or "_native" in path.parts:
            continue
        hashed.update(path.relative_to(source).as_posix().encode() + b"\0")
        hashed.update(path.read_bytes() + b"\0")
    return hashed.hexdigest()[:12]
