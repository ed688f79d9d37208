"""Ghosts and challenge tables (``server.app.domain.ghosts``, ``.challenges``), without
Redis or sockets: a ghost's counts at every moment are its replay's, a ghost carries no
card, and a table ranks like a race."""

from __future__ import annotations

import random
from typing import Any

import msgpack
from hypothesis import given, settings
from hypothesis import strategies as st

from server.app.domain import challenges as ch
from server.app.domain import ghosts
from server.app.domain.games import HINT, RESIGN, UNDO, WON, dealt
from server.engine import GAMES, UndoRefused, new_game

START_MS = 1_000_000


def recorded(game_id: str, seed: int, rnd: random.Random, steps: int) -> dict[str, Any]:
    """A replay of random play (moves, undos, hints, perhaps a resignation), with
    random gaps between entries, some of them none."""
    game = new_game(game_id, seed=seed)
    at = START_MS
    moves: list[list[Any]] = []
    for _ in range(steps):
        at += rnd.choice([0, 1, 7, 250, 1900])
        legal = game.legal_moves()
        pick = rnd.random()
        if game.status != "playing":
            break
        if pick < 0.05:
            moves.append([at, HINT])
        elif pick < 0.15:
            try:
                game.undo()
            except UndoRefused:
                continue
            moves.append([at, UNDO])
        elif pick < 0.16:
            moves.append([at, RESIGN])
            break
        elif legal:
            move = rnd.choice(legal)
            game.play(move)
            moves.append([at, move.text])
        else:
            moves.append([at, RESIGN])
            break
    return {"id": "r1", "game": game_id, "seed": seed, "start_ms": START_MS, "player": "ann",
            "moves": moves}  # fmt: skip


def counts_at(replay: dict[str, Any], offset: int) -> tuple[int, int, str]:
    """Cards home, moves and status after every entry timed at or before ``offset``,
    played straight through the engine (what a watcher of the recorded game saw)."""
    game = new_game(replay["game"], seed=replay["seed"])
    status = "playing"
    for at, what in replay["moves"]:
        if at - replay["start_ms"] > offset:
            break
        if what == RESIGN:
            status = "resigned"
        elif what == UNDO:
            game.undo()
        elif what != HINT:
            game.play(what)
            status = game.status
    return game.cards_home(), game.moves, status


@settings(max_examples=60, deadline=None)
@given(
    game_id=st.sampled_from(sorted(GAMES)),
    seed=st.integers(0, 2**32),
    picks=st.integers(0, 2**32),
    steps=st.integers(1, 150),
)
def test_a_ghost_at_any_moment_is_its_replay_at_that_moment(
    game_id: str, seed: int, picks: int, steps: int
) -> None:
    rnd = random.Random(picks)
    replay = recorded(game_id, seed, rnd, steps)
    ghost = ghosts.of_replay(replay)
    last = replay["moves"][-1][0] - START_MS if replay["moves"] else 0
    offsets = {0, last, last + 1, 10**9}
    offsets |= {at - START_MS + d for at, _ in replay["moves"] for d in (-1, 0, 1)}
    for offset in sorted(o for o in offsets if o >= 0):
        assert ghosts.at(ghost, offset) == counts_at(replay, offset), offset
    # what it carries: numbers, a name and an id; never a card, a move or the seed
    text = repr(msgpack.unpackb(msgpack.packb(ghost)))
    for _, what in replay["moves"]:
        if what not in (HINT, UNDO, RESIGN):
            assert f"'{what}'" not in text
    assert set(ghost) == {"name", "replay", "total", "hints", "points", "end"}
    assert all(len(p) == 3 and all(isinstance(x, int) for x in p) for p in ghost["points"])


def test_a_ghost_that_won_ends_at_its_winning_move() -> None:
    # The Gate, seed 3: random play that wins (from this pick of moves)
    game = new_game("gate", seed=3)
    moves: list[list[Any]] = []
    at = START_MS
    rnd = random.Random(5)
    while game.status == "playing" and len(moves) < 2000:
        legal = game.legal_moves()
        if not legal:
            break
        at += 100
        move = rnd.choice(legal)
        game.play(move)
        moves.append([at, move.text])
    replay = {"id": "r", "game": "gate", "seed": 3, "start_ms": START_MS, "player": "ann",
              "moves": moves}  # fmt: skip
    ghost = ghosts.of_replay(replay)
    end = ghost["end"]
    assert game.status == WON and end is not None and end["status"] == WON
    assert end["at"] == moves[-1][0] - START_MS
    assert ghosts.at(ghost, end["at"] - 1)[2] == "playing"


