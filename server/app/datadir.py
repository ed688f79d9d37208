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
import tempfile
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


class BadSecret(RuntimeError):
    """The secret the server would key the daily deals with is none: empty, or blank."""


def load_secret(configured: str | None, data_dir: Path) -> bytes:
    """``PATIENCE_SECRET`` when set; else the secret kept in the data directory, made
    once (32 random bytes, readable by the owner only; the directory and the file are
    made private if they were not). A secret file found empty (a full disk, a restore
    gone wrong) is refused, :class:`BadSecret`: keyed with nothing, every day's deal
    could be worked out by anyone. Made, it is written whole before it has its name, so
    a second process starting beside the first never reads it half written."""
    if configured:
        if not configured.strip():
            raise BadSecret("PATIENCE_SECRET is blank: give it a secret, or leave it unset")
        return configured.encode()
    path = data_dir / "secret"
    try:
        value = path.read_bytes().strip()
    except FileNotFoundError:
        pass
    else:
        private_dir(data_dir)
        tighten(path)  # whoever reads it knows every day's deal
        return _kept(value, path)
    private_dir(data_dir)
    value = secrets.token_hex(32).encode()
    fd, made = tempfile.mkstemp(dir=data_dir, prefix=".secret-")  # (0600)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(value)
            out.flush()
            os.fsync(out.fileno())
        try:
            os.link(made, path)  # (named only once whole; not if another process was first)
        except FileExistsError:  # another process made it first, whole
            return _kept(path.read_bytes().strip(), path)
    finally:
        os.unlink(made)
    return value


def _kept(value: bytes, path: Path) -> bytes:
    """The secret read from ``path``, unless it is empty."""
    if not value:
        raise BadSecret(
            f"the secret in {path} is empty: every day's deal would be keyed with nothing."
            " Put back the one the server made (from a backup: the days' deals come from it),"
            " or remove the file to have a new one made (every day's deal then changes)"
        )
    return value
