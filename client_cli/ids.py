"""What a ``replay``, ``review`` or ``challenge --replay`` argument names: a replay's id
(a game's), from the id alone or from its link pasted whole, checked before any server is
asked. The server makes two kinds of replay id (``docs/protocol.md``, "Replays"): a
game's, 16 hex digits, and a day's book line's, ``book``, the day's eight digits and the
game's id without its dashes (``book20261124gatenarrow``). Anything else (a link to
another page, a path, a word too long) is no replay: it was taken for one (the last part
of ``http://HOST/garbage/xyz`` asked for a replay "xyz"), and the server said "no replay".

>>> replay_id("6A7B580F7008C0F8"), replay_id("http://h:8765/replay/6a7b580f7008c0f8/")
('6a7b580f7008c0f8', '6a7b580f7008c0f8')
>>> replay_id("https://h/play#board=gate&replay=book20261128gate")
'book20261128gate'
>>> replay_id("http://h/replay/6a7b580f7008c0f8.json?x=1")
'6a7b580f7008c0f8'
>>> [replay_id(t) for t in ("http://h/garbage/xyz", "htp:/foo", "../../etc", "", "c" * 100)]
[None, None, None, None, None]
"""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

from .sanitize import clean

#: a game's id (its replay's), as the server makes it (``secrets.token_hex(8)``)
GAME_ID = re.compile(r"[0-9a-f]{16}")
#: a day's book line: ``book``, the day (YYYYMMDD) and the game's id without dashes
BOOK_ID = re.compile(r"book(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])[a-z0-9]{1,32}")

#: a replay's link as the client takes it, in the words of a refusal
LINK_FORMS = (
    "its link: http://HOST/replay/ID (as the viewer shows it; /replay/ID.json too) "
    "or http://HOST/play#replay=ID"
)


def _an_id(text: str) -> str | None:
    found = text.strip().lower()
    return found if GAME_ID.fullmatch(found) or BOOK_ID.fullmatch(found) else None


def replay_id(text: str) -> str | None:
    """The replay ``text`` names (lower case), or None where it names none: the id
    alone, or its link: ``http(s)://HOST/replay/ID`` (a slash after it, ``.json``, a query
    left over), or the browser's ``http(s)://HOST/play#replay=ID`` (other fields of the
    fragment beside it)."""
    text = text.strip()
    if "/" not in text and "#" not in text and ":" not in text:
        return _an_id(text)
    try:
        parts = urlsplit(text)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    for field in parts.fragment.split("&"):
        key, _, value = field.partition("=")
        if key == "replay":
            return _an_id(unquote(value))
    path = parts.path.rstrip("/")
    head, _, last = path.rpartition("/")
    if head.rpartition("/")[2] != "replay":
        return None
    return _an_id(unquote(last).removesuffix(".json"))


def game_id(text: str) -> str | None:
    """The game a ``review`` argument names: its replay's id, or link, where that is a
    game's (a book line is no player's game, and is reviewed by nobody).

    >>> game_id("http://127.0.0.1:9471/replay/03b3e88628a1373e"), game_id("book20261128gate")
    ('03b3e88628a1373e', None)
    """
    found = replay_id(text)
    return found if found is not None and GAME_ID.fullmatch(found) else None


def not_a_replay(text: str) -> str:
    """The refusal of an argument that names no replay (said before any server is asked).

    >>> print(not_a_replay("htp:/foo"))  # doctest: +ELLIPSIS
    not a replay id or link: 'htp:/foo'. A replay's id is a game's, 16 letters and digits (...
    """
    return (
        f"not a replay id or link: {clean(text.strip(), 60)!r}. A replay's id is a game's, "
        "16 letters and digits (03b3e88628a1373e), or a day's book line's "
        f"(book20261128gate); {LINK_FORMS}"
    )
