"""Every Lua script the server runs in Redis, in one place, and the one way they are run.

A :class:`Script` holds its source, its SHA-1 (worked out once) and the names of its
``KEYS`` and ``ARGV``, which its source declares as locals in its first lines (checked
when the script is made). ``await script(redis, keys=[...], args=[...])`` runs it by its
hash (``EVALSHA``); a Redis that does not have it (``NOSCRIPT``: restarted, failed over,
``SCRIPT FLUSH``) is sent the source once (``EVAL``, which also caches it there), as
redis-py's own ``Script`` does. The group commit sends :data:`FENCED_APPEND` by its
:attr:`Script.sha` as well, packed by hand (the move path), loads :data:`SCRIPTS` on each
connection it makes, and sends again a write that met ``NOSCRIPT`` (``commit.py``).

Each script touches keys of one hash tag (a Redis Cluster runs it on one node).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from typing import Any

from redis.exceptions import NoScriptError, ResponseError

from .ready import loading_retry

log = logging.getLogger("patience.store")


class Script:
    """A Lua script: its source, its SHA-1, and the names of its ``KEYS`` and ``ARGV``.

    The source's first lines name them as locals, in order (a script that takes none
    of one kind has no line for it); a key or argument named last may be left out of a
    call (its local is then ``nil``):

    >>> s = Script(("counter",), ("by",), '''
    ... local counter = KEYS[1]
    ... local by = ARGV[1]
    ... return redis.call('INCRBY', counter, by)
    ... ''')
    >>> s.sha == hashlib.sha1(s.source.encode()).hexdigest(), s.keys, s.args
    (True, ('counter',), ('by',))
    >>> Script(("a",), (), "return KEYS[1]")
    Traceback (most recent call last):
    ...
    ValueError: a script's first lines must be: local a = KEYS[1]
    """

    __slots__ = ("args", "keys", "sha", "source")

    def __init__(self, keys: tuple[str, ...], args: tuple[str, ...], source: str) -> None:
        #: the names of its KEYS and ARGV, as its locals name them
        self.keys = keys
        self.args = args
        self.source = source
        #: its SHA-1, hex: what ``EVALSHA`` runs it by
        self.sha = hashlib.sha1(source.encode()).hexdigest()
        head = [_locals(keys, "KEYS"), _locals(args, "ARGV")]
        head = [line for line in head if line]
        lines = [line.strip() for line in source.strip().splitlines()]
        if lines[: len(head)] != head:
            raise ValueError("a script's first lines must be: " + "; ".join(head))

    def command(self, keys: Sequence[Any], args: Sequence[Any]) -> tuple[Any, ...]:
        """The ``EVALSHA`` command running it on ``keys`` and ``args`` (as a group
        commit's write sends it).

        >>> FENCED_APPEND.command(["g:{x}:fence", "g:{x}:log"], [3, "1 t1>b2"])[2:]
        (2, 'g:{x}:fence', 'g:{x}:log', 3, '1 t1>b2')
        """
        self._check(keys, args)
        return ("EVALSHA", self.sha, len(keys), *keys, *args)

    async def __call__(self, redis: Any, keys: Sequence[Any], args: Sequence[Any]) -> Any:
        """Run it on ``redis`` (a client, one Redis or a cluster): its reply. A Redis
        without it in its cache is sent its source, once."""
        self._check(keys, args)
        try:
            return await redis.evalsha(self.sha, len(keys), *keys, *args)
        except NoScriptError:
            log.debug("a script was not in Redis's cache; sending its source")
            return await redis.eval(self.source, len(keys), *keys, *args)

    def queue(self, pipe: Any, keys: Sequence[Any], args: Sequence[Any]) -> None:
        """Queue it, by its hash, on a pipeline that is executed with
        ``raise_on_error=False``; hand its reply to :meth:`settle`. (As a command: a
        cluster client's pipeline refuses its ``evalsha`` method, but routes the command
        by its first key.)"""
        pipe.execute_command(*self.command(keys, args))

    async def settle(self, redis: Any, reply: Any, keys: Sequence[Any], args: Sequence[Any]) -> Any:
        """The reply of a run :meth:`queue` queued: as it is, or, when Redis had not the
        script (it did not run), the reply of running it again on ``redis``; any other
        error reply is raised."""
        if isinstance(reply, NoScriptError):
            return await self(redis, keys, args)
        if isinstance(reply, Exception):
            raise reply
        return reply

    def _check(self, keys: Sequence[Any], args: Sequence[Any]) -> None:
        if len(keys) > len(self.keys) or len(args) > len(self.args):
            raise ValueError(
                f"a script of {len(self.keys)} keys and {len(self.args)} arguments "
                f"given {len(keys)} and {len(args)}"
            )


def _locals(names: tuple[str, ...], table: str) -> str:
    if not names:
        return ""
    values = ", ".join(f"{table}[{n}]" for n in range(1, len(names) + 1))
    return f"local {', '.join(names)} = {values}"


def script_error(exc: BaseException, code: str) -> bool:
    """Whether ``exc`` is a script's own error reply of ``code`` (``redis.error_reply``
    of ``"<CODE> <message>"``): redis-py has no class for codes of our own, and makes it
    a bare ``ResponseError`` whose text starts with the code.

    >>> script_error(ResponseError("FENCED another process has taken this game"), "FENCED")
    True
    >>> not_ours = ResponseError("FENCEDX no"), OSError("FENCED another")
    >>> [script_error(exc, "FENCED") for exc in not_ours]
    [False, False]
    """
    return type(exc) is ResponseError and str(exc).partition(" ")[0] == code


#: the error code :data:`FENCED_APPEND` answers a writer that is fenced out
FENCED = "FENCED"

#: Appends an entry to a game's log only while the writer's token is the game's fence.
#: Returns the log's new length, or the error ``FENCED``.
FENCED_APPEND = Script(
    ("fence", "log"),
    ("token", "entry"),
    """
