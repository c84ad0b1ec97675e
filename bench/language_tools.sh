#!/usr/bin/env bash
# The language-tools service (crates/language-tools, release build) behind the application:
#   start         how long the service takes to load its models, and its resident size then.
#   detection     accuracy per language over bench/corpus/detection.tsv (the Universal Declaration
#                 of Human Rights: sentences of 5 words or more, and texts of 1 to 4 words) through
#                 POST /v3/detect/language, and the p50 latency detection adds (bench/detection.py).
#   write         POST /v2/write/correct under load (wrk, 16 connections): requests/s, p50, p99.
#   memory        the service's resident size after the load.
# Targets: detection right for at least 99 % of long texts and 95 % of short ones in at least 20
# languages; detection adds at most 2 ms at p50 over loopback.
source "$(dirname "$0")/lib.sh"

SERVICE=${LANGUAGE_TOOLS:-./target/release/glossa-language-tools}
port=$(free_port)
export LANGUAGE_TOOLS_SECRET=bench-$(python3 -c 'import secrets; print(secrets.token_hex(16))')
export LANGUAGE_TOOLS_URL=http://127.0.0.1:$port
started=$(date +%s.%N)
GLOSSA_LOG=warn "$SERVICE" --listen "127.0.0.1:$port" >"$work/language-tools.log" 2>&1 &
pids+=($!)
service_pid=$!
wait_for "$LANGUAGE_TOOLS_URL/health" "$work/language-tools.log"
rss_mib() { awk '/^VmRSS:/ {printf "%.0f MiB", $2 / 1024}' "/proc/$service_pid/status"; }
echo "language-tools: models loaded in $(python3 -c "import time; print(f'{time.time() - $started:.1f} s')"), resident $(rss_mib)"

app language-tools deterministic
key=$(developer_key "$address")
python3 bench/detection.py "http://$address" "$key" "$LANGUAGE_TOOLS_URL" "$LANGUAGE_TOOLS_SECRET" bench/corpus/detection.tsv

body='{"text": ["I has a apple. Their going too the store tomorow."], "target_lang": "en-US"}'
wrk_script "$key" "$body" "$work/correct.lua"
output=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s "$work/correct.lua" "http://$address/v2/write/correct")
printf '%-32s %12s %10s %10s  %s\n' run "requests/s" p50 p99 errors
printf '%-32s %12s %10s %10s  %s\n' "write/correct, 1 English text" "$(figure rps <<<"$output")" \
    "$(figure p50 <<<"$output")" "$(figure p99 <<<"$output")" "$(figure non2xx <<<"$output")"
echo "language-tools after the load: resident $(rss_mib)"
