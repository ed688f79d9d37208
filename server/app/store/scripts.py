"""Every Lua script the server runs in Redis, in one place: what each takes and returns.

Each touches keys of one hash tag (a Redis Cluster runs it on one node).
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from .ready import loading_retry

log = logging.getLogger("patience.store")

#: KEYS: the game's fence, its log; ARGV: the writer's token, the entry.
#: Returns the log's new length, or the error FENCED.
FENCED_APPEND = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return redis.error_reply('FENCED another process has taken this game')
end
return redis.call('RPUSH', KEYS[2], ARGV[2])
"""
FENCED_APPEND_SHA = hashlib.sha1(FENCED_APPEND.encode()).hexdigest()
#: scripts every group-commit connection loads when it connects (EVALSHA needs them)
SCRIPTS = (FENCED_APPEND,)

#: KEYS: the room's state, its version. ARGV: the version the change was made on, the new
#: state, its TTL in seconds. Returns the new version, or 0 if the room changed meanwhile.
ROOM_CAS = """
local current = tonumber(redis.call('GET', KEYS[2]) or '0')
if current ~= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
redis.call('SET', KEYS[2], current + 1, 'EX', ARGV[3])
return current + 1
"""

#: KEYS: a key holding a process id (a player's online mark, a claim). ARGV: this
#: process's id. Deletes the key if it still holds it.
DELETE_IF_OURS = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# KEYS: zset, details, members. ARGV: pid, member, score, details, mode (first|best), ttl
SUBMIT_TIME = """
local old = redis.call('HGET', KEYS[3], ARGV[1])
if old then
  if ARGV[5] == 'first' then return 0 end
  local old_score = redis.call('ZSCORE', KEYS[1], old)
  if old_score and tonumber(old_score) <= tonumber(ARGV[3]) then return 0 end
  redis.call('ZREM', KEYS[1], old)
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[4])
if tonumber(ARGV[6]) > 0 then
  for i = 1, 3 do redis.call('EXPIRE', KEYS[i], ARGV[6]) end
end
return 1
"""

# KEYS: zset, details, members, counts[, the counted game's mark]. ARGV: pid, details,
# now in seconds[, the mark's TTL]. With the mark, a game is counted once: a count tried
# again (its first try landed, its answer did not) returns the count as it stands
SUBMIT_COUNT = """
if KEYS[5] and not redis.call('SET', KEYS[5], 1, 'NX', 'EX', ARGV[4]) then
  return tonumber(redis.call('HGET', KEYS[4], ARGV[1]) or '0')
end
local n = redis.call('HINCRBY', KEYS[4], ARGV[1], 1)
local score = (1048576 - n) * 4294967296 + tonumber(ARGV[3])
redis.call('ZADD', KEYS[1], string.format('%.0f', score), ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return n
"""

# KEYS[1]: the player's streaks. ARGV: game, the day won, the day before it. A day
# counted already, or one before the last day won (a win written late, its finish owed
# meanwhile), changes nothing (days are YYYY-MM-DD: they sort as strings)
STREAK = """
local function bump(prefix)
  local last = redis.call('HGET', KEYS[1], prefix .. ':last')
  local cur = tonumber(redis.call('HGET', KEYS[1], prefix .. ':cur') or '0')
  if last and last >= ARGV[2] then return cur end
  if last == ARGV[3] then cur = cur + 1 else cur = 1 end
  redis.call('HSET', KEYS[1], prefix .. ':cur', cur, prefix .. ':last', ARGV[2])
  local best = tonumber(redis.call('HGET', KEYS[1], prefix .. ':best') or '0')
  if cur > best then redis.call('HSET', KEYS[1], prefix .. ':best', cur) end
  return cur
end
return {bump(ARGV[1]), bump('all')}
"""


# -- limits shared by the processes (``limits.py``) ----------------------------------------

#: KEYS[1]: a limit's window (sorted set, ``keys.limit_key``). ARGV: now (server ms), the
#: window's length (ms), the uses it allows, this use's member. Drops the uses older than
#: the window; adds this one if fewer than allowed remain. Returns ``{1, uses with this
#: one, 0}``, or ``{0, uses, ms until the oldest leaves the window}``
SLIDING_WINDOW = """
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local used = redis.call('ZCARD', KEYS[1])
if used < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], window + 1000)
  return {1, used + 1, 0}
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {0, used, math.max(1, tonumber(oldest[2]) + window - now)}
"""

# -- end of the limits' scripts ------------------------------------------------------------


async def load_scripts(conn: Any) -> None:
    """Load :data:`SCRIPTS` on a group-commit connection. A Redis that has just restarted
    answers ``LOADING`` until it has read its data: the scripts are loaded again then,
    as redis-py's clients here send a command again (``ready.loading_retry``), so
    that the writes waiting for the connection wait too (within their deadline) rather
    than fail."""

    async def load() -> None:
        for script in SCRIPTS:
            await conn.send_command("SCRIPT", "LOAD", script)
            await conn.read_response()

    async def failed(error: Exception) -> None:
        log.debug("loading the scripts: %s; trying again", error)

    await loading_retry().call_with_retry(load, failed)
