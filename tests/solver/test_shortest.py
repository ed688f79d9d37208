"""A* for shorter lines (``server/solver/shortest.py``): what it returns wins, is no
longer than the line it was given, and when it says *proved*, a breadth-first search
written here finds nothing shorter; a wandering line's detours cut before it starts."""

from __future__ import annotations

import time

from server.engine import Game, new_game
from server.engine.keys import packed_key
from server.solver import check_line, hooks_for, solve
from server.solver.certify import first_winnable, shorter_known, shortest_line
from server.solver.hooks import Hooks
from server.solver.shortest import best_first, shortcut


def fewest_moves(game: Game, limit: int) -> int | None:
    """The fewest moves that win from ``game``, if at most ``limit``: breadth first over
    every legal move, positions by the engine's own key."""
    layer = [game.copy()]
    seen = {packed_key(game)}
    for depth in range(limit + 1):
        if any(g.cards_home() == g.total for g in layer):
            return depth
        nxt = []
        for g in layer:
            for move in g.legal_moves():
                h = g.copy()
                h.play(move)
                k = packed_key(h)
                if k not in seen:
                    seen.add(k)
                    nxt.append(h)
        layer = nxt
    return None


def tail_of(game_id: str, seed: int, keep: int) -> tuple[Game, list[str], list[str]]:
    """The deal played along its first winning line to ``keep`` moves before the end:
    the position, the moves to it, and the rest of the line."""
    line = solve(game_id, seed=seed, budget_s=30).line
    game = new_game(game_id, seed=seed)
    for move in line[:-keep]:
        game.play(move)
    return game, line[:-keep], line[-keep:]


def test_a_star_proves_the_shortest_line_from_near_the_end() -> None:
    # the Gate's deals 1 to 4, twenty moves from the end: deal 4's first line is a
    # move longer than it need be there
    proved = shorter = 0
    for seed in range(1, 5):
        game, before, rest = tail_of("gate", seed, keep=20)
        found = best_first(game, hooks_for("gate"), known=rest, max_nodes=50_000)
        assert len(found.line) <= len(rest)
        check_line("gate", before + found.line, seed=seed)
        if found.proved:
            proved += 1
            shorter += len(found.line) < len(rest)
            fewest = fewest_moves(game, len(found.line))
            assert fewest == len(found.line), seed
    assert proved == 4
    assert shorter >= 1  # the first line is not always the shortest


def test_without_a_bound_a_star_finds_the_shortest_itself() -> None:
    game, _, rest = tail_of("gate", 2, keep=30)
    found = best_first(game, hooks_for("gate"), max_nodes=50_000)
    assert found.proved and len(found.line) == fewest_moves(game, len(rest))


def test_a_star_that_runs_out_says_so() -> None:
    game = new_game("gate", seed=1)
    line = solve("gate", seed=1).line
    found = best_first(game, Hooks(), known=line, max_nodes=500)
    assert (found.line, found.proved) == (line, False)
    assert found.nodes <= 500 + 50


def test_lower_bounds_never_overestimate_along_winning_lines() -> None:
    for game_id in (
        "gate",
        "wedge",
        "babette",
        "labyrinth",
        "blockade-ten",
        "blockade",
        "light-and-shade",
        "nestor",
        "doubles-and-quits",
        "gate-narrow",
    ):
        hooks = hooks_for(game_id)
        for seed in range(1, 60):
            result = solve(game_id, seed=seed, budget_s=5)
            if result.verdict != "won":
                continue
            game = new_game(game_id, seed=seed)
            left = len(result.line)
            assert hooks.lower_bound(game) <= left, (game_id, seed)
            for move in result.line:
                game.play(move)
                left -= 1
                assert hooks.lower_bound(game) <= left, (game_id, seed, game.moves)
            break
        else:
            raise AssertionError(f"no deal of {game_id} won")


def line_positions(game: Game, line: list[str]) -> list[object]:
    """Every position along ``line`` from ``game``, whole (:meth:`Game.key`)."""
    pos = game.copy()
    keys: list[object] = [pos.key()]
    for text in line:
        pos.play(text)
        keys.append(pos.key())
    return keys


