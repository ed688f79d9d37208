"""The soaks' end: waiting for the replies still on their way must end by itself once
every one of them is answered or counted unanswered (past ``stall``), whatever else is
in flight (a frame that closes its connection expects no reply at all)."""

from __future__ import annotations

import asyncio
import time

import websockets

from bench.soak_conn import Conn, Ledger, Sent, run_within


async def test_the_drain_ends_with_a_reply_that_never_comes() -> None:
    async def deaf(ws: websockets.ServerConnection) -> None:
        async for _ in ws:  # reads every frame, answers none
            pass

    async with websockets.serve(deaf, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        ledger = Ledger(stall=0.5)
        conn = await Conn.open(f"ws://127.0.0.1:{port}/", "c", ledger, "test")
        asked = conn.request("ping")
        conn.send_frame(b"\x00", Sent("bytes", time.monotonic(), None, expects=False))
        started = time.monotonic()
        async with asyncio.timeout(10):
            await ledger.drain()
        assert 0.5 <= time.monotonic() - started < 3
        assert ledger.unanswered == 1 and not asked.done()
        # it was asked whether it still answers anything (a ping): not counted, noted
        await asyncio.sleep(0.7)
        ledger.sweep()
        assert ledger.unanswered == 1 and ledger.samples["probe"] == [
            "c: no pong either: it answers nothing now"
        ]
        await conn.close()


async def test_a_frame_that_expects_no_reply_holds_nothing_up() -> None:
    async def deaf(ws: websockets.ServerConnection) -> None:
        async for _ in ws:
            pass

    async with websockets.serve(deaf, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        ledger = Ledger(stall=30)
        conn = await Conn.open(f"ws://127.0.0.1:{port}/", "c", ledger, "test")
        conn.send_frame(b"\x00", Sent("bytes", time.monotonic(), None, expects=False))
        async with asyncio.timeout(5):
            await ledger.drain()
        assert ledger.unanswered == 0
        await conn.close()


def test_a_run_past_its_deadline_ends_with_a_report() -> None:
    started = time.monotonic()
    late = run_within(asyncio.sleep(30), 0.3)
    assert late == "the whole run: past its deadline of 0 s"
    assert time.monotonic() - started < 5
    assert run_within(asyncio.sleep(0), 5) is None
