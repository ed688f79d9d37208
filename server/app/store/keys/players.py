"""A player's keys: their record, name and tokens, their devices and link codes
(``players.py``, ``devices.py``)."""

from __future__ import annotations

import hashlib


def player_key(pid: str) -> str:
    return f"p:{pid}"


def name_key(name: str) -> str:
    return f"pname:{name.lower()}"


def token_key(token: str) -> str:
    return "ptoken:" + hashlib.sha256(token.encode()).hexdigest()


def token_digest(token: str) -> str:
    """The SHA-256 of a token (hex): what its key and its device record name it by."""
    return hashlib.sha256(token.encode()).hexdigest()


def digest_token_key(digest: str) -> str:
    """:func:`token_key` of the token whose digest this is."""
    return "ptoken:" + digest


def devices_key(pid: str) -> str:
    """Hash: device id -> the device (msgpack), one a token of the player's."""
    return f"pdev:{pid}"


def signed_out_key(digest: str) -> str:
    """A token signed out (by its digest): who signed it out and when (msgpack)."""
    return f"ptokout:{digest}"


#: how long a signed-out token's note is kept, seconds (30 days): its device is told why
#: at its next ``hello`` within that, and plain ``bad_token`` after
SIGNED_OUT_TTL = 30 * 86400


def link_key(code: str) -> str:
    """A link code (as kept: no dash, capitals) -> its player and expiry (msgpack)."""
    return f"plink:{code}"


def player_link_key(pid: str) -> str:
    """The player's live link code: asking for another revokes it."""
    return f"plinkof:{pid}"


#: how long past its expiry (server time, checked when used) a link code's key lives in
#: Redis, ms: the expiry is the server clock's, the key's TTL Redis's own
LINK_MARGIN_MS = 60_000
