"""Challenges in words and tables: a finished game raced again later against its ghost.

Pure: :class:`Ghost` is a recorded game's progress (``ghosts[i]`` of a
``challenge_taken``), and :meth:`Ghost.at` where it stands at a moment of the race, so the
racers' panel moves it along without the server; :class:`ChallengeRace` is a challenge
being raced (taken, started, its result); the rest turns the protocol's challenge maps
into what the player reads: the link on the server's HTTP side, the command a friend
types, the share line, a result and a verdict in words, the table, the list of one's
challenges.

>>> ghost = Ghost.from_message({"name": "ann", "total": 52,
...     "points": [[0, 1, 0], [800, 1, 1], [1600, 3, 2]], "end": {"status": "won", "at": 9000}})
>>> ghost.at(-500), ghost.at(799), ghost.at(800), ghost.at(5000), ghost.at(9000)
((1, 0, 'playing'), (1, 0, 'playing'), (1, 1, 'playing'), (3, 2, 'playing'), (3, 2, 'won'))
"""

from __future__ import annotations

import bisect
import re
import textwrap
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.table import Table
from rich.text import Text

from .boards import fraction, got
from .config import DEFAULT_SERVER
from .lines import Glyphs, HeadersWhole, as_int, kept, race_time, split_line, status_words
from .places import place_cell
from .sanitize import clean

#: a challenge id: 16 characters of a-z and 2-7 (the last part of its link)
CHALLENGE_ID = re.compile(r"[a-z2-7]{16}")
#: how the kinds of game a challenge is made from read
SOURCES = {
    "solo": "a solo game",
    "race": "a race",
    "daily": "a ranked daily",
    "practice": "a daily practice game",
    "challenge": "a challenge race",
}


@dataclass(frozen=True)
class Ghost:
    """A recorded game as its progress: ``points`` are ``(ms from the start, cards home,
    moves)``, the first at 0; ``end_at`` is when it ended (None: never)."""

    name: str
    total: int
    points: tuple[tuple[int, int, int], ...]
    end_status: str = "playing"
    end_at: int | None = None

    @classmethod
    def from_message(cls, msg: Mapping[str, Any]) -> Ghost:
        raw = msg.get("points")
        points = []
        for p in raw if isinstance(raw, list) else []:
            if isinstance(p, list) and len(p) == 3:
                points.append((as_int(p[0]), as_int(p[1]), as_int(p[2])))
        points.sort(key=lambda p: p[0])
        end = msg.get("end")
        end = end if isinstance(end, Mapping) else {}
        at = end.get("at")
        return cls(
            name=clean(msg.get("name", ""), 20),
            total=as_int(msg.get("total")),
            points=tuple(points) or ((0, 0, 0),),
            end_status=clean(end.get("status") or "playing", 16),
            end_at=as_int(at) if isinstance(at, int) else None,
        )

    def at(self, ms: int) -> tuple[int, int, str]:
        """Cards home, moves and status ``ms`` after the start: the last point at or
        before it (the first before the start), ended once ``ms`` reaches ``end_at``."""
        n = bisect.bisect_right([p[0] for p in self.points], ms)
        _, home, moves = self.points[max(n - 1, 0)]
        ended = self.end_at is not None and ms >= self.end_at
        return home, moves, self.end_status if ended else "playing"


@dataclass
class ChallengeRace:
    """A challenge being raced: the challenge as shown, the taker's game, its start
    (server ms), the ghosts raced, and the ``challenge_result`` once it comes."""

    cid: str
    shown: dict[str, Any]
    gid: str
    start_at: int
    ghosts: list[Ghost] = field(default_factory=list)
    result: dict[str, Any] | None = None

    @classmethod
    def from_message(cls, msg: Mapping[str, Any]) -> ChallengeRace:
        """A ``challenge_taken`` reply, or ``welcome.resume.challenge`` (its ``challenge``
        an id, not the map)."""
        shown = msg.get("challenge")
        shown = dict(shown) if isinstance(shown, Mapping) else {"id": shown}
        ghosts = msg.get("ghosts")
        return cls(
            cid=clean(shown.get("id") or "", 32),
            shown=shown,
            gid=clean(msg.get("game", ""), 32),
            start_at=as_int(msg.get("start_at")),
            ghosts=[Ghost.from_message(g) for g in ghosts or [] if isinstance(g, Mapping)],
        )

    @property
    def ghost_name(self) -> str:
        if self.ghosts:
            return self.ghosts[0].name
        return clean(self.shown.get("player") or "the ghost", 20)


