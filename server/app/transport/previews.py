"""Link previews: the Open Graph and Twitter tags that make a pasted link show what it
is ("Race Ada at The Gate: waiting for racers, 2 in"), for the pages people share: a
race room's link (``/r/CODE``), a challenge's (``/c/ID``), a replay's page and the
leaderboards'. The browser client's page (``index.html``) gets its tags put in its head
as it is served (:func:`with_head`), with the facts its invite page shows before asking
a name (``patience:*`` tags, which ``client_web/app/front.js`` reads: the
Content-Security-Policy allows no inline script to hand them over).

Everything here is worked out from what Redis already holds, read and never changed (a
room's state, a challenge's record, a replay, a board's page); a link to nothing known
still gets the page, with the generic tags. Every value is escaped.

>>> preview = room_preview({"game": "gate", "host": "p1", "state": "lobby", "racers": [
...     {"pid": "p1", "name": "Ada", "left": False}, {"pid": "p2", "name": "Bo", "left": False}]})
>>> preview.title
'Race Ada at The Gate: waiting for racers, 2 in'
>>> 'content="Race Ada at The Gate' in meta_tags(preview, "http://example.org/r/ABCDEF")
True

A race over names its winner, from the results (whose entries name a ``player``: it had
read a ``name`` they do not have, "bob" winning as "None"):

>>> room_preview({"game": "gate", "host": "p1", "state": "finished", "racers": [],
...     "results": [{"player": "Bo", "status": "won"}]}).title
'Race a friend at The Gate: race over, Bo won: join for the rematch'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape
from typing import Any

from server.engine import GAMES

from ..domain import challenges as ch
from ..domain import daily as d
from ..domain import lost
from ..domain.boards import Board
from ..domain.room import COUNTDOWN, FINISHED, LOBBY, RACING

SITE = "Patience Race"
ABOUT = (
    "Race friends at classic patience games, dealt the same cards, on a server that keeps "
    "the rules and the clock."
)


@dataclass(frozen=True)
class Preview:
    """What a link shows: its title and description; ``facts``, what the invite page
    says before asking a name (``patience:<name>`` tags: ``game``, ``game-name``,
    ``host``, ``state``; ``room``: ``none``, a room's link to no room; ``group-name``,
    a group's, to whoever holds its link's key)."""

    title: str
    description: str
    facts: tuple[tuple[str, str], ...] = ()


GENERIC = Preview(SITE, ABOUT)
#: a room's link to no room (none by that code, or closed): the generic tags, and the fact
#: that tells the invite page not to invite
NO_ROOM = Preview(SITE, ABOUT, (("room", "none"),))

#: a Host header's value fit to name the page in ``og:url``: a name or an address, and a port
HOST = re.compile(
    r"(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?"
)


def page_url(host: str, path: str, scheme: str = "http") -> str | None:
    """The page's address for ``og:url``, from the request's ``Host`` (None: none, or not
    one that names a host)."""
    if not HOST.fullmatch(host):
        return None
    return f"{scheme}://{host}{path}"


def meta_tags(preview: Preview, url: str | None) -> str:
    """The head's tags for a preview: Open Graph (``og:title``, ``og:description``,
    ``og:type``, ``og:site_name``, ``og:url`` when the address is known) and Twitter's
    (a ``summary`` card), and the invite page's facts. No ``og:image``: there is none."""
    tags = [
        ("property", "og:title", preview.title),
        ("property", "og:description", preview.description),
        ("property", "og:type", "website"),
        ("property", "og:site_name", SITE),
    ]
    if url is not None:
        tags.append(("property", "og:url", url))
    tags += [
        ("name", "twitter:card", "summary"),
        ("name", "twitter:title", preview.title),
        ("name", "twitter:description", preview.description),
        ("name", "description", preview.description),
    ]
    tags += [("name", f"patience:{name}", value) for name, value in preview.facts]
    return "".join(
        f'<meta {kind}="{escape(key)}" content="{escape(value)}">' for kind, key, value in tags
    )


def with_head(page: str, preview: Preview, tags: str) -> str:
    """The browser client's page with the preview's title and ``tags`` in its head."""
    title = escape(preview.title if preview.title == SITE else f"{preview.title} · {SITE}")
    page = re.sub(r"<title>[^<]*</title>", lambda _: f"<title>{title}</title>", page, count=1)
    return page.replace("</head>", tags + "</head>", 1)


def game_name(game_id: Any) -> str:
    info = GAMES.get(game_id) if isinstance(game_id, str) else None
    return info.name if info is not None else str(game_id)


def _in(count: int) -> str:
    return f"{count} in" if count != 1 else "1 in"


