"""A finished game's review as a page of text (``review``, once a game is over): where it
was lost, the board there, the move played and a move that kept the win with the line
that wins from there; or, for a won game, its moves over par and its longest detour.

:func:`review_page` is pure: it takes the server's ``review`` reply
(``docs/protocol.md``, "review") and a width. Every text from the server goes through
:func:`clean`. :func:`cmd_review` is ``patience-race review ID``: any finished game one may
see, by its id (a ranked daily's after the day's reset, long after its screen is gone).

>>> page = review_page({"found": "lost_at", "status": "lost", "moves": 18, "at": 5,
...     "move": 6, "played": "1+7", "better": "1+5", "continuation": ["1+5", "2+8"],
...     "lost_by": 6, "deal": "won", "view": None, "seconds": 0.01}, 60)
>>> print(page)
Where the game was lost
<BLANKLINE>
Until move 6 a player who knew the face-down cards could
still have won: you played 1+7 there, and from then on no
win was left.
Playing 1+5 there would have kept the win. A line that wins
from there (checked by the rules engine):
  1+5 2+8
>>> print(review_page({"found": "over_par", "status": "won", "moves": 112, "par": 108,
...     "over": 4, "par_from": "book", "shortest": False, "detour": {"from": 30,
...     "moves": 2}}, 60))
How far over par
<BLANKLINE>
Won in 112 moves: 4 over par (108, the day's book line).
The longest detour: moves 30 to 31 came back to where they
began.
"""

from __future__ import annotations

import argparse
import asyncio
import textwrap
from collections.abc import Mapping
from typing import Any

from . import pager
from .challenge import command
from .connection import Connection, ServerError
from .ids import GAME_ID, game_id
from .lines import aside, kept, plural
from .render import render
from .sanitize import clean

#: the lines a board has on a game's screen at 80x24 (``client_cli/screen.py``: the
#: header, the game line, the legend, the message, the legal moves and the keys take the
#: rest). The review draws its board in as many, so its rows are anchored where the
#: game's are: drawn with no height, a row that fanned piles hang over took its line from
#: the layout alone, and The Gate's bars ran into its posts' cards
BOARD_LINES = 17

#: how a game that ended with a win still possible ended, in words ("{who}": the player)
ENDED = {"resigned": "{who} resigned", "timeout": "time ran out"}


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def step_note(review: Mapping[str, Any]) -> str:
    """Where the replay shows the position, when its step is not the move's number (the
    replay counts undos and hints: "move 6" was its step 11, and the replay's row 6 was
    another move); else "".

    >>> step_note({"at": 5, "step": 11})
    ' (step 11 of its replay, which counts undos and hints, shows the board before it)'
    >>> step_note({"at": 5, "step": 5})
    ''
    """
    at, step = _int(review.get("at")), _int(review.get("step"))
    if at is None or step is None or step == at:
        return ""
    return f" (step {step} of its replay, which counts undos and hints, shows the board before it)"


def _moves(value: Any) -> list[str]:
    if not isinstance(value, list):
        return []
    return [clean(str(move), 16) for move in value]


def _para(text: str, width: int) -> list[str]:
    """``text`` wrapped between words, never at a word's hyphen ("face-" / "down", as
    docs/client.md promises of every message line)."""
    return textwrap.wrap(text, width, break_on_hyphens=False) or [""]


def review_page(
    review: Mapping[str, Any], width: int, *, ascii: bool = False, who: str = "you"
) -> str:
    """The review as text at most ``width`` columns wide (the board as wide as it
    needs); ``who`` played the game: "you", else the player's name (another's game,
    reviewed by its id, said "you played w>f there")."""
    width = max(width, 30)
    found = clean(str(review.get("found", "")), 20)
    if found == "over_par":
        return "\n".join(["How far over par", "", *_over_par(review, width)])
    lines = ["Where the game was lost", ""]
    played = clean(str(review.get("played") or ""), 16)
    better = clean(str(review.get("better") or ""), 16)
    move = _int(review.get("move"))
    lost_by = _int(review.get("lost_by"))
    line = _moves(review.get("continuation"))
    if found == "lost_at":
        text = (
            f"Until move {move}{step_note(review)} a player who knew the face-down cards "
            "could still have won: "
            f"{who} played {played} there, and from then on no win was left."
        )
    elif found == "between":
        # (with no move proved lost after it, "Between them" named nothing)
        until = (
            f"; by move {lost_by} no win was left. Between them the review could not decide "
            "in its time."
            if lost_by is not None
            else "; the positions after it could not be decided in time."
        )
        text = (
            f"At move {move}{step_note(review)} a player who knew the face-down cards could "
            "still have won "
            f"({who} played {played} there){until}"
        )
    elif found == "still_winnable":
        text = _still_winnable(review)
    elif found == "deal_lost":
        text = (
            "This deal could not be won, even by a player who knew the face-down cards: nothing "
            f"{who} did lost it."
        )
    else:
        text = "The review could not decide, in its time, where a win was still possible."
    lines += _para(text, width)
    if better:
        lines += _para(
            # (as the browser says it: "deal would have kept the win" began lower case)
            f"Playing {better} there would have kept the win. A line that wins from there"
            " (checked by "
            "the rules engine):",
            width,
        )
        lines += textwrap.wrap(
            " ".join(line),
            width,
            initial_indent="  ",
            subsequent_indent="  ",
            break_on_hyphens=False,
        )
    view = review.get("view")
    if isinstance(view, Mapping):
        lines += ["", _board_title(review, found, move, who), ""]
        lines += render(view, width, BOARD_LINES, ascii=ascii).split("\n")
    return "\n".join(lines)


