"""Every key the server keeps in Redis, and its TTL: the one place that names them.

What each key holds, its type and how long it is kept are in ``docs/server.md``, "What
is kept in Redis" (one row a key, kept with the code that makes it: a test checks that no
other module spells a key). Braces in a name are Redis Cluster hash tags, so that a
game's meta and log, a room's state and results, or one week's event keys share a slot.

TTLs: a finished game and its log, and a finished room, expire ``Settings.ended_ttl``
(default 24 h) after they end; an unfinished game and a room in its lobby or race after
``Settings.idle_ttl`` (default 7 days), renewed every 64 moves and at every change of the
room. A process's claim to end a race at its time limit lasts :data:`ENDING_CLAIM_MS`.
Players, room codes and results do not expire.

The bus's channels (pub/sub, not keys) are named here too: :func:`room_channel`,
:func:`proc_channel`.
"""

from __future__ import annotations

import hashlib
from typing import Any


def player_key(pid: str) -> str:
    return f"p:{pid}"


def name_key(name: str) -> str:
    return f"pname:{name.lower()}"


def token_key(token: str) -> str:
    return "ptoken:" + hashlib.sha256(token.encode()).hexdigest()


# -- a player's devices and link codes (``devices.py``) -----------------------------------


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

# -- end of the devices' keys ------------------------------------------------------------


# -- the quick race's queue and its ghosts (``queue.py``, ``handlers/quick.py``) ----------
#
# Every queue key carries the hash tag ``{quick}``: the scripts that match players (and
# take them out of every game's queue at once) touch them together, on one node.


def quick_ratings_key(game: str) -> str:
    """Sorted set: the players waiting in ``game``'s quick race queue, scored by their
    rating (the ordinal, mu - 3 sigma)."""
    return f"qq:{{quick}}:{game}"


def quick_joined_key(game: str) -> str:
    """Sorted set: the same players, scored by when they joined (server ms)."""
    return f"qq:{{quick}}:{game}:j"


def quick_gone_key(pid: str) -> str:
    """A waiter whose link went: ``GAME JOINED_MS GONE_MS``, for ``QUICK_GONE_TTL`` s."""
    return f"qq:gone:{pid}"


#: how long a waiter whose link went keeps their time in the queue, back in that game's
QUICK_GONE_TTL = 60


#: hash: player id -> the game whose queue they wait in (one queue at a time)
QUICK_WAITING = "qq:{quick}:at"
#: sorted set: players a match took out of a queue lately, scored by when (server ms)
QUICK_MATCHED = "qq:{quick}:m"


def quick_room_key(pid: str) -> str:
    """String: the room the player's last match is made in, written before it is."""
    return f"qq:{{quick}}:r:{pid}"


def quick_alive_key(proc: str) -> str:
    """String, a few seconds: ``proc`` runs the quick matcher (docs/server.md, keys)."""
    return f"qq:{{quick}}:alive:{proc}"


def quick_races_key(game: str) -> str:
    """Sorted set: ``{code}:{race}`` of races a lone quick racer may race as ghosts."""
    return f"qgr:{game}"


#: races of a game kept in its :func:`quick_races_key` (the newest by rating are kept)
QUICK_RACES_KEPT = 5000


def quick_seen_key(pid: str) -> str:
    """Set: ``{code}:{race}`` of the races the player has raced as ghosts (never again)."""
    return f"qseen:{pid}"


#: how long the races a player raced as ghosts are remembered, seconds (30 days)
QUICK_SEEN_TTL = 30 * 86400


def quick_ghosts_key(gid: str) -> str:
    """String: a ghost race's ghosts (msgpack), for its result wherever it ends."""
    return f"qgh:{{{gid}}}"


def quick_current_key(pid: str) -> str:
    """String: the game id of the player's ghost race in play (taken up again on their
    next sign-in, wherever: ``QuickRace.resume``); deleted at its end."""
    return f"qcur:{pid}"


# -- end of the quick race's keys -------------------------------------------------------


# -- limits shared by the processes (``limits.py``) and what one player keeps -----------


