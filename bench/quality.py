#!/usr/bin/env python3
"""Translation quality as chrF: bench/inference.sh runs it against a running application whose
engines are `ctranslate2,apertium`.

    bench/quality.py APP_URL KEY CORPUS

CORPUS is bench/corpus/udhr-zh-en-es.tsv (id, zh, en, es: aligned paragraphs of the Universal
Declaration of Human Rights). Every paragraph goes through the application's POST /v2/translate,
as a client sends it, a few paragraphs per request, three times:

    ctranslate2            zh → en   against the English reference
    apertium               en → es   against the Spanish reference (Apertium has no Chinese)
    ctranslate2+apertium   zh → es   the pivot through English, against the Spanish reference

Each answer's `x-service-engine` header must name the system's route; anything else stops the
script. It prints one line per system with its pair, the number of paragraphs and the corpus
chrF (sacrebleu's CHRF with its defaults: character 6-grams, beta 2), and the wall time.
"""

import json
import sys
import time
import urllib.request

from sacrebleu.metrics import CHRF

TEXTS_PER_REQUEST = 8
# (route the header must name, source_lang, target_lang, source column, reference column)
SYSTEMS = [
    ("ctranslate2", "ZH", "EN-GB", "zh", "en"),
    ("apertium", "EN", "ES", "en", "es"),
    ("ctranslate2+apertium", "ZH", "ES", "zh", "es"),
]


def translate(app, key, texts, source, target, route):
    body = json.dumps({"text": texts, "source_lang": source, "target_lang": target}).encode()
    request = urllib.request.Request(
        f"{app}/v2/translate",
        data=body,
        headers={"Authorization": f"Service-Auth-Key {key}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=120) as response:
        engine = response.headers.get("x-service-engine")
        answer = json.load(response)
    if engine != route:
        sys.exit(f"quality.py: {source}→{target} went through {engine!r}, not {route!r}")
    return [item["text"] for item in answer["translations"]]


def main():
    app, key, corpus = sys.argv[1:4]
    rows = []
    with open(corpus, encoding="utf-8") as lines:
        for line in lines:
            if line.startswith("#") or not line.strip():
                continue
            _, zh, en, es = line.rstrip("\n").split("\t")
            rows.append({"zh": zh, "en": en, "es": es})

    print(f"{'system':22} {'pair':7} {'paragraphs':>10} {'chrF':>6} {'time':>8}")
    for route, source, target, column, reference in SYSTEMS:
        texts = [row[column] for row in rows]
        started = time.perf_counter()
        output = []
        for start in range(0, len(texts), TEXTS_PER_REQUEST):
            output += translate(app, key, texts[start : start + TEXTS_PER_REQUEST], source, target, route)
        elapsed = time.perf_counter() - started
        score = CHRF().corpus_score(output, [[row[reference] for row in rows]])
        pair = f"{column}→{target.split('-')[0].lower()}"
        print(f"{route:22} {pair:7} {len(rows):10} {score.score:6.1f} {elapsed:7.1f}s")


if __name__ == "__main__":
    main()
