"""Challenges: a finished game turned into a race anyone can take later, on the same deal,
against the game's ghost (``server.app.domain.ghosts``).

A challenge is made from a replay by the replay's player (``challenge_create``), or comes
into being when someone races a public replay (``challenge_take`` with ``replay``): either
way it is *the* challenge of that replay, with one id (:func:`challenge_id`, an HMAC of
the replay under the server's secret: unguessable, and the same each time it is asked
for) and one table of everyone who took it. Its record (kept in Redis, with the deal's
seed, never sent)::

    {"id": "k3x9...", "game": "gate", "rules_version": 2, "seed": 123, "source": "solo",
     "day": null, "hints": true, "name": "ann", "replay": "92629d6edd830077",
     "created_ms": ..., "expires_ms": ..., "ghost": {...}}

A taker's entry (one a player: a challenge is taken once) and the ghost's are ranked like
a race's results (:func:`rank`): winners by time, then fewer moves; then by cards home,
then by who reached that count first (level there, they share the place).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from typing import Any

from server.engine import GAMES

from . import lost
from .daily import DAY_MS, clock_text, day_of, day_start_ms
from .games import WON, LiveGame
from .results import shared_places

#: the challenge's id, from a replay: characters of base32, lower case (80 bits)
ID_LENGTH = 16


def challenge_id(secret: bytes, owner: str, replay_id: str) -> str:
    """The id of the challenge of ``replay_id`` (its player ``owner``): unguessable
    without the server's secret, and the same every time."""
    digest = hmac.new(secret, f"challenge/{owner}/{replay_id}".encode(), hashlib.sha256).digest()
    return base64.b32encode(digest).decode()[:ID_LENGTH].lower()


def looks_like_id(text: str) -> bool:
    return len(text) == ID_LENGTH and text.isalnum() and text.islower()


def make(
    cid: str,
    replay: dict[str, Any],
    ghost: dict[str, Any],
    hints: bool,
    now_ms: int,
    ttl_ms: int,
) -> dict[str, Any]:
    """A challenge's record from its replay and the replay's ghost."""
    return {
        "id": cid,
        "game": replay["game"],
        "rules_version": replay.get("rules_version", 1),
        "seed": replay["seed"],
        "source": replay.get("kind"),
        "day": replay.get("day"),
        "hints": hints,
        "name": replay.get("player"),
        "replay": replay["id"],
        "created_ms": now_ms,
        "expires_ms": now_ms + ttl_ms,
        "ghost": ghost,
        "ghost_start_ms": int(replay.get("start_ms", now_ms)),
    }


def shown(record: dict[str, Any], mine: bool = False, reveal: bool = False) -> dict[str, Any]:
    """The challenge as anyone with its link sees it: everything but the seed (and its
    player's id); ``mine``: as its player sees it (the share line in their voice). The
    replays (the challenger's, in ``replay`` and ``result``) only with ``reveal``: to its
    player and to those who have raced it (a replay shows the deal: :func:`hidden`)."""
    info = GAMES.get(record["game"])
    out = {
        "id": record["id"],
        "game": record["game"],
        "game_name": info.name if info is not None else record["game"],
        # what its results' home counts: cards, or pairs (Nestor, Doubles and Quits)
        "unit": lost.unit_of(record["game"]),
        "source": record["source"],
        "day": record["day"],
        "hints": record["hints"],
        "player": record["name"],
        "replay": record["replay"],
        "created_at": record["created_ms"],
        "expires_at": record["expires_ms"],
        "result": ghost_entry(record),
        "link": link(record["id"]),
        "share": share_line(record, mine),
    }
    return out if reveal else hidden(out)


def hidden(shown_or_entry: dict[str, Any]) -> dict[str, Any]:
    """Without the replays it names: a replay of the challenge's deal shows its cards,
    so none is shown to a player who may yet race it."""
    out = {k: v for k, v in shown_or_entry.items() if k != "replay"}
    if isinstance(out.get("result"), dict):
        out["result"] = hidden(out["result"])
    return out


def ghost_shown(ghost: dict[str, Any], hints: int = 0) -> dict[str, Any]:
    """A ghost as a racer is sent it: without its replay, with the hints its player took
    (``hints``, for a ghost made before it said them)."""
    return hidden({"hints": hints, **ghost})


def link(cid: str) -> str:
    return f"/c/{cid}"


def share_line(record: dict[str, Any], mine: bool = True) -> str:
    """What a player pastes to a friend: ``Beat my 1:42 on The Gate · /c/ID`` (not
    ``mine``: ``Beat ann's 1:42 ...``)."""
    info = GAMES.get(record["game"])
    name = info.name if info is not None else record["game"]
    theirs = ghost_entry(record)
    whose = "my" if mine else f"{record['name']}'s"
    if theirs["status"] == WON:
        what = f"Beat {whose} {clock_text(theirs['time_ms'])} on {name}"
    else:
        got = lost.progress(theirs["home"], theirs["total"], lost.unit_of(record["game"]))
        what = f"Beat {whose} {got} on {name}"
    return f"{what} · {link(record['id'])}"