local fence, log = KEYS[1], KEYS[2]
local token, entry = ARGV[1], ARGV[2]
if redis.call('GET', fence) ~= token then
  return redis.error_reply('FENCED another process has taken this game')
end
return redis.call('RPUSH', log, entry)
""",
)
FENCED_APPEND_SHA = FENCED_APPEND.sha
#: scripts every group-commit connection loads when it connects (its writes run them by
#: their hash)
SCRIPTS = (FENCED_APPEND,)

#: Writes a room's state if its version is still ``expected``, both for ``ttl`` seconds.
#: Returns the new version, or 0 if the room changed meanwhile.
ROOM_CAS = Script(
    ("room", "version"),
    ("expected", "state", "ttl"),
    """
local room, version = KEYS[1], KEYS[2]
local expected, state, ttl = ARGV[1], ARGV[2], ARGV[3]
local current = tonumber(redis.call('GET', version) or '0')
if current ~= tonumber(expected) then return 0 end
redis.call('SET', room, state, 'EX', ttl)
redis.call('SET', version, current + 1, 'EX', ttl)
return current + 1
""",
)

#: Deletes a key holding a process's or a claim's id (a player's online mark, a claim)
#: if it still holds ``ours``.
DELETE_IF_OURS = Script(
    ("held",),
    ("ours",),
    """
local held = KEYS[1]
local ours = ARGV[1]
if redis.call('GET', held) == ours then return redis.call('DEL', held) end
return 0
""",
)

#: A timed result on a board (``keys.board_keys``, its first three): kept if it is the
#: player's first (``mode`` first) or better than theirs (``mode`` best); with ``ttl``
#: above 0 the board's keys expire then. Returns 1 if it was written, else 0.
SUBMIT_TIME = Script(
    ("board", "details", "members"),
    ("pid", "member", "score", "entry", "mode", "ttl"),
    """
local board, details, members = KEYS[1], KEYS[2], KEYS[3]
local pid, member, score, entry, mode, ttl = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6]
local old = redis.call('HGET', members, pid)
if old then
  if mode == 'first' then return 0 end
  local old_score = redis.call('ZSCORE', board, old)
  if old_score and tonumber(old_score) <= tonumber(score) then return 0 end
  redis.call('ZREM', board, old)
