# The two commands that matter: `make up` serves Glossa, `make test` runs every test.
# Both work on a fresh Debian machine with the Rust toolchain.

SHELL := /bin/bash
LISTEN ?= 127.0.0.1:3000
STATE_DIR ?= .spin
CARGO ?= cargo
# The runner `make up` and `make bench` use: the `dist` profile (see Cargo.toml).
RUNNER := ./target/dist/glossa
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# The Wasm crates: built for wasm32-wasip2 by spin.toml's build commands, not natively.
COMPONENTS := $(notdir $(wildcard components/*)) probe
# Every native package. Cargo picks dependency features by the packages one command builds, so
# every native build here (and the test harness's, in tests/src/lib.rs) selects exactly these,
# with their binaries and tests, and compiles each dependency once.
NATIVE := --workspace $(COMPONENTS:%=--exclude %)

.PHONY: up test check fmt setup setup-bench build build-release bench clean

## up: build everything and serve the application on $(LISTEN) until interrupted.
up: setup build-release
	LISTEN=$(LISTEN) STATE_DIR=$(STATE_DIR) RUNNER=$(RUNNER) exec scripts/up.sh

## test: the lints (`check`), unit tests and end-to-end tests (which start the application for real).
test: setup check
	scripts/setup.sh --tests
	$(CARGO) build --locked $(NATIVE) --bins --tests
	# The inference service's own tests, the real zh→en model (installed as the end-to-end tests
	# install it) and the whisper speech models (setup.sh fetched them) included.
	[ -e target/test-models/zh-en/installed.json ] || ./target/debug/glossa models install \
		--models-dir target/test-models target/models/translate-zh_en.argosmodel
	[ -e target/test-models/whisper-tiny.en/installed.json ] || ./target/debug/glossa models install \
		--models-dir target/test-models target/models/whisper-tiny.en
	[ -e target/test-models/whisper-base/installed.json ] || ./target/debug/glossa models install \
		--models-dir target/test-models target/models/whisper-base
	cd services/inference && GLOSSA_TEST_MODELS=../../target/test-models \
		../../target/inference-venv/bin/python -m unittest discover -s tests -t .
	$(CARGO) test --locked $(NATIVE)
	# Text translation and glossaries once more with the databases opened as Spin opens them.
	GLOSSA_STORAGE=spin $(CARGO) test --locked $(NATIVE) --test translate --test glossaries

## check: rustfmt, and clippy with -D warnings for the native crates and the components.
check: setup
	$(CARGO) fmt --all --check
	$(CARGO) clippy --locked $(NATIVE) --all-targets -- -D warnings
	$(CARGO) clippy --locked --target wasm32-wasip2 $(COMPONENTS:%=-p %) -- -D warnings

fmt:
	$(CARGO) fmt --all

## setup: what a fresh Debian machine with the Rust toolchain lacks (see scripts/setup.sh).
setup:
	scripts/setup.sh

build:
	$(CARGO) build --locked -p runner
	./target/debug/glossa build

build-release:
	$(CARGO) build --locked --profile dist -p runner
	$(CARGO) build --locked --release -p language-tools -p voice-gateway
	$(RUNNER) build

## bench: requests per second and latency under load: the runner (bench/runner.sh), text
## translation (bench/translate.sh), glossaries (bench/glossary.sh: a 100,000-entry upload, and
## translation with a 10,000-entry glossary against none), style rules (bench/style_rules.sh:
## translation with a list of 30 mechanical rules against none), translation memories
## (bench/memories.sh: a 100,000-segment TMX import, and translation with that memory against
## none), PDFs and images (bench/pdf_images.sh: a 20-page PDF, a sign and a page, read and written
## by the language-tools service), documents (bench/documents.sh: a one-page and a 1,000-paragraph docx, a 5 MB xlsx and
## a 1 MB text file, from upload to done, with peak memory), the usage analytics over a million
## usage rows (bench/analytics.sh), the service under slow-body and idle-connection attacks,
## with its memory after a burst (bench/hostile.sh), detection accuracy, write throughput and
## the language-tools service's memory (bench/language_tools.sh), and the neural engine: the
## inference service's start, memory per model and throughput, latency through the application
## with the cost of pivoting zh→es through English, and chrF (bench/inference.sh), and real-time
## voice: word error rate and latency of concluded segments with whisper-base and tiny.en, the
## voice gateway's memory per session, and the concurrent sessions sustained (bench/voice.sh).
bench: setup setup-bench build-release
	$(RUNNER) build -f tests/fixtures/spin.toml
	[ -e target/test-models/zh-en/installed.json ] || $(RUNNER) models install \
		--models-dir target/test-models target/models/translate-zh_en.argosmodel
	bench/runner.sh
	bench/translate.sh
	bench/glossary.sh
	bench/style_rules.sh
	bench/memories.sh
	bench/documents.sh
	bench/pdf_images.sh
	bench/analytics.sh
	bench/hostile.sh
	bench/language_tools.sh
	bench/inference.sh
	bench/voice.sh

# wrk and sqlite3, and in target/venv sacrebleu (chrF, for bench/quality.py) and the test
# requirements (python-docx and XlsxWriter make bench/documents.sh's files).
setup-bench:
	@command -v wrk >/dev/null && command -v sqlite3 >/dev/null || \
		{ $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq wrk sqlite3; }
	@[ -x target/venv/bin/python ] || python3 -m venv target/venv
	@target/venv/bin/python -c 'import sacrebleu' 2>/dev/null || \
		target/venv/bin/python -m pip install --quiet --disable-pip-version-check sacrebleu==2.6.0
	@target/venv/bin/python -c 'import docx, xlsxwriter' 2>/dev/null || \
		target/venv/bin/python -m pip install --quiet --disable-pip-version-check -r tests/python/requirements.txt

clean:
	$(CARGO) clean