def challenge_id(text: str) -> str:
    """The challenge an argument names: its id, or its link pasted whole.

    >>> challenge_id("UA5J4VEKFXK6UOGY"), challenge_id("http://h:8765/c/ua5j4vekfxk6uogy/")
    ('ua5j4vekfxk6uogy', 'ua5j4vekfxk6uogy')
    """
    return text.strip().rstrip("/").rpartition("/")[2].lower()


def http_url(server: str, path: str) -> str:
    """A path on the server's HTTP side, from the websocket URL the client uses.

    >>> http_url("ws://127.0.0.1:8765", "/c/ab"), http_url("wss://race.example.org/", "/c/ab")
    ('http://127.0.0.1:8765/c/ab', 'https://race.example.org/c/ab')
    """
    scheme, _, rest = server.partition("://")
    return f"{'https' if scheme == 'wss' else 'http'}://{rest.rstrip('/')}{path}"


def command(server: str, words: str) -> str:
    """A ``patience-race`` command as a friend types it: ``--server`` too when this is
    not the default server, so that it works as pasted.

    >>> command("ws://127.0.0.1:8765", "challenge ab"), command("wss://x.org", "challenge ab")
    ('patience-race challenge ab', 'patience-race challenge ab --server wss://x.org')
    """
    if not server or server == DEFAULT_SERVER:
        return f"patience-race {words}"
    return f"patience-race {words} --server {server}"


def link(server: str, shown: Mapping[str, Any]) -> str:
    """The challenge's link: its ``link`` (``/c/ID``) on the server's HTTP side."""
    path = clean(shown.get("link") or f"/c/{clean(shown.get('id', ''), 32)}", 64)
    return http_url(server, path)


def share(server: str, shown: Mapping[str, Any]) -> str:
    """The share line, its link made whole so that it works as pasted.

    >>> share("ws://h:1", {"id": "ab", "link": "/c/ab", "share": "Beat my 1:38 on X · /c/ab"})
    'Beat my 1:38 on X · http://h:1/c/ab'
    """
    line = clean(shown.get("share") or "", 200)
    path = clean(shown.get("link") or "", 64)
    if path and line.endswith(path):
        line = line[: -len(path)] + link(server, shown)
    return line


def result_words(entry: Mapping[str, Any] | None, unit: str = "cards") -> str:
    """A table entry's result in words (``unit``: its game's, ``pairs`` where cards come
    off in pairs).

    >>> result_words({"status": "won", "time_ms": 98715, "moves": 123, "home": 52, "total": 52})
    'won in 1:38.7, 123 moves'
    >>> result_words({"status": "resigned", "moves": 1, "home": 1, "total": 52})
    'resigned, 1/52 home, 1 move'
    >>> result_words({"status": "lost", "moves": 9, "home": 18, "total": 52}, "pairs")
    'lost, 9/26 pairs off, 9 moves'
    """
    entry = entry or {}
    moves = as_int(entry.get("moves"))
    counted = f"{moves} move" if moves == 1 else f"{moves} moves"
    status = clean(entry.get("status", ""), 16)
    if status == "won":
        return f"won in {race_time(as_int(entry.get('time_ms')))}, {counted}"
    return f"{status_words(status)}, {got(entry, unit)}, {counted}"


def by_time(ms: int) -> str:
    """A difference of times: ``12.3 s`` under a minute, else ``m:ss.t``.

    >>> by_time(12_345), by_time(75_400)
    ('12.3 s', '1:15.4')
    """
    if ms < 60_000:
        return f"{ms // 1000}.{ms % 1000 // 100} s"
    return race_time(ms)


def verdict_line(verdict: Mapping[str, Any] | None, ghost: str, unit: str = "cards") -> str:
    """Won or lost against the ghost, and by how much (the server's verdict; ``by_cards``
    counts cards, told in pairs off where the game's ``unit`` is ``pairs``).

    >>> verdict_line({"beat": True, "by_ms": 12_345, "by_cards": 0}, "ann")
    "You beat ann's ghost by 12.3 s."
    >>> verdict_line({"beat": False, "by_ms": None, "by_cards": 51}, "ann")
    "ann's ghost beat you by 51 cards home."
    >>> verdict_line({"beat": False, "by_ms": None, "by_cards": 0}, "ann")
    "ann's ghost beat you: as many cards home, and the ghost got there first."
    >>> verdict_line({"beat": False, "tied": True, "by_ms": None, "by_cards": 0}, "ann")
    "A tie with ann's ghost: as many cards home, as soon."
    >>> verdict_line({"beat": False, "by_ms": 0, "by_cards": 0, "by_moves": 2}, "ann")
    "ann's ghost beat you: the same time, in fewer moves."
    """
    if not isinstance(verdict, Mapping):
        return f"Your race against {ghost}'s ghost is over."
    level = "pairs off" if unit == "pairs" else "cards home"
    if verdict.get("tied") is True:
        # (moves part only winners: level on cards home as soon, the moves are not asked)
        if isinstance(verdict.get("by_ms"), int):
            return f"A tie with {ghost}'s ghost: the same time, in as many moves."
        return f"A tie with {ghost}'s ghost: as many {level}, as soon."
    beat = verdict.get("beat") is True
    by_ms, cards = verdict.get("by_ms"), as_int(verdict.get("by_cards"))
    fewer = as_int(verdict.get("by_moves")) > 0  # (moves decided it)
    if by_ms == 0 and fewer:
        by = ": the same time, in fewer moves."
    elif isinstance(by_ms, int) and not isinstance(by_ms, bool):
        by = f" by {by_time(by_ms)}."
    elif cards and unit == "pairs":
        by = f" by {cards // 2} pair{'s' if cards // 2 != 1 else ''} off."
    elif cards:
        by = f" by {cards} card{'s' if cards != 1 else ''} home."
    else:
        first = "you" if beat else "the ghost"
        by = f": as many {level}, and {first} got there first."
    return f"You beat {ghost}'s ghost{by}" if beat else f"{ghost}'s ghost beat you{by}"


def about(shown: Mapping[str, Any]) -> str:
    """What a challenge is, in a line: whose game, of what, and its result.

    >>> about({"player": "ann", "game_name": "The Gate", "source": "solo",
    ...        "result": {"status": "won", "time_ms": 98715, "moves": 123}})
    "ann's game of The Gate (a solo game): won in 1:38.7, 123 moves"
    """
    source = clean(shown.get("source", ""), 16)
    day = clean(shown.get("day") or "", 10)
    kind = SOURCES.get(source, source) + (f" of {day}" if day else "")
    name = clean(shown.get("game_name") or shown.get("game", ""), 40)
    result = shown.get("result")
    result = result if isinstance(result, Mapping) else {}
    player = clean(shown.get("player", ""), 20)
    return f"{player}'s game of {name} ({kind}): {result_words(result, unit_of(shown))}"


def unit_of(shown: Mapping[str, Any]) -> str:
    """A challenge's ``unit``: ``pairs`` where its game takes cards off in pairs, else
    ``cards`` (and for anything else)."""
    return "pairs" if shown.get("unit") == "pairs" else "cards"