def limit_key(kind: str, who: str) -> str:
    """Sorted set: the uses of limit ``kind`` (``deal``, ``hint``, ``stuck``,
    ``challenge``) by ``who`` (an address, a player id) in its window, each scored by its
    server ms. Expires a window after its last use."""
    return f"lim:{kind}:{who}"


def claim_key(kind: str, who: str) -> str:
    """A claim (``SET NX PX``) holding its holder's token: ``who`` is doing ``kind``
    (``hint``: a hint being worked out), in whichever process."""
    return f"claim:{kind}:{who}"


#: how long a claim that is never let go (its process died) holds, ms: longer than a
#: hint's wait for a worker and its three searches at most (``handlers/hints.py``,
#: ``TIMEOUT_S`` each)
CLAIM_MS = 60_000


def solo_games_key(pid: str) -> str:
    """List: the ids of the player's solo games dealt by ``new_game``, newest first: the
    newest (played or not) and at most :data:`SOLO_KEPT` finished ones before it. A game
    replaced unfinished, or pushed past those, is deleted (``Games.keep_solo``). Kept
    ``idle_ttl`` from the last deal."""
    return f"psolo:{pid}"


def bucket_key(kind: str, who: str) -> str:
    """String: a token bucket's "theoretical arrival time" (server ms) for limit ``kind``
    (``register``) and ``who`` (an address): ``scripts.TOKEN_BUCKET``. Expires once the
    bucket is full again (plus :data:`WINDOW_MARGIN_MS`)."""
    return f"bkt:{kind}:{who}"


#: how long past its time a former name's key is kept before it goes, ms (a day: a clock
#: a little behind Redis's still finds it kept)
NAME_KEPT_MARGIN_MS = 86_400_000


#: the finished solo games a player keeps beside the newest
SOLO_KEPT = 10

#: how long a limit's window is kept past the window's length after its last use, ms
#: (``scripts.SLIDING_WINDOW``)
WINDOW_MARGIN_MS = 1000

# -- end of the limits' keys -------------------------------------------------------------


#: ``Settings.idle_ttl``'s default, seconds (7 days): how long an unfinished game or a
#: room in its lobby or race is kept after its last renewal, when no setting says
IDLE_TTL = 7 * 24 * 3600


def game_key(gid: str) -> str:
    return f"g:{{{gid}}}"


def log_key(gid: str) -> str:
    return f"g:{{{gid}}}:log"


def fence_key(gid: str) -> str:
    return f"g:{{{gid}}}:fence"


def room_key(code: str) -> str:
    return f"r:{{{code}}}"


#: how long a player's daily games of a day are remembered, seconds (31 days)
DAILY_TTL = 31 * 86400


def daily_key(day: str, game: str, pid: str) -> str:
    return f"dly:{day}:{game}:{pid}"


def practice_key(day: str, game: str, pid: str) -> str:
    return f"dlyp:{day}:{game}:{pid}"


def deal_key(day: str, game: str) -> str:
    return f"deal:{day}:{game}"


def deal_par_key(day: str, game: str) -> str:
    """The book line and par of a day's certified deal, found by the search for par once
    the quick verdict has fixed the deal (``Dailies.fix_par``)."""
    return f"deal:{day}:{game}:par"


def deal_claim_key(day: str, game: str) -> str:
    return f"deal:{day}:{game}:claim"


def deal_grade_key(day: str, game: str) -> str:
    """The difficulty of a day's deal (``Grades.fix``), kept :data:`DAILY_TTL`."""
    return f"deal:{day}:{game}:grade"


def deal_grade_claim_key(day: str, game: str) -> str:
    """The process grading a day's deal (``Grades.claim``): its own claim, so that the
    grading and the certifier's search for par of one deal never wait on each other."""
    return f"deal:{day}:{game}:gclaim"


def commitment_key(day: str, game: str) -> str:
    """The commitment to a day's deal of a game (``DailyCommitments``): no TTL, so that a
    daily replay kept for good can always be checked against it (ten small keys a day)."""
    return f"dcommit:{day}:{game}"


def streak_key(pid: str) -> str:
    return f"stk:{pid}"


