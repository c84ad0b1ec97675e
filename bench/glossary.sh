#!/usr/bin/env bash
# Glossaries at size, through the local runner with the deterministic engine:
#   upload     creating a 100,000-entry glossary (one POST /v2/glossaries), reading its entries
#              back, and one translation with it attached: wall time of each request.
#   translate  POST /v2/translate throughput and latency (wrk, 16 connections) with a
#              10,000-entry glossary attached against none, alternated three times so both see
#              the same machine, and the cost of the glossary as the ratio of their means.
# Targets: the uploads and the translation finish (no timeout); the glossary costs under 20 %.
source "$(dirname "$0")/lib.sh"

app glossary deterministic
key=$(developer_key "$address")
auth="Authorization: Service-Auth-Key $key"

# glossary_body COUNT FILE: a v2 glossary of COUNT made-up terms plus the two that the
# benchmark's sentence holds, as a JSON body.
glossary_body() {
    python3 - "$1" "$2" <<'PY'
import json, random, sys
count, path = int(sys.argv[1]), sys.argv[2]
rng = random.Random(7)
letters = "abcdefghijklmnopqrstuvwxyz"
lines, seen = ["quick brown fox\tschneller brauner Fuchs", "lazy dog\tfauler Hund"], set()
while len(lines) < count:
    words = ["".join(rng.choice(letters) for _ in range(rng.randint(4, 10))) for _ in range(rng.randint(1, 3))]
    source = " ".join(words)
    if source not in seen and source not in ("quick", "lazy"):
        seen.add(source)
        lines.append(f"{source}\t{source.upper()}")
json.dump({"name": f"bench {count}", "source_lang": "en", "target_lang": "de", "entries": "\n".join(lines)},
          open(path, "w"))
PY
}

# timed LABEL CURL_ARGS...: runs one request, prints its status and wall time; sets `body`.
timed() {
    local label=$1
    shift
    local result
    result=$(curl -s -o "$work/answer" -w '%{http_code} %{time_total}' -H "$auth" "$@")
    body=$(cat "$work/answer")
    printf '%-44s status %s  %6.2f s\n' "$label" "${result% *}" "${result#* }"
}

echo "glossary uploads ($(nproc) cores)"
glossary_body 100000 "$work/large.json"
printf '%-44s %s bytes\n' "100,000-entry glossary, JSON body" "$(stat -c %s "$work/large.json")"
timed "create (POST /v2/glossaries)" -X POST -H "Content-Type: application/json" \
    --data-binary "@$work/large.json" "http://$address/v2/glossaries"
large=$(python3 -c 'import json, sys; g = json.loads(sys.argv[1]); print(g["glossary_id"]); assert g["entry_count"] == 100000, g' "$body")
timed "read entries (GET .../entries, TSV)" "http://$address/v2/glossaries/$large/entries"
echo "  $(wc -l <<<"$body") entries read back"
sentence='{"text": ["The quick brown fox jumps over the lazy dog."], "source_lang": "EN", "target_lang": "DE", "glossary_id": "GLOSSARY"}'
timed "translate with it attached" -X POST -H "Content-Type: application/json" \
    -d "${sentence/GLOSSARY/$large}" "http://$address/v2/translate"
echo "  $body"

glossary_body 10000 "$work/medium.json"
curl -fs -o "$work/answer" -X POST -H "$auth" -H "Content-Type: application/json" \
    --data-binary "@$work/medium.json" "http://$address/v2/glossaries"
medium=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["glossary_id"])' "$work/answer")

plain='{"text": ["The quick brown fox jumps over the lazy dog."], "source_lang": "EN", "target_lang": "DE"}'
wrk_script "$key" "$plain" "$work/plain.lua"
wrk_script "$key" "${sentence/GLOSSARY/$medium}" "$work/glossary.lua"
wrk -t"$THREADS" -c"$CONNECTIONS" -d2s -s "$work/plain.lua" "http://$address/v2/translate" >/dev/null
wrk -t"$THREADS" -c"$CONNECTIONS" -d2s -s "$work/glossary.lua" "http://$address/v2/translate" >/dev/null

echo
echo "translation with a 10,000-entry glossary (wrk: $THREADS threads, $CONNECTIONS connections, $DURATION per run)"
printf '%-32s %12s %10s %10s %10s  %s\n' run "requests/s" p50 p99 mean errors
plain_total=0
glossary_total=0
for round in 1 2 3; do
    for kind in plain glossary; do
        output=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s "$work/$kind.lua" "http://$address/v2/translate")
        rps=$(figure rps <<<"$output")
        printf '%-32s %12s %10s %10s %10s  %s\n' "$kind, round $round" "$rps" "$(figure p50 <<<"$output")" \
            "$(figure p99 <<<"$output")" "$(figure mean <<<"$output")" "$(figure non2xx <<<"$output")"
        if [ "$kind" = plain ]; then
            plain_total=$(python3 -c "print($plain_total + $rps)")
        else
            glossary_total=$(python3 -c "print($glossary_total + $rps)")
        fi
    done
done
python3 -c "print(f'the 10,000-entry glossary costs {(1 - $glossary_total / $plain_total) * 100:.1f} % of the throughput (target: under 20 %)')"