def table(
    entries: Sequence[Any],
    me: str | None,
    ascii: bool = False,
    replays: bool = True,
    unit: str = "cards",
) -> HeadersWhole:
    """A challenge's table, ranked as the server ranks it: the ghost marked, the player's
    own entry marked and bold, each entry's replay where the server names it (no column
    without ``replays``: a practice's table against the board, where none is given); a
    column of pairs off where the game's ``unit`` is ``pairs``."""
    g = Glyphs(ascii)
    out = Table(box=g.box, show_edge=False, pad_edge=False, expand=False)
    columns = (
        ("#", "right"),
        ("player", "left"),
        ("result", "left"),
        ("time", "right"),
        ("moves", "right"),
        ("pairs" if unit == "pairs" else "home", "right"),
        ("replay", "left"),
    )
    for name, justify in columns if replays else columns[:-1]:
        out.add_column(
            name,
            justify=justify,  # type: ignore[arg-type]
            no_wrap=name in ("replay", "#"),
            min_width=16 if name == "replay" else None,
        )
    for e in entries:
        if not isinstance(e, Mapping):
            continue
        name = clean(e.get("player", ""), 20)
        mine = me is not None and name.lower() == me.lower() and not e.get("ghost")
        player = Text(name, style="bold" if mine else "")
        if e.get("ghost"):
            player.append(" (ghost)", style="dim")
        status = status_words(clean(e.get("status", ""), 12))
        cells: list[str | Text] = [
            f"{g.me if mine else ''}{place_cell(e, entries)}",
            player,
            Text(status, style="green" if status == "won" else ""),
            race_time(e.get("time_ms")) or g.dash,
            str(as_int(e.get("moves"))),
            fraction(e, unit).removesuffix(" pairs"),
        ]
        if replays:
            cells.append(Text(clean(e.get("replay") or "", 32) or g.dash, style="dim"))
        out.add_row(*cells)
    # (names give first, then the results, down to their words: wrapped, never cut)
    return HeadersWhole(out, first=(1, 2), words=True)


def not_yet_lines(server: str, shown: Mapping[str, Any], closed: str) -> list[str]:
    """Why a challenge is not open to the player yet (``challenge_show``'s ``closed``),
    and for one of today's daily deal the way on: that daily first."""
    out = [f"Not yet: {clean(closed, 300)}"]
    rules = clean(shown.get("game", ""), 32)
    if shown.get("opens_at") is not None and rules:
        out.append(f"Play today's first: {kept(command(server, f'daily {rules}'))}")
    return out


def made_page(server: str, shown: Mapping[str, Any], screen: int) -> list[str]:
    """:func:`made_lines` as a page over the table on a screen ``screen`` wide: its words
    wrapped at 76 at most, the share line whole where the screen has room for it (split
    at 72, it took two lines even at 200 columns)."""
    return made_lines(server, shown, min(screen - 4, 76), screen - 4)


def made_lines(
    server: str, shown: Mapping[str, Any], width: int = 76, share_width: int | None = None
) -> list[str]:
    """What the player is shown on making a challenge (and told again as they leave):
    the link, the command, the share line (in lines of ``share_width``, else ``width``)."""
    cid = clean(shown.get("id", ""), 32)
    out = [
        *textwrap.wrap(f"Your challenge: {about(shown)}.", width, break_on_hyphens=False),
        "Anyone with the link races your game's ghost on the same deal.",
        "",
        "The link:",
        f"    {link(server, shown)}",
        "In a terminal:",
        f"    {command(server, f'challenge {cid}')}",
        "To paste into a chat:",
        *(f"    {piece}" for piece in split_line(share(server, shown), (share_width or width) - 4)),
    ]
    opens = shown.get("opens_at")
    if isinstance(opens, int) and not isinstance(opens, bool):
        out += [
            "",
            "A challenge of today's daily deal opens to each player once their own ranked",
            "attempt is over, or to everyone at the day's reset.",
        ]
    return out


