"""Requests as typed records, validated on decode.

Every request is a map with ``type`` (text) and ``id`` (an integer the reply echoes).
:func:`parse_request` turns a decoded frame into one of the records below or raises
:class:`ProtocolError` with the code to answer.

>>> parse_request({"type": "move", "id": 7, "move": "t1>b2"})
Move(id=7, move='t1>b2', game=None)
>>> parse_request({"type": "move", "id": 7})
Traceback (most recent call last):
...
server.protocol.errors.ProtocolError: move: field 'move' is required
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from .codec import MAX_BYTES, too_deep
from .errors import ErrorCode, ProtocolError
from .fastpath import MAX_ID as MAX_ID
from .fastpath import MAX_TEXT as MAX_TEXT
from .fastpath import move_fields
from .fields import Field as Field
from .fields import Request as Request
from .groups import GROUP_REQUESTS as GROUP_REQUESTS
from .groups import Event as Event
from .groups import EventJoin as EventJoin
from .groups import GroupBoard as GroupBoard
from .groups import GroupCreate as GroupCreate
from .groups import GroupDelete as GroupDelete
from .groups import GroupJoin as GroupJoin
from .groups import GroupLeave as GroupLeave
from .groups import GroupLink as GroupLink
from .groups import GroupList as GroupList
from .groups import GroupRemove as GroupRemove
from .groups import GroupShow as GroupShow
from .review import REVIEW_REQUESTS as REVIEW_REQUESTS
from .review import Review as Review

PROTOCOL_VERSION = 1

#: the longest name field a register or rename reads (as long as a text of four-byte
#: characters may be in a frame): a longer name than a name may be, typed or pasted by
#: mistake, gets the name's own rule (``bad_name``), not a malformed request's refusal
NAME_TEXT = MAX_BYTES // 4


@dataclass(frozen=True, slots=True)
class Hello(Request):
    TYPE = "hello"
    FIELDS = {
        "protocol": Field(int, required=True, low=0, high=1000),
        "token": Field(str, max_len=128),
        "client": Field(str),
        "device": Field(str),
        "side": Field(bool),
    }
    protocol: int = PROTOCOL_VERSION
    token: str | None = None
    client: str | None = None
    #: this device's label, as its player will see it in ``devices``
    device: str | None = None
    #: with ``token``: sign in beside the player's connection, not in its place (a one-shot
    #: command's): it takes nothing over and cannot play (:data:`SIDE_REQUESTS`)
    side: bool | None = None


@dataclass(frozen=True, slots=True)
class Register(Request):
    TYPE = "register"
    FIELDS = {
        "name": Field(str, required=True, max_len=NAME_TEXT),
        "device": Field(str),
    }
    name: str = ""
    device: str | None = None


@dataclass(frozen=True, slots=True)
class LinkCode(Request):
    """A code another device enters to sign in as this player (``link``)."""

    TYPE = "link_code"


@dataclass(frozen=True, slots=True)
class Link(Request):
    """Sign this connection in as the player whose link code this is, with a new token."""

    TYPE = "link"
    FIELDS = {
        "code": Field(str, required=True, max_len=16),
        "device": Field(str),
        "side": Field(bool),
    }
    code: str = ""
    device: str | None = None
    #: sign in beside the player's connection, as ``hello``'s ``side`` (a one-shot
    #: command that saves the token and quits): nothing taken over, nothing resumed
    side: bool = False


@dataclass(frozen=True, slots=True)
class Devices(Request):
    TYPE = "devices"


@dataclass(frozen=True, slots=True)
class SignOut(Request):
    """Sign out one of the player's other devices, or (``everywhere``) all of them."""

    TYPE = "sign_out"
    FIELDS = {"device": Field(str, max_len=16), "everywhere": Field(bool)}
    device: str | None = None
    everywhere: bool = False


@dataclass(frozen=True, slots=True)
class Games(Request):
    TYPE = "games"


@dataclass(frozen=True, slots=True)
class Rules(Request):
    TYPE = "rules"
    FIELDS = {"game": Field(str, required=True)}
    game: str = ""


@dataclass(frozen=True, slots=True)
class Ping(Request):
    TYPE = "ping"


@dataclass(frozen=True, slots=True)
class NewGame(Request):
    TYPE = "new_game"
    FIELDS = {"game": Field(str, required=True), "seed": Field(int, low=0, high=2**64 - 1)}
    game: str = ""
    seed: int | None = None


@dataclass(frozen=True, slots=True)
class Move(Request):
    TYPE = "move"
    FIELDS = {"move": Field(str, required=True), "game": Field(str)}
    move: str = ""
    game: str | None = None


# the move path reads a move's fields by hand, its texts held to MAX_TEXT (fastpath.py)
assert Move.FIELDS["move"].max_len == Move.FIELDS["game"].max_len == MAX_TEXT


@dataclass(frozen=True, slots=True)
class Undo(Request):
    TYPE = "undo"
    FIELDS = {"game": Field(str)}
    game: str | None = None


@dataclass(frozen=True, slots=True)
class Resign(Request):
    TYPE = "resign"
    FIELDS = {"game": Field(str)}
    game: str | None = None


@dataclass(frozen=True, slots=True)
class Home(Request):
    """Play every card that can go home, one move at a time, until none can."""

    TYPE = "home"
    FIELDS = {"game": Field(str)}
    game: str | None = None


@dataclass(frozen=True, slots=True)
class Hint(Request):
    TYPE = "hint"
    FIELDS = {"game": Field(str)}
    game: str | None = None


@dataclass(frozen=True, slots=True)
class RoomCreate(Request):
    TYPE = "room_create"
    FIELDS = {
        "game": Field(str, required=True),
        "seed": Field(int, low=0, high=2**64 - 1),
        "max_players": Field(int, low=2, high=16),
        "time_limit": Field(int, low=10, high=24 * 3600),
        "hints": Field(bool),
    }
    game: str = ""
    seed: int | None = None
    max_players: int = 8
    time_limit: int | None = None
    #: whether the room's racers may ask for hints
    hints: bool = False


@dataclass(frozen=True, slots=True)
class RoomJoin(Request):
    TYPE = "room_join"
    FIELDS = {"code": Field(str, required=True, max_len=16)}
    code: str = ""


@dataclass(frozen=True, slots=True)
class RoomWatch(Request):
    TYPE = "room_watch"
    FIELDS = {"code": Field(str, required=True, max_len=16)}
    code: str = ""


@dataclass(frozen=True, slots=True)
class RoomLeave(Request):
    TYPE = "room_leave"


@dataclass(frozen=True, slots=True)
class Ready(Request):
    TYPE = "ready"
    FIELDS = {"ready": Field(bool)}
    ready: bool = True


@dataclass(frozen=True, slots=True)
class Start(Request):
    TYPE = "start"


@dataclass(frozen=True, slots=True)
class Rematch(Request):
    TYPE = "rematch"


@dataclass(frozen=True, slots=True)
class Quick(Request):
    """Wait in ``game``'s quick race queue (docs/protocol.md, "The quick race")."""

    TYPE = "quick"
    FIELDS = {"game": Field(str, required=True)}
    game: str = ""


@dataclass(frozen=True, slots=True)
class QuickLeave(Request):
    TYPE = "quick_leave"


@dataclass(frozen=True, slots=True)
class Daily(Request):
    """Start or resume today's challenge of a game; with ``start`` false, only say what
    starting it would do (nothing dealt, no clock started)."""

    TYPE = "daily"
    FIELDS = {"game": Field(str, required=True), "start": Field(bool), "ghosts": Field(bool)}
    game: str = ""
    start: bool = True
    ghosts: bool = False


@dataclass(frozen=True, slots=True)
class Top(Request):
    """A board's page; with ``around`` or ``friends`` the board may be left out (the
    player's last daily's)."""

    TYPE = "top"
    FIELDS = {
        "board": Field(str),
        "offset": Field(int, low=0, high=1_000_000),
        "limit": Field(int, low=1, high=100),
        "around": Field(bool),
        "friends": Field(bool),
    }
    board: str = ""
    offset: int = 0
    limit: int = 20
    around: bool = False
    friends: bool = False


@dataclass(frozen=True, slots=True)
class BoardWatch(Request):
    TYPE = "board_watch"
    FIELDS = {"board": Field(str, required=True)}
    board: str = ""


@dataclass(frozen=True, slots=True)
class BoardUnwatch(Request):
    TYPE = "board_unwatch"
    FIELDS = {"board": Field(str, required=True)}
    board: str = ""


@dataclass(frozen=True, slots=True)
class Follow(Request):
    TYPE = "follow"
    FIELDS = {"name": Field(str, required=True)}
    name: str = ""


@dataclass(frozen=True, slots=True)
class Profile(Request):
    TYPE = "profile"
    FIELDS = {"name": Field(str)}
    name: str = ""


@dataclass(frozen=True, slots=True)
class Unfollow(Request):
    TYPE = "unfollow"
    FIELDS = {"name": Field(str, required=True)}
    name: str = ""


@dataclass(frozen=True, slots=True)
class Replay(Request):
    TYPE = "replay"
    FIELDS = {"replay": Field(str, required=True)}
    replay: str = ""


@dataclass(frozen=True, slots=True)
class ChallengeCreate(Request):
    """The challenge of a finished game's replay (one's own, or any one may see)."""

    TYPE = "challenge_create"
    FIELDS = {"replay": Field(str, required=True)}
    replay: str = ""


@dataclass(frozen=True, slots=True)
class ChallengeTake(Request):
    """Race a challenge's ghost on its deal: by its id, or the challenge of a replay."""

    TYPE = "challenge_take"
    FIELDS = {"challenge": Field(str), "replay": Field(str)}
    challenge: str | None = None
    replay: str | None = None


@dataclass(frozen=True, slots=True)
class ChallengeShow(Request):
    TYPE = "challenge_show"
    FIELDS = {"challenge": Field(str, required=True)}
    challenge: str = ""


@dataclass(frozen=True, slots=True)
class Challenges(Request):
    """The challenges made from the player's games, with results not yet seen."""

    TYPE = "challenges"


@dataclass(frozen=True, slots=True)
class ReplayView(Request):
    TYPE = "replay_view"
    FIELDS = {
        "replay": Field(str, required=True),
        "step": Field(int, required=True, low=0, high=100_000),
    }
    replay: str = ""
    step: int = 0


@dataclass(frozen=True, slots=True)
class Rename(Request):
    """A signed-in player's change of name (at most once in ``rename_days``)."""

    TYPE = "rename"
    FIELDS = {"name": Field(str, required=True, max_len=NAME_TEXT)}
    name: str = ""


# -- groups (``handlers/groups.py``; docs/protocol.md "Groups") -------------------------


REQUESTS: dict[str, type[Request]] = {
    cls.TYPE: cls
    for cls in (
        Hello,
        Register,
        LinkCode,
        Link,
        Devices,
        SignOut,
        Games,
        Rules,
        Ping,
        NewGame,
        Move,
        Undo,
        Resign,
        Home,
        Hint,
        RoomCreate,
        RoomJoin,
        RoomWatch,
        RoomLeave,
        Ready,
        Start,
        Rematch,
        Quick,
        QuickLeave,
        Daily,
        Top,
        BoardWatch,
        BoardUnwatch,
        Follow,
        Unfollow,
        Replay,
        ReplayView,
        ChallengeCreate,
        ChallengeTake,
        ChallengeShow,
        Challenges,
        Rename,
        *GROUP_REQUESTS,
        EventJoin,
        Event,
        Profile,
        *REVIEW_REQUESTS,
    )
}

#: what a connection signed in with ``hello``'s ``side`` may ask (a one-shot command's:
#: its player's account, boards, replays and reviews, groups and leagues); anything else, playing
#: above all, is refused with ``side_connection``
SIDE_REQUESTS: frozenset[type[Request]] = frozenset(
    {
        Hello,
        LinkCode,
        Devices,
        SignOut,
        Games,
        Rules,
        Ping,
        Top,
        BoardWatch,
        BoardUnwatch,
        Follow,
        Unfollow,
        Replay,
        ReplayView,
        ChallengeCreate,
        ChallengeShow,
        Challenges,
        Rename,
        *GROUP_REQUESTS,
        EventJoin,
        Event,
        Profile,
        *REVIEW_REQUESTS,
    }
)


def _bad(message: str, request_id: Any) -> ProtocolError:
    return ProtocolError(ErrorCode.BAD_REQUEST, message, request_id)


def _check(name: str, spec: Field, value: Any, where: str, request_id: int) -> Any:
    if spec.kind is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise _bad(f"{where}: field {name!r} must be an integer", request_id)
        if (spec.low is not None and value < spec.low) or (
            spec.high is not None and value > spec.high
        ):
            raise _bad(
                f"{where}: field {name!r} must be from {spec.low} to {spec.high}", request_id
            )
    elif spec.kind is str:
        if not isinstance(value, str):
            raise _bad(f"{where}: field {name!r} must be text", request_id)
        if len(value) > spec.max_len:
            raise _bad(f"{where}: field {name!r} is longer than {spec.max_len}", request_id)
    elif spec.kind is bool and not isinstance(value, bool):
        raise _bad(f"{where}: field {name!r} must be true or false", request_id)
    return value


def parse_request(raw: Any) -> Request:
    """A decoded frame to its request record, or :class:`ProtocolError`.

    Unknown fields are ignored (a newer client may send more); a field of the wrong type
    or out of range is ``bad_request``; an unknown ``type`` is ``unknown_type``.
    """
    if not isinstance(raw, dict):
        raise _bad("a request is a map with 'type' and 'id'", None)
    request_id = raw.get("id")
    if (
        not isinstance(request_id, int)
        or isinstance(request_id, bool)
        or not (0 <= request_id <= MAX_ID)
    ):
        raise _bad("a request needs an integer 'id' from 0 to 2**53", None)
    kind = raw.get("type")
    if not isinstance(kind, str):
        raise _bad("a request needs a text 'type'", request_id)
    if kind == "move":
        fields = move_fields(raw)
        if fields is not None:
            return Move(id=request_id, move=fields[1], game=fields[2])
    cls = REQUESTS.get(kind)
    if cls is None:
        shown = kind if len(kind) <= 32 else kind[:32] + "..."
        raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"unknown request type {shown!r}", request_id)
    for value in raw.values():
        # only a map or list inside can nest: flat requests skip the walk
        if isinstance(value, dict | list):
            if too_deep(raw):
                raise _bad("request nested too deeply", request_id)
            break
    values: dict[str, Any] = {"id": request_id}
    for name, spec in cls.FIELDS.items():
        value = raw.get(name)
        if value is None:
            if spec.required:
                raise _bad(f"{kind}: field {name!r} is required", request_id)
            continue
        values[name] = _check(name, spec, value, kind, request_id)
    known = _field_names(cls)
    return cls(**{k: v for k, v in values.items() if k in known})


_FIELD_NAMES: dict[type[Request], frozenset[str]] = {}


def _field_names(cls: type[Request]) -> frozenset[str]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = frozenset(f.name for f in fields(cls))
    return names
