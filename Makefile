# The two commands of the README: `make run` serves the site, `make test` runs every test.
# `make docs` serves the manuals of docs/ (mkdocs.yml) while you edit them.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=
DOCS_PORT ?= 8002
# Material for MkDocs announces its end of life on every run; the manuals need nothing of it.
export NO_MKDOCS_2_WARNING := 1

.PHONY: run test install migrate demo serve lint check worker beat bench backup restore docs docs-build clean

run: install migrate demo serve

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Reinstall only when pyproject.toml changes.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Pyodide for the engine on the phone (docs/offline.md), where npm is: without it the site
# installs and runs all the same, and the score pad scores on the server.
NPM_STAMP := node_modules/.package-lock.json

$(NPM_STAMP): package.json package-lock.json
	npm ci --ignore-scripts --no-audit --no-fund

install: $(STAMP)
	$(BIN)/python manage.py compile_translations
	@if command -v npm >/dev/null 2>&1; then $(MAKE) --no-print-directory $(NPM_STAMP); \
	else echo "npm not found: the score pad will score on the server (docs/offline.md)"; fi
	$(BIN)/python manage.py build_engine_bundle

migrate: install
	$(BIN)/python manage.py migrate --noinput

# The demo loads once: the command itself finds an existing demo club and does nothing.
demo: migrate
	$(BIN)/python manage.py load_demo

serve:
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

test: install
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

check: install
	$(BIN)/mypy scoring club live tournaments entries seasons pad config
	$(BIN)/lint-imports

worker: install
	$(BIN)/celery -A config worker -l info

beat: install
	$(BIN)/celery -A config beat -l info

bench: install
	$(BIN)/python bench/scoring_bench.py
	$(BIN)/python bench/standings_bench.py
	$(BIN)/python bench/pairing_bench.py
	$(BIN)/python bench/draw_bench.py

# The data without its secrets (tokens, sessions): backups/belote-<date>.json; see docs/backups.md.
backup: install
	mkdir -p backups
	$(BIN)/python manage.py backup --output backups/belote-$$(date +%Y%m%d-%H%M%S).json

# Into an empty database: make restore FILE=backups/belote-....json
restore: install
	$(BIN)/python manage.py restore $(FILE)

# The manuals as a site, rebuilt as you edit them: http://$(HOST):$(DOCS_PORT)
docs: install
	$(BIN)/mkdocs serve --dev-addr $(HOST):$(DOCS_PORT)

# What CI builds: a broken link or anchor, or a page outside the navigation, fails it.
docs-build: install
	$(BIN)/mkdocs build --strict --site-dir site

clean:
	rm -rf $(VENV) staticfiles site node_modules static/vendor/pyodide static/engine .pytest_cache .mypy_cache .ruff_cache
