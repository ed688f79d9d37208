"""The terminal's review page from a ``review`` reply, without a server (the replies
themselves are tested end to end in test_review_terminal.py)."""

from __future__ import annotations

from client_cli.review import review_page


def test_a_game_left_winnable_after_one_move_says_move() -> None:
    """It said "(after 1 moves)"."""
    page = review_page({"found": "still_winnable", "moves": 1}, 80)
    assert "could still win (after 1 move)." in " ".join(page.split()), page
