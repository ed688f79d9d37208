"""Challenges end to end, on a real server and Redis: a finished game made a challenge,
taken by another player against its ghost after a countdown, its result and table, the
challenger told, and every bad request refused with its code and nothing changed."""

from __future__ import annotations

import random
from typing import Any

from server.app.domain import ghosts

from .client import Client, player, racing, signed_in
from .conftest import Running


async def play_out(
    client: Client, game: str, legal: list[str], rnd: random.Random, moves: int = 400
) -> dict[str, Any]:
    """Random legal moves from ``legal`` until the game ends, or ``moves`` of them (then
    a resignation): the last reply."""
    for _ in range(moves):
        if not legal:
            break
        reply = await client.call("move", game=game, move=rnd.choice(legal))
        if reply["status"] != "playing":
            return reply
        legal = reply["legal"]
    return await client.call("resign", game=game)


async def solo_won(client: Client) -> str:
    """A solo game of The Gate on seed 3 played to a win (random moves that win it from
    this pick): its id."""
    game = await client.call("new_game", game="gate", seed=3)
    end = await play_out(client, game["game"], game["legal"], random.Random(1))
    assert end["status"] == "won", end
    return str(game["game"])


async def made(client: Client, replay: str) -> dict[str, Any]:
    """``challenge_create`` of a game just ended: its replay is kept in the background,
    and made from the game's log if it is not yet."""
    reply = await client.call("challenge_create", replay=replay)
    challenge: dict[str, Any] = reply["challenge"]
    return challenge


async def test_a_challenge_taken_against_its_ghost(server: Running) -> None:
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    gid = await solo_won(ann)
    challenge = await made(ann, gid)
    cid = challenge["id"]
    assert challenge["link"] == f"/c/{cid}" and challenge["player"] == "ann"
    assert challenge["share"].startswith("Beat my 0:0") and challenge["share"].endswith(f"/c/{cid}")
    assert challenge["result"]["status"] == "won" and challenge["replay"] == gid
    assert "seed" not in challenge and "owner" not in challenge
    # made again: the same challenge
    assert (await made(ann, gid))["id"] == cid

    taken = await bob.call("challenge_take", challenge=cid)
    assert taken["type"] == "challenge_taken" and taken["start_at"] > taken["now"] - 1
    assert "replay" not in taken["challenge"] and "replay" not in taken["ghosts"][0]
    assert not any(k in taken["challenge"]["result"] for k in ("replay",))
    early = await bob.request("move", game=taken["game"], move="x")
    assert early["code"] == "not_started", early
    start = await bob.event("challenge_start")
    assert start["game"] == taken["game"] and start["kind"] == "challenge"
    assert start["start_at"] == taken["start_at"] and start["ghosts"] == taken["ghosts"]

    # the ghost is ann's replay, as counts
    replay = (await ann.call("replay", replay=gid))["replay"]
    assert {**ghosts.of_replay(replay), "replay": None} == {**taken["ghosts"][0], "replay": None}

    await bob.call("move", game=start["game"], move=start["legal"][0])
    await bob.call("resign", game=start["game"])
    result = await bob.event("challenge_result")
    assert result["verdict"]["beat"] is False and result["verdict"]["by_cards"] > 0
    assert [(e["rank"], e["player"], e["ghost"]) for e in result["table"]] == [
        (1, "ann", True),
        (2, "bob", False),
    ]
    assert result["you"]["status"] == "resigned" and result["ghost"]["status"] == "won"
    # both replays, now that bob's game is over
    assert result["challenge"]["replay"] == gid and result["you"]["replay"] == start["game"]
    assert (await bob.call("replay", replay=start["game"]))["replay"]["kind"] == "challenge"

    news = await ann.event("challenge_news")
    assert news["challenge"] == cid and news["result"]["player"] == "bob"
    assert news["beat_you"] is False and news["unseen"] == 1
    listed = (await ann.call("challenges"))["challenges"]
    assert [(c["id"], c["takers"], c["new"]) for c in listed] == [(cid, 1, 1)]
    assert [c["new"] for c in (await ann.call("challenges"))["challenges"]] == [0]

    # once each; not one's own; a challenge that is not one
    again = await bob.request("challenge_take", challenge=cid)
    assert again["code"] == "already_taken", again
    own = await ann.request("challenge_take", challenge=cid)
    assert own["code"] == "own_challenge", own
    for nosuch in ("abcdefghijklmnop", "x", "A" * 16):
        reply = await bob.request("challenge_take", challenge=nosuch)
        assert reply["code"] == "no_such_challenge", reply
        reply = await bob.request("challenge_show", challenge=nosuch)
        assert reply["code"] == "no_such_challenge", reply
    neither = await bob.request("challenge_take")
    assert neither["code"] == "bad_request", neither
    assert (await bob.request("challenge_create", replay="nope"))["code"] == "no_such_replay"
    table = (await bob.call("challenge_show", challenge=cid))["table"]
    assert [e["player"] for e in table] == ["ann", "bob"]


