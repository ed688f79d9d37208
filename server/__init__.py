"""Patience Race: the race server."""

__version__ = "0.2.0"
