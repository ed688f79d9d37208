"""Race rooms: who is in, the lobby, the countdown, the race, the results.

This module holds the pure rules about a room (the race room's state machine; its data,
codes and states' names are :mod:`.room_state`'s, named here too); the room host
(``server.app.handlers.host``) holds a room in a process, and
``server.app.handlers.steps`` (``RoomSteps.step``, the one entry every change to a room
goes through) takes its lock, runs a step of the machine below, carries out the effects
it returns, then what comes after the lock.

A room's life, step by step (the step; what asks for it; the effects it returns):

=================  ==========================  ==============================================
step               asked for by                effects
=================  ==========================  ==============================================
``create``         ``room_create``             Persist (no notice), Hold, Seat
``join``           ``room_join``               Persist, Seat, Announce
``ready``          ``ready``                   Persist, Announce
``start``          ``start`` (the host)        Deal, Persist, Announce, Arm, (Unseat: each
                                               member away and not ready, left out)
``countdown_due``  the room's timer            Persist (``start``), Arm, TellStarted*
``racer_finished`` a racer's game ended        CheckEnd*
``end``            CheckEnd, or time up        KeepResults, Persist (no notice), Arm,
                                               CountWin, TellResults, Publish, Announce
``rematch``        ``rematch`` (the host)      Deal, Persist, Announce, Arm
``leave``          ``room_leave``, a new room  (Resign), Persist, Announce, Unseat,
                                               (CheckEnd*); the last one out: Close, Unseat
``host_away``      the host's connection gone  Persist
``forfeit``        a racer away too long       Resign, Persist
                   (housekeeping)
``rename``         a racer's ``rename``        Persist, Announce
``quick_start``    the quick race's matcher    Deal, Persist (no notice), Hold, Seat (each),
                                               Announce, Arm
=================  ==========================  ==============================================

(* after the lock is let go.) A quick race's room (``Room.quick``: made by the matcher,
``handlers/quick.py``) is born in its countdown with the matched players in it; it has
no host's actions (``start``, ``rematch``) and nobody joins it by its code.
``time_up`` names the games a race's time limit ends; the step that ends them then ends
the race (``end``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.protocol import ErrorCode
from server.protocol import refuse as refuse

from .games import LiveGame
from .room_state import CODE_ALPHABET as CODE_ALPHABET
from .room_state import CODE_LENGTH as CODE_LENGTH
from .room_state import COUNTDOWN as COUNTDOWN
from .room_state import FINISHED as FINISHED
from .room_state import LATE_START_MS as LATE_START_MS
from .room_state import LOBBY as LOBBY
from .room_state import PERSISTED as PERSISTED
from .room_state import RACING as RACING
from .room_state import Racer as Racer
from .room_state import Room as Room
from .room_state import RoomConflict as RoomConflict
from .room_state import new_code as new_code
from .room_state import normalize_code as normalize_code

# -- the race room's state machine ---------------------------------------------------------
#
# Each step below either raises the protocol error the request gets (the room unchanged)
# or changes the room and returns the effects the room host carries out, in order, under
# the room's lock (``server.app.handlers.steps.RoomSteps.carry_out``). A step that fails
# there takes the room back to the state it last had in common with Redis
# (:meth:`Room.roll_back`): the copy never runs ahead of Redis.


@dataclass(frozen=True)
class Resign:
    """Resign the racer's game, if it has not ended (before anything is written)."""

    pid: str
    gid: str


@dataclass(frozen=True)
class Deal:
    """Deal every racer named the same game of ``seed`` for race ``race`` (the games
    written, each racer's ``gid`` set), before the room is written."""

    race: int
    seed: int
    pids: tuple[str, ...]
    #: server ms, the games' creation
    at_ms: int


@dataclass(frozen=True)
class Persist:
    """Write the room (compare-and-set on its version); with ``notice``, publish it to
    the other processes under that kind."""

    notice: str | None = "room"


@dataclass(frozen=True)
class Publish:
    """Tell the other processes the state last written, under ``notice``."""

    notice: str = "room"


