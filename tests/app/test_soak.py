"""The soak (``bench/soak.py``): its check for lost moves against a real Redis, and one
short run (``--quick``) against a real server and Redis, flooded, capped, killed and
started again."""

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
    """Fuzzing (allocation bombs among the frames), two flooders, the cap per address,
    racing, the server and Redis killed mid-race and then both: every must-be-zero
    figure is zero, every must-hold check held, and each of them happened."""
    out = tmp_path / "soak.json"
    run = subprocess.run(
        [sys.executable, "bench/soak.py", "--quick", "--json-out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
    )
    report = run.stdout[-8000:] + run.stderr[-3000:]
    figures = json.loads(out.read_text())
    assert figures["incomplete"] == [], report
    assert figures["fuzz_frames"] == figures["frames_asked"] > 0, report
    assert figures["server_kills"] == 2 and figures["redis_kills"] == 2, report
    assert [c["after"] for c in figures["checks"]] == [
        "the server's restart",
        "Redis's restart",
        "the restart of both",
        "the run",
    ], report
    assert all(c["sent"] > 0 for c in figures["checks"]), report
    assert figures["replies"].get("moved", 0) > 0 and figures["races_finished"] > 0, report
    assert figures["kicks"] > 0 and figures["crossed_joins"] > 0, report
    assert figures["closes"].get("4001", 0) > 0, report
    # an undecodable frame closes nothing: the only closes of the fuzz are oversized
    # frames' (1009), sign-ins elsewhere, the soak's own and the limits'
    assert "1003" not in figures["closes"] and figures["closes"].get("1009", 0) > 0, report
    # allocation bombs: sent, each refused with bad_request, its connection carrying on
    assert figures["bombs_sent"] > 0, report
    assert figures["bombs_refused"] == figures["bombs_sent"], report
    # a flooder not signed in and one signed in, each closed 1008
    floods = figures["floods"]
    assert [f["signed_in"] for f in floods] == [False, True], report
    for flood in floods:
        assert flood["ok"] and flood["close"] == [1008, "rate limit exceeded"], report
        assert flood["replies"].get("error:rate_limited", 0) >= 1, report
        assert flood["probe_during"]["n"] > 0, report
    assert figures["closes"].get("1008", 0) >= 2, report
    # the cap per address: the 6 past 64 closed 1013, and a new one let in afterwards
    caps = figures["caps"]
    assert caps["ok"] and (caps["admitted"], caps["refused_1013"]) == (64, 6), report
    assert caps["again"], report
    assert figures["closes"].get("1013", 0) >= 6, report
    # Redis's loads timed, after its kill and after both were restarted
    loads = figures["redis_loads"]
    assert [load["after"] for load in loads] == ["the Redis kill", "the restart of both"], report
    assert all(load["seconds"] > 0 for load in loads), report
    assert figures["both"] is not None and figures["both"]["server_up_after"] > 0, report
    # the ballast (--quick: 20 MB) loaded at each restart, as Redis's log says too
    assert figures["ballast"]["keys"] > 0 and figures["ballast"]["aof_bytes"] > 0, report
    assert all(load["logged"] is not None for load in loads), report
    assert figures["tracebacks"] == 0, report
    assert figures["unanswered"] == 0, report
    assert figures["lost"] == 0, report
    assert figures["stranded"] == 0, report
    assert figures["violations"] == 0, report
    assert run.returncode == 0, report


def test_a_short_soak_of_three_processes(tmp_path: Path) -> None:
    """Three servers on one Redis (``bench/soak_many.py --quick``): racers spread over the
    processes, fuzzing, a process killed and Redis killed mid-race; every racer's first
    move accepted, no ``race_start`` twice, the processes hearing each other again within
    two seconds of Redis, and the other must-be-zero figures zero."""
    out = tmp_path / "many.json"
    run = subprocess.run(
        [sys.executable, "bench/soak_many.py", "--quick", "--json-out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=200,
    )
    report = run.stdout[-8000:] + run.stderr[-3000:]
    figures = json.loads(out.read_text())
    assert run.returncode == 0, report
    assert figures["incomplete"] == [], report
    assert figures["fuzz_frames"] > 0 and figures["races_finished"] > 0, report
    assert [c["after"] for c in figures["checks"]] == [
        "a process's kill",
        "Redis's kill",
        "the run",
    ], report
    assert figures["first_moves"].get("moved", 0) > 0, report
    assert len(figures["heard_again"]) == 3 and figures["heard_in_time"], report
    for key in ("tracebacks", "unanswered", "lost", "stranded", "violations"):
        assert figures[key] == 0, report
    assert figures["first_moves_refused"] == 0 and figures["duplicate_starts"] == 0, report
