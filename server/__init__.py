"""Patience Race: the race server."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import native as _native

if TYPE_CHECKING:
    #: the version ``pyproject.toml`` gives, as installed: the one source of it
    __version__: str
else:
    # hidden from mypy, which would otherwise type any attribute of the package as str

    def __getattr__(name: str) -> str:
        """``__version__``, read when first asked for (server/_version.py): reading the
        package's metadata imports the email package, and with it ``socket``, which the
        engine and the domain, importing this package, must not load."""
        if name == "__version__":
            from ._version import version

            value = version()
            globals()["__version__"] = value
            return value
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# the move path's compiled modules, when built and current (server/native.py)
_native.install()
