# Two commands: `make run` and `make test`. Both build .venv first when needed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Until the network server lands, `make run` opens the local console on a game.
GAME ?= gate
run: $(STAMP)
	$(BIN)/patience-race-server play $(GAME)

lint: $(STAMP)
	$(BIN)/ruff check server client_cli tests bench
	$(BIN)/ruff format --check server client_cli tests bench

typecheck: $(STAMP)
	$(BIN)/mypy server/engine server/protocol

pytest: $(STAMP)
	$(BIN)/pytest server tests docs README.md

test: lint typecheck pytest

bench: $(STAMP)
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
