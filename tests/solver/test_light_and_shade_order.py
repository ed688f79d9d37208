"""Light and Shade's count of the Rivals with the stock's order
(:mod:`server.solver.games.light_and_shade_order`), against the search of
``test_light_and_shade_dead`` written from the rules alone."""

from __future__ import annotations

import functools
import json
from collections import Counter
from pathlib import Path

import pytest

from server.engine import Game, Move, new_game
from server.engine.cards import CODE
from server.engine.games.light_and_shade import STOCK, LightAndShade
from server.solver import solve
from server.solver.beam import beam
from server.solver.games import light_and_shade_crowd as crowd
from server.solver.games import light_and_shade_dead
from server.solver.games import light_and_shade_order as order
from server.solver.games.light_and_shade import HOOKS, LightAndShadeHooks
from server.solver.games.light_and_shade_dead import home_counts
from tests.solver.test_light_and_shade_crowd import BASE
from tests.solver.test_light_and_shade_dead import case, lost_by_rules, near_the_end


def proved(game: Game, *, stock_pins: bool = False, rounds: int = 1) -> bool:
    timed = order.Timed(game.p, home_counts(game))
    timed.pin_all(rounds=rounds, stock_pins=stock_pins)
    return bool(timed.never_home())


def older(game: Game) -> bool:
    return light_and_shade_dead.dead(game) or crowd.dead(game)


def twins() -> tuple[Game, Game]:
    """The lost position of :func:`test_a_card_dealt_onto_the_one_that_must_leave` and its
    won twin: the same cards, the stock's last two swapped."""
    base = BASE | {
        "a1": "KC QD JC TD 9C 8D 7C 6D 5C",
        "r1": "JD",
        "r2": "JH",
        "r3": "JD",
        "r4": "JH",
        "t": "2D 2D 2H 2H 3C",
    }
    # the stock from the bottom up: the last card is dealt first
    lose = LightAndShade.from_layout(base | {"s": "KH KH KD KD QC QS QS 4D QC"})
    win = LightAndShade.from_layout(base | {"s": "KH KH KD KD QC QS QS QC 4D"})
    return lose, win


def test_a_card_dealt_onto_the_one_that_must_leave() -> None:
    """Three Auxiliaries wait for a red two, the fourth (down to a black five) for a red
    four; the four Rivals hold red jacks, which nothing can take. The four red twos lie
    on the talon under a black three, which can leave only onto that red four, still in
    the stock. Dealt first, the four goes onto the five and the three onto it: won.
    Dealt second, under a black queen that has nowhere to go, the queen lies on the
    three for good: lost. The lock proof and the count, which let a stock card leave
    whenever a place is open for it, call both alive; this proof reads the order."""
    lose, win = twins()
    assert not older(lose) and not older(win)
    assert proved(lose) and lost_by_rules(lose) == "lost"
    assert not proved(win, stock_pins=True, rounds=3) and lost_by_rules(win) == "won"
    assert HOOKS.dead(lose) and not HOOKS.dead(win)


def test_it_proves_at_least_what_the_lock_proof_does() -> None:
    """Times only take events away and the count pins more, so every position the lock
    proof calls dead this calls dead too (endgames built at random, positions near the
    end of deals)."""
    dead_ones, alive = near_the_end()
    for game in [case(seed) for seed in range(60)] + dead_ones + alive:
        if light_and_shade_dead.dead(game):
            assert proved(game)


#: the positions :func:`collect_further_up` found, kept (the beams take seconds of CPU)
FURTHER_UP = Path(__file__).with_name("light_and_shade_further_up.json")


def collect_further_up(most: int = 24) -> list[Game]:
    """Positions a narrow beam meets in deals 1 and 6 with 13 to 24 cards in the stock
    (further up than the other proofs are asked), every seventh, that this proof calls
    dead and the lock proof and the count do not: the first ``most`` (the proof, 30 ms a
    position, is asked until they are found). Kept in :data:`FURTHER_UP`: after a change
    to the proofs, ``python -m tests.solver.test_light_and_shade_order`` finds them
    again (:func:`test_the_kept_positions_are_still_further_up` says when)."""
    found: list[Game] = []
    seen = [0]

    class Collect(LightAndShadeHooks):
        def stage_score(self, game: Game, move: Move) -> float | None:
            return None

        def dead(self, game: Game) -> bool:
            return False

        def score(self, game: Game) -> float:
            if 13 <= len(game.p[STOCK]) <= 24:
                seen[0] += 1
                if seen[0] % 7 == 0 and len(found) < most and proved(game) and not older(game):
                    found.append(game.copy())
            return super().score(game)

    for seed in (1, 6):
        beam(new_game("light-and-shade", seed=seed), Collect(), 32)
    return found


def layout_of(game: Game) -> dict[str, str]:
    """``game``'s piles as :meth:`LightAndShade.from_layout` reads them."""
    return {label: " ".join(CODE[c] for c in game.p[i]) for label, i in game.LABELS.items()}


