"""What a typed line means: moves, short forms, keys, by context."""

from __future__ import annotations

from client_cli.commands import Action, completions, interpret
from server.engine import new_game

from .views import snapshot


def _gate() -> tuple[list[str], set[str]]:
    snap = snapshot(new_game("gate", seed=1234))
    return snap["legal"], {p["label"] for p in snap["view"]["piles"]}


def test_moves_ignore_case_and_spaces() -> None:
    legal, labels = _gate()
    assert legal == ["b4>t3", "b1>b2", "l>t4", "r>t4", "deal"]
    assert interpret(" B4 > T3 ", "play", legal, labels) == Action("move", "b4>t3")


def test_a_label_alone_is_the_one_move_from_there() -> None:
    legal, labels = _gate()
    assert interpret("l", "play", legal, labels) == Action("move", "l>t4")
    assert interpret("b1", "play", legal, labels) == Action("move", "b1>b2")
    assert interpret("t1", "play", legal, labels).note == "no legal move starts at t1"


def test_a_label_with_several_moves_asks_which() -> None:
    legal = ["20>7", "20>9", "20>f", "w>7"]
    action = interpret("20", "play", legal, {"20", "7", "9", "w", "s"})
    assert action.kind == "say" and action.note == "20: which move? 20>7, 20>9, 20>f"


def test_a_counted_move_starts_at_its_cell() -> None:
    # The Blockade once the stock is out: c3's run whole, or its top card alone
    legal = ["c3>e2", "c3:1>e2", "a1>f"]
    action = interpret("c3", "play", legal, {"c3", "e2", "a1"})
    assert action.kind == "say" and action.note == "c3: which move? c3>e2, c3:1>e2"


def test_a_pair_counts_for_both_its_piles() -> None:
    labels = {str(n) for n in range(1, 21)}
    assert interpret("11", "play", ["6+11", "14+19"], labels) == Action("move", "6+11")
    assert interpret("6", "play", ["6+11", "6+12"], labels).kind == "say"


def test_anything_else_goes_to_the_server_which_says_why() -> None:
    legal, labels = _gate()
    assert interpret("l>t1", "play", legal, labels) == Action("move", "l>t1")
    assert interpret("d", "play", legal, labels) == Action("move", "d")  # the server's alias


def test_new_in_play_says_when_it_deals() -> None:
    """``new blockade`` mid-game went to the server as the move "newblockade"."""
    legal, labels = _gate()
    for typed in ("new blockade", "new", "n"):
        note = interpret(typed, "play", legal, labels).note
        assert note == f"{typed.split()[0]} deals a new game once this one is over (resign ends it)"
    assert interpret("new wedge", "over", legal, labels) == Action("new", "wedge")


def test_keys_by_context() -> None:
    assert interpret("u", "play").kind == "undo"
    assert interpret("h", "lobby").kind == "help"
    assert interpret("q", "finished").kind == "quit"
    assert interpret("r", "lobby").kind == "ready"
    assert interpret("s", "lobby").kind == "start"
    assert interpret("m", "finished").kind == "rematch"
    assert interpret("n", "over") == Action("new", None)
    assert interpret("new Nestor", "over") == Action("new", "nestor")
    assert interpret("resign", "play").kind == "resign"
    assert interpret("r", "countdown").kind == "say"
    assert interpret("", "play").kind == "none"


def test_confirmation() -> None:
    assert interpret("y", "confirm").kind == "yes"
    assert interpret("YES", "confirm").kind == "yes"
    assert interpret("q", "confirm").kind == "no"


def test_completion_from_the_legal_moves() -> None:
    legal, _ = _gate()
    assert completions("", "play", legal) == [*legal, "home", "undo", "hint", "resign"]
    assert completions("ho", "play", legal) == ["home"]
    assert completions("hi", "play", legal) == ["hint"]
    assert completions("B", "play", legal) == ["b4>t3", "b1>b2"]
    assert completions("r", "play", legal) == ["r>t4", "resign"]
    assert completions("l", "lobby", legal) == []


def test_a_bare_number_where_piles_are_numbered_points_to_the_hash() -> None:
    """In The Wedge the piles are 1 to 24 and the legal line numbers its moves #1, #2: a
    player who typed 1 for the first legal move heard only "no legal move starts at 1"."""
    labels = {str(n) for n in range(1, 25)}
    action = interpret("1", "play", ["24>22", "deal"], labels)
    assert action.kind == "say"
    assert action.note == "no legal move starts at pile 1 (#1 is the legal line's 24>22)"
    # a number past the legal line's is a pile alone
    assert interpret("5", "play", ["24>22", "deal"], labels).note == ("no legal move starts at 5")


def test_a_word_with_more_after_it_is_echoed_as_typed() -> None:
    """``resign now`` went to the server as the move ``resignnow``, and came back as
    ``cannot read 'resignnow'``: the echo is of what was typed."""
    action = interpret("resign now", "play", ["deal"], {"s", "w"})
    assert action.kind == "say", action
    assert "'resign now'" in action.note and "resignnow" not in action.note, action