#: ranked daily games whose finish is owed (``DailyChallenge.finish``); no TTL, each id
#: is removed once its finish is written, or its game is gone
DAILIES_OWED = "dailies:owed"


# -- the daily reset: the ranked attempts it ends ---------------------------------------

#: sorted set of the ranked daily attempts not known to have ended, ``{pid}/{gid}``,
#: scored by their day's reset (server ms); no TTL: a member is added before its attempt
#: is claimed as the player's ranked one, and removed once the attempt's final entry is
#: logged (or its game is gone, or it never became the ranked one)
DAILIES_OPEN = "dailies:open"


def closing_key(gid: str) -> str:
    """Held (``SET NX PX``) by the process ending a ranked daily at its day's reset; it
    shares the game's hash tag."""
    return f"g:{{{gid}}}:closing"


#: how long a process may take to end one attempt at the reset before another may try
CLOSING_CLAIM_MS = 10_000

# -- end of the daily reset's keys ------------------------------------------------------


# -- the leaderboards (``boards.py``; what a board is: ``server.app.domain.boards``) -----


def board_key(board_id: str) -> str:
    """Sorted set: a board's members (``"{finish ms}:{pid}"`` on a time board, the
    player id on a counting board), lower score first."""
    return f"lb:{{{board_id}}}"


def board_details_key(board_id: str) -> str:
    """Hash: player id -> their entry's details (msgpack)."""
    return f"lbd:{{{board_id}}}"


def board_members_key(board_id: str) -> str:
    """Hash: player id -> their member in :func:`board_key`."""
    return f"lbm:{{{board_id}}}"


def board_counts_key(board_id: str) -> str:
    """Hash: player id -> their count (counting boards only)."""
    return f"lbc:{{{board_id}}}"


def board_keys(board_id: str) -> list[str]:
    """A board's four keys, as its scripts take them: the board, the details, the
    members, the counts. One hash tag, one slot.

    >>> board_keys("wins/gate")
    ['lb:{wins/gate}', 'lbd:{wins/gate}', 'lbm:{wins/gate}', 'lbc:{wins/gate}']
    """
    return [
        board_key(board_id),
        board_details_key(board_id),
        board_members_key(board_id),
        board_counts_key(board_id),
    ]


#: how long a daily board (``daily/GAME/DAY``) is kept after its last write, seconds;
#: the other boards are kept for good
DAILY_BOARD_TTL = DAILY_TTL


def counted_key(board_id: str, gid: str) -> str:
    """Set (``NX``) when a game's win is counted on a counting board: a count tried
    again (a finish written again after a failure) finds it and counts nothing. Shares
    the board's hash tag, so the count's script touches one slot. Kept
    :data:`COUNTED_TTL`."""
    return f"lbg:{{{board_id}}}:{gid}"


#: how long a counted game's mark is kept, seconds (31 days: far longer than a finish
#: can stay owed, since its game expires ``ended_ttl`` after it ends)
COUNTED_TTL = DAILY_TTL


def ratings_key(game: str) -> str:
    """Hash: player id -> their rating at ``game`` (msgpack; ``store/ratings.py``)."""
    return f"rtg:{{{game}}}"


def rated_key(game: str, race: str) -> str:
    """String: the figures a race's rating wrote (``race`` is ``{code}:{n}:{start ms}``),
    set with them, in :func:`ratings_key`'s slot, so that a race is rated once however
    often its end is tried. Kept :data:`RATED_TTL`."""
    return f"rtg:{{{game}}}:race:{race}"


#: how long a race's rating mark is kept, seconds: a race's end is tried again for
#: minutes at most, so a week is ample
RATED_TTL = 7 * 86400


def follow_key(pid: str) -> str:
    return f"fol:{pid}"


def replay_key(gid: str) -> str:
    return f"rp:{gid}"


#: ``Settings.replay_ttl``'s default, seconds (7 days): how long a finished solo,
#: practice or challenge game (its meta and log: its replay) is kept
REPLAY_TTL = 7 * 24 * 3600


def review_key(gid: str) -> str:
    """A finished game's review, worked out once (``handlers/review.py``)."""
    return f"grv:{{{gid}}}"


