# The two commands of the README: `make run` serves the site, `make test` runs every test.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=

.PHONY: run test install migrate demo serve lint check worker beat bench backup restore clean

run: install migrate demo serve

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Reinstall only when pyproject.toml changes.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)
	$(BIN)/python manage.py compile_translations

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
	$(BIN)/mypy scoring club tournaments config
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

# The data without its secrets (tokens, sessions): backups/belote-<date>.json; see README.
backup: install
	mkdir -p backups
	$(BIN)/python manage.py backup --output backups/belote-$$(date +%Y%m%d-%H%M%S).json

# Into an empty database: make restore FILE=backups/belote-....json
restore: install
	$(BIN)/python manage.py restore $(FILE)

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache
