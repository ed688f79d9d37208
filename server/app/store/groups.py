"""Groups as Redis keeps them (``grp:{gid}``, its members ``grp:{gid}:m``, the players
removed from it ``grp:{gid}:out``, and each player's index ``pgrp:{pid}``: see
:mod:`.keys`). A group's own changes are Lua scripts on its three keys (one hash tag,
one slot: ``scripts.GROUP_*``); the player's index lives in another slot, so it is
written after the group's change and read as a hint: the group's members are the truth,
and an index entry that is no longer true is dropped when read (:meth:`Groups.of_player`).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from ..domain.groups import ID_ALPHABET, KEY_BYTES, name_order
from .codec import text, unpack
from .commit import RedisClient
from .keys import (
    board_details_key,
    board_members_key,
    challenge_key,
    group_keys,
    player_challenges_key,
    player_groups_key,
)
from .scripts import GROUP_CREATE, GROUP_JOIN, GROUP_LEAVE, GROUP_OWNER


@dataclass(frozen=True)
class Group:
    """A group as read: its record and its members (player ids, first joined first)."""

    id: str
    name: str
    owner: str
    key: str
    created: int
    members: list[str]


def new_key() -> str:
    """A fresh join key (96 random bits, URL-safe)."""
    return secrets.token_urlsafe(KEY_BYTES)


class Groups:
    def __init__(self, redis: RedisClient) -> None:
        self.redis = redis

    async def create(self, owner: str, name: str, now_ms: int) -> str:
        """A new group of ``owner`` (its first member): its id."""
        while True:
            gid = "".join(secrets.choice(ID_ALPHABET) for _ in range(10))
            made = await GROUP_CREATE(
                self.redis, keys=group_keys(gid)[:2], args=[owner, name, new_key(), now_ms]
            )
            if made:
                await self.redis.sadd(player_groups_key(owner), gid)
                return gid

    async def get(self, gid: str) -> Group | None:
        """The group, or None (no such group)."""
        group, members, _ = group_keys(gid)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hgetall(group)
            pipe.zrange(members, 0, -1)
            record, ids = await pipe.execute()
        if not record:
            return None
        record = {text(k): text(v) for k, v in record.items()}
        return Group(
            gid,
            record["name"],
            record["owner"],
            record["key"],
            int(record["created"]),
            [text(p) for p in ids],
        )

    async def count_of(self, pid: str) -> int:
        """How many groups the player's index holds (at most a few more than they are
        in, until it is read again)."""
        return int(await self.redis.scard(player_groups_key(pid)))

    async def join(self, gid: str, pid: str, key: str, now_ms: int, cap: int) -> str:
        """``GROUP_JOIN``'s verdict; the player's index is written when they are a member."""
        verdict = text(
            await GROUP_JOIN(self.redis, keys=group_keys(gid), args=[pid, key, now_ms, cap])
        )
        if verdict in ("joined", "member"):
            await self.redis.sadd(player_groups_key(pid), gid)
        return verdict

    async def leave(self, gid: str, pid: str) -> tuple[str, str | None]:
        """``GROUP_LEAVE``'s verdict, and the new owner's id when the owner left."""
        reply = await GROUP_LEAVE(self.redis, keys=group_keys(gid), args=[pid])
        verdict = text(reply[0])
        if verdict != "none":
            await self.redis.srem(player_groups_key(pid), gid)
        return verdict, text(reply[1]) if len(reply) > 1 else None

    async def remove(self, gid: str, owner: str, pid: str) -> str:
        reply = await GROUP_OWNER(self.redis, keys=group_keys(gid), args=[owner, "remove", pid])
        verdict = text(reply[0])
        if verdict == "ok":
            await self.redis.srem(player_groups_key(pid), gid)
        return verdict

    async def rekey(self, gid: str, owner: str) -> str:
        reply = await GROUP_OWNER(self.redis, keys=group_keys(gid), args=[owner, "key", new_key()])
        return text(reply[0])

    async def delete(self, gid: str, owner: str) -> str:
        reply = await GROUP_OWNER(self.redis, keys=group_keys(gid), args=[owner, "delete", ""])
        verdict = text(reply[0])
        if verdict == "ok":
            async with self.redis.pipeline(transaction=False) as pipe:
                for pid in reply[1:]:
                    pipe.srem(player_groups_key(text(pid)), gid)
                await pipe.execute()
        return verdict

    async def ids_of(self, pid: str) -> list[str]:
        """The ids in the player's index of groups (one read; it may name a group they
        have left, until :meth:`of_player` reads it again)."""
        return [text(g) for g in await self.redis.smembers(player_groups_key(pid))]

    async def of_player(self, pid: str) -> list[tuple[str, str, str, int]]:
        """The groups the player is in: ``(id, name, owner id, members)``, by name.
        Index entries no longer true (a group deleted, or they were removed, while the
        index's write was lost) are dropped from the index here."""
        ids = sorted(text(g) for g in await self.redis.smembers(player_groups_key(pid)))
        if not ids:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for gid in ids:
                group, members, _ = group_keys(gid)
                pipe.hmget(group, ["name", "owner"])
                pipe.zscore(members, pid)
                pipe.zcard(members)
            found = await pipe.execute()
        out, stale = [], []
        for n, gid in enumerate(ids):
            (name, owner), joined, size = found[3 * n : 3 * n + 3]
            if name is None or joined is None:
                stale.append(gid)
            else:
                out.append((gid, text(name), text(owner), int(size)))
        if stale:
            await self.redis.srem(player_groups_key(pid), *stale)
        return sorted(out, key=lambda g: (name_order(g[1]), g[0]))

    async def week_boards(
        self, board_ids: list[str], pids: list[str]
    ) -> list[tuple[list[Any], list[Any]]]:
        """Each daily board's entries' details and members for these players, in one
        round trip: what a week board is worked out from (``domain.groups``)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for board_id in board_ids:
                pipe.hmget(board_details_key(board_id), pids)
                pipe.hmget(board_members_key(board_id), pids)
            found = await pipe.execute()
        return [(found[2 * n], found[2 * n + 1]) for n in range(len(board_ids))]

    async def newest_challenges(self, pids: list[str], limit: int) -> list[dict[str, Any]]:
        """The newest challenges (at most ``limit``) made from these players' games that
        are still kept, newest first, in two round trips."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for pid in pids:
                pipe.zrange(player_challenges_key(pid), 0, limit - 1, desc=True, withscores=True)
            found = await pipe.execute()
        newest = sorted(
            ((score, text(cid)) for listed in found for cid, score in listed), reverse=True
        )[:limit]
        if not newest:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for _, cid in newest:
                pipe.get(challenge_key(cid))
            records = await pipe.execute()
        return [dict(unpack(raw)) for raw in records if raw is not None]
