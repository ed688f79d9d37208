"""The scripts of games, rooms, boards and streaks, and the group commit's: the fenced
log append (:data:`FENCED_APPEND`, loaded on each group-commit connection by
:func:`load_scripts`), the room's compare-and-set, a claim let go by its holder, a
board's entry and a streak."""

from __future__ import annotations

import logging
from typing import Any

from ..ready import loading_retry
from .base import Script

log = logging.getLogger("patience.store")

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

#: Deletes a room (its state, version, standings and watchers) if its version is still
#: ``expected`` (or the room has gone: nothing to keep). Returns 1, or 0 if the room
#: changed meanwhile (a join that landed first).
ROOM_DELETE = Script(
    ("room", "version", "standings", "watchers"),
    ("expected",),
    """
local room, version, standings, watchers = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local expected = ARGV[1]
local current = tonumber(redis.call('GET', version) or '0')
if current ~= tonumber(expected) and redis.call('EXISTS', room) == 1 then return 0 end
redis.call('DEL', room, version, standings, watchers)
return 1
""",
)

#: Deletes a key holding a process's or a claim's id (a claim, a room's end) if it still
#: holds ``ours``.
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

#: Deletes a player's online mark (``presence.py``) if it is still process ``proc``'s:
#: the mark is the process's id, alone or followed by a space and a device's id.
DELETE_IF_PROCS = Script(
    ("mark",),
    ("proc",),
    """
local mark = KEYS[1]
local proc = ARGV[1]
local held = redis.call('GET', mark)
if held and (held == proc or string.sub(held, 1, #proc + 1) == proc .. ' ') then
  return redis.call('DEL', mark)
end
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

#: A player's place on a board and the members ``radius`` either side of it, read at
#: once (read in three round trips, a result landing above the player in between shifted
#: the board, and the member at the old rank was another player). Returns ``{size}``
#: when the player is not on it, else ``{size, rank, start, member, ...}`` (ranks from 0).
BOARD_AROUND = Script(
    ("board", "members"),
    ("pid", "radius"),
    """
local board, members = KEYS[1], KEYS[2]
local pid, radius = ARGV[1], ARGV[2]
local size = redis.call('ZCARD', board)
local member = redis.call('HGET', members, pid)
local rank = member and redis.call('ZRANK', board, member)
if not rank then return {size} end
local start = math.max(0, rank - tonumber(radius))
local out = {size, rank, start}
for _, m in ipairs(redis.call('ZRANGE', board, start, rank + tonumber(radius))) do
  out[#out + 1] = m
end
return out
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


#: A deal's shortest winning line found (``keys.deal_line_key``: ``moves``, its length,
#: and ``line``, packed): kept if the deal has none yet or a longer one, for ``ttl``
#: seconds from then. Returns 1 if it was kept, else 0.
KEEP_SHORTER = Script(
    ("deal",),
    ("moves", "line", "ttl"),
    """
local deal = KEYS[1]
local moves, line, ttl = ARGV[1], ARGV[2], ARGV[3]
local old = redis.call('HGET', deal, 'moves')
if old and tonumber(old) <= tonumber(moves) then return 0 end
redis.call('HSET', deal, 'moves', moves, 'line', line)
redis.call('EXPIRE', deal, ttl)
return 1
""",
)
