"""Room and session rules beyond the happy path."""

from __future__ import annotations

import msgpack
from redis.asyncio import Redis

from server.app import store
from server.app.settings import Settings

from .client import Client, player, signed_in
from .conftest import Running, running, with_settings


async def race(server: Running, *names: str, **room: object) -> tuple[list[Client], str]:
    clients = [await player(server.url, name) for name in names]
    code = (await clients[0].call("room_create", game="nestor", seed=7, **room))["code"]
    for client in clients[1:]:
        await client.call("room_join", code=code)
        await client.call("ready")
    return clients, code


async def test_a_move_during_the_countdown_is_refused_as_not_started(settings: Settings) -> None:
    async with running(with_settings(settings, countdown=30.0)) as server:
        (ann,), _ = await race(server, "ann")
        await ann.call("start")
        reply = await ann.request("move", move="1+2")
        assert reply["code"] == "not_started"
        assert "wait for race_start" in reply["message"]


async def test_an_absent_racer_resigns_after_forfeit_after(server: Running) -> None:
    (ann, bob), code = await race(server, "ann", "bob")
    await ann.call("start")
    await ann.event("race_start")
    await bob.event("race_start")
    await bob.close()
    away = await ann.event("room", lambda e: not e["players"][1]["present"])
    assert away["players"][1]["status"] == "playing"
    await server.service.housekeeping.sweep()  # not away long enough yet
    assert not [e for e in ann.events if e["type"] == "progress"]
    server.clock.advance(server.settings.forfeit_after + 1)
    await server.service.housekeeping.sweep()
    progress = await ann.event("progress", lambda e: e["player"] == "bob")
    assert progress["status"] == "resigned"
    # the server resigned bob: said so, not as if he had given up
    assert progress["forfeited"] is True
    room = await ann.call("room_watch", code=code)
    assert [p.get("forfeited", False) for p in room["players"]] == [False, True]
    await ann.call("resign")
    results = await ann.event("results")
    assert {r["player"]: r["status"] for r in results["results"]} == {
        "ann": "resigned",
        "bob": "resigned",
    }
    assert {r["player"]: r.get("forfeited", False) for r in results["results"]} == {
        "ann": False,
        "bob": True,
    }
    # a rematch deals bob (still in the room) in afresh: not marked
    again = await ann.call("rematch")
    assert [p["name"] for p in again["players"]] == ["ann", "bob"]
    assert not [p for p in again["players"] if p.get("forfeited")]


async def test_a_player_watching_their_own_room_hears_each_event_once(server: Running) -> None:
    (ann, bob), code = await race(server, "ann", "bob")
    await ann.call("room_watch", code=code)
    ann.events.clear()
    await bob.call("ready", ready=False)
    await ann.event("room")
    await bob.call("room_leave")
    await ann.event("room")
    assert [e["type"] for e in ann.events] == []


async def test_room_codes_are_never_reused(server: Running) -> None:
    ann = await player(server.url, "ann")
    code = (await ann.call("room_create", game="gate"))["code"]
    await ann.call("room_leave")
    assert await server.redis.exists(store.code_key(code))
    assert not await server.redis.exists(store.room_key(code))
    reply = await ann.request("room_join", code=code)
    assert reply["code"] == "no_such_room"


async def test_signing_in_as_another_player_on_a_signed_in_connection_is_refused(
    server: Running,
) -> None:
    ann = await player(server.url, "ann")
    bob = await player(server.url, "bob")
    assert bob.token is not None
    reply = await ann.request("hello", protocol=1, token=bob.token)
    assert reply["code"] == "already_registered"
    assert "signed in as ann" in reply["message"]
    # ann is still ann, bob still bob
    assert (await ann.call("new_game", game="gate"))["type"] == "game"
    again = await signed_in(server.url, bob.token)
    assert again.name == "bob"


async def test_malformed_frames_count_against_the_rate_limit(settings: Settings) -> None:
    async with running(with_settings(settings, rate=1.0, burst=3)) as server:
        client = await Client.connect(server.url)
        replies = []
        for n in range(6):
            await client.send_raw(msgpack.packb({"type": 12, "id": n}))
        for _ in range(4):
            replies.append(await client.event("error", timeout=5))
        codes = [r["code"] for r in replies]
        # past the burst, one rate_limited a second: the two after it get nothing
        assert codes == ["bad_request"] * 3 + ["rate_limited"]


