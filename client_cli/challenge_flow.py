"""Taking a challenge, before the screen: ``patience-race challenge ID`` and
``challenge --replay ID``.

:func:`begin` shows the challenge at the plain prompt (``challenge_show``: whose game, its
result, the table so far), then, as the table says, takes up the player's challenge game
still in play (``welcome.resume.challenge``), or says why it cannot be raced (the
player's own, raced already, not open yet), or asks and takes it (``challenge_take``):
the screen then counts down to its start. ``--replay`` races a replay's challenge at once
(``challenge_take`` with ``replay``: the same challenge as its player's link).

``challenge ID`` and ``challenge --replay ID`` look signed in beside the player's own
connection (``hello``'s ``side``), and sign in in its place only to race
(:func:`only_shown`; docs/protocol.md, the session, rule 6).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.text import Text

from .challenge import about, challenge_id, made_text, not_yet_lines, table, unit_of
from .connection import ServerError
from .controller import Client, Left, now_ms
from .lines import between_words, to_ascii
from .model import INFO
from .sanitize import clean

if TYPE_CHECKING:
    from .session import Plan


def _say(console: Console, text: str, ascii: bool, style: str = "") -> None:
    # (wrapped between words, its commands whole: rich broke a command at its width)
    line = Text(between_words(text, console.width), style=style)
    console.print(to_ascii(line) if ascii else line, soft_wrap=True)


def show(client: Client, reply: Mapping[str, Any]) -> dict[str, Any]:
    """Print a ``challenge_show`` reply: whose game, its result, the table; the
    challenge as shown."""
    model, console = client.model, client.console
    shown = reply.get("challenge")
    shown = dict(shown) if isinstance(shown, Mapping) else {}
    name = clean(shown.get("game_name") or shown.get("game", ""), 40)
    _say(console, f"Challenge {clean(shown.get('id', ''), 32)} · {name}", model.ascii, "bold")
    _say(console, about(shown), model.ascii)
    hints = "hints allowed" if shown.get("hints", True) else "no hints (a race without them)"
    left = shown.get("expires_at")
    kept = ""
    if isinstance(left, int) and not isinstance(left, bool):
        days = max(left - model.server_now(now_ms()), 0) // 86_400_000
        kept = f" · kept {days} more day{'s' if days != 1 else ''}"
    ghost = clean(shown.get("player", ""), 20)
    _say(console, f"The same deal, against {ghost}'s ghost · {hints}{kept}", model.ascii)
    entries = reply.get("table")
    entries = entries if isinstance(entries, list) else []
    console.print(Text(""))
    console.print(table(entries, model.me, model.ascii, unit=unit_of(shown)))
    console.print(Text(""))
    return shown


def only_shown(reply: Mapping[str, Any], me: str | None) -> bool:
    """Whether ``challenge ID`` only shows the challenge of a ``challenge_show`` reply,
    racing nothing: the player's own, one they raced to its end (their row in its
    table), one not open to them yet. Those are looked at beside the player's own
    connection, a game of theirs in another terminal going on (the look at one's own
    challenge signed it out: "This terminal has stopped").

    >>> ghost = {"player": "ann", "ghost": True}
    >>> only_shown({"challenge": {"player": "Ann"}, "table": [ghost]}, "ann")
    True
    >>> raced = {"challenge": {"player": "ann"}, "taken": "e25f", "table": [ghost]}
    >>> only_shown({**raced, "table": [ghost, {"player": "bob"}]}, "bob"), only_shown(raced, "bob")
    (True, False)
    >>> only_shown({"challenge": {"player": "ann"}, "closed": {"reason": "daily"}}, "bob")
    True
    """
    shown = reply.get("challenge")
    shown = shown if isinstance(shown, Mapping) else {}
    me = (me or "").lower()
    if clean(shown.get("player", ""), 20).lower() == me:
        return True
    if reply.get("taken"):  # (still being played: no row of its own yet)
        table = reply.get("table")
        return any(
            isinstance(row, Mapping)
            and not row.get("ghost")
            and clean(row.get("player", ""), 20).lower() == me
            for row in (table if isinstance(table, list) else [])
        )
    return bool(reply.get("closed"))


#: a question at the plain prompt (:func:`client_cli.session.ask`)
Ask = Callable[[str], Awaitable[str]]


async def begin(plan: Plan, client: Client, welcome: Mapping[str, Any], ask: Ask) -> bool:
    """Do what ``challenge`` asked, before the screen: True once a challenge game is on
    the table (counting down, or taken up); False: it cannot be raced (the reason
    printed). :class:`Left` when there is nothing to race (one's own, raced already, or
    the player said no)."""
    model, console, conn = client.model, client.console, client.conn
    assert conn is not None
    resume = welcome.get("resume")
    resume = resume if isinstance(resume, Mapping) else {}
    if plan.replay and conn.side:
        # looked at beside first, as `challenge ID` is: its challenge, then its table
        # (one's own replay, or one raced already, is only shown: nothing signed out)
        made = await conn.request("challenge_create", replay=plan.replay.strip().lower())
        cid = clean((made.get("challenge") or {}).get("id", ""), 32)
    elif plan.replay:  # (a player just registered: signed in in place already)
        rid = plan.replay.strip().lower()
        try:
            taken = await conn.request("challenge_take", replay=rid)
        except ServerError as exc:
            playing = resume.get("challenge")
            if exc.code == "challenge_in_play" and isinstance(playing, Mapping):
                return await _back_to(client, playing, ask)
            # raced already, or one's own game: its challenge is shown (one's own, to send)
            if exc.code not in ("already_taken", "own_challenge"):
                raise
            made = await conn.request("challenge_create", replay=rid)  # its id, to show it
            cid = clean((made.get("challenge") or {}).get("id", ""), 32)
        else:
            shown = taken.get("challenge")
            _say(console, about(shown if isinstance(shown, Mapping) else {}), model.ascii)
            model.take_challenge(taken, now_ms())
            return True
    else:
        cid = challenge_id(plan.code or "")
    reply = await conn.request("challenge_show", challenge=cid)
    shown = show(client, reply)
    if conn.side and not only_shown(reply, model.me):
        # to race it, or to take one's game of it up: signed in in the place of the
        # player's own connection from here (the look was beside it)
        welcome = await conn.sign_in()
        resume = welcome.get("resume")
        resume = resume if isinstance(resume, Mapping) else {}
    playing = resume.get("challenge")
    if isinstance(playing, Mapping) and playing.get("challenge") == shown.get("id"):
        model.take_challenge({**playing, "challenge": shown}, now_ms())
        model.say("Your challenge game, as you left it: its clock ran on.", INFO)
        return True
    if isinstance(playing, Mapping) and playing.get("challenge"):  # (another: one at a time)
        return await _back_to(client, playing, ask)
    mine = clean(shown.get("player", ""), 20).lower() == (model.me or "").lower()
    if mine:
        told = Text(between_words(made_text(model.server, shown), console.width))
        console.print(to_ascii(told) if model.ascii else told, soft_wrap=True)
        raise Left
    if reply.get("taken"):
        _say(console, "You have raced it: your result is in the table above.", model.ascii)
        raise Left
    closed = reply.get("closed")
    if closed:
        why, *way_on = not_yet_lines(model.server, shown, closed)
        _say(console, why, model.ascii, "yellow")
        for line in way_on:  # (today's daily: play it first)
            _say(console, line, model.ascii)
        return False
    ghost = clean(shown.get("player", ""), 20)
    countdown = ""
    limits = welcome.get("limits")
    seconds = limits.get("countdown") if isinstance(limits, Mapping) else None
    if isinstance(seconds, int | float) and not isinstance(seconds, bool):
        countdown = f" after a {seconds:g} s countdown"
    _say(
        console,
        f"Your game starts{countdown}, the ghost with it; once taken it is yours to finish, "
        "and it goes on this table.",
        model.ascii,
    )
    if not plan.replay:  # (`--replay` and the viewer's `r` race it at once: asked there)
        answer = await ask(f"Press Enter to race {ghost}'s ghost (q to leave) ")
        if answer.lower() in ("q", "quit", "n", "no"):
            raise Left
    taken = await conn.request("challenge_take", challenge=cid)
    model.take_challenge(taken, now_ms())
    return True


async def _back_to(client: Client, playing: Mapping[str, Any], ask: Ask) -> bool:
    """The player is racing another challenge (``welcome.resume.challenge``): one is
    raced at a time, so say which, and offer to go back to it (True: taken up)."""
    model, console, conn = client.model, client.console, client.conn
    assert conn is not None
    reply = await conn.request("challenge_show", challenge=str(playing.get("challenge")))
    other = reply.get("challenge")
    other = other if isinstance(other, Mapping) else {}
    whose = clean(other.get("player", ""), 20)
    name = clean(other.get("game_name", other.get("game", "")), 40)
    _say(
        console,
        f"You are racing {whose}'s challenge on {name}, its clock running: one challenge "
        "at a time. Finish or resign it, then come back to this one.",
        model.ascii,
        "yellow",
    )
    answer = await ask(f"Press Enter to go back to {whose}'s challenge (q to leave) ")
    if answer.lower() in ("q", "quit", "n", "no"):
        raise Left
    model.take_challenge({**playing, "challenge": other}, now_ms())
    model.say("Your challenge game, as you left it: its clock ran on.", INFO)
    return True
