"""Light and Shade's proof that counts the Rivals
(:mod:`server.solver.games.light_and_shade_crowd`), against the search of
``test_light_and_shade_dead`` written from the rules alone."""

from __future__ import annotations

from collections import Counter

from server.engine import Game, new_game
from server.engine.games.light_and_shade import STOCK, LightAndShade
from server.solver import solve
from server.solver.games import light_and_shade_crowd as crowd
from server.solver.games import light_and_shade_dead
from server.solver.games.light_and_shade import HOOKS
from tests.solver.test_light_and_shade_dead import case, lost_by_rules, near_the_end


def crowded(game: Game) -> bool:
    return crowd.dead(game)


#: every red-ace foundation built to the black tens; the black aces' group out, its cards
#: from the black threes up in four Auxiliaries, each run from a king down to a three
BASE = {
    "f1": "AD 2C 3D 4C 5D 6C 7D 8C 9D TC",
    "f2": "AD 2C 3D 4C 5D 6C 7D 8C 9D TC",
    "f3": "AH 2S 3H 4S 5H 6S 7H 8S 9H TS",
    "f4": "AH 2S 3H 4S 5H 6S 7H 8S 9H TS",
    "f5": "AC",
    "f6": "AC",
    "f7": "AS",
    "f8": "AS",
    "a1": "KC QD JC TD 9C 8D 7C 6D 5C 4D 3C",
    "a2": "KC QD JC TD 9C 8D 7C 6D 5C 4D 3C",
    "a3": "KS QH JS TH 9S 8H 7S 6H 5S 4H 3S",
    "a4": "KS QH JS TH 9S 8H 7S 6H 5S 4H 3S",
}


def test_five_cards_for_four_rivals() -> None:
    """Every Auxiliary waits for a red two, and the four red twos lie under five cards of
    the other group on the talon: nothing can be built on before a two goes home (every
    Auxiliary's top is a black three), and nothing empties an Auxiliary, so each of the
    five can only go into a Rival and stay there, and four Rivals hold four. The plain
    lock proof sees a free Rival for every card and calls it alive; the count calls it
    dead, and the rules say lost. With four above the twos it is won, and the count says
    nothing."""
    five = LightAndShade.from_layout(
        BASE | {"t": "2D 2D 2H 2H JD JH JD JH QC", "s": "QS QS KD KD KH KH QC"}
    )
    assert five.legal_moves() and not light_and_shade_dead.dead(five)
    assert crowded(five) and lost_by_rules(five) == "lost"
    assert HOOKS.dead(five)  # the hooks ask the count when the lock proof finds nothing
    four = LightAndShade.from_layout(
        BASE | {"t": "2D 2D 2H 2H JD JH JD JH", "s": "QS QS KD KD KH KH QC QC"}
    )
    assert not crowded(four) and lost_by_rules(four) == "won"


def test_it_proves_at_least_what_the_lock_proof_does() -> None:
    """A pin only takes events away, so every position the lock proof calls dead the
    count calls dead too (endgames built at random, positions near the end of deals)."""
    dead_ones, alive = near_the_end()
    for game in [case(seed) for seed in range(60)] + dead_ones + alive:
        if light_and_shade_dead.dead(game):
            assert crowded(game)


def test_what_only_the_count_proves_is_lost_by_the_rules() -> None:
    """Near the end of real deals, positions the lock proof calls alive and the count
    dead: every one the search here finishes is lost."""
    _, alive = near_the_end()
    verdicts = Counter(lost_by_rules(game) for game in alive if crowded(game))
    assert set(verdicts) <= {"lost", "unknown"}, verdicts
    assert verdicts["lost"] >= 5, verdicts


def test_never_crowded_along_a_winning_line() -> None:
    """Every position of a real winning line, from the deal, is alive by the count."""
    for seed in (0, 2):
        result = solve("light-and-shade", seed=seed, budget_s=30)
        assert result.verdict == "won"
        game = new_game("light-and-shade", seed=seed)
        for n, move in enumerate(result.line):
            if n % 3 == 0 or len(game.p[STOCK]) < 30:
                assert not crowded(game), f"deal {seed} before move {n}, {move}"
            game.play(move)


def test_a_rival_that_can_leave_is_not_counted() -> None:
    """Four cards above the red twos, and a black three in a Rival: it can go onto a red
    four at the top of an Auxiliary, freeing its Rival, so four Rivals are enough for
    the four (won by the rules; the count must not call it dead)."""
    run = "KS QH JS TH 9S 8H 7S 6H 5S 4H"
    game = LightAndShade.from_layout(
        BASE
        | {"a3": run, "a4": run, "r1": "3S", "t": "2D 2D 2H 2H JD JH JD JH"}
        | {"s": "3S QS QS KD KD KH KH QC QC"}
    )
    assert not crowded(game) and lost_by_rules(game) == "won"


def test_an_auxiliary_that_can_empty_frees_the_rivals() -> None:
    """Five cards above the red twos that nothing can be built on (four red kings, and a
    red jack whose black queens lie under the twos), but the red jack in ``a4`` can go
    home at once, and an empty Auxiliary takes a Rival's card: none is stuck (won by the
    rules; the count must not call it dead)."""
    game = LightAndShade.from_layout(
        BASE | {"a4": "JD", "t": "QC QC QS QS 2D 2D 2H 2H KD KD KH KH JH", "s": "JD JH"}
    )
    assert not crowded(game) and lost_by_rules(game) == "won"
