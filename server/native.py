"""The move path's modules compiled to C with mypyc, used in place of their source.

The rules engine, the encoded views and the frame codec run on every move; compiled, a
move costs the server about a third fewer instructions (docs/performance.md). Light and
Shade's compact beam (``server/solver/games/light_and_shade_fast.py``) is compiled with
them: its search runs two to three times faster, and deals that need a wide beam get
their verdict within the solver's budget (docs/solver.md). They are
the same source files, type-checked as they are: ``make`` builds them
(``patience-race-server native build``) into ``server/_native/``, beside a manifest that
holds each source file's hash.

``import server`` installs a finder that loads the compiled modules only when every
source file still matches its hash: after an edit, the whole set falls back to the
source (all or nothing: the compiled modules call each other directly) until the next
build. ``PATIENCE_NATIVE`` chooses: ``auto`` (the default: compiled when built and
current), ``0`` (never), ``1`` (always: importing ``server`` fails, saying why, when
the build is missing or out of date; the tests use this).

>>> status()["mode"] in ("compiled", "source")
True
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

#: the compiled modules' sources, from the project root
SOURCES = (
    "server/engine/cards.py",
    "server/engine/deal.py",
    "server/engine/core.py",
    "server/engine/keys.py",
    "server/engine/snapshots.py",
    "server/engine/positions.py",
    "server/engine/games/grid.py",
    "server/engine/games/babette.py",
    "server/engine/games/blockade.py",
    "server/engine/games/doubles.py",
    "server/engine/games/gate.py",
    "server/engine/games/labyrinth.py",
    "server/engine/games/light_and_shade.py",
    "server/engine/games/nestor.py",
    "server/engine/games/wedge.py",
    "server/protocol/codec.py",
    "server/protocol/fastpath.py",
    "server/app/domain/views.py",
    "server/app/transport/session.py",
    "server/app/moves.py",
    "server/app/metrics.py",
    "server/app/domain/games.py",
    "server/app/store/commit.py",
    "server/app/store/packing.py",
    "server/app/store/writes.py",
    "server/solver/games/light_and_shade_fast.py",
)

ROOT = Path(__file__).resolve().parents[1]
DIR = Path(__file__).resolve().parent / "_native"
MANIFEST = DIR / "manifest.json"
ENV = "PATIENCE_NATIVE"


def module_name(source: str) -> str:
    """``server/engine/core.py`` -> ``server.engine.core``."""
    return source.removesuffix(".py").replace("/", ".")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class NativeError(ImportError):
    """``PATIENCE_NATIVE=1`` and the compiled modules cannot be used."""


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules (and the library they share) by name."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(
        self, fullname: str, path: Any = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        return importlib.util.spec_from_file_location(fullname, file)


_state: dict[str, Any] = {"mode": "source", "why": "not installed"}


def _usable() -> tuple[dict[str, Path] | None, str]:
    """The compiled files by module name, or None and why not."""
    if not MANIFEST.exists():
        return None, "not built (patience-race-server native build builds it; make does)"
    try:
        manifest = json.loads(MANIFEST.read_text())
    except (OSError, ValueError) as exc:
        return None, f"unreadable manifest ({exc})"
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    if manifest.get("suffix") != suffix:
        return None, f"built for {manifest.get('suffix')}, this Python loads {suffix}"
    files: dict[str, Path] = {}
    sources = manifest.get("sources", {})
    if sorted(sources) != sorted(SOURCES):
        return None, "built from another list of modules"
    for source, entry in sources.items():
        try:
            if _digest(ROOT / source) != entry["sha256"]:
                return None, f"{source} changed since the build"
        except OSError:
            return None, f"{source} is missing"
        files[module_name(source)] = DIR / entry["file"]
    for name, file in manifest.get("shared", {}).items():
        files[name] = DIR / file
    missing = [str(f) for f in files.values() if not f.exists()]
    if missing:
        return None, f"missing {missing[0]}"
    return files, ""


def install() -> None:
    """Put the finder in front of the import system when the build is usable (called by
    ``import server``, before any compiled module's source could be imported)."""
    want = os.environ.get(ENV, "auto").strip().lower()
    if want in ("0", "no", "off", "false"):
        _state.update(mode="source", why=f"{ENV}={want}")
        return
    files, why = _usable()
    if files is None:
        _state.update(mode="source", why=why)
        if want in ("1", "yes", "on", "true"):
            raise NativeError(f"{ENV}={want} but the compiled modules cannot be used: {why}")
        return
    early = [name for name in files if name in sys.modules]
    if early:
        _state.update(mode="source", why=f"{early[0]} was imported first")
        return
    sys.meta_path.insert(0, _Finder(files))
    _state.update(mode="compiled", why="", modules=sorted(files))


def status() -> dict[str, Any]:
    """Whether the compiled modules are in use (``mode``), and if not, why."""
    return dict(_state)


def build(out: Path = DIR) -> dict[str, Any]:
    """Compile :data:`SOURCES` with mypyc into ``out`` and write its manifest (needs
    mypy and a C compiler: the ``dev`` extra and gcc). ``PATIENCE_NATIVE_OPT`` sets the
    C compiler's optimisation level (3, the default). The C files' objects are kept
    between builds (:mod:`server.native_cache`). Returns how many C files were compiled
    and how many taken from the cache, and where that is."""
    import shutil
    import tempfile

    from mypyc.build import mypycify
    from setuptools import Distribution  # type: ignore[import-untyped]

    from server import native_cache

    native_opt = os.environ.get("PATIENCE_NATIVE_OPT", "3")
    if native_opt not in ("0", "1", "2", "3"):
        raise NativeError(f"PATIENCE_NATIVE_OPT={native_opt}: an optimisation level, 0 to 3")
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    digests = {source: _digest(ROOT / source) for source in SOURCES}
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        # compiled from a copy of the package in a folder of its own: mypy takes the
        # folder it runs in for the program's, and an installed package's is
        # site-packages, whose other modules (mypy_extensions) it would refuse as shadows
        tree = Path(tmp) / "tree"
        shutil.copytree(
            ROOT / "server",
            tree / "server",
            ignore=shutil.ignore_patterns("_native", "__pycache__", "*.so"),
        )
        # mypy's settings for the build (``make typecheck`` holds the code to stricter ones)
        (tree / "mypy.ini").write_text("[mypy]\n[mypy-msgpack.*]\nignore_missing_imports = True\n")
        os.chdir(tree)
        try:
            # a C file a module, not one for them all: the C compiler takes a sixth less
            # time over them (45 s against 53 at -O3; 30 against 35 at -O0), and the
            # instructions a move are the same (bench/instructions.py: 88.1k, 91.4k before)
            extensions = mypycify(
                list(SOURCES), opt_level=native_opt, target_dir=f"{tmp}/c", multi_file=True
            )
            stage = Path(tmp) / "lib"
            counted = native_cache.Counted()
            cache = native_cache.folder()
            dist = Distribution(
                {
                    "name": "patience-race-native",
                    "ext_modules": extensions,
                    "cmdclass": {"build_ext": _cached_build_ext(tmp, cache, counted)},
                    "script_name": "native",
                    "script_args": [
                        "--quiet",
                        "build_ext",
                        "--build-lib",
                        str(stage),
                        "--build-temp",
                        f"{tmp}/obj",
                    ],
                }
            )
            dist.parse_command_line()
            dist.run_commands()
        finally:
            os.chdir(cwd)
        built = {str(p.relative_to(stage)): p for p in stage.rglob(f"*{suffix}")}
        sources: dict[str, dict[str, str]] = {}
        for source in SOURCES:
            file = source.removesuffix(".py") + suffix
            if file not in built:
                raise RuntimeError(f"mypyc built no {file}")
            sources[source] = {"file": file, "sha256": digests[source]}
        shared = {name.removesuffix(suffix): name for name in built if "/" not in name}
        if out.exists():
            shutil.rmtree(out)
        out.mkdir(parents=True)
        for name, path in built.items():
            (out / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, out / name)
    manifest = {"suffix": suffix, "sources": sources, "shared": shared}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    native_cache.prune(cache)
    return {
        "compiled": counted.compiled,
        "cached": counted.cached,
        "cache": str(cache) if cache else "no cache (PATIENCE_NATIVE_CACHE=off)",
    }


def _cached_build_ext(tmp: str, cache: Path | None, counted: Any) -> Any:
    """setuptools' ``build_ext`` whose compiler takes the objects :mod:`server.native_cache`
    kept in ``cache``, compiling the rest (and keeping them)."""
    from setuptools.command.build_ext import build_ext  # type: ignore[import-untyped]

    from server import native_cache

    class CachedBuildExt(build_ext):  # type: ignore[misc]
        def build_extension(self, ext: Any) -> None:
            compiler = self.compiler
            plain = compiler.compile
            setting = [list(compiler.compiler_so)]

            def compile(sources: list[str], output_dir: str | None = None, **options: Any) -> Any:
                return native_cache.compile_cached(
                    plain,
                    compiler.object_filenames,
                    tmp,
                    cache,
                    counted,
                    setting,
                    sources,
                    output_dir,
                    **options,
                )

            compiler.compile = compile
            try:
                super().build_extension(ext)
            finally:
                compiler.compile = plain

    return CachedBuildExt
