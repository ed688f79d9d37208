"""Players: registering, signing in (one connection a player, across processes), what a
player comes back to, who is connected, going away, and following others."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable, Collection
from typing import Any, Final

from server import __version__
from server.protocol import PROTOCOL_VERSION, ErrorCode
from server.protocol import messages as m

from .. import store
from ..domain import devices as dv
from ..domain.names import BAD_NAME, NAME_RE, name_taken
from ..domain.room import (
    FINISHED,
    LOBBY,
    RACING,
)
from ..events import GameEnded, PresenceChanged, RacerProgress
from ..held import HeldRoom
from ..store.limits import Bucket, Limiter, Use
from .base import Context, Handler, Part, Session, refuse
from .boards import Leaderboards
from .challenges import Challenging
from .devicebook import Device, DeviceBook
from .host import RoomHost
from .keeper import GameKeeper
from .play import games_list
from .steps import RoomSteps, race_message

log = logging.getLogger("patience.service")

#: the limit of players registered from one address (``register_burst`` at once, then
#: ``register_rate`` an hour)
REGISTER: Final = "register"
HOUR_MS: Final = 3_600_000
#: close codes the server uses besides the standard ones
CLOSE_REPLACED = 4001


class Accounts(Part):
    def __init__(
        self,
        ctx: Context,
        keeper: GameKeeper,
        host: RoomHost,
        steps: RoomSteps,
        leaderboards: Leaderboards,
        challenging: Challenging,
    ) -> None:
        super().__init__(ctx)
        self.keeper = keeper
        self.host = host
        self.steps = steps
        self.leaderboards = leaderboards
        self.challenging = challenging
        self.limits = Limiter(ctx.redis)
        #: the device each connection signed in here is (``handlers/devicebook.py``)
        self.book = DeviceBook(ctx)
        #: parts built after this one with something of the player's to take up again on
        #: sign-in, by its ``resume`` key (the quick race's ghost race: ``service.py``)
        self.resumers: dict[str, Callable[[str], Awaitable[dict[str, Any] | None]]] = {}

    def requests(self) -> dict[type[m.Request], Handler]:
        return {
            m.Hello: self.on_hello,
            m.Register: self.on_register,
            m.Follow: self.on_follow,
            m.Unfollow: self.on_unfollow,
        }

    async def on_hello(self, session: Session, req: m.Hello) -> dict[str, Any]:
        if req.protocol != PROTOCOL_VERSION:
            raise refuse(
                ErrorCode.BAD_VERSION,
                f"this server speaks protocol {PROTOCOL_VERSION}, not {req.protocol}",
            )
        reply: dict[str, Any] = {
            "type": "welcome",
            "server": __version__,
            "protocol": PROTOCOL_VERSION,
            "time": self.now(),
            "limits": self.ctx.limits(),
            "games": games_list(),
        }
        if req.token is not None:
            pid_s = await self.players.by_token(req.token)
            if pid_s is None:
                raise refuse(ErrorCode.BAD_TOKEN, await self.book.no_player(req.token))
            if session.player is not None and session.player != pid_s:
                raise refuse(
                    ErrorCode.ALREADY_REGISTERED,
                    f"this connection is signed in as {session.name}: "
                    "open a new connection to sign in as another player",
                )
            name = await self.players.name_of(pid_s)
            if name is None:
                raise refuse(ErrorCode.BAD_TOKEN, "no player has this token")
            device = await self.book.signed_in(pid_s, req.token, req.device)
            if req.side and session.player is None:
                # beside the player's connection, not in its place: nothing taken over,
                # nothing resumed, no presence of its own
                self.sign_in_beside(session, pid_s, name, device)
                reply["player"] = {"id": pid_s, "name": name}
                reply["side"] = True
                reply["challenges_new"] = await self.ctx.challenges.unseen(pid_s)
                return reply
            session.hello = True
            session.side = False
            await self._sign_in(session, pid_s, name, device)
            reply["player"] = {"id": pid_s, "name": session.name}
            reply["resume"] = await self._resume(session, pid_s)
            reply["challenges_new"] = await self.ctx.challenges.unseen(pid_s)
        session.hello = True
        return reply

    async def on_register(self, session: Session, req: m.Register) -> dict[str, Any]:
        if session.player is not None:
            raise refuse(ErrorCode.ALREADY_REGISTERED, f"already signed in as {session.name}")
        if not NAME_RE.fullmatch(req.name):  # not match and "$": "ann\n" is no name
            raise refuse(ErrorCode.BAD_NAME, BAD_NAME)
        counted = await self._registration(session.address)
        pid = secrets.token_hex(8)
        token = secrets.token_urlsafe(24)  # 192 random bits
        taken = await self.players.create(pid, req.name, token, self.now())
        if taken is not None:
            if counted is not None:  # no player registered: the place goes back
                await self.limits.give_back_bucket(counted)
            raise refuse(ErrorCode.NAME_TAKEN, name_taken(req.name, taken))
        # (the device first: the player's presence mark names it, so a `devices` asked
        # beside on another process sees it connected)
        device = await self.book.registered(pid, token, req.device)
        await self._sign_in(session, pid, req.name, device)
        return {"type": "registered", "player": {"id": pid, "name": req.name}, "token": token}

    async def _registration(self, address: str | None) -> Use | None:
        """This registration counted against its address (None: not counted), in a token
        bucket in Redis, whichever process registered the others: ``register_burst`` at
        once (a class or an office behind one address), then ``register_rate`` an hour;
        refused with ``rate_limited`` past them. Many accounts to scout a shared deal is
        what this makes costly (docs/server.md)."""
        rate, burst = self.settings.register_rate, self.settings.register_burst
        if not address or rate <= 0:
            return None
        bucket = Bucket(REGISTER, max(1, burst), -(-HOUR_MS // rate))
        use = await self.limits.take_bucket(bucket, address, self.now())
        if not use.allowed:
            raise refuse(
                ErrorCode.RATE_LIMITED,
                f"no more than {bucket.burst} new players at once from one address, then "
                f"{rate} an hour: try again in {use.wait_text()}, or sign in as a player you "
                "already are (a link code, or a recovery key)",
            )
        return use

    async def _sign_in(
        self, session: Session, pid: str, name: str, device: Device | None = None
    ) -> None:
        """One connection per player, across processes: a connection signed in before,
        here or in another process, is signed out (4001), told on which device the
        player signed in (``device``: this connection's)."""
        old = self.sessions.get(pid)
        before = self.book.device_of(old) if old is not None else None
        if device is not None:
            self.book.hold(session, pid, device)
        session.player = pid
        session.name = name
        # the new session first: a takeover is no leave (the host stays the host)
        self.sessions[pid] = session
        if old is not None and old is not session:
            self.kick(old, *self.book.replaced(before, device))
        marked = device.id if device is not None else None
        elsewhere = await self.presence.mark(pid, self.ctx.online_ttl(), marked)
        self.ctx.events.tell(PresenceChanged(pid))  # (their groups show them online)
        if elsewhere is not None:
            where = self.book.kick_fields(device)
            self.bus.publish_soon(store.proc_channel(elsewhere), "kick", pid=pid, **where)
        room = self.host.racer_room(pid)
        if room is not None:
            await self.host.broadcast_room(room)

    def kick(
        self,
        session: Session,
        reason: str = "signed in from another connection",
        cause: str = "replaced",
    ) -> None:
        """Sign the connection out (4001), telling it why in words (``reason``) and as a
        word a client can act on (``cause``: ``replaced``, ``signed_out``)."""
        session.send({"type": "signed_out", "reason": reason, "cause": cause})
        session.close(CLOSE_REPLACED, "signed in elsewhere")
        self.forget_session(session)

    def sign_out_here(self, pid: str, device_ids: Collection[str], by: str) -> None:
        """The player's devices ``device_ids`` were signed out (from the device ``by``):
        each connection of theirs held here, their own and any beside it, is told and
        closed (on every process: ``Bus.publish_signed_out``)."""
        reason = dv.signed_out_reason(by)
        for session in self.book.of_devices(pid, device_ids):
            self.kick(session, reason, "signed_out")

    async def kick_signed_out(self) -> None:
        """Close the connections here whose token was signed out while this process
        could not hear the bus (Redis restarted): it missed their ``signed_out``."""
        for session, _ in await self.book.signed_out_here():
            self.kick(session, "signed out from another device", "signed_out")

    async def _resume(self, session: Session, pid: str) -> dict[str, Any]:
        """The player's solo game, room and race game, and challenge game in play, as
        they were at the last acknowledged move."""
        resume: dict[str, Any] = {}
        solo, code = await self.players.places(pid)
        # the player's games are taken afresh from Redis: they may have been played
        # through another process since this one last had them
        if solo:
            self.solo_of[pid] = solo
            live = await self.keeper.get_game(solo, fresh=True)
            if live is not None:
                resume["solo"] = live.snapshot_message()
        if code:
            room = await self.host.get(code)
            if room is not None and pid in room.racers and not room.racers[pid].left:
                self.room_of[pid] = code
                resume["room"] = await self.host.broadcast_room(room)
                # looked at again after the wait: the room may have changed meanwhile (the
                # player's older connection leaving it through another process)
                racer = room.racers.get(pid)
                if racer is None or racer.left:
                    if self.room_of.get(pid) == code:
                        del self.room_of[pid]
                    resume.pop("room")
                elif room.state in (RACING, FINISHED) and racer.gid:
                    live = await self.keeper.get_game(racer.gid, fresh=True)
                    if live is not None:
                        resume["race"] = race_message(room, live)
                        if room.state == RACING:
                            # the room told how the game stands in its log: a process
                            # killed between a move's acknowledgement and its progress
                            # tick took that news with it (or between the game's end
                            # and the race's: the race may be over)
                            self.ctx.events.tell(RacerProgress(room, live))
                            if live.finished:
                                self.ctx.events.tell(GameEnded(live, room))
        challenge = await self.challenging.resume(pid)
        if challenge is not None:
            resume["challenge"] = challenge
        for key, resumer in self.resumers.items():
            found = await resumer(pid)
            if found is not None:
                resume[key] = found
        return resume

    def forget_session(self, session: Session) -> None:
        for board_id in list(self.leaderboards.board_watchers):
            self.leaderboards.unwatch(board_id, session)
        for code in list(session.watching):
            room = self.rooms.get(code)
            if room is not None:
                room.watchers.discard(session)
                if not self.ctx.stopping:
                    self.spawn(self.host.watchers_changed(room))
        session.watching.clear()
        self.book.forget(session)
        pid = session.player
        if pid is not None and self.sessions.get(pid) is session:
            del self.sessions[pid]
            self.spawn(self._went_away(pid, self.now()))

    async def _went_away(self, pid: str, now: int) -> None:
        try:
            await self.presence.unmark(pid, now)  # (away from now, unless back elsewhere)
        except Exception as exc:  # the mark lapses by itself (its time to live)
            self.failures.failed("a player going away", exc)
        if pid not in self.sessions:  # (back meanwhile: they never showed offline)
            self.ctx.events.tell(PresenceChanged(pid))
        room = self.host.racer_room(pid)
        if room is None or self.ctx.stopping:
            return

        async def hand_over(room: HeldRoom) -> None:
            if pid not in self.sessions:  # (back meanwhile: nobody went away)
                await self.steps.hand_over(room, pid)

        if room.state in (LOBBY, FINISHED) and room.host == pid and not self.settings.host_grace:
            # a lobby or a finished race must not wait on an absent host: tried until
            # it goes through (given a grace, housekeeping passes it on once that is out:
            # a reload, or a replay's page opened from the results, is away a second)
            await self.host.until_done("a host going away", room, hand_over)
        try:
            await self.host.broadcast_room(room)  # (who is present: told again when Redis is)
        except Exception as exc:
            self.failures.failed("a player going away", exc)

    async def on_follow(self, session: Session, req: m.Follow) -> dict[str, Any]:
        pid = self.need_player(session)
        other = await self._player_named(req.name)
        if other != pid:
            await self.players.follow(pid, other)
        return {"type": "following", "names": await self._following(pid)}

    async def on_unfollow(self, session: Session, req: m.Unfollow) -> dict[str, Any]:
        pid = self.need_player(session)
        other = await self._player_named(req.name)
        await self.players.unfollow(pid, other)
        return {"type": "following", "names": await self._following(pid)}

    async def _player_named(self, name: str) -> str:
        pid = await self.players.by_name(name)
        if pid is None:
            raise refuse(ErrorCode.NO_SUCH_PLAYER, f"no player named {name!r}")
        return pid

    async def _following(self, pid: str) -> list[str]:
        names = []
        for other in sorted(await self.players.followed(pid)):
            name = await self.players.name_of(other)
            if name:
                names.append(name)
        return sorted(names, key=str.lower)

    def sign_in_beside(self, session: Session, pid: str, name: str, device: Device) -> None:
        """Sign in a connection that entered a link code with ``side``, beside the
        player's own, as ``hello`` with ``side`` does."""
        self.book.hold_beside(session, device)
        session.hello = session.side = True
        session.player, session.name = pid, name

    async def sign_in_linked(
        self, session: Session, pid: str, name: str, device: Device
    ) -> dict[str, Any]:
        """Sign in a connection that entered a link code, on its new ``device``: what
        the player comes back to (``resume``), as ``hello`` with a token gives it."""
        session.hello = True
        await self._sign_in(session, pid, name, device)
        return await self._resume(session, pid)
