"""Groups: making one, joining it by its link, leaving it, the owner's changes (remove a
member, a new link, delete it), and what its members see: who is in it and online, the
boards among its members (``group_board``, any board and the group's week board), and
the challenges its members made with their tables. Every request here needs a signed-in
player, and everything but joining needs them to be a member (a group's page is its
members' only). Docs: ``docs/protocol.md`` (Groups), ``docs/leaderboards.md`` (group
boards).

Who is online, live: a member may watch a group (``group_show`` with ``watch``). A
member signing in or going away (a :class:`~server.app.events.PresenceChanged` from the
sign-in's part), joining, leaving or being removed is a ``group`` notice on the bus for
each of their groups; each process that hears it reads the group and sends it to its
own watchers of it, each as they see it. A process that could not hear the bus for a
while sends its watchers their groups again when it hears again."""

from __future__ import annotations

from typing import Any

from server.engine import GAMES
from server.protocol import ErrorCode
from server.protocol import messages as m

from ..domain import daily as d
from ..domain import groups as gr
from ..events import PresenceChanged, Renamed
from ..store.codec import unpack
from ..store.groups import Group, Groups
from .base import Context, Handler, Part, Session, refuse
from .boards import Leaderboards, counted
from .challenges import Challenging

#: the newest challenges of the members' that ``group_show`` lists
GROUP_CHALLENGES = 8
#: the rows of each challenge's table ``group_show`` gives (the top)
TABLE_ROWS = 5

#: ``GROUP_*`` scripts' verdicts that refuse, with their error codes and messages
REFUSALS: dict[str, tuple[ErrorCode, str]] = {
    "none": (ErrorCode.NO_SUCH_GROUP, "no such group (it may have been deleted)"),
    "key": (ErrorCode.BAD_GROUP_LINK, "that link is not this group's: ask for a new one"),
    "out": (ErrorCode.REMOVED_FROM_GROUP, "the group's owner removed you from it"),
    "full": (ErrorCode.GROUP_FULL, "the group is full"),
    "owner": (ErrorCode.NOT_GROUP_OWNER, "only the group's owner may do this"),
    "not": (ErrorCode.NOT_A_MEMBER, "not a member of the group"),
}


def refused(verdict: str) -> None:
    if verdict in REFUSALS:
        code, message = REFUSALS[verdict]
        raise refuse(code, message)


