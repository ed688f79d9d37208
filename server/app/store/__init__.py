"""Everything the server keeps in Redis, in one package: key names and TTLs
(:mod:`.keys`), the Lua scripts and the one way they are run (:mod:`.scripts`), values
as Redis holds them (:mod:`.codec`), the group commit that makes "acknowledged" mean "in
Redis" (:mod:`.commit`, and :mod:`.cluster` for a Redis Cluster), the client
(:mod:`.connect`), redis-py's private parts that the group commit and the client use
(:mod:`.redis_internals`, the only module that touches them), and the repositories that
read and write one capability's keys as ``str``, ``int`` and dataclasses
(:mod:`.players`, :mod:`.games`, :mod:`.rooms`, :mod:`.boards`, :mod:`.daily`,
:mod:`.presence`, :mod:`.replays`, :mod:`.limits`).

The client is one Redis or a Redis Cluster (:data:`RedisClient`, ``Settings.redis_cluster``).
Every multi-key script or read touches keys of one hash tag; pipelines are never
transactions (a cluster client splits them by node); the group commit routes its batches
itself (:class:`ClusterLinks`).
"""

from __future__ import annotations

from .cluster import ClusterLinks
from .codec import pack, text, unpack
from .commit import GroupCommit, RedisClient
from .connect import hiredis_packing
from .keys import (
    COUNTED_TTL,
    DAILIES_OWED,
    DAILY_TTL,
    ENDING_CLAIM_MS,
    LIVE_ROOMS,
    SECRET_FINGERPRINT,
    code_key,
    counted_key,
    daily_key,
    ending_key,
    fence_key,
    first_key,
    follow_key,
    game_key,
    log_key,
    name_key,
    online_key,
    player_key,
    practice_key,
    proc_channel,
    replay_key,
    results_key,
    room_channel,
    room_key,
    standings_key,
    streak_key,
    token_key,
    version_key,
    watchers_key,
)
from .packing import Commands, append_head, packed_append
from .scripts import (
    DELETE_IF_OURS,
    FENCED_APPEND,
    FENCED_APPEND_SHA,
    ROOM_CAS,
    SCRIPTS,
    STREAK,
    SUBMIT_COUNT,
    SUBMIT_TIME,
    Script,
    load_scripts,
    script_error,
)
from .secret import SecretMismatch, agree_secret
from .writes import Done, Fenced, Write, outcome_unknown

__all__ = [
    "COUNTED_TTL",
    "DAILIES_OWED",
    "DAILY_TTL",
    "DELETE_IF_OURS",
    "ENDING_CLAIM_MS",
    "FENCED_APPEND",
    "FENCED_APPEND_SHA",
    "LIVE_ROOMS",
    "ROOM_CAS",
    "SCRIPTS",
    "SECRET_FINGERPRINT",
    "STREAK",
    "SUBMIT_COUNT",
    "SUBMIT_TIME",
    "ClusterLinks",
    "Commands",
    "Done",
    "Fenced",
    "GroupCommit",
    "RedisClient",
    "Script",
    "SecretMismatch",
    "Write",
    "agree_secret",
    "append_head",
    "code_key",
    "counted_key",
    "daily_key",
    "ending_key",
    "fence_key",
    "first_key",
    "follow_key",
    "game_key",
    "hiredis_packing",
    "load_scripts",
    "log_key",
    "name_key",
    "online_key",
    "outcome_unknown",
    "pack",
    "packed_append",
    "player_key",
    "practice_key",
    "proc_channel",
    "replay_key",
    "results_key",
    "room_channel",
    "room_key",
    "script_error",
    "standings_key",
    "streak_key",
    "text",
    "token_key",
    "unpack",
    "version_key",
    "watchers_key",
]