def room_preview(state: dict[str, Any] | None) -> Preview:
    """A race room's link, from its state as Redis keeps it (None: no such room, or
    closed)."""
    if state is None:
        return NO_ROOM
    members = [r for r in state.get("racers", []) if not r.get("left")]
    names = {r.get("pid"): str(r.get("name", "?")) for r in state.get("racers", [])}
    host = names.get(state.get("host"), "a friend")
    game = game_name(state.get("game"))
    where = state.get("state")
    if where == LOBBY:
        now = f"waiting for racers, {_in(len(members))}"
    elif where == COUNTDOWN:
        now = f"starting, {len(members)} racing"
    elif where == RACING:
        # (in the race: those still playing are not in the room's state, and one who
        # resigned is still in it; "4 racing" had counted two who had resigned)
        now = f"racing now, {len(members)} in the race: watch it live"
    elif where == FINISHED:
        results = state.get("results") or []
        winner = results[0] if results and results[0].get("status") == "won" else None
        over = f"race over, {winner.get('player')} won" if winner else "race over"
        now = f"{over}: join for the rematch"  # (a finished race's room takes racers)
    else:
        now = str(where)
    title = f"Race {host} at {game}: {now}"
    info = GAMES.get(state.get("game", ""))
    summary = f"{info.summary} " if info is not None else ""
    # (nobody joins a race under way: its link is to watch it)
    act = "watch it" if where in (COUNTDOWN, RACING) else "join"
    description = f"{summary}The same deal for every racer; open the link to {act} in a browser."
    facts = (("game", str(state.get("game"))), ("game-name", game), ("host", host), ("state", now))
    return Preview(title, description, facts)


def group_preview(name: str | None) -> Preview:
    """A group's link (``/g/ID?k=KEY``): its name where the link's key is the group's
    (None: no such group, or no key, or another: nothing of a group is told to others)."""
    if name is None:
        return GENERIC
    description = (
        f"You are invited to join {name}: its members race the same daily deals and see "
        "each other's boards."
    )
    return Preview(f"Join {name} on {SITE}", description, (("group-name", name),))


def challenge_preview(record: dict[str, Any] | None) -> Preview:
    """A challenge's link (its record; None: no such challenge, or expired)."""
    if record is None:
        return GENERIC
    line = ch.share_line(record, mine=False).rsplit(" · ", 1)[0]
    name = str(record.get("name") or "a friend")
    game = game_name(record.get("game"))
    description = (
        f"A challenge: race {name}'s game of {game} on the same deal, against its ghost, "
        "whenever you like."
    )
    facts = (
        ("game", str(record.get("game"))),
        ("game-name", game),
        ("host", name),
        ("state", line),
    )
    return Preview(line, description, facts)


def replay_preview(replay: dict[str, Any]) -> Preview:
    """A replay's page: whose game of what, and how it ended.

    >>> replay_preview({"player": "ann", "game": "gate",
    ...                 "result": {"status": "resigned", "moves": 1}}).description
    'Every move of it (1 move), with its time; race it on the same deal.'
    """
    result = replay.get("result") or {}
    player = str(replay.get("player_now") or replay.get("player") or "someone")
    whose = "the book line" if player == "the book" else f"{player}'s"
    status = result.get("status")
    home, total = result.get("home"), result.get("total")
    if status == "won":
        how = f"won in {d.clock_text(int(result.get('time_ms') or 0))}"
    elif status in ("lost", "resigned", "timeout"):
        got = lost.progress(int(home or 0), int(total or 0), lost.unit_of(str(replay.get("game"))))
        how = f"{status}, {got}"
    else:
        how = str(status)
    title = f"A replay of {whose} {game_name(replay.get('game'))}, {how}"
    moves = d.moves_text(int(result.get("moves") or 0))
    description = f"Every move of it ({moves}), with its time; race it on the same deal."
    return Preview(title, description)


def board_preview(page: dict[str, Any], board: Board) -> Preview:
    """A leaderboard's page: its title, and who leads it."""
    leader = page.get("leader")
    size = int(page.get("size") or 0)
    if not leader:
        return Preview(board.title(), "No results yet: be the first on this board.")
    name = str(leader.get("player", "?"))
    if board.counting:
        leads = f"{name} leads with {int(leader.get('count') or 0)}"
    elif leader.get("won"):
        leads = f"{name} leads in {d.clock_text(int(leader.get('time_ms') or 0))}"
    else:
        home, total = int(leader.get("home") or 0), int(leader.get("total") or 0)
        leads = f"{name} leads with {lost.progress(home, total, str(page.get('unit')))}"
    return Preview(board.title(), f"{leads} · {size} on this board.")
