"""Positions of every game reached from a seed by a line of moves, for the tests of
``home`` and of stuck positions (engine, solver, server and client). Each was found by a
random playout (``find``, run as ``python -m tests.solver.positions``); the tests check
each is still what it says before relying on it.
"""

from __future__ import annotations

import json
import random
import sys
import time
from dataclasses import dataclass

from server.engine import GAMES, Game, new_game


@dataclass(frozen=True)
class Position:
    seed: int
    #: the moves, separated by spaces
    moves: str

    @property
    def line(self) -> list[str]:
        return self.moves.split()

    def game(self, game_id: str) -> Game:
        """The game reached: the deal of ``seed`` with ``line`` played."""
        game = new_game(game_id, seed=self.seed)
        for move in self.line:
            game.play(move)
        return game


def homed(game: Game) -> list[str]:
    """What ``home`` plays from here: the first legal move that goes home, again and
    again, on a copy."""
    game = game.copy()
    out = []
    while game.status == "playing" and game.home_moves():
        out.append(game.play(game.home_moves()[0]).text)
    return out


#: positions from which ``home`` plays two cards or more
HOME: dict[str, Position] = {
    "gate": Position(36, ""),
    "gate-narrow": Position(26, "deal"),
    "nestor": Position(0, ""),
    "doubles-and-quits": Position(1, ""),
    "babette": Position(7, ""),
    "labyrinth": Position(2, ""),
    "blockade": Position(35, "deal"),
    "blockade-ten": Position(6, ""),
    "light-and-shade": Position(9, ""),
    "wedge": Position(37, "21>20 deal deal"),
}

#: stuck positions (in the games where one can come about while the game is on), each
#: with a legal move to another stuck position: the player can move, round and round
STUCK: dict[str, Position] = {
    "gate": Position(
        1299,
        "t2>b2 r>t2 b1>t4 r>b1 r>b4 deal deal deal deal deal deal deal deal deal deal deal "
        "deal deal deal deal deal deal deal deal deal deal deal deal w>b2 deal deal deal deal "
        "deal deal deal deal deal",
    ),
    "gate-narrow": Position(
        1295,
        "l>t2 deal deal deal w>t2 deal deal deal deal deal deal deal deal deal deal deal deal "
        "deal deal deal deal deal deal deal deal deal deal deal deal deal deal deal deal deal "
        "deal deal deal deal",
    ),
    "blockade": Position(
        36,
        "k1>j1 g1>f f1>j1 deal f1>h1 deal deal e2>b2 i2>c2 f2>c2 c2>h2 h2>f1 a2>f1 deal d2>e2 "
        "deal h2>g2 i2>c2 f2>b2 i1>l2 d2>c2 f1>c2 deal f2>d2 g2>f deal deal deal b3>j3 deal "
        "f3>i3 e3>f deal deal b4>i4 b3>f h4>b3 f4>h3 f3>j4 b3>d3 d3>l4 i4>f3 h3>a4 f3>i4 "
        "i4>f3 deal a4>d4 e4>f e3>h4 deal deal c5>f5 i5>l5 l5>g5 f5>f c4>d5 i4>g5 e4>b5 deal "
        "f5>f d5>f4 f4>b5 j5>a5 j4>c5 g5:2>f5 l5>d5 e5>l5 f5>g5 g5>f5 f5>e5 k5>f5 b5:4>g5 "
        "g5>k5 k5:2>g5 c5:2>j5 g5>k5 g4>g5 k5:1>g4 k5>g5 g5>k5 j5>c5 e5:1>j5 j5>e5 a5:1>j5 "
        "j5>a5 i5>j5 k5:1>i5 i5>g5 f5>i5 c5:1>f5 g5>k5 k5>g5 f5>c5 h5>f5 c5:1>h5 k5>b5 g5>k5 "
        "h5>c5 c5>g5 c4>c5 f5>c4 h4:1>f5 e5:2>h5 h5>e5 d5>h5 e5:2>d5 k5>b5 b5>k5 k5>b5 d5>e5 "
        "a5:1>d5 b5>k5 k5>b5 d5>a5 e5:1>d5 b5>k5 d5>e5 d4:1>d5",
    ),
    "light-and-shade": Position(
        1099,
        "deal deal deal t>a3 deal deal deal deal deal deal deal deal deal deal deal deal deal "
        "deal deal deal deal deal deal deal deal deal deal deal deal deal deal deal deal deal "
        "deal deal deal deal deal deal deal deal deal deal deal deal deal deal deal deal t>a1 "
        "deal deal deal deal deal deal deal deal deal deal deal deal deal deal deal deal deal "
        "deal deal deal deal deal deal deal deal deal deal deal deal deal deal deal deal deal "
        "deal deal deal deal deal",
    ),
    "wedge": Position(
        2960,
        "deal deal deal deal deal deal deal deal deal deal deal deal deal deal deal deal deal "
        "deal deal deal deal deal deal deal deal deal deal deal",
    ),
}

