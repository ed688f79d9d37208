"""The compiled modules' object files kept between builds (server/native_cache.py), with
the C compiler the build uses, on a C file of one line and its header."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from server.native_cache import KEEP_DAYS, Counted, compile_cached, folder, in_parallel, prune

CC = shutil.which("cc") or shutil.which("gcc")
needs_cc = pytest.mark.skipif(CC is None, reason="no C compiler")


class Build:
    """A build folder with ``one.c`` and ``one.h`` in ``c/``, compiled by a real
    compiler through :func:`compile_cached`; ``calls`` lists what the compiler was
    asked to compile."""

    def __init__(self, root: Path, cache: Path) -> None:
        from setuptools._distutils.ccompiler import new_compiler  # type: ignore[import-untyped]
        from setuptools._distutils.sysconfig import customize_compiler  # type: ignore[import-untyped]

        self.root, self.cache = root, cache
        (root / "c").mkdir(parents=True)
        self.source = root / "c" / "one.c"
        self.source.write_text('#include "one.h"\nint one(void) { return ONE; }\n')
        self.header = root / "c" / "one.h"
        self.header.write_text("#define ONE 1\n")
        self.compiler = new_compiler()
        customize_compiler(self.compiler)
        self.calls: list[list[str]] = []
        self.counted = Counted()

    def compile(self, sources: list[str], output_dir: str | None = None, **options: Any) -> Any:
        self.calls.append(list(sources))
        return self.compiler.compile(sources, output_dir=output_dir, **options)

    def run(self, *flags: str) -> Path:
        objects = compile_cached(
            self.compile,
            self.compiler.object_filenames,
            str(self.root),
            self.cache,
            self.counted,
            ["cc"],
            [str(self.source)],
            str(self.root / "obj"),
            include_dirs=[str(self.root / "c")],
            extra_postargs=list(flags),
        )
        return Path(objects[0])


@needs_cc
def test_an_object_is_compiled_once_then_taken_from_the_cache(tmp_path: Path) -> None:
    build = Build(tmp_path / "one", tmp_path / "cache")
    made = build.run()
    assert build.calls == [[str(build.source)]] and made.is_file()
    first = made.read_bytes()
    made.unlink()
    assert build.run().read_bytes() == first  # from the cache, the compiler not asked
    assert len(build.calls) == 1
    assert (build.counted.compiled, build.counted.cached) == (1, 1)
    # another build's folder, the same files: its include folder differs, its key not
    other = Build(tmp_path / "two", tmp_path / "cache")
    other.run()
    assert other.calls == []


@needs_cc
def test_a_changed_header_flag_or_file_is_compiled_again(tmp_path: Path) -> None:
    build = Build(tmp_path / "one", tmp_path / "cache")
    build.run()
    build.header.write_text("#define ONE 2\n")
    build.run()
    assert len(build.calls) == 2
    build.run("-O0")
    assert len(build.calls) == 3
    build.source.write_text('#include "one.h"\nint one(void) { return ONE + 1; }\n')
    build.run("-O0")
    assert len(build.calls) == 4
    build.run("-O0")
    assert len(build.calls) == 4


@needs_cc
def test_no_cache_compiles_every_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATIENCE_NATIVE_CACHE", "off")
    assert folder() is None
    build = Build(tmp_path / "one", folder())  # type: ignore[arg-type]
    build.run()
    build.run()
    assert len(build.calls) == 2


def test_the_cache_folder_and_what_is_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PATIENCE_NATIVE_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert folder() == tmp_path / "xdg" / "patience-race" / "native"
    monkeypatch.setenv("PATIENCE_NATIVE_CACHE", str(tmp_path / "here"))
    assert folder() == tmp_path / "here"
    cache = tmp_path / "here"
    cache.mkdir()
    old, recent = cache / "old", cache / "recent"
    old.write_bytes(b"o")
    recent.write_bytes(b"r")
    now = time.time()
    os.utime(old, (now, now - (KEEP_DAYS + 1) * 86_400))
    os.utime(recent, (now, now - (KEEP_DAYS - 1) * 86_400))
    assert prune(cache, now) == 1
    assert sorted(p.name for p in cache.iterdir()) == ["recent"]


@needs_cc
def test_a_cache_that_cannot_be_written_to_keeps_nothing_and_the_build_goes_on(
    tmp_path: Path,
) -> None:
    blocked = tmp_path / "file"
    blocked.write_bytes(b"")  # a file where the cache's folder would be: no folder there
    build = Build(tmp_path / "one", blocked / "cache")
    assert build.run().is_file()
    assert build.run().is_file()
    assert len(build.calls) == 2


@needs_cc
def test_the_files_left_to_compile_are_compiled_side_by_side(tmp_path: Path) -> None:
    """Five C files over two compilers at once (:func:`in_parallel`): each compiles a
    share, every object is made, and a file that does not compile fails the build."""
    from setuptools._distutils.ccompiler import new_compiler  # type: ignore[import-untyped]
    from setuptools._distutils.sysconfig import customize_compiler  # type: ignore[import-untyped]

    compiler = new_compiler()
    customize_compiler(compiler)
    sources = []
    for n in range(5):
        source = tmp_path / f"f{n}.c"
        source.write_text(f"int f{n}(void) {{ return {n}; }}\n")
        sources.append(str(source))
    shares: list[list[str]] = []

    def compile(names: list[str], output_dir: str | None = None, **options: Any) -> Any:
        shares.append(list(names))
        return compiler.compile(names, output_dir=output_dir, **options)

    out = str(tmp_path / "obj")
    in_parallel(compile, sources, out, {}, jobs=2)
    assert sorted(map(len, shares)) == [2, 3]
    assert sorted(name for share in shares for name in share) == sorted(sources)
    assert all(Path(o).is_file() for o in compiler.object_filenames(sources, output_dir=out))
    (tmp_path / "f3.c").write_text("int f3(void) { return }\n")
    with pytest.raises(Exception) as failed:  # (distutils' class, by whichever import)
        in_parallel(compiler.compile, sources, out, {}, jobs=2)
    assert failed.typename == "CompileError"
