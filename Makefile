# One command for the main job (`make generate`) and one for the tests (`make test`);
# both create or refresh the virtual environment from pyproject.toml when needed.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
CORE   := $(VENV)/.installed-core
DEV    := $(VENV)/.installed-dev
# The TypeScript consumer test's packages: `npm ci` when missing or when the lock file changed.
TS_CONSUMER  := tests/consumers/typescript
NODE_MODULES := $(TS_CONSUMER)/node_modules/.maverick-npm-ci
EXPORT_OUT   ?= export
NPM_OUT      ?= npm

.PHONY: generate check lint test docs bench clean-venv

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# --no-compile: bytecode is written as modules are first imported, not ahead for every package.
$(CORE): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --no-compile -e .
	touch $@

$(DEV): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --no-compile -e ".[dev]"
	touch $(CORE) $@

$(NODE_MODULES): $(TS_CONSUMER)/package.json $(TS_CONSUMER)/package-lock.json
	npm ci --prefix $(TS_CONSUMER) --no-audit --no-fund
	touch $@

## generate: regenerate src/maverick/contracts/, docs/contracts.md, export/ and npm/ from schemas/
generate: $(CORE)
	$(PY) -m codegen generate

## export: write the export for consumers that are not Python to $(EXPORT_OUT) (make export EXPORT_OUT=dir)
.PHONY: export
export: $(CORE)
	$(PY) -m codegen export --out $(EXPORT_OUT)

## npm: write the npm package to $(NPM_OUT) (make npm NPM_OUT=dir), refusing a version that
## understates the changes since the last release (the git tag v<version>)
.PHONY: npm
npm: $(CORE)
	$(PY) -m codegen export --npm $(NPM_OUT)

## format: rewrite the schema files in the canonical layout (key order, 2-space JSON)
.PHONY: format
format: $(CORE)
	$(PY) -m codegen format

## check: fail when generated code has drifted from the schemas
check: $(CORE)
	$(PY) -m codegen check

## breaking: fail when the schemas changed incompatibly since AGAINST (a git revision; default:
## the upstream branch if one is configured, else HEAD), e.g. make breaking AGAINST=main
.PHONY: breaking
breaking: $(CORE)
	$(PY) -m codegen breaking $(if $(AGAINST),--against $(AGAINST))

## changelog: what changed in the schemas since AGAINST, per contract, and the semver bump it
## implies (Markdown; FORMAT=json for tools), e.g. make changelog AGAINST=v1.4.2
.PHONY: changelog
changelog: $(CORE)
	$(PY) -m codegen changelog $(if $(AGAINST),--against $(AGAINST)) $(if $(FORMAT),--format $(FORMAT))

## lint: the schema lint (maverick-codegen lint), ruff (lint and format check), mypy --strict
lint: $(DEV)
	$(PY) -m codegen lint
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(PY) -m mypy

## docs: build the documentation site (mkdocs.yml, docs/) into site/, strict: a broken link or
## anchor, or a page the navigation leaves out, fails
SITE_DIR ?= site
docs: $(DEV)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --site-dir $(SITE_DIR)

## test: the schema lint, the drift check, lint, the documentation site (make docs), then the
## whole test suite: on every core (TEST_WORKERS, default auto; a test module's fixtures are
## built once, on one worker), then the tests marked timing (wall-clock bounds) alone. pytest's "no tests ran" fails either run.
TEST_WORKERS ?= auto
TIMING_TESTS = $(shell grep -rlE --include='test_*.py' 'mark\.timing' tests)
PYTEST_RC = rc=$$?; if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing" >&2; exit 1; fi; \
	if [ $$rc -ne 0 ]; then exit $$rc; fi
test: $(DEV) $(NODE_MODULES)
	$(PY) -m codegen lint
	$(PY) -m codegen check
	$(MAKE) --no-print-directory lint
	$(MAKE) --no-print-directory docs
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile -m "not timing"; $(PYTEST_RC)
	$(PY) -m pytest -m timing $(TIMING_TESTS); $(PYTEST_RC)

## bench: the benchmarks (they print ratios measured in one run)
bench: $(DEV)
	$(PY) bench/bench_codegen.py
	$(PY) bench/bench_speed.py
	$(PY) bench/bench_npm.py
	$(PY) bench/bench_validate_output.py
	$(PY) bench/bench_suite.py
	$(PY) bench/bench_watch.py
	$(PY) bench/bench_tools.py
	$(PY) bench/bench_strings.py
	$(PY) bench/bench_tools_load.py
	$(PY) bench/bench_breaking.py

clean-venv:
	rm -rf $(VENV)
