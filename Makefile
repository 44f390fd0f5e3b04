# Every target sets up what it needs on a fresh machine: a virtual
# environment in .venv, and for the browser tests Debian's chromium and the
# npm packages the tests load (htmx, Turbo).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test versions lint docs bench browser-deps server-deps font-deps html-checker clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

browser-deps: $(STAMP)
	@[ -x /usr/bin/chromium ] || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium; }
	@if [ -f tests/browser/package-lock.json ]; then cd tests/browser && npm ci --silent --no-audit --no-fund; fi

# Debian's redis-server, memcached and postgresql: the tests and the
# benchmarks start their own, on a free port of 127.0.0.1, and stop them by
# their pid (gunicorn and the database drivers come from pip). PostgreSQL runs
# from its binaries in a temporary folder (tests/postgres.py), never as the
# system's service.
server-deps: $(STAMP)
	@command -v redis-server >/dev/null || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq redis-server; }
	@[ -x /usr/bin/memcached ] || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq memcached; }
	@ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq postgresql; }

# Debian's Noto fonts for the generated images' tests (Arabic, Hebrew,
# Devanagari, CJK, color emoji: the package ships Noto Sans only), and
# FriBiDi, which Pillow's wheels load at runtime to lay text out right to
# left with libraqm.
font-deps:
	@[ -f /usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc ] && [ -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ] && [ -f /usr/share/fonts/truetype/noto/NotoSansArabic-Bold.ttf ] && ldconfig -p | grep -q libfribidi || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji libfribidi0; }

## The example app: a notes site on SQLite, created and seeded on first run
## (the app also compiles its translations when it starts). htmx comes from
## npm into example_app/static/vendor, which git ignores; without npm the
## site runs with full page loads.
HTMX := example_app/static/vendor/htmx.min.js

$(HTMX): example_app/package.json example_app/package-lock.json
	@if command -v npm >/dev/null; then \
		cd example_app && npm ci --silent --no-audit --no-fund && \
		mkdir -p static/vendor && cp node_modules/htmx.org/dist/htmx.min.js static/vendor/; \
	else echo "npm not found: the example app runs without htmx (full page loads)."; fi

run: $(STAMP) $(HTMX)
	$(BIN)/flask --app example_app run --debug

## The W3C HTML checker (vnu.jar, from npm with the example's packages)
## runs on Java from Debian, installed first so that vnu-jar's npm install
## finds it (and downloads nothing).
html-checker:
	@command -v java >/dev/null || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq default-jre-headless; }

## The whole test suite, browser tests included.
test: $(STAMP) browser-deps server-deps font-deps html-checker $(HTMX)
	$(BIN)/python -m pytest

## The tests again on the oldest and the newest versions claimed
## (noxfile.py: Python 3.10 with every lower bound of pyproject.toml, 3.12
## and 3.13 with the newest releases; pyenv's Pythons). The browser's tests run once,
## in `make test`.
versions: $(STAMP) server-deps font-deps html-checker $(HTMX)
	$(BIN)/nox --error-on-missing-interpreters

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict

docs: $(STAMP)
	$(BIN)/sphinx-build -W --keep-going -b html docs docs/_build/html

bench: $(STAMP) browser-deps server-deps
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	$(BIN)/python benchmarks/head.py
	@[ ! -f benchmarks/sitemap.py ] || $(BIN)/python benchmarks/sitemap.py
	@[ ! -f benchmarks/browser_size.py ] || $(BIN)/python benchmarks/browser_size.py
	@[ ! -f benchmarks/audit.py ] || $(BIN)/python benchmarks/audit.py
	@[ ! -f benchmarks/sitemap_load.py ] || $(BIN)/python benchmarks/sitemap_load.py
	@[ ! -f benchmarks/scale.py ] || $(BIN)/python benchmarks/scale.py

clean:
	rm -rf $(VENV) docs/_build tests/browser/node_modules example_app/node_modules example_app/static/vendor
