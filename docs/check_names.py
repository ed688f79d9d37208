"""Every code name the text cites in backticks names something that exists.

    .venv/bin/python docs/check_names.py [--root DIR]

Run by ``make lint``. The text read: the docstrings and comments of ``server/`` and
``client_cli/``, and the Markdown of ``README.md`` and ``docs/`` (inline code, not fenced
blocks). A backticked span is checked when it looks like code: a dotted name
(``server.app.store.keys``, ``Service.handle``), an identifier with an underscore
(``take_newer``, ``DAILY_TTL``), a CamelCase one (``MovePath``), one ending in ``()``, or
the target of a ``:func:``/``:class:``/``:meth:`` role (``~`` dropped). Commands, paths,
flags and expressions (a space, a slash, a dash, a parenthesis with arguments, a file
name such as ``compose.yaml``) are not names and are skipped.

A name is found in an index of the project built from its source, never imported:
every module, class, function, assignment, ``self`` attribute, parameter, keyword,
imported name and attribute used in ``server/``, ``client_cli/``, ``bench/``, ``tests/``
and ``deploy/``, the identifier-like strings of ``server/`` and ``client_cli/`` (message
types and fields, error codes, metric names), the identifiers of ``client_web/``'s
modules, ``PATIENCE_*`` for every setting, Python's builtins, and the standard library's
and installed dependencies' modules (imported to look a dotted name up). A dotted name is
resolved part by part: a module's names, a class's members (its bases' too), then an
attribute the project uses. :data:`ALLOWED` holds the few names found nowhere, each with
its reason. Prints ``path:line: `name` names nothing in the project`` for each miss and
exits 1 when there is one.
"""

from __future__ import annotations

import argparse
import ast
import builtins
import importlib
import importlib.metadata
import io
import re
import sys
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

#: the project's Python, indexed; the first two are also the text checked
PACKAGES = ("server", "client_cli", "bench", "tests", "deploy")
CHECKED = ("server", "client_cli")
#: whose strings are names too (message types and fields, error codes, metrics, columns)
NAMING = (*CHECKED, "bench")

#: names cited that the index cannot find, each with why it is allowed
ALLOWED = {
    # outside the project
    "NO_COLOR",  # the convention prompt_toolkit honours (no-color.org)
    "used_memory",  # a field of Redis's INFO memory
    "select_subprotocol",  # websockets' per-connection hook, an instance attribute
}

#: a file name in backticks (``compose.yaml``), not a dotted name
SUFFIXES = (
    "py md toml txt json yaml yml cfg ini js mjs ts css html lua sh service lock log conf "
    "gz tar zip so c h pyi typed rdb aof pid sock csv svg png"
)
FILE_SUFFIXES = frozenset(SUFFIXES.split())
#: importing these does something besides defining names
NEVER_IMPORT = frozenset({"antigravity", "this"})

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
NAME = re.compile(rf"{IDENT}(?:\.{IDENT})*(?:\(\))?")
ROLE = re.compile(r":(?:py:)?(?:func|class|meth|attr|data|mod|obj|exc|const):`~?([^`]+)`")
SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)")
#: an identifier with an underscore inside a string (``patience_moves_total {n}``)
WORD = re.compile(r"\b[A-Za-z]\w*_\w+\b")
CAMEL = re.compile(r"[a-z0-9][A-Z]|[A-Z]{2}[a-z]")


@dataclass
class Scope:
    """A module's or a class's names, and a class's bases as written."""

    names: set[str] = field(default_factory=set)
    bases: list[str] = field(default_factory=list)
    #: imported names: local name to the dotted name it stands for
    imports: dict[str, str] = field(default_factory=dict)


@dataclass
class Index:
    """Every name the project defines or uses, and its modules' and classes' scopes."""

    names: set[str] = field(default_factory=set)
    modules: dict[str, Scope] = field(default_factory=dict)
    #: "module.Class" to the class's scope
    classes: dict[str, Scope] = field(default_factory=dict)
    #: a class's bare name to its qualified names
    class_names: dict[str, list[str]] = field(default_factory=dict)


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def targets(node: ast.expr) -> Iterator[ast.expr]:
    if isinstance(node, ast.Tuple | ast.List):
        for elt in node.elts:
            yield from targets(elt)
    elif isinstance(node, ast.Starred):
        yield from targets(node.value)
    else:
        yield node


