# The two commands: `make run` and `make test`. Everything else supports them.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
HOST ?= 0.0.0.0
PYTHON_FOUND = $(shell PYTHON="$(PYTHON)" scripts/find-python)

.PHONY: run test lint typecheck pytest install install-dev messages schema bench bench-load clean

# Shared links and QR codes name the first LAN address found (phones cannot open "localhost").
# The task worker (ratings, season standings) runs beside the server; Ctrl-C stops both.
run: $(VENV)/.installed-run
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo
	$(PY) manage.py lan_addresses --port $(PORT)
	LAN_URL="$${LAN_URL:-$$($(PY) manage.py lan_addresses --port $(PORT) --first-url)}" \
		PY=$(PY) scripts/with-worker $(PY) manage.py runserver $(HOST):$(PORT)

test: $(VENV)/.installed-dev lint typecheck pytest

lint: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: $(VENV)/.installed-dev
	$(VENV)/bin/mypy .

# pytest exits 5 when it collected no test: that fails here like any other error.
pytest: $(VENV)/.installed-dev
	$(VENV)/bin/pytest $(PYTEST_ARGS)

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
	$(PY) bench/bench_parse.py
	$(PY) bench/bench_site.py
	$(PY) bench/bench_seating.py
	$(PY) bench/bench_tournament.py
	$(PY) bench/bench_league.py

# Both ways a phone saves: without JavaScript (GET + POST) and with it (one htmx POST).
bench-load: $(VENV)/.installed-dev
	$(PY) bench/load_saves.py --mode form
	$(PY) bench/load_saves.py --mode htmx

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache
