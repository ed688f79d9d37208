"""The requests of groups and of the weekly events (``docs/protocol.md``, "Groups" and
"Weekly leagues"): records as :mod:`.messages`'s, listed in its request table."""

from __future__ import annotations

from dataclasses import dataclass

from .fields import Field, Request


@dataclass(frozen=True, slots=True)
class GroupCreate(Request):
    TYPE = "group_create"
    FIELDS = {"name": Field(str, required=True, max_len=64)}
    name: str = ""


@dataclass(frozen=True, slots=True)
class GroupJoin(Request):
    """Join a group with its link's key (``/g/GROUP?k=KEY``)."""

    TYPE = "group_join"
    FIELDS = {
        "group": Field(str, required=True, max_len=16),
        "key": Field(str, required=True, max_len=32),
    }
    group: str = ""
    key: str = ""


@dataclass(frozen=True, slots=True)
class GroupLeave(Request):
    TYPE = "group_leave"
    FIELDS = {"group": Field(str, required=True, max_len=16)}
    group: str = ""


@dataclass(frozen=True, slots=True)
class GroupRemove(Request):
    """The owner removes a member (by name), who cannot join again by a link."""

    TYPE = "group_remove"
    FIELDS = {"group": Field(str, required=True, max_len=16), "name": Field(str, required=True)}
    group: str = ""
    name: str = ""


@dataclass(frozen=True, slots=True)
class GroupLink(Request):
    """The owner makes a new join link; the old one stops working."""

    TYPE = "group_link"
    FIELDS = {"group": Field(str, required=True, max_len=16)}
    group: str = ""


@dataclass(frozen=True, slots=True)
class GroupDelete(Request):
    TYPE = "group_delete"
    FIELDS = {"group": Field(str, required=True, max_len=16)}
    group: str = ""


@dataclass(frozen=True, slots=True)
class GroupShow(Request):
    """A group as its members see it; ``watch`` true: sent again, as a ``group`` event,
    each time a member comes online or goes, joins or leaves (false: no more)."""

    TYPE = "group_show"
    FIELDS = {"group": Field(str, required=True, max_len=16), "watch": Field(bool)}
    group: str = ""
    watch: bool | None = None


@dataclass(frozen=True, slots=True)
class GroupList(Request):
    """The groups the player is in."""

    TYPE = "groups"


@dataclass(frozen=True, slots=True)
class GroupBoard(Request):
    """A board among a group's members (or the group's week board, ``week/GAME``)."""

    TYPE = "group_board"
    FIELDS = {"group": Field(str, required=True, max_len=16), "board": Field(str, required=True)}
    group: str = ""
    board: str = ""


GROUP_REQUESTS = (
    GroupCreate,
    GroupJoin,
    GroupLeave,
    GroupRemove,
    GroupLink,
    GroupDelete,
    GroupShow,
    GroupList,
    GroupBoard,
)


@dataclass(frozen=True, slots=True)
class EventJoin(Request):
    """Join this week's event: placed in a league of one's tier (``docs/leaderboards.md``,
    "Weekly leagues")."""

    TYPE = "event_join"


@dataclass(frozen=True, slots=True)
class Event(Request):
    """One's league of a week's event and its standings (``week``: ``YYYY-Www``, this
    week's by default; a past week's as it closed); ``watch`` true: this week's league
    is sent again, as an ``event`` event, each time its standings change (false: no
    more)."""

    TYPE = "event"
    FIELDS = {"week": Field(str, max_len=8), "watch": Field(bool)}
    week: str | None = None
    watch: bool | None = None