def test_a_wandering_line_is_cut_short_and_still_wins() -> None:
    # depth first's first win of The Wedge's deal 8 wanders: over a thousand moves,
    # where the deal's lines run to about 140
    game = new_game("wedge", seed=8)
    line = solve("wedge", seed=8).line
    assert len(line) > 1000
    short = shortcut(game, line)
    assert len(short) < 200
    check_line("wedge", short, seed=8)
    assert game.moves == 0  # left as it was
    # no detour of a move is left: no position twice, and from each, no move reaches a
    # position of the line further on than the next
    keys = line_positions(game, short)
    assert len(set(keys)) == len(keys)
    where = {key: i for i, key in enumerate(keys)}
    pos = game.copy()
    for i, text in enumerate(short):
        for move in pos.legal_moves():
            pos.play(move)
            assert where.get(pos.key(), -1) <= i + 1, (i, move.text)
            pos.pop()
        pos.play(text)


def test_two_moves_ahead_cuts_more_and_from_any_position() -> None:
    # from the twentieth move of The Wedge's deal 1 (as a review starts from a player's
    # position): the line's rest, cut a move ahead, then two
    line = solve("wedge", seed=1).line
    game = new_game("wedge", seed=1)
    for text in line[:20]:
        game.play(text)
    rest = line[20:]
    one = shortcut(game, rest)
    two = shortcut(game, rest, ahead_until=float("inf"))
    assert len(two) < len(one) < len(rest) // 4
    for cut in (one, two):
        check_line("wedge", line[:20] + cut, seed=1)
    # and A* starts from the cut line: bounded by it, what it gives is no longer
    found = best_first(game, hooks_for("wedge"), known=rest, max_nodes=10)
    assert len(found.line) <= len(one) and not found.proved
    check_line("wedge", line[:20] + found.line, seed=1)


def test_solve_shortest_gives_a_checked_line_no_longer() -> None:
    plain = solve("gate", seed=4)
    short = solve("gate", seed=4, shortest=True, budget_s=1)
    assert short.checked and len(short.line) <= len(plain.line)


# -- the games' own bounds (server/solver/bounds.py) ------------------------------------

#: every card of a suit but those in ``held``, on its foundation from the ace up
_SUITS = "CDHS"
_RANKS = "A23456789TJQK"


def _homes(game_cls: type[Game], held: str) -> dict[str, str]:
    """The foundations of a hand-built one-pack endgame: each suit from its ace up to
    below the lowest card of it in ``held`` (the cards placed elsewhere)."""
    out = {}
    codes = held.split()
    for s in _SUITS:
        ranks = [_RANKS.index(c[0]) for c in codes if c[1] == s]
        top = min(ranks) if ranks else 13
        out[f"f{s.lower()}"] = " ".join(f"{r}{s}" for r in _RANKS[:top])
    return out


def _endgame(game_cls: type[Game], piles: dict[str, str]) -> Game:
    held = " ".join(piles.values())
    return game_cls.from_layout({**_homes(game_cls, held), **piles})


def test_over_lower_counts_cards_above_a_lower_one_of_their_suit() -> None:
    from server.engine.cards import parse_card
    from server.solver.bounds import over_lower

    def count(text: str) -> int:
        return over_lower([parse_card(c) for c in text.split()])

    assert count("") == 0
    assert count("9H 5H 2H") == 0  # each lower one on top: home in turn
    assert count("2H 5H 9H") == 2
    assert count("2H 9S 5H 8S") == 1  # the 5H; the 8S lies above the 9S
    assert count("5C 4D 3C") == 0


def test_the_gates_bound_counts_posts_the_deal_and_the_waste() -> None:
    from server.engine.games.gate import Gate

    hooks = hooks_for("gate")
    # 5H lowest in the left post, over the 2H: it must go to a bar before the 2H goes
    # home; the waste's 7H and 4H lie over the 3H, and the stock is out
    game = _endgame(
        Gate,
        {
            "l": "2H 5H",
            "w": "3H 7H 4H",
            "t1": "6H",
            "t2": "8H",
            "t3": "9H",
            "t4": "TH",
            "b1": "JH",
            "b2": "QH",
            "r": "KH",
        },
    )
    assert hooks.lower_bound(game) == 12 + 1 + 1
    assert fewest_moves(game, 30) == 15
    # with a stock, the deal it needs counts, blocked waste or not
    game = _endgame(
        Gate,
        {
            "l": "2H",
            "r": "7H 6H",
            "s": "5H",
            "t1": "3H",
            "t2": "4H",
            "t3": "KH",
            "t4": "QH",
            "b1": "JH",
            "b2": "TH",
            "b3": "9H",
            "b4": "8H",
        },
    )
    assert hooks.lower_bound(game) == 12 + 1
    assert fewest_moves(game, 20) == 13