def entry(player: str, status: str, time_ms: int | None, home: int, reached: int, taken: int,
          moves: int = 50) -> dict[str, Any]:  # fmt: skip
    return {"player": player, "ghost": False, "status": status, "time_ms": time_ms,
            "moves": moves, "home": home, "total": 52, "hints": 0, "replay": player,
            "reached_ms": reached, "taken_ms": taken}  # fmt: skip


def test_a_table_ranks_winners_by_time_then_cards_home_then_who_got_there_first() -> None:
    table = ch.rank(
        [
            entry("cy", "resigned", None, 30, 9_000, 1),
            entry("al", WON, 90_000, 52, 90_000, 5),
            entry("bo", WON, 80_000, 52, 80_000, 9),
            entry("di", "lost", None, 30, 5_000, 8),
            entry("ed", "lost", None, 41, 70_000, 2),
        ]
    )
    assert [(e["rank"], e["player"]) for e in table] == [
        (1, "bo"), (2, "al"), (3, "ed"), (4, "di"), (5, "cy"),
    ]  # fmt: skip
    assert [e["place"] for e in table] == [1, 2, 3, 4, 5]


def test_entries_parted_only_by_when_they_were_taken_share_their_place() -> None:
    # a taker who did just as a ghost did (as many home, got there as soon) is listed
    # after it, as taken later, but shares its place; and moves part nobody but winners
    # (fewer moves put one who did nothing above one who tried: g3's two moves)
    table = ch.rank(
        [
            entry("me", "resigned", None, 1, 0, 900, moves=0),
            entry("g1", "resigned", None, 1, 0, 10, moves=0),
            entry("g2", "resigned", None, 3, 4_000, 20, moves=5),
            entry("g3", "resigned", None, 1, 0, 30, moves=2),
        ]
    )
    assert [(e["rank"], e["place"], e["player"]) for e in table] == [
        (1, 1, "g2"), (2, 2, "g1"), (3, 2, "g3"), (4, 2, "me"),
    ]  # fmt: skip


def test_the_verdict_says_by_how_much() -> None:
    fast, slow = entry("a", WON, 60_000, 52, 0, 1), entry("b", WON, 102_000, 52, 0, 2)
    assert ch.verdict(fast, slow) == {
        "beat": True,
        "tied": False,
        "by_ms": 42_000,
        "by_cards": 0,
        "by_moves": None,
    }
    assert ch.verdict(slow, fast) == {
        "beat": False,
        "tied": False,
        "by_ms": 42_000,
        "by_cards": 0,
        "by_moves": None,
    }
    short = entry("c", "lost", None, 40, 0, 3)
    assert ch.verdict(short, slow) == {
        "beat": False,
        "tied": False,
        "by_ms": None,
        "by_cards": 12,
        "by_moves": None,
    }
    level = entry("d", "resigned", None, 40, 100, 4)
    assert ch.verdict(level, short)["beat"] is False  # as many, and got there later
    assert ch.verdict(short, level) == {
        "beat": True,
        "tied": False,
        "by_ms": None,
        "by_cards": 0,
        "by_moves": None,
    }


def test_a_taker_who_did_just_as_the_ghost_did_ties() -> None:
    # as many home, as soon, in as many moves: one place in the table, and a tie, not a
    # defeat for whoever took the challenge later
    ghost = entry("g", "resigned", None, 0, 0, 10, moves=1)
    me = entry("me", "lost", None, 0, 0, 90, moves=1)
    assert [e["place"] for e in ch.rank([ghost, me])] == [1, 1]
    assert ch.verdict(me, ghost) == {
        "beat": False,
        "tied": True,
        "by_ms": None,
        "by_cards": 0,
        "by_moves": None,
    }
    assert ch.verdict(ghost, me)["tied"] is True and ch.verdict(ghost, me)["beat"] is False
    won = entry("g", WON, 61_000, 52, 0, 1, moves=90)
    won_too = entry("me", WON, 61_000, 52, 0, 2, moves=90)
    assert ch.verdict(won_too, won) == {
        "beat": False,
        "tied": True,
        "by_ms": 0,
        "by_cards": 0,
        "by_moves": None,
    }
    fewer = entry("me", WON, 61_000, 52, 0, 3, moves=89)  # the same time in fewer moves
    assert ch.verdict(fewer, won) == {
        "beat": True, "tied": False, "by_ms": 0, "by_cards": 0, "by_moves": 1,
    }  # fmt: skip


