# Two commands: `make run` and `make test`. Both build .venv first when needed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# the move path's modules compiled with mypyc; used only while every source still matches
# the build, so an edit falls back to the source until the next make. Which modules: the
# SOURCES of server/native.py, their one list, read from there
NATIVE := server/_native/manifest.json
NATIVE_SOURCES := server/native.py pyproject.toml \
	$(shell sed -n 's/^    "\(server\/[a-z_/]*\.py\)",$$/\1/p' server/native.py)

.PHONY: run console test lint typecheck pytest pytest-compiled pytest-source bench soak soak-many clean native web vendor \
	lint-js typecheck-js node-test checks

# The browser client needs no npm to run: its one library, msgpack's ES module build, is
# committed in client_web/vendor/msgpack/ (tests/web/vendored.py). npm is a development
# tool: `make web` installs client_web/package.json's packages with npm ci into
# client_web/node_modules (not committed): the library's package, which `make vendor`
# copies, and the tools `make lint` and `make typecheck` run where they are installed
# (ESLint, Prettier, TypeScript's tsc). With CI=true they must be: .ci/run installs them.
WEB_STAMP := client_web/node_modules/.installed
# a shell condition: true where the tools are installed (brought up to the lockfile
# first), else false with one line saying they were skipped (CI=true: the run fails)
JS_TOOLS := if [ -d client_web/node_modules ]; then $(MAKE) -s --no-print-directory web || exit 1; \
	elif [ "$$CI" = true ]; then echo "client_web/node_modules is missing: make web"; exit 1; \
	else echo "JavaScript checks skipped: no client_web/node_modules (make web, which needs npm)"; \
	false; fi

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

native: $(NATIVE)

web: $(WEB_STAMP)

$(WEB_STAMP): client_web/package.json client_web/package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "npm not found: the browser client's \
	development tools need it (apt-get install npm); running it does not"; exit 1; }
	cd client_web && npm ci --no-audit --no-fund --loglevel=error
	touch $(WEB_STAMP)

# msgpack's build vendored again from the package npm installed, the lockfile's version
# (to move to another: client_web/package.json, npm install there, then make vendor)
vendor: $(STAMP) web
	$(BIN)/python -m tests.web.vendored

$(NATIVE): $(STAMP) $(NATIVE_SOURCES)
	@echo "compiling the move path's modules (mypyc, about a minute)"
	@$(BIN)/patience-race-server native build > $(VENV)/native-build.log 2>&1 \
		|| (cat $(VENV)/native-build.log; exit 1)

# The race server on ws://127.0.0.1:8765, with an embedded Redis in ./data unless
# PATIENCE_REDIS_URL is set. Ctrl-C stops it cleanly.
run: $(STAMP)
	@$(MAKE) --no-print-directory native || echo "could not compile the move path (see \
	$(VENV)/native-build.log): the server runs it from source, slower"
	$(BIN)/patience-race-server $(ARGS)

# A game at the local console, straight on the engine: make console GAME=nestor [SEED=7]
GAME ?= gate
console: $(STAMP)
	$(BIN)/patience-race-server play $(GAME) $(if $(SEED),--seed $(SEED))

# ruff over all the Python; then every code name a docstring, comment or page cites in
# backticks must name something in the project (docs/check_names.py)
LINTED := server client_cli rulebook tests bench deploy docs
lint: $(STAMP)
	$(BIN)/ruff check $(LINTED)
	$(BIN)/ruff format --check $(LINTED)
	$(BIN)/python docs/check_names.py
	@$(MAKE) --no-print-directory lint-js

# the browser client's JavaScript: ESLint (client_web/eslint.config.js) and Prettier's
# formatting (client_web/.prettierrc.json, .prettierignore)
lint-js:
	+@if $(JS_TOOLS); then cd client_web && node_modules/.bin/eslint --max-warnings 0 . \
		&& node_modules/.bin/prettier --check --log-level warn . && echo "eslint, prettier: ok"; fi

# server and client_cli strict, tests, bench and the names check with mypy's default
# checks (pyproject.toml's [tool.mypy] says which)
typecheck: $(STAMP)
	$(BIN)/mypy server client_cli rulebook tests bench docs
	@$(MAKE) --no-print-directory typecheck-js

# the browser client's modules that opt in with // @ts-check, their JSDoc types checked
# by TypeScript (client_web/tsconfig.json)
typecheck-js:
	+@if $(JS_TOOLS); then cd client_web && node_modules/.bin/tsc -p . && echo "tsc: ok"; fi

