"""The solver is as pure as the engine: the standard library and the engine only."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.engine.test_purity import imports_of

SOLVER = Path(__file__).resolve().parents[2] / "server" / "solver"


def test_the_solver_imports_only_the_standard_library_and_the_engine() -> None:
    allowed = set(sys.stdlib_module_names) | {"__future__"}
    files = sorted(SOLVER.rglob("*.py"))
    assert len(files) >= 3
    for path in files:
        for name in imports_of(path):
            ok = name.split(".")[0] in allowed or name.startswith("server.engine")
            assert ok, f"{path.name} imports {name}"
