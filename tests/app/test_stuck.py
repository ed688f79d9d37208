"""Stuck positions on the real server and Redis: the ``stuck`` event after the move (or
undo, or ``home``) that leaves one, in every game where one can come about; none for a
position with a way on, nor in the games where no way forward means no legal move (the
game ends lost)."""

from __future__ import annotations

import pytest

from server.solver.stuck import REASON
from tests.solver.positions import CHECKED, HOME_THEN_STUCK, LOST, STUCK, Position, homed

from .client import Client, player
from .conftest import Running, until


async def play(client: Client, game_id: str, position: Position) -> dict:
    """Deal the position's seed and play its line: the last reply."""
    reply = await client.call("new_game", game=game_id, seed=position.seed)
    gid = reply["game"]
    for move in position.line:
        reply = await client.call("move", move=move, game=gid)
    return reply


def stuck_events(client: Client) -> list[dict]:
    return [e for e in client.events if e["type"] == "stuck"]


async def all_checked(server: Running, client: Client) -> None:
    """Wait until the stuck check has no game waiting to settle and none being checked,
    then for a reply that follows whatever it sent: after this no stuck event can come."""
    watch = server.service.stuck
    await until(lambda: not watch._timers and not watch._checking, timeout=30)
    await client.call("ping")


@pytest.mark.parametrize("game_id", STUCK)
async def test_a_stuck_position_is_told(server: Running, game_id: str) -> None:
    ann = await player(server.url, "ann")
    last = await play(ann, game_id, STUCK[game_id])
    assert last["status"] == "playing" and last["legal"]
    event = await ann.event("stuck", timeout=30)
    assert event == {
        "type": "stuck",
        "game": last["game"],
        "moves": last["view"]["moves"],
        "reason": REASON,
    }
    # it came after the reply to the move that left the position
    frames = ann.frames
    assert frames.index(event) > frames.index(last)
    # a move from here leads to another stuck position, told again; so does its undo
    moved = await ann.call("move", move=last["legal"][0])
    if moved["status"] == "playing":
        again = await ann.event("stuck", timeout=30)
        assert again["moves"] == moved["view"]["moves"]
        if moved["view"]["can_undo"]:
            undone = await ann.call("undo")
            back = await ann.event("stuck", timeout=30)
            assert back["moves"] == undone["view"]["moves"] == event["moves"]
    await all_checked(server, ann)
    assert not stuck_events(ann)  # once for each position reached, no more


@pytest.mark.parametrize("game_id", CHECKED)
async def test_a_position_with_a_way_on_is_not_stuck(server: Running, game_id: str) -> None:
    ann = await player(server.url, "ann")
    watch = server.service.stuck
    before = watch.searched
    await play(ann, game_id, CHECKED[game_id])
    # the server looked (no legal move plainly gets on), and found the way on
    await until(lambda: watch.searched > before, timeout=30)
    await all_checked(server, ann)
    assert not stuck_events(ann)
    assert watch.told == 0


@pytest.mark.parametrize("game_id", LOST)
async def test_no_way_forward_there_ends_the_game_lost(server: Running, game_id: str) -> None:
    """Nestor, Doubles and Quits, Babette, The Labyrinth and the ten-wide Blockade: a
    position with no way forward has no legal move at all, and the game is over."""
    ann = await player(server.url, "ann")
    last = await play(ann, game_id, LOST[game_id])
    assert last["status"] == "lost" and last["legal"] == []
    await all_checked(server, ann)
    assert not stuck_events(ann) and server.service.stuck.told == 0
    reply = await ann.request("home")
    assert reply["code"] == "game_over"


async def test_a_position_left_before_its_check_answers_is_not_told(server: Running) -> None:
    """The player moves on from a stuck position at once (before the game settles
    there, or before its check answers): no event for a position the game has left; the
    position it stands in is checked, and told."""
    ann = await player(server.url, "ann")
    position = STUCK["gate"]
    game = position.game("gate")
    gid = (await ann.call("new_game", game="gate", seed=position.seed))["game"]
    for move in position.line:
        await ann.call("move", move=move, game=gid)
    moved = await ann.call("move", move=game.legal_moves()[0].text, game=gid)
    event = await ann.event("stuck", timeout=30)
    assert event["moves"] == moved["view"]["moves"] == len(position.line) + 1
    await all_checked(server, ann)
    assert not stuck_events(ann)


async def test_home_that_leaves_a_stuck_position_is_told(server: Running) -> None:
    game_id, position = HOME_THEN_STUCK
    ann = await player(server.url, "ann")
    await play(ann, game_id, position)
    reply = await ann.call("home")
    assert reply["moves"] == homed(position.game(game_id)) and reply["status"] == "playing"
    event = await ann.event("stuck", timeout=30)
    assert event["game"] == reply["game"] and event["moves"] == reply["view"]["moves"]
