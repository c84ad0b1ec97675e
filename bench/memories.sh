#!/usr/bin/env bash
# Translation memories at size, through the local runner with the deterministic engine:
#   import     one 100,000-segment TMX file (PUT .../tmx into an empty memory): wall time, and
#              the runner's peak resident memory before and after it (VmHWM).
#   translate  POST /v2/translate throughput and latency (wrk, 16 connections) with that memory
#              attached against none, alternated three times so both see the same machine; the
#              cost of the memory as the ratio of their throughputs (with a fixed number of
#              connections, the inverse of the time per request). Half the sentences the
#              benchmark sends are in the memory.
# Targets: the import finishes; a request with the memory takes at most 1.3x as long.
source "$(dirname "$0")/lib.sh"

app memories deterministic
runner_pid=${pids[-1]}
key=$(developer_key "$address")
auth="Authorization: Service-Auth-Key $key"

peak() { awk '/VmHWM/ {printf "%.0f MiB", $2 / 1024}' "/proc/$runner_pid/status"; }

# 100,000 sentences of made-up words with made-up "translations"; the benchmark's text holds the
# first one, and one sentence that is not in the memory.
python3 - "$work/memory.tmx" <<'PY'
import random, sys
from xml.sax.saxutils import escape
rng = random.Random(11)
words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 9))) for _ in range(20000)]
units = ["The quick brown fox jumps over the lazy dog."]
seen = set(units)
while len(units) < 100000:
    sentence = " ".join(rng.choice(words) for _ in range(rng.randint(5, 14))).capitalize() + "."
    if sentence not in seen:
        seen.add(sentence)
        units.append(sentence)
with open(sys.argv[1], "w", encoding="utf-8") as out:
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4"><header srclang="en" datatype="plaintext" '
              'segtype="sentence" adminlang="en" o-tmf="bench" creationtool="bench" creationtoolversion="1"/><body>\n')
    for unit in units:
        target = unit.upper() if unit != units[0] else "Der schnelle braune Fuchs springt über den faulen Hund."
        out.write(f'<tu><tuv xml:lang="en"><seg>{escape(unit)}</seg></tuv><tuv xml:lang="de"><seg>{escape(target)}</seg></tuv></tu>\n')
    out.write("</body></tmx>\n")
PY
curl -fs -o "$work/answer" -X POST -H "$auth" -H "Content-Type: application/json" \
    -d '{"name": "bench", "source_language": "en", "target_languages": ["de"]}' "http://$address/v3/translation_memories"
memory=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["translation_memory_id"])' "$work/answer")

echo "translation memory import ($(nproc) cores)"
printf '%-44s %s bytes\n' "100,000-segment TMX file" "$(stat -c %s "$work/memory.tmx")"
printf '%-44s %s\n' "runner peak memory before" "$(peak)"
result=$(curl -s -o "$work/answer" -w '%{http_code} %{time_total}' -X PUT -H "$auth" \
    -H "Content-Type: application/x-tmx+xml" --data-binary "@$work/memory.tmx" \
    "http://$address/v3/translation_memories/$memory/tmx")
printf '%-44s status %s  %6.2f s\n' "import (PUT .../tmx)" "${result% *}" "${result#* }"
python3 -c 'import json, sys; a = json.load(open(sys.argv[1])); print("  ", a); assert a["segment_count"] == 100000, a' "$work/answer"
printf '%-44s %s\n' "runner peak memory after" "$(peak)"

plain='{"text": ["The quick brown fox jumps over the lazy dog. It was a sunny day."], "source_lang": "EN", "target_lang": "DE"}'
remembered="${plain%\}}, \"translation_memory_id\": \"$memory\"}"
for kind in plain remembered; do
    curl -fs -o "$work/$kind.out" -X POST -H "$auth" -H "Content-Type: application/json" -d "${!kind}" \
        "http://$address/v2/translate"
    echo "$kind: $(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["translations"][0]["text"])' "$work/$kind.out")"
done
wrk_script "$key" "$plain" "$work/plain.lua"
wrk_script "$key" "$remembered" "$work/remembered.lua"
wrk -t"$THREADS" -c"$CONNECTIONS" -d2s -s "$work/plain.lua" "http://$address/v2/translate" >/dev/null
wrk -t"$THREADS" -c"$CONNECTIONS" -d2s -s "$work/remembered.lua" "http://$address/v2/translate" >/dev/null

echo
echo "translation with the 100,000-segment memory (wrk: $THREADS threads, $CONNECTIONS connections, $DURATION per run)"
alternate "http://$address/v2/translate" plain remembered
echo "a request with the memory takes ${slowdown}x the time of one without it (target: at most 1.3x)"