def test_a_game_not_won_is_never_decided_by_moves() -> None:
    """Level on cards home, reached as soon (at the deal, say): a tie, however many moves
    each played (fewer moves had decided it: one who did nothing beat one who tried)."""
    ghost = entry("g", "resigned", None, 1, 0, 10, moves=1)
    me = entry("me", "resigned", None, 1, 0, 90, moves=0)
    assert ch.verdict(me, ghost) == {
        "beat": False, "tied": True, "by_ms": None, "by_cards": 0, "by_moves": None,
    }  # fmt: skip
    later = entry("me", "resigned", None, 1, 500, 90, moves=0)  # there later: beaten
    assert ch.verdict(later, ghost) == {
        "beat": False, "tied": False, "by_ms": None, "by_cards": 0, "by_moves": None,
    }  # fmt: skip


def test_a_taker_entry_times_from_the_start_after_the_countdown() -> None:
    live = dealt("gate", 3, "p1", "challenge", START_MS)
    live.finish(WON, START_MS + 61_500)
    mine = ch.entry_of("bob", live, taken_ms=START_MS - 3_000)
    assert mine["time_ms"] == 61_500 and mine["status"] == WON and mine["player"] == "bob"


def test_ids_are_the_same_for_a_replay_and_differ_between_secrets() -> None:
    one = ch.challenge_id(b"s" * 32, "p1", "r1")
    assert one == ch.challenge_id(b"s" * 32, "p1", "r1") and ch.looks_like_id(one)
    assert one != ch.challenge_id(b"t" * 32, "p1", "r1")
    assert one != ch.challenge_id(b"s" * 32, "p1", "r2")


def test_the_share_line_says_the_time_or_the_cards() -> None:
    points = [[0, 0, 0], [102_400, 52, 140]]
    ghost: dict[str, Any] = {"name": "ann", "replay": "r1", "total": 52, "points": points,
                             "end": {"status": WON, "at": 102_400}}  # fmt: skip
    record = ch.make("abcdefghijklmnop", {"id": "r1", "game": "gate", "seed": 3,
                     "kind": "solo", "player": "ann"}, ghost, True, 0, 1000)  # fmt: skip
    assert ch.share_line(record) == "Beat my 1:42 on The Gate · /c/abcdefghijklmnop"
    ghost["end"] = {"status": "resigned", "at": 5}
    points[-1][1] = 30
    assert ch.share_line(record).startswith("Beat my 30/52 cards home on The Gate")
    assert "seed" not in ch.shown(record) and "replay" not in ch.shown(record)
    assert ch.share_line(record, mine=False).startswith("Beat ann's 30/52")
    assert ch.shown(record)["unit"] == "cards"


def test_a_pair_games_challenge_counts_pairs_off() -> None:
    """Nestor takes its cards off in pairs: its share line counts pairs, as its board and
    its game do ("2/26 pairs off", not "4/52 cards home"), and the challenge says so."""
    points = [[0, 0, 0], [5_000, 4, 2]]
    ghost: dict[str, Any] = {"name": "ann", "replay": "r1", "total": 52, "points": points,
                             "end": {"status": "lost", "at": 5_000}}  # fmt: skip
    record = ch.make("abcdefghijklmnop", {"id": "r1", "game": "nestor", "seed": 3,
                     "kind": "solo", "player": "ann"}, ghost, True, 0, 1000)  # fmt: skip
    assert ch.share_line(record) == "Beat my 2/26 pairs off on Nestor · /c/abcdefghijklmnop"
    assert ch.shown(record)["unit"] == "pairs"
