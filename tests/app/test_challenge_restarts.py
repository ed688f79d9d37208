"""A challenge and its table survive: the server killed (SIGKILL) and started again, and
Redis killed (SIGKILL) and started again on its append-only file; what was acknowledged
is there. A taker in the middle of a challenge game comes back to it, and the
challenger, away when a result came, hears of it on signing in. Also across processes:
the challenger connected to another process is told at once."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

from .client import Client, player, signed_in
from .conftest import Outage, Running, ServerProcess
from .test_challenges import made, solo_won


async def test_a_challenge_and_its_table_outlive_kills_of_the_server_and_redis(
    outage: Outage, tmp_path: Path
) -> None:
    proc = ServerProcess(outage.redis.url, tmp_path, PATIENCE_RATE="1000", PATIENCE_BURST="1000")
    proc.start()
    try:
        ann, bob = await player(proc.url, "ann"), await player(proc.url, "bob")
        cy = await player(proc.url, "cy")
        challenge = await made(ann, await solo_won(ann))
        cid = challenge["id"]
        taken = await bob.call("challenge_take", challenge=cid)
        await bob.event("challenge_start")
        await bob.call("resign", game=taken["game"])
        await bob.event("challenge_result")
        # cy is in the middle of the challenge when both die
        mid = await cy.call("challenge_take", challenge=cid)
        start = await cy.event("challenge_start")
        await cy.call("move", game=mid["game"], move=start["legal"][0])
        for client in (ann, bob, cy):
            await client.close()
        tokens = {c.name: c.token for c in (ann, bob, cy)}

        outage.kill()
        await asyncio.to_thread(proc.stop, signal.SIGKILL)
        outage.restart()
        await asyncio.to_thread(proc.start)

        back = {name: await signed_in(proc.url, token or "") for name, token in tokens.items()}
        shown = await back["bob"].call("challenge_show", challenge=cid)
        assert [(e["rank"], e["player"]) for e in shown["table"]] == [(1, "ann"), (2, "bob")]
        again = await back["bob"].request("challenge_take", challenge=cid)
        assert again["code"] == "already_taken"
        resume = back["cy"].welcome["resume"]  # type: ignore[attr-defined]
        assert resume["challenge"]["game"] == mid["game"]
        assert resume["challenge"]["view"]["moves"] == 1
        await back["cy"].call("resign", game=mid["game"])
        result = await back["cy"].event("challenge_result")
        table = [e["player"] for e in result["table"]]
        assert table[0] == "ann" and sorted(table[1:]) == ["bob", "cy"]
        # ann was away for bob's result, and connected for cy's: two not seen
        assert back["ann"].welcome["challenges_new"] == 1  # type: ignore[attr-defined]
        news = await back["ann"].event("challenge_news")
        assert news["result"]["player"] == "cy" and news["unseen"] == 2
        for client in back.values():
            await client.close()
    finally:
        if proc.process is not None:
            proc.stop(signal.SIGKILL)


async def test_the_challenger_on_another_process_is_told_at_once(
    server: Running, server_process: ServerProcess
) -> None:
    ann = await player(server.url, "ann")  # on the in-test server
    bob: Client = await player(server_process.url, "bob")  # on the child process
    challenge = await made(ann, await solo_won(ann))
    taken = await bob.call("challenge_take", challenge=challenge["id"])
    await bob.event("challenge_start")
    await bob.call("resign", game=taken["game"])
    await bob.event("challenge_result")
    news = await ann.event("challenge_news")
    assert news["challenge"] == challenge["id"] and news["result"]["player"] == "bob"