end
redis.call('ZADD', board, score, member)
redis.call('HSET', members, pid, member)
redis.call('HSET', details, pid, entry)
if tonumber(ttl) > 0 then
  for _, key in ipairs({board, details, members}) do redis.call('EXPIRE', key, ttl) end
end
return 1
""",
)

#: One more for a player on a counting board (``keys.board_keys``), scored by the count
#: and when it was reached (``now`` in seconds). With ``counted`` (the counted game's
#: mark, kept ``counted_ttl``), a game is counted once: a count tried again (its first
#: try landed, its answer did not) returns the count as it stands. Returns the count.
SUBMIT_COUNT = Script(
    ("board", "details", "members", "counts", "counted"),
    ("pid", "entry", "now", "counted_ttl"),
    """
local board, details, members, counts, counted = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local pid, entry, now, counted_ttl = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
if counted and not redis.call('SET', counted, 1, 'NX', 'EX', counted_ttl) then
  return tonumber(redis.call('HGET', counts, pid) or '0')
end
local n = redis.call('HINCRBY', counts, pid, 1)
local score = (1048576 - n) * 4294967296 + tonumber(now)
redis.call('ZADD', board, string.format('%.0f', score), pid)
redis.call('HSET', members, pid, pid)
redis.call('HSET', details, pid, entry)
return n
""",
)

#: A won ranked daily on the player's streaks: the game's (``game``) and all games'. A
#: day counted already, or one before the last day won (a win written late, its finish
#: owed meanwhile), changes nothing (days are YYYY-MM-DD: they sort as strings).
#: Returns ``{the game's streak, all games' streak}``.
STREAK = Script(
    ("streaks",),
    ("game", "day", "day_before"),
    """
local streaks = KEYS[1]
local game, day, day_before = ARGV[1], ARGV[2], ARGV[3]
local function bump(prefix)
  local last = redis.call('HGET', streaks, prefix .. ':last')
  local cur = tonumber(redis.call('HGET', streaks, prefix .. ':cur') or '0')
  if last and last >= day then return cur end
  if last == day_before then cur = cur + 1 else cur = 1 end
  redis.call('HSET', streaks, prefix .. ':cur', cur, prefix .. ':last', day)
  local best = tonumber(redis.call('HGET', streaks, prefix .. ':best') or '0')
  if cur > best then redis.call('HSET', streaks, prefix .. ':best', cur) end
  return cur
end
return {bump(game), bump('all')}
""",
)

# -- names (``names.py``): a name key holds ``<pid>`` (the player's name now) or
# ``<pid> <until ms>`` (a name they had, kept for them until then, server ms) -----------

#: Takes the name key ``name`` for ``pid`` at ``now`` (server ms): free, the player's
#: own (now, or kept for them), or kept for another past its time. Returns
#: ``{'ok', what it held ('' none)}``, ``{'taken', ''}`` (another's name now) or
#: ``{'reserved', until}`` (another's former name, kept for them until then).
CLAIM_NAME = Script(
    ("name",),
    ("pid", "now"),
    """
local name = KEYS[1]
local pid, now = ARGV[1], ARGV[2]
local held = redis.call('GET', name)
if held then
  local owner, kept = string.match(held, '^(%S+) (%d+)$')
  if owner == nil then owner = held end
  if owner ~= pid then
    if kept == nil then return {'taken', ''} end
    if tonumber(kept) > tonumber(now) then return {'reserved', kept} end
  end
end
redis.call('SET', name, pid)
return {'ok', held or ''}
""",
)

#: Gives a name key taken by :data:`CLAIM_NAME` back: what it held before (``was``; ''
#: none), if it still holds ``pid``'s claim.
UNCLAIM_NAME = Script(
    ("name",),
    ("pid", "was"),
    """