def ghost_entry(record: dict[str, Any]) -> dict[str, Any]:
    """The challenger's own result, as the ghost shows it, in a table entry's shape."""
    # (its start: the ghost's game's; a record made before it was kept, the making)
    start = record.get("ghost_start_ms", record["created_ms"])
    entry = entry_of_ghost(record["ghost"], record.get("ghost_hints", 0), start)
    return {**entry, "player": record["name"], "replay": record["replay"]}


def entry_of_ghost(ghost: dict[str, Any], hints: int, taken_ms: int) -> dict[str, Any]:
    """A ghost's result (where its recorded game ended) as a table entry."""
    end = ghost["end"] or {"status": "playing", "at": 0}
    last = ghost["points"][-1]
    home = last[1]
    reached = next(p[0] for p in ghost["points"] if p[1] == home)
    won = end["status"] == WON
    return {
        "player": ghost["name"],
        "ghost": True,
        "status": end["status"],
        "time_ms": end["at"] if won else None,
        "moves": last[2],
        "home": home,
        "total": ghost["total"],
        "hints": hints,
        "replay": ghost.get("replay"),
        "reached_ms": reached,
        "taken_ms": taken_ms,
    }


def entry_of(name: str, live: LiveGame, taken_ms: int) -> dict[str, Any]:
    """A taker's entry from their finished challenge game (its clock runs from the
    game's ``created_ms``: the start, after the countdown)."""
    start = live.created_ms
    home, total = live.game.progress
    won = live.result == WON
    finished = live.finished_ms if live.finished_ms is not None else start
    return {
        "player": name,
        "ghost": False,
        "status": live.status(),
        "time_ms": finished - start if won else None,
        "moves": live.game.moves,
        "home": home,
        "total": total,
        "hints": live.hints,
        "replay": live.gid,
        "reached_ms": max(live.home_at_ms - start, 0),
        "taken_ms": taken_ms,
    }


def _standing(entry: dict[str, Any]) -> tuple[Any, ...]:
    """How an entry did, as a table orders them, short of when it was taken."""
    if entry["status"] == WON:
        return (0, entry["time_ms"], entry["moves"])
    return (1, -entry["home"], entry["reached_ms"])


def _key(entry: dict[str, Any]) -> tuple[Any, ...]:
    """The table's order: how an entry did, then when it was taken."""
    return (*_standing(entry), entry["taken_ms"])


def rank(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The table: the entries in race order, each with its ``rank`` (1, 2, ...) and its
    ``place``: its rank, shared by entries that did the same and are ordered only by when
    they were taken (1, 2, 2, 4)."""
    ordered = sorted(entries, key=_key)
    places = shared_places([_standing(e) for e in ordered])
    return [
        {"rank": n, "place": place, **e}
        for n, (e, place) in enumerate(zip(ordered, places, strict=True), start=1)
    ]


def verdict(mine: dict[str, Any], ghost: dict[str, Any]) -> dict[str, Any]:
    """Won or lost against the ghost, and by how much: milliseconds when both won, else
    cards home (0 when level: the one who got there first is ahead); ``by_moves``, the
    difference in moves where moves decided it (won in the same time), else None; ``tied``
    when the two did just the same (the table gives them one place: :func:`rank`), and
    then neither beat the other."""
    tied = _standing(mine) == _standing(ghost)
    beat = not tied and _key(mine) < _key(ghost)
    moves = abs(mine["moves"] - ghost["moves"]) or None
    if mine["status"] == WON and ghost["status"] == WON:
        by_ms = abs(mine["time_ms"] - ghost["time_ms"])
        by_moves = moves if by_ms == 0 else None
        return {"beat": beat, "tied": tied, "by_ms": by_ms, "by_cards": 0, "by_moves": by_moves}
    by_cards = abs(mine["home"] - ghost["home"])
    return {"beat": beat, "tied": tied, "by_ms": None, "by_cards": by_cards, "by_moves": None}


def daily_open_at(record: dict[str, Any], now_ms: int) -> int | None:
    """For a challenge of a daily deal whose day is not over (a ranked daily, a
    practice game, or a challenge game of one: any game with a day): when the day
    resets (a player may take it sooner only once their own ranked attempt at it is
    over); None for any other challenge."""
    day = record.get("day")
    if day is None:
        return None
    if day < day_of(now_ms):
        return None
    return day_start_ms(day) + DAY_MS
