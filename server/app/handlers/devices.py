"""One player on every device: link codes (``link_code``, ``link``), the player's devices
(``devices``) and signing them out (``sign_out``).

A signed-in connection asks for a link code; another connection, not signed in, enters
it (``link``) and is signed in as the same player with a token of its own: a new device.
A code is taken once, whoever tries it (``GETDEL``), and lasts ``link_ttl`` seconds of
server time. Codes tried from one address are counted (``link_tries`` in 10 minutes,
whichever process is asked; a code that signs in is given back), so guessing one is
hopeless (``domain/devices.py`` has the figures). A device signed out loses its token at
once; every connection of it still open, in whichever process, its own and any beside it
(``side``), is told so and closed (a ``signed_out`` notice on the bus), and its next
``hello`` is told in words who signed it out.
"""

from __future__ import annotations

import secrets
from typing import Any, Final

from server.protocol import ErrorCode
from server.protocol import messages as m

from ..domain import devices as dv
from ..store.limits import Limit, Limiter, Use
from .base import Context, Handler, Part, Session, refuse
from .players import Accounts

#: the limit of link codes tried from one address (``link_tries`` of them in this long)
LINK: Final = "link"
LINK_WINDOW_MS: Final = 600_000
#: the link codes a player may ask for an hour: each can make a device, and each device
#: signed out leaves a note for 30 days, so this bounds what one player adds
LINK_CODES: Final = Limit("linkcode", 10, 3_600_000)