async def test_a_taker_who_wins_faster_beats_the_ghost(server: Running) -> None:
    # ann's win took her moves at the server's pace; bob plays the same winning line
    # (the same seed, the same picks), and the ghost's winning time is made long by
    # the server clock moving on between ann's moves
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    game = await ann.call("new_game", game="gate", seed=3)
    rnd, legal, reply = random.Random(1), game["legal"], game
    line = []
    while reply["status"] == "playing":
        server.clock.advance(1)
        move = rnd.choice(legal)
        line.append(move)
        reply = await ann.call("move", game=game["game"], move=move)
        legal = reply["legal"]
    challenge = await made(ann, game["game"])
    taken = await bob.call("challenge_take", challenge=challenge["id"])
    start = await bob.event("challenge_start")
    for move in line:
        await bob.call("move", game=taken["game"], move=move)
    result = await bob.event("challenge_result")
    assert result["verdict"]["beat"] is True and result["verdict"]["by_ms"] > 100_000
    assert [e["player"] for e in result["table"]] == ["bob", "ann"]
    assert start["ghosts"][0]["end"]["status"] == "won"


async def test_a_taker_comes_back_to_the_challenge_game(server: Running) -> None:
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    challenge = await made(ann, await solo_won(ann))
    taken = await bob.call("challenge_take", challenge=challenge["id"])
    start = await bob.event("challenge_start")
    await bob.call("move", game=taken["game"], move=start["legal"][0])
    await bob.close()
    assert bob.token is not None
    again = await signed_in(server.url, bob.token)
    resume = again.welcome["resume"]  # type: ignore[attr-defined]
    assert resume["challenge"]["game"] == taken["game"]
    assert resume["challenge"]["view"]["moves"] == 1
    await again.call("resign", game=taken["game"])
    assert (await again.event("challenge_result"))["you"]["moves"] == 1
    # the challenger, away when it came, hears of it at their next sign-in
    await ann.close()
    assert ann.token is not None
    back = await signed_in(server.url, ann.token)
    assert back.welcome["challenges_new"] == 1  # type: ignore[attr-defined]
    # looked at on another device (a terminal's one-shot, beside this connection): this
    # one is told, its badge had counted them until a reload (an outside tester)
    elsewhere = await signed_in(server.url, ann.token, side=True)
    assert [c["new"] for c in (await elsewhere.call("challenges"))["challenges"]] == [1]
    assert (await back.event("challenges_seen"))["unseen"] == 0
    await elsewhere.call("challenges")  # (nothing new to mark: nothing said)
    await back.call("ping")
    assert [e["type"] for e in back.events].count("challenges_seen") == 0


async def test_a_public_replay_is_raced_as_its_players_challenge(server: Running) -> None:
    ann, bob, cy = [await player(server.url, n) for n in ("ann", "bob", "cy")]
    gid = await solo_won(ann)
    await made(ann, gid)  # (its replay kept)
    taken = await bob.call("challenge_take", replay=gid)
    assert taken["challenge"]["player"] == "ann"
    # the same challenge as ann's link, with one table
    assert taken["challenge"]["id"] == (await made(ann, gid))["id"]
    await bob.event("challenge_start")
    await bob.call("resign", game=taken["game"])
    await bob.event("challenge_result")
    shown = await cy.call("challenge_show", challenge=taken["challenge"]["id"])
    assert [e["player"] for e in shown["table"]] == ["ann", "bob"]
    # cy has not raced it: no replay of its deal is named to them
    assert all("replay" not in e for e in shown["table"])
    assert "replay" not in shown["challenge"]
    own = await ann.request("challenge_take", replay=gid)
    assert own["code"] == "own_challenge"


