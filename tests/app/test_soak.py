"""The soak (``bench/soak.py``): its check for lost moves against a real Redis, and one
short run (``--quick``) against a real server and Redis, killed and started again."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from redis.asyncio import Redis

from bench.soak_racers import Acks, lost_moves
from server.app import store

ROOT = Path(__file__).resolve().parents[2]


async def test_a_move_missing_from_its_log_counts_as_lost(redis_url: str) -> None:
    redis = Redis.from_url(redis_url)
    await redis.rpush(store.log_key("g1"), "1 4+5", "2 !undo", "3 4+5", "4 6+11")
    await redis.rpush(store.log_key("g2"), "1 t1>b2")
    await redis.aclose()
    acks = Acks()
    acks.moves["g1"] += ["4+5", "6+11"]  # in order, with more in the log between: found
    acks.moves["g2"] += ["t1>b2", "deal"]  # the second is not in the log
    acks.moves["g3"] += ["1+2"]  # no log at all
    found, sent, samples = await lost_moves(redis_url, acks)
    assert (found, sent) == (3, 5)
    assert len(samples) == 2 and "first missing: 'deal'" in samples[0], samples


def test_a_short_soak(tmp_path: Path) -> None:
    """Fuzzing, racing, the server and Redis killed mid-race: every must-be-zero figure is
    zero, and the kills and restarts happened."""
    out = tmp_path / "soak.json"
    run = subprocess.run(
        [sys.executable, "bench/soak.py", "--quick", "--json-out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    report = run.stdout[-6000:] + run.stderr[-3000:]
    figures = json.loads(out.read_text())
    assert figures["incomplete"] == [], report
    assert figures["fuzz_frames"] == figures["frames_asked"] > 0, report
    assert figures["server_kills"] == 1 and figures["redis_kills"] == 1, report
    assert [c["after"] for c in figures["checks"]] == [
        "the server's restart",
        "Redis's restart",
        "the run",
    ], report
    assert all(c["sent"] > 0 for c in figures["checks"]), report
    assert figures["replies"].get("moved", 0) > 0 and figures["races_finished"] > 0, report
    assert figures["kicks"] > 0 and figures["crossed_joins"] > 0, report
    assert figures["closes"].get("1003", 0) > 0 and figures["closes"].get("4001", 0) > 0, report
    assert figures["tracebacks"] == 0, report
    assert figures["unanswered"] == 0, report
    assert figures["lost"] == 0, report
    assert figures["stranded"] == 0, report
    assert figures["violations"] == 0, report
    assert run.returncode == 0, report
