"""The data directory is the server's user's alone: it holds every game's seed (the
embedded Redis's append-only file, today's daily deals included) and the secret that
makes the daily seeds. Directories are made 0700 and files 0600; whatever is found
readable by others is tightened, and logged.
"""

from __future__ import annotations

import logging
import os
import secrets
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


def load_secret(configured: str | None, data_dir: Path) -> bytes:
    """``PATIENCE_SECRET`` when set; else the secret kept in the data directory, made
    once (32 random bytes, readable by the owner only; the directory and the file are
    made private if they were not)."""
    if configured:
        return configured.encode()
    path = data_dir / "secret"
    try:
        value = path.read_bytes().strip()
    except FileNotFoundError:
        pass
    else:
        private_dir(data_dir)
        tighten(path)  # whoever reads it knows every day's deal
        return value
    private_dir(data_dir)
    value = secrets.token_hex(32).encode()
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:  # another process made it first
        return path.read_bytes().strip()
    with os.fdopen(fd, "wb") as out:
        out.write(value)
    return value
