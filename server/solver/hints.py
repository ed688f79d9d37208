"""Hints: a suggested move for a game as its player sees it, and a short reason.

A hint is worked out from the player's view (``Game.view()``, what the client is sent)
and nothing else: the order of the face-down cards is not in it, so it is not known
here. Like the solver beside it, this module is pure (the standard library and
:mod:`server.engine`), and :func:`suggest`, the function the server runs in a worker
process, takes plain data (the view, a seed, a budget) and gives plain data back: it
cannot reach the server's game.

How a move is chosen (*determinized* search, as card-game programs do it):

1. The cards the view does not show are the face-down ones
   (``Game.unseen_cards``). Several orders of them are drawn with a generator seeded by
   ``seed``, and each gives a position with exactly the player's view
   (``Game.from_view``): a *sample*, one way the hidden cards might lie.
2. In every sample, each move the game's solver hooks would try from here
   (:meth:`Hooks.expand`: every legal move, or the one a safe dominance forces) is played
   and the positions after it are searched depth first, with the hooks' move order and a
   table of positions seen, for a small share of the budget. What it reaches is scored:
   a win, or else the best :meth:`Hooks.score` (cards home, unless the game says better).
3. The moves are ranked by the samples they win in (then by how soon), else by their
   mean best score, then by what the move does at once (a card home first, ``deal``
   last), then by how soon the score was reached and the hooks' order. A move good in
   only one order of the stock is outvoted by one good in many. The search never
   counts a line back to where the player is, and of two moves that undo each other
   (a run moved to a space and back) only one is ever hinted before the moves that
   make progress (:func:`_uphill`), so that hints followed never go round in a circle.

The same view and seed always give the same hint (the samples come only from them),
unless the CPU budget cuts the search short first: it is counted in positions
(:data:`MAX_NODES`, fewer in a game whose positions cost more: :data:`NODES`), with a
cap on the CPU time (:data:`BUDGET_S`, about 200 ms) that a loaded machine may reach
first. Choosing among the moves the search liked best, and the reason, take a few
milliseconds more.

>>> from server.engine import new_game
>>> hint = suggest(new_game("gate", seed=1).view(), "gate", seed=7)
>>> hint is not None and hint[0] in [m.text for m in new_game("gate", seed=1).legal_moves()]
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from server.engine import GAMES, Game, Move
from server.engine.cards import RANK_NAMES, parse_card

from .hooks import Hooks, hooks_for

#: the CPU time one hint may take, in seconds (the search stops there)
BUDGET_S: Final = 0.2
#: the positions one hint may search, over all its samples
MAX_NODES: Final = 12_000
#: where a position costs more than most: as many as the CPU budget holds, about
#: (``bench/hints.py``), so that the positions, not the clock, end the search
NODES: Final = {"blockade": 3_000}
#: how many orders of the hidden cards are drawn
SAMPLES: Final = 6
#: how many positions pass between looks at the clock
_CLOCK_EVERY = 64
#: the score of a win
_WIN = float("inf")
#: how many of the moves the search liked best are weighed on what they do at once
_FINALISTS = 24


@dataclass(frozen=True)
class Hint:
    """A suggested move and why, with what the search did: the samples it searched
    whole, those of them in which the move led to a win, and the positions entered."""

    move: str
    reason: str
    samples: int = 0
    wins: int = 0
    nodes: int = 0


class _OutOfTime(Exception):
    pass


def suggest(
    view: dict[str, Any],
    game_id: str,
    seed: int,
    budget_s: float | None = BUDGET_S,
    max_nodes: int | None = None,
) -> tuple[str, str] | None:
    """The hint for a player's ``view`` of a ``game_id`` game: (move text, reason), or
    None when no move is legal. Plain data in and out: the task a server's worker runs."""
    found = hint(view, game_id, seed, budget_s=budget_s, max_nodes=max_nodes)
    return None if found is None else (found.move, found.reason)