# The browser client's pure parts (clicks, ranking, clocks) under node --test
# (client_web/tests/): they need Node alone, no package. A dot a test, a failure in full
# (every subtest's lines had buried a lint or type error printed above them). Skipped with a line where
# there is no Node; CI=true needs it (.ci/run installs npm, which brings it).
node-test:
	@if command -v node >/dev/null 2>&1; then cd client_web && node --test --test-reporter=dot tests/*.test.js; \
	elif [ "$$CI" = true ]; then echo "node is missing: .ci/run installs it"; exit 1; \
	else echo "node --test skipped: Node is not installed (apt-get install nodejs)"; fi

# The tests run on the compiled modules (PATIENCE_NATIVE=1 refuses to fall back), the
# doctests and the tests of each compiled module once more on the source, as a machine
# without a C compiler runs it (the engine, the views, the sessions' frames and errors,
# the group commit, Light and Shade's compact beam): `make pytest` runs both side by
# side, `make test` the second beside the compile, which it does not need. Each in
# parallel (pytest-xdist): most tests wait on servers, Redis and the network rather than
# compute, so more workers than cores (tests/conftest.py: what stays on one worker, what
# starts first): three a core (on two cores, the compiled tests alone: six workers 324 s
# and the machine 96% busy, four 363 s and 82%, whenever two of the four waited at once
# on a terminal, a soak or a real midnight).
# PYTEST_WORKERS=0 SOURCE_WORKERS=0: each in one process, in order.
PYTEST_WORKERS ?= 6
SOURCE_WORKERS ?= 2
ON_SOURCE := server rulebook docs README.md tests/engine tests/app/test_views.py \
	tests/app/test_errors.py tests/app/test_ws_path.py tests/app/test_slow_reader.py \
	tests/app/test_parse.py tests/app/test_flood.py tests/app/test_golden_transcript.py \
	tests/app/test_store.py tests/app/test_scripts.py tests/solver/test_light_and_shade_fast.py
# Their temporary files go to memory where /dev/shm is (TMPDIR, removed when they pass):
# the many Redis servers the tests start fsync their append-only files before they answer,
# and on this machine's disk an fsync takes milliseconds when quiet and, behind other
# tests' writes, seconds (the race, room and daily tests on tmpfs: a fifth to a quarter
# less time; under such load a soak once saw every process's requests wait 80 s). What
# the tests kill is processes, whose writes the kernel keeps either way. Each run's
# --basetemp is short: a unix socket's path has 107 bytes at most (pytest's own
# pytest-of-USER/pytest-N under a longer TMPDIR passed it, and Redis cut it short).
# The tests start hundreds of Python processes (servers, clients, pool workers), each
# importing the project's modules: PYTHONDONTWRITEBYTECODE, which some containers set,
# is cleared for them, so that each module is compiled to bytecode once (__pycache__,
# not committed) rather than in every process (a server's start: 0.27 s of CPU, not 0.41).
# $(call tests,NATIVE,WORKERS,PATHS): one pytest run so
tests = tmp=$$( { [ -w /dev/shm ] && mktemp -d /dev/shm/pr.XXXXXX; } || mktemp -d ); \
	echo "PATIENCE_NATIVE=$(1) pytest -n $(2) $(3)"; \
	PYTHONDONTWRITEBYTECODE= TMPDIR=$$tmp PATIENCE_NATIVE=$(1) $(BIN)/pytest -n $(2) --dist loadgroup --basetemp=$$tmp/t $(3) \
	&& rm -rf $$tmp || { echo "the tests' temporary files: $$tmp"; exit 1; }

pytest-compiled: $(STAMP) $(NATIVE)
	@$(call tests,1,$(PYTEST_WORKERS),tests)

pytest-source: $(STAMP)
	@$(call tests,0,$(SOURCE_WORKERS),$(ON_SOURCE))

pytest: $(STAMP) $(NATIVE)
	@$(MAKE) --no-print-directory -j2 --output-sync=target pytest-compiled pytest-source

# Two lines at once, each one's output kept together: the compile, then the tests on
# the compiled modules the moment it is done (the longest line: about a minute, then six
# or seven on a quiet machine: docs/performance.md, "The test suite"); beside them, one after another, the checks and the tests on the source,
# which need no compile. The checks first: they take one core while mypyc's front end
# takes the other, and the compile's C files both.
test: $(STAMP)
	@$(MAKE) --no-print-directory -j2 --output-sync=target pytest-compiled checks

# (each runs whatever the one before it said; the line fails if any of them failed)
checks: $(STAMP)
	@status=0; for goal in lint typecheck node-test; do \
		$(MAKE) --no-print-directory $$goal || status=1; done; \
	nice -n 10 $(MAKE) --no-print-directory pytest-source || status=1; exit $$status

# The engine's micro-benchmarks, then the load test of the race server against a bare echo
# server (bench/load/; about 2.5 minutes in all). BENCH_ARGS=--quick: a 30-second load test.
bench: $(STAMP) $(NATIVE)
	$(BIN)/python bench/engine.py
	$(BIN)/python -m bench.load $(BENCH_ARGS)

# The soak (bench/soak.py): fuzzing, flooding and racing against the server, then the
# server and Redis killed mid-race; fails if a request goes unanswered, an acknowledged
# move is lost, a race is stranded, the server logs a traceback, or a flooder or the cap
# per address is not handled as documented. SOAK_ARGS="--frames 1000000".
soak: $(STAMP) $(NATIVE)
	$(BIN)/python bench/soak.py $(SOAK_ARGS)

# The soak of three server processes on one Redis (bench/soak_many.py): racers spread
# over them, fuzzing, a process and Redis killed mid-race; fails if a racer's first move
# is refused, a race_start sent twice, the processes deaf to each other 2 s after Redis
# is back, or a figure of the soak's is not zero. SOAK_ARGS="--frames 1000000".
soak-many: $(STAMP) $(NATIVE)
	$(BIN)/python bench/soak_many.py $(SOAK_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis server/_native

# The deployment built and run with Docker (deploy/check.py, deploy/README.md): the image,
# compose's Redis, three replicas and HAProxy, a race across two replicas, one of them
# stopped mid-race. Says why and skips where no Docker daemon answers; not in `make test`.
.PHONY: deploy-check
deploy-check: $(STAMP)
	$(BIN)/python deploy/check.py $(ARGS)
