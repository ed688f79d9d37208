"""The examples in the client's docstrings (``make test`` runs pytest over server, tests,
docs and README.md, not client_cli/, so they are collected here)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import client_cli

MODULES = [m.name for m in pkgutil.iter_modules(client_cli.__path__, "client_cli.")]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
