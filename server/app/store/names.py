"""Players' names as Redis keeps them: who holds a name now, a name a player had kept for
them a while, and a change of name.

A name key (``pname:<lower name>``, :func:`.keys.name_key`) holds the id of the player
whose name it is now, or ``"<pid> <until ms>"``: a name that player had, kept for them
until then (server ms), which nobody else may take before; its owner may take it back.
Taking a name is one script on its key (:data:`.scripts.CLAIM_NAME`), so of two players
asking for one name, in whichever processes, one gets it.

A change of name touches three keys in three slots (the new name's key, the player's
hash, the old name's key), so it is three single-key scripts, each checking what it
changes, in an order that leaves nobody else's name wrong at any point: the new name is
taken first (given back if the rest fails), then the player's hash is changed if its
name and last change are still what they were read as (another change of the same
player's meanwhile: the new name goes back and it is tried again), and last the old name
is kept for the player until its time. A process that dies between the steps leaves the
player holding a name no one else can take (the new one, before their hash says so; the
old one, for good rather than until its time), never two players one name.
"""

from __future__ import annotations

from dataclasses import dataclass

from .codec import text
from .commit import RedisClient
from .keys import NAME_KEPT_MARGIN_MS, name_key, player_key
from .scripts import CLAIM_NAME, KEEP_NAME, SET_NAME, UNCLAIM_NAME

#: what :meth:`Names.rename` answers
RENAMED, SAME, TOO_SOON, TAKEN, RESERVED, GONE = (
    "renamed",
    "same",
    "too_soon",
    "taken",
    "reserved",
    "gone",
)


@dataclass(frozen=True)
class Change:
    """What a change of name came to: ``outcome`` (:data:`RENAMED`, :data:`SAME`: that
    is the name already, nothing changed; :data:`TOO_SOON`: ``when`` is the first server
    ms a change is allowed; :data:`TAKEN`: another's name; :data:`RESERVED`: another's
    former name, ``when`` is when it is free; :data:`GONE`: no such player), the name it
    asked for and the player's name before it (``old``); ``when`` for :data:`RENAMED` is
    the first server ms the next change is allowed."""

    outcome: str
    name: str
    old: str
    when: int = 0


class Names:
    def __init__(self, redis: RedisClient) -> None:
        self.redis = redis

    async def claim(self, name: str, pid: str, now: int) -> tuple[str, str]:
        """Take ``name`` for ``pid`` if it is free, theirs, or kept for another past its
        time: ``("ok", what its key held, '' none)``, ``("taken", "")`` or
        ``("reserved", until ms)``."""
        status, detail = await CLAIM_NAME(self.redis, keys=[name_key(name)], args=[pid, now])
        return text(status), text(detail)

    async def unclaim(self, name: str, pid: str, was: str) -> None:
        """Give back a name :meth:`claim` took: its key holds ``was`` again."""
        await UNCLAIM_NAME(self.redis, keys=[name_key(name)], args=[pid, was])

    async def rename(
        self, pid: str, new: str, now: int, every_ms: int, keep_ms: int, tries: int = 3
    ) -> Change:
        """Change ``pid``'s name to ``new`` at server ms ``now``: at most once in
        ``every_ms``; the old name kept for them ``keep_ms``."""
        for _ in range(tries):
            raw_name, raw_last = await self.redis.hmget(player_key(pid), ["name", "renamed"])
            if raw_name is None:
                return Change(GONE, new, "")
            old, last = text(raw_name), text(raw_last) if raw_last else ""
            if old == new:
                return Change(SAME, new, old, int(last) + every_ms if last else now)
            if last and now < int(last) + every_ms:
                return Change(TOO_SOON, new, old, int(last) + every_ms)
            status, was = await self.claim(new, pid, now)
            if status == "taken":
                return Change(TAKEN, new, old)
            if status == "reserved":
                return Change(RESERVED, new, old, int(was))
            try:
                done = await SET_NAME(
                    self.redis, keys=[player_key(pid)], args=[old, last, new, now]
                )
            except BaseException:
                await self.unclaim(new, pid, was)
                raise
            if not done:  # another change of theirs came first: look again
                await self.unclaim(new, pid, was)
                continue
            if old.lower() != new.lower():  # (a change of case keeps the one key)
                await KEEP_NAME(
                    self.redis,
                    keys=[name_key(old)],
                    args=[pid, now + keep_ms, keep_ms + NAME_KEPT_MARGIN_MS],
                )
            return Change(RENAMED, new, old, now + every_ms)
        raise RuntimeError("a player's name changed under every try to change it")
