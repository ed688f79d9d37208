"""Rules versions on the server: every game, game message and replay names the version of
its game's rules, and nothing is replayed under rules it was not played under."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

from server.app import store
from server.engine import GAMES

from .client import Client, player, signed_in
from .conftest import Running
from .test_daily import verify
from .test_pages import fetch, http
from .test_resume import resume_of


async def raced_replay(server: Running, game: str) -> tuple[Client, dict[str, Any]]:
    """A finished two-player race of ``game`` (a move, then both resign); ann's replay."""
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    code = (await ann.call("room_create", game=game))["code"]
    await bob.call("room_join", code=code)
    await bob.call("ready")
    await ann.call("start")
    start = await ann.event("race_start")
    await ann.call("move", move=start["legal"][0])
    await ann.call("resign")
    await bob.call("resign")
    results = (await bob.event("results"))["results"]
    rid = {r["player"]: r["replay"] for r in results}["ann"]
    return bob, (await bob.call("replay", replay=rid))["replay"]


async def test_games_and_replays_name_their_rules_version(server: Running) -> None:
    cat = await player(server.url, "cat")
    listed = {g["id"]: g["rules_version"] for g in (await cat.call("games"))["games"]}
    assert listed == {gid: info.rules_version for gid, info in GAMES.items()}
    assert listed["gate"] == 2 and listed["nestor"] == 1
    game = await cat.call("new_game", game="gate", seed=3)
    assert (game["rules"], game["rules_version"]) == ("gate", 2)
    meta = await server.redis.hget(store.game_key(game["game"]), "rules")
    assert meta == b"2"
    await cat.close()
    _, replay = await raced_replay(server, "wedge")
    assert replay["rules_version"] == 2


async def test_verify_checks_a_replay_only_under_the_rules_it_was_played_under(
    server: Running, tmp_path: Path
) -> None:
    _, replay = await raced_replay(server, "gate")
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(replay))
    checked = verify(path)
    assert checked.returncode == 0 and "rules version 2" in checked.stdout
    for older in (
        {**replay, "rules_version": 1},
        {k: v for k, v in replay.items() if k != "rules_version"},
    ):
        path.write_text(json.dumps(older))
        checked = verify(path)
        # not "does not reproduce": it is not tampered, it cannot be checked here
        assert checked.returncode == 2, checked
        assert "cannot check this replay: played under version 1 of The Gate's rules" in (
            checked.stderr
        )
        assert "does not reproduce" not in checked.stdout


async def test_a_replay_under_other_rules_is_listed_but_not_drawn(server: Running) -> None:
    bob, replay = await raced_replay(server, "gate")
    key = store.replay_key(replay["id"])
    stored = store.unpack(cast(bytes, await server.redis.get(key)))
    assert stored["rules_version"] == 2
    assert (await bob.call("replay_view", replay=replay["id"], step=1))["step"] == 1
    _, _, page = await fetch(f"{http(server)}/replay/{replay['id']}")
    assert "rules version 2" in page and "Not checkable" not in page
    await server.redis.set(key, store.pack({**stored, "rules_version": 1}))
    refused = await bob.request("replay_view", replay=replay["id"], step=1)
    assert refused["code"] == "other_rules"
    assert "version 1 of The Gate's rules" in refused["message"]
    # the moves still show, as kept
    kept = (await bob.call("replay", replay=replay["id"]))["replay"]
    assert kept["moves"] == replay["moves"] and kept["rules_version"] == 1
    status, _, page = await fetch(f"{http(server)}/replay/{replay['id']}")
    assert status == 200
    assert "rules version 1" in page and "Not checkable here: played under version 1" in page


async def test_a_game_in_play_under_other_rules_is_not_resumed(server: Running) -> None:
    ann = await player(server.url, "ann")
    game = await ann.call("new_game", game="gate", seed=3)
    await ann.call("move", move=game["legal"][0])
    await ann.close()
    again = await signed_in(server.url, ann.token or "")
    assert resume_of(again)["solo"]["game"] == game["game"]
    await again.close()
    # as if it had been dealt before the rules were corrected, by a process since gone
    await server.redis.hset(store.game_key(game["game"]), "rules", "1")
    server.service.games.pop(game["game"])
    later = await signed_in(server.url, ann.token or "")
    assert "solo" not in resume_of(later)
    refused = await later.request("move", move=game["legal"][0])
    assert refused["code"] == "no_such_game"
    # a game under this engine's rules is dealt as ever
    assert (await later.call("new_game", game="gate"))["rules_version"] == 2
