"""The daily's requests from the table: today's challenge of a game, asked first where
its ranked clock would start (:func:`daily`), and ``n`` over a daily (:func:`again`): the
same deal as practice, or, once that day is over, that day's deal dealt again from its
seed, public since the reset (the server deals practice of today's deal only).

A question left open across the day's reset is not answered with another deal than the
one it described: :func:`daily` asks again, saying the day changed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .connection import local_ms
from .daily_end import day_over
from .difficulty import difficulty_of
from .endings import daily_greeting, daily_question
from .model import ERROR, WARN, Game, Model
from .sanitize import clean

if TYPE_CHECKING:
    from .controller import Client


def _now() -> int:
    return local_ms()  # (as the controller's now_ms)


async def daily(client: Client, rules: str | None, *, ask: bool = True) -> bool:
    """Today's challenge of a game: the ranked attempt, or practice once it has ended.
    A ranked attempt not yet dealt is asked for first (``ask``): its clock starts with
    the deal. The answer to that question (``ask`` false) deals only if the day is the
    one asked about: across the reset, the new day's deal is described and asked for
    again (it dealt the new day's deal after describing the old one's)."""
    model = client.model
    if not rules:
        model.say("which game? new GAME, a game's id; the ids: patience-race games", ERROR)
        return False
    asked, client.daily_asked = client.daily_asked, None
    if ask or asked is not None:
        status = await client.call("daily", game=rules, start=False)
        if status is None:
            return False
        day = clean(status.get("day", ""), 10)
        if status.get("ranked_attempt") == "pending" and (ask or day != asked):
            client.daily_asked = day
            client.daily_rules = rules
            graded = difficulty_of(status.get("difficulty"))
            unit = "pairs" if rules in model.pair_games else "cards"
            question = daily_question(model.game_name(rules), graded, unit)
            if not ask:  # (asked before the reset, answered after it)
                question = f"The day has changed: it is {day}, a new deal. {question}"
            model.ask("daily", question, WARN)
            return False
    reply = await client.call("daily", game=rules, ghosts=client.ghosts or None)
    if reply is None:
        return False
    model.set_daily(reply, _now())
    model.say(*daily_greeting(model))
    return True


async def again(client: Client, rules: str | None) -> bool:
    """``n`` or ``new [GAME]`` over a daily (ranked or practice). ``new GAME`` is that
    game's daily today; ``n`` is the same deal again: practice while its day lasts, and
    once it is over (the ranked question it asked was the new day's) that day's deal,
    dealt from its seed as a solo game, not ranked."""
    model = client.model
    game = model.game
    if rules is not None or game is None or not day_over(model, _now()):
        return await daily(client, rules or (game.rules if game else None))
    day = clean((model.daily or {}).get("day", ""), 10)
    replay = (model.daily_result or {}).get("game") or game.gid
    shown = await client.call("replay", replay=replay)
    seed = ((shown or {}).get("replay") or {}).get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):  # (said why, where refused)
        if shown is not None:
            model.say(f"the {day} deal is not public yet: new {game.rules} is today's", ERROR)
        return False
    reply = await client.call("new_game", game=game.rules, seed=seed)
    if reply is None:
        return False
    model.set_solo(reply, _now())
    said = f"The {day} deal of {model.game_name()} again, as a solo game: not ranked."
    model.say(said, WARN)
    return True


def taken_up(model: Model, solo: dict[str, Any], now: int) -> None:
    """The solo game on the table as ``welcome.resume`` has it after a reconnection: a
    game that ended while we were away (the reset's timeout) keeps its clock stopped
    where the server's did (``finished_at``), not running on."""
    model.game = Game.from_message(solo)
    model.clock_to = model._ended(solo, now) if model.game.over else None
