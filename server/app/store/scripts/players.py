"""The scripts of names (``names.py``) and of the limits shared by the processes
(``limits.py``): a name taken, kept or let go in one step; a sliding window's use; a
token bucket's draw and its give-back."""

from __future__ import annotations

from .base import Script

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