@functools.cache
def further_up() -> list[Game]:
    """The positions :func:`collect_further_up` found, as kept in :data:`FURTHER_UP`."""
    kept = json.loads(FURTHER_UP.read_text())
    return [LightAndShade.from_layout(layout) for layout in kept]


def test_the_kept_positions_are_still_further_up() -> None:
    """What :func:`collect_further_up` kept still meets what it looked for (else find
    them again: its docstring says how), and reads back as it was laid out."""
    found = further_up()
    assert len(found) == 24
    for game in found:
        assert 13 <= len(game.p[STOCK]) <= 24
        assert proved(game) and not older(game), layout_of(game)
        assert LightAndShade.from_layout(layout_of(game)).p == game.p


def test_what_only_this_proves_is_lost_by_the_rules() -> None:
    """Near the end of real deals, positions the older proofs call alive and this dead:
    every one the rules search finishes is lost, and it finishes most."""
    found = further_up()
    near = [g for g in near_the_end()[1] if proved(g) and not older(g)]
    verdicts = Counter(lost_by_rules(game) for game in found + near)
    assert set(verdicts) <= {"lost", "unknown"}, verdicts
    assert verdicts["lost"] >= 10, verdicts


def test_never_along_a_winning_line() -> None:
    """Positions of real winning lines, from the deal, are alive by this proof, whatever
    the stock holds: every third (and every ninth with pins on stock cards too, and more
    rounds)."""
    lines = 0
    for seed in (0, 2):
        result = solve("light-and-shade", seed=seed, budget_s=20)
        if result.verdict != "won":
            continue
        lines += 1
        game = new_game("light-and-shade", seed=seed)
        for n, move in enumerate(result.line):
            if n % 3 == 0:
                assert not proved(game), f"deal {seed} before {move}"
            if n % 9 == 0:
                assert not proved(game, stock_pins=True, rounds=3), f"deal {seed} before {move}"
            game.play(move)
    assert lines == 2


def test_the_hooks_ask_it_up_to_order_stock() -> None:
    """The hooks and the compact beam ask it with at most ``ORDER_STOCK`` cards in the
    stock, the older proofs with at most ``DEAD_STOCK``; the compact beam's dead test is
    the hooks'."""
    from server.solver.games import light_and_shade_fast as fast

    for game in further_up()[:5]:
        n = len(game.p[STOCK])
        assert n <= order.ORDER_STOCK
        assert HOOKS.dead(game)
        s, stock = fast.state_of(game)
        assert fast.dead(s, stock)
    game = new_game("light-and-shade", seed=4)
    assert not HOOKS.dead(game)  # 88 cards in the stock: not asked


#: deals a beam wins in 10 s (their lines are checked through the engine)
WON = (0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 18, 20, 23, 24, 25, 26, 28, 29, 30, 31, 32, 33)


def test_from_the_deal() -> None:
    """Asked once, at the deal, with pins on the stock's cards too, it proves seven of the
    first 300 deals lost: 50 and 60 (no card can ever go home: in 60 a search of all
    7.7 million positions, too slow for here, plays none home), 130 and 218 (which the
    beam proves lost on its own, near the end), and 37, 44 and 242 (a card dealt early
    never leaves the talon, by the count with the foundations' classes). A solve of deal
    60 says ``lost`` at once. It calls no deal the beam wins lost."""
    for seed in (37, 44, 50, 60, 130, 218, 242):
        assert order.dead_from_here(new_game("light-and-shade", seed=seed)), seed
    result = solve("light-and-shade", seed=60, budget_s=10)
    assert result.verdict == "lost" and result.nodes == 0
    for seed in WON:
        assert not order.dead_from_here(new_game("light-and-shade", seed=seed)), seed


def test_the_hooks_ask_it_once_a_position(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hooks ask the proof from the deal once for each position a search starts from,
    however many passes the beam makes."""
    asked: list[int] = []
    real = order.dead_from_here

    def counted(game: Game) -> bool:
        asked.append(1)
        return real(game)

    monkeypatch.setattr(order, "dead_from_here", counted)
    hooks = LightAndShadeHooks()
    game = new_game("light-and-shade", seed=6)
    for width in (16, 64):
        hooks.own_beam(game, width, None, 2_000)
    assert len(asked) == 1


def test_the_cache_tells_deals_apart() -> None:
    """Two positions alike but for the stock's order (the same cards, one pair swapped)
    share the hooks' key, but not the answer from the deal: the lost one of
    :func:`test_a_card_dealt_onto_the_one_that_must_leave` and its won twin, asked of
    one hooks object in turn, both ways round."""
    lose, win = twins()
    hooks = LightAndShadeHooks()
    assert hooks.key(lose) == hooks.key(win)
    assert hooks.lost_from_here(lose) and not hooks.lost_from_here(win)
    hooks = LightAndShadeHooks()
    assert not hooks.lost_from_here(win) and hooks.lost_from_here(lose)


if __name__ == "__main__":
    positions = [layout_of(game) for game in collect_further_up()]
    FURTHER_UP.write_text("[\n" + ",\n".join(json.dumps(p) for p in positions) + "\n]\n")
    print(f"{len(positions)} positions kept in {FURTHER_UP}")
