# One-command setup: Debian's MiniZinc + Gecode, a local virtual environment, the package.
# Every target is idempotent; a second run only checks stamps and returns quickly.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-all setup minizinc lint bench bench-catan bench-pipeline clean

# The quickstart experiment end to end: boards, games, statistics, figures, report.
WORKERS ?= $(shell nproc 2>/dev/null || echo 1)
demo: setup
	$(BIN)/ludolab run experiments/quickstart.toml --workers $(WORKERS)

test: setup
	$(BIN)/python -m pytest -q

test-all: setup
	$(BIN)/python -m pytest -q -m "slow or not slow"

setup: minizinc $(STAMP)

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

$(STAMP): pyproject.toml
	@[ -x $(BIN)/python ] || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	@touch $(STAMP)

lint: setup
	$(BIN)/ruff check research envs tests benchmarks

bench: setup
	$(BIN)/python benchmarks/generate_boards.py

# Side by side with catanatron, which the script installs into its own .venv-bench.
bench-catan: setup
	$(BIN)/python benchmarks/simulate_catan.py

# 10,000 Catan games with scripted agents, generation and analysis included.
bench-pipeline: setup
	$(BIN)/python benchmarks/pipeline.py

clean:
	rm -rf $(VENV) .venv-bench build *.egg-info