async def test_a_challenge_of_todays_daily_opens_after_the_takers_ranked_attempt(
    server: Running,
) -> None:
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    daily = await ann.call("daily", game="gate")
    await ann.call("resign", game=daily["game"])
    challenge = await made(ann, daily["game"])
    assert challenge["opens_at"] is not None and challenge["source"] == "daily"
    refused = await bob.request("challenge_take", challenge=challenge["id"])
    assert refused["code"] == "not_yet", refused
    shown = await bob.call("challenge_show", challenge=challenge["id"])
    assert shown["closed"] is not None and shown["taken"] is None
    # nothing was taken: bob's ranked attempt is still his to play
    status = await bob.call("daily", game="gate", start=False)
    assert status["ranked_attempt"] == "pending"
    mine = await bob.call("daily", game="gate")
    assert mine["ranked"] is True
    still = await bob.request("challenge_take", challenge=challenge["id"])
    assert still["code"] == "not_yet", still  # playing it is not over
    await bob.call("resign", game=mine["game"])
    taken = await bob.call("challenge_take", challenge=challenge["id"])
    assert taken["type"] == "challenge_taken"
    await bob.event("challenge_start")
    await bob.call("resign", game=taken["game"])
    await bob.event("challenge_result")
    # until the day's reset its table names no replay bob may not open: ann's daily
    # game's is not public (its link was refused: "public after the day's reset"), his
    # own is his
    shown = await bob.call("challenge_show", challenge=challenge["id"])
    ghost, own = shown["table"][0], next(e for e in shown["table"] if e["player"] == "bob")
    assert "replay" not in ghost and "replay" not in shown["challenge"], shown
    assert own["replay"] == taken["game"], shown
    assert (await bob.call("replay", replay=own["replay"]))["replay"]["id"] == own["replay"]
    refused = await bob.request("replay", replay=challenge["replay"])
    assert refused["code"] == "not_public", refused
    # its player sees their own, and no taker's
    table = (await ann.call("challenge_show", challenge=challenge["id"]))["table"]
    assert [e.get("replay") for e in table] == [challenge["replay"], None], table


async def test_hints_in_a_challenge_follow_the_game_raced(server: Running) -> None:
    ann, bob, cy = [await player(server.url, n) for n in ("ann", "bob", "cy")]
    await racing(ann, bob)  # a room made without hints
    race_game = next(f["game"] for f in ann.frames if f.get("type") == "race_start")
    await ann.call("resign", game=race_game)
    await bob.call("resign")
    await ann.event("results")
    challenge = await made(ann, race_game)
    assert challenge["hints"] is False
    taken = await cy.call("challenge_take", challenge=challenge["id"])
    await cy.event("challenge_start")
    refused = await cy.request("hint", game=taken["game"])
    assert refused["code"] == "hints_off", refused
    await cy.call("resign", game=taken["game"])  # (one challenge at a time)
    await cy.event("challenge_result")
    # a solo game's challenge allows them, and counts them in the entry
    solo = await made(ann, await solo_won(ann))
    assert solo["hints"] is True
    again = await cy.call("challenge_take", challenge=solo["id"])
    await cy.event("challenge_start")
    hint = await cy.request("hint", game=again["game"])
    assert hint["type"] == "hint", hint
    await cy.call("resign", game=again["game"])
    result = await cy.event("challenge_result")
    assert result["you"]["hints"] == 1


async def test_a_challenge_of_a_challenge_of_todays_daily_waits_too(server: Running) -> None:
    # bob races ann's daily once his own is over, then makes a challenge of his race:
    # the deal is still today's daily, so cy, who has not played it, must wait
    ann, bob, cy = [await player(server.url, n) for n in ("ann", "bob", "cy")]
    for client in (ann, bob):
        daily = await client.call("daily", game="gate")
        await client.call("resign", game=daily["game"])
    challenge = await made(ann, next(f["game"] for f in ann.frames if f.get("type") == "daily"))
    taken = await bob.call("challenge_take", challenge=challenge["id"])
    await bob.event("challenge_start")
    await bob.call("resign", game=taken["game"])
    await bob.event("challenge_result")
    second = await made(bob, taken["game"])
    assert second["day"] == challenge["day"] and second["opens_at"] is not None
    refused = await cy.request("challenge_take", challenge=second["id"])
    assert refused["code"] == "not_yet", refused


async def test_racing_ones_own_replay_is_refused_and_makes_nothing(server: Running) -> None:
    """``challenge_take`` of one's own replay is refused, and leaves no challenge made
    behind (one was made, and listed as the player's, before the refusal)."""
    ann = await player(server.url, "ann")
    gid = await solo_won(ann)
    own = await ann.request("challenge_take", replay=gid)
    assert own["code"] == "own_challenge"
    assert "challenge_create" in own["message"]
    assert (await ann.call("challenges"))["challenges"] == []
