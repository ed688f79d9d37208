"""The terminal's review page from a ``review`` reply, without a server (the replies
themselves are tested end to end in test_review_terminal.py)."""

from __future__ import annotations

from client_cli.model import Model
from client_cli.review import review_page
from client_cli.screen import render_screen
from server.engine import new_game

from .views import snapshot


def test_a_game_left_winnable_after_one_move_says_move() -> None:
    """It said "(after 1 moves)"."""
    page = review_page({"found": "still_winnable", "moves": 1}, 80)
    assert "could still win (after 1 move)." in " ".join(page.split()), page


def test_a_game_resigned_before_its_first_move_says_so() -> None:
    """It read "The game ended in a position a player who knew the face-down cards could still win
    (after 0 moves)."; the browser says the same words."""
    page = review_page({"found": "still_winnable", "status": "resigned", "moves": 0}, 80)
    said = (
        "The game was resigned before its first move: a player who knew the face-down cards could "
        "win this deal."
    )
    assert said in " ".join(page.split()), page
    assert "0 moves" not in page and "could still win" not in page, page
    # a clock that ended a game never moved (a race's limit, a daily's reset): not resigned
    page = review_page({"found": "still_winnable", "status": "timeout", "moves": 0}, 80)
    assert "Time ran out before the game's first move" in " ".join(page.split()), page
    # a move or more: the words as they were
    page = review_page({"found": "still_winnable", "status": "resigned", "moves": 2}, 80)
    assert "could still win (after 2 moves)." in " ".join(page.split()), page


def gate_resigned_after_three_deals() -> tuple[dict[str, object], Model]:
    """A ``review`` reply for a Gate game resigned after three deals, still winnable, and
    the game's own screen at its end."""
    game = new_game("gate", seed=7)
    for _ in range(3):
        game.play("deal")
    reply = {
        "found": "still_winnable",
        "status": "resigned",
        "moves": 3,
        "at": 3,
        "move": 4,
        "step": 3,
        "played": None,
        "better": "t3>t1",
        "continuation": ["t3>t1", "deal"],
        "view": game.view(),
    }
    model = Model(me="ann")
    model.set_solo(snapshot(game), 0)
    return reply, model


def test_a_resigned_games_review_names_the_board_where_it_was_resigned() -> None:
    """A game of 3 moves, resigned: its board was called "the board before move 4", and
    the move that would have kept the win "there kept the win"."""
    reply, _model = gate_resigned_after_three_deals()
    page = " ".join(review_page(reply, 76).split())
    assert "before move 4" not in page, page
    assert "The board where you resigned, after move 3:" in page, page
    assert "Playing t3>t1 there would have kept the win" in " ".join(page.split()), page


def test_the_reviews_board_is_laid_out_as_the_game_draws_it() -> None:
    """Drawn with no height, the review's board put the bars' row on the line the layout
    alone gave it, into the posts' cards (``5♥  b1  b2  b3  b4``, the r pile's cards
    running on beside b4); it is the game's board, as its screen draws it at 80x24."""
    reply, model = gate_resigned_after_three_deals()
    page = review_page(reply, 76).split("\n")
    board = page[page.index("The board where you resigned, after move 3:") + 2 :]
    screen = "\n".join(line.plain.rstrip() for line in render_screen(model, 80, 23, 0))
    assert "    b1  b2  b3  b4" in board, "\n".join(board)
    assert "\n".join(board).strip("\n") in screen, "\n".join(board) + "\n---\n" + screen


def test_the_review_never_breaks_a_word_at_its_hyphen() -> None:
    """At 60 columns it read "...a player who knew the face-" / "down cards could still
    win": docs/client.md promises no message line is broken at a word's hyphen."""
    replies = [
        {"found": "still_winnable", "status": "resigned", "moves": 3},
        {"found": "still_winnable", "status": "resigned", "moves": 0},
        {"found": "lost_at", "status": "lost", "moves": 18, "move": 6, "played": "1+7"},
        {"found": "between", "status": "lost", "moves": 18, "move": 6, "played": "1+7"},
        {"found": "deal_lost", "status": "lost", "moves": 18},
    ]
    for reply in replies:
        for width in range(30, 101):
            page = review_page(reply, width)
            assert "face-down" in " ".join(page.split()), page
            for line in page.splitlines():
                assert not line.endswith("-"), f"{width} columns:\n{page}"
                assert len(line) <= width, f"{width} columns:\n{page}"


def test_a_review_with_no_move_proved_lost_after_it_says_no_between() -> None:
    """With no move proved lost after it, the review went on "Between them the review
    could not decide in its time": "them" named nothing (an outside probe)."""
    open_ended = {"found": "between", "status": "lost", "moves": 18, "move": 6, "played": "1+7"}
    said = " ".join(review_page(open_ended, 80).split())
    assert "the positions after it could not be decided in time." in said, said
    assert "Between them" not in said, said
    bounded = {**open_ended, "lost_by": 9}
    said = " ".join(review_page(bounded, 80).split())
    assert "by move 9 no win was left. Between them the review could not decide" in said, said


def test_a_move_whose_replay_step_differs_says_the_step() -> None:
    """With undos and hints before it, "move 6" was the replay's step 11 and its row 6
    another move (an outside probe): the review says where the replay shows it."""
    reply = {
        "found": "lost_at", "status": "lost", "moves": 18, "move": 6, "at": 5, "step": 11,
        "played": "1+7",
    }  # fmt: skip
    said = " ".join(review_page(reply, 80).split())
    assert "Until move 6 (step 11 of its replay, which counts undos and hints, shows the" in said
    plain = " ".join(review_page({**reply, "step": 5}, 80).split())
    assert "Until move 6 a player who knew" in plain, plain
