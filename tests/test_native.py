"""The compiled move path (server/native.py): used only while current, all or nothing."""

from __future__ import annotations

import importlib.machinery
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from server import native

ROOT = Path(__file__).resolve().parents[1]
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
built = pytest.mark.skipif(
    not native.MANIFEST.exists(), reason="not built (make builds it before the tests)"
)


def _run(cwd: Path, code: str, **env: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(cwd), "PATIENCE_NATIVE": "auto", **env},
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


SHOW = (
    "import server, server.engine.core as c, server.app.domain.views as v\n"
    "from server import native\n"
    "s = native.status()\n"
    "print(s['mode'], c.__file__.endswith('.py'), v.__file__.endswith('.py'), s['why'])\n"
)


@pytest.mark.skipif(os.environ.get("PATIENCE_NATIVE") != "1", reason="make test sets it")
def test_the_tests_run_on_the_compiled_modules() -> None:
    import server.app.transport.session
    import server.engine.core
    import server.engine.games.gate
    import server.protocol.codec

    assert native.status()["mode"] == "compiled"
    modules = (server.engine.core, server.engine.games.gate, server.protocol.codec)
    for module in (*modules, server.app.transport.session):
        assert module.__file__ is not None
        assert module.__file__.endswith(SUFFIX)
        assert Path(module.__file__).is_relative_to(native.DIR)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of the server package with its build."""
    shutil.copytree(
        ROOT / "server", tmp_path / "server", ignore=shutil.ignore_patterns("__pycache__")
    )
    return tmp_path


@built
def test_a_current_build_is_used(tree: Path) -> None:
    assert _run(tree, SHOW).split() == ["compiled", "False", "False"]


@built
def test_an_edited_source_turns_the_whole_set_back_to_source(tree: Path) -> None:
    gate = tree / "server" / "engine" / "games" / "gate.py"
    gate.write_text(gate.read_text() + "\n# edited\n")
    mode, core_py, views_py, *why = _run(tree, SHOW).split()
    assert (mode, core_py, views_py) == ("source", "True", "True")
    assert " ".join(why) == "server/engine/games/gate.py changed since the build"


@built
def test_patience_native_0_uses_the_source(tree: Path) -> None:
    out = _run(tree, SHOW, PATIENCE_NATIVE="0").split()
    assert out[:3] == ["source", "True", "True"]


def test_patience_native_1_refuses_a_missing_or_stale_build(tree: Path) -> None:
    shutil.rmtree(tree / "server" / "_native", ignore_errors=True)
    out = subprocess.run(
        [sys.executable, "-c", "import server"],
        capture_output=True,
        text=True,
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree), "PATIENCE_NATIVE": "1"},
    )
    assert out.returncode != 0
    assert "PATIENCE_NATIVE=1 but the compiled modules cannot be used: not built" in out.stderr
    mode, *_ = _run(tree, SHOW).split()
    assert mode == "source"


@built
def test_a_build_for_another_python_is_not_loaded(tree: Path) -> None:
    manifest = tree / "server" / "_native" / "manifest.json"
    data = json.loads(manifest.read_text())
    data["suffix"] = ".cpython-399-x86_64-linux-gnu.so"
    manifest.write_text(json.dumps(data))
    out = _run(tree, SHOW).split()
    assert out[:3] == ["source", "True", "True"]
    assert "built for .cpython-399" in " ".join(out[3:])


def test_the_compiled_list_names_real_modules() -> None:
    for source in native.SOURCES:
        assert (ROOT / source).is_file(), source
    assert native.module_name("server/engine/core.py") == "server.engine.core"


@built  # a build here means the tools to compile are here too
# a whole mypyc build: its C files' objects are the checkout's build's, from the cache
# (server/native_cache.py) when that build made them, else a minute of compiling at -O3;
# it passed 300 s once while the machine also certified a server's dailies beside it
@pytest.mark.timeout(900)
def test_it_builds_in_an_installed_package(tmp_path: Path) -> None:
    """``native build`` in a package installed into site-packages (as the Dockerfile and
    deploy/README.md do it): mypy there must not take the other top-level modules beside
    the package for the program's own (it refused ``mypy_extensions.py`` as a shadow)."""
    site = tmp_path / "site-packages"
    shutil.copytree(
        ROOT / "server",
        site / "server",
        ignore=shutil.ignore_patterns("__pycache__", "_native"),
    )
    import mypy_extensions

    assert mypy_extensions.__file__ is not None
    shutil.copy(mypy_extensions.__file__, site / "mypy_extensions.py")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = subprocess.run(
        [sys.executable, "-m", "server.cli", "native", "build"],
        capture_output=True,
        text=True,
        cwd=elsewhere,
        # (the C compiler's level the checkout's build has, whose objects the cache holds)
        env={**os.environ, "PYTHONPATH": str(site), "PATIENCE_NATIVE": "auto"},
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert (site / "server" / "_native" / "manifest.json").is_file()
    assert _run(site, SHOW).split() == ["compiled", "False", "False"]


def test_make_rebuilds_when_any_compiled_source_changes() -> None:
    """The Makefile's ``NATIVE_SOURCES`` (what ``make native`` depends on) cover every
    compiled module, so an edit is compiled again by the next ``make``: it reads them
    from ``native.SOURCES``, their one list; ``make -p`` shows what it read."""
    out = subprocess.run(
        ["make", "-pn", "-f", "Makefile", "native"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    ).stdout
    match = re.search(r"^NATIVE_SOURCES := (.*)$", out, re.M)
    assert match is not None, out[-2000:]
    covered = set(match[1].split())
    assert set(native.SOURCES) <= covered, set(native.SOURCES) - covered
    assert "server/native.py" in covered


def test_the_optimisation_level_is_checked(tmp_path: Path) -> None:
    """A level the C compiler does not have is refused before anything is compiled."""
    out = subprocess.run(
        [sys.executable, "-m", "server.cli", "native", "build"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PATIENCE_NATIVE": "0", "PATIENCE_NATIVE_OPT": "fast"},
    )
    assert out.returncode != 0
    assert "PATIENCE_NATIVE_OPT=fast: an optimisation level, 0 to 3" in out.stdout + out.stderr
