# One-command setup: Debian's MiniZinc + Gecode, a local virtual environment, the package.
# Every target is idempotent; a second run only checks stamps and returns quickly.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# LUDOLAB_PURE_PYTHON set (and not 0): install without compiling (setup.py reads it the same way).
# The install stamp names the mode, so that switching modes installs again.
PURE_PYTHON := $(filter-out 0,$(LUDOLAB_PURE_PYTHON))
STAMP := $(VENV)/.installed$(if $(PURE_PYTHON),-pure-python)

.PHONY: demo test test-all coverage docs setup minizinc compiler browser words lint bench bench-catan bench-pipeline clean postgres

# The quickstart experiment end to end: boards, games, statistics, figures, report.
WORKERS ?= $(shell nproc 2>/dev/null || echo 1)
demo: setup
	$(BIN)/ludolab run experiments/quickstart.toml --workers $(WORKERS)

# The suite in one process per core (pytest-xdist); each test module stays in one process, so
# that its expensive fixtures (a constraint batch, a browser, a small run) are built once.
PYTEST := $(BIN)/python -m pytest -q -n auto --dist loadfile

test: setup
	$(PYTEST)

test-all: setup
	$(PYTEST) -m "slow or not slow"

# Lines of envs/, research/ and ludolab/ the default suite runs (in its own processes; the
# compiled modules and subprocesses are not traced): a table, and build/coverage.json.
coverage: setup
	$(PYTEST) --cov --cov-report=term --cov-report=json:build/coverage.json

# The documentation site (MkDocs with Material; its reference pages generated from the code by
# docs/gen_reference.py) into build/docs/, then the API reference from the docstrings (pdoc) into
# build/docs/api/; warnings are errors in both. (The MkDocs 2 notices are about a future version,
# not this site.)
docs: setup
	DISABLE_MKDOCS_2_WARNING=true NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict
	$(BIN)/python docs/build.py build/docs/api

setup: minizinc compiler browser words postgres $(STAMP)

# MiniZinc and Gecode come from Debian (minizinc + flatzinc); see DESIGN notes in README.
minizinc:
	@if ! command -v minizinc >/dev/null || ! command -v fzn-gecode >/dev/null; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "Installing MiniZinc and Gecode from Debian (apt-get install minizinc flatzinc)..."; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq minizinc flatzinc >/dev/null; \
	  else \
	    echo "MiniZinc with Gecode is missing and this is not a root Debian shell." >&2; \
	    echo "Install it, then rerun:  sudo apt-get install minizinc flatzinc" >&2; \
	    echo "(or get the MiniZinc bundle from the MiniZinc website and put minizinc and fzn-gecode on PATH)" >&2; \
	    exit 1; \
	  fi; \
	fi

# Debian's Chromium and ChromeDriver, for the games page's browser tests (tests/test_site.py).
browser:
	@if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "Installing Chromium and ChromeDriver from Debian (apt-get install chromium chromium-driver)..."; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; \
	  else \
	    echo "The games page's browser tests need Chromium and ChromeDriver; this is not a root Debian shell." >&2; \
	    echo "Install them, then rerun:  sudo apt-get install chromium chromium-driver" >&2; \
	    exit 1; \
	  fi; \
	fi

# Debian's English and Swedish word lists, for the Wend and Swend puzzle games.
words:
	@if [ ! -f /usr/share/dict/american-english ] || [ ! -f /usr/share/dict/swedish ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "Installing word lists from Debian (apt-get install wamerican wswedish)..."; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wamerican wswedish >/dev/null; \
	  else \
	    echo "Wend and Swend need Debian's word lists; this is not a root Debian shell." >&2; \
	    echo "Install them, then rerun:  sudo apt-get install wamerican wswedish" >&2; \
	    exit 1; \
	  fi; \
	fi

# Debian's PostgreSQL server, which tests/test_design_storage.py starts (initdb and pg_ctl in a
# temporary folder) to run a design search on a shared database.
postgres:
	@if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "Installing the PostgreSQL server from Debian (apt-get install postgresql)..."; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; \
	  else \
	    echo "The design search's database test needs the PostgreSQL server; this is not a root Debian shell." >&2; \
	    echo "Install it, then rerun:  sudo apt-get install postgresql" >&2; \
	    exit 1; \
	  fi; \
	fi

# A C compiler and Python's headers, for setup.py's mypyc build (LUDOLAB_PURE_PYTHON=1 skips it).
compiler:
	@if [ -z "$(PURE_PYTHON)" ] && { ! command -v cc >/dev/null || \
	    ! $(PYTHON) -c 'import os, sysconfig, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; }; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "Installing a C compiler and Python headers from Debian (apt-get install gcc libc6-dev python3-dev)..."; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc libc6-dev python3-dev >/dev/null; \
	  else \
	    echo "Compiling the Catan engine needs a C compiler and Python's headers; this is not a root Debian shell." >&2; \
	    echo "Install them (sudo apt-get install gcc python3-dev), or run the Python source:  LUDOLAB_PURE_PYTHON=1 make ..." >&2; \
	    exit 1; \
	  fi; \
	fi

# setup.py compiles the Catan engine, its agents and the samplers' kernel with mypyc: an edit
# there compiles them again.
$(STAMP): pyproject.toml setup.py $(wildcard envs/catan/*.py envs/catan/agents/*.py) research/catan/kernel.py research/catan/token_lister.py research/catan/listers.c envs/catan/core.c examples/goofspiel/pyproject.toml $(wildcard examples/goofspiel/ludolab_goofspiel/sets/*.toml)
	@[ -x $(BIN)/python ] || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev,openspiel]'
	# The example game from outside the package, installed as its users install theirs (its
	# tests run with the suite's).
	$(BIN)/python -m pip install -q --no-deps -e examples/goofspiel
	@rm -f $(VENV)/.installed $(VENV)/.installed-pure-python
	@touch $(STAMP)

lint: setup
	$(BIN)/ruff check ludolab research envs tests benchmarks docs examples setup.py

bench: setup
	$(BIN)/python benchmarks/generate_boards.py

# Side by side with catanatron, which the script installs into its own .venv-bench.
bench-catan: setup
	$(BIN)/python benchmarks/simulate_catan.py

# 10,000 Catan games with scripted agents, generation and analysis included.
bench-pipeline: setup
	$(BIN)/python benchmarks/pipeline.py

clean:
	rm -rf $(VENV) .venv-bench build .mypy_cache *.egg-info envs/_compiled.json research/_compiled.json
	find . -name '*.so' -not -path './.venv*' -delete
