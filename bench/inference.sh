#!/usr/bin/env bash
# The neural engine: the inference service (services/inference, CTranslate2) and the application
# with the engines `ctranslate2,apertium` in front of it, with the zh→en model of MODELS_DIR:
#   start         how long the service takes to load the models, and its resident size with them
#                 and with an empty models folder (what one loaded model costs).
#   throughput    sentences per second of the service itself: 4 clients, each sending batches of
#                 32 Chinese sentences, with --threads 1 against --threads 2, in alternating rounds.
#   latency       POST /v2/translate with one Chinese sentence, to EN-US (ctranslate2) and to ES
#                 (the pivot: ctranslate2 to English, then Apertium), at 1 and 4 connections, in
#                 alternating rounds: p50, p99, and the cost of pivoting as the ratio of the p50s.
#   quality       chrF over bench/corpus/udhr-zh-en-es.tsv through the application
#                 (bench/quality.py): zh→en, en→es through Apertium, and zh→es through the pivot.
# No targets: the figures are reported.
source "$(dirname "$0")/lib.sh"

MODELS_DIR=${MODELS_DIR:-target/test-models}
BATCH=32
CLIENTS=4
if [ -e target/inference-venv/.installed ]; then
    INFERENCE_PYTHON=target/inference-venv/bin/python
fi
INFERENCE_PYTHON=${INFERENCE_PYTHON:?no target/inference-venv (scripts/setup.sh makes it): set INFERENCE_PYTHON to a Python with ctranslate2 and sentencepiece}
[ -e "$MODELS_DIR/zh-en/installed.json" ] || {
    echo "no zh→en model in $MODELS_DIR: ./target/debug/glossa models install --models-dir $MODELS_DIR target/models/translate-zh_en.argosmodel" >&2
    exit 1
}
target/venv/bin/python -c 'import sacrebleu' 2>/dev/null || { echo "no sacrebleu in target/venv: make setup-bench" >&2; exit 1; }
secret=bench-$(python3 -c 'import secrets; print(secrets.token_hex(16))')

# inference NAME MODELS THREADS: starts the service and sets `inference_url`, `inference_pid` and
# `answered_in` (seconds from the start until /health answers).
inference() {
    local name=$1 models=$2 threads=$3 port started
    port=$(free_port)
    started=$(date +%s.%N)
    INFERENCE_SECRET=$secret PYTHONPATH=services/inference GLOSSA_LOG=info "$INFERENCE_PYTHON" -m glossa_inference \
        --listen "127.0.0.1:$port" --models "$models" --threads "$threads" >"$work/$name.log" 2>&1 &
    pids+=($!)
    inference_pid=$!
    wait_for "http://127.0.0.1:$port/health" "$work/$name.log"
    answered_in=$(python3 -c "import time; print(f'{time.time() - $started:.2f}')")
    inference_url=http://127.0.0.1:$port
}
rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }
mib() { awk -v kib="$1" 'BEGIN {printf "%.0f MiB", kib / 1024}'; }
stop() { kill -TERM "$1" && wait "$1" 2>/dev/null || true; }

# 1. Start: the models' load time and resident size, with the models and without any.
mkdir "$work/no-models"
inference empty "$work/no-models" 1
empty_kib=$(rss_kib "$inference_pid")
stop "$inference_pid"
inference threads1 "$MODELS_DIR" 1
threads1_url=$inference_url threads1_pid=$inference_pid
loaded_kib=$(rss_kib "$inference_pid")
models=$(curl -fs "$inference_url/health" | python3 -c 'import json, sys; print(json.load(sys.stdin)["families"]["translation"]["models"])')
[ "$models" -ge 1 ] || { echo "the service loaded no model from $MODELS_DIR:" >&2; cat "$work/threads1.log" >&2; exit 1; }
ready=$(sed -n 's/.*translation models ready in \([0-9.]*\) s.*/\1/p' "$work/threads1.log")
echo "inference service: $models model(s) loaded in ${ready:-?} s (its log), /health answering $answered_in s after the start"
echo "  resident $(mib "$loaded_kib") with the model(s), $(mib "$empty_kib") with none:" \
    "$(mib $(( (loaded_kib - empty_kib) / models ))) per loaded model"
inference threads2 "$MODELS_DIR" 2
threads2_url=$inference_url threads2_pid=$inference_pid

# 2. The service's own throughput: CLIENTS clients, each sending BATCH distinct sentences per
# request, one request after another, for DURATION; the requests still in flight then are waited
# for and counted, with the time they took.
python3 -c '
import re, sys
for line in open(sys.argv[1], encoding="utf-8"):
    if not line.startswith("#"):
        print(*re.findall("[^。]+。?", line.split("\t")[1]), sep="\n")