local name = KEYS[1]
local pid, was = ARGV[1], ARGV[2]
if redis.call('GET', name) ~= pid then return 0 end
if was == '' then redis.call('DEL', name) else redis.call('SET', name, was) end
return 1
""",
)

#: A player's new name on their hash (``keys.player_key``), if its name is still
#: ``old`` and its last change still ``last`` ('' none): ``renamed`` set to ``now``.
#: Returns 1, or 0 if another change came first.
SET_NAME = Script(
    ("player",),
    ("old", "last", "new", "now"),
    """
local player = KEYS[1]
local old, last, new, now = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local name, renamed = unpack(redis.call('HMGET', player, 'name', 'renamed'))
if name ~= old or (renamed or '') ~= last then return 0 end
redis.call('HSET', player, 'name', new, 'renamed', now)
return 1
""",
)

#: The name key of a player's former name, kept for them until ``kept`` (server ms):
#: written only while it is still theirs now; the key goes ``ttl`` ms later.
KEEP_NAME = Script(
    ("name",),
    ("pid", "kept", "ttl"),
    """
local name = KEYS[1]
local pid, kept, ttl = ARGV[1], ARGV[2], ARGV[3]
if redis.call('GET', name) ~= pid then return 0 end
redis.call('SET', name, pid .. ' ' .. kept, 'PX', ttl)
return 1
""",
)


#: A use of a limit (``limits.py``) on its window (sorted set, ``keys.limit_key``) at
#: ``now`` (server ms): drops the uses older than the window (``window`` ms); adds this
#: one (``member``) if fewer than ``most`` remain, and keeps the window ``margin`` ms
#: past it. Returns ``{1, uses with this one, 0}``, or ``{0, uses, ms until the oldest
#: leaves the window}``.
SLIDING_WINDOW = Script(
    ("uses",),
    ("now", "window", "most", "member", "margin"),
    """
local uses = KEYS[1]
local now, window, most, member, margin = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
now, window = tonumber(now), tonumber(window)
redis.call('ZREMRANGEBYSCORE', uses, '-inf', now - window)
local used = redis.call('ZCARD', uses)
if used < tonumber(most) then
  redis.call('ZADD', uses, now, member)
  redis.call('PEXPIRE', uses, window + tonumber(margin))
  return {1, used + 1, 0}
end
local oldest = redis.call('ZRANGE', uses, 0, 0, 'WITHSCORES')
return {0, used, math.max(1, tonumber(oldest[2]) + window - now)}
""",
)


#: A use of a token bucket (``limits.Limiter.take_bucket``, keys.bucket_key) at ``now``
#: (server ms), as a generic cell rate: the key holds the bucket's "theoretical arrival
#: time", which each use moves ``interval`` ms on from ``now`` or from itself, whichever
#: is later; a use fits while that time is at most ``burst`` intervals ahead of ``now``
#: (a full bucket holds ``burst`` uses, and one comes back every ``interval`` ms). Kept
#: ``margin`` ms past the time it names. Returns ``{1, 0}``, or ``{0, ms until one more
#: fits}``.
TOKEN_BUCKET = Script(
    ("bucket",),
    ("now", "interval", "burst", "margin"),
    """
local bucket = KEYS[1]
local now, interval, burst, margin = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
now, interval, burst = tonumber(now), tonumber(interval), tonumber(burst)
local tat = math.max(tonumber(redis.call('GET', bucket) or '0'), now) + interval
if tat - now > burst * interval then
  return {0, math.max(1, tat - now - burst * interval)}
end
local ttl = string.format('%d', tat - now + tonumber(margin))
redis.call('SET', bucket, string.format('%d', tat), 'PX', ttl)
return {1, 0}
""",
)

#: Gives a use of a token bucket back (it fitted, but what it counted did not happen):
#: its time moves ``interval`` ms back, if the key is still there.
BUCKET_GIVE_BACK = Script(
    ("bucket",),
    ("interval",),
    """
local bucket = KEYS[1]
local interval = ARGV[1]
local tat = redis.call('GET', bucket)
if tat then
  redis.call('SET', bucket, string.format('%d', tonumber(tat) - tonumber(interval)), 'KEEPTTL')