def deal_line_key(game: str, rules_version: int, seed: int) -> str:
    """The shortest winning line of a deal its games' reviews found (par for a deal
    with no book line: ``handlers/review.py``)."""
    return f"dln:{game}:{rules_version}:{seed}"


#: how long a deal's shortest line found is kept, seconds, from when it was last bettered
DEAL_LINE_TTL = 30 * 24 * 3600

#: how long a game's review is kept, seconds (as long as a solo game's replay at least;
#: a race's or a ranked daily's replay outlives it, and its review is worked out again)
REVIEW_TTL = 7 * 24 * 3600
#: how long the claim to work out a game's review holds when never let go (its process
#: died), ms: longer than a review's wait for a worker and its search
#: (``handlers/review.py``: ``WAIT_S`` and ``BUDGET_S`` with its margin)
REVIEW_CLAIM_MS = 120_000

#: ``Settings.challenge_ttl``'s default, seconds (30 days): how long a challenge, its
#: table and the replays it races are kept from its making
CHALLENGE_TTL = 30 * 24 * 3600


def challenge_key(cid: str) -> str:
    return f"ch:{{{cid}}}"


def challenge_takers_key(cid: str) -> str:
    return f"ch:{{{cid}}}:takers"


def challenge_table_key(cid: str) -> str:
    return f"ch:{{{cid}}}:t"


def player_challenges_key(pid: str) -> str:
    return f"pch:{pid}"


def challenge_news_key(pid: str) -> str:
    return f"pchn:{pid}"


def challenge_game_key(pid: str) -> str:
    return f"pchg:{pid}"


def code_key(code: str) -> str:
    return f"rcode:{code}"


def results_key(code: str, race: int) -> str:
    return f"r:{{{code}}}:results:{race}"


LIVE_ROOMS = "rooms:live"


# the room's keys beside its state (``r:{code}``, room_key): one hash tag, one slot


def version_key(code: str) -> str:
    """The version of the room's state: every change is a compare-and-set on it."""
    return f"r:{{{code}}}:v"


def standings_key(code: str) -> str:
    """Hash: racer id -> their standing in the current race (msgpack ``[home, total,
    moves, status]``), written with each progress tick by the racer's process."""
    return f"r:{{{code}}}:st"


def watchers_key(code: str) -> str:
    """Hash: process id -> ``"<count> <until ms>"``, the room's watchers connected there
    (renewed by each process's housekeeping; a count past its time is a dead process's)."""
    return f"r:{{{code}}}:w"


def ending_key(code: str) -> str:
    """Held (``SET NX PX``) by the process ending a race at its time limit."""
    return f"r:{{{code}}}:ending"


#: how long a process may take to end a race at its time limit before another may try
ENDING_CLAIM_MS = 10_000


def online_key(pid: str) -> str:
    """The id of the process a player is connected to (expires unless renewed)."""
    return f"online:{pid}"


def away_key(pid: str) -> str:
    """Since when (ms) a player has had no connection to any process; gone at sign-in."""
    return f"away:{pid}"


#: an away mark's time to live: past any wait it measures (forfeit_after, host_grace)
AWAY_TTL = 24 * 3600


def room_channel(code: str) -> str:
    """The bus channel of a room's changes (pub/sub: not a key)."""
    return f"room:{code}"


def proc_channel(proc: str) -> str:
    """The bus channel of messages to one server process (pub/sub: not a key)."""
    return f"proc:{proc}"


#: the stream of board updates published on the bus, and about how many it keeps
BOARD_FEED = "bus:boards"
BOARD_FEED_LEN = 1000


#: the daily deals' secret's fingerprint, agreed by every process (``secret.py``); no TTL
SECRET_FINGERPRINT = "secret:fp"


# -- the pace check and its review (``pace.py``; the check: ``server.app.domain.pace``) --


def homes_key(gid: str) -> str:
    """List: the game's ``home`` chains, ``"{first log index} {moves}"`` each: the moves
    one ``home`` request played, one action to the pace check. Kept as the game's log
    is (the same TTL, set at each chain)."""
    return f"g:{{{gid}}}:homes"


