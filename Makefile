# One command for the main job (`make generate`) and one for the tests (`make test`);
# both create or refresh the virtual environment from pyproject.toml when needed.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
CORE   := $(VENV)/.installed-core
DEV    := $(VENV)/.installed-dev

.PHONY: generate check lint test bench clean-venv

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(CORE): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $@

$(DEV): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(CORE) $@

## generate: regenerate src/maverick/contracts/ from schemas/ (removes stale generated files)
generate: $(CORE)
	$(PY) -m codegen generate

## check: fail when generated code has drifted from the schemas
check: $(CORE)
	$(PY) -m codegen check

## lint: ruff (lint and format check) and mypy --strict over src/ and codegen/
lint: $(DEV)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(PY) -m mypy

## test: the drift check, lint, then the whole test suite (pytest's "no tests ran" fails)
test: $(DEV)
	$(PY) -m codegen check
	$(MAKE) --no-print-directory lint
	$(PY) -m pytest; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing" >&2; exit 1; fi; exit $$rc

## bench: the benchmarks (they print ratios measured in one run)
bench: $(DEV)
	$(PY) bench/bench_codegen.py
	$(PY) bench/bench_validate_output.py

clean-venv:
	rm -rf $(VENV)
