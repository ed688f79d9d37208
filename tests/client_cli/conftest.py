"""Fixtures for the client's tests: the server tests' real Redis and real server (in this
process or as a child process), and golden text files."""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

# the server tests' fixtures: a real Redis, a real server
from tests.app.conftest import (  # noqa: F401
    ServerProcess,
    redis_server,
    redis_url,
    server,
    server_process,
    settings,
)

from .terminal import Terminal

GOLDEN = Path(__file__).parent / "golden"
#: PATIENCE_GOLDEN=update rewrites the golden files from what the code draws now
UPDATE = os.environ.get("PATIENCE_GOLDEN") == "update"


def check_golden(name: str, text: str) -> None:
    """``text`` must equal the golden file ``name``.txt (trailing spaces never count)."""
    text = "\n".join(line.rstrip() for line in text.splitlines()) + "\n"
    path = GOLDEN / f"{name}.txt"
    if UPDATE:
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"no golden file {path.name}: run with PATIENCE_GOLDEN=update"
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        diff = "\n".join(
            difflib.unified_diff(
                expected.splitlines(), text.splitlines(), "golden", "drawn", lineterm=""
            )
        )
        raise AssertionError(f"{path.name} differs (PATIENCE_GOLDEN=update rewrites):\n{diff}")


@pytest.fixture
def terminals() -> Iterator[list[Terminal]]:
    """The clients a test starts in pseudo-terminals, closed at its end."""
    opened: list[Terminal] = []
    yield opened
    for terminal in opened:
        terminal.close()