#: positions where no legal move plainly gets on, but a line of moves does: the stuck
#: check searches them and finds the way
CHECKED: dict[str, Position] = {
    "gate": Position(
        22,
        "l>b4 r>t3 r>t3 deal l>b4 r>t2 deal b2>f l>b2 t2>t3 l>t2 deal r>t4 deal deal deal "
        "deal deal deal deal deal t3>f w>t3 deal t3>f deal deal deal w>t4 deal deal b1>t4 "
        "r>b1 deal deal deal w>f deal w>t4 deal b3>t4 deal deal deal deal deal deal deal",
    ),
    "gate-narrow": Position(
        14,
        "r>b2 b1>b2 r>b1 deal deal deal deal deal deal deal deal deal deal deal deal deal "
        "deal deal deal w>b1 deal b3>f t2>f l>t2 l>b3 deal deal deal deal deal deal deal deal "
        "deal w>f deal deal deal deal deal deal deal deal w>b2 t2>b2 deal",
    ),
    "babette": Position(
        10,
        "deal deal deal deal deal d6>d c6>d deal deal g8>u deal d9>u deal deal d11>u e11>u "
        "deal deal e10>u",
    ),
    "labyrinth": Position(
        73,
        "a1>d deal deal d2>d h2>u b1>u deal deal deal e4>d h1>d i4>u deal i4>d deal deal g5>u "
        "deal deal g6>d deal deal a7>d e7>u j7>d b7>u d7>u f7>u deal e7>u deal deal e8>d j1>d "
        "a8>d b8>d j2>u j3>u i8>u deal",
    ),
    "blockade": Position(
        8,
        "e1>c1 deal deal j2>c2 a2>b2 j1>c2 a1>j1 f2>c2 l2>c2 deal deal deal e4>d4 deal k4>i4 "
        "deal k4>e4 deal deal e4>i5 k5>a4 k4>f l5>j5 f5>i5 a4>i5 deal e5>f5 deal l5>j5 i5>e4 "
        "f5>l4 h5>f h4>b5 j5>f j5>f deal deal i6>g6 b6>f j6>f g6>i5 i5>e5 deal b6>f",
    ),
    "light-and-shade": Position(
        1,
        "r3>a2 r2>a4 deal t>a4 deal t>r3 deal deal t>r2 t>a1 r2>a3 deal r3>a3 t>r3 deal t>r2 "
        "deal deal deal t>a1 deal t>a1 deal deal deal deal deal deal deal deal deal deal deal "
        "deal deal deal deal deal deal deal deal deal deal deal deal deal deal t>a4 deal deal "
        "deal deal deal deal deal deal t>a1 t>a3 deal deal a1>f deal a1>f a1>f deal deal deal "
        "a1>f deal a1>f r3>a1 deal deal deal t>r3 deal deal deal t>a4 deal deal deal deal "
        "deal deal deal deal deal deal deal deal deal deal deal deal deal deal deal deal deal "
        "deal deal t>a1 r2>a1 t>r2 t>a4 deal deal deal deal deal deal deal deal deal",
    ),
    "wedge": Position(
        14,
        "22>17 24>22 deal deal 23>24 22>23 17>22 21>17 deal deal deal deal deal deal deal "
        "deal deal deal w>23 deal deal deal deal deal w>f deal deal deal w>f 23>f deal 24>f "
        "w>24 deal 24>20 deal 21>24 deal deal 9>24 deal 23>24 deal 20>23 23>20 deal",
    ),
}