def _still_winnable(review: Mapping[str, Any]) -> str:
    """A game that ended where a win was still possible; one ended before its first move
    says so (it read "... could still win (after 0 moves)"), in the browser's words.

    >>> print(_still_winnable({"status": "resigned", "moves": 0}))  # doctest: +ELLIPSIS
    The game was resigned before its first move: a player who knew ... could win this deal.
    >>> print(_still_winnable({"status": "timeout", "moves": 0}))  # doctest: +ELLIPSIS
    Time ran out before the game's first move: a player who knew ... could win this deal.
    >>> print(_still_winnable({"status": "resigned", "moves": 1}))  # doctest: +ELLIPSIS
    The game ended in a position a player who knew ... could still win (after 1 move).
    """
    moves = _int(review.get("moves")) or 0
    if moves == 0:
        # (a race's or a daily's clock can end a game never moved: not resigned)
        ended = (
            "Time ran out before the game's first move"
            if review.get("status") == "timeout"
            else "The game was resigned before its first move"
        )
        return f"{ended}: a player who knew the face-down cards could win this deal."
    return (
        "The game ended in a position a player who knew the face-down cards could still win "
        f"(after {plural(moves, 'move')})."
    )


def _board_title(review: Mapping[str, Any], found: str, move: int | None, who: str = "you") -> str:
    """What the board under the review is: the position before the move that lost the
    game, or, for a game that ended still winnable, the one it ended in (after its last
    move: "before move 4" of a game of 3 moves named a move never played).

    >>> _board_title({"status": "resigned", "at": 3}, "still_winnable", 4)
    'The board where you resigned, after move 3:'
    >>> _board_title({"status": "resigned", "at": 3}, "still_winnable", 4, "bob")
    'The board where bob resigned, after move 3:'
    >>> _board_title({"status": "lost", "at": 5}, "lost_at", 6)
    'The board before move 6:'
    """
    if found != "still_winnable":
        return f"The board before move {move}:"
    at = _int(review.get("at"))
    ended = ENDED.get(clean(str(review.get("status") or ""), 16), "the game ended")
    ended = ended.format(who=who)
    after = f"after move {at}" if at else "at the deal"
    return f"The board where {ended}, {after}:"


def _over_par(review: Mapping[str, Any], width: int) -> list[str]:
    moves, par, over = _int(review.get("moves")), _int(review.get("par")), _int(review.get("over"))
    if review.get("par_from") == "book":
        source = "the day's book line"
    elif review.get("shortest"):
        source = "proved the shortest"
    else:
        source = "the shortest line the review found in its time, not proved"
    if over is None or par is None:
        return ["No par for this game."]
    if over > 0:
        how = f"{over} over par"
    elif over < 0:
        how = f"{-over} under par"
    else:
        how = "on par"
    lines = _para(f"Won in {moves} moves: {how} ({par}, {source}).", width)
    detour = review.get("detour")
    if isinstance(detour, Mapping):
        start, length = _int(detour.get("from")), _int(detour.get("moves"))
        if start is not None and length is not None:
            lines += _para(
                f"The longest detour: moves {start} to {start + length - 1} came back to "
                "where they began.",
                width,
            )
    return lines


def cmd_review(args: argparse.Namespace) -> int:
    """``patience-race review ID``: the review of a finished game by its id (its
    replay's), signed in beside the player's own connection; through the pager when
    taller than the terminal."""
    from .printing import _console
    from .queries import _fail, _me, _signed_in  # (queries imports the views)

    # its id, or its replay's link (as ``replay`` takes it: the viewer shows it at its foot)
    gid = game_id(args.id) or args.id.strip().lower()
    if not GAME_ID.fullmatch(gid):  # (not "Reviewing game zzz..." first; a wrong command line)
        aside(
            f"patience-race: no game {clean(gid, 40)!r}: a game's id is 16 letters and "
            "digits, as results and replays give it, or its replay's link "
            "(http://HOST/replay/ID)"
        )
        return 2

    async def ask() -> tuple[dict[str, Any], str]:
        conn, welcome = await _signed_in(args.server)
        try:
            # the search takes up to its budget (10 s) on the server
            reply = await conn.request("review", timeout=60, game=gid)
            return reply, await _player(conn, gid, _me(args.server, welcome))
        finally:
            await conn.close()

    aside(f"Reviewing game {gid}: the server searches it (up to ten seconds)...")
    try:
        reply, who = asyncio.run(ask())
    except ServerError as exc:
        if exc.code == "review_later":
            # the command on a line of its own, with --server where it is needed (it
            # lacked it), for it to work as pasted; wrapped between words (aside)
            again = kept(command(args.server, f"review {gid}"))
            aside(f"patience-race: {exc.message}. After the reset:\n  {again}")
            return 1
        return _fail(args, exc)
    except Exception as exc:
        return _fail(args, exc)
    width = min(_console(args).width, 100) - 2
    pager.show(review_page(reply, width, ascii=args.ascii, who=who) + "\n")
    return 0


async def _player(conn: Connection, gid: str, me: str | None) -> str:
    """Who played the game ``gid``, as its review says it: "you" for the player's own
    game (under a former name too), else the name it was played under (the review does
    not say whose the game is: its replay does)."""
    try:
        replay = (await conn.request("replay", replay=gid)).get("replay") or {}
    except ServerError:
        return "the player"
    then = clean(replay.get("player") or "", 20)
    now = clean(replay.get("player_now") or then, 20)
    if not then:
        return "the player"
    return "you" if me is not None and me.lower() in (then.lower(), now.lower()) else then
