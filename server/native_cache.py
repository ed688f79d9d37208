"""The C compiler's object files kept between builds of the compiled modules
(:func:`server.native.build`), as ccache keeps them: a C file mypyc writes again the same,
with the same headers and the same compiler and flags, is not compiled again. An edit to
one compiled module then costs the compile of its own C file, not of every module's, and
the tests' build of an installed package takes the objects the checkout's build made.

An object is found by a hash of all that makes it: the C file, every header mypyc wrote
beside it, the compiler's command, the flags and macros, the include folders (the build's
own temporary folder taken out of them), mypyc's version (its runtime's headers) and
Python's. The folder: ``PATIENCE_NATIVE_CACHE``, else ``$XDG_CACHE_HOME/patience-race/
native``, else ``~/.cache/patience-race/native``; ``PATIENCE_NATIVE_CACHE=off`` keeps
nothing. An object not used for :data:`KEEP_DAYS` days is removed by the next build.

The C files left to compile are compiled side by side, one compiler a core
(:func:`in_parallel`): mypyc's are one module's each, and setuptools compiles an
extension's files one after another.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

#: days an object is kept unused
KEEP_DAYS = 30
ENV = "PATIENCE_NATIVE_CACHE"


def folder() -> Path | None:
    """Where the objects are kept (None: nowhere, ``PATIENCE_NATIVE_CACHE=off``)."""
    chosen = os.environ.get(ENV, "")
    if chosen == "off":
        return None
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME")
    if not base:
        try:
            base = str(Path.home() / ".cache")
        except RuntimeError:  # (no home to be found: nothing kept)
            return None
    return Path(base) / "patience-race" / "native"


def keys(sources: Sequence[str], headers: Sequence[Path], setting: Sequence[object]) -> list[str]:
    """Each source's key: a hash of it, of every header and of the compile's setting."""
    common = hashlib.sha256(repr(list(setting)).encode())
    for header in sorted(headers):
        common.update(header.name.encode() + b"\0" + header.read_bytes())
    found = []
    for source in sources:
        one = common.copy()
        one.update(Path(source).read_bytes())
        found.append(one.hexdigest())
    return found


class Counted:
    """How many C files a build compiled, and how many it took from the cache."""

    def __init__(self) -> None:
        self.compiled = 0
        self.cached = 0


def compile_cached(
    compile: Callable[..., list[str]],
    object_names: Callable[..., list[str]],
    build_dir: str,
    cache: Path | None,
    counted: Counted,
    setting: Sequence[object],
    sources: list[str],
    output_dir: str | None = None,
    **options: Any,
) -> list[str]:
    """``compile(sources, output_dir, **options)`` (a distutils compiler's), for the
    sources whose object is not in ``cache``; the others' objects copied from there.
    ``setting`` is what else makes an object (the compiler's command); ``build_dir``, the
    build's temporary folder, is taken out of the include folders and the headers it
    depends on, so that two builds' keys agree. Returns the objects, as ``compile`` does."""
    objects = object_names(sources, output_dir=output_dir or "")
    if cache is None:
        counted.compiled += len(sources)
        in_parallel(compile, sources, output_dir, options)
        return objects
    headers = [p for p in Path(build_dir).rglob("*.h")]
    shown = {
        name: [str(v).replace(build_dir, "") for v in value] if isinstance(value, list) else value
        for name, value in sorted(options.items())
    }
    found = keys(sources, headers, [*setting, shown, sys.version, _mypyc_version()])
    missing = []
    for n, key in enumerate(found):
        try:
            Path(objects[n]).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(cache / key, objects[n])
            (cache / key).touch()  # used: kept another KEEP_DAYS
        except OSError:  # (not kept, removed by another build just now, not readable)
            missing.append(n)
    if missing:
        in_parallel(compile, [sources[n] for n in missing], output_dir, options)
        try:
            cache.mkdir(parents=True, exist_ok=True)
            for n in missing:
                kept = cache / found[n]
                part = kept.with_suffix(f".{os.getpid()}.part")
                shutil.copyfile(objects[n], part)
                part.replace(kept)  # whole or not at all, for a build beside this one
        except OSError:  # a cache that cannot be written to keeps nothing: the build goes on
            pass
    counted.compiled += len(missing)
    counted.cached += len(sources) - len(missing)
    return objects


def in_parallel(
    compile: Callable[..., list[str]],
    sources: list[str],
    output_dir: str | None,
    options: dict[str, Any],
    jobs: int | None = None,
) -> None:
    """``compile`` (a distutils compiler's) over ``sources`` in ``jobs`` threads (one a
    core this process may use), each a share of the files: the compiler is a process of
    its own for each file, so they run side by side. A failure is raised as ``compile``
    raises it."""
    if jobs is None:
        jobs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
    shares = [sources[n::jobs] for n in range(max(1, min(jobs, len(sources))))]
    if len(shares) == 1:
        compile(sources, output_dir=output_dir, **options)
        return
    with ThreadPoolExecutor(len(shares)) as pool:
        done = [pool.submit(compile, share, output_dir=output_dir, **options) for share in shares]
        for future in done:
            future.result()


def prune(cache: Path | None, now: float | None = None) -> int:
    """Remove the objects not used for :data:`KEEP_DAYS` days; how many were removed."""
    if cache is None or not cache.is_dir() or not os.access(cache, os.W_OK):
        return 0
    horizon = (time.time() if now is None else now) - KEEP_DAYS * 86_400
    removed = 0
    for kept in cache.iterdir():
        try:
            if kept.stat().st_mtime < horizon:
                kept.unlink()
                removed += 1
        except OSError:  # (removed by another build just now; not ours to remove)
            pass
    return removed


def _mypyc_version() -> str:
    try:
        from mypy.version import __version__
    except ImportError:  # (no mypy: nothing is compiled anyway)
        return ""
    return str(__version__)
