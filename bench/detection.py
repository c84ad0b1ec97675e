#!/usr/bin/env python3
"""Detection accuracy and latency: bench/language_tools.sh runs it against a running application
and its language-tools service.

    bench/detection.py APP_URL KEY SERVICE_URL SERVICE_SECRET CORPUS

Every text of CORPUS (bench/corpus/detection.tsv: lang, kind, text) in a language the service
detects goes on its own to the application's POST /v3/detect/language, as a client sends it. A
text counts as right when the answer is `success` with its language, or, for a language that
cannot be a detected source (the listing of translate_text gives it no auto_detection),
`unsupported_language`. It prints the accuracy per language for long texts (5 words or more) and
short ones (1 to 4), the totals, and the p50 and p99 latency of the application's answer and of
the service's own /detect for one text (what detection adds to a translation).
"""

import json
import statistics
import sys
import time
import urllib.request
from collections import defaultdict


def call(url, body=None, headers=None):
    request = urllib.request.Request(url, data=None if body is None else json.dumps(body).encode(), headers=headers or {})
    if body is not None:
        request.add_header("Content-Type", "application/json")
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=30) as response:
        answer = json.load(response)
    return answer, time.perf_counter() - started


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def main():
    app, key, service, secret, corpus = sys.argv[1:6]
    auth = {"Authorization": f"Service-Auth-Key {key}"}
    known = set(call(f"{service}/health")[0]["detection"])
    listing, _ = call(f"{app}/v3/languages?resource=translate_text", headers=auth)
    sources = {entry["lang"] for entry in listing if "auto_detection" in entry["features"]}

    texts = []
    with open(corpus, encoding="utf-8") as lines:
        for line in lines:
            if line.startswith("#") or not line.strip():
                continue
            lang, kind, text = line.rstrip("\n").split("\t", 2)
            if lang in known:
                texts.append((lang, kind, text))

    right = defaultdict(lambda: defaultdict(int))
    total = defaultdict(lambda: defaultdict(int))
    app_times, service_times = [], []
    wrong = defaultdict(list)
    for lang, kind, text in texts:
        answer, elapsed = call(f"{app}/v3/detect/language", {"text": [text]}, auth)
        app_times.append(elapsed)
        _, elapsed = call(f"{service}/detect", {"texts": [text]}, {"Authorization": f"Bearer {secret}"})
        service_times.append(elapsed)
        result = answer["results"][0]
        status = result["detection_status"]
        if lang in sources:
            ok = status == "success" and result.get("detected_language") == lang
        else:
            ok = status == "unsupported_language"
        total[lang][kind] += 1
        if ok:
            right[lang][kind] += 1
        elif len(wrong[lang]) < 3:
            wrong[lang].append(f"{kind} {text[:40]!r} → {result.get('detected_language', status)}")

    def share(lang, kind):
        return right[lang][kind] / total[lang][kind] if total[lang][kind] else float("nan")

    print(f"{'language':10} {'long':>7} {'short':>7}  {'expected':12} first misses")
    for lang in sorted(total):
        expected = "its code" if lang in sources else "unsupported"
        misses = "; ".join(wrong[lang])
        print(f"{lang:10} {share(lang, 'long'):7.1%} {share(lang, 'short'):7.1%}  {expected:12} {misses}")
    languages = len(total)
    for kind, goal in (("long", 0.99), ("short", 0.95)):
        hits = sum(right[lang][kind] for lang in total)
        count = sum(total[lang][kind] for lang in total)
        meeting = sum(1 for lang in total if share(lang, kind) >= goal)
        print(f"{kind:6} texts: {hits / count:.2%} right over {count} texts in {languages} languages; "
              f"{meeting} languages at {goal:.0%} or better")
    ms = lambda seconds: f"{seconds * 1000:.2f} ms"
    print(f"latency, one text: POST /v3/detect/language p50 {ms(statistics.median(app_times))}, "
          f"p99 {ms(percentile(app_times, 0.99))}; the service's /detect (what detection adds) "
          f"p50 {ms(statistics.median(service_times))}, p99 {ms(percentile(service_times, 0.99))}")


if __name__ == "__main__":
    main()