end
return 0
""",
)


#: Lengthens a key's time to live to ``ms`` if it has a shorter one: a key kept for good
#: (no TTL) or gone is left as it is (``EXPIRE ... GT`` needs Redis 7). Returns 1 if
#: lengthened.
LENGTHEN = Script(
    ("key",),
    ("ms",),
    """
local key = KEYS[1]
local ms = ARGV[1]
local left = redis.call('PTTL', key)
if left > 0 and left < tonumber(ms) then
  redis.call('PEXPIRE', key, ms)
  return 1
end
return 0
""",
)


# -- groups (``groups.py``): each script takes a group's keys (``keys.group_keys``)

#: A new group: its record and its owner as its first member (joined ``at``), unless the
#: id is taken. Returns 1, or 0 (nothing written).
GROUP_CREATE = Script(
    ("group", "members"),
    ("owner", "name", "key", "at"),
    """
local group, members = KEYS[1], KEYS[2]
local owner, name, key, at = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
if redis.call('EXISTS', group) == 1 then return 0 end
redis.call('HSET', group, 'name', name, 'owner', owner, 'key', key, 'created', at)
redis.call('ZADD', members, at, owner)
return 1
""",
)

#: A player joins with a key: ``none`` (no such group), ``key`` (not its key now),
#: ``out`` (the owner removed them), ``full`` (``cap`` members), ``member`` (already
#: one: nothing changes) or ``joined``.
GROUP_JOIN = Script(
    ("group", "members", "out"),
    ("pid", "key", "at", "cap"),
    """
local group, members, out = KEYS[1], KEYS[2], KEYS[3]
local pid, key, at, cap = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local held = redis.call('HGET', group, 'key')
if not held then return 'none' end
if held ~= key then return 'key' end
if redis.call('ZSCORE', members, pid) then return 'member' end
if redis.call('SISMEMBER', out, pid) == 1 then return 'out' end
if redis.call('ZCARD', members) >= tonumber(cap) then return 'full' end
redis.call('ZADD', members, at, pid)
return 'joined'
""",
)

#: A member leaves: ``none`` (no such group), ``not`` (not a member), ``left``; the
#: owner leaving hands the group to the member who joined first (``handed`` and their
#: id), and the last member leaving deletes it (``deleted``).
GROUP_LEAVE = Script(
    ("group", "members", "out"),
    ("pid",),
    """
local group, members, out = KEYS[1], KEYS[2], KEYS[3]
local pid = ARGV[1]
if redis.call('EXISTS', group) == 0 then return {'none'} end
if redis.call('ZREM', members, pid) == 0 then return {'not'} end
if redis.call('ZCARD', members) == 0 then
  redis.call('DEL', group, members, out)
  return {'deleted'}
end
if redis.call('HGET', group, 'owner') == pid then
  local heir = redis.call('ZRANGE', members, 0, 0)[1]
  redis.call('HSET', group, 'owner', heir)
  return {'handed', heir}
end
return {'left'}
""",
)

#: The owner's changes: ``remove`` a member (kept out), ``key`` a new join key, or
#: ``delete`` the group. Returns ``none`` (no such group), ``owner`` (``pid`` is not its
#: owner), ``not`` (removing someone who is not a member, or the owner), or ``ok``; a
#: delete returns ``ok`` and the ids of the members it had.
GROUP_OWNER = Script(
    ("group", "members", "out"),
    ("pid", "change", "value"),
    """
local group, members, out = KEYS[1], KEYS[2], KEYS[3]
local pid, change, value = ARGV[1], ARGV[2], ARGV[3]
local owner = redis.call('HGET', group, 'owner')
if not owner then return {'none'} end
if owner ~= pid then return {'owner'} end
if change == 'remove' then
  if value == pid or redis.call('ZREM', members, value) == 0 then return {'not'} end
  redis.call('SADD', out, value)
elseif change == 'key' then
  redis.call('HSET', group, 'key', value)
elseif change == 'delete' then
  local had = redis.call('ZRANGE', members, 0, -1)
  redis.call('DEL', group, members, out)
  return {'ok', unpack(had)}
