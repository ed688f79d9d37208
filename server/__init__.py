"""Patience Race: the race server."""

from __future__ import annotations

from . import native as _native
from ._version import version as _installed_version

#: the version ``pyproject.toml`` gives, as installed: the one source of it
__version__ = _installed_version()

# the move path's compiled modules, when built and current (server/native.py)
_native.install()
