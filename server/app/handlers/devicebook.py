"""Which device each connection signed in here is: the record of every token a player
signs in with (``hello``, ``register``, ``link``), which connections are on a device
signed out, and what a connection replaced by a newer one is told in words.

Not a part of its own (it answers no request): :class:`~.players.Accounts` keeps one and
calls it as it signs players in; ``handlers/devices.py`` answers the devices' requests."""

from __future__ import annotations

import time
from collections.abc import Collection
from typing import Any

from ..domain import devices as dv
from ..domain.devices import Device
from ..store.devices import Devices
from ..store.keys import token_digest
from .base import Context, Session

__all__ = ["Device", "DeviceBook"]


class DeviceBook:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.store = Devices(ctx.redis)
        #: player -> (their connection here, its device): at most one a player here, as
        #: ``ctx.sessions``; let go with the connection (:meth:`forget`)
        self.here: dict[str, tuple[Session, Device]] = {}
        #: connections signed in beside their player's (``hello``'s ``side``) -> their
        #: device; let go with the connection
        self.beside: dict[Session, Device] = {}

    def device_of(self, session: Session) -> Device | None:
        """The device the connection signed in with, if it is signed in here."""
        pid = session.player
        held = self.here.get(pid) if pid is not None else None
        if held is not None and held[0] is session:
            return held[1]
        return self.beside.get(session)

    async def signed_in(self, pid: str, token: str, label: str | None) -> Device:
        """A connection signs in with ``token`` (``hello``): its device is seen now,
        with the label the client gave (kept if it gave none). A token from before
        devices were kept becomes the player's "first device"."""
        now = self.ctx.now()
        digest = token_digest(token)
        found = await self.store.by_digest(pid, digest)
        if found is None:
            device = Device(
                dv.new_device_id(), dv.clean_label(label, dv.FIRST_DEVICE), now, now, digest
            )
        else:
            kept = found.label if label is None else dv.clean_label(label, found.label)
            if kept != found.label:  # (a numbered one's client says the plain label)
                others = [d.label for d in await self.store.all(pid) if d.id != found.id]
                kept = dv.distinct_label(kept, others)
            device = Device(found.id, kept, found.added, now, digest)
        await self.store.put(pid, device)
        return device

    async def no_player(self, token: str) -> str:
        """``bad_token``'s message for a token no player has: in words who signed it out,
        if it was signed out (and that is still remembered)."""
        note = await self.store.signed_out(token_digest(token))
        if note is None:
            return "no player has this token"
        by, at = note
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(at / 1000))
        return (
            f"this device was {dv.signed_out_reason(by)} on {when}: "
            "sign in again with a link code from a device still signed in"
        )

    def new_device(self, token: str, label: str | None, taken: Collection[str] = ()) -> Device:
        """The device of a new token of the player's (``register``, ``link``), its label
        told apart from those of the player's other devices (``taken``)."""
        now = self.ctx.now()
        kept = dv.distinct_label(dv.clean_label(label), taken)
        return Device(dv.new_device_id(), kept, now, now, token_digest(token))

    async def registered(self, pid: str, token: str, label: str | None) -> Device:
        """A new player's first token: its device's record, kept (the sign-in holds it)."""
        device = self.new_device(token, label)
        await self.store.put(pid, device)
        return device

    def device_id_here(self, pid: str) -> str | None:
        """The id of the device the player's connection here signed in with, if any."""
        held = self.here.get(pid)
        return held[1].id if held is not None else None

    def hold(self, session: Session, pid: str, device: Device) -> None:
        """This connection is now the player's one here, on ``device`` (read the device
        of the one it replaces first: :meth:`device_of`)."""
        self.here[pid] = (session, device)

    def hold_beside(self, session: Session, device: Device) -> None:
        """This connection is signed in beside its player's own (``side``), on ``device``."""
        self.beside[session] = device

    def forget(self, session: Session) -> None:
        self.beside.pop(session, None)
        pid = session.player
        if pid is not None and (held := self.here.get(pid)) is not None and held[0] is session:
            del self.here[pid]

    def of_devices(self, pid: str, device_ids: Collection[str]) -> list[Session]:
        """The player's connections here signed in on these devices: their own one and
        any beside it (``side``)."""
        out = [s for s, d in self.beside.items() if s.player == pid and d.id in device_ids]
        held = self.here.get(pid)
        if held is not None and held[1].id in device_ids:
            out.append(held[0])
        return out

    async def signed_out_here(self) -> list[tuple[Session, str]]:
        """The connections here whose device's token no longer signs in (signed out while
        this process could not hear the bus), with the digest of each one's token."""
        held = [(s, d.digest) for s, d in self.beside.items()]
        held += [(s, d.digest) for s, d in self.here.values()]
        gone = await self.store.gone(digest for _, digest in held)
        return [(s, digest) for s, digest in held if digest in gone]

    def kick_fields(self, device: Device | None) -> dict[str, Any]:
        """What a ``kick`` on the bus carries of the newer connection's device, for the
        process holding the older one to say where it went."""
        if device is None:
            return {}
        return {"device": device.id, "label": device.label}

    def replaced(self, old: Device | None, new: Device | None) -> tuple[str, str]:
        """``signed_out``'s ``reason`` and ``cause`` for a connection on ``old`` replaced
        by a newer one on ``new``."""
        if new is None:
            return "signed in from another connection", "replaced"
        return dv.replaced_reason(new.id, new.label, old.id if old else None), "replaced"

    def told(self, session: Session, data: dict[str, Any]) -> tuple[str, str]:
        """What a connection here replaced by a newer one elsewhere is told for the
        ``kick`` heard on the bus (a sign-out is a ``signed_out`` notice instead:
        ``Accounts.sign_out_here``)."""
        mine = self.device_of(session)
        label = data.get("label")
        if not isinstance(label, str):
            return self.replaced(mine, None)
        new = Device(str(data.get("device", "")), label, 0, 0, "")
        return self.replaced(mine, new)