end
return {'ok'}
""",
)


#: A result held for review (``pace.py``): its record and its state ``held``, and its id
#: among those open (scored ``at``, server ms), unless the id has a state already (a
#: finish written again, or one decided since). Returns the id's state.
HOLD_RESULT = Script(
    ("records", "states", "open"),
    ("id", "record", "at"),
    """
local records, states, open = KEYS[1], KEYS[2], KEYS[3]
local id, record, at = ARGV[1], ARGV[2], ARGV[3]
local state = redis.call('HGET', states, id)
if state then return state end
redis.call('HSET', records, id, record)
redis.call('HSET', states, id, 'held')
redis.call('ZADD', open, at, id)
return 'held'
""",
)

#: An operator's decision on a held result: ``state`` (``cleared`` or ``removed``) and
#: the ``decision`` (msgpack: reason, when), only while the id is ``held``; it leaves
#: the open ids for the decided (scored ``at``). Returns the id's state before ('' for
#: an id never held): ``held`` means this decided it.
DECIDE_RESULT = Script(
    ("states", "decisions", "open", "done"),
    ("id", "state", "decision", "at"),
    """
local states, decisions, open, done = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local id, state, decision, at = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local before = redis.call('HGET', states, id)
if before ~= 'held' then return before or '' end
redis.call('HSET', states, id, state)
redis.call('HSET', decisions, id, decision)
redis.call('ZREM', open, id)
redis.call('ZADD', done, at, id)
return 'held'
""",
)


# -- weekly events and their leagues (``leagues.py``): one week's keys, one hash tag ---

#: A player joins a week's event in ``tier``: the league they are in already, or the
#: tier's open league while it holds fewer than ``size``, else a new one (``{tier}:n``
#: one more); they go at the end of its members (``league_prefix`` .. league: its list,
#: under the week's hash tag). Atomic, so two processes never overfill a league.
#: Returns ``{league, 1 if joined now else 0}``.
JOIN_LEAGUE = Script(
    ("members", "fill"),
    ("pid", "tier", "size", "league_prefix"),
    """
local members, fill = KEYS[1], KEYS[2]
local pid, tier, size, league_prefix = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local league = redis.call('HGET', members, pid)
if league then return {league, 0} end
local n = tonumber(redis.call('HGET', fill, tier .. ':n') or '0')
local c = tonumber(redis.call('HGET', fill, tier .. ':c') or '0')
if n == 0 or c >= tonumber(size) then
  n = n + 1
  c = 0
end
league = tier .. '-' .. n
redis.call('HSET', fill, tier .. ':n', n, tier .. ':c', c + 1)
redis.call('HSET', members, pid, league)
redis.call('RPUSH', league_prefix .. league, pid)
return {league, 1}
""",
)

#: A member's daily result in their league that week (``results_prefix`` .. league),
#: kept first (a finish written again changes nothing), and none once the week's close
#: has begun (``shut``). Returns the league written to, ``''`` for a player who has not
#: joined, ``'shut'`` after the close began.
SCORE_LEAGUE = Script(
    ("shut", "members"),
    ("pid", "field", "entry", "results_prefix"),
    """
local shut, members = KEYS[1], KEYS[2]
local pid, field, entry, results_prefix = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local league = redis.call('HGET', members, pid)
if not league then return '' end
if redis.call('EXISTS', shut) == 1 then return 'shut' end
redis.call('HSETNX', results_prefix .. league, field, entry)
return league
""",
)


#: A race's new ratings (``store/ratings.py``), written once: a race rated already
#: (``rated``) returns the figures it wrote; a player whose rating is not as read
#: (another race of theirs was rated meanwhile) returns nil, to be read and worked out
#: again. ``changes`` is text: ``"<pid> <old value, hex, or -> <new value, hex>"`` for
#: each racer, separated by spaces (a player id is hex).
RATE = Script(
    ("ratings", "rated"),
    ("changes", "figures", "ttl"),
    """
local ratings, rated = KEYS[1], KEYS[2]
local changes, figures, ttl = ARGV[1], ARGV[2], ARGV[3]
local kept = redis.call('GET', rated)
if kept then return kept end
local function bytes(hex)
  if hex == '-' then return '' end
  return (hex:gsub('..', function(pair) return string.char(tonumber(pair, 16)) end))
