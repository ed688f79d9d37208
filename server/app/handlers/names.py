"""A change of name (``rename``): once in ``rename_days``, to a name nobody else holds or
had lately (``name_kept_days``: a former name stays its player's), shown from then on
wherever the player is shown: their connection, the room they are in, boards (looked up
by id when a page is read) and replays (``player_now``)."""

from __future__ import annotations

import logging
from typing import Any

from server.protocol import ErrorCode
from server.protocol import messages as m

from ..context import renamed_to
from ..domain import room as rm
from ..domain.names import BAD_NAME, DAY_MS, NAME_RE, name_taken, next_change
from ..domain.room import RoomConflict
from ..events import Renamed
from ..held import HeldRoom
from ..store import names as n
from .base import Context, Handler, Part, Session, refuse
from .host import RoomHost
from .steps import RoomSteps

log = logging.getLogger("patience.service")


class Naming(Part):
    def __init__(self, ctx: Context, host: RoomHost, steps: RoomSteps) -> None:
        super().__init__(ctx)
        self.host = host
        self.steps = steps
        self.names = n.Names(ctx.redis)

    def requests(self) -> dict[type[m.Request], Handler]:
        return {m.Rename: self.on_rename}

    async def on_rename(self, session: Session, req: m.Rename) -> dict[str, Any]:
        """Every refusal leaves the name, and every key, as it was."""
        pid = self.need_player(session)
        if not NAME_RE.fullmatch(req.name):  # not match and "$": "ann\n" is no name
            raise refuse(ErrorCode.BAD_NAME, BAD_NAME)
        every = self.settings.rename_days * DAY_MS
        now = self.now()
        change = await self.names.rename(
            pid, req.name, now, every, self.settings.name_kept_days * DAY_MS
        )
        if change.outcome == n.TOO_SOON:
            raise refuse(ErrorCode.RATE_LIMITED, next_change(change.when - every, change.when))
        if change.outcome == n.TAKEN:
            raise refuse(ErrorCode.NAME_TAKEN, name_taken(req.name, ""))
        if change.outcome == n.RESERVED:
            raise refuse(ErrorCode.NAME_TAKEN, name_taken(req.name, str(change.when)))
        if change.outcome == n.GONE:
            raise refuse(ErrorCode.BAD_TOKEN, "no player has this token")
        session.name = change.name
        reply = {
            "type": "renamed",
            "player": {"id": pid, "name": change.name},
            "was": change.old,
            "next": change.when,
        }
        if change.outcome == n.RENAMED:
            log.info("player %s renamed %r -> %r", pid, change.old, change.name)
            self.in_room(pid, change.name)
            self.ctx.events.tell(Renamed(pid))  # (their groups' watchers, everywhere)
            if self.sessions.get(pid) is not session:
                # asked beside the player's connection (a terminal's one-shot command):
                # that connection is told, and goes by the new name from now on; its
                # process renames them in their room (:meth:`told_elsewhere`)
                self.spawn(self.ctx.tell(pid, dict(reply)))
        return reply

    def in_room(self, pid: str, name: str) -> None:
        """The room the player is in shows their new name: held here, or read from Redis
        (a one-shot command's rename, the player's own connection gone or elsewhere)."""
        room = self.host.racer_room(pid)
        if room is not None:
            self.spawn(self._in_room(room, pid, name))
        else:
            self.spawn(self._in_stored_room(pid, name))

    async def _in_stored_room(self, pid: str, name: str) -> None:
        """The room the player's record names, read here, renamed if they are in it."""
        _, code = await self.players.places(pid)
        room = None if code is None else await self.host.get(code)
        racer = None if room is None else room.racers.get(pid)
        if room is not None and racer is not None and not racer.left and racer.name != name:
            await self._in_room(room, pid, name)

    def told_elsewhere(self, pid: str, message: dict[str, Any]) -> None:
        """A ``renamed`` told over the bus to the player's connection here (the name was
        changed from a connection on another process): their room held here too."""
        name = renamed_to(message)
        if name is not None:
            self.in_room(pid, name)

    async def _in_room(self, room: HeldRoom, pid: str, name: str) -> None:
        """The room the player is in shows the new name (tried until it goes through)."""

        async def step(room: HeldRoom) -> None:
            try:
                await self.steps.step(room, lambda room: rm.rename(room, pid, name))
            except RoomConflict:  # changed elsewhere first: read it, and try again
                await self.host.reload(room.code)
                raise

        await self.host.until_done("a racer's new name", room, step)
