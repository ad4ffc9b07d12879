# The two commands: `make run` and `make test`. Everything else supports them.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
HOST ?= 0.0.0.0
PYTHON_FOUND = $(shell PYTHON="$(PYTHON)" scripts/find-python)

.PHONY: run dev test lint typecheck pytest install install-dev lock messages schema bench bench-load clean

# The club's server: production mode (DEBUG off) on this computer's Wi-Fi, with the addresses
# phones can open printed, and the task worker (ratings, season standings) beside it; Ctrl-C
# stops both (rummy_site/management/commands/serve.py).
run: $(VENV)/.installed-run
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo
	$(PY) manage.py serve --host $(HOST) --port $(PORT)

# Django's debug server, for development only: it shows tracebacks and settings, so it listens
# on this computer alone. The task worker runs beside it (scripts/with-worker).
dev: $(VENV)/.installed-run
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo
	PY=$(PY) scripts/with-worker $(PY) manage.py runserver 127.0.0.1:$(PORT)

test: $(VENV)/.installed-dev lint typecheck pytest

lint: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: $(VENV)/.installed-dev
	$(VENV)/bin/mypy .

# pytest exits 5 when it collected no test: that fails here like any other error. The suite
# runs on every core (pytest-xdist), each test module on one worker, so that a module's own
# setup (seeded data, a server process) is made once; each worker has its own test database, and
# what many modules share is made once: a migrated database per run, the collected static
# files kept between runs until a static source changes.
# PYTEST_ARGS="-n 0" runs it in one process. Python writes its compiled modules even where the
# shell says not to: every worker and every server a test starts would otherwise compile the
# project and the tests' rewritten asserts again.
pytest: $(VENV)/.installed-dev
	env -u PYTHONDONTWRITEBYTECODE $(VENV)/bin/pytest -n auto --dist loadscope $(PYTEST_ARGS)

# The lock files from pyproject.toml's pins, in a throw-away venv (scripts/lock).
lock:
	@py="$(PYTHON_FOUND)"; test -n "$$py" || exit 1; scripts/lock "$$py"

install: $(VENV)/.installed-run
install-dev: $(VENV)/.installed-dev

$(PY):
	@py="$(PYTHON_FOUND)"; test -n "$$py" || exit 1; echo "Creating $(VENV) with $$py"; "$$py" -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.installed-run: requirements.lock | $(PY)
	$(PY) -m pip install --quiet -r requirements.lock
	touch $@

$(VENV)/.installed-dev: requirements-dev.lock requirements.lock | $(PY)
	$(PY) -m pip install --quiet -r requirements-dev.lock
	touch $(VENV)/.installed-run $@

# Translators: after editing strings, `make messages`, translate locale/*/LC_MESSAGES/django.po,
# then `make messages` again to compile. Needs GNU gettext; the compiled .mo files are committed
# so that running the site never does.
messages: $(VENV)/.installed-dev
	$(PY) manage.py makemessages --all --no-obsolete --ignore=.venv --ignore=staticfiles
	$(PY) manage.py compilemessages --ignore=.venv

# The OpenAPI schema, checked in so that API changes are reviewed (tests/api/test_schema.py).
schema: $(VENV)/.installed-dev
	$(PY) manage.py spectacular --validate --fail-on-warn --file docs/openapi.yaml

# Every figure beside its peer or baseline (bench/README.md); the load test needs PostgreSQL.
bench: $(VENV)/.installed-dev
	$(PY) bench/bench_engine.py
	$(PY) bench/bench_opening.py
	$(PY) bench/bench_parse.py
	$(PY) bench/bench_site.py
	$(PY) bench/bench_seating.py
	$(PY) bench/bench_tournament.py
	$(PY) bench/bench_league.py
	$(PY) bench/bench_pipeline.py

# A tournament night under Locust: gunicorn + PostgreSQL on this machine, loopback only; a club
# night of 25 tables, then a big open of 150, 10 minutes each. One shorter run, e.g.
# `make bench-load LOAD_ARGS="--tables 25 --seconds 150"` (bench/load_night.py --help). Then a
# federation of 200 clubs and 500,000 games on PostgreSQL (bench/bench_federation.py).
LOAD_ARGS ?=
bench-load: $(VENV)/.installed-dev
	$(PY) bench/load_night.py $(LOAD_ARGS)
	$(PY) bench/bench_federation.py

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache
