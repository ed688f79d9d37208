"""The soak's probes of the limits the server sets one client: a flooder, and more
connections from one address than the server lets in.

**The flood.** A connection, signed in or not, writes ``FLOOD`` pings in ``WRITES``
writes without waiting for a reply. Every frame takes a token of its bucket (``burst``
2000, refilled at ``rate`` 1000 a second in the soak): the server answers the first two
thousand or so (``pong``, or ``hello_first`` when not signed in), then one ``rate_limited``
a second at most, drops the rest undecoded, and closes the connection with 1008 ``rate
limit exceeded`` once the bucket is more than ``burst`` requests short, after about
4,000 frames (protocol.md, "Limits"). Must hold: the flooder is closed so; its replies
come in the order of its pings, of those kinds only, no more ``rate_limited`` than one
a second of the flood and one. Meanwhile a probe sends a ``ping`` at a time on a
connection of its own, as the racers and fuzzers go on with theirs: their requests are
answered as ever (the unanswered figure checks that), and the probe's round trips
during the flood are reported beside those just before it (reported only: nothing
fails on timing).

**The cap per address.** From ``CAP_ADDRESS``, an address of 127.0.0.0/8 no other
connection of the soak comes from, ``PER_IP + EXTRA`` connections are opened one after
the other. Must hold: the first ``PER_IP`` are let in (``hello`` answered ``welcome``),
each one past them is closed at once with 1013 and the reason protocol.md gives; once
they are all closed, a new connection from the address is let in again (within a few
seconds: the server counts a connection out as its handler ends, just after the close).
"""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import msgpack

from bench.soak_conn import Conn, Ledger
from bench.soak_racers import Target

#: pings a flooder writes, and in how many writes
FLOOD, WRITES = 20_000, 4
#: what a flooder's pings may be answered with
FLOOD_REPLIES = {"pong", "error:hello_first", "error:rate_limited"}
FLOOD_CLOSE = (1008, "rate limit exceeded")

#: the server's default ``max_connections_per_ip`` (the soak leaves it so)
PER_IP = 64
EXTRA = 6
#: an address no other connection of the soak comes from (they come from 127.0.0.1)
CAP_ADDRESS = "127.0.0.9"
CAP_REASON = f"too many connections from your address (max_connections_per_ip {PER_IP})"


def _ms(values: list[float]) -> dict[str, float | int]:
    if not values:
        return {"n": 0}
    return {
        "n": len(values),
        "median_ms": round(statistics.median(values) * 1000, 2),
        "max_ms": round(max(values) * 1000, 2),
    }


@dataclass
class Probe:
    """One ``ping`` at a time on a connection of its own, each round trip kept."""

    conn: Conn
    ledger: Ledger
    rtts: list[float] = field(default_factory=list)

    async def run(self, stop: asyncio.Event | None = None, least: int = 0) -> None:
        """Ping at least ``least`` times, and on until ``stop`` is set."""
        while len(self.rtts) < least or (stop is not None and not stop.is_set()):
            t0 = time.monotonic()
            reply = await self.conn.call("ping", timeout=self.ledger.stall)
            if reply.get("type") == "pong":
                self.rtts.append(time.monotonic() - t0)
            await asyncio.sleep(0.002)


async def flood(target: Target, ledger: Ledger, name: str, token: str | None) -> dict[str, Any]:
    """One flooder (signed in with ``token``, or not signed in), with the probe beside it;
    the figures of it, ``ok`` False with ``why`` if something that must hold did not."""
    probe_conn = await Conn.open(target.url, f"{name}-probe", ledger, "probe")
    conn = await Conn.open(target.url, name, ledger, "flood")
    out: dict[str, Any] = {"signed_in": token is not None, "sent": FLOOD, "writes": WRITES}
    why: list[str] = []
    try:
        await probe_conn.call("hello", timeout=ledger.stall, protocol=1)
        if token is not None:
            reply = await conn.call("hello", timeout=ledger.stall, protocol=1, token=token)
            if reply["type"] != "welcome":
                raise RuntimeError(f"the flooder's hello: {reply}")
        probe = Probe(probe_conn, ledger)
        await probe.run(least=20)  # before the flood
        before = list(probe.rtts)
        probe.rtts.clear()

        replies: Counter[str] = Counter()
        last = [0]
        limited: list[float] = []

        def on_message(payload: bytes) -> None:
            message = msgpack.unpackb(payload, raw=False, strict_map_key=False)
            if not isinstance(message, dict) or "id" not in message:
                return  # an event (a signed-in player's board, say)
            kind = message.get("type")
            key = f"error:{message.get('code')}" if kind == "error" else str(kind)
            replies[key] += 1
            rid = message["id"]
            if key not in FLOOD_REPLIES:
                ledger.violation(f"{name}: a flooded ping answered {str(message)[:120]}")
            if not isinstance(rid, int) or rid <= last[0]:
                ledger.violation(f"{name}: a reply out of order (after id {last[0]}): {rid!r}")
            else:
                last[0] = rid
            if key == "error:rate_limited":
                limited.append(time.monotonic())

        conn.ws.on_message = on_message
        pings = [msgpack.packb({"type": "ping", "id": n}) for n in range(1, FLOOD + 1)]
        step = -(-FLOOD // WRITES)
        stop = asyncio.Event()
        probing = asyncio.create_task(probe.run(stop, least=1))
        t0 = time.monotonic()
        for at in range(0, FLOOD, step):
            with contextlib.suppress(ConnectionError):
                conn.ws.send_many(pings[at : at + step])
        ledger.frames["flood"] += FLOOD
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(conn.ended), 20)
        took = time.monotonic() - t0
        stop.set()
        await probing
        close = (conn.ws.close_code, conn.ws.close_reason)
        out |= {
            "replies": dict(replies),
            "close": list(close) if conn.closed else None,
            "seconds": round(took, 3),
            "last_answered": last[0],
            "probe_before": _ms(before),
            "probe_during": _ms(probe.rtts),
        }
        if not conn.closed:
            why.append(f"still open {took:.0f} s after its flood")
        elif close != FLOOD_CLOSE:
            why.append(f"closed {close[0]} {close[1]!r}, not {FLOOD_CLOSE[0]} {FLOOD_CLOSE[1]!r}")
        if replies["error:rate_limited"] > 1 + int(took):
            why.append(f"{replies['error:rate_limited']} rate_limited in {took:.1f} s")
    finally:
        if not conn.closed:
            conn.drop()
        await probe_conn.close()
    out["ok"] = not why
    out["why"] = "; ".join(why)
    return out


async def cap_per_address(target: Target, ledger: Ledger) -> dict[str, Any]:
    """``PER_IP + EXTRA`` connections from ``CAP_ADDRESS``, then all closed and one more."""
    admitted: list[Conn] = []
    refused = 0
    why: list[str] = []
    local = (CAP_ADDRESS, 0)

    async def hello(conn: Conn) -> bool:
        with contextlib.suppress(ConnectionError, TimeoutError):
            reply = await conn.call("hello", timeout=ledger.stall, protocol=1)
            return bool(reply["type"] == "welcome")
        return False

    try:
        for n in range(PER_IP + EXTRA):
            conn = await Conn.open(target.url, f"cap{n}", ledger, "caps", local_addr=local)
            if n < PER_IP:
                if await hello(conn):
                    admitted.append(conn)
                else:
                    why.append(f"connection {n + 1} not let in: {conn.close_code}")
                    await conn.close()
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(conn.ended), 10)
            got = (conn.ws.close_code, conn.ws.close_reason)
            if got == (1013, CAP_REASON):
                refused += 1
            else:
                why.append(f"connection {n + 1} past the cap: {got if conn.closed else 'open'}")
                await conn.close()
    finally:
        await asyncio.gather(*(c.close() for c in admitted))
    # the address's connections all gone: one more is let in
    again, refusals = False, 0
    t0 = time.monotonic()
    while time.monotonic() - t0 < 5:
        conn = await Conn.open(target.url, "cap-again", ledger, "caps", local_addr=local)
        again = await hello(conn)
        await conn.close()
        if again:
            break
        refusals += 1
        await asyncio.sleep(0.2)
    if not again:
        why.append("no connection from the address let in again after all had closed")
    return {
        "address": CAP_ADDRESS,
        "opened": PER_IP + EXTRA,
        "admitted": len(admitted),
        "refused_1013": refused,
        "again": again,
        "refused_before_again": refusals,
        "ok": not why,
        "why": "; ".join(why),
    }