class Indexer(ast.NodeVisitor):
    """One module's definitions into the index, its strings too when ``strings``."""

    def __init__(self, index: Index, module: str, strings: bool) -> None:
        self.index = index
        self.module = module
        self.strings = strings
        self.scope = Scope()
        index.modules[module] = self.scope
        self.stack: list[Scope] = [self.scope]
        self.classes: list[str] = []

    def define(self, name: str) -> None:
        self.index.names.add(name)
        self.stack[-1].names.add(name)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.define(node.name)
        qualified = ".".join([self.module, *self.classes, node.name])
        scope = Scope(bases=[ast.unparse(base) for base in node.bases])
        self.index.classes[qualified] = scope
        self.index.class_names.setdefault(node.name, []).append(qualified)
        for decorator in node.decorator_list:
            self.visit(decorator)
        self.stack.append(scope)
        self.classes.append(node.name)
        for statement in node.body:
            self.visit(statement)
        self.classes.pop()
        self.stack.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.define(node.name)
        arguments = node.args
        every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
        every += [arg for arg in (arguments.vararg, arguments.kwarg) if arg is not None]
        self.index.names.update(arg.arg for arg in every)
        owner = self.stack[-1]
        if owner is not self.scope and owner in self.index.classes.values():
            # what a method sets on self (self.x = ...) is the class's member
            owner.names |= self_attributes(node)
        self.stack.append(Scope())
        self.generic_visit(node)
        self.stack.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            for one in targets(target):
                self.bind(one)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self.bind(node.target)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self.bind(node.target)
        self.generic_visit(node)

    def bind(self, target: ast.expr) -> None:
        if isinstance(target, ast.Name):
            self.define(target.id)
        elif isinstance(target, ast.Attribute):
            self.index.names.add(target.attr)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            local = alias.asname or alias.name.split(".")[0]
            self.define(local)
            self.stack[-1].imports[local] = alias.name if alias.asname else local

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = node.module or ""
        if node.level:
            package = self.module.split(".")
            if not self.is_package:
                package = package[:-1]
            package = package[: len(package) - (node.level - 1)]
            base = ".".join([*package, *([base] if base else [])])
        for alias in node.names:
            local = alias.asname or alias.name
            self.define(local)
            self.index.names.add(alias.name)
            self.stack[-1].imports[local] = f"{base}.{alias.name}"

    is_package = False

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self.index.names.add(node.attr)
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        self.index.names.add(node.id)

    def visit_keyword(self, node: ast.keyword) -> None:
        if node.arg:
            self.index.names.add(node.arg)
        self.generic_visit(node)

    def visit_Expr(self, node: ast.Expr) -> None:
        # a docstring is the text checked, not a name's definition
        if not (isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):
            self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if self.strings and isinstance(node.value, str):
            # message types and fields, error codes, metric and column names
            if NAME.fullmatch(node.value):
                self.index.names.update(node.value.split("."))
            self.index.names.update(WORD.findall(node.value))


def self_attributes(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    found = set()
    for node in ast.walk(function):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name)
            and node.value.id in ("self", "cls")
        ):
            found.add(node.attr)
    return found


def python_files(root: Path, top: str) -> Iterator[Path]:
    folder = root / top
    if folder.is_dir():
        for path in sorted(folder.rglob("*.py")):
            if not any(part.startswith(".") or part == "node_modules" for part in path.parts):
                yield path


