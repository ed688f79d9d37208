"""What the terminal says as a game ends and as the player leaves: the note a game's end
brings (:func:`end_note`: won, lost, the daily's rank, waiting for the race's others, the
challenge's verdict coming), the race's result (:func:`result_note`), the words a daily
opens with (:func:`ranked_explained` before the ranked clock starts, :func:`daily_greeting`
once dealt), what ``resign`` asks first (:func:`resign_question`), and the farewell
printed after the screen closes (:func:`farewell`: what is kept on the server and how to
take it up, a result to paste, the challenge made here).

All of it is read from the model, pure: :mod:`.controller` says it, :mod:`.session`
prints it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .board_race import board_greeting, placing
from .challenge import command, made_text, verdict_line
from .difficulty import difficulty_words
from .lines import as_int, kept, status_words
from .model import (
    CHALLENGE,
    COUNTDOWN,
    DAILY,
    ERROR,
    FINISHED,
    GOOD,
    INFO,
    LOBBY,
    PRACTICE,
    RACING,
    ROOM,
    WARN,
    WATCH,
    Model,
)
from .places import level_with, place_of, placed
from .quick_words import result_message as quick_result
from .sanitize import clean


def ranked_explained(name: str) -> str:
    """What a ranked daily attempt is, said before its clock starts."""
    return (
        f"{name}, today's deal: the same for everyone. Your ranked attempt is the one that "
        "counts: its clock starts when the cards are dealt, runs on the server until the "
        "game ends (won, lost, or resigned), even if you quit, and the result goes on the "
        "day's board. After it, the same deal is yours to practise, unranked."
    )


def daily_greeting(model: Model) -> tuple[str, str]:
    """The message a daily game opens with: practice says so; a ranked attempt says it
    counts, with the streaks."""
    daily = model.daily or {}
    board = model.against_board
    if board is not None and board.ghosts:
        return board_greeting(len(board.ghosts)), WARN
    if not daily.get("ranked"):
        note = daily.get("note") or "practice: this game is not ranked"
        return f"{note[:1].upper()}{note[1:]}.", WARN
    streak = daily.get("streak") or {}
    mine, every = streak.get("game") or {}, streak.get("all") or {}
    return (
        f"Today's deal, your one ranked attempt: its clock runs on the server until it ends. "
        f"Streak {mine.get('current', 0)} (best {mine.get('best', 0)}), any game "
        f"{every.get('current', 0)} (best {every.get('best', 0)}).",
        INFO,
    )


def result_note(event: Mapping[str, Any], me: str | None) -> str:
    """A race's ``results`` as the player ``me`` reads them: the place, their rating and
    its change in a rated race (``docs/ratings.md``), and a win held for review.

    >>> result_note({"results": [{"player": "ann", "rank": 1, "place": 1, "rating": 6,
    ...     "rating_change": 3}, {"player": "bob", "rank": 2, "place": 2}]}, "ann")
    'Race over: you came 1st of 2. Your rating: 6 (+3).'

    Racers parted only by who joined first share their place (and are rated a draw):

    >>> result_note({"results": [{"player": "ann", "rank": 1, "place": 1},
    ...     {"player": "bob", "rank": 2, "place": 1}]}, "bob")
    'Race over: you came joint 1st of 2, level with ann.'

    A watcher (``me`` not among the racers) is told who came first, as the browser says:

    >>> result_note({"results": [{"player": "ann", "rank": 1, "place": 1},
    ...     {"player": "bob", "rank": 2, "place": 2}]}, "cy")
    'Race over: ann came 1st of 2.'
    >>> result_note({"results": [{"player": "ann", "rank": 1, "place": 1},
    ...     {"player": "bob", "rank": 2, "place": 1}]}, None)
    'Race over: ann and bob came joint 1st of 2.'

    Three or more level are listed as a sentence lists them:

    >>> three = [{"player": p, "rank": n, "place": 1} for n, p in enumerate("abc", 1)]
    >>> result_note({"results": three}, None)
    'Race over: a, b and c came joint 1st of 3.'
    >>> result_note({"results": three}, "a")
    'Race over: you came joint 1st of 3, level with b and c.'
    """
    results = event.get("results") or []
    for r in results:
        if isinstance(r, Mapping) and r.get("player") == me:
            held = (
                " Your win is held for review (played faster than people play): "
                "it counts on the race boards only if an operator clears it."
                if r.get("review") == "held"
                else ""
            )
            rated = (
                f" Your rating: {as_int(r.get('rating'))} ({as_int(r.get('rating_change')):+d})."
                if "rating" in r
                else ""
            )
            level = level_with(r, results)
            tie = f", level with {listed(level)}" if level else ""
            place = placed(r, results)  # ("joint 1st of 2", as the browser reads it)
            return f"Race over: you came {place} of {len(results)}{tie}.{rated}{held}"
    entries = [r for r in results if isinstance(r, Mapping)]
    if not entries:
        return "Race over."
    first = [r for r in entries if place_of(r) == place_of(entries[0])]
    who = listed([clean(r.get("player", ""), 20) for r in first])
    return f"Race over: {who} came {placed(entries[0], entries)} of {len(entries)}."


def listed(names: list[str]) -> str:
    """Names as a sentence lists them ("ann, bob and cy": "ann and bob and cy", and "level
    with bob, cy", read badly).

    >>> listed(["ann"]), listed(["ann", "bob"]), listed(["ann", "bob", "cy"])
    ('ann', 'ann and bob', 'ann, bob and cy')
    """
    return " and ".join(filter(None, [", ".join(names[:-1]), names[-1]])) if names else ""


def resign_question(model: Model) -> str:
    """What ``resign`` asks before the game on the table ends (y resigns, anything else is
    no). Every game asks, as the browser's Resign button does: a word typed by mistake
    would end it for good, solo or not (a solo game resigned at once). A stuck game's
    offer is a question already: its y resigns at once.

    >>> resign_question(Model())
    'Resign this game? It ends as it stands.'
    >>> resign_question(Model(screen=ROOM))
    'Resign this race? Your game ends here; the race goes on.'
    """
    if model.screen == CHALLENGE:
        race = model.challenge
        if race is not None and not race.cid:  # a quick race's ghosts: no table kept
            return "Resign? Your game ends as it stands."
        return "Resign? Your result goes on the challenge's table as it stands."
    if model.screen == ROOM:
        return "Resign this race? Your game ends here; the race goes on."
    if model.daily_kind == DAILY:
        return "Resign today's ranked attempt? It goes on the board as it stands."
    if model.daily_kind == PRACTICE:
        return "Resign this practice? It ends as it stands (not ranked)."
    return "Resign this game? It ends as it stands."


def daily_question(name: str, graded: dict[str, Any] | None, unit: str = "cards") -> str:
    """What ``new GAME`` over a daily asks before another game's ranked attempt is dealt
    (Enter or y deals it, and its clock starts): what the attempt is, and how hard the
    day's deal is where it is graded (``graded``: :func:`.difficulty.difficulty_of`'s).

    >>> daily_question("Nestor", None)[:52]
    "Start today's ranked Nestor? One attempt: its clock "
    """
    said = (
        f"Start today's ranked {name}? One attempt: its clock starts at the deal and runs on "
        "the server until the game ends, and it goes on the day's board."
    )
    return f"{said} {difficulty_words(graded, unit)}" if graded is not None else said


def end_note(model: Model) -> tuple[str, str] | None:
    """The message (and its level) for the game on the table once it is over, or None:
    none in play or still on, or the screen says it already (the race's results, the
    place among the ghosts)."""
    game = model.game
    if game is None or not game.over:
        return None
    view = game.view
    # (Nestor, Doubles and Quits: nothing goes home, pairs come off)
    home = f"{view.get('home')}/{view.get('total')} home"
    if game.pairs:
        home = f"{as_int(view.get('home')) // 2}/{as_int(view.get('total')) // 2} pairs off"
    if model.screen == ROOM and model.room_state == FINISHED:
        return None  # the race ended with this game: the results are on the screen
    status = status_words(game.status)  # (timeout: "time ran out")
    if model.screen == CHALLENGE:
        race = model.challenge
        if race is not None and race.result is None:  # (else the verdict is said)
            return f"Your game is over ({status}, {home}): the verdict…", INFO
        return None
    if model.screen == ROOM:
        # ("Your game is ended (resigned)" read oddly: "is over", as a challenge's says)
        verb = "won" if game.status == "won" else f"over ({status})"
        return f"Your game is {verb}, {home}: waiting for the others.", GOOD
    if model.placed:
        return None  # (the place among the ghosts is said)
    if game.lost is not None and model.daily_kind != DAILY:
        again = "n: the deal again" if model.daily_kind == PRACTICE else "n deals again"
        return f"{game.lost.said()} {again}.", WARN
    if model.daily_kind == PRACTICE:
        return f"Practice over ({status}, {home}), not ranked. n: again.", WARN
    if model.result_shown:
        result = model.daily_result or {}
        # (its day named: "Today's" stayed on the screen past the reset, and a timeout
        # comes at the reset, when the day is yesterday already)
        day = clean(result.get("day") or "", 10)
        which = f"Your ranked attempt of {day}" if day else "Your ranked attempt"
        if result.get("review"):
            return f"{which} is over ({status}): held for review.", WARN
        rank = result.get("rank")
        if game.lost is not None and game.lost.why:  # (why, as the browser says it)
            status = f"{status}: {game.lost.why[:1].lower()}{game.lost.why[1:].rstrip('.')}"
        return f"{which} is over ({status}): rank {rank}.", GOOD
    if game.status == "won":
        every = (
            f"{as_int(view.get('total')) // 2} pairs off"
            if game.pairs
            else (f"{view.get('total')} cards home")
        )
        return f"You won! All {every}. n deals again.", GOOD
    ended = game.status if status == game.status else f"over: {status}"
    return f"The game is {ended}, {home}. n deals again.", INFO


def _command(server: str, words: str) -> str:
    """A command printed on leaving, one piece to copy (:func:`~.lines.kept`)."""
    return kept(command(server, words))


def farewell(model: Model, said: str = "") -> str:
    """What is printed as the player quits, after ``said`` (the farewell so far, kept
    where nothing here replaces it): a game or attempt kept on the server and the command
    that takes it up, a verdict, a result to paste, today's ranked result after practice,
    and the challenge made here (:func:`with_made`)."""
    game = model.game
    result = model.daily_result
    race = model.challenge if model.screen == CHALLENGE else None
    if race is not None and not race.cid:  # a quick race's ghosts: no challenge to name
        # (it printed "patience-race challenge  --server ...", the id left out)
        again = _command(model.server, f"quick {game.rules}" if game is not None else "quick")
        if game is None or not game.over:
            against = " against the ghosts" if race.ghosts else ""  # (alone: no ghost said)
            said = (
                f"Your quick race{against} is kept on the server, and its clock runs on. "
                f"To take it up: {again}"
            )
        elif race.result is not None:
            unit = "pairs" if game.pairs else "cards"
            said = f"{quick_result(race.result, unit)} Another quick race: {again}"
    elif race is not None and (game is None or not game.over):
        said = (
            "Your challenge game is kept on the server, and its clock runs on. To take it "
            f"up: {_command(model.server, f'challenge {race.cid}')}"
        )
    elif race is not None and race.result is not None:
        verdict = verdict_line(race.result.get("verdict"), race.ghost_name)
        said = f"{verdict} The table: {_command(model.server, f'challenge {race.cid}')}"
    elif model.daily_kind == DAILY and game is not None and not game.over:
        said = (
            f"Your ranked attempt is kept on the server, and its clock runs on. To take it "
            f"up: {_command(model.server, f'daily {game.rules}')}"
        )
    elif model.daily_kind == PRACTICE and game is not None and not game.over:
        said = (
            f"Your practice game is kept on the server. To take it up: "
            f"{_command(model.server, f'daily {game.rules}')}"
        )
    elif result and model.result_shown:
        said = f"Your result, to paste into a chat:\n\n{kept(result['line'])}\n"
    elif model.placed and model.against_board is not None:
        said = placing(model.against_board.result or {})
    elif game is not None and not game.over:
        said = f"Your game is kept on the server. To take it up: {_command(model.server, 'play')}"
    elif game is not None and game.kind == "solo" and not said:  # (its replay, from its log)
        said = f"Your game's replay: {_command(model.server, f'replay {game.gid}')}"
    ranked = (model.daily or {}).get("ranked_result") if model.daily_kind == PRACTICE else ""
    if ranked:
        more = f"Today's ranked result, to paste into a chat:\n\n{kept(ranked)}\n"
        said = f"{said}\n\n{more}" if said else more
    return with_made(model, said)


def left_room(model: Model, after: str | None = None, *, unheard: str | None = None) -> str:
    """What is printed as the player leaves a room, once the screen that said it is gone:
    the race's result and their replay, or what became of a race left running. ``after``:
    the room's state once they had gone, as the server's ``left`` says it (``closed``:
    they were the last in it; None: not known). ``unheard``: why the server never
    acknowledged the leave (``not connected``), so the player is still in the room and
    their game goes on: saying it was resigned would be false.

    >>> from .model import Game
    >>> model = Model(server="ws://127.0.0.1:8765", me="ann", room_code="DGG3XT",
    ...     room={"code": "DGG3XT", "state": "racing"})
    >>> model.game = Game("e25f", "race", "gate", {}, [], "playing")
    >>> from .lines import between_words  # (as it is printed: its commands whole)
    >>> print(between_words(left_room(model), 80))
    You left room DGG3XT, and your game is resigned. The race goes on; to watch it:
    patience-race race watch DGG3XT
    >>> model.game.status = "won"
    >>> model.room = {"code": "DGG3XT", "state": "finished", "results": [{"player": "ann",
    ...     "place": 1}, {"player": "bob", "place": 2}]}
    >>> print(between_words(left_room(model), 80))
    Race over: you came 1st of 2.
    Your replay: patience-race replay e25f
    >>> model.room = {"code": "DGG3XT", "state": "racing"}
    >>> model.game.status = "playing"
    >>> print(between_words(left_room(model, "finished"), 80))
    You left room DGG3XT, and your game is resigned: that ended the race. Its
    results: patience-race race watch DGG3XT
    Your replay: patience-race replay e25f
    >>> model.room = {"code": "DGG3XT", "state": "lobby", "game": "wedge"}
    >>> print(between_words(left_room(model, "closed"), 80))
    You left room DGG3XT, the last in it, so it is closed. To open another:
    patience-race race new wedge

    A leave the server never heard:

    >>> model.room = {"code": "DGG3XT", "state": "racing"}
    >>> print(between_words(left_room(model, unheard="not connected"), 80))
    The server did not hear you leave (not connected): you are still in room DGG3XT,
    and your game goes on. To go back: patience-race race join DGG3XT
    """
    code, room, game = model.room_code, model.room or {}, model.game
    state = room.get("state")
    if not code:
        return ""
    mine = game is not None and game.kind == "race"
    replay = (
        f"\nYour replay: {_command(model.server, f'replay {game.gid}')}"
        if mine and game is not None
        else ""
    )
    if unheard is not None:
        back = _command(model.server, f"race join {code}")
        going = (
            ", and your game goes on"
            if mine and game is not None and not game.over and state == RACING
            else ""
        )
        still = (
            f"The server did not hear you leave ({unheard}): you are still in room "
            f"{code}{going}. To go back: {back}"
        )
        if state == FINISHED:
            over = result_note(room, model.me) + (replay if game is not None and game.over else "")
            return f"{over}\n{still}"
        return still
    # (a room takes racers in its lobby and once its race is over: one who left comes
    # back for the rematch, while the room is open, that is while others are in it)
    back = (  # (the command on a line of its own, whole, to copy)
        "\nWhile its results are shown, this takes you back for its rematch:\n"
        f"{_command(model.server, f'race join {code}')}"
    )
    others = after != "closed" and not room.get("quick") and _others_in(room, model.me)
    rest = back if others else ""
    if state == FINISHED:
        over = result_note(room, model.me) + (replay if game is not None and game.over else "")
        return f"{over}{rest}"
    resigned = ", and your game is resigned" if mine and game and not game.over else ""
    watch = _command(model.server, f"race watch {code}")
    if state == RACING and after == FINISHED:
        said = f"You left room {code}{resigned}: that ended the race. Its results: {watch}"
        return f"{said}{replay}{rest}"
    if state == RACING:
        return f"You left room {code}{resigned}. The race goes on; to watch it: {watch}{rest}"
    if after == "closed":
        again = _command(model.server, f"race new {clean(room.get('game', 'GAME'), 32)}")
        return f"You left room {code}, the last in it, so it is closed. To open another: {again}"
    if state == LOBBY:
        return f"You left room {code}. To go back: {_command(model.server, f'race join {code}')}"
    return f"You left room {code}.{rest}"


def leaving_question(model: Model) -> str | None:
    """What ``q`` (or Ctrl-C) asks before leaving the room as it is now: in its race,
    playing (leaving resigns), or in its countdown (the race goes on without them); None
    where leaving asks nothing.

    >>> model = Model(room_code="DGG3XT", screen=ROOM, room={"state": "countdown"})
    >>> leaving_question(model)
    'Leave the room? The race about to start goes on without you.'
    """
    game = model.game
    if model.screen != ROOM:
        return None
    if model.room_state == RACING and game is not None and game.kind == "race" and not game.over:
        return "Leave the race? Your game will be resigned."
    if model.room_state == COUNTDOWN:  # (a rematch's too)
        return "Leave the room? The race about to start goes on without you."
    return None


def question_kept(model: Model) -> None:
    """The question on leaving, asked again in the words of the room as it is now where
    these have changed: asked in the countdown, it went on saying "the race about to start
    goes on without you" once the race was on, where y resigned the player's game. (Where
    leaving would now ask nothing, as once the race is over, it is asked plainly.)"""
    if model.confirm != "leave":
        return
    now = leaving_question(model) or "Leave the room?"
    if now != model.question:
        model.confirm = None  # (asked anew: not said after the old question)
        model.ask("leave", now, ERROR)


def stopped_farewell(model: Model, said: str = "") -> str:
    """What is printed as a terminal signed out (another device of the player's took
    over, or signed it out) quits: what it showed goes on on the server, and how to take
    it up, as on leaving (it quit with nothing said). In a room: still in it."""
    if model.screen == WATCH:
        return said
    if model.screen == ROOM and model.room_code:
        return with_made(model, left_room(model, unheard="this terminal was signed out"))
    return farewell(model, said)


def _others_in(room: Mapping[str, Any], me: str | None) -> bool:
    """Whether anyone but ``me`` is still in the room (so a rematch may come there): not
    a racer who left the race (kept in its ``players``, marked ``left``, by the model).

    >>> _others_in({"players": [{"name": "ann"}, {"name": "bob", "left": True}]}, "ann")
    False
    """
    players = room.get("players") or []
    return any(
        isinstance(p, Mapping) and p.get("name") != me and not p.get("left") for p in players
    )


def with_made(model: Model, said: str) -> str:
    """The farewell ``said``, with the challenge made here told again as we leave, in one
    piece to copy."""
    made = model.made
    if made is not None:
        more = made_text(model.server, made) + "\n"
        return f"{said}\n\n{more}" if said else more
    return said
