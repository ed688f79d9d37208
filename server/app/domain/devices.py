"""A player's devices and the link codes that add one, as values and texts (pure).

Every token a player holds is a *device*: a record with a short id of its own (never the
token), a label the client gives ("terminal on desk", "Chrome on Android"), when it was
added and last seen. A *link code* is what a signed-in device shows so that another one
can sign in as the same player with a token of its own: eight characters of an alphabet
without the look-alikes (no 0, 1, I, L, O, U), shown as ``XXXX-XXXX`` and read back
whatever the case, dashes or spaces. Thirty symbols to the eighth is about 6.6 * 10**11
codes; a few live at a time, for minutes, and failed tries are counted per address
(``handlers/devices.py``), so guessing one is hopeless.

>>> normal_code(" abcd-efgh ")
'ABCDEFGH'
>>> normal_code("abcd-efg1") is None
True
>>> shown_code("ABCDEFGH")
'ABCD-EFGH'
>>> clean_label("  Chrome\\x1b[31m on\\tAndroid ")
'Chrome[31m on Android'
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Collection
from dataclasses import dataclass

#: the link codes' symbols: digits and capitals without the ones read as each other
ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
#: symbols in a code
CODE_LEN = 8
#: the most devices a player may hold: past it, a new one is refused until one is signed
#: out (each is a token that can sign in as the player)
MAX_DEVICES = 16
#: the longest label kept, in characters
LABEL_LEN = 40
#: the label of a token that signed in before devices were kept (its player's only one)
FIRST_DEVICE = "first device"
#: the label of a device whose client said none
UNNAMED = "unnamed device"

_CODE_RE = re.compile(f"[{ALPHABET}]{{{CODE_LEN}}}")
_SPACE_RE = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class Device:
    """One of a player's tokens: ``digest`` is the token's SHA-256 (hex), as its key is
    named; the token itself is never kept."""

    id: str
    label: str
    added: int
    seen: int
    digest: str

    def public(self, this: str | None, connected: str | None) -> dict[str, object]:
        """The device as the ``devices`` reply lists it (``this``: the asking one's id;
        ``connected``: the id of the one holding the player's connection, if any)."""
        return {
            "id": self.id,
            "label": self.label,
            "added": self.added,
            "seen": self.seen,
            "this": self.id == this,
            "connected": self.id == connected,
        }


def new_device_id() -> str:
    """A device's id: 8 hex digits (32 random bits: two alike among a player's few are
    as good as impossible)."""
    return secrets.token_hex(4)


def new_code() -> str:
    """A fresh link code, as kept (no dash)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LEN))


def normal_code(entered: str) -> str | None:
    """The code as kept, from what a person typed (any case, dashes and spaces
    anywhere), or None if it cannot be one."""
    code = re.sub(r"[\s-]", "", entered).upper()
    return code if _CODE_RE.fullmatch(code) else None


def shown_code(code: str) -> str:
    """A code as shown to people: two groups of four."""
    half = CODE_LEN // 2
    return f"{code[:half]}-{code[half:]}"


def clean_label(raw: str | None, default: str = UNNAMED) -> str:
    """A device's label as kept: control characters dropped (a terminal must not be
    steered by another device's label), runs of spaces made one, at most
    :data:`LABEL_LEN` characters; ``default`` when nothing is left."""
    if raw is None:
        return default
    printable = "".join(ch if ch.isprintable() or ch.isspace() else "" for ch in raw)
    label = _SPACE_RE.sub(" ", printable).strip()[:LABEL_LEN].strip()
    return label or default


def distinct_label(label: str, taken: Collection[str]) -> str:
    """``label``, or with the first number from 2 that no other device's label has, so
    that two terminals on one machine (both "terminal on desk") can be told apart in the
    list of devices and in what a replaced connection is told. Kept within
    :data:`LABEL_LEN`.

    >>> distinct_label("terminal on desk", ["Chrome on Android"])
    'terminal on desk'
    >>> distinct_label("terminal on desk", ["terminal on desk", "terminal on desk 2"])
    'terminal on desk 3'
    >>> len(distinct_label("x" * LABEL_LEN, ["x" * LABEL_LEN]))
    40
    """
    if label not in taken:
        return label
    n = 2
    while True:
        suffix = f" {n}"
        named = label[: LABEL_LEN - len(suffix)].rstrip() + suffix
        if named not in taken:
            return named
        n += 1


def replaced_reason(new_id: str | None, new_label: str, old_id: str | None) -> str:
    """What a connection replaced by a newer one of its player is told.

    >>> replaced_reason("b", "Chrome on Android", "a")
    'signed in on another device: Chrome on Android'
    >>> replaced_reason("a", "terminal on desk", "a")
    'signed in again on this device (terminal on desk), on another connection'
    """
    if new_id is not None and new_id == old_id:
        return f"signed in again on this device ({new_label}), on another connection"
    return f"signed in on another device: {new_label}"


def signed_out_reason(by_label: str) -> str:
    """What a device signed out by another of its player's is told.

    >>> signed_out_reason("terminal on desk")
    'signed out from terminal on desk'
    """
    return f"signed out from {by_label}"
