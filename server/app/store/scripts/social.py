"""The scripts of groups (``groups.py``), results held for review (``pace.py``), the
weekly leagues (``leagues.py``), ratings (``ratings.py``) and the quick race's queue
(``queue.py``): each touches keys of one hash tag."""

from __future__ import annotations

from .base import Script

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

#: A player joins ``game``'s quick race queue (``rates``, ``joins`` its keys; ``waits``
#: who waits for which game) with ``rating`` at ``now``, leaving the queue of any other
#: game they waited in (its keys ``old_r``, ``old_j``, named by the caller from ``waits``'s
#: answer, ``old``: a second call when it named the wrong one). Joining again keeps the
#: first join's time. Returns ``{joined ms, the game left or ''}``; ``{-1, game}`` when
#: ``old_*`` were not the keys of the game they wait in (``game``: call again with those);
#: ``{-2, ''}``, nothing changed, when they wait in no queue because a match took them at
#: or after ``fresh`` (ms; ``took``, the matches' marks): their room is on its way (0:
#: never refused, as for a match's player put back).
QUICK_JOIN = Script(
    ("waits", "rates", "joins", "old_r", "old_j", "took"),
    ("pid", "game", "rating", "now", "old", "fresh"),
    """
local waits, rates, joins, old_r, old_j, took = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local pid, game, rating, now, old, fresh = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6]
local before = redis.call('HGET', waits, pid)
if not before and tonumber(fresh) > 0 then
  local mark = redis.call('ZSCORE', took, pid)
  if mark and tonumber(mark) >= tonumber(fresh) then return {-2, ''} end
end
local left = ''
if before and before ~= game then
  if before ~= old then return {-1, before} end
  redis.call('ZREM', old_r, pid)
  redis.call('ZREM', old_j, pid)
  left = before
end
local at = redis.call('ZSCORE', joins, pid)
if not at then
  at = now
  redis.call('ZADD', joins, now, pid)
end
redis.call('ZADD', rates, rating, pid)
redis.call('HSET', waits, pid, game)
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