def made_text(server: str, shown: Mapping[str, Any]) -> str:
    """:func:`made_lines` as printed (on leaving, by ``challenge ID``): the link, the
    command and the share line each one piece to copy (:func:`~.lines.kept`)."""
    return "\n".join(
        kept(line) if line.startswith("    ") else line for line in made_lines(server, shown, 200)
    )


def news_notice(
    event: Mapping[str, Any],
    games: Mapping[str, str],
    pairs: Collection[str] = (),
    server: str = "",
) -> str:
    """A ``challenge_news`` event in a line: who raced your ghost, and how it went
    (``pairs``: the games whose cards come off in pairs, counted so; ``server``: the
    command's, where it is not the default).

    >>> from client_cli.lines import between_words
    >>> said = news_notice({"challenge": "ab", "game": "gate", "beat_you": False,
    ...     "unseen": 1, "result": {"player": "bob", "status": "resigned", "moves": 1,
    ...     "home": 1, "total": 52}}, {"gate": "The Gate"}, server="ws://h:9411")
    >>> print(between_words(said, 80))
    bob raced your ghost at The Gate: resigned, 1/52 home, 1 move; you stay ahead.
    1 new: patience-race challenges --server ws://h:9411

    The command comes last, one piece with nothing after it: copied whole, a ``:`` or a
    ``)`` after it went with the server's address.
    """
    result = event.get("result")
    result = result if isinstance(result, Mapping) else {}
    who = clean(result.get("player") or "someone", 20)
    rules = clean(event.get("game", ""), 32)
    where = games.get(rules) or rules
    outcome = (
        "level with you"
        if event.get("tied")
        else "beat you"
        if event.get("beat_you")
        else "you stay ahead"
    )
    unseen = as_int(event.get("unseen"))
    more = f" {kept(f'{unseen} new:')} {kept(command(server, 'challenges'))}" if unseen else ""
    unit = "pairs" if rules in pairs else "cards"
    return f"{who} raced your ghost at {where}: {result_words(result, unit)}; {outcome}.{more}"


def new_results(count: int, server: str = "") -> str:
    """What signing in says of results on the player's challenges not yet seen, its
    command one piece to copy (:func:`~.lines.kept`: at 80 columns it was broken after
    ``--server``, and its first line pasted went to the default server).

    >>> from client_cli.lines import between_words
    >>> print(between_words(new_results(3, "ws://127.0.0.1:9411"), 80))
    3 new results on your challenges:
    patience-race challenges --server ws://127.0.0.1:9411
    >>> between_words(new_results(1), 80)
    '1 new result on your challenges: patience-race challenges'
    """
    word = "result" if count == 1 else "results"
    return f"{count} new {word} on your challenges: {kept(command(server, 'challenges'))}"


def listing(challenges: Sequence[Any], ascii: bool = False) -> HeadersWhole:
    """The player's challenges (a ``challenges`` reply), newest first: new results
    marked; each result counted in its challenge's ``unit`` (Nestor's: pairs off)."""
    g = Glyphs(ascii)
    out = Table(box=g.box, show_edge=False, pad_edge=False)
    out.add_column("new", justify="right", no_wrap=True)
    out.add_column("challenge", no_wrap=True)
    out.add_column("game", overflow="ellipsis", max_width=20)
    out.add_column("your result", overflow="ellipsis")
    out.add_column("takers", justify="right")
    for c in challenges:
        if not isinstance(c, Mapping):
            continue
        new = as_int(c.get("new"))
        result = c.get("result")
        out.add_row(
            Text(f"{new} new", style="bold yellow") if new else Text(""),
            clean(c.get("id", ""), 32),
            clean(c.get("game_name") or c.get("game", ""), 40),
            result_words(result if isinstance(result, Mapping) else {}, unit_of(c)),
            str(as_int(c.get("takers"))),
        )
    return HeadersWhole(out, first=(2, 3))  # (the game's name and the result give)
