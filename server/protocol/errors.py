"""Error codes: every way a request can fail has one, documented in ``docs/protocol.md``."""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class ErrorCode(StrEnum):
    BAD_REQUEST = "bad_request"
    """The frame is a map but not a valid request: a field missing, of the wrong type or
    out of range."""
    UNKNOWN_TYPE = "unknown_type"
    """The request's ``type`` is not one this server knows."""
    BAD_VERSION = "bad_version"
    """``hello`` asked for a protocol version this server does not speak."""
    HELLO_FIRST = "hello_first"
    """A request other than ``hello`` before ``hello``."""
    SIDE_CONNECTION = "side_connection"
    """A request to play (a game, a room, a daily, the quick race, a hint) on a connection
    signed in with ``hello``'s ``side``: it sits beside the player's own connection and
    cannot play."""
    NOT_AUTHENTICATED = "not_authenticated"
    """The request needs a signed-in player: ``register`` or ``hello`` with a token first."""
    BAD_TOKEN = "bad_token"
    """``hello`` carried a token that belongs to no player."""
    NAME_TAKEN = "name_taken"
    """``register``, ``rename``: another player has this name (names are unique ignoring
    case), or had it lately (a former name is kept for its player ``name_kept_days``)."""
    BAD_NAME = "bad_name"
    """``register``, ``rename``: a name is 2-20 letters, digits, ``_`` or ``-``, the first
    a letter or a digit."""
    ALREADY_REGISTERED = "already_registered"
    """``register`` on a connection already signed in as a player."""
    ILLEGAL_MOVE = "illegal_move"
    """``move`` named a move that is not legal now, or no move at all; the message says why."""
    UNDO_REFUSED = "undo_refused"
    """``undo`` with nothing to take back, or past a move that showed hidden cards."""
    NO_SUCH_GAME = "no_such_game"
    """An unknown game id, or no game in play to apply a move to."""
    GAME_OVER = "game_over"
    """The game has ended (won, lost or resigned): no more moves."""
    NO_SUCH_ROOM = "no_such_room"
    """No room has this code (or it has expired)."""
    NOT_IN_ROOM = "not_in_room"
    """The request needs you to be in a room (``ready``, ``start``, ``rematch``)."""
    ROOM_FULL = "room_full"
    """The room already holds ``max_players`` racers."""
    RACE_STARTED = "race_started"
    """The race has started (or is counting down): nobody joins, and the lobby is closed."""
    NOT_HOST = "not_host"
    """Only the room's host may do this."""
    NOT_STARTED = "not_started"
    """A move on a race game during the countdown: wait for ``race_start``."""
    NOT_READY = "not_ready"
    """``start``: every racer but the host must be ready."""
    NO_SUCH_BOARD = "no_such_board"
    """``top`` or ``board_watch`` named no board (or a day that has not come)."""
    NO_SUCH_REPLAY = "no_such_replay"
    """``replay`` named no replay."""
    NOT_PUBLIC = "not_public"
    """A daily replay before that day's reset: only its player may see it until then."""
    OTHER_RULES = "other_rules"
    """``replay_view``, ``review``: the replay was played under another version of its
    game's rules than this server plays, so the server cannot draw its steps (its moves
    still show) nor review it."""
    NO_SUCH_PLAYER = "no_such_player"
    """``follow``/``unfollow``/``profile``/``group_remove`` named no player."""
    BAD_LINK_CODE = "bad_link_code"
    """``link`` with a code that cannot be one: not 8 of the link codes' symbols."""
    NO_SUCH_LINK_CODE = "no_such_link_code"
    """``link`` with a code no one holds: never made, used already, or expired."""
    NO_SUCH_DEVICE = "no_such_device"
    """``sign_out`` named no device of the player's."""
    THIS_DEVICE = "this_device"
    """``sign_out`` named the device asking: a client forgets its own token instead."""
    TOO_MANY_DEVICES = "too_many_devices"
    """``link_code`` or ``link`` for a player who has the most devices a player may."""
    GAME_ELSEWHERE = "game_elsewhere"
    """The game is being played through another connection (another server process took
    it since): this move was not applied. Sign in again to play it here."""
    ROOM_BUSY = "room_busy"
    """Another change to the room took longer than ``lock_wait`` (Redis slow or away):
    this request was not carried out. Try again in a moment."""
    RATE_LIMITED = "rate_limited"
    """Too many requests: this one was dropped. Slow down (see ``limits`` in ``welcome``).
    Also ``register`` past the new players an address may register (``register_burst``
    at once, then ``register_rate`` an hour), ``rename`` within ``rename_days`` of the last,
    ``new_game`` past the new games a player may deal in a minute, and ``hint`` asked
    while one is being worked out, past the hints a minute allows, or while the server's
    hint workers are busy with other players' hints; ``review`` past the reviews a
    player may have worked out in an hour, or while the review workers are busy."""
    HINTS_OFF = "hints_off"
    """``hint`` on a race game in a room made without hints (``room_create``'s
    ``hints``)."""
    NO_HOME = "no_home"
    """``home`` in a game whose cards leave in pairs (Nestor, Doubles and Quits): every
    legal move there takes a pair off, and which pair is the player's choice, so each is
    sent as a ``move``."""
    NO_SUCH_CHALLENGE = "no_such_challenge"
    """``challenge_take`` or ``challenge_show`` named no challenge (or it has expired)."""
    NOT_YET = "not_yet"
    """``challenge_take`` of a challenge of today's daily deal before the taker's own
    ranked attempt at it is over (it opens then, or at the day's reset)."""
    OWN_CHALLENGE = "own_challenge"
    """``challenge_take`` of a challenge of one's own game."""
    ALREADY_TAKEN = "already_taken"
    """``challenge_take`` of a challenge the player has taken before (once each)."""
    CHALLENGE_IN_PLAY = "challenge_in_play"
    """``challenge_take`` while the player's game of another challenge is still being
    played (one at a time): finish or resign it first."""
    DEAL_CHANGED = "deal_changed"
    """``daily``: today's deal of that game, as the server holds it, no longer matches the
    commitment published for it (``docs/commitments.md``): it was changed after it was
    committed to, and the server will not deal it. Logged as an error, and counted in
    ``/metrics``; nothing is dealt."""
    BAD_GROUP_NAME = "bad_group_name"
    """``group_create``: a group's name is 2-32 letters, digits, spaces, ``_ - ' . &``,
    starting with a letter or digit, with no two spaces in a row."""
    NO_SUCH_GROUP = "no_such_group"
    """A group request named no group (never made, deleted, or not a group id)."""
    NOT_A_MEMBER = "not_a_member"
    """A group request of a group the player is not in; ``group_remove`` of a player who
    is not in it."""
    NOT_GROUP_OWNER = "not_group_owner"
    """``group_remove``, ``group_link``, ``group_delete`` by a member who is not the
    group's owner."""
    GROUP_FULL = "group_full"
    """``group_join`` of a group that has the most members a group may
    (``group_members``)."""
    TOO_MANY_GROUPS = "too_many_groups"
    """``group_create`` or ``group_join`` by a player in the most groups a player may be
    in (``player_groups``)."""
    BAD_GROUP_LINK = "bad_group_link"
    """``group_join`` with a key that is not the group's: mistyped, or an old link the
    owner has replaced (``group_link``)."""
    REMOVED_FROM_GROUP = "removed_from_group"
    """``group_join`` by a player the owner removed from the group: no link lets them
    back."""
    NO_SUCH_WEEK = "no_such_week"
    """``event`` named no ISO week (``YYYY-Www``), a week that has not come, or one whose
    event is no longer kept (``docs/leaderboards.md``, "Weekly leagues")."""
    EVENT_CLOSING = "event_closing"
    """``event_join`` while last week's leagues are being closed (the first minutes of
    Monday, UTC): the tiers are being settled; try again in a few minutes."""
    QUICK_ROOM = "quick_room"
    """``start``, ``rematch`` or ``room_join`` in a quick race's room: it starts by itself
    and is joined only through the queue (``quick``)."""
    GAME_NOT_OVER = "game_not_over"
    """``review`` of a game still being played: a game is reviewed once it is over."""
    REVIEW_LATER = "review_later"
    """``review`` of a game of a daily deal (a ranked daily, a practice, a challenge of
    one) before that day's reset: a review tells the order of the stock, which players
    of the day's deal must not know. It opens at the reset, for everyone."""
    INTERNAL_ERROR = "internal_error"
    """The server failed to handle the request; it is logged. A move, undo or resign that
    fails this way was not applied."""


class ProtocolError(Exception):
    """A request that fails with an error code; the server answers it as an ``error``."""

    def __init__(self, code: ErrorCode, message: str, request_id: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.request_id = request_id


def refuse(code: ErrorCode, message: str) -> ProtocolError:
    """The error a request is refused with (its id is set where it is answered): the one
    way the domain's rules and the parts refuse."""
    return ProtocolError(code, message)
