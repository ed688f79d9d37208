# Two commands: `make run` and `make test`. Both build .venv first when needed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run console test lint typecheck pytest bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The race server on ws://127.0.0.1:8765, with an embedded Redis in ./data unless
# PATIENCE_REDIS_URL is set. Ctrl-C stops it cleanly.
run: $(STAMP)
	$(BIN)/patience-race-server $(ARGS)

# A game at the local console, straight on the engine: make console GAME=nestor
GAME ?= gate
console: $(STAMP)
	$(BIN)/patience-race-server play $(GAME)

lint: $(STAMP)
	$(BIN)/ruff check server client_cli tests bench
	$(BIN)/ruff format --check server client_cli tests bench

typecheck: $(STAMP)
	$(BIN)/mypy server/engine server/protocol client_cli

pytest: $(STAMP)
	$(BIN)/pytest server tests docs README.md

test: lint typecheck pytest

# The engine's micro-benchmarks, then the load test of the race server against a bare echo
# server (bench/load.py; about 2.5 minutes in all). BENCH_ARGS=--quick: a 30-second load test.
bench: $(STAMP)
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/load.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
