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

The budget is counted in positions (:data:`MAX_NODES`, fewer in a game whose positions
cost more: :data:`NODES`), and the same view and seed always give the same hint when the
positions end the search (the samples come only from them; :attr:`Hint.stopped` is
empty). It is capped by the clock too: the whole hint may take :data:`BUDGET_S` of CPU
(200 ms), and the server's task (:func:`suggest`) as long on the wall clock, since a
worker on a busy machine gets less than a core and the player waits for the wall clock.
The search stops at :data:`SEARCH_SHARE` of either cap (the clock looked at every few
positions, over all the moves searched); the moves it liked best are then weighed in
turn while the budget lasts, and the reason is one move played and taken back. A hint
a clock ended is the best move found by then, always a legal move with a reason, but the
same view and seed may give another one next time: on a loaded machine, or with the
engine running from source (each position costing about three times as much as
compiled), in the games whose positions cost most.

>>> from server.engine import new_game
>>> hint = suggest(new_game("gate", seed=1).view(), "gate", seed=7)
>>> hint is not None and hint[0] in [m.text for m in new_game("gate", seed=1).legal_moves()]
True
"""

from __future__ import annotations

import random
import time
from collections import Counter
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
#: the share of a hint's budget (CPU and wall clock each) its search may take: the rest
#: is kept for choosing among the moves it liked best and saying why (at most 6 ms
#: measured, in the Blockade, on the source engine: ``docs/performance.md``)
SEARCH_SHARE: Final = 0.9
#: how many positions pass between looks at the clock: a look costs about a
#: microsecond of CPU, a position 5 to 500
_CLOCK_EVERY: Final = 8
#: the score of a win
_WIN = float("inf")
#: how many of the moves the search liked best are weighed on what they do at once
_FINALISTS = 24


@dataclass(frozen=True)
class Hint:
    """A suggested move and why, with what the search did: the samples it searched
    whole, those of them in which the move led to a win, the positions entered, and
    which clock ended the search before its positions did ("cpu", "wall"; "" when
    none did, and the hint is a function of the view and the seed)."""

    move: str
    reason: str
    samples: int = 0
    wins: int = 0
    nodes: int = 0
    stopped: str = ""


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
    None when no move is legal. Plain data in and out: the task a server's worker runs.
    ``budget_s`` caps both the CPU the hint takes and its wall clock: on a loaded machine
    a worker gets less than a core, and the player waits for the wall clock."""
    found = hint(view, game_id, seed, budget_s=budget_s, max_nodes=max_nodes, wall_s=budget_s)
    return None if found is None else (found.move, found.reason)


