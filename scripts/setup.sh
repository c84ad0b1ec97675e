#!/usr/bin/env bash
# What a fresh Debian machine with the Rust toolchain lacks, installed once (idempotent):
#   - the wasm32-wasip2 target;
#   - Apertium APY and the language pairs the `apertium` engine serves (English, Spanish,
#     Catalan, French, Portuguese, Italian, Galician), and curl (scripts/up.sh waits with it);
#   - the Hunspell dictionaries the language-tools service corrects with (crates/language-tools;
#     its tests need every one of them);
#   - with `--tests`, a Python environment in target/venv with the official Python client
#     library, and the official Node client library in tests/node (npm ci, from its lock file;
#     Debian's Node.js when the machine has none), which the end-to-end tests drive.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
    curl
    apertium-apy
    apertium-eng-spa apertium-eng-cat apertium-spa-cat apertium-en-gl apertium-es-gl
    apertium-fr-es apertium-fra-cat apertium-es-pt apertium-por-cat apertium-spa-ita
    # Hunspell dictionaries for language-tools' correction (English is Harper's, built in).
    hunspell-de-de hunspell-fr hunspell-es hunspell-it hunspell-pt-pt hunspell-nl hunspell-pl
    hunspell-sv hunspell-da hunspell-cs hunspell-ro hunspell-ru
)

rustup target list --installed | grep -qx wasm32-wasip2 || rustup target add wasm32-wasip2

if [ "${1:-}" = "--tests" ]; then
    PACKAGES+=(python3-venv)
    command -v npm >/dev/null || PACKAGES+=(nodejs npm)
fi

missing=()
for package in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    echo "Installing ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [ "${1:-}" = "--tests" ]; then
    if [ ! -x target/venv/bin/python ]; then
        python3 -m venv target/venv
    fi
    target/venv/bin/python -m pip install --quiet --disable-pip-version-check -r tests/python/requirements.txt
    # npm ci again only when the lock file changed since the last install.
    [ tests/node/node_modules/.package-lock.json -nt tests/node/package-lock.json ] ||
        npm ci --prefix tests/node --no-audit --no-fund --loglevel=error
fi
