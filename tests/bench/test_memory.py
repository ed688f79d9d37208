"""bench/memory.py, small: it holds its racers and tells what they are made of (figures
only printed and written: no size is checked but that a racer costs something)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_small_run_counts_its_racers_and_their_parts(tmp_path: Path) -> None:
    out = tmp_path / "memory.json"
    done = subprocess.run(
        [sys.executable, "bench/memory.py", "--racers", "16", "--parts", "--json-out", str(out)],
        cwd=ROOT,
        # from source, as --parts is meant to run: a compiled module's allocations would
        # count against its caller
        env={**os.environ, "PATIENCE_NATIVE": "0"},
        timeout=240,
        capture_output=True,
        text=True,
    )
    # a failed run says why (its last lines), not only its status
    assert done.returncode == 0, (done.stdout[-1500:], done.stderr[-3000:])
    (runs,) = json.loads(out.read_text()).values()
    (run,) = runs
    assert run["racers"] == 16
    assert run["rss_mib"] > 0 and run["idle_rss_mib"] > 0
    parts = run["parts"]
    # every held racer has a session and a game: their classes are among what grew
    grown = {name for name, _size, _count in parts["by_type"]}
    assert "server.app.transport.session.WsSession" in grown, sorted(grown)
    assert any(name.endswith("server/app/domain/views.py") for name, *_ in parts["by_file"])
