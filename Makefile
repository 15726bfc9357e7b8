# Two commands for a new user: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# Running needs requirements.txt; developing and testing add requirements-dev.txt.
STAMP := $(VENV)/.installed-requirements
DEV_STAMP := $(VENV)/.installed-requirements-dev
PG_URL ?= postgres://postgres@127.0.0.1:5432/cage_ci
# The suite runs in one process per CPU (pytest-xdist), a test file to a process: each process has
# its own test database, and every test makes what it uses. WORKERS=0 runs it in this process.
WORKERS ?= auto

.PHONY: run serve serve-setup admin test lint test-postgres check-ledger catalogues messages bench

$(STAMP): requirements.txt
	$(PYTHON) -c 'import sys; sys.exit("Python 3.11 or newer is needed") if sys.version_info < (3, 11) else None'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $(STAMP)

$(DEV_STAMP): $(STAMP) requirements-dev.txt
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $(DEV_STAMP)

# The local demo asks for DEBUG (the repository's laptop key, plain http on 127.0.0.1, error pages
# with details) and says so; a real event never runs this way (README: Running an event for real).
run: export DEBUG = true
run: $(STAMP) catalogues
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo
	@echo
	@echo "make run: DEBUG is ON for this local demo (plain http on 127.0.0.1, the repository's laptop key)."
	@echo "          Never use it for a real event: see 'Running an event for real' in README.md."
	@echo
	$(PY) manage.py runserver 127.0.0.1:8000

# The production server on the fair's network (README: Running the cage at a fair): gunicorn over
# TLS, with a certificate from the event's own authority made on first use; the event's own
# database (not the demo's), a secret key kept in a file, static files collected with their hashes.
# Each may be set instead; SERVE_ARGS passes options to `manage.py serve` (--port, --bind, --name).
SERVE_VAR ?= $(CURDIR)/var
serve admin serve-setup: export DATABASE_URL ?= sqlite:///$(SERVE_VAR)/event.sqlite3
serve admin serve-setup: export SECRET_KEY_FILE ?= $(SERVE_VAR)/secret_key
serve admin serve-setup: export STATIC_ROOT ?= $(SERVE_VAR)/static
serve admin serve-setup: export TLS_DIR ?= $(SERVE_VAR)/tls

serve-setup: $(STAMP) catalogues
	mkdir -p $(SERVE_VAR) && chmod 700 $(SERVE_VAR)  # the database, its key and the authority's: the owner's only
	test -n "$$SECRET_KEY" || test -s "$$SECRET_KEY_FILE" || (umask 077 && $(PY) -c 'import secrets; print(secrets.token_urlsafe(50))' > "$$SECRET_KEY_FILE")
	$(PY) manage.py migrate --noinput

serve: serve-setup
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(PY) manage.py serve $(SERVE_ARGS)

# The licensee's administrator, in the database `make serve` serves (Django's createsuperuser).
admin: serve-setup
	$(PY) manage.py createsuperuser $(ADMIN_ARGS)

lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

test: lint catalogues
	$(PY) -m pytest -n $(WORKERS) --dist loadfile

# The French catalogue, compiled for Django (Babel: no system package needed). Never committed.
catalogues: $(STAMP)
	$(PY) -m config.catalogues

# For developers, after marking strings: bring locale/fr_CA/LC_MESSAGES/django.po up to date
# (needs gettext's xgettext and msgmerge), then translate what it marks new or fuzzy.
messages: export DEBUG = true
messages: $(STAMP)
	$(PY) -m config.catalogues --update

# The same suite on a real PostgreSQL server (the database named in PG_URL need not exist;
# pytest-django creates test_<name> beside it). The browser tests run once, on SQLite: they walk the
# pages, which read and write through the same services, and the database's own part (locks, the
# app role, COPY) is tested below the pages on both.
test-postgres: $(DEV_STAMP) catalogues
	DATABASE_URL=$(PG_URL) $(PY) -m pytest -n $(WORKERS) --dist loadfile --ignore=tests/browser

# On the demo's database unless told otherwise (a real site sets SECRET_KEY and DEBUG=false).
check-ledger: export DEBUG ?= true
check-ledger: $(STAMP)
	$(PY) manage.py check_ledger

# Speed beside its floor, on SQLite and PostgreSQL (README: Speed); results in bench/results/.
# QUICK=1: the pages' ratios alone, on smaller events (bench/pages.py), in a minute or two.
bench: $(DEV_STAMP) catalogues
	$(PY) -m bench.run $(if $(QUICK),--quick)
