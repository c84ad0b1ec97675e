#!/usr/bin/env bash
# What a fresh Debian machine with the Rust toolchain lacks, installed once (idempotent):
#   - the wasm32-wasip2 target;
#   - Apertium APY and the language pairs the `apertium` engine serves (English, Spanish,
#     Catalan, French, Portuguese, Italian, Galician), and curl (scripts/up.sh waits with it);
#   - the Hunspell dictionaries the language-tools service corrects with (crates/language-tools;
#     its tests need every one of them);
#   - with `--tests`, a Python environment in target/venv with the official Python client
#     library, which the end-to-end tests drive.
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

[ "${1:-}" = "--tests" ] && PACKAGES+=(python3-venv)

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
fi