def build_index(root: Path) -> tuple[Index, dict[Path, ast.Module]]:
    index = Index()
    trees: dict[Path, ast.Module] = {}
    for top in PACKAGES:
        for path in python_files(root, top):
            try:
                tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            except SyntaxError:
                continue
            trees[path] = tree
            name = module_name(root, path)
            indexer = Indexer(index, name, strings=top in NAMING)
            indexer.is_package = path.name == "__init__.py"
            indexer.visit(tree)
            index.names.update(name.split("."))
    for module in list(index.modules):
        parent, _, child = module.rpartition(".")
        if parent in index.modules:
            index.modules[parent].names.add(child)
    # the browser client's modules, and the deployment's manifests (readinessProbe)
    for folder, pattern in (("client_web", "*.js"), ("deploy", "*.yaml")):
        for path in (root / folder).rglob(pattern):
            if "node_modules" not in path.parts:
                index.names.update(re.findall(IDENT, path.read_text(encoding="utf-8")))
    index.names.update(dir(builtins))
    return index, trees


class Resolver:
    """Whether a cited name names something, by the index or by importing from outside."""

    def __init__(self, index: Index) -> None:
        self.index = index
        self.outside = set(sys.stdlib_module_names) | set(
            importlib.metadata.packages_distributions()
        )
        self.memo: dict[str, bool] = {}

    def exists(self, name: str) -> bool:
        if name not in self.memo:
            self.memo[name] = self.find(name)
        return self.memo[name]

    def find(self, name: str) -> bool:
        if name in ALLOWED or re.fullmatch(r"__\w+__", name.rpartition(".")[2]):
            # a dunder is Python's own (``__new__``)
            return True
        # PATIENCE_REDIS_URL for the setting redis_url; patience_fenced_total for the
        # counter "fenced" (server/app/metrics.py makes both from the name)
        made = re.fullmatch(r"PATIENCE_(\w+)|patience_(\w+)_total", name)
        if made:
            return (made[1] or "").lower() in self.index.names or made[2] in self.index.names
        parts = name.split(".")
        if parts[0] in ("self", "cls") and len(parts) > 1:
            parts = parts[1:]
        if len(parts) == 1:
            return parts[0] in self.index.names or self.external(parts)
        return (
            self.in_modules(parts)
            or self.in_classes(parts)
            or self.external(parts)
            or self.on_value(parts)
        )

    def in_modules(self, parts: list[str]) -> bool:
        """``server.app.keys.X``, or a module by the end of its name: ``store.keys.X``."""
        for module in self.index.modules:
            mparts = module.split(".")
            for cut in range(len(parts), 0, -1):
                if mparts[-cut:] == parts[:cut] and self.member_of_module(module, parts[cut:]):
                    return True
        return False

    def member_of_module(self, module: str, rest: list[str]) -> bool:
        if not rest:
            return True
        scope = self.index.modules[module]
        head = rest[0]
        if f"{module}.{head}" in self.index.classes:
            return self.member_of_class(f"{module}.{head}", rest[1:])
        if f"{module}.{head}" in self.index.modules:
            return self.member_of_module(f"{module}.{head}", rest[1:])
        if head in scope.imports:
            return self.exists(".".join([scope.imports[head], *rest[1:]]))
        return head in scope.names and self.attributes(rest[1:])

    def in_classes(self, parts: list[str]) -> bool:
        return any(
            self.member_of_class(qualified, parts[1:])
            for qualified in self.index.class_names.get(parts[0], [])
        )

    def member_of_class(self, qualified: str, rest: list[str], seen: int = 0) -> bool:
        if not rest:
            return True
        scope = self.index.classes[qualified]
        if rest[0] in scope.names:
            nested = f"{qualified}.{rest[0]}"
            if nested in self.index.classes:
                return self.member_of_class(nested, rest[1:])
            return self.attributes(rest[1:])
        if seen > 20:
            return False
        for base in scope.bases:
            base = re.sub(r"\[.*", "", base)
            bare = base.rpartition(".")[2]
            inside = self.index.class_names.get(bare, [])
            if any(self.member_of_class(q, rest, seen + 1) for q in inside):
                return True
            if not inside and self.external([*self.qualify(qualified, base), *rest]):
                return True
        return False

    def qualify(self, qualified: str, base: str) -> list[str]:
        """A base class written in a module, as the dotted name it was imported as."""
        module = qualified.rpartition(".")[0]
        while module and module not in self.index.modules:
            module = module.rpartition(".")[0]
        head, _, tail = base.partition(".")
        imported = self.index.modules[module].imports.get(head) if module else None
        full = f"{imported}.{tail}" if imported and tail else imported or base
        return full.split(".")

    def attributes(self, rest: list[str]) -> bool:
        """The attributes after a value the index cannot type: ones the project uses."""
        return all(part in self.index.names for part in rest)

    def on_value(self, parts: list[str]) -> bool:
        """``game.play``, ``welcome.resume``: a name the project uses, then attributes it
        uses; never after a class of the project's or a full module path, which must
        resolve as such."""
        if parts[0] in self.index.class_names or parts[0] in PACKAGES:
            return False
        return parts[0] in self.index.names and self.attributes(parts[1:])

    def external(self, parts: list[str]) -> bool:
        """A builtin's attribute (``str.partition``), or a name in the standard library or
        a dependency, looked up by importing it."""
        if parts[0] in dir(builtins):
            value: object = getattr(builtins, parts[0])
            return self.getattrs(value, parts[1:])
        if parts[0] not in self.outside or parts[0] in NEVER_IMPORT:
            return False
        for cut in range(len(parts), 0, -1):
            try:
                module = importlib.import_module(".".join(parts[:cut]))
            except Exception:
                continue
            return self.getattrs(module, parts[cut:])
        return False

    @staticmethod
    def getattrs(value: object, rest: list[str]) -> bool:
        for part in rest:
            if not hasattr(value, part):
                return False
            value = getattr(value, part)
        return True


