"""The app's domain is pure: no asyncio, no Redis, no websockets, nothing of the app's
I/O (its store, handlers, transport). Its rules are tested without a server."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

DOMAIN = Path(__file__).resolve().parents[2] / "server" / "app" / "domain"
#: the I/O machinery no domain module may import, by absolute name
FORBIDDEN = ("asyncio", "redis", "websockets", "socket")
#: the app's own I/O packages, by name relative to ``server.app``
IO_PACKAGES = ("store", "handlers", "transport", "service", "bus", "main", "embedded_redis")


def imports_of(path: Path) -> list[str]:
    """Every module a file imports, relative imports resolved to absolute names."""
    package = "server.app.domain"
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                module = f"{base}.{node.module}" if node.module else base
                # ``from .. import store`` imports the module ``server.app.store``
                names.extend(f"{module}.{alias.name}" for alias in node.names)
                names.append(module)
            else:
                names.append(node.module or "")
    return names


def offences(paths: list[Path]) -> list[str]:
    found = []
    for path in paths:
        for name in imports_of(path):
            top = name.split(".")[0]
            inner = (
                name.removeprefix("server.app.").split(".")[0]
                if name.startswith("server.app.")
                else None
            )
            if top in FORBIDDEN or inner in IO_PACKAGES:
                found.append(f"{path.name} imports {name}")
    return found


def test_the_domain_imports_no_io() -> None:
    files = sorted(DOMAIN.rglob("*.py"))
    assert len(files) >= 7
    assert offences(files) == []


def test_the_check_sees_an_offence(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import asyncio\nfrom ..store import keys\nfrom . import games\n")
    assert offences([bad]) == [
        "bad.py imports asyncio",
        "bad.py imports server.app.store.keys",
        "bad.py imports server.app.store",
    ]


def test_importing_the_domain_loads_no_io_machinery() -> None:
    code = (
        "import sys, server.app.domain.room, server.app.domain.daily,"
        " server.app.domain.boards, server.app.domain.replays\n"
        "bad = sorted(m for m in ('asyncio', 'websockets', 'redis', 'socket',"
        " 'server.app.store', 'server.app.service') if m in sys.modules)\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=DOMAIN.parents[2],
        env=os.environ,
    )
    assert out.stdout.strip() == ""
