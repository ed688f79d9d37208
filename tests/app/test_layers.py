"""The app's layers keep their I/O at the edges (docs/architecture.md):
``server/app/transport/`` is the only package that imports websockets, and
``server/app/store/`` the only one that imports redis. (The domain imports neither, nor
asyncio: ``test_domain_purity.py``.)"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "server"
TRANSPORT = SERVER / "app" / "transport"
STORE = SERVER / "app" / "store"


def imports_of(path: Path, package: str = "websockets") -> list[int]:
    """The lines where a module imports ``package`` or any of its submodules, every import
    counted (in a function, under ``TYPE_CHECKING``, in a ``try``)."""
    lines: list[int] = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        else:
            continue
        if any(name.split(".")[0] == package for name in names):
            lines.append(node.lineno)
    return lines


def test_only_the_transport_imports_websockets() -> None:
    files = sorted(SERVER.rglob("*.py"))
    assert len(files) > 30
    outside = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in files
        if not path.is_relative_to(TRANSPORT)
        for line in imports_of(path)
    ]
    assert outside == [], f"websockets imported outside server/app/transport/: {outside}"


def test_the_check_sees_the_transports_own_imports() -> None:
    """The walk finds what it looks for: each form of import, in the transport's modules."""
    assert imports_of(TRANSPORT / "ws.py")
    assert imports_of(TRANSPORT / "session.py")
    assert imports_of(TRANSPORT / "web.py")


def test_only_the_store_imports_redis() -> None:
    files = sorted(SERVER.rglob("*.py"))
    outside = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in files
        if not path.is_relative_to(STORE)
        for line in imports_of(path, "redis")
    ]
    assert outside == [], f"redis imported outside server/app/store/: {outside}"
    assert imports_of(STORE / "connect.py", "redis")
    assert imports_of(STORE / "bus.py", "redis")