async def test_the_log_keeps_a_timeout_so_a_rebuilt_game_has_ended(
    server: Running, redis_url: str
) -> None:
    from server.app.store.games import Games

    (ann,), _ = await race(server, "ann", time_limit=10)
    await ann.call("start")
    start = await ann.event("race_start")
    await ann.call("move", move=start["legal"][0])
    server.clock.advance(11)
    await ann.event("results")
    redis = Redis.from_url(redis_url)
    rebuilt = await Games(redis).load(start["game"])
    await redis.aclose()
    assert rebuilt is not None and rebuilt.result == "timeout"


async def test_rules_come_from_the_game_pages(server: Running) -> None:
    client = await Client.connect(server.url)
    await client.call("hello", protocol=1)
    reply = await client.call("rules", game="nestor")
    assert reply["name"] == "Nestor"
    assert reply["text"].startswith("# Nestor")
    assert "reserve" in reply["text"]
    assert (await client.request("rules", game="chess"))["code"] == "no_such_game"


async def test_housekeeping_forgets_finished_games_but_they_come_back(server: Running) -> None:
    ann = await player(server.url, "ann")
    game = await ann.call("new_game", game="nestor", seed=5)
    await ann.call("resign")
    assert game["game"] in server.service.games
    await server.service.housekeeping.sweep()
    assert game["game"] not in server.service.games  # ann is still connected
    again = await signed_in(server.url, ann.token or "")
    assert again.welcome["resume"]["solo"]["status"] == "resigned"  # type: ignore[attr-defined]


async def test_progress_is_throttled_and_a_finish_goes_out_at_once(
    settings: Settings,
) -> None:
    async with running(with_settings(settings, countdown=0.0, progress_interval=1.0)) as server:
        ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
        code = (await ann.call("room_create", game="gate", seed=3))["code"]
        await bob.call("room_join", code=code)
        await bob.call("ready")
        await ann.call("start")
        legal = (await ann.event("race_start"))["legal"]
        await bob.event("race_start")
        for _ in range(5):
            legal = (await ann.call("move", move=legal[0]))["legal"]
        # the five moves in one event, at the next tick
        late = await bob.event("progress", timeout=3)
        assert (late["player"], late["moves"], late["status"]) == ("ann", 5, "playing")
        for _ in range(3):
            legal = (await ann.call("move", move=legal[0]))["legal"]
        # inside the interval: the moves wait, but the resignation takes them along at once,
        # before the server reads bob's next request (no waiting on the clock)
        await ann.call("resign")
        await bob.call("ping")
        done = [e for e in bob.events if e["type"] == "progress"]
        assert [(e["moves"], e["status"]) for e in done] == [(8, "resigned")]
        bob.events.remove(done[0])
        await bob.call("resign")
        await bob.event("results")
        rest = [(e["player"], e["status"]) for e in bob.events if e["type"] == "progress"]
        assert rest == [("bob", "resigned")]


async def test_a_host_away_at_the_finish_hands_over_then_not_before(server: Running) -> None:
    (ann, bob, cat), code = await race(server, "ann", "bob", "cat", time_limit=60)
    await ann.call("start")
    for client in (ann, bob, cat):
        await client.event("race_start")
    await ann.close()  # the host goes away mid-race
    away = await bob.event("room", lambda e: not e["players"][0]["present"])
    assert away["host"] == "ann" and away["state"] == "racing"  # still host while it runs
    await bob.call("resign")
    await cat.call("resign")
    server.clock.advance(61)  # ann's game times out: the race is over
    await bob.event("results")
    finished = await bob.event("room", lambda e: e["state"] == "finished")
    assert finished["host"] == "bob"  # the longest-present connected member
    again = await bob.call("rematch")
    assert again["state"] == "countdown" and again["host"] == "bob"
    _ = code


async def test_a_player_dealing_game_after_game_holds_one_in_memory(server: Running) -> None:
    ann = await player(server.url, "ann")
    first = await ann.call("new_game", game="gate", seed=1)
    await ann.call("move", move=first["legal"][0])
    await ann.call("resign")
    for seed in range(2, 40):
        if seed % 20 == 0:
            server.clock.advance(60)  # (30 new games a minute)
        await ann.call("new_game", game="gate", seed=seed)
    held = list(server.service.games.values())
    assert len(held) == 1, len(held)
    # an earlier game named by a request is rebuilt from its log (one that ended is kept
    # for a while; one replaced before it ended is gone)
    over = await ann.request("move", game=first["game"], move=first["legal"][0])
    assert over["code"] == "game_over" and "resigned" in over["message"], over


