"""The server's version, read from one place: ``pyproject.toml``'s ``version``, as the
installed package's metadata carries it (what ``welcome``, ``/healthz`` and the
``listening`` log line report). A source tree run without installing reads the file.
"""

from __future__ import annotations

import tomllib
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as installed
from pathlib import Path

#: the distribution's name in ``pyproject.toml``
DISTRIBUTION = "patience-race"

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


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