def hint(
    view: Mapping[str, Any],
    game_id: str,
    seed: int,
    budget_s: float | None = BUDGET_S,
    max_nodes: int | None = None,
    samples: int = SAMPLES,
    wall_s: float | None = None,
    clock: _Clock | None = None,
) -> Hint | None:
    """The :class:`Hint` for ``view`` (see the module's docstring), or None when no move
    is legal. ``budget_s``: CPU seconds for the whole hint (None: no cap); ``wall_s``:
    seconds of the wall clock, the same way (None: no cap); ``max_nodes``: positions
    (None: the game's :data:`NODES`, else :data:`MAX_NODES`); ``clock``: the deadlines
    to keep instead of those two (a test's)."""
    if clock is None:
        clock = _Clock(budget_s, wall_s)
    info = GAMES.get(game_id)
    if info is None:
        raise ValueError(f"no such game: {game_id!r} (games: {', '.join(GAMES)})")
    cls = info.cls
    unseen = cls.unseen_cards(view)  # ValueError for a view of another game
    hooks = hooks_for(game_id)
    here = cls.from_view(view, unseen)
    legal = here.legal_moves()
    if not legal:
        return None
    if len(legal) == 1:
        return Hint(legal[0].text, reason(view, here, legal[0]), samples=0)
    # one order is every order when the unseen cards are all alike (or none)
    orders = 1 if len(set(unseen)) <= 1 else samples
    if max_nodes is None:
        max_nodes = NODES.get(game_id, MAX_NODES)
    per_sample = max(1, max_nodes // orders)
    tally, searched, nodes = _search(view, cls, unseen, hooks, orders, seed, per_sample, clock)
    if not tally and not clock.stopped and hooks.most_home() is not hooks:
        # every sample proved lost by the hooks (The Labyrinth's dead test: nothing left
        # to search): a loss all the same, the move that gets the most cards home
        hooks = hooks.most_home()
        tally, searched, more = _search(view, cls, unseen, hooks, orders, seed, per_sample, clock)
        nodes += more
    if not tally:
        # the clock ended before a move was searched: the hooks' first choice here (the
        # first legal move where they offer none)
        chosen = (hooks.expand(here) or here.legal_moves())[0]
        return Hint(chosen.text, reason(view, here, chosen), nodes=nodes, stopped=clock.stopped)
    text = _choose(view, here, hooks, tally, clock)
    wins = tally[text].wins
    move = here.parse(text)
    why = reason(view, here, move)
    if wins and not unseen:
        why = f"{why}; it leads to a win"
    elif wins:
        # (guesses at the face-down cards: said short, for a phone's two-line status line)
        why = f"{why}; a win in {wins} of {searched} guesses"
    return Hint(text, why, samples=searched, wins=wins, nodes=nodes, stopped=clock.stopped)


def _search(
    view: Mapping[str, Any],
    cls: type[Game],
    unseen: list[int],
    hooks: Hooks,
    orders: int,
    seed: int,
    per_sample: int,
    clock: _Clock,
) -> tuple[dict[str, _Tally], int, int]:
    """Each move the hooks offer searched in ``orders`` samples of the face-down cards
    (shuffled by ``seed``): the tally of each move, the samples searched, the positions.
    A sample the hooks prove lost (they offer nothing) is skipped."""
    rng = random.Random(seed)
    tally: dict[str, _Tally] = {}
    # the moves searched so far in the sample under way, with what they reached
    results: list[tuple[str, _Reached]] = []
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
                reached = _reach(sample, hooks, move, share, clock)
                nodes += reached.nodes
                results.append((move.text, reached))
            searched += 1
            for n, (text, reached) in enumerate(results):
                tally.setdefault(text, _Tally(order=n)).add(reached)
    except _OutOfTime:
        # a sample cut short counts only when it is all there is: the moves it searched
        # before the clock, each once (the moves after them were not searched at all)
        if not tally:
            for n, (text, reached) in enumerate(results):
                tally.setdefault(text, _Tally(order=n)).add(reached)
            searched = 1 if results else 0  # (its wins are of one guess: "1 of 0" once)
    return tally, searched, nodes


def _choose(
    view: Mapping[str, Any],
    here: Game,
    hooks: Hooks,
    tally: dict[str, _Tally],
    clock: _Clock,
) -> str:
    """The move to hint of those the search tallied (see the module's docstring, 3).

    What a move does at once (and whether it leads up, :func:`_uphill`) is looked at for
    the :data:`_FINALISTS` moves the search liked best, in that order, while the hint's
    budget lasts (the first always): each is played, and in a wide Blockade the moves
    back from it tried, so that on a slow or loaded machine the clock may end it."""

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

    best = sorted(tally, key=lambda text: (value(text), tally[text].order))[:_FINALISTS]
    ranked: list[tuple[tuple[float, ...], int, str]] = []
    for n, text in enumerate(best):
        if ranked and clock.over():
            break
        ranked.append((rank(text), n, text))  # of two alike, the one the search liked more
    return min(ranked)[2]


class _Clock:
    """A hint's deadlines, from when it was asked: ``cpu_s`` seconds of this process's
    CPU (``time.process_time``) and ``wall_s`` of the wall clock (``time.monotonic``),
    each None for no cap. The search ends at :data:`SEARCH_SHARE` of each
    (:meth:`search_over`), so that choosing among its moves fits in the rest
    (:meth:`over`); :attr:`stopped` says which clock ended the search, if one did."""

    def __init__(self, cpu_s: float | None, wall_s: float | None) -> None:
        cpu = time.process_time()
        wall = time.monotonic()
        self.cpu_search = None if cpu_s is None else cpu + cpu_s * SEARCH_SHARE
        self.cpu_end = None if cpu_s is None else cpu + cpu_s
        self.wall_search = None if wall_s is None else wall + wall_s * SEARCH_SHARE
        self.wall_end = None if wall_s is None else wall + wall_s
        #: "cpu" or "wall" once that clock has ended the search; "" while none has
        self.stopped = ""

    def search_over(self) -> bool:
        """Whether the search's share of either budget is spent (and which, in
        :attr:`stopped`)."""
        if self.wall_search is not None and time.monotonic() > self.wall_search:
            self.stopped = "wall"
            return True
        if self.cpu_search is not None and time.process_time() > self.cpu_search:
            self.stopped = "cpu"
            return True
        return False

    def over(self) -> bool:
        """Whether either whole budget is spent: the answer is due."""
        if self.wall_end is not None and time.monotonic() > self.wall_end:
            return True
        return self.cpu_end is not None and time.process_time() > self.cpu_end


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


def _reach(game: Game, hooks: Hooks, first: Move, cap: int, clock: _Clock) -> _Reached:
    """Play ``first`` and search on from there, depth first, for at most ``cap``
    positions, never back to where ``game`` is now: a win, or the best score reached.
    ``game`` is left as it was. :class:`_OutOfTime` once the search's share of the
    ``clock`` is spent, looked at on the first position and every :data:`_CLOCK_EVERY`
    after: a search of many moves gives each only a few positions, and a look only
    every so many positions *of one move* never came (a Blockade hint of 50 moves took
    513 ms of CPU so)."""
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
            if nodes % _CLOCK_EVERY == 1 and clock.search_over():
                raise _OutOfTime
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
    if "frees" in kinds or "uncovers" in kinds or "opens" in kinds:
        return 1
    return 2


#: games whose gaps are never the player's to fill (The Labyrinth and The Blockade in rows
#: of ten: only ``deal`` refills the lowest row, and a gap higher up stays empty; Babette
#: never fills one): a gap there is no space freed, and what it does is make the cards
#: beside it available (``opens``)
_GAPS_OPEN: Final = frozenset({"labyrinth", "babette", "blockade-ten"})


def _seen_home(
    before: dict[str, tuple[list[str], int]],
    after: dict[str, tuple[list[str], int]],
    homes: set[str],
) -> int:
    """How many of the cards gone home between ``before`` and ``after`` (piles by label:
    their cards face up, and how many face down) were face up before, off the foundations
    (cards of two packs counted as many times as they are shown)."""
    seen: Counter[str] = Counter()
    went: Counter[str] = Counter()
    for label, (cards, _down) in before.items():
        if label in homes:
            went.subtract(cards)
        else:
            seen.update(cards)
    for label in homes:
        went.update(after.get(label, ([], 0))[0])
    return sum((went & seen).values())


def _effects(view: Mapping[str, Any], here: Game, move: Move) -> dict[str, int]:
    """What ``move`` does that the player can see, from the view before and the position
    after (any sample: only what is shown or counted is compared)."""
    before = _shown(view)
    home_before = int(view["home"])
    gaps_open = here.id in _GAPS_OPEN
    # (a grid game's cells whose card may be moved: the engine's own reading)
    # (not a deal's: the cards it lays are available, which "deals" says)
    available = getattr(here, "_available", None) if gaps_open and move.text != "deal" else None
    free_before = set(available()) if available is not None else set()
    here.play(move)
    try:
        after = here.view()
        free_after = set(available()) if available is not None else set()
    finally:
        here.pop()
    effects: dict[str, int] = {}
    opened = len(free_after - free_before)
    if opened:
        effects["opens"] = opened
    homes = {here.PILES[i].label for i in here.HOME}
    home = int(after["home"]) - home_before
    if home > 0:
        # only cards the player could see before (a move that turns cards up, as a deal
        # does, may send them home by itself: which, no one knows before they are face
        # up, and ``here``'s hidden cards are any sample)
        home = _seen_home(before, _shown(after), homes)
    if home > 0:
        effects["home"] = home
    turned = 0
    for label, (cards, down) in _shown(after).items():
        old_cards, old_down = before.get(label, ([], 0))
        if down < old_down:
            turned += old_down - down
        if label in homes or old_down or down:
            continue
        if old_cards and not cards and not gaps_open:
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
    opens = effects.get("opens", 0)
    if opens and len(said) < 2:
        said.append("makes a card available" if opens == 1 else f"makes {opens} cards available")
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