async def test_the_left_reply_says_what_became_of_the_room(server: Running) -> None:
    """``left`` names the room left and its state once the player has gone, so a client
    can say so: a race still on, one their leaving ended, or a room closed because they
    were the last in it (the terminal once offered a way back into a closed room)."""
    (ann, bob, cal), code = await race(server, "ann", "bob", "cal")
    await ann.call("start")
    for racer in (ann, bob, cal):
        await racer.event("race_start")
    await ann.call("resign")
    assert await leave(cal) == {"type": "left", "code": code, "state": "racing"}
    # bob is the last racer still playing: his leaving ends the race
    assert await leave(bob) == {"type": "left", "code": code, "state": "finished"}
    assert await leave(ann) == {"type": "left", "code": code, "state": "closed"}
    assert await leave(ann) == {"type": "left"}  # in no room

    lobby = (await ann.call("room_create", game="gate"))["code"]
    await bob.call("room_join", code=lobby)
    assert await leave(ann) == {"type": "left", "code": lobby, "state": "lobby"}
    assert await leave(bob) == {"type": "left", "code": lobby, "state": "closed"}


async def leave(client: Client) -> dict[str, object]:
    """``room_leave``'s reply, without the request's id."""
    reply = await client.call("room_leave")
    reply.pop("id", None)
    return reply


async def test_a_host_away_keeps_the_part_for_host_grace_then_hands_it_on(
    server: Running,
) -> None:
    """A host who reloads the page, or opens a replay from the results (a page of its own),
    is away for a second: the room's part waits ``host_grace`` seconds for them, rather
    than passing at once and for good to whoever was there."""
    (ann, bob), code = await race(server, "ann", "bob")
    token = ann.token
    assert token is not None
    await ann.close()
    away = await bob.event("room", lambda e: not e["players"][0]["present"])
    assert away["host"] == "ann"  # away, and still the host
    server.clock.advance(server.settings.host_grace - 1)
    await server.service.housekeeping.sweep()
    ann = await signed_in(server.url, token)  # back before the grace ran out
    await ann.call("room_join", code=code)
    back = await bob.event("room", lambda e: e["players"][0]["present"])
    assert back["host"] == "ann"
    server.clock.advance(server.settings.host_grace + 1)
    await server.service.housekeeping.sweep()  # here all along: nothing passes on
    assert (await ann.call("start"))["state"] == "countdown"
    await ann.event("race_start")
    for who in (ann, bob):
        await who.call("resign")
    await bob.event("results")
    await ann.close()  # away from the results: the rematch is hers a while yet
    away = await bob.event("room", lambda e: not e["players"][0]["present"])
    assert away["host"] == "ann" and away["state"] == "finished"
    await server.service.housekeeping.sweep()  # (the away time counted from here)
    server.clock.advance(server.settings.host_grace + 1)
    await server.service.housekeeping.sweep()
    handed = await bob.event("room", lambda e: e["host"] == "bob")
    assert handed["state"] == "finished"
    assert (await bob.call("rematch"))["state"] == "countdown"


async def test_a_finished_race_takes_racers_for_its_rematch(server: Running) -> None:
    """Once a race is over, its room takes racers again for the rematch: one who left it
    after the race joins again, and a friend who came late joins too; both race in the
    rematch, and the last race's results stay as they were. (A room took racers only in
    its lobby: whoever left it, or came late, was out of its rematches for good.)"""
    (ann, bob), code = await race(server, "ann", "bob")
    await ann.call("start")
    for client in (ann, bob):
        await client.event("race_start")
        await client.call("resign")
    results = (await ann.event("results"))["results"]
    await bob.call("room_leave")
    again = await bob.call("room_join", code=code)
    assert again["state"] == "finished" and again["results"] == results
    assert [p["name"] for p in again["players"]] == ["ann", "bob"]
    cat = await player(server.url, "cat")
    late = await cat.call("room_join", code=code)
    assert [p["name"] for p in late["players"]] == ["ann", "bob", "cat"]
    assert late["results"] == results  # (cat was not in it: nothing of cat's in them)
    # readiness is for a lobby: a rematch is called by the host alone
    refused = await cat.request("ready")
    assert refused["code"] == "race_started", refused
    await ann.call("rematch")
    starts = [await c.event("race_start", lambda e: e["race"] == 2) for c in (ann, bob, cat)]
    assert len({s["game"] for s in starts}) == 3


