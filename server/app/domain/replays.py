"""Replays: a finished game as the server saw it (game, seed, every move with its server
time, the result), and their verification.

A replay is a plain map, the same in Redis (``rp:{id}``, msgpack, kept for good), in the
``replay`` reply and in a replay file (JSON or msgpack)::

    {"id": "3f2a...", "game": "gate", "rules_version": 2, "seed": 123, "kind": "daily",
     "player": "ann", "day": "2026-11-22", "start_ms": ...,
     "moves": [[ms, "t1>b2"], [ms, "!undo"], [ms, "!hint"], ...],
     "result": {"status": "won", "time_ms": 205000, "moves": 142, "home": 52, "total": 52,
                "hints": 1}}

A race game's replay has ``room`` and ``race`` instead of ``day``.

``verify`` plays the moves from the seed through the engine and checks that they are all
legal, that the times run forwards from the start, and that they reproduce the result
(the hints given too: a ``!hint`` entry is counted, and changes nothing on the board).
Nothing comes after the game's end but, in a solo or practice game, an ``!undo`` that
takes back a loss (``games.UNDO_AFTER_LOSS``): the game goes on from there.
A replay is checked only against the rules it was played under: one played under another
version of its game's rules than this engine's (``rules_version``; a replay without one
was played under version 1) is refused with :class:`OtherRules`, neither verified nor
called tampered.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgpack

from server.engine import GAMES, IllegalMove, UndoRefused, new_game

from .daily import book_id
from .games import (
    HINT,
    LOST,
    RESIGN,
    RESIGNED,
    TIMEOUT,
    TIMEOUT_ENTRY,
    UNDO,
    UNDO_AFTER_LOSS,
    WON,
    LiveGame,
)

#: a replay's kind for a certified daily deal's book line
BOOK = "book"

#: the log's entries that are no move, in words (as the clients say them)
ENTRY_WORDS = {UNDO: "undo", RESIGN: "resign", TIMEOUT_ENTRY: "time up", HINT: "hint"}


def entry_words(entry: str) -> str:
    """A replay's log entry as a person reads it: a move's notation, or what the entry
    that is none did (``!hint``: ``hint``).

    >>> entry_words("b4>t3"), entry_words("!hint"), entry_words("!timeout")
    ('b4>t3', 'hint', 'time up')
    """
    return ENTRY_WORDS.get(entry, entry)


def undo_notes(entries: list[str]) -> dict[int, str]:
    """What each undo of a replay's log took back, by the undo's index: ``takes back 2``
    (the number of the entry undone, counted from 1), as the terminal's viewer says it.

    >>> undo_notes(["t1>t3", "!hint", "deal", "!undo", "!undo", "!undo"])
    {3: 'takes back 3', 4: 'takes back 1'}
    """
    standing: list[int] = []  # the entries whose moves are on the board
    notes: dict[int, str] = {}
    for n, entry in enumerate(entries):
        if entry == UNDO and standing:
            notes[n] = f"takes back {standing.pop() + 1}"
        elif not entry.startswith("!"):
            standing.append(n)
    return notes


def hints_text(result: dict[str, Any]) -> str:
    """`` · 2 hints`` for a result with hints asked, else nothing.

    >>> hints_text({"hints": 1}), hints_text({"hints": 0}), hints_text({})
    (' · 1 hint', '', '')
    """
    hints = result.get("hints")
    if not isinstance(hints, int) or isinstance(hints, bool) or hints <= 0:
        return ""
    return " · 1 hint" if hints == 1 else f" · {hints} hints"


def build(live: LiveGame, log: list[tuple[int, str]], extra: dict[str, Any]) -> dict[str, Any]:
    """The replay of a finished game from its move log."""
    home, total = live.game.progress
    finished = live.finished_ms or live.created_ms
    return {
        "id": live.gid,
        "game": live.game.id,
        "rules_version": live.game.rules_version,
        "seed": live.game.seed,
        "kind": live.kind,
        "start_ms": extra.get("start_ms", live.created_ms),
        "moves": [[at, what] for at, what in log],
        "result": {
            "status": live.result,
            "time_ms": finished - extra.get("start_ms", live.created_ms),
            "moves": live.game.moves,
            "home": home,
            "total": total,
            "hints": live.hints,
        },
        **{k: v for k, v in extra.items() if k != "start_ms"},
    }


def book(day: str, start_ms: int, game_id: str, seed: int, line: list[str]) -> dict[str, Any]:
    """A certified daily deal's book line as a replay (what ``replay``, the pages and
    ``verify`` take): its moves all at the day's start, played through the engine here to
    fill in its result (:class:`Tampered` if the line does not win)."""
    game = new_game(game_id, seed=seed)
    try:
        for move in line:
            game.play(move)
    except IllegalMove as exc:
        raise Tampered(f"the book line is not legal: {exc}") from None
    if game.status != WON:
        raise Tampered(f"the book line does not win: it ends {game.status}")
    home, total = game.progress
    return {
        "id": book_id(day, game_id),
        "game": game_id,
        "rules_version": game.rules_version,
        "seed": seed,
        "kind": BOOK,
        "start_ms": start_ms,
        "moves": [[start_ms, move] for move in line],
        "result": {"status": WON, "time_ms": 0, "moves": game.moves, "home": home, "total": total},
        "player": "the book",
        "day": day,
        "par": len(line),
    }


class Tampered(ValueError):
    """A replay that does not reproduce its recorded result."""


class OtherRules(ValueError):
    """A replay played under another version of its game's rules than this engine's: it
    cannot be checked here (nor drawn step by step)."""


def rules_version(replay: dict[str, Any]) -> int:
    """The version of the rules a replay was played under (1 when it names none: replays
    were first written without one)."""
    try:
        return int(replay.get("rules_version") or 1)
    except (TypeError, ValueError):
        raise Tampered("not a replay: its rules version is not a number") from None


def other_rules(replay: dict[str, Any]) -> str | None:
    """Why this engine cannot replay ``replay`` under the rules it was played under, or
    None when it can (or the replay names no game this engine has: verify says so)."""
    game = replay.get("game")
    info = GAMES.get(game) if isinstance(game, str) else None
    if info is None:
        return None
    version = rules_version(replay)
    if version == info.rules_version:
        return None
    return (
        f"played under version {version} of {info.name}'s rules; this server plays "
        f"version {info.rules_version}, so it cannot replay it"
    )


def verify(replay: dict[str, Any]) -> dict[str, Any]:
    """Re-play a replay; its result as the engine finds it. Raises :class:`Tampered`
    saying what does not hold, or :class:`OtherRules`."""
    problem = other_rules(replay)
    if problem is not None:
        raise OtherRules(problem)
    try:
        game = new_game(replay["game"], seed=int(replay["seed"]))
        start = int(replay["start_ms"])
        moves = [(int(at), str(what)) for at, what in replay["moves"]]
        recorded = replay["result"]
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise Tampered(f"not a replay: {exc}") from None
    if not isinstance(recorded, dict):
        raise Tampered("not a replay: its result is not a map")
    status = "playing"
    loss_undone = replay.get("kind") in UNDO_AFTER_LOSS
    hints = 0
    last = start
    finished_at = start
    for n, (at, what) in enumerate(moves, start=1):
        if at < last:
            before = "the game's start" if n == 1 else "the move before it"
            raise Tampered(f"move {n} ({what}) is timed before {before}")
        last = at
        if status != "playing" and not (status == LOST and what == UNDO and loss_undone):
            raise Tampered(f"move {n} ({what}) comes after the game ended ({status})")
        try:
            if what == UNDO:
                game.undo()
                status = "playing"
            elif what == RESIGN:
                status = RESIGNED
            elif what == TIMEOUT_ENTRY:
                status = TIMEOUT
            elif what == HINT:
                hints += 1
            else:
                game.play(what)
                if game.status != "playing":
                    status = game.status
        except (IllegalMove, UndoRefused) as exc:
            raise Tampered(f"move {n} is not legal: {exc}") from None
        if status != "playing":
            finished_at = at
    home, total = game.progress
    found = {
        "status": status,
        "time_ms": finished_at - start,
        "moves": game.moves,
        "home": home,
        "total": total,
    }
    if hints or "hints" in recorded:  # replays were first written without it
        found["hints"] = hints
    for key, value in found.items():
        if recorded.get(key) != value:
            raise Tampered(f"recorded {key} {recorded.get(key)!r}, but the moves give {value!r}")
    return found


def view_after(replay: dict[str, Any], step: int) -> dict[str, Any]:
    """The view of a replay's game after its first ``step`` entries (its seed known).
    Raises :class:`OtherRules` for a replay played under other rules than this engine's."""
    problem = other_rules(replay)
    if problem is not None:
        raise OtherRules(problem)
    game = new_game(replay["game"], seed=int(replay["seed"]))
    for _at, what in replay["moves"][:step]:
        if what == UNDO:
            game.undo()
        elif what not in (RESIGN, TIMEOUT_ENTRY, HINT):
            game.play(what)
    return game.view()


def load_file(path: Path) -> dict[str, Any]:
    """A replay file: JSON, or msgpack."""
    data = path.read_bytes()
    try:
        value = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError):
        value = msgpack.unpackb(data, raw=False, strict_map_key=False)
    if not isinstance(value, dict):
        raise Tampered("a replay file holds one map")
    return value
