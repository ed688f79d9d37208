"""Patience Race: the race server."""

from . import native as _native

__version__ = "0.2.0"

# the move path's compiled modules, when built and current (server/native.py)
_native.install()