@dataclass(frozen=True)
class Hold:
    """Hold the room in this process, and hear of its changes (a room just made)."""


@dataclass(frozen=True)
class Seat:
    """The player's place is this room (for their next sign-in, and this process's)."""

    pid: str


@dataclass(frozen=True)
class Unseat:
    """The player has left the room: their place is no longer it."""

    pid: str


@dataclass(frozen=True)
class KeepResults:
    """Keep the race's results and every racer's replay for good, before the room's end
    is written (written again the same if the end is tried again)."""

    entries: tuple[tuple[Racer, LiveGame], ...]


@dataclass(frozen=True)
class CountWin:
    """Count the race's win on the race boards, where it counts (a failure is logged:
    the race is over all the same)."""

    entries: tuple[tuple[Racer, LiveGame], ...]


@dataclass(frozen=True)
class TellResults:
    """The last standings, then ``results``, to the room's audience, here and elsewhere."""


@dataclass(frozen=True)
class Close:
    """The room is empty: delete it, and tell its audience it has closed."""


@dataclass(frozen=True)
class Arm:
    """Arm the room's timer for its next step: the race's start in a countdown, its
    time limit in a race (nothing otherwise)."""


@dataclass(frozen=True)
class Announce:
    """Tell the room's audience its state (after the lock is let go)."""


@dataclass(frozen=True)
class TellStarted:
    """``race_start`` to each racer, and the room's state to its audience."""


@dataclass(frozen=True)
class CheckEnd:
    """See whether every racer has finished, and end the race if so."""


Effect = (
    Resign
    | Deal
    | Persist
    | Publish
    | Hold
    | Seat
    | Unseat
    | KeepResults
    | CountWin
    | TellResults
    | Close
    | Arm
    | Announce
    | TellStarted
    | CheckEnd
)


def successor(room: Room, online: set[str], leaving: str | None = None) -> str | None:
    """The rule of the host's part, written once: it passes to the longest-present member
    who is connected (``online``), other than one ``leaving``; None when nobody is."""
    for racer in room.members():
        if racer.pid in online and racer.pid != leaving:
            return racer.pid
    return None


def check_joinable(room: Room) -> None:
    if room.quick:
        raise refuse(ErrorCode.QUICK_ROOM, "a quick race is joined through its queue: quick GAME")
    # (a finished race's room takes racers for its rematch: one who left it, a friend
    # who came late; they were out of its rematches for good)
    if room.state not in (LOBBY, FINISHED):
        raise refuse(
            ErrorCode.RACE_STARTED, f"the race in room {room.code} has started; watch it instead"
        )
    if len(room.members()) >= room.max_players:
        raise refuse(ErrorCode.ROOM_FULL, f"room {room.code} is full")


def create(room: Room, pid: str, name: str, now_ms: int) -> list[Effect]:
    """A room just made, its host the one player in it: written before it is held (a room
    held here that Redis has not got is one housekeeping lets go of as expired; nobody
    else knows its code before the reply)."""
    room.racers[pid] = Racer(pid, name, now_ms)
    return [Persist(notice=None), Hold(), Seat(pid)]


def join(room: Room, pid: str, name: str, now_ms: int) -> list[Effect]:
    """A player joins, in the lobby or once the race is over (for the rematch: the last
    race's results stay as they were); joining again is harmless (nothing to do)."""
    racer = room.racers.get(pid)
    if racer is not None and not racer.left:
        return []
    check_joinable(room)
    # (one who left a finished race and comes back joins anew: last, as the room's
    # members are listed in the order they joined)
    room.racers.pop(pid, None)
    room.racers[pid] = Racer(pid, name, now_ms)
    if room.racers.get(room.host) is None or room.racers[room.host].left:
        # a race everyone left before its end leaves its room with no one in it: the
        # first to join it hosts its rematch
        room.host = pid
    return [Persist(), Seat(pid), Announce()]


