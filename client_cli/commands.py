"""What a typed line means: a move, a short form of one, or one of the client's keys.

Pure: :func:`interpret` takes the line and what is on the table (the context, the legal
moves the server sent, the pile labels) and returns an :class:`Action`. It knows the
notation's shape (a move starts at the pile before ``>`` or ``:``; a pair ``4+8`` involves
both), never the rules: whether a move is legal is the server's to say. (A pile paired
with itself, ``1+1``, is a pair in no game: that is said here, plainly.)

Keys, in every context: ``h`` help, ``rules`` the game's rules page, ``q`` quit. While
playing: a move in notation, a pile label alone when exactly one legal move starts there, a
move's number on the legal line (``3``, or ``#3``: games whose piles are numbered take only
``#3``), ``home`` (every card that can go home, and again), ``u`` undo, ``hint`` a suggested
move (the server's, counted in the game's result), ``resign`` (asked first). Solo, once the
game is over: ``n`` a new deal (``new GAME`` another game). In a room's lobby: ``r`` ready
(again: not ready), ``s`` start (the host). After a race: ``m`` rematch (the host). Once a
game of ours is over (solo, daily, a race's results, a challenge's): ``c`` makes it a
challenge for a friend, ``review`` shows where it was lost (or how far over par it was won).
The full-screen UI (:mod:`.tui`) also binds single keys: see :data:`KEYS`.

>>> legal = ["t1>b2", "l>t4", "r>t4", "r>f", "deal"]
>>> labels = {"l", "r", "t1", "b2", "t4", "w", "s", "fc"}
>>> interpret("T1 > B2", "play", legal, labels)
Action(kind='move', arg='t1>b2', note='')
>>> interpret("l", "play", legal, labels)
Action(kind='move', arg='l>t4', note='')
>>> interpret("r", "play", legal, labels)
Action(kind='say', arg=None, note='r: which move? r>t4, r>f')
>>> interpret("w", "play", legal, labels)
Action(kind='say', arg=None, note='no legal move starts at w')
>>> interpret("b2>t1", "play", legal, labels)  # not legal: the server says why
Action(kind='move', arg='b2>t1', note='')
>>> interpret("u", "play", legal, labels), interpret("q", "play", legal, labels)
(Action(kind='undo', arg=None, note=''), Action(kind='quit', arg=None, note=''))
>>> interpret("Home", "play", legal, labels)
Action(kind='home', arg=None, note='')
>>> interpret("hint", "play", legal, labels)
Action(kind='hint', arg=None, note='')
>>> interpret("3", "play", legal, labels), interpret("#5", "play", legal, labels)
(Action(kind='move', arg='r>t4', note=''), Action(kind='move', arg='deal', note=''))
>>> interpret("9", "play", legal, labels)
Action(kind='say', arg=None, note='no move numbered 9: the legal line has 1 to 5')
>>> interpret("4 + 4", "play", ["4+8", "reserve"], {"4", "8", "x"}).note
'4+4 is no move: a pile cannot pair with itself (a pair is two piles: 4+8)'
>>> interpret("x" * 520, "play", legal, labels).note
'no move or command is that long (520 characters): it was not sent'
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from .notation import move_piles


@dataclass(frozen=True)
class Action:
    """``kind`` is one of: move (``arg`` the move), home, undo, hint, resign, help, rules,
    quit, new (``arg`` a rules id or None), ready, start, rematch, challenge, review, yes,
    no, say (show ``note``), none."""

    kind: str
    arg: str | None = None
    note: str = ""


NONE = Action("none")

_WORDS: dict[str, str] = {
    "h": "help",
    "help": "help",
    "?": "help",
    "q": "quit",
    "quit": "quit",
    "exit": "quit",
    "rules": "rules",
}

#: once a game of ours is over: make it a challenge for a friend, or review it
_CHALLENGE = {"c": "challenge", "challenge": "challenge", "review": "review"}

_IN_CONTEXT: dict[str, dict[str, str]] = {
    "play": {"u": "undo", "undo": "undo", "hint": "hint", "resign": "resign", "home": "home"},
    "over": {"n": "new", "new": "new", "u": "undo", "undo": "undo", **_CHALLENGE},
    "waiting": {},
    "spectating": {},
    "idle": {"n": "new", "new": "new"},
    "lobby": {"r": "ready", "ready": "ready", "s": "start", "start": "start"},
    "countdown": {},
    "finished": {"m": "rematch", "rematch": "rematch", **_CHALLENGE},
    "closed": {},
    "watch": {},
    "challenge-countdown": {},
    "challenge-wait": {},
    "challenge-over": _CHALLENGE,
}

#: what each context offers, for the keys line at the foot of the screen (``+`` and ``?``
#: act at once on an empty line; F1 to F4 anywhere: help, home, hint, rules); where piles
#: are numbered, "play" begins :data:`NUMBERED` instead
KEYS: dict[str, str] = {
    "play": "move or its # · Tab · + home · ? hint · u undo · F4 rules · h help · q quit",
    "over": "n new deal · new GAME · c challenge a friend · review · h help · q quit",
    "daily-over": "n the same deal again (practice) · new GAME · c challenge a friend · q quit",
    # (its day over: the same deal from its seed, public now; the new day's is new GAME's)
    "daily-over-past": (
        "n that day's deal again (practice) · new GAME today's daily · c challenge a friend"
        " · q quit"
    ),
    "waiting": "your game is over: waiting for the others · q leave",
    "spectating": "the race is on without you · q leave",
    "idle": "n new deal · new GAME · q quit",
    "lobby": "r ready · s start (host) · F4 rules · q leave",
    "lobby-guest": "r ready (the host starts) · F4 rules · q leave",
    "countdown": "get ready · q leave",
    "finished": "m rematch · c challenge a friend · review · q leave",
    "finished-guest": "c challenge a friend · review · the host may call a rematch · q leave",
    "finished-quick": "c challenge a friend · review · q leave (then patience-race quick: another)",
    "closed": "the room is closed · q quit",
    "watch": "watching · q stop",
    "confirm": "y yes · anything else: no",
    "stuck": "y resign · u undo · anything else: play on",
    "daily": "Enter or y: start the ranked attempt · anything else: not now",
    "challenge-countdown": "get ready: the ghost starts with you · q quit (the clock runs on)",
    "quick-countdown": "get ready: the ghosts start with you · q quit (the clock runs on)",
    "alone-countdown": "get ready · q quit (the clock runs on)",
    "challenge-wait": "your game is over: the result against the ghost is on its way · q quit",
    "quick-wait": "your game is over: the place among the ghosts is on its way · q quit",
    "alone-wait": "your game is over · q quit",
    "challenge-over": "c challenge a friend with your game · review · q quit",
}

#: shorter words for a keys line wider than the screen (60 columns: a racer not hosting
#: lost "q leave" after the race, a player "q quit"), tried in turn until it fits: first
#: the same in fewer words, then what help (h) or the screen says already; where they are
#: not enough (under 60 columns), the words between the first and the last give way
NARROWER = (
    ("n the same deal again (practice)", "n practice the deal"),
    ("n that day's deal again (practice)", "n that day's deal"),
    ("c challenge a friend with your game", "c challenge a friend"),
    ("c challenge a friend", "c challenge"),
    ("the host may call a rematch", "the host may rematch"),
    ("get ready: the ghost starts with you", "get ready"),
    ("get ready: the ghosts start with you", "get ready"),
    ("the result against the ghost is on its way", "the result is on its way"),
    ("the place among the ghosts is on its way", "your place is on its way"),
    ("anything else: not now", "other keys: not now"),
    ("other keys: not now", "else not now"),
    ("Enter or y: start the ranked attempt", "Enter or y: start it"),
    ("your game is over: waiting for the others", "waiting for the others"),
    ("your game is over: the result is on its way", "the result is on its way"),
    ("your game is over: your place is on its way", "your place is on its way"),
    ("space or PgDn more", "space more"),
    ("b or PgUp back", "b back"),
    ("q or Esc: the table", "q: the table"),
    (" (then patience-race quick: another)", ""),  # (the results say it)
    (" · Tab", ""),
    (" · F4 rules", ""),
    ("move, pile or #n", "move, pile, #n"),
    (" · h help", ""),
    (" · new GAME today's daily", ""),
    (" · new GAME", ""),
)


def narrowed(words: str, width: int, steps: Sequence[tuple[str, str]] = NARROWER) -> str:
    """A keys line in at most ``width`` cells where ``steps`` (:data:`NARROWER`, or the
    replay viewer's) can make it so.

    >>> narrowed(KEYS["finished-guest"], 60)
    'c challenge · review · the host may call a rematch · q leave'
    >>> narrowed(KEYS["play"], 60)
    'move or its # · + home · ? hint · u undo · h help · q quit'
    >>> narrowed(KEYS["finished-guest"], 44)
    'c challenge · review · q leave'
    """
    for long, short in steps:
        if len(words) <= width:
            break
        words = words.replace(long, short)
    parts = words.split(" · ")
    while len(" · ".join(parts)) > width and len(parts) > 2:
        del parts[-2]  # (the first says what to do, the last how to leave)
    return " · ".join(parts)


#: the keys line's first words in "play" where some pile is a number (Nestor, Doubles and
#: Quits, The Wedge): a bare ``3`` is pile 3 there, and the legal line's third move ``#3``
#: ("move or its #" had a player type 3 for the move)
NUMBERED = ("move or its #", "move, pile or #n")

#: the longest line that can mean anything: a move is at most 64 characters on the wire
#: (docs/protocol.md), and every command is shorter
LONGEST = 64

#: a move picked by its number on the legal line: ``3`` or ``#3``
_NUMBER = re.compile(r"#?(\d{1,3})")


def normalize(text: str) -> str:
    """Moves ignore case and spaces, as the server does."""
    return re.sub(r"\s+", "", text).lower()


def numbered_piles(labels: Collection[str]) -> bool:
    """Whether some pile's label is a number (The Wedge, Nestor, Doubles and Quits): there a
    move's number is written ``#3``, since ``3`` is a pile.

    >>> numbered_piles({"l", "t1", "w"}), numbered_piles({"1", "2", "s"})
    (False, True)
    """
    return any(label.isdigit() for label in labels)


def candidates(label: str, legal: Sequence[str]) -> list[str]:
    """The legal moves that start at ``label`` (either side of a pair)."""
    return [move for move in legal if label in move_piles(move) and move != label]


def interpret(
    text: str,
    context: str,
    legal: Sequence[str] = (),
    labels: Collection[str] = (),
    keys: str | None = None,
) -> Action:
    """The action a typed line asks for in ``context`` (see :meth:`Model.context`). A line
    that means nothing there is told ``keys``: the keys line's words for the state on the
    table (:func:`client_cli.keys_line.key_words`); without them, the context's own.

    >>> interpret("foo", "over", keys="n the same deal again (practice) · q quit").note
    "'foo' means nothing here: n the same deal again (practice) · q quit"
    """
    stripped = text.strip()
    if context == "confirm":
        return Action("yes") if stripped.lower() in ("y", "yes") else Action("no")
    if not stripped:
        return NONE
    if len(stripped) > LONGEST:  # (sent, it was refused in the server's words, or
        # closed the connection: docs/protocol.md, "Limits")
        return Action(
            "say",
            note=f"no move or command is that long ({len(stripped)} characters): it was not sent",
        )
    word, _, rest = stripped.partition(" ")
    word = word.lower()
    if word in _WORDS and not rest:
        return Action(_WORDS[word])
    local = _IN_CONTEXT.get(context, {})
    if word in local:
        kind = local[word]
        if kind == "new":
            return Action("new", rest.strip().lower() or None)
        if not rest:
            return Action(kind)
    if context != "play":
        offered = KEYS.get(context, "") if keys is None else keys
        return Action("say", note=f"{stripped!r} means nothing here: {offered}")
    keyword = word in _WORDS or word in local
    if keyword and rest and normalize(stripped) not in legal and word not in labels:
        # (sent as the move "resignnow", it came back as "cannot read 'resignnow'")
        return Action("say", note=f"cannot read {stripped!r}: type {word} alone")
    if word in ("n", "new") and normalize(stripped) not in legal and word not in labels:
        # (it went to the server as the move "newblockade", which it could not read)
        return Action("say", note=f"{word} deals a new game once this one is over (resign ends it)")
    move = normalize(stripped)
    if move in legal:
        return Action("move", move)
    picked = _NUMBER.fullmatch(move)
    if picked and (move.startswith("#") or not numbered_piles(labels)):
        n = int(picked.group(1))
        if 1 <= n <= len(legal):
            return Action("move", legal[n - 1])
        if not legal:
            return Action("say", note="no move is legal now")
        return Action("say", note=f"no move numbered {n}: the legal line has 1 to {len(legal)}")
    halves = move.split("+")
    if len(halves) == 2 and halves[0] == halves[1] and halves[0] in labels:
        # (the server reads it as no move at all: "cannot read '1+1' ... Moves look like
        # 3+7", which told a player the shape was wrong, not the pile)
        pair = next((m for m in legal if "+" in m), "")
        plainly = f"{move} is no move: a pile cannot pair with itself"
        return Action("say", note=f"{plainly} (a pair is two piles: {pair})" if pair else plainly)
    if move in labels:
        options = candidates(move, legal)
        if len(options) == 1:
            return Action("move", options[0])
        if options:
            return Action("say", note=f"{move}: which move? {', '.join(options)}")
        n = int(picked.group(1)) if picked else 0
        if 1 <= n <= len(legal):  # a pile's number, meant for the legal line's move
            note = f"no legal move starts at pile {move} (#{n} is the legal line's {legal[n - 1]})"
            return Action("say", note=note)
        return Action("say", note=f"no legal move starts at {move}")
    return Action("move", move)  # the server reads it, and says why if it is refused


def completions(
    text: str,
    context: str,
    legal: Sequence[str],
    can_undo: bool = True,
    *,
    home: bool = True,
    hint: bool = True,
) -> list[str]:
    """What Tab offers for the text typed so far: the legal moves it begins (and, playing,
    the words ``home``, ``undo``, ``hint`` and ``resign``), each word only where the keys
    line offers it: ``undo`` where a move can be taken back (a fresh deal offered it),
    ``home`` where cards go home one at a time (not the pair games), ``hint`` where hints
    are allowed (not a room made without them).

    >>> completions("h", "play", [], home=False), completions("h", "play", [], hint=False)
    (['hint'], ['home'])
    """
    if context != "play":
        return []
    typed = normalize(text)
    words = [*legal, *(["home"] if home else []), *(["undo"] if can_undo else [])]
    words += [*(["hint"] if hint else []), "resign"]
    return [w for w in words if w.startswith(typed)]


def common_start(words: Sequence[str]) -> str:
    """What all ``words`` begin with: Tab puts it in the line when several match.

    >>> common_start(["b1>b2", "b1>t4"]), common_start(["home", "hint"]), common_start([])
    ('b1>', 'h', '')
    """
    if not words:
        return ""
    first, last = min(words), max(words)
    n = 0
    while n < min(len(first), len(last)) and first[n] == last[n]:
        n += 1
    return first[:n]