def test_the_wedges_bound_counts_a_deal_a_stock_card_and_the_blocked_waste() -> None:
    from server.engine.games.wedge import Wedge

    hooks = hooks_for("wedge")
    # the stock's 3 cards each need a deal; the waste's 6S lies over the 4S
    game = _endgame(
        Wedge,
        {
            "w": "4S 6S",
            "s": "5S 3S 2S",
            "24": "7S",
            "19": "8S",
            "20": "9S",
            "23": "TS",
            "22": "JS",
            "21": "QS",
            "18": "KS",
        },
    )
    assert hooks.lower_bound(game) == 12 + 3 + 1
    # a shortest line (breadth first cannot finish here: piles move between the many
    # vacancies): the 6S off the waste, and every other move a deal or a card home
    line = ["w>1", "deal", "w>f", "deal", "w>f", "w>f", "deal", "w>f", "1>f"]
    line += ["24>f", "19>f", "20>f", "23>f", "22>f", "21>f", "18>f"]
    for move in line:
        game.play(move)
    assert game.status == "won" and len(line) == 16


def test_the_garden_bound_counts_the_deals_left() -> None:
    for game_id, rows in (("babette", 8), ("labyrinth", 10), ("blockade-ten", 10)):
        game = new_game(game_id, seed=5)
        stock = len(game.p[game.LABELS["s"]])
        plain = Hooks.lower_bound(hooks_for(game_id), game)
        assert hooks_for(game_id).lower_bound(game) == plain + -(-stock // rows), game_id


def test_bounds_never_exceed_the_fewest_moves_left_near_the_end() -> None:
    # the true distance, by breadth first, from each of the last positions of a real
    # winning line (as far back as it finishes in a second or so): every bound at or
    # under it. (The Wedge's ends, piles moving among many vacancies, are too wide for
    # breadth first: its bound is checked by hand above and along whole lines.)
    for game_id, keep in (
        ("gate", 14),
        ("gate-narrow", 10),
        ("babette", 14),
        ("labyrinth", 14),
        ("blockade-ten", 12),
    ):
        hooks = hooks_for(game_id)
        seed = next(s for s in range(1, 20) if solve(game_id, seed=s, budget_s=5).verdict == "won")
        game, _, rest = tail_of(game_id, seed, keep)
        for move in rest:
            fewest = fewest_moves(game, keep)
            assert fewest is not None and hooks.lower_bound(game) <= fewest, (game_id, game.moves)
            game.play(move)


def test_a_star_proves_garden_lines_shortest_that_the_plain_bound_does_not() -> None:
    # with a deal counted for every row's worth of the stock, A* proves whole deals of
    # The Blockade in rows of ten shortest (seeds 4 and 8: their first lines are 1 and 4
    # moves longer); with a card a move alone, it runs out of positions first
    hooks = hooks_for("blockade-ten")

    class Plain(type(hooks)):  # type: ignore[misc]
        def lower_bound(self, game: Game) -> int:
            return Hooks.lower_bound(self, game)

    for seed in (4, 8):
        line = solve("blockade-ten", seed=seed, budget_s=10).line
        game = new_game("blockade-ten", seed=seed)
        found = best_first(game, hooks, known=line, max_nodes=5_000)
        assert found.proved and len(found.line) < len(line), seed
        check_line("blockade-ten", found.line, seed=seed)
        assert not best_first(game, Plain(), known=line, max_nodes=5_000).proved
        # along the proved line, the bound is never above the moves left
        left = len(found.line)
        for move in found.line:
            assert hooks.lower_bound(game) <= left
            game.play(move)
            left -= 1


def test_the_search_for_par_starts_from_the_board_players_shorter_win() -> None:
    """The Gate's deal of seed 11 is certified by a line of 127 moves, and A* bounded by
    it found 126 in its budget, where the board-only player (the hint engine, seeing only
    the board) wins it in about 107: a player following the hints beat par by eleven
    moves. The search for par now starts from that win: par is no longer than it, and
    its line wins through the engine."""
    first = first_winnable("gate", [11], 10)
    assert first is not None
    board = shorter_known("gate", 11, first["line"], time.perf_counter() + 30)
    check_line("gate", board, seed=11)
    assert len(board) < len(first["line"]) - 10
    # (the board's first try always runs, whatever the budget's share leaves for more:
    # par is then under the certifying line however slow the machine)
    found = shortest_line("gate", 11, first["line"], 2)
    check_line("gate", found["line"], seed=11)
    assert found["par"] < len(first["line"]) - 10