' bench/corpus/udhr-zh-en-es.tsv >"$work/sentences.txt"
load() {
    python3 - "$1" "$secret" "$work/sentences.txt" "$2" "$BATCH" "$CLIENTS" <<'PYTHON'
import json, sys, threading, time, urllib.request
url, secret, path, duration, batch, clients = sys.argv[1:7]
batch, clients = int(batch), int(clients)
seconds = float(duration[:-1]) * {"s": 1, "m": 60, "h": 3600}[duration[-1]] if duration[-1] in "smh" else float(duration)
sentences = open(path, encoding="utf-8").read().split("\n")[:-1]
done, errors, lock = [0], [0], threading.Lock()
deadline = time.perf_counter() + seconds
def client(index):
    offset = index * batch
    while time.perf_counter() < deadline:
        texts = [sentences[(offset + k) % len(sentences)] for k in range(batch)]
        offset += batch * clients
        request = urllib.request.Request(f"{url}/v1/translation/translate",
            data=json.dumps({"source": "zh", "target": "en", "texts": texts}).encode(),
            headers={"Authorization": f"Bearer {secret}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                count = len(json.load(response)["translations"])
        except Exception:
            count, errors[0] = 0, errors[0] + 1
        with lock:
            done[0] += count
started = time.perf_counter()
threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
for thread in threads: thread.start()
for thread in threads: thread.join()
print(f"{done[0] / (time.perf_counter() - started):.1f} {errors[0]}")
PYTHON
}
echo "throughput of the service: $CLIENTS clients, $BATCH sentences per request, $(wc -l <"$work/sentences.txt") distinct Chinese sentences, $DURATION per run"
printf '%-32s %12s  %s\n' run "sentences/s" errors
load "$threads1_url" 2s >/dev/null
load "$threads2_url" 2s >/dev/null
total1=0 total2=0
for round in 1 2 3; do
    read -r rate1 errors1 <<<"$(load "$threads1_url" "$DURATION")"
    read -r rate2 errors2 <<<"$(load "$threads2_url" "$DURATION")"
    printf '%-32s %12s  %s\n' "--threads 1, round $round" "$rate1" "$errors1" "--threads 2, round $round" "$rate2" "$errors2"
    total1=$(python3 -c "print($total1 + $rate1)")
    total2=$(python3 -c "print($total2 + $rate2)")
done
python3 -c "print(f'--threads 2 translates {$total2 / $total1:.2f} times as many sentences per second as --threads 1 (means {$total1 / 3:.1f} and {$total2 / 3:.1f})')"
echo "  resident after the load: $(mib "$(rss_kib "$threads1_pid")") (--threads 1), $(mib "$(rss_kib "$threads2_pid")") (--threads 2)"
stop "$threads1_pid"

# 3. Latency through the application (with the --threads 2 service), zh→EN-US against the pivot
# zh→ES.
apy_port=$(free_port)
scripts/apy-loopback.py -p "$apy_port" /usr/share/apertium/modes >"$work/apy.log" 2>&1 &
pids+=($!)
wait_for "http://127.0.0.1:$apy_port/listPairs" "$work/apy.log"
export SPIN_VARIABLE_INFERENCE_URL=$threads2_url SPIN_VARIABLE_INFERENCE_SECRET=$secret
app neural ctranslate2,apertium "http://127.0.0.1:$apy_port"
key=$(developer_key "$address")
sentence="人人生而自由，在尊严和权利上一律平等。"
declare -A route=([EN-US]=ctranslate2 [ES]=ctranslate2+apertium)
for target in EN-US ES; do
    body="{\"text\": [\"$sentence\"], \"source_lang\": \"ZH\", \"target_lang\": \"$target\"}"
    wrk_script "$key" "$body" "$work/$target.lua"
    engine=$(curl -fs -o "$work/$target.json" -D - -X POST -H "Authorization: Service-Auth-Key $key" \
        -H "Content-Type: application/json" -d "$body" "http://$address/v2/translate" |
        awk -F': *' 'tolower($1) == "x-service-engine" {sub(/\r$/, "", $2); print $2}') || true
    if [ "$engine" != "${route[$target]}" ]; then
        echo "zh→$target went through '${engine}', not '${route[$target]}':" >&2
        cat "$work/$target.json" "$work/neural.log" >&2
        exit 1
    fi
    echo "zh→$target through ${route[$target]}: $(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["translations"][0]["text"])' "$work/$target.json")"
    wrk -t1 -c1 -d2s -s "$work/$target.lua" "http://$address/v2/translate" >/dev/null
done
ms() {
    awk '{value = $1; if (value ~ /us$/) {sub(/us$/, "", value); value /= 1000} else if (value ~ /ms$/) {sub(/ms$/, "", value)} else if (value ~ /s$/) {sub(/s$/, "", value); value *= 1000}; print value}'
}
printf '%-32s %12s %10s %10s  %s\n' run "requests/s" p50 p99 errors
for connections in 1 4; do
    total_en=0 total_es=0
    for round in 1 2 3; do
        for target in EN-US ES; do
            output=$(wrk -t"$(( connections < THREADS ? connections : THREADS ))" -c"$connections" -d"$DURATION" --latency \
                -s "$work/$target.lua" "http://$address/v2/translate")
            printf '%-32s %12s %10s %10s  %s\n' "zh→$target, $connections conn., round $round" "$(figure rps <<<"$output")" \
                "$(figure p50 <<<"$output")" "$(figure p99 <<<"$output")" "$(figure non2xx <<<"$output")"
            p50=$(figure p50 <<<"$output" | ms)
            if [ "$target" = ES ]; then total_es=$(python3 -c "print($total_es + $p50)"); else total_en=$(python3 -c "print($total_en + $p50)"); fi
        done
    done
    python3 -c "print(f'pivoting costs {$total_es / $total_en:.2f} times the p50 of zh→EN-US at $connections connection(s) (means {$total_en / 3:.1f} ms and {$total_es / 3:.1f} ms)')"
done

# 4. Quality, through the application.
target/venv/bin/python bench/quality.py "http://$address" "$key" bench/corpus/udhr-zh-en-es.tsv