def hint(
    view: Mapping[str, Any],
    game_id: str,
    seed: int,
    budget_s: float | None = BUDGET_S,
    max_nodes: int | None = None,
    samples: int = SAMPLES,
) -> Hint | None:
    """The :class:`Hint` for ``view`` (see the module's docstring), or None when no move
    is legal. ``budget_s``: CPU seconds (None: no cap); ``max_nodes``: positions (None:
    the game's :data:`NODES`, else :data:`MAX_NODES`)."""
    info = GAMES.get(game_id)
    if info is None:
        raise ValueError(f"no such game: {game_id!r} (games: {', '.join(GAMES)})")
    cls = info.cls
    unseen = cls.unseen_cards(view)  # ValueError for a view of another game
    deadline = None if budget_s is None else time.process_time() + budget_s
    hooks = hooks_for(game_id)
    here = cls.from_view(view, unseen)
    legal = here.legal_moves()
    if not legal:
        return None
    if len(legal) == 1:
        return Hint(legal[0].text, reason(view, here, legal[0]), samples=0)
    # one order is every order when the unseen cards are all alike (or none)
    orders = 1 if len(set(unseen)) <= 1 else samples
    rng = random.Random(seed)
    if max_nodes is None:
        max_nodes = NODES.get(game_id, MAX_NODES)
    per_sample = max(1, max_nodes // orders)
    tally: dict[str, _Tally] = {}
    nodes = 0
    searched = 0
    try:
        for _ in range(orders):
            cards = list(unseen)
            rng.shuffle(cards)
            sample = cls.from_view(view, cards)
            moves = hooks.expand(sample)
            if not moves:
                continue  # a hook proved this sample lost (The Labyrinth's dead test)
            share = max(1, per_sample // len(moves))
            results = []
            for move in moves:
                reached = _reach(sample, hooks, move, share, deadline)
                nodes += reached.nodes
                results.append((move.text, reached))
            searched += 1
            for n, (text, reached) in enumerate(results):
                tally.setdefault(text, _Tally(order=n)).add(reached)
    except _OutOfTime:
        pass
    if not tally:
        # not one sample searched whole: what each move does at once decides
        chosen = min(legal, key=lambda m: (_at_once(view, here, m), legal.index(m)))
        return Hint(chosen.text, reason(view, here, chosen), nodes=nodes)

    def value(text: str) -> tuple[float, ...]:
        """What the search found of a move: the samples it won, then its mean score."""
        t = tally[text]
        return (-t.wins, 0.0) if t.wins else (0, -t.best / t.count)

    def rank(text: str) -> tuple[float, ...]:
        t = tally[text]
        move = here.parse(text)
        back = float(_uphill(here, hooks, move))
        if t.wins:
            return (-t.wins, back, t.win_depth / t.wins)
        mean = t.best / t.count
        depth = t.best_depth / t.count
        return (0, back, -mean, _at_once(view, here, move), depth, t.order)

    # what a move does at once is looked at for the moves the search liked best
    best = sorted(tally, key=lambda text: (value(text), tally[text].order))[:_FINALISTS]
    text = min(best, key=rank)
    wins = tally[text].wins
    move = here.parse(text)
    why = reason(view, here, move)
    if wins and not unseen:
        why = f"{why}; it leads to a win"
    elif wins:
        why = f"{why}; it leads to a win in {wins} of {searched} guesses at the face-down cards"
    return Hint(text, why, samples=searched, wins=wins, nodes=nodes)


@dataclass
class _Reached:
    """What the search after one move reached in one sample: a win (and how many moves
    it took) or the best score (and how many moves in it was first reached)."""

    won: bool
    value: float
    depth: int
    nodes: int


@dataclass
class _Tally:
    """One move's results over the samples."""

    order: int
    wins: int = 0
    win_depth: int = 0
    best: float = 0.0
    best_depth: int = 0
    count: int = 0

    def add(self, reached: _Reached) -> None:
        if reached.won:
            self.wins += 1
            self.win_depth += reached.depth
        else:
            self.best += reached.value
            self.best_depth += reached.depth
            self.count += 1


def _uphill(game: Game, hooks: Hooks, move: Move) -> bool:
    """Whether ``move`` can be taken straight back by another (a run moved to a space
    and back) and leads *up* (to a position whose key sorts after this one's).

    Such a pair of moves makes no progress of itself, and a search that likes the
    position after one likes the position after the other about as well: hinted both
    ways, hints would go round in a circle. So of every such pair, the move that leads
    up is hinted only when it wins more often than any other: the hints never come
    back to a position by moves like these."""
    if move.text in _NAMED:
        return False
    here = hooks.key(game)
    home = game.cards_home()
    game.play(move)
    try:
        if game.cards_home() != home or hooks.key(game) <= here:
            return False
        # a move back takes from where this one put (``Move.a``, ``Move.b``: piles)
        for back in game.legal_moves():
            if move.b >= 0 and back.a != move.b:
                continue
            game.play(back)
            again = hooks.key(game) == here
            game.pop()
            if again:
                return True
        return False
    finally:
        game.pop()


def _reach(game: Game, hooks: Hooks, first: Move, cap: int, deadline: float | None) -> _Reached:
    """Play ``first`` and search on from there, depth first, for at most ``cap``
    positions, never back to where ``game`` is now: a win, or the best score reached.
    ``game`` is left as it was. :class:`_OutOfTime` past ``deadline`` (CPU seconds)."""
    key = hooks.key
    expand = hooks.expand
    score = hooks.score
    total = game.total
    seen: set[bytes] = {key(game)}
    # the moves played from ``game`` as it was given, and per position on that path the
    # moves still to try there (the next is the last)
    path: list[Move] = [game.play(first)]
    stack: list[list[Move]] = []
    nodes = 0
    best = -_WIN
    best_depth = 0
    try:
        while True:
            nodes += 1
            k = key(game)
            if k in seen:
                stack.append([])
            else:
                seen.add(k)
                if game.cards_home() == total:
                    return _Reached(True, _WIN, len(path), nodes)
                value = score(game)
                if value > best:
                    best, best_depth = value, len(path)
                todo = expand(game)
                todo.reverse()
                stack.append(todo)
            while not stack[-1]:
                stack.pop()
                if not stack:
                    return _Reached(False, best, best_depth, nodes)
                game.pop()
                path.pop()
            if nodes >= cap:
                return _Reached(False, best, best_depth, nodes)
            if (
                deadline is not None
                and nodes % _CLOCK_EVERY == 0
                and time.process_time() > deadline
            ):
                raise _OutOfTime
            path.append(game.play(stack[-1].pop()))
    finally:
        for _ in path:
            game.pop()


def _shown(view: Mapping[str, Any]) -> dict[str, tuple[list[str], int]]:
    return {p["label"]: (list(p["cards"]), int(p["down"])) for p in view["piles"]}


def _at_once(view: Mapping[str, Any], here: Game, move: Move) -> int:
    """What a move does at once, as a rank (lower first): a card home, a space freed or a
    card uncovered, anything else, and a move that turns hidden cards (``deal``) last."""
    kinds = _effects(view, here, move)
    if "home" in kinds:
        return 0
    if "turns" in kinds:
        return 3
    if "frees" in kinds or "uncovers" in kinds:
        return 1
    return 2


def _effects(view: Mapping[str, Any], here: Game, move: Move) -> dict[str, int]:
    """What ``move`` does that the player can see, from the view before and the position
    after (any sample: only what is shown or counted is compared)."""
    before = _shown(view)
    home_before = int(view["home"])
    here.play(move)
    try:
        after = here.view()
    finally:
        here.pop()
    effects: dict[str, int] = {}
    home = int(after["home"]) - home_before
    if home > 0:
        effects["home"] = home
    homes = {here.PILES[i].label for i in here.HOME}
    turned = 0
    for label, (cards, down) in _shown(after).items():
        old_cards, old_down = before.get(label, ([], 0))
        if down < old_down:
            turned += old_down - down
        if label in homes or old_down or down:
            continue
        if old_cards and not cards:
            effects["frees"] = effects.get("frees", 0) + 1
        elif cards and len(cards) < len(old_cards) and cards == old_cards[: len(cards)]:
            effects["uncovers"] = effects.get("uncovers", 0) + 1
    if turned:
        effects["turns"] = turned
    return effects


#: the reason for a move the notation names the same in every game
_NAMED: Final = {
    "deal": "deals from the stock",
    "reserve": "turns up the next reserve card",
    "redeal": "takes up the garden and deals it again",
}


def reason(view: Mapping[str, Any], here: Game, move: Move) -> str:
    """A short reason for ``move`` from ``view`` (``here``: a position with that view):
    what it does that the player will see. Cheap: one move played and taken back.

    >>> from server.engine import new_game
    >>> game = new_game("doubles-and-quits", seed=3)
    >>> reason(game.view(), game, game.legal_moves()[0])
    'pairs off two kings'
    >>> game = new_game("gate", seed=1)
    >>> reason(game.view(), game, game.parse("t1>t3"))
    'frees a space'
    """
    effects = _effects(view, here, move)
    said: list[str] = []
    paired = _paired_rank(view, move)
    if paired:
        return f"pairs off two {paired}"
    if move.text in _NAMED and "home" not in effects:
        named = _NAMED[move.text]
        if move.text == "deal" and "turns" not in effects:
            named = "deals from the waste heap into the gaps"
        said.append(named)
    elif move.text.endswith(">g"):
        said.append("takes out a card as the grace")
    home = effects.get("home", 0)
    if home:
        said.append("moves a card home" if home == 1 else f"moves {home} cards home")
    frees = effects.get("frees", 0)
    if frees and len(said) < 2:
        said.append("frees a space" if frees == 1 else f"frees {frees} spaces")
    if effects.get("uncovers") and len(said) < 2:
        said.append("uncovers a card")
    if not said:
        if "turns" in effects:
            said.append("turns up a hidden card")
        else:
            said.append("builds toward the foundations")
    return " and ".join(said)


def _paired_rank(view: Mapping[str, Any], move: Move) -> str:
    """For a pairing move (``4+8``: Nestor, Doubles and Quits), the rank it pairs off, in
    the plural (``7s``, ``knaves``); else ""."""
    a, plus, _ = move.text.partition("+")
    if not plus:
        return ""
    shown = _shown(view)
    cards = shown.get(a, ([], 0))[0]
    if not cards:
        return ""
    rank = RANK_NAMES[parse_card(cards[-1]) % 13 + 1]
    return f"{rank}s"
