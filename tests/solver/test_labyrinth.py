"""The Labyrinth's hooks under rules version 2 (``deal`` only when nothing can go home):
the dead-position test (:mod:`server.solver.games.labyrinth_dead`) fires where a position
is lost and never where it can be won, the garden's dominance with ``commutes`` always
true never turns a win into a loss, and the solver's verdicts on positions late in real
deals agree with a plain search written here from the rules alone.
"""

from __future__ import annotations

import random
from typing import cast

from server.engine import new_game
from server.engine.cards import CODE, RANK, SUIT
from server.engine.games.grid import DEAL
from server.engine.games.labyrinth import Labyrinth
from server.solver import Hooks
from server.solver.games.labyrinth import HOOKS
from server.solver.games.labyrinth_dead import lost
from server.solver.hints import suggest
from server.solver.portfolio import run
from server.solver.search import LOST, UNKNOWN, WON, search

from .against_plain import dominances
from .test_garden import endgame

# -- a search from the rules alone ------------------------------------------------------------

W = 10


def plain_verdict(game: Labyrinth, cap: int) -> str:
    """Whether the position can be won, by a depth-first search over every legal move of
    The Labyrinth as its rules say, written without the engine: only the position is read
    off its piles (cells, the stock in dealing order, the foundations' heights, the grace).
    ``unknown`` past ``cap`` positions."""
    p = game.p
    f0 = game.F0
    cells = tuple(pile[-1] if pile else -1 for pile in p[: game.CELLS])
    stock = list(p[game.STOCK])  # dealt from its end
    ups = tuple(len(p[f0 + s]) for s in range(4))
    downs = tuple(len(p[f0 + 4 + s]) for s in range(4))
    grace = p[game.GRACE][-1] if p[game.GRACE] else -1
    start = (cells, len(stock), ups, downs, game.sc[0], grace, game.sc[1])
    seen: set[tuple[object, ...]] = set()
    todo = [start]
    while todo:
        state = todo.pop()
        if state in seen:
            continue
        seen.add(state)
        if len(seen) > cap:
            return UNKNOWN
        cells, left, ups, downs, rows, grace, used = state
        if sum(ups) + sum(downs) == 104:
            return WON
        end = rows * W
        homes = []

        def ways(
            card: int, ups: tuple[int, ...] = ups, downs: tuple[int, ...] = downs
        ) -> list[int]:
            """0 up (it follows the ascending pile's top), 1 down (the descending one's)."""
            s, r = SUIT[card], RANK[card]
            return [w for w, ok in ((0, ups[s] == r - 1), (1, downs[s] == 13 - r)) if ok]

        for i in range(end):
            card = cells[i]
            free = i < W or i >= end - W or cells[i - W] < 0 or cells[i + W] < 0
            if card >= 0 and free:
                homes += [(i, w) for w in ways(card)]
        if grace >= 0:
            homes += [(-1, w) for w in ways(grace)]
        for i, w in homes:
            card = grace if i < 0 else cells[i]
            s = SUIT[card]
            up = tuple(h + (w == 0 and k == s) for k, h in enumerate(ups))
            down = tuple(h + (w == 1 and k == s) for k, h in enumerate(downs))
            if i < 0:
                todo.append((cells, left, up, down, rows, -1, used))
            else:
                after = (*cells[:i], -1, *cells[i + 1 :])
                todo.append((after, left, up, down, rows, grace, used))
        if homes:
            continue  # suitable cards are played before the next deal, and the grace waits
        if left:
            new = list(cells)
            gaps = [i for i in range(end - W, end) if new[i] < 0] if rows else []
            dealt = left
            if gaps:
                for i in gaps[:left]:
                    dealt -= 1
                    new[i] = stock[dealt]
                todo.append((tuple(new), dealt, ups, downs, rows, grace, used))
            else:
                for i in range(end, end + min(W, left)):
                    dealt -= 1
                    new[i] = stock[dealt]
                todo.append((tuple(new), dealt, ups, downs, rows + 1, grace, used))
        elif not used:
            for i in range(end):
                if cells[i] >= 0:
                    after = (*cells[:i], -1, *cells[i + 1 :])
                    todo.append((after, 0, ups, downs, rows, cells[i], 1))
    return LOST