def looks_like_code(span: str) -> str | None:
    """The name a backticked span cites, or None when it is not a name."""
    span = span.strip()
    if not NAME.fullmatch(span):
        return None
    name = span.removesuffix("()")
    if "." in name and name.rpartition(".")[2].lower() in FILE_SUFFIXES:
        return None
    if span.endswith("()") or "." in name or "_" in name.strip("_") or CAMEL.search(name):
        return name
    return None


def cited(text: str) -> Iterator[tuple[int, str]]:
    """(line within ``text``, name) for each name the text cites in backticks."""
    for number, line in enumerate(text.splitlines()):
        for role in ROLE.finditer(line):
            target = role[1].strip().removesuffix("()")
            if NAME.fullmatch(target):
                yield number, target
        line = ROLE.sub("", line)
        for span in SPAN.finditer(line):
            name = looks_like_code(span[2])
            if name:
                yield number, name


def python_text(path: Path, tree: ast.Module) -> Iterator[tuple[int, str]]:
    """(line, text) of a module's comments and docstrings (every bare string statement)."""
    source = path.read_text(encoding="utf-8")
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            yield node.lineno, node.value.value


def markdown_text(path: Path) -> Iterator[tuple[int, str]]:
    """(line, text) of a Markdown file's lines outside fenced code blocks."""
    fence = ""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        stripped = line.lstrip()
        marker = re.match(r"(`{3,}|~{3,})", stripped)
        if marker and (not fence or stripped.startswith(fence)):
            fence = "" if fence else marker[1]
            continue
        if not fence:
            yield number, line


def check(root: Path) -> list[str]:
    index, trees = build_index(root)
    resolver = Resolver(index)
    texts: list[tuple[Path, Iterator[tuple[int, str]]]] = []
    for path, tree in trees.items():
        if path.relative_to(root).parts[0] in CHECKED:
            texts.append((path, python_text(path, tree)))
    pages = [root / "README.md", *sorted((root / "docs").rglob("*.md"))]
    texts += [(page, markdown_text(page)) for page in pages if page.is_file()]
    misses = []
    for path, lines in texts:
        found = [
            (first + offset, name)
            for first, text in lines
            for offset, name in cited(text)
            if not resolver.exists(name)
        ]
        found.sort(key=lambda miss: miss[0])
        where = path.relative_to(root)
        misses += [f"{where}:{line}: `{name}` names nothing in the project" for line, name in found]
    return misses


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    args = parser.parse_args(argv)
    misses = check(args.root.resolve())
    for miss in misses:
        print(miss)
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