end
local rows = {}
for pid, old, new in changes:gmatch('(%S+) (%S+) (%S+)') do
  rows[#rows + 1] = {pid, bytes(old), bytes(new)}
end
for _, row in ipairs(rows) do
  if (redis.call('HGET', ratings, row[1]) or '') ~= row[2] then return false end
end
for _, row in ipairs(rows) do redis.call('HSET', ratings, row[1], row[3]) end
redis.call('SET', rated, figures, 'EX', ttl)
return figures
""",
)


#: A player's entry on a board set as it stands (a rating board's: ``store/ratings.py``),
#: replacing the one they had.
SET_ENTRY = Script(
    ("board", "details", "members"),
    ("pid", "member", "score", "entry"),
    """
local board, details, members = KEYS[1], KEYS[2], KEYS[3]
local pid, member, score, entry = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local old = redis.call('HGET', members, pid)
if old and old ~= member then redis.call('ZREM', board, old) end
redis.call('ZADD', board, score, member)
redis.call('HSET', members, pid, member)
redis.call('HSET', details, pid, entry)
return 1
""",
)


# -- the quick race's queue (``queue.py``): every key of the hash tag ``{quick}`` --------

#: A player joins ``game``'s quick race queue (``ratings``, ``joined`` its keys) with
#: ``rating`` at ``now``, leaving the queue of any other game they waited in (its keys
#: ``old_r``, ``old_j``, named by the caller from ``waiting``'s answer: a
#: second call when it named the wrong one). Joining again keeps the first join's time.
#: Returns ``{joined ms, the game left or ''}``; ``{-1, game}`` when ``old_*`` were not
#: the keys of the game they wait in (``game``: call again with those).
QUICK_JOIN = Script(
    ("waiting", "ratings", "joined", "old_r", "old_j"),
    ("pid", "game", "rating", "now", "old_game"),
    """
local waiting, ratings, joined, old_r, old_j = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local pid, game, rating, now, old_game = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local before = redis.call('HGET', waiting, pid)
local left = ''
if before and before ~= game then
  if before ~= old_game then return {-1, before} end
  redis.call('ZREM', old_r, pid)
  redis.call('ZREM', old_j, pid)
  left = before
end
local at = redis.call('ZSCORE', joined, pid)
if not at then
  at = now
  redis.call('ZADD', joined, now, pid)
end
redis.call('ZADD', ratings, rating, pid)
redis.call('HSET', waiting, pid, game)
return {tonumber(at), left}
""",
)

#: Takes a player out of ``game``'s queue (leaving it, or gone to race ghosts): 1 if they
#: were in it, 0 if not (matched meanwhile, or never there): the one who gets 1 is the
#: one who decides what becomes of them.
QUICK_TAKE = Script(
    ("waiting", "ratings", "joined"),
    ("pid", "game"),
    """
local waiting, ratings, joined = KEYS[1], KEYS[2], KEYS[3]
local pid, game = ARGV[1], ARGV[2]
local taken = redis.call('ZREM', joined, pid)
redis.call('ZREM', ratings, pid)
if redis.call('HGET', waiting, pid) == game then redis.call('HDEL', waiting, pid) end
return taken
""",
)

#: The matcher's pass over ``game``'s queue (``domain/quick.py`` says the rule;
#: ``figures``: base, widen, every, most, gather, budget, stale, one string): the
#: ``budget`` longest waiting, oldest first, each with the players whose rating is within
#: its window (``base`` + ``widen`` for every ``every`` ms it has waited); where two or
#: more are (``most`` at most, nearest rating first; counted first, ``ZCOUNT``, and read
#: only when they may race; in a window of more than 64, the nearest ``most`` on each
#: side), and the oldest has waited
#: ``gather`` ms or the room is full, they are taken out of the queue together, here,
#: atomically: a player is matched once. Waiters older than ``stale`` ms are taken out
#: as gone (their process would have sent them to the ghosts long before). Each player
#: matched is marked in ``matched`` (scored by ``now``, kept ``stale`` ms), so that the
#: process they wait at does not take them for lost while their room is made. Returns
#: ``{groups, stale}``: each group a flat list of pid, joined ms, rating.
QUICK_MATCH = Script(
    ("waiting", "ratings", "joined", "matched"),
    ("now", "figures"),
    """
local waiting, ratings, joined, matched = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local now, figures = ARGV[1], ARGV[2]
now = tonumber(now)
local f = {}
for word in string.gmatch(figures, '%S+') do f[#f + 1] = tonumber(word) end
local base, widen, every, most, gather, budget, stale = f[1], f[2], f[3], f[4], f[5], f[6], f[7]
local function take(pid)
  redis.call('ZREM', ratings, pid)
  redis.call('ZREM', joined, pid)
  redis.call('HDEL', waiting, pid)
end
redis.call('ZREMRANGEBYSCORE', matched, '-inf', now - stale)
local gone = redis.call('ZRANGEBYSCORE', joined, '-inf', now - stale, 'LIMIT', 0, budget)
for _, pid in ipairs(gone) do take(pid) end
local groups = {}
local oldest = redis.call('ZRANGE', joined, 0, budget - 1, 'WITHSCORES')
for i = 1, #oldest, 2 do
  local pid, at = oldest[i], tonumber(oldest[i + 1])
  local rating = redis.call('ZSCORE', ratings, pid)
  if rating then
    rating = tonumber(rating)
    local waited = math.max(now - at, 0)
    local w = base + widen * math.floor(waited / every)
    local count = redis.call('ZCOUNT', ratings, rating - w, rating + w)
    local near = {}
    if count >= 2 and (count >= most or waited >= gather) then
      if count <= 64 then
        near = redis.call('ZRANGEBYSCORE', ratings, rating - w, rating + w, 'WITHSCORES')
      else  -- the nearest on each side (ties at the edge: whichever Redis gives first)
        near = redis.call('ZRANGEBYSCORE', ratings, rating, rating + w,
          'WITHSCORES', 'LIMIT', 0, most)
        local down = redis.call('ZREVRANGEBYSCORE', ratings, rating, rating - w,
          'WITHSCORES', 'LIMIT', 0, most)
        for k = 1, #down do near[#near + 1] = down[k] end
        near[#near + 1] = pid
        near[#near + 1] = tostring(rating)
      end
    end
    if #near >= 4 then
      local found, seen = {}, {}
      for k = 1, #near, 2 do
        local other = near[k]
        if not seen[other] then
          seen[other] = true
          found[#found + 1] = {other, math.abs(tonumber(near[k + 1]) - rating), near[k + 1]}
        end
      end
      table.sort(found, function(a, b)
        if a[1] == pid then return b[1] ~= pid end
        if b[1] == pid then return false end
        if a[2] == b[2] then return a[1] < b[1] end
        return a[2] < b[2]
      end)
      if #found >= most or waited >= gather then
        local group = {}
        for k = 1, math.min(#found, most) do
          local other = found[k][1]
          group[#group + 1] = other
          group[#group + 1] = redis.call('ZSCORE', joined, other)
          group[#group + 1] = found[k][3]
          take(other)
          redis.call('ZADD', matched, now, other)
        end
        groups[#groups + 1] = group
      end
    end
  end
end
return {groups, gone}
""",
)


async def load_scripts(conn: Any) -> None:
    """Load :data:`SCRIPTS` on a group-commit connection. A Redis that has just restarted
    answers ``LOADING`` until it has read its data: the scripts are loaded again then,
    as redis-py's clients here send a command again (``ready.loading_retry``), so
    that the writes waiting for the connection wait too (within their deadline) rather
    than fail."""

    async def load() -> None:
        for script in SCRIPTS:
            await conn.send_command("SCRIPT", "LOAD", script.source)
            await conn.read_response()

    async def failed(error: Exception) -> None:
        log.debug("loading the scripts: %s; trying again", error)

    await loading_retry().call_with_retry(load, failed)
