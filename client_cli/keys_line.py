"""The keys the state on the table offers, in one place: the keys line under the board
(:func:`client_cli.screen.render_screen`) and the message a typed line that means nothing
there gets (``'foo' means nothing here: ...``) both take them from :func:`key_words`.

The message listed the context's keys from :data:`~client_cli.commands.KEYS` alone while
the keys line had the state's own: a finished ranked daily was told ``n new deal ·
... · review · h help`` under a keys line of ``n the same deal again (practice) · ...`` (a
daily's game is reviewed after the day's reset), a lost game was not told the ``u undo``
its keys line offered.
"""

from __future__ import annotations

from .commands import KEYS, NUMBERED, Action, interpret, numbered_piles
from .daily_end import day_over
from .model import Model
from .results import raced

#: what the keys line after a race offers for the player's own game in it
OWN_GAME = "c challenge a friend · review · "


def key_words(model: Model, now: int | None = None) -> str:
    """What the state on the table offers, as the keys line says it at its widest (before
    :func:`~client_cli.commands.narrowed`, and without the help's or a page's words,
    which stand over the table: a line typed there closes them first or is not typed).
    ``now``: the time drawn at, which tells whether a daily's day is over."""
    context = model.context()
    words = KEYS.get(context, "")
    game = model.game
    if context == "confirm" and model.confirm in KEYS:
        words = KEYS[model.confirm]
    if context == "play" and game is not None:
        if numbered_piles(game.labels):
            words = words.replace(*NUMBERED)
        if game.pairs:  # nothing goes home a card at a time
            words = words.replace(" · + home", "")
        if not model.hints_allowed:
            words = words.replace(" · ? hint", "")
        if game.view.get("can_undo") is False:  # (the browser greys its Undo out then)
            words = words.replace(" · u undo", "")
    if context == "over" and model.daily_kind is not None:
        # (once its day is over, n is that day's deal again; new GAME, the new day's)
        past = now is not None and day_over(model, now)
        words = KEYS["daily-over-past" if past else "daily-over"]
    if context == "over" and game is not None and game.lost is not None and game.lost.undo:
        words = f"u undo · {words}".replace(" · h help", "")  # (the line has room for 80)
    if context in ("lobby", "finished") and not model.is_host:
        words = KEYS[f"{context}-guest"]
    if context == "finished" and (model.room or {}).get("quick"):
        words = KEYS["finished-quick"]  # (a quick room has no host, and no rematch)
    if context == "finished" and not raced(model):
        # one who joined after the race has no game of it to challenge a friend with or
        # review: the line offered c, which then said so
        words = words.replace(OWN_GAME, "")
    race = model.challenge
    if context in ("challenge-countdown", "challenge-wait") and race is not None and not race.cid:
        # a quick race's ghosts, or none (a fresh deal, alone)
        words = KEYS[context.replace("challenge", "quick" if race.ghosts else "alone")]
    return words


def understood(model: Model, text: str, now: int | None = None) -> Action:
    """What the line ``text`` asks for in the state on the table
    (:func:`~client_cli.commands.interpret`); a line that means nothing there is told the
    keys its keys line shows."""
    game = model.game
    legal = game.legal if game is not None else []
    labels = game.labels if game is not None else frozenset()
    return interpret(text, model.context(), legal, labels, key_words(model, now))