#: a held result's record (msgpack: what was held, its board entries, the check's
#: figures), by id (the game's); one hash tag for the review's keys, one slot
REVIEW_RECORDS = "rv:{review}:rec"
#: id -> ``held``, ``cleared`` or ``removed``
REVIEW_STATES = "rv:{review}:state"
#: id -> the decision (msgpack: state, reason, when)
REVIEW_DECISIONS = "rv:{review}:why"
#: ids held and not decided, scored by when held (server ms)
REVIEW_OPEN = "rv:{review}:open"
#: ids decided, scored by when decided (server ms); records and decisions are kept for good
REVIEW_DONE = "rv:{review}:done"


# -- groups (``groups.py``; what a group is: ``server.app.domain.groups``) -------------


def group_keys(gid: str) -> list[str]:
    """A group's three keys, as its scripts take them: the group, its members, the
    players removed from it. One hash tag, one slot.

    >>> group_keys("k3v9xq2mab")
    ['grp:{k3v9xq2mab}', 'grp:{k3v9xq2mab}:m', 'grp:{k3v9xq2mab}:out']
    """
    return [f"grp:{{{gid}}}", f"grp:{{{gid}}}:m", f"grp:{{{gid}}}:out"]


def player_groups_key(pid: str) -> str:
    """Set: ids of the groups the player is in (an index; a group's members are the
    truth, and an id in it that is no longer so is dropped when read)."""
    return f"pgrp:{pid}"


# -- end of the groups' keys -------------------------------------------------------------
# -- weekly events and their leagues (``leagues.py``; ``server.app.domain.leagues``) ---
# one hash tag a week, so that a week's keys share a Redis Cluster slot and its scripts
# touch that one


def event_members_key(week: str) -> str:
    """Hash: player id -> their league that week."""
    return f"ev:{{{week}}}:m"


def event_fill_key(week: str) -> str:
    """Hash: ``{tier}:n`` and ``{tier}:c``, the tier's leagues and its open one's size."""
    return f"ev:{{{week}}}:fill"


def league_members_key(week: str, league: str) -> str:
    """List: a league's members, in the order they joined."""
    return f"ev:{{{week}}}:L:{league}"


def league_results_key(week: str, league: str) -> str:
    """Hash: ``{day}|{game}|{pid}`` -> a daily's result in the league (msgpack)."""
    return f"ev:{{{week}}}:r:{league}"


def event_shut_key(week: str) -> str:
    """String: set when the week's close begins; no result is written after it."""
    return f"ev:{{{week}}}:shut"


def event_closing_key(week: str) -> str:
    """String: the process closing the week (``SET NX PX``)."""
    return f"ev:{{{week}}}:closing"


def event_closed_key(week: str) -> str:
    """String: the week is closed (the process that closed it)."""
    return f"ev:{{{week}}}:closed"


#: player id -> tier, carried from week to week; no TTL (one field a player, as ``p:``)
PLAYER_TIERS = "ev:tier"
#: weeks with members not closed yet, scored by their end (server ms)
EVENTS_OPEN = "events:open"
#: how long a closed week's keys are kept (past weeks readable with ``event``'s ``week``)
EVENT_TTL = 12 * 7 * 86400
#: how long a process may take to close a week before another takes it over (a close
#: that takes longer is taken over and done again: every write of it may be)
LEAGUE_CLOSE_CLAIM_MS = 120_000


def first_key(args: tuple[Any, ...]) -> Any:
    """The key a Redis Cluster routes a command by: its first (for ``EVAL`` and
    ``EVALSHA``, the first after the count of keys); None for a command with none.

    >>> first_key(("EVALSHA", "ab12", 2, "g:{x}:fence", "g:{x}:log", 7, "1 t1>b2"))
    'g:{x}:fence'
    >>> first_key(("EXPIRE", "g:{x}:log", 60)), first_key(("EVAL", "return 1", 0))
    ('g:{x}:log', None)
    """
    name = str(args[0]).upper()
    if name in ("EVALSHA", "EVAL"):
        return args[3] if int(args[2]) > 0 else None
    return args[1] if len(args) > 1 else None
