"""The engine is pure: standard library only, no I/O machinery."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "server" / "engine"


def _python(code: str, **env: str) -> str:
    """What ``code`` prints, run by a fresh interpreter at the project's root."""
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=ENGINE.parents[1],
        env={**os.environ, **env},
    )
    return out.stdout.strip()


def test_importing_the_engine_loads_no_io_machinery() -> None:
    code = (
        "import sys, server.engine\n"
        "bad = sorted(m for m in ('asyncio', 'websockets', 'redis', 'msgpack', 'socket')"
        " if m in sys.modules)\n"
        "print(','.join(bad))\n"
    )
    assert _python(code) == ""


def _optional(tree: ast.Module) -> set[int]:
    """Line numbers of imports made in a ``try`` whose ``except ImportError`` stands in
    for them (the compiler's decorator, say): the engine runs without them."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and any(
            isinstance(h.type, ast.Name) and h.type.id == "ImportError" for h in node.handlers
        ):
            lines.update(n.lineno for n in node.body if isinstance(n, ast.Import | ast.ImportFrom))
    return lines


def imports_of(path: Path) -> list[str]:
    """The absolute imports of a module, less those it can do without (:func:`_optional`)."""
    tree = ast.parse(path.read_text())
    optional = _optional(tree)
    names: list[str] = []
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in optional:
            continue
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.append(node.module or "")
    return names


def test_engine_imports_only_the_standard_library() -> None:
    allowed = set(sys.stdlib_module_names) | {"__future__"}
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) > 5
    for path in files:
        for name in imports_of(path):
            assert name.split(".")[0] in allowed, f"{path.name} imports {name}"


def test_the_engine_runs_without_the_compilers_package() -> None:
    """With ``mypy_extensions`` unimportable and the source modules in use, the engine
    still imports and plays."""
    code = (
        "import sys; sys.modules['mypy_extensions'] = None\n"
        "from server.engine import new_game\n"
        "from server.engine.cards import Card\n"
        "g = new_game('gate', seed=7); g.play(g.legal_moves()[0])\n"
        "print(str(Card.parse('TH')), g.moves)\n"
    )
    assert _python(code, PATIENCE_NATIVE="0").split() == ["TH", "1"]
