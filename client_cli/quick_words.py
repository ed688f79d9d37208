"""What the terminal says of a quick race: the wait (its rating window widening, the
connection dropping and coming back), the ghosts raced when nobody was matched, the
result against them. Pure functions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .challenge import result_words
from .places import place_of, placed
from .sanitize import clean


def waiting_line(msg: Mapping[str, Any], name: str, now: int) -> str:
    """What the wait says, as the window widens.

    >>> msg = {"rating": 4.44, "window": 3.0, "ghosts_at": 21_000, "now": 1_000}
    >>> waiting_line(msg, "The Gate", 1_000)
    'Quick race of The Gate: waiting · your rating 4 · looking ±3 · ghosts in 20 s'

    The rating as every table shows it, the server's ``rating_shown`` (``rating``, to two
    decimals, rounded again could say another: 0.50498 sent as 0.5 read 0):

    >>> waiting_line({"rating": 0.5, "rating_shown": 1}, "The Gate", 0)
    'Quick race of The Gate: waiting · your rating 1'
    """
    rating = msg.get("rating_shown", msg.get("rating"))
    window = msg.get("window")
    ghosts_at = msg.get("ghosts_at")
    parts = [f"Quick race of {name}: waiting"]
    if isinstance(rating, int | float) and not isinstance(rating, bool):
        parts.append(f"your rating {round(rating)}")  # (as every table shows it)
    if isinstance(window, int | float) and not isinstance(window, bool):
        parts.append(f"looking ±{window:g}")  # (one waiting longer looks wider)
    if isinstance(ghosts_at, int) and not isinstance(ghosts_at, bool):
        left = max(ghosts_at - now, 0) // 1000
        parts.append(f"ghosts in {left} s")
    return " · ".join(parts)


def dropped_words(delay: Any) -> str:
    """The connection dropped while waiting (closing it leaves the queue).

    >>> dropped_words(0.5)
    'The connection dropped: reconnecting in 0.5 s, to join the queue again.'
    """
    when = f" in {delay:g} s" if isinstance(delay, int | float) else ""
    return f"The connection dropped: reconnecting{when}, to join the queue again."


def back_words(kept: bool) -> str:
    """Reconnected while waiting: the queue joined again; ``kept``: it still held the
    player (a server that stopped without telling it), their first wait's time kept.

    >>> back_words(True)
    'Reconnected. Back in the queue, your wait as it was.'
    >>> back_words(False)
    'Reconnected. Back in the queue, waiting afresh.'
    """
    return f"Reconnected. Back in the queue, {'your wait as it was' if kept else 'waiting afresh'}."


def matched_away_words(others: list[str] | None, racing: bool = False) -> str:
    """Reconnected to find the player matched meanwhile (``welcome.resume``): with
    ``others`` in a room (its race on, ``racing``, or about to start), or (None) with
    ghosts.

    >>> matched_away_words(["bob", "cat"])
    'Reconnected. Matched with bob, cat meanwhile: the race starts in a moment.'
    >>> matched_away_words(["bob"], racing=True)
    'Reconnected. Matched with bob meanwhile: the race is on.'
    >>> matched_away_words(None)
    'Reconnected. Nobody was matched in time: your race against the ghosts, as it stands.'
    """
    if others is None:
        return (
            "Reconnected. Nobody was matched in time: your race against the ghosts, as it stands."
        )
    who = f" with {', '.join(others)}" if others else ""
    then = "the race is on" if racing else "the race starts in a moment"
    return f"Reconnected. Matched{who} meanwhile: {then}."


def stopped_words(event: Mapping[str, Any]) -> str:
    """The wait stopped for good: this terminal signed out by another of the player's
    (``signed_out``, its ``reason``), or its token refused on signing in again
    (``link_error``).

    >>> stopped_words({"type": "signed_out", "reason": "signed in on another device: tablet"})
    'Signed in on another device: tablet. This terminal has stopped waiting.'
    >>> stopped_words({"type": "link_error", "message": "unknown token"})
    'Cannot sign in again: unknown token. This terminal has stopped waiting.'
    """
    if event.get("type") == "link_error":
        said = f"Cannot sign in again: {clean(event.get('message', ''), 200)}"
    else:
        reason = clean(event.get("reason") or "signed in from another client", 120)
        said = f"{reason[:1].upper()}{reason[1:]}"
    # (the command last, nothing after it: a bracket after it went with it, copied whole)
    more = (
        " To link it again: patience-race link CODE" if event.get("cause") == "signed_out" else ""
    )
    return f"{said}. This terminal has stopped waiting.{more}"


def ghosts_words(msg: Mapping[str, Any]) -> str:
    """Who the ghosts are.

    >>> ghosts_words({"ghosts": [{"name": "ann"}, {"name": "bob"}]})
    "Nobody was matched in time: racing the ghosts of ann and bob, on their race's deal."
    >>> ghosts_words({"ghosts": []})
    'Nobody was matched in time, and no recorded race is left for you to race: a fresh deal, alone.'
    """
    ghosts = msg.get("ghosts")
    names = [clean(g.get("name", ""), 20) for g in ghosts or [] if isinstance(g, Mapping)]
    if not names:
        return (
            "Nobody was matched in time, and no recorded race is left for you to race: a "
            "fresh deal, alone."
        )
    who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"
    return f"Nobody was matched in time: racing the ghosts of {who}, on their race's deal."


def result_message(msg: Mapping[str, Any], unit: str = "cards") -> str:
    """``quick_ghosts_result`` in a line (``unit``: the game's, ``pairs`` where its cards
    come off in pairs).

    >>> you = {"status": "won", "time_ms": 61_000, "moves": 88, "home": 52, "total": 52}
    >>> result_message({"rank": 2, "place": 2, "you": you, "table": [
    ...     {"rank": 1, "place": 1, "ghost": True}, {"rank": 2, "place": 2, "ghost": False},
    ...     {"rank": 3, "place": 3, "ghost": True}]})
    'You finished 2nd of 3 against the ghosts: won in 1:01.0, 88 moves.'

    A ghost that did just as the player did shares their place:

    >>> result_message({"rank": 2, "place": 1, "you": you, "table": [
    ...     {"rank": 1, "place": 1, "ghost": True}, {"rank": 2, "place": 1, "ghost": False}]})
    'You finished joint 1st of 2 against the ghosts: won in 1:01.0, 88 moves.'

    Alone (no ghost to race), the game's end alone:

    >>> result_message({"rank": 1, "place": 1, "you": you, "table": [
    ...     {"rank": 1, "place": 1, "ghost": False}]})
    'Your game: won in 1:01.0, 88 moves.'
    """
    table = msg.get("table")
    entries = table if isinstance(table, list) else []
    count = len(entries)
    mine = msg.get("you")
    you: dict[str, Any] = dict(mine) if isinstance(mine, Mapping) else {}
    # the player's own row of the table says whether a ghost shares their place
    row = next((e for e in entries if isinstance(e, Mapping) and not e.get("ghost")), msg)
    if place_of(row) < 1:
        row = msg
    if not any(isinstance(e, Mapping) and e.get("ghost") for e in entries):
        return f"Your game: {result_words(you, unit)}."
    place = placed(row, entries) if place_of(row) > 0 else "?"
    return f"You finished {place} of {count} against the ghosts: {result_words(you, unit)}."