def late(seed: int, stock: int) -> Labyrinth:
    """The deal of ``seed`` played by the first legal move each time to the end of the
    first stage with at most ``stock`` cards left to deal."""
    game = cast(Labyrinth, new_game("labyrinth", seed=seed))
    while True:
        moves = game.legal_moves()
        if not moves or (moves[-1].kind == DEAL and len(game.p[game.STOCK]) <= stock):
            return game
        game.play(moves[0])


# -- the tests ----------------------------------------------------------------------------------


def test_the_plain_search_follows_the_rules() -> None:
    """It wins a won endgame and loses a lost one, built by hand (below), and agrees with
    the engine's own plain search on the positions of the agreement test."""
    assert plain_verdict(_blocked(grace_used=False), 1000) == WON
    assert plain_verdict(_blocked(grace_used=True), 1000) == LOST


def _blocked(grace_used: bool, king: bool = False) -> Labyrinth:
    """Hearts alone out, the ascending pile at 3 wanting the 4, which is held in a2 between
    the 6 and the 5: nothing can go home, and only the grace frees it. With ``king``, the
    kings of clubs and diamonds are out too, free in d2 and e1 and wanted."""
    suits = {0: "c", 1: "d", 3: "s"}
    piles = {f"u{s}": " ".join(CODE[13 * k + r] for r in range(13)) for k, s in suits.items()}
    piles |= {f"d{s}": " ".join(CODE[13 * k + 12 - r] for r in range(13)) for k, s in suits.items()}
    piles |= {"uh": "AH 2H 3H", "dh": " ".join(CODE[26 + 12 - r] for r in range(13))}
    piles |= {"a1": "6H", "a2": "4H", "a3": "5H", "b1": "KH", "b2": "QH", "b3": "JH"}
    piles |= {"c1": "TH", "c2": "9H", "c3": "8H", "d1": "7H"}
    if king:
        piles |= {"uc": " ".join(CODE[r] for r in range(12)), "d2": "KC"}
        piles |= {"ud": " ".join(CODE[13 + r] for r in range(12)), "e1": "KD"}
    game = Labyrinth.from_layout(piles, {"rows": 3, "grace": int(grace_used)})
    return game  # type: ignore[return-value]


def test_a_dead_position_is_found_and_a_live_one_is_not() -> None:
    stuck = _blocked(grace_used=True)
    assert not stuck.legal_moves() and lost(stuck)
    graced = _blocked(grace_used=False)
    assert lost(graced) is False  # the grace takes the 4 out: it can still be won
    assert search(graced, HOOKS).verdict == WON
    # seed 73, played to where the stock is out and nothing goes home: 67 cards out
    game = late(73, 0)
    while game.legal_moves() and not game.legal_moves()[0].text.endswith(">g"):
        game.play(game.legal_moves()[0])
    assert lost(game) and search(game, HOOKS).verdict == LOST


def test_a_hint_in_a_dead_position_is_still_a_legal_move() -> None:
    """The hooks try no move from a position proved lost; a hint there still names one
    (before the hint's search skipped such samples it divided by their zero moves)."""
    game = _blocked(grace_used=True, king=True)
    assert [m.text for m in game.legal_moves()] == ["e1>u", "d2>u"] and lost(game)
    hint = suggest(game.view(), "labyrinth", seed=1)
    assert hint is not None and hint[0] in ("e1>u", "d2>u")