def forfeit(room: Room, pid: str) -> list[Effect]:
    """A racer away from the race longer than the server waits resigns (housekeeping),
    marked ``forfeited``: the race said they resigned, as if they had given up."""
    racer = room.racers.get(pid)
    if room.state != RACING or racer is None or racer.left or racer.gid is None:
        return []
    racer.forfeited = True
    # resigned first: a resignation refused (another process has taken the game since)
    # leaves the room as it was, not marked while the game goes on
    return [Resign(pid, racer.gid), Persist()]


def rename(room: Room, pid: str, name: str) -> list[Effect]:
    """A racer has changed their name: the room shows the new one, in its last race's
    results too (the results kept of each race, and its replays, keep the name it was
    raced under)."""
    racer = room.racers.get(pid)
    if racer is None or racer.name == name:
        return []
    for result in room.results or []:
        if result.get("player") == racer.name:
            result["player"] = name
    racer.name = name
    return [Persist(), Announce()]


def leave(room: Room, pid: str, online: set[str]) -> list[Effect]:
    """A racer leaves. In a race they resign and stay in its results (``left``), as they
    do once it is over; in the lobby they are gone. A host leaving hands the part on (to
    the longest-present member when none is connected); the last one out closes the room,
    unless a race is on. A quick race's racer is in its race from the countdown on (they
    were matched into it): leaving then resigns."""
    racer = room.racers[pid]
    effects: list[Effect] = []
    # a quick race is dealt as it is made: leaving it in its countdown resigns too
    dealt = room.state == RACING or (room.quick and room.state == COUNTDOWN)
    if dealt and racer.gid:
        effects.append(Resign(pid, racer.gid))
        racer.left = True
    elif room.state == FINISHED and racer.gid:
        racer.left = True
    else:
        del room.racers[pid]
    members = room.members()
    if room.host == pid and members:
        room.host = successor(room, online) or members[0].pid
    if not members and room.state != RACING:
        return [*effects, Close(), Unseat(pid)]
    effects += [Persist(), Announce(), Unseat(pid)]
    if room.state == RACING:
        effects.append(CheckEnd())
    return effects


def host_away(room: Room, pid: str, online: set[str]) -> list[Effect]:
    """The host has gone away (no connection): a lobby or a finished race must not wait
    on them, so the part passes on, if anyone else is connected."""
    if room.state not in (LOBBY, FINISHED) or room.host != pid:
        return []
    host = successor(room, online, leaving=pid)
    if host is None:
        return []
    room.host = host
    return [Persist()]


def ready(room: Room, pid: str, value: bool) -> list[Effect]:
    if room.state == FINISHED:
        raise refuse(ErrorCode.RACE_STARTED, "the race is over: the host may call a rematch")
    if room.state != LOBBY:
        raise refuse(ErrorCode.RACE_STARTED, "the race has started")
    room.racers[pid].ready = value
    return [Persist(), Announce()]


def unready(room: Room) -> list[Racer]:
    """The members the host's start waits on: every one but the host not ready."""
    return [r for r in room.members() if not r.ready and r.pid != room.host]


def start(
    room: Room, pid: str, now_ms: int, countdown_ms: int, seed: int, online: set[str]
) -> list[Effect]:
    """The host starts the race once everyone else here is ready: a countdown on the
    room's seed, or on ``seed`` (random) where the room was made without one. A member
    not ready and not connected (``online``: which of :func:`unready` are) is taken out
    of the lobby, as leaving it does: one gone for good (a host who closed the page and
    handed the part on, having never had to press ready) would hold the lobby for ever."""
    if room.quick:
        raise refuse(ErrorCode.QUICK_ROOM, "a quick race starts by itself")
    if room.host != pid:
        raise refuse(ErrorCode.NOT_HOST, "only the host starts the race")
    if room.state == FINISHED:
        raise refuse(ErrorCode.RACE_STARTED, "the race is over: rematch starts the next")
    if room.state != LOBBY:
        raise refuse(ErrorCode.RACE_STARTED, "the race has started")
    waiting = [r.name for r in unready(room) if r.pid in online]
    if waiting:
        raise refuse(ErrorCode.NOT_READY, f"not ready yet: {', '.join(waiting)}")
    away = [r.pid for r in unready(room)]
    for gone in away:
        del room.racers[gone]
    fixed = room.fixed_seed
    dealt = count_down(room, now_ms, countdown_ms, fixed if fixed is not None else seed)
    return [*dealt, *(Unseat(gone) for gone in away)]