#: lines that end the game lost, in the games where a position with no way forward has
#: no legal move either (no position there is ever stuck while the game is on)
LOST: dict[str, Position] = {
    "nestor": Position(16, "1+5 reserve reserve reserve reserve 8+r4"),
    "doubles-and-quits": Position(0, "4+5"),
    "babette": Position(
        1,
        "e1>d deal h2>d e2>d deal h3>d deal deal e5>u a5>d deal b6>d deal deal b8>u deal h9>d "
        "deal b7>u h10>d deal g11>u deal a12>u deal b5>u e13>d a13>d f13>u redeal b1>d deal "
        "deal g3>d deal d4>u g2>u deal g5>d b5>d deal deal c7>u deal deal deal a10>u deal "
        "redeal deal deal deal g4>d f4>u deal deal deal deal a8>u deal a9>u deal",
    ),
    "labyrinth": Position(
        73,
        "a1>d deal deal d2>d h2>u b1>u deal deal deal e4>d h1>d i4>u deal i4>d deal deal g5>u "
        "deal deal g6>d deal deal a7>d e7>u j7>d b7>u d7>u f7>u deal e7>u deal deal e8>d j1>d "
        "a8>d b8>d j2>u j3>u i8>u deal d2>g",
    ),
    "blockade-ten": Position(
        14,
        "deal deal deal deal deal deal deal c5>d b5>u deal deal deal j6>u deal deal deal deal "
        "g8>d deal deal d9>u g8>u g1>d f1>d i1>d i2>d b1>d b2>d i8>d b9>d",
    ),
}


#: a position whose stuck check looks at thousands of positions before it finds the way
#: on (a Wedge whose waste holds what the board wants, deep under a cycle of moves)
LONG_SEARCH = (
    "wedge",
    Position(
        13,
        "deal w>24 24>19 deal 19>24 24>19 19>24 deal 20>19 deal deal w>20 w>20 20>21 24>20 "
        "deal 19>24 24>19 20>24 w>20 deal deal deal deal w>23 deal deal deal deal deal deal "
        "deal w>22 deal deal deal deal deal deal deal deal deal w>22 deal deal",
    ),
)


#: a position from which ``home`` plays a card home and leaves the game stuck
HOME_THEN_STUCK = (
    "wedge",
    Position(
        870,
        "deal deal deal deal deal deal deal deal deal deal deal deal deal deal deal deal deal "
        "deal deal deal deal deal deal deal deal w>21 deal deal deal",
    ),
)


def find(game_id: str, want: str, tries: int = 200) -> Position | None:
    """A position of ``game_id`` (``want``: home, stuck, checked or lost) on a random
    playout from one of the first ``tries`` seeds, the one with the shortest line."""
    from server.solver.stuck import check

    best: Position | None = None
    for seed in range(tries):
        rng = random.Random(seed)
        game = new_game(game_id, seed=seed)
        line: list[str] = []
        found = False
        while game.status == "playing" and len(line) < 700:
            if want == "home":
                found = len(homed(game)) >= 2
            elif not game.plain_progress():
                verdict = check(game.view())
                found = (
                    verdict.stuck
                    if want == "stuck"
                    else (
                        want == "checked" and verdict.why == "progress" and verdict.positions < 500
                    )
                )
            if found:
                break
            move = rng.choice(game.legal_moves())
            line.append(game.play(move).text)
        found = found or (want == "lost" and game.status == "lost")
        if found and (best is None or len(line) < len(best.line)):
            best = Position(seed, " ".join(line))
    return best


if __name__ == "__main__":
    started = time.perf_counter()
    wanted = sys.argv[1]
    for name in sys.argv[2:] or list(GAMES):
        print(
            name, json.dumps(find(name, wanted).__dict__), f"{time.perf_counter() - started:.0f} s"
        )
