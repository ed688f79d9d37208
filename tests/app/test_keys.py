"""Every Redis key's name and every TTL is in ``server/app/store/keys/`` (one module an
area, every name taken from the package): no other module of the server spells a key (a
known key prefix followed by ``:``, or a hash tag ``:{``), and none in the store or the
domain holds a TTL of its own."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator
from pathlib import Path

from server.app.store import keys

ROOT = Path(__file__).resolve().parents[2]
KEYS = ROOT / "server/app/store/keys"
#: bus channels are named in ``keys`` too, but are no keys
CHANNELS = {keys.room_channel, keys.proc_channel}


def prefixes() -> set[str]:
    """The prefix of every key ``keys`` names, from its builders and constants."""
    found: set[str] = set()
    for name, value in vars(keys).items():
        if inspect.isfunction(value) and value.__module__.startswith(keys.__name__):
            if value in CHANNELS or name == "first_key":
                continue
            args = ["x"] * len(inspect.signature(value).parameters)
            built = value(*args)
            names = built if isinstance(built, list) else [built]
            found.update(n.split(":", 1)[0] for n in names)
        elif isinstance(value, str) and ":" in value and name.isupper():
            found.add(value.split(":", 1)[0])
    return found


def test_the_prefixes_are_found() -> None:
    assert {"p", "g", "r", "lb", "lbd", "lbm", "lbc", "lbg", "dly", "lim", "rooms"} <= prefixes()
    # (every area's module: a key of each)
    assert {"qq", "grp", "ev", "ch", "rv", "online"} <= prefixes()


def texts(tree: ast.AST) -> Iterator[tuple[int, str, bool]]:
    """Every string constant and f-string piece that is not a docstring: its line, its
    text, whether it is a piece of an f-string."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    skip = docstrings
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            for part in node.values:
                if isinstance(part, ast.Constant) and isinstance(part.value, str):
                    skip.add(id(part))
                    yield node.lineno, part.value, True
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            yield node.lineno, node.value, False


def shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name


def spelt_keys(path: Path, known: set[str]) -> list[str]:
    found = []
    for line, text, piece in texts(ast.parse(path.read_text())):
        head = text.split(":", 1)[0]
        if (":" in text and head in known) or (piece and ":{" in text):
            found.append(f"{shown(path)}:{line}: {text!r}")
    return found


def test_no_module_but_the_keys_package_spells_a_key() -> None:
    known = prefixes()
    found = [
        hit
        for path in sorted((ROOT / "server").rglob("*.py"))
        if not path.is_relative_to(KEYS)
        for hit in spelt_keys(path, known)
    ]
    assert found == []


def test_the_check_finds_a_key_spelt_elsewhere(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text('def k(i):\n    """lb:{x} in a docstring is fine"""\n    return f"lb:{i}"\n')
    tagged = tmp_path / "tagged.py"
    tagged.write_text('def k(p, i):\n    return f"{p}:{{{i}}}"\n')
    assert len(spelt_keys(bad, prefixes())) == 1
    assert len(spelt_keys(tagged, prefixes())) == 1


def literal_number(node: ast.AST) -> bool:
    """A number written out (``86400``, ``31 * 86400``), not a name."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int) and not isinstance(node.value, bool) and node.value > 0
    if isinstance(node, ast.BinOp):
        return literal_number(node.left) and literal_number(node.right)
    return False


def own_ttls(path: Path) -> list[str]:
    """TTLs a module holds of its own: a constant named for one, a number written out as
    a command's ``ex``/``px`` or an ``expire``'s time, or as a ``ttl`` argument's default."""
    found = []
    tree = ast.parse(path.read_text())
    where = shown(path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name) and "TTL" in target.id:
                    found.append(f"{where}:{node.lineno}: {target.id}")
        elif isinstance(node, ast.Call):
            for kw in node.keywords:
                if kw.arg in ("ex", "px", "exat", "pxat") and literal_number(kw.value):
                    found.append(f"{where}:{node.lineno}: {kw.arg}=")
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            if name in ("expire", "pexpire") and any(literal_number(a) for a in node.args):
                found.append(f"{where}:{node.lineno}: {name}")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            args = node.args.args[len(node.args.args) - len(node.args.defaults) :]
            for arg, default in zip(args, node.args.defaults, strict=True):
                if "ttl" in arg.arg.lower() and literal_number(default):
                    found.append(f"{where}:{node.lineno}: {arg.arg}=")
    return found


def test_no_ttl_outside_the_keys_package() -> None:
    modules = [
        *sorted((ROOT / "server/app/store").glob("*.py")),
        *sorted((ROOT / "server/app/domain").glob("*.py")),
    ]
    found = [hit for path in modules if not path.is_relative_to(KEYS) for hit in own_ttls(path)]
    assert found == []


def test_the_ttl_check_finds_one(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "DAY_TTL = 86400\n"
        "async def f(r, ttl=7 * 24 * 3600):\n"
        "    await r.set('k', 1, ex=31 * 86400)\n"
        "    await r.expire('k', 60)\n"
    )
    assert len(own_ttls(bad)) == 4


def test_every_key_is_in_the_servers_table_of_redis_keys() -> None:
    """``docs/server.md``, "What is kept in Redis", has a row for every key prefix ``keys``
    builds (``keys``'s docstring points there rather than keeping a table of its own)."""
    text = (ROOT / "docs/server.md").read_text()
    table = text[text.index("## What is kept in Redis") :]
    table = table[: table.index("\n## ", 1)]
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    named = {p for p in prefixes() if len(p) < 64}  # (token_digest's SHA-256 is no key)
    missing = sorted(p for p in named if not any(row.startswith(f"| `{p}:") for row in rows))
    assert not missing, f"keys with no row in docs/server.md's table: {missing}"