def test_the_dead_test_never_fires_on_a_position_that_can_be_won() -> None:
    """On endgames built at random (the garden's tests' generator: stock, gaps, the grace
    used or not) where the engine's plain search finishes: ``lost`` only where it is
    lost, and it fires on many of those."""
    rng = random.Random("labyrinth-dead")
    fired = {WON: 0, LOST: 0}
    verdicts = {WON: 0, LOST: 0}
    for cards, columns, suits in ((30, 4, 4), (24, 3, 2), (20, 3, 1)):
        for _ in range(70):
            game = endgame(Labyrinth, rng, cards, columns, suits)
            plain = search(game, Hooks(), max_nodes=20_000).verdict
            if plain == UNKNOWN:
                continue
            verdicts[plain] += 1
            fired[plain] += lost(game)  # type: ignore[arg-type]
    assert fired[WON] == 0, fired
    assert verdicts[WON] >= 10 and fired[LOST] >= 10, (verdicts, fired)


def test_the_dominance_never_turns_a_win_into_a_loss() -> None:
    """With ``commutes`` always true the garden's dominance plays a card home alone also
    in the lowest row while the stock lasts (version 1 never did); on random playouts the
    plain search finds every such position won before it won after."""
    found = dominances("labyrinth", HOOKS, range(40), moves=range(60, 120), max_nodes=5_000)
    assert found["won>won"] >= 10, found
    lowest = 0
    for seed in range(10):
        game = cast(Labyrinth, new_game("labyrinth", seed=seed))
        while game.p[game.STOCK] and game.legal_moves():
            moves = HOOKS.expand(game)
            first = (game.sc[0] - 1) * W
            if len(moves) == 1 < len(game.legal_moves()) and moves[0].a >= first:
                lowest += moves[0].kind != DEAL
            game.play(moves[0] if moves else game.legal_moves()[0])
    assert lowest >= 5, lowest


#: deals whose verdict needed the dead test (unknown in 10 s before it), and a few others
LATE_SEEDS = (73, 81, 106, 130, 340, 449, 458, 572, 709, 851, 0, 1, 2, 8, 13, 36)


def test_late_positions_of_real_deals_agree_with_the_rules() -> None:
    """From the end of the stage where the stock is nearly out, the solver (the hooks:
    the dominance and the dead test) and the plain search written here reach the same
    verdict wherever the plain one finishes; both verdicts occur."""
    verdicts = {WON: 0, LOST: 0}
    for seed in LATE_SEEDS:
        for stock in (8, 0):
            game = late(seed, stock)
            plain = plain_verdict(game, 60_000)
            if plain == UNKNOWN:
                continue
            assert search(game, HOOKS).verdict == plain, (seed, stock)
            verdicts[plain] += 1
    assert min(verdicts.values()) >= 3, verdicts


def test_depth_first_alone_with_one_order_is_one_pass() -> None:
    """The Labyrinth's solve is depth first alone with one move order: a restart would walk
    the same positions again, so the portfolio runs one pass to the budget."""
    game = new_game("labyrinth", seed=73)
    once = search(game, HOOKS)
    assert once.verdict == LOST
    found = run(game, HOOKS, first_pass=100)
    assert (found.verdict, found.nodes) == (LOST, once.nodes)


def test_positions_of_random_playouts_agree_with_the_rules() -> None:
    """Random playouts of 25 deals, positions with at most 12 cards left to deal: where the
    plain search written here finishes, the dead test never fires on a won position, and
    the solver's verdict is the plain one; both verdicts occur, and the test fires."""
    rng = random.Random("labyrinth-playouts")
    found = {(WON, False): 0, (WON, True): 0, (LOST, False): 0, (LOST, True): 0}
    for seed in range(25):
        game = cast(Labyrinth, new_game("labyrinth", seed=seed))
        while game.legal_moves():
            if len(game.p[game.STOCK]) <= 12 and rng.random() < 0.15:
                plain = plain_verdict(game, 40_000)
                if plain != UNKNOWN:
                    found[plain, lost(game)] += 1
                    assert search(game, HOOKS).verdict == plain, (seed, game.moves)
            game.play(rng.choice(game.legal_moves()))
    assert found[WON, True] == 0, found
    assert found[WON, False] >= 20 and found[LOST, True] >= 10, found