async def test_a_watcher_who_comes_after_a_racer_left_sees_them_in_the_race(
    server: Running,
) -> None:
    """A racer who left the room mid-race is out of ``players`` but listed in ``left``
    with their standing while the race is on: a watcher who came after saw the race a
    racer short, and then results ranking someone they had never seen."""
    (ann, bob, cal), code = await race(server, "ann", "bob", "cal")
    await ann.call("start")
    for racer in (ann, bob, cal):
        await racer.event("race_start")
    assert (await ann.call("room_watch", code=code))["left"] == []
    await bob.call("room_leave")
    dot = await player(server.url, "dot")
    room = await dot.call("room_watch", code=code)
    assert [p["name"] for p in room["players"]] == ["ann", "cal"]
    assert room["left"] == [
        {"name": "bob", "home": 0, "total": 52, "moves": 0, "status": "resigned"}
    ]
    await ann.call("resign")
    await cal.call("resign")
    over = await dot.event("room", lambda e: e["state"] == "finished")
    assert over["left"] == []  # the results have them now
    assert [r["player"] for r in over["results"] if r.get("left")] == ["bob"]


async def test_a_race_whose_last_end_went_untold_ends_at_the_next_sweep(
    server: Running,
) -> None:
    """bob's resignation was written to his game's log by a process that died before it
    ended the race or told anyone: the room, held here, still has him playing. The next
    pass that finds him away finds his game over, and the race ends (it had waited until
    he was away long enough to forfeit, five minutes by default, and before that until
    the dead process came back)."""
    (ann, bob), code = await race(server, "ann", "bob")
    await ann.call("start")
    await ann.event("race_start")
    started = await bob.event("race_start")
    await bob.close()
    await ann.event("room", lambda e: not e["players"][1]["present"])
    await ann.call("resign")
    # (written as the dead process wrote it, and nothing told)
    entry = f"{server.clock.now_ms()} !resign"
    await server.redis.rpush(store.log_key(started["game"]), entry)
    await server.service.housekeeping.sweep()
    results = await ann.event("results")
    table = {r["player"]: r for r in results["results"]}
    assert table["bob"]["status"] == "resigned" and not table["bob"].get("forfeited")
    room = await ann.call("room_watch", code=code)
    assert room["state"] == "finished"


async def test_a_racer_whose_end_went_untold_ends_the_race_by_coming_back(
    server: Running,
) -> None:
    """As above, and bob comes back before any pass looks: his sign-in finds his game
    over in a race still going, and the race ends (it went on until he was forfeited)."""
    (ann, bob), _ = await race(server, "ann", "bob")
    await ann.call("start")
    await ann.event("race_start")
    started = await bob.event("race_start")
    token = bob.token or ""
    await bob.close()
    await ann.event("room", lambda e: not e["players"][1]["present"])
    await ann.call("resign")
    entry = f"{server.clock.now_ms()} !resign"
    await server.redis.rpush(store.log_key(started["game"]), entry)
    bob = await signed_in(server.url, token)
    for client in (ann, bob):
        results = await client.event("results")
        assert {r["player"]: r["status"] for r in results["results"]} == {
            "ann": "resigned",
            "bob": "resigned",
        }


async def test_a_request_with_no_game_after_ones_race_says_the_race_is_over(
    server: Running,
) -> None:
    """An operator's tester: ``resign`` once the race was over was answered "no such game
    of yours: start one with new_game", which did not say the race game had ended."""
    (ann, bob), _ = await race(server, "ann", "bob")
    await ann.call("start")
    await ann.event("race_start")
    await bob.event("race_start")
    await ann.call("resign")
    await bob.call("resign")
    await ann.event("results")
    reply = await ann.request("resign")
    assert reply["code"] == "no_such_game"
    assert reply["message"].startswith("your race is over"), reply["message"]
