"""Start-up and sign-in: the whole interactive session around the game screen.

:func:`run` connects, signs in with the saved token (registering on the first run, at the
plain prompt, and keeping the new token), does what the command asked (:class:`Plan`: a
solo game, a daily, a room to create, join or watch, taking up what the server kept), then
runs the screen (:mod:`.tui`) until the player quits, and prints the farewell.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from prompt_toolkit import PromptSession
from prompt_toolkit.application import get_app
from prompt_toolkit.completion import WordCompleter
from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyPressEvent
from prompt_toolkit.shortcuts import CompleteStyle
from rich.console import Console
from rich.text import Text

from . import quick_flow
from .challenge import command, new_results
from .challenge_flow import begin
from .config import (
    Account,
    TokenFileError,
    TokenStore,
    Unwritable,
    device_label,
    forgotten_token,
    not_kept,
)
from .connection import Connection, LinkError, ServerError
from .controller import Client, Left, now_ms
from .difficulty import difficulty_of, difficulty_words
from .endings import daily_greeting, ranked_explained
from .lines import as_int, between_words, kept, print_whole
from .model import DAILY, INFO, PRACTICE, WATCH, Model
from .sanitize import clean
from .stray_keys import mouse_guard
from .tui import Tui


@dataclass(frozen=True)
class Plan:
    """What the command asked for: ``play`` (``game``, ``seed``), ``daily`` (``game``),
    ``race-new`` (``game``, ``seed``, ``max_players``, ``time_limit``), ``race-join`` or
    ``race-watch`` (``code``), ``quick`` (``game``), ``challenge`` (``code``, the
    challenge's id or link; or ``replay``, a replay id to race). ``ghosts``: a daily's
    practice races the board."""

    kind: str
    game: str | None = None
    seed: int | None = None
    code: str | None = None
    max_players: int | None = None
    time_limit: int | None = None
    replay: str | None = None
    ghosts: bool = True

    @property
    def needs_player(self) -> bool:
        return self.kind != "race-watch"

    @property
    def looks_first(self) -> bool:
        """Whether the command signs in beside the player's own connection until it is
        to play (docs/protocol.md, the session, rule 6): ``challenge ID`` and ``challenge
        --replay ID`` show the challenge first, and signed in in its place they signed a
        game in another terminal out for one they only show (the player's own, one
        raced already)."""
        return self.kind == "challenge"


async def ask(question: str, words: list[str] | None = None, at_once: str = "") -> str:
    """A question at the plain prompt, before the full screen (Ctrl-D or Ctrl-C: raises
    :class:`Left`; Ctrl-Z suspends). Tab
    completes from ``words`` as a shell does: a single match goes into the line at once,
    several are listed under it. Each key of ``at_once`` typed on an empty line is the
    answer at once, no Enter (as single keys act on the game's screen)."""
    # Ctrl-Z suspends, as at the game's screen (it typed ^Z into the answer; fg brings the
    # question back as it was); a pasted escape sequence read as a mouse report: dropped
    keys = mouse_guard()
    empty = Condition(lambda: not get_app().current_buffer.text)
    for key in at_once:

        @keys.add(key, filter=empty, eager=True)
        def _answer(event: KeyPressEvent) -> None:
            event.app.exit(result=event.data)

    session: PromptSession[str] = PromptSession(key_bindings=keys, enable_suspend=True)
    completer = WordCompleter(words) if words else None
    try:
        answer = await session.prompt_async(
            question, completer=completer, complete_style=CompleteStyle.READLINE_LIKE
        )
    except (EOFError, KeyboardInterrupt):
        raise Left from None
    return answer.strip()


async def register(conn: Connection, console: Console, store: TokenStore) -> str | None:
    """The first run on a server: choose a name, register, keep the token (no name:
    raises :class:`Left`). None: nothing to play as (why, printed): a token file that
    cannot be written is said before a name is asked for, and nothing is registered."""
    try:
        store.check_writable()
    except Unwritable as exc:
        said = (
            f"The token file {exc.path} cannot be written ({exc.reason}): nothing is "
            "registered, as the token the server gives could not be kept. Make "
            f"{exc.path.parent} writable (or free some space), or set XDG_CONFIG_HOME to a "
            "directory that is, and run this again."
        )
        print_whole(console, said, style="red")
        return None
    console.print(
        Text(
            f"Welcome to Patience Race on {conn.url}. Choose a name to race under: "
            "2 to 20 letters (A to Z), digits, _ or -, the first a letter or a digit. "
            "(Enter alone or Ctrl-C leaves.)"
        )
    )
    while True:
        try:
            name = await ask("name: ")
        except Left:
            name = ""
        if not name:
            console.print(Text("No name chosen: nothing is registered."))
            raise Left
        try:
            reply = await conn.request("register", name=name, device=device_label())
        except ServerError as exc:
            console.print(Text(exc.message, style="red"))
            if exc.code == "name_taken":  # (their own, perhaps: on a new device)
                link = kept(command(conn.url, "link CODE"))
                said = (
                    "Else another name. If it is yours, enter a code from a device where "
                    f"you play (its link command shows one): {link}"
                )
                print_whole(console, said)
            continue
        player = reply.get("player") or {}
        token = reply.get("token")
        if not isinstance(token, str):
            console.print(Text("the server sent no token", style="red"))
            return None
        registered = clean(player.get("name", name), 20)
        try:
            store.put(conn.url, Account(registered, token))
        except TokenFileError as exc:  # (it could be written a moment ago: filled since)
            print_whole(console, not_kept(conn.url, registered, token, exc), style="red")
            return None
        conn.token = token
        console.print(Text(f"Registered as {registered}; the token is kept in {store.path}."))
        return registered


async def connect(
    server: str,
    store: TokenStore,
    console: Console,
    client: Client,
    *,
    need_player: bool,
    side: bool = False,
) -> dict[str, Any] | None:
    """Connect and sign in (registering if needed): the welcome, or None. ``side``: with
    a saved token, beside the player's own connection (:meth:`Connection.sign_in` makes
    it theirs when it is to play)."""
    # a watcher needs no name, and must not sign the player's racing client out
    account = store.get(server) if need_player else None
    conn = Connection(
        server,
        token=account.token if account else None,
        on_event=client.on_event,
        on_link=client.on_link,
        on_welcome=client.on_welcome,
        side=side,
    )
    client.conn = conn
    try:
        welcome = await conn.open()
    except ServerError as exc:
        if exc.code != "bad_token":
            console.print(Text(f"the server refused us: {exc.message}", style="red"))
            return None
        console.print(Text(forgotten_token(server, account, exc.message), style="yellow"))
        store.forget(server)
        conn.token = None
        welcome = await conn.open()
    except (OSError, TimeoutError, Exception) as exc:  # refused, unreachable, not websocket
        console.print(
            Text(
                f"Cannot reach the race server at {server} ({clean(exc, 120)}). "
                "Is it running? (make run starts a local one; --server URL picks another)",
                style="red",
            )
        )
        return None
    client.model.set_games(welcome.get("games"))
    client.model.offset_ms = conn.offset_ms
    player = welcome.get("player")
    if isinstance(player, Mapping):
        client.model.me = clean(player.get("name", ""), 20)
        # (changed on another device, maybe; a file that cannot be written: said, no more)
        unkept = store.keep_name(server, client.model.me)
        if unkept is not None:
            print_whole(console, unkept, style="yellow")
    elif need_player:
        name = await register(conn, console, store)
        if name is None:
            return None
        conn.side = False  # (registered on it: the player's own connection)
        client.model.me = name
        welcome = {**welcome, "resume": {}}
    return welcome


def pick_game(answer: str, games: Mapping[str, str]) -> str | None:
    """The game an answer names: its id, its number in the list, or its name, in any case.

    >>> games = {"gate": "The Gate", "wedge": "The Wedge"}
    >>> pick_game("Gate", games), pick_game("2", games), pick_game("the wedge", games)
    ('gate', 'wedge', 'wedge')
    >>> pick_game("klondike", games) is None
    True
    """
    wanted = " ".join(answer.split()).lower()
    ids = list(games)
    if wanted.isdigit() and 1 <= int(wanted) <= len(ids):
        return ids[int(wanted) - 1]
    for rules, name in games.items():
        if wanted in (rules, name.lower()):
            return rules
    return None


#: a daily's ranked attempt today, as the game list marks it (``daily_status``)
DAILY_MARKS = {"ended": "done today", "playing": "your ranked attempt is under way"}


async def _daily_marks(client: Client) -> dict[str, str]:
    """Each game's daily as it stands for the player today (asked of the server for all
    the games at once; nothing dealt, no clock started): the marks the list shows."""
    conn = client.conn
    assert conn is not None
    games = list(client.model.games)
    asked = [conn.request("daily", game=rules, start=False) for rules in games]
    try:
        found = await asyncio.gather(*asked)
    except (ServerError, LinkError):
        return {}  # (the list without its marks)
    said = (DAILY_MARKS.get(str(status.get("ranked_attempt")), "") for status in found)
    return {rules: mark for rules, mark in zip(games, said, strict=True) if mark}


async def _keep_solo(client: Client, solo: object, rules: str, seed: int | None) -> bool:
    """``play GAME`` with a solo game in play (moves made): True when that game is taken
    up instead of a new deal (``new_game`` gives it up): one of the same game, no seed
    asked for, as ``play`` alone; another, unless the player says to deal anyway."""
    if not (
        isinstance(solo, Mapping)
        and solo.get("kind") == "solo"
        and solo.get("status") == "playing"
        and as_int((solo.get("view") or {}).get("moves")) > 0
    ):
        return False
    model = client.model
    if solo.get("rules") != rules or seed is not None:
        old = model.games.get(str(solo.get("rules")), str(solo.get("rules")))
        moves = as_int(solo["view"].get("moves"))
        print_whole(
            client.console,
            f"Your game of {old} in play ({moves} move{'' if moves == 1 else 's'}) is given "
            "up by a new deal.",
        )
        asked = await ask(f"Deal a new game of {model.games.get(rules, rules)}? [y/N] ")
        if asked.lower() in ("y", "yes"):
            return False
    model.set_solo(solo, now_ms())
    model.say("Your game, as you left it.", INFO)
    return True


#: what each command that leaves the player's room does instead, in words
LEAVING = {"race-new": "a new room", "race-join": "joining another room", "quick": "a quick race"}


def racing_in(resume: Mapping[str, Any]) -> str | None:
    """The room whose race the player's game is in play in (from another device, say),
    which a new room, another room or a quick race would leave, resigning that game."""
    room = resume.get("room")
    if not isinstance(room, Mapping) or room.get("state") not in ("racing", "countdown"):
        return None
    race = resume.get("race")
    if room.get("state") == "racing" and not (
        isinstance(race, Mapping) and race.get("status") == "playing"
    ):
        return None  # (their game in it is over: leaving resigns nothing)
    return clean(room.get("code", ""), 16) or None


async def _may_leave_race(client: Client, code: str, instead: str) -> bool:
    """The player races in room ``code`` (on another device, it may be): whether they say
    to leave it, resigning their game there, for ``instead``; told how to go back if not."""
    console = client.console
    said = (
        f"You are racing in room {code}: {instead} leaves that room, and resigns your game "
        "in its race."
    )
    console.print(Text(between_words(said, console.width)), soft_wrap=True)
    asked = await ask("Leave the race? [y/N] ")
    if asked.lower() in ("y", "yes"):
        return True
    join = kept(command(client.model.server, f"race join {code}"))
    back = f"Your race goes on. To go back to it: {join}"
    console.print(Text(between_words(back, console.width)), soft_wrap=True)
    return False


async def _ask_game(client: Client, daily: bool = False) -> str:
    """Ask which game, at the plain prompt (Tab completes the ids; q or an empty answer
    raises :class:`Left`); for a ``daily``, each game's marked done today or under way."""
    model, console = client.model, client.console
    marks = await _daily_marks(client) if daily else {}
    console.print(Text("Games:"))
    for n, (known, name) in enumerate(model.games.items(), start=1):
        mark = f"  ({marks[known]})" if known in marks else ""
        console.print(Text(f"  {n:>2}  {known:<18} {name}{mark}"))
    while True:
        answer = await ask("which game? (its id or number; q to leave) ", list(model.games))
        if not answer or answer.lower() in ("q", "quit"):
            raise Left
        rules = pick_game(answer, model.games)
        if rules is not None:
            return rules
        console.print(Text(f"no game {answer!r}: one of the ids or numbers above", style="red"))


def no_room_help(server: str) -> str:
    """What to do about a room code the server does not know.

    >>> print(between_words(no_room_help("ws://127.0.0.1:8765"), 88))
    Check the code with whoever sent it, and that they race on this server
    (ws://127.0.0.1:8765): a room closes once everyone has left it. To open one of your own:
    patience-race race new GAME
    """
    return (
        f"Check the code with whoever sent it, and that they race on this server ({server}): "
        "a room closes once everyone has left it. To open one of your own: "
        f"{kept(command(server, 'race new GAME'))}"
    )


def between_races(server: str, code: str) -> str:
    """What to do about a room that takes nobody while its race is on: a room takes
    racers in its lobby and, for the rematch, once its race is over.

    >>> print(between_words(between_races("ws://127.0.0.1:8765", "DGG3XT"), 88))
    A room takes no one while its race is on. Once it is over, the same command takes you in
    for its rematch: patience-race race join DGG3XT
    """
    again = kept(command(server, f"race join {code}"))
    return (
        "A room takes no one while its race is on. Once it is over, the same command takes "
        f"you in for its rematch: {again}"
    )


async def _press_enter(client: Client, rules: str, status: Mapping[str, Any]) -> None:
    """What a ranked attempt is and how hard the deal is (``status``: its
    ``daily_status``), then "Press Enter to start"; q (or Ctrl-C) raises :class:`Left`,
    saying nothing was started."""
    model, console = client.model, client.console
    console.print(Text(ranked_explained(model.game_name(rules))))
    graded = difficulty_of(status.get("difficulty"))
    if graded is not None:  # today's deal's grade, before its clock starts
        unit = "pairs" if rules in model.pair_games else "cards"
        console.print(Text(difficulty_words(graded, unit)))
    try:
        answer = await ask("Press Enter to start your ranked attempt (q to leave) ", at_once="q")
    except Left:
        answer = "q"
    if answer.lower() in ("q", "quit"):
        # (Ctrl-C left with no word: said, as q is, that nothing was dealt)
        again = kept(command(model.server, f"daily {rules}"))
        said = (
            f"Nothing was started: your ranked attempt at "
            f"{model.game_name(rules)} is still yours today. To start it: {again}"
        )
        console.print(Text(between_words(said, console.width)), soft_wrap=True)
        raise Left


async def start(plan: Plan, client: Client, welcome: dict[str, Any]) -> bool:
    """Do what the command asked, before the screen opens. False: it could not be done
    (the reason printed)."""
    model, console = client.model, client.console
    assert client.conn is not None
    resume = welcome.get("resume") or {}
    room_resume = resume.get("room") if isinstance(resume.get("room"), Mapping) else None
    try:
        solo = resume.get("solo")
        if (
            plan.kind == "play"
            and plan.game is None
            and isinstance(solo, Mapping)
            and solo.get("status") == "playing"
            and solo.get("kind") in (DAILY, PRACTICE)
        ):  # the day's game taken up as daily does it: its date, grade and streak shown
            return await start(Plan("daily", ghosts=plan.ghosts), client, welcome)
        if plan.kind == "play":
            if plan.game is None:
                if isinstance(solo, Mapping) and solo.get("status") == "playing":
                    model.set_solo(solo, now_ms())
                    model.say("Your game, as you left it.", INFO)
                else:
                    picked = await _ask_game(client)
                    reply = await client.conn.request("new_game", game=picked)
                    model.set_solo(reply, now_ms())
            elif not await _keep_solo(client, solo, plan.game, plan.seed):
                reply = await client.conn.request("new_game", game=plan.game, seed=plan.seed)
                model.set_solo(reply, now_ms())
            if room_resume is not None and room_resume.get("state") in ("racing", "countdown"):
                code = clean(room_resume.get("code", ""), 16)
                model.say(f"You are in a race in room {code}. To go back: race join {code}", INFO)
            racing = resume.get("challenge")
            if isinstance(racing, Mapping):
                cid = clean(racing.get("challenge", ""), 32)
                model.say(f"You are racing a challenge. To go back to it: challenge {cid}", INFO)
        elif plan.kind == "daily":
            rules = plan.game
            solo = resume.get("solo")
            taken_up = (
                isinstance(solo, Mapping)
                and solo.get("status") == "playing"
                and solo.get("kind") in (DAILY, PRACTICE)
            )
            if rules is None and taken_up:
                assert isinstance(solo, Mapping)
                rules = clean(solo.get("rules", ""), 32)  # take the daily up
            if rules is None:
                rules = await _ask_game(client, daily=True)
            rules = rules.lower()
            status = await client.conn.request("daily", game=rules, start=False)
            held = (status.get("review") or {}).get("note")
            if held:  # the ranked attempt's result, held by the pace check (or decided)
                said = f"Your ranked attempt today: {clean(held, 400)}"
                console.print(Text(said, style="yellow"))
            while status.get("ranked_attempt") == "pending":
                await _press_enter(client, rules, status)
                # (left open across the reset, Enter dealt the new day's deal after the
                # old one's words: the day asked again, and a new one described anew)
                now = await client.conn.request("daily", game=rules, start=False)
                if now.get("day") == status.get("day"):
                    break
                status = now
                said = f"The day has changed: it is {clean(now.get('day', ''), 10)}, a new deal."
                console.print(Text(said, style="yellow"))
            reply = await client.conn.request("daily", game=rules, ghosts=plan.ghosts or None)
            model.set_daily(reply, now_ms())
            model.say(*daily_greeting(model))
        elif plan.kind in ("race-new", "race-join", "quick") and (
            (racing := racing_in(resume)) is not None
            and racing != (plan.code or "").strip().upper()
            and not await _may_leave_race(client, racing, LEAVING[plan.kind])
        ):
            return False
        elif plan.kind == "race-new":
            reply = await client.conn.request(
                "room_create",
                game=plan.game,
                seed=plan.seed,
                max_players=plan.max_players,
                time_limit=plan.time_limit,
            )
            model.enter_room(reply)
            model.say(f"Room {clean(reply.get('code', ''), 16)} is open: tell your friends.")
        elif plan.kind == "race-join":
            code = (plan.code or "").strip().upper()
            if room_resume is not None and room_resume.get("code") == code:
                model.enter_room(room_resume)
                race = resume.get("race")
                if isinstance(race, Mapping):
                    model.apply_race_start(race)
                model.say(f"Back in room {code}.", INFO)
            else:
                model.enter_room(await client.conn.request("room_join", code=code))
        elif plan.kind == "race-watch":
            code = (plan.code or "").strip().upper()
            model.enter_room(await client.conn.request("room_watch", code=code), WATCH)
        elif plan.kind == "challenge":
            return await begin(plan, client, welcome, ask)
        elif plan.kind == "quick":
            quick = resume.get("quick")  # (a ghost race in play, taken up again)
            return await quick_flow.begin(plan.game, client, _ask_game, quick)
    except ServerError as exc:
        console.print(Text(exc.message, style="red"))
        if exc.code == "race_started" and plan.code:
            code = plan.code.strip().upper()
            watch = kept(command(model.server, f"race watch {code}"))
            for said in (f"To watch it: {watch}", between_races(model.server, code)):
                console.print(Text(between_words(said, console.width)), soft_wrap=True)
        if exc.code == "no_such_room":
            console.print(
                Text(between_words(no_room_help(model.server), console.width)), soft_wrap=True
            )
        return False
    except LinkError as exc:
        console.print(Text(f"the connection dropped: {exc}", style="red"))
        return False
    return True


async def run(plan: Plan, server: str, store: TokenStore, *, ascii: bool = False) -> int:
    """The whole interactive session; the exit code."""
    console = Console(highlight=False, emoji=False)
    model = Model(server=server, ascii=ascii)
    client = Client(model, console)
    client.ghosts = plan.ghosts
    try:
        welcome = await connect(
            server, store, console, client, need_player=plan.needs_player, side=plan.looks_first
        )
    except Left:  # no name chosen
        await client.close()
        return 0
    except TokenFileError as exc:  # (one it cannot read: never written over)
        print_whole(console, f"patience-race: {exc.words()}", style="red")
        await client.close()
        return 1
    if welcome is None:
        await client.close()
        return 1
    news = welcome.get("challenges_new")
    if isinstance(news, int) and not isinstance(news, bool) and news > 0:
        print_whole(console, new_results(news, model.server), style="bold")
    try:
        started = await start(plan, client, welcome)
    except Left:
        await client.close()
        return 0
    if not started:
        await client.close()
        return 1
    if isinstance(news, int) and not isinstance(news, bool) and news > 0:
        # (no full stop after its command: copied whole, it went with the address)
        model.say(f"{model.message} {new_results(news, model.server)}".strip(), model.tone)
    tui = Tui(client)
    client.tui = tui
    try:
        code = await tui.app.run_async()
    finally:
        await client.close()
    if client.farewell:  # (between words; a word wider than the screen stays whole, to copy)
        console.print(Text(between_words(client.farewell, console.width)), soft_wrap=True)
    return code or 0
