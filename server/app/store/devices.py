"""A player's devices and link codes as Redis keeps them (``pdev:``, ``ptoken:``,
``ptokout:``, ``plink:``, ``plinkof:``: see :mod:`.keys`), read and written as the
domain's :class:`~server.app.domain.devices.Device` and plain values.

A device is a field of the player's ``pdev:`` hash; its token's key, ``ptoken:``, is what
signs in. Signing a device out deletes the token's key first, then its record, and notes
who signed it out (``ptokout:``) so its next ``hello`` can say so. A link code is taken
with ``GETDEL``: of two processes given the same code at once, one gets it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..domain.devices import Device
from .codec import pack, text, unpack
from .commit import RedisClient
from .keys import (
    LINK_MARGIN_MS,
    SIGNED_OUT_TTL,
    devices_key,
    digest_token_key,
    link_key,
    player_link_key,
    signed_out_key,
)


def _device(device_id: str, raw: bytes | str) -> Device:
    fields = unpack(raw)
    return Device(device_id, fields["label"], fields["added"], fields["seen"], fields["tok"])


def _packed(device: Device) -> bytes:
    return pack(
        {"label": device.label, "added": device.added, "seen": device.seen, "tok": device.digest}
    )


class Devices:
    def __init__(self, redis: RedisClient) -> None:
        self.redis = redis

    async def all(self, pid: str) -> list[Device]:
        """The player's devices, oldest first."""
        raw = await self.redis.hgetall(devices_key(pid))
        found = [_device(text(k), v) for k, v in raw.items()]
        return sorted(found, key=lambda d: (d.added, d.id))

    async def by_digest(self, pid: str, digest: str) -> Device | None:
        """The player's device whose token has this digest (a player has few: read all)."""
        for device in await self.all(pid):
            if device.digest == digest:
                return device
        return None

    async def put(self, pid: str, device: Device) -> None:
        """Write the device's record (a new one, or seen again)."""
        await self.redis.hset(devices_key(pid), device.id, _packed(device))

    async def add_token(self, pid: str, device: Device) -> None:
        """A new token of the player's (its key, by the digest) and its device's record:
        the record first, so a token that signs in always has one."""
        await self.put(pid, device)
        await self.redis.set(digest_token_key(device.digest), pid)

    async def sign_out(self, pid: str, devices: Iterable[Device], by: str, now: int) -> None:
        """Sign these devices out: each token's key deleted (its next ``hello`` is
        ``bad_token``), its note kept (``by``: the label of the device that did it), then
        its record."""
        devices = list(devices)
        if not devices:
            return
        note = pack({"by": by, "at": now})
        async with self.redis.pipeline(transaction=False) as pipe:
            for device in devices:
                pipe.delete(digest_token_key(device.digest))
                pipe.set(signed_out_key(device.digest), note, ex=SIGNED_OUT_TTL)
            pipe.hdel(devices_key(pid), *[d.id for d in devices])
            await pipe.execute()

    async def gone(self, digests: Iterable[str]) -> set[str]:
        """Of these token digests, those whose token no longer signs in (signed out)."""
        digests = list(dict.fromkeys(digests))
        if not digests:
            return set()
        async with self.redis.pipeline(transaction=False) as pipe:
            for digest in digests:
                pipe.exists(digest_token_key(digest))
            found = await pipe.execute()
        return {digest for digest, there in zip(digests, found, strict=True) if not there}

    async def signed_out(self, digest: str) -> tuple[str, int] | None:
        """Who signed out the token of this digest and when (server ms), if it was and
        that is still remembered."""
        raw = await self.redis.get(signed_out_key(digest))
        if raw is None:
            return None
        note = unpack(raw)
        return note["by"], note["at"]

    async def make_code(
        self, pid: str, code: str, made: dict[str, Any], expires: int
    ) -> str | None:
        """Keep a link code for the player until server ms ``expires`` (``made``: what
        :meth:`take_code` gives back), revoking the one they had: that one, if it was
        still there to revoke."""
        ttl = max(1, expires - int(made["made"])) + LINK_MARGIN_MS
        record = pack({**made, "pid": pid, "exp": expires})
        await self.redis.set(link_key(code), record, px=ttl)
        before = await self.redis.set(player_link_key(pid), code, px=ttl, get=True)
        if before is None or text(before) == code:
            return None
        revoked = await self.redis.delete(link_key(text(before)))
        return text(before) if revoked else None

    async def peek_code(self, code: str) -> dict[str, Any] | None:
        """The link code's record, left in place (None: no such code)."""
        raw = await self.redis.get(link_key(code))
        if raw is None:
            return None
        record: dict[str, Any] = unpack(raw)
        return record

    async def take_code(self, code: str) -> dict[str, Any] | None:
        """The link code's record, taken (no one can take it again), or None."""
        raw = await self.redis.getdel(link_key(code))
        if raw is None:
            return None
        record: dict[str, Any] = unpack(raw)
        return record
