"""The data directory is the server's user's alone: it holds every game's seed (the
embedded Redis's append-only file, today's daily deals included) and the secret that
makes the daily seeds. Directories are made 0700 and files 0600; whatever is found
readable by others is tightened, and logged.
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

log = logging.getLogger("patience.main")

#: the bits of a mode that let others than the owner in
OPEN = stat.S_IRWXG | stat.S_IRWXO


def tighten(path: Path) -> None:
    """Take from ``path`` (not following a symbolic link) any access for others than
    its owner, and log it if there was some."""
    st_mode = path.lstat().st_mode
    mode = stat.S_IMODE(st_mode)
    if stat.S_ISLNK(st_mode) or not mode & OPEN:
        return
    os.chmod(path, mode & ~OPEN)
    log.warning(
        "made private: it was open to others",
        extra={"path": str(path), "was": oct(mode), "now": oct(mode & ~OPEN)},
    )


def private_dir(path: Path) -> Path:
    """``path`` as a directory only its owner may enter: made 0700 (with its missing
    parents, as the umask makes them), or tightened to it."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    tighten(path)
    return path


def private_tree(path: Path) -> None:
    """``path`` and everything under it made private (files written by a program with a
    looser umask, such as Redis's own)."""
    private_dir(path)
    for root, dirs, files in os.walk(path):
        for name in (*dirs, *files):
            tighten(Path(root) / name)
