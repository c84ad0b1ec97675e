# The two commands that matter: `make up` serves Glossa, `make test` runs every test.
# Both work on a fresh Debian machine with the Rust toolchain.

SHELL := /bin/bash
LISTEN ?= 127.0.0.1:3000
STATE_DIR ?= .spin
CARGO ?= cargo
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
MIGRATIONS := $(sort $(wildcard sql/*.sql))
SQLITE_ARGS := $(foreach file,$(MIGRATIONS),--sqlite @$(file))

.PHONY: up test check fmt setup setup-bench build build-release bench clean

## up: build everything and serve the application on $(LISTEN) until interrupted.
up: setup build-release
	@echo "Starting Glossa on http://$(LISTEN) (state in $(STATE_DIR)); press Ctrl-C to stop."
	@echo "Check it with: curl -i http://$(LISTEN)/health"
	exec ./target/release/glossa up --listen $(LISTEN) --state-dir $(STATE_DIR) \
		--runtime-config-file runtime-config.toml $(SQLITE_ARGS)

## test: unit tests and end-to-end tests (which start the application for real).
test: setup
	$(CARGO) fmt --all --check
	$(CARGO) build --locked -p runner
	$(CARGO) test --locked --workspace --exclude health --exclude probe

## check: lints for the native crates and the components.
check: setup
	$(CARGO) fmt --all --check
	$(CARGO) clippy --locked --workspace --exclude health --exclude probe --all-targets -- -D warnings
	$(CARGO) clippy --locked --target wasm32-wasip2 -p health -p probe -- -D warnings

fmt:
	$(CARGO) fmt --all

## setup: what a fresh Debian machine with the Rust toolchain lacks.
setup:
	@rustup target list --installed | grep -qx wasm32-wasip2 || rustup target add wasm32-wasip2

build:
	$(CARGO) build --locked -p runner
	./target/debug/glossa build

build-release:
	$(CARGO) build --locked --release -p runner
	./target/release/glossa build

## bench: requests per second and latency of the runner under load (see bench/runner.sh).
bench: setup setup-bench build-release
	./target/release/glossa build -f tests/fixtures/spin.toml
	bench/runner.sh

setup-bench:
	@command -v wrk >/dev/null || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq wrk; }

clean:
	$(CARGO) clean