def rematch(room: Room, pid: str, now_ms: int, countdown_ms: int, seed: int) -> list[Effect]:
    """The host calls a rematch once a race is over: those still in the room race again,
    on a new deal (``seed``, random)."""
    if room.quick:
        raise refuse(ErrorCode.QUICK_ROOM, "a quick race has no rematch: quick GAME again")
    if room.host != pid:
        raise refuse(ErrorCode.NOT_HOST, "only the host calls a rematch")
    if room.state != FINISHED:
        raise refuse(ErrorCode.RACE_STARTED, "the race is not over yet")
    room.racers = {r.pid: r for r in room.members()}
    return count_down(room, now_ms, countdown_ms, seed)


def count_down(room: Room, now_ms: int, countdown_ms: int, seed: int) -> list[Effect]:
    """Deal every racer the same seed (kept secret until the start) and count down."""
    room.race += 1
    room.seed = seed
    room.state = COUNTDOWN
    room.results = None
    room.start_at_ms = now_ms + countdown_ms
    members = room.members()
    for racer in members:
        racer.ready = racer.forfeited = False
    pids = tuple(r.pid for r in members)
    return [Deal(room.race, seed, pids, now_ms), Persist(), Announce(), Arm()]


def quick_start(
    room: Room, players: list[tuple[str, str]], now_ms: int, countdown_ms: int, seed: int
) -> list[Effect]:
    """A quick race's room just made (``room.quick``) for the players the matcher took
    out of the queue together (``(pid, name)``): every one of them in, the countdown on
    ``seed`` (drawn now: nobody knew it before). Written before it is held, as
    :func:`create`'s."""
    for n, (pid, name) in enumerate(players):
        room.racers[pid] = Racer(pid, name, now_ms + n)
    effects = count_down(room, now_ms, countdown_ms, seed)
    deal = effects[0]
    return [
        deal,
        Persist(notice=None),
        Hold(),
        *(Seat(pid) for pid, _ in players),
        Announce(),
        Arm(),
    ]


def countdown_due(room: Room, now_ms: int) -> list[Effect]:
    """The countdown's timer has fallen due: the race starts (now, where its start was
    written too late for its racers to have had all of their time)."""
    if room.state != COUNTDOWN:
        return []
    room.state = RACING
    if room.start_at_ms is not None and now_ms - room.start_at_ms > LATE_START_MS:
        room.start_at_ms = now_ms
    return [Persist("start"), Arm(), TellStarted()]


def racer_finished(room: Room) -> list[Effect]:
    """A racer's game has ended (won, lost, resigned): the race may be over."""
    return [CheckEnd()] if room.state == RACING else []


def time_up(room: Room) -> list[str]:
    """The time limit has fallen due: the games of the race's racers, to end as they
    stand (those not ended yet time out); none once the race is over."""
    if room.state != RACING:
        return []
    return [r.gid for r in room.racers.values() if r.gid is not None]


def end(
    room: Room,
    results: list[dict[str, Any]],
    online: set[str],
    entries: tuple[tuple[Racer, LiveGame], ...] = (),
) -> list[Effect]:
    """Every racer has finished, or the time is up: the results (of ``entries``, each
    racer with their game: ``results.rank``) stand, and a host who has gone hands the part to
    a racer who is here, so that the rematch does not wait on them. The results and
    replays are kept for good before the room's end is written; the end is written
    without a notice, so that the results go out first, then the state."""
    room.results = results
    room.state = FINISHED
    if room.host not in online:
        room.host = successor(room, online) or room.host
    return [
        KeepResults(entries),
        Persist(notice=None),
        Arm(),
        CountWin(entries),
        TellResults(),
        Publish(),
        Announce(),
    ]
