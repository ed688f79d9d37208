"""No import cycle inside ``server/app``: each part is built with what it uses, and what
would call back up (a game ended, a racer made progress, a room's timer fell due) is an
event (``server.app.events``). Every import counts, those under ``TYPE_CHECKING`` and
inside functions too: a cycle that exists only for types is still two modules that must
be read together."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "server" / "app"


def module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``path`` imports, in any form (a package's
    ``from . import x`` naming its submodule ``x`` counts as importing ``x``)."""
    name = module_of(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            targets = [module, *(f"{module}.{alias.name}" for alias in node.names)]
        else:
            continue
        found |= {t for t in targets if t in known and t != name}
    return found


def graph() -> dict[str, set[str]]:
    paths = sorted(APP.rglob("*.py"))
    known = {module_of(p) for p in paths}
    return {module_of(p): imports(p, known) for p in paths}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycle_in_the_app() -> None:
    edges = graph()
    assert len(edges) > 40
    assert cycles(edges) == []


def test_the_check_finds_a_cycle() -> None:
    """The walk sees relative, absolute and type-only imports, and a cycle among them."""
    edges = graph()
    assert "server.app.handlers.base" in edges["server.app.handlers.play"]
    assert "server.app.store.keys" in edges["server.app.store"]
    made = {**edges, "server.app.store.keys": {"server.app.handlers.play"}}
    assert any("server.app.store.keys" in c for c in cycles(made))
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
