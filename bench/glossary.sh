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

# Distinct terms in one text: a 20,000-entry glossary of numbered terms (t0 … t19999, every
# prefix past `t` a term) and one text of 1,500, 5,000 and 15,000 distinct terms of it (the
# largest 94 KB); the best of three translations of each. Linear work takes ten times as long for
# ten times the terms.
python3 - "$work/numbered.json" <<'PY'
import json, sys
entries = "\n".join(f"t{index}\tz{index}" for index in range(20000))
json.dump({"name": "numbered", "source_lang": "en", "target_lang": "de", "entries": entries}, open(sys.argv[1], "w"))
PY
curl -fs -o "$work/answer" -X POST -H "$auth" -H "Content-Type: application/json" \
    --data-binary "@$work/numbered.json" "http://$address/v2/glossaries"
numbered=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["glossary_id"])' "$work/answer")

echo
echo "one text with many distinct terms of a 20,000-entry glossary (best of 3)"
printf '%-24s %10s %10s %14s\n' "distinct terms" "text" "time" "per 1,000"
for hits in 1500 5000 15000; do
    python3 - "$hits" "$numbered" "$work/hits.json" <<'PY'
import json, sys
hits, glossary, path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
text = " ".join(f"t{index}" for index in range(hits))
json.dump({"text": [text], "source_lang": "EN", "target_lang": "DE", "glossary_id": glossary}, open(path, "w"))
PY
    best=""
    for _ in 1 2 3; do
        result=$(curl -s -o "$work/answer" -w '%{http_code} %{time_total}' -X POST -H "$auth" \
            -H "Content-Type: application/json" --data-binary "@$work/hits.json" "http://$address/v2/translate")
        [ "${result% *}" = 200 ] || { echo "status ${result% *}: $(head -c 300 "$work/answer")" >&2; exit 1; }
        best=$(python3 -c "print(min(float('${best:-inf}'), ${result#* }))")
    done
    python3 - "$hits" "$work/answer" <<'PY'
import json, sys
hits = int(sys.argv[1])
text = json.load(open(sys.argv[2]))["translations"][0]["text"]
assert text.split() == [f"z{index}" for index in range(hits)], "a term did not come back as its target"
PY
    printf '%-24s %7s KB %8.2f s %11.1f ms\n' "$hits" "$(($(stat -c %s "$work/hits.json") / 1000))" "$best" \
        "$(python3 -c "print($best * 1e6 / $hits)")"
done

# Noisy neighbours: another subscription's translations while this one uploads a 100,000-entry
# glossary. The upload writes its entries in short transactions, so the other tenant's requests
# (which write their usage) wait at most for one of them. Four clients of the other tenant send
# translations one after another for as long as the upload lasts. Target: their p99 under 100 ms.
other_admin=$("$RUNNER" admin create-subscription --plan pro -f spin.toml --state-dir "$work/glossary" 2>/dev/null |
    sed -n 's/^Admin key (shown only now, keep it safe): //p')
unlimited_rate "$address" "$other_admin"
other_key=$(curl -fs -X POST -H "Authorization: Service-Auth-Key $other_admin" "http://$address/v2/admin/developer-keys" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["key"])')
echo
python3 - "$address" "$key" "$other_key" "$work/large.json" <<'PY'
import http.client, json, sys, threading, time
address, key, other, upload = sys.argv[1:5]
host, port = address.split(":")
done, latencies, failures = threading.Event(), [], []
def tenant():
    connection = http.client.HTTPConnection(host, int(port))
    body = json.dumps({"text": ["The quick brown fox jumps over the lazy dog."], "target_lang": "DE"})
    while not done.is_set():
        started = time.perf_counter()
        connection.request("POST", "/v2/translate", body, {"Authorization": f"Service-Auth-Key {other}", "Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        latencies.append(time.perf_counter() - started)
        if response.status != 200:
            failures.append(response.status)
clients = [threading.Thread(target=tenant) for _ in range(4)]
for client in clients:
    client.start()
connection = http.client.HTTPConnection(host, int(port), timeout=600)
started = time.perf_counter()
connection.request("POST", "/v2/glossaries", open(upload, "rb").read(), {"Authorization": f"Service-Auth-Key {key}", "Content-Type": "application/json"})
status = connection.getresponse().status
took = time.perf_counter() - started
done.set()
for client in clients:
    client.join()
latencies.sort()
p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
print(f"another tenant during a 100,000-entry upload ({took:.2f} s, status {status}): "
      f"{len(latencies)} translations, p99 {p99:.1f} ms, max {latencies[-1] * 1000:.1f} ms, {len(failures)} failed")
PY