class Grouping(Part):
    def __init__(self, ctx: Context, boards: Leaderboards, challenging: Challenging) -> None:
        super().__init__(ctx)
        self.groups = Groups(ctx.redis)
        self.leaderboards = boards
        self.challenging = challenging
        #: connections here watching a group: session -> group id, and id -> watchers,
        #: and its name (to say which group is gone once it is deleted)
        self.watching: dict[Session, str] = {}
        self.watchers: dict[str, set[Session]] = {}
        self.watched_names: dict[str, str] = {}
        ctx.events.on(PresenceChanged, self.on_presence)
        # (a member's new name: a watched group showed the old one until opened again)
        ctx.events.on(Renamed, lambda event: self.spawn(self._presence(event.pid)))

    def requests(self) -> dict[type[m.Request], Handler]:
        return {
            m.GroupCreate: self.on_create,
            m.GroupJoin: self.on_join,
            m.GroupLeave: self.on_leave,
            m.GroupRemove: self.on_remove,
            m.GroupLink: self.on_link,
            m.GroupDelete: self.on_delete,
            m.GroupShow: self.on_show,
            m.GroupList: self.on_list,
            m.GroupBoard: self.on_board,
        }

    # -- what a request names ------------------------------------------------------------

    async def group(self, gid: str) -> Group:
        if not gr.GROUP_ID_RE.fullmatch(gid):
            raise refuse(ErrorCode.NO_SUCH_GROUP, f"{gid!r} is not a group's id")
        group = await self.groups.get(gid)
        if group is None:
            refused("none")
        assert group is not None
        return group

    async def member_of(self, session: Session, gid: str) -> tuple[str, Group]:
        pid = self.need_player(session)
        group = await self.group(gid)
        if pid not in group.members:
            raise refuse(ErrorCode.NOT_A_MEMBER, f"you are not in the group {group.name!r}")
        return pid, group

    async def room_for_one_more(self, pid: str) -> None:
        cap = self.settings.player_groups
        if await self.groups.count_of(pid) >= cap and len(await self.groups.of_player(pid)) >= cap:
            raise refuse(
                ErrorCode.TOO_MANY_GROUPS,
                f"you are in {cap} groups, the most one may be in: leave one first",
            )

    # -- the requests --------------------------------------------------------------------

    async def on_create(self, session: Session, req: m.GroupCreate) -> dict[str, Any]:
        pid = self.need_player(session)
        why = gr.check_group_name(req.name)
        if why is not None:
            raise refuse(ErrorCode.BAD_GROUP_NAME, why)
        await self.room_for_one_more(pid)
        gid = await self.groups.create(pid, req.name, self.now())
        return await self.shown(pid, await self.group(gid))

    async def on_join(self, session: Session, req: m.GroupJoin) -> dict[str, Any]:
        pid = self.need_player(session)
        if not gr.GROUP_ID_RE.fullmatch(req.group):
            raise refuse(ErrorCode.NO_SUCH_GROUP, f"{req.group!r} is not a group's id")
        if not gr.GROUP_KEY_RE.fullmatch(req.key):
            raise refuse(ErrorCode.BAD_GROUP_LINK, "that is not a group link's key")
        group = await self.groups.get(req.group)
        if group is not None and pid in group.members:
            # joining a group one is in changes nothing, whichever of its links it is by
            # (a member with a link since renewed was told to ask for a new one)
            return await self.shown(pid, group)
        if group is not None:
            await self.room_for_one_more(pid)
        verdict = await self.groups.join(
            req.group, pid, req.key, self.now(), self.settings.group_members
        )
        refused(verdict)
        if verdict == "joined":
            await self.changed(req.group)
        return await self.shown(pid, await self.group(req.group))

    async def on_leave(self, session: Session, req: m.GroupLeave) -> dict[str, Any]:
        """The groups still theirs, and ``left``: the group left and who owns it now
        (the owner leaving hands it on, so they are told to whom; None: it is gone)."""
        pid, group = await self.member_of(session, req.group)
        verdict, heir = await self.groups.leave(group.id, pid)
        refused(verdict)
        self.unwatch(session, group.id)  # (told nothing of a group they left here)
        await self.changed(group.id)
        # (ownership passes only by its owner leaving, so a member's leaving keeps the
        # owner read just before)
        owner = heir if verdict == "handed" else None if verdict == "deleted" else group.owner
        owner_name = (await self.players.names_of([owner]))[0] if owner is not None else None
        left = {"id": group.id, "name": group.name, "owner": owner_name}
        return {**await self.listed(pid), "left": left}

    async def on_remove(self, session: Session, req: m.GroupRemove) -> dict[str, Any]:
        pid, group = await self.member_of(session, req.group)
        other = await self.players.by_name(req.name)
        if other is None:
            raise refuse(ErrorCode.NO_SUCH_PLAYER, f"no player named {req.name!r}")
        if other == pid:
            raise refuse(ErrorCode.BAD_REQUEST, "the owner leaves with group_leave")
        if other not in group.members and group.owner == pid:  # (the owner told who is not)
            raise refuse(ErrorCode.NOT_A_MEMBER, f"{req.name} is not a member of {group.name!r}")
        refused(await self.groups.remove(group.id, pid, other))
        await self.changed(group.id)
        return await self.shown(pid, await self.group(group.id))

    async def on_link(self, session: Session, req: m.GroupLink) -> dict[str, Any]:
        pid, group = await self.member_of(session, req.group)
        refused(await self.groups.rekey(group.id, pid))
        return await self.shown(pid, await self.group(group.id))

    async def on_delete(self, session: Session, req: m.GroupDelete) -> dict[str, Any]:
        pid, group = await self.member_of(session, req.group)
        refused(await self.groups.delete(group.id, pid))
        self.unwatch(session, group.id)
        await self.changed(group.id)  # (its watchers are told, and let go)
        return await self.listed(pid)

    async def on_list(self, session: Session, req: m.GroupList) -> dict[str, Any]:
        return await self.listed(self.need_player(session))

    async def on_show(self, session: Session, req: m.GroupShow) -> dict[str, Any]:
        pid, group = await self.member_of(session, req.group)
        if req.watch:
            self.watch(session, group.id, group.name)
        elif req.watch is not None:
            self.forget(session)
        shown = await self.shown(pid, group)
        shown["challenges"] = await self.challenges(pid, group)
        shown["watching"] = self.watching.get(session) == group.id
        return shown

    # -- who is online, live ------------------------------------------------------------

    def watch(self, session: Session, gid: str, name: str) -> None:
        """``session`` watches the group ``gid`` (one group a connection)."""
        self.forget(session)
        self.watching[session] = gid
        self.watchers.setdefault(gid, set()).add(session)
        self.watched_names[gid] = name

    def unwatch(self, session: Session, gid: str) -> None:
        """No more of the group ``gid`` for ``session``, if it is the one it watches."""
        if self.watching.get(session) == gid:
            self.forget(session)

    def forget(self, session: Session) -> None:
        """No more of its group for ``session`` (asked, or its connection closed)."""
        gid = self.watching.pop(session, None)
        watchers = self.watchers.get(gid or "")
        if watchers is not None:
            watchers.discard(session)
            if not watchers:
                del self.watchers[gid or ""]
                self.watched_names.pop(gid or "", None)

    async def changed(self, gid: str) -> None:
        """The group's members, or who is online, changed: its watchers here at once,
        and in the other processes."""
        self.bus.publish_group(gid)
        await self.send_group(gid)

    def on_presence(self, event: PresenceChanged) -> None:
        self.spawn(self._presence(event.pid))

    async def _presence(self, pid: str) -> None:
        """A player came online here or went, or changed their name: each of their groups
        has changed."""
        for gid in await self.groups.ids_of(pid):
            await self.changed(gid)

    def relay(self, data: dict[str, Any]) -> None:
        """A ``group`` notice from another process."""
        gid = data.get("group")
        if isinstance(gid, str) and gid in self.watchers:
            self.spawn(self.send_group(gid))

    async def catch_up(self) -> None:
        """The bus is heard again after it was not: every watched group sent again."""
        for gid in list(self.watchers):
            await self.send_group(gid)

    async def send_group(self, gid: str) -> None:
        """The group to each of its watchers here, as they see it; one no longer a
        member (removed, or the group deleted) is told so (``group_gone``), and stops
        watching."""
        if gid not in self.watchers:
            return
        group = await self.groups.get(gid)
        name = group.name if group is not None else self.watched_names.get(gid, "")
        for session in list(self.watchers.get(gid, ())):
            pid = session.player
            if group is None or pid is None or pid not in group.members:
                self.forget(session)
                why = "deleted" if group is None else "not_member"
                session.send({"type": "group_gone", "group": gid, "name": name, "why": why})
                continue
            session.send({**await self.shown(pid, group), "watching": True})

    async def on_board(self, session: Session, req: m.GroupBoard) -> dict[str, Any]:
        _, group = await self.member_of(session, req.group)
        now = self.now()
        try:
            week = gr.parse_week_board(req.board, d.iso_week(now))
        except ValueError as exc:
            raise refuse(ErrorCode.NO_SUCH_BOARD, str(exc)) from None
        if week is not None:
            page = await self.week_board(group, *week)
        else:
            page = await self.among(group, req.board)
        page["today"] = d.day_of(now)  # (today's daily replays are private: protocol.md)
        return {"type": "board", "group": group.id, "group_name": group.name, **page}

    # -- replies -------------------------------------------------------------------------

    async def listed(self, pid: str) -> dict[str, Any]:
        groups = await self.groups.of_player(pid)
        return {
            "type": "groups",
            "groups": [
                {"id": gid, "name": name, "owner": owner == pid, "members": size}
                for gid, name, owner, size in groups
            ],
            "most": self.settings.player_groups,
        }

    async def shown(self, pid: str, group: Group) -> dict[str, Any]:
        """A group as its members see it: its link, and its members (first joined
        first) with who of them is online, to this process or another: the one asking
        is (a one-shot command's connection, signed in beside their game, holds no
        presence of its own)."""
        names = await self.players.names_of(group.members)
        here = {p for p in group.members if p in self.sessions or p == pid}
        online = here | await self.presence.online([p for p in group.members if p not in here])
        members = [
            {"name": name, "owner": p == group.owner, "online": p in online, "you": p == pid}
            for p, name in zip(group.members, names, strict=True)
            if name is not None
        ]
        return {
            "type": "group",
            "group": {
                "id": group.id,
                "name": group.name,
                "owner": group.owner == pid,
                "link": gr.group_link(group.id, group.key),
                "key": group.key,
                "created": group.created,
                "members": members,
                "online": sum(1 for p in members if p["online"]),
                "most": self.settings.group_members,
            },
        }

    async def among(self, group: Group, text: str) -> dict[str, Any]:
        """A board among the group's members: their entries with their ranks on the
        whole board (``rank``) and among the group (``place``), in one read a page
        (``Boards.among``)."""
        board = self.leaderboards.board(text)
        page = await self.boards.among(board, group.members)
        for place, entry in enumerate(page["entries"], 1):
            entry.pop("pid", None)
            entry["place"] = place
        page["leader"] = page["entries"][0] if page["entries"] else None
        page["to_beat"] = page["leader"]
        page["members"] = len(group.members)
        counted(board, page, self.settings.rating_board_races)
        return {"board": board.id, "title": board.title(), "kind": board.kind, **page}

    async def week_board(self, group: Group, game: str, week: str) -> dict[str, Any]:
        """The group's week board of a game: each member's ranked dailies of the ISO
        week, from the week's daily boards (so a result held for review, kept off them,
        counts here only once cleared), in one round trip."""
        if game not in GAMES:
            raise refuse(ErrorCode.NO_SUCH_BOARD, f"no game {game!r}")
        today = d.day_of(self.now())
        days = [day for day in gr.week_days(week) if day <= today]
        boards = [f"daily/{game}/{day}" for day in days]
        read = await self.groups.week_boards(boards, group.members)
        lines = gr.week_standings(read, group.members, unpack)
        names = await self.players.names_of([line.pid for line in lines])
        entries = [
            {
                "player": name or line.player,
                "rank": place,
                "place": place,
                "wins": line.wins,
                "played": line.played,
                "time_ms": line.time_ms,
            }
            for place, (line, name) in enumerate(zip(lines, names, strict=True), 1)
        ]
        leader = entries[0] if entries else None
        return {
            "board": f"week/{game}/{week}",
            "title": f"{GAMES[game].name}: the week's dailies, {week}",
            "kind": "week",
            "entries": entries,
            "size": len(entries),
            "offset": 0,
            "leader": leader,
            "to_beat": leader,
            "members": len(group.members),
            "days": days,
        }

    async def challenges(self, pid: str, group: Group) -> list[dict[str, Any]]:
        """The members' newest challenges (at most :data:`GROUP_CHALLENGES`), each with
        its maker and the top of its table (as ``challenge_show`` shows it to ``pid``)."""
        found = await self.groups.newest_challenges(group.members, GROUP_CHALLENGES)
        out = []
        for made in found:
            # (under its player's name now, as challenge_show shows it: the record keeps
            # the name it was made under)
            record = await self.challenging.named(made)
            table, _ = await self.challenging.table(record, pid)
            out.append(
                {
                    "challenge": self.challenging.shown(record, pid),
                    "table": table[:TABLE_ROWS],
                }
            )
        return out
