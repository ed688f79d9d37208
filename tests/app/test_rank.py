"""The race's results (``server.app.domain.room.rank``), without Redis or sockets: who
stays above whom."""

from __future__ import annotations

from server.app.domain.games import RESIGN, RESIGNED, TIMEOUT, LiveGame, dealt
from server.app.domain.results import rank
from server.app.domain.room import Racer

START_MS = 10_000


def ended(owner: str, result: str, at_ms: int) -> LiveGame:
    live = dealt("gate", 7, owner, "race", START_MS, room="ABCDEF", race=1)
    live.finish(result, at_ms)
    return live


def test_a_racer_who_left_ranks_below_one_who_stayed_with_the_same_result() -> None:
    # ann joined first and left the room (resigned at 0 cards home); bob joined later,
    # stayed and resigned at 0 cards home too: bob is above ann
    ann = Racer("p-ann", "ann", joined_ms=1_000, gid="g1", left=True)
    bob = Racer("p-bob", "bob", joined_ms=2_000, gid="g2")
    entries = [
        (ann, ended("p-ann", RESIGNED, START_MS + 5_000)),
        (bob, ended("p-bob", RESIGNED, START_MS + 9_000)),
    ]
    results = rank(entries, START_MS)
    assert [(r["rank"], r["player"]) for r in results] == [(1, "bob"), (2, "ann")]
    assert all(r["home"] == 0 and r["total"] == 52 and r["resigned"] for r in results)
    # and the table says why: ann left (bob's entry has no such field)
    assert results[1].get("left") is True and "left" not in results[0]


def test_leaving_goes_below_staying_whatever_the_order_given() -> None:
    # the order of the room's racers (ann listed last here) changes nothing; a racer
    # who stayed and timed out at the same count is above the one who left as well
    ann = Racer("p-ann", "ann", joined_ms=1_000, gid="g1", left=True)
    bob = Racer("p-bob", "bob", joined_ms=2_000, gid="g2")
    cid = Racer("p-cid", "cid", joined_ms=3_000, gid="g3")
    entries = [
        (cid, ended("p-cid", TIMEOUT, START_MS + 60_000)),
        (bob, ended("p-bob", RESIGNED, START_MS + 9_000)),
        (ann, ended("p-ann", RESIGNED, START_MS + 5_000)),
    ]
    assert [r["player"] for r in rank(entries, START_MS)] == ["bob", "cid", "ann"]


def test_cards_home_still_come_before_having_left() -> None:
    # a racer who left with more cards home is above one who stayed with fewer: leaving
    # breaks a tie, it does not undo a better result
    ann = Racer("p-ann", "ann", joined_ms=2_000, gid="g1", left=True)
    bob = Racer("p-bob", "bob", joined_ms=1_000, gid="g2")
    ann_game = dealt("gate", 0, "p-ann", "race", START_MS, room="ABCDEF", race=1)
    ann_game.apply_entry("r>f", START_MS + 2_000)  # gate's deal 0: cards home at once
    ann_game.apply_entry(RESIGN, START_MS + 5_000)
    bob_game = dealt("gate", 0, "p-bob", "race", START_MS, room="ABCDEF", race=1)
    bob_game.apply_entry(RESIGN, START_MS + 9_000)
    assert ann_game.game.cards_home() > bob_game.game.cards_home()
    entries = [(bob, bob_game), (ann, ann_game)]
    assert [r["player"] for r in rank(entries, START_MS)] == ["ann", "bob"]


def test_racers_parted_only_by_who_joined_first_share_their_place() -> None:
    # ann and bob resign alike at the deal: the table still orders them by who joined
    # first (1, 2), but their place is shared (1, 1); cid, with a card home, is above
    # both, and dee, who left, below them
    ann = Racer("p-ann", "ann", joined_ms=1_000, gid="g1")
    bob = Racer("p-bob", "bob", joined_ms=2_000, gid="g2")
    cid = Racer("p-cid", "cid", joined_ms=3_000, gid="g3")
    dee = Racer("p-dee", "dee", joined_ms=500, gid="g4", left=True)
    cid_game = dealt("gate", 0, "p-cid", "race", START_MS, room="ABCDEF", race=1)
    cid_game.apply_entry("r>f", START_MS + 2_000)  # gate's deal 0: cards home at once
    cid_game.apply_entry(RESIGN, START_MS + 5_000)
    entries = [
        (ann, ended("p-ann", RESIGNED, START_MS + 5_000)),
        (bob, ended("p-bob", RESIGNED, START_MS + 6_000)),
        (cid, cid_game),
        (dee, ended("p-dee", RESIGNED, START_MS + 4_000)),
    ]
    results = rank(entries, START_MS)
    assert [(r["rank"], r["place"], r["player"]) for r in results] == [
        (1, 1, "cid"), (2, 2, "ann"), (3, 2, "bob"), (4, 4, "dee"),
    ]  # fmt: skip