class Linking(Part):
    def __init__(self, ctx: Context, accounts: Accounts) -> None:
        super().__init__(ctx)
        self.accounts = accounts
        self.book = accounts.book
        self.devices = accounts.book.store
        self.limits = Limiter(ctx.redis)

    def requests(self) -> dict[type[m.Request], Handler]:
        return {
            m.LinkCode: self.on_link_code,
            m.Link: self.on_link,
            m.Devices: self.on_devices,
            m.SignOut: self.on_sign_out,
        }

    def _device(self, session: Session) -> tuple[str, dv.Device]:
        """The signed-in player and the device this connection is."""
        pid = self.need_player(session)
        device = self.book.device_of(session)
        if device is None:  # (signed in, so held: only a takeover racing this)
            raise refuse(ErrorCode.NOT_AUTHENTICATED, "sign in again with hello first")
        return pid, device

    async def _room_for_one_more(self, pid: str) -> list[str]:
        """The labels of the player's devices; refused when they hold the most."""
        held = await self.devices.all(pid)
        if len(held) >= dv.MAX_DEVICES:
            raise refuse(
                ErrorCode.TOO_MANY_DEVICES,
                f"a player may have {dv.MAX_DEVICES} devices: sign one out first",
            )
        return [d.label for d in held]

    async def on_link_code(self, session: Session, req: m.LinkCode) -> dict[str, Any]:
        pid, device = self._device(session)
        await self._room_for_one_more(pid)
        use = await self.limits.take(LINK_CODES, pid, self.now())
        if not use.allowed:
            raise refuse(
                ErrorCode.RATE_LIMITED,
                f"at most {LINK_CODES.most} link codes an hour: try again in {use.wait_text()}",
            )
        code = dv.new_code()
        now = self.now()
        expires = now + self.settings.link_ttl * 1000
        made = {"made": now, "by": device.id, "label": device.label}
        revoked = await self.devices.make_code(pid, code, made, expires)
        if revoked is not None and self.sessions.get(pid) is not session:
            # asked for beside (a terminal's command): the player's connection, which may
            # be showing the old code, stops offering it
            news = {"type": "link_revoked", "code": dv.shown_code(revoked), "device": device.label}
            await self.ctx.tell(pid, news)
        return {
            "type": "link_code",
            "code": dv.shown_code(code),
            "expires": expires,
            "ttl": self.settings.link_ttl,
        }

    async def on_link(self, session: Session, req: m.Link) -> dict[str, Any]:
        if session.player is not None:
            raise refuse(
                ErrorCode.ALREADY_REGISTERED,
                f"this connection is signed in as {session.name}: "
                "enter the code on the device to sign in",
            )
        code = dv.normal_code(req.code)
        if code is None:
            raise refuse(
                ErrorCode.BAD_LINK_CODE,
                f"{req.code!r} is not a link code: 8 letters and digits like ABCD-EFGH "
                "(no 0, 1, I, L, O or U)",
            )
        shown = dv.shown_code(code)
        counted = await self._counted(session.address)
        # looked at first, taken last: a code refused below is left as it was
        made = await self.devices.peek_code(code)
        if made is None:
            raise refuse(
                ErrorCode.NO_SUCH_LINK_CODE,
                f"no link code {shown}: it may have been used or have "
                "expired; ask for a new one on your signed-in device",
            )
        if self.now() > made["exp"]:
            raise refuse(
                ErrorCode.NO_SUCH_LINK_CODE,
                f"the link code {shown} has expired: ask for a new one on your signed-in device",
            )
        pid = str(made["pid"])
        name = await self.players.name_of(pid)
        if name is None:
            raise refuse(ErrorCode.NO_SUCH_LINK_CODE, "the player of this link code is gone")
        labels = await self._room_for_one_more(pid)
        if await self.devices.take_code(code) is None:  # taken meanwhile, elsewhere
            raise refuse(ErrorCode.NO_SUCH_LINK_CODE, f"the link code {shown} was just used")
        token = secrets.token_urlsafe(24)  # 192 random bits, as register's
        # a second terminal on one machine says what the first does: told apart by number
        device = self.book.new_device(token, req.device, labels)
        await self.devices.add_token(pid, device)
        if counted is not None:  # a code that signs in was no guess
            await self.limits.give_back(counted)
        # the player's connection (the device that showed the code, most often) stops
        # offering it: told before any sign-in below takes its place
        await self.ctx.tell(pid, {"type": "link_used", "code": shown, "device": device.label})
        reply: dict[str, Any] = {
            "type": "linked",
            "player": {"id": pid, "name": name},
            "token": token,
            "device": device.id,
        }
        if req.side:  # (the player's connection elsewhere plays on, undisturbed)
            self.accounts.sign_in_beside(session, pid, name, device)
            reply["side"] = True
        else:
            reply["resume"] = await self.accounts.sign_in_linked(session, pid, name, device)
        return reply

    async def _counted(self, address: str | None) -> Use | None:
        """This try counted against its address; refused with ``rate_limited`` once the
        window holds ``link_tries`` of them."""
        most = self.settings.link_tries
        if most <= 0:
            return None
        who = address or "unknown"
        use = await self.limits.take(Limit(LINK, most, LINK_WINDOW_MS), who, self.now())
        if not use.allowed:
            raise refuse(
                ErrorCode.RATE_LIMITED,
                f"no more than {most} link codes tried in 10 minutes from one address: "
                f"try again in {use.wait_text()}",
            )
        return use

    async def _list(self, pid: str, this: str) -> dict[str, Any]:
        # the device holding the player's connection: here, or as their online mark says
        # (asked beside, the connection may be another process's)
        connected = self.book.device_id_here(pid) or await self.presence.device(pid)
        listed = [d.public(this, connected) for d in await self.devices.all(pid)]
        return {"type": "devices", "devices": listed}

    async def on_devices(self, session: Session, req: m.Devices) -> dict[str, Any]:
        pid, device = self._device(session)
        return await self._list(pid, device.id)

    async def on_sign_out(self, session: Session, req: m.SignOut) -> dict[str, Any]:
        pid, me = self._device(session)
        if req.everywhere == (req.device is not None):
            raise refuse(
                ErrorCode.BAD_REQUEST, "sign_out: give either 'device' or 'everywhere': true"
            )
        devices = await self.devices.all(pid)
        if req.everywhere:
            targets = [d for d in devices if d.id != me.id]
        elif req.device == me.id:
            raise refuse(
                ErrorCode.THIS_DEVICE,
                "this is the device you are using: to sign out here, forget its token "
                "(there is no password to come back with)",
            )
        else:
            targets = [d for d in devices if d.id == req.device]
            if not targets:
                raise refuse(ErrorCode.NO_SUCH_DEVICE, f"you have no device {req.device!r}")
        await self.devices.sign_out(pid, targets, me.label, self.now())
        if targets:
            # every connection of theirs is closed, in whichever process: the player's
            # own and any beside it (``side``), which could otherwise go on as them
            ids = [d.id for d in targets]
            self.accounts.sign_out_here(pid, ids, me.label)
            self.bus.publish_signed_out(pid, ids, me.label)
        return await self._list(pid, me.id)
