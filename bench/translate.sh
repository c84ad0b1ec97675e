#!/usr/bin/env bash
# Text translation under load, measured from a separate process (wrk), 16 connections:
#   deterministic   POST /v2/translate through the local runner with the deterministic engine:
#                   requests per second, p50/p99; every request authenticated, metered and
#                   recorded durably (checked afterwards against /v2/usage). Twice: with the
#                   databases opened as Spin opens them (a fresh connection per request, what a
#                   deployment under Spin costs) and with the runner's pooled connections.
#   apertium        the same sentences through the app with the apertium engine, against
#                   calling Apertium APY directly: the latency the app adds.
# Targets (2-core machine, load generator on the same cores): Spin-style storage at least 2,000
# requests/s with p99 under 50 ms and no errors; pooled at least 5,000 requests/s; the app adds
# under 10 % to APY's latency.
source "$(dirname "$0")/lib.sh"

echo "wrk: $THREADS threads, $DURATION per run, on $(nproc) cores"
printf '%-32s %12s %10s %10s %10s  %s\n' run "requests/s" p50 p99 mean errors

# 1. Throughput with the deterministic engine, in both storage modes.
body='{"text": ["The quick brown fox jumps over the lazy dog."], "source_lang": "EN", "target_lang": "DE"}'
for storage in spin pooled; do
    STORAGE=$storage app "deterministic-$storage" deterministic
    key=$(developer_key "$address")
    wrk_script "$key" "$body" "$work/deterministic.lua"
    wrk -t"$THREADS" -c"$CONNECTIONS" -d2s -s "$work/deterministic.lua" "http://$address/v2/translate" >/dev/null
    usage() {
        curl -fs -H "Authorization: Service-Auth-Key $key" "http://$address/v2/usage" |
            python3 -c 'import json, sys; print(json.load(sys.stdin)["api_key_character_count"])'
    }
    before=$(usage)
    output=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s "$work/deterministic.lua" "http://$address/v2/translate")
    requests=$(awk '/requests in/ {print $1}' <<<"$output")
    printf '%-32s %12s %10s %10s %10s  %s\n' "deterministic, $storage storage" \
        "$(figure rps <<<"$output")" "$(figure p50 <<<"$output")" "$(figure p99 <<<"$output")" \
        "$(figure mean <<<"$output")" "$(figure non2xx <<<"$output")"
    after=$(usage)
    echo "  usage recorded: $(( (after - before) / 44 )) of $requests requests (44 characters each)"
    kill -TERM "${pids[-1]}" && wait "${pids[-1]}" 2>/dev/null || true
done

# 2. The latency the app adds to Apertium.
apy_port=$(free_port)
scripts/apy-loopback.py -p "$apy_port" /usr/share/apertium/modes >"$work/apy.log" 2>&1 &
pids+=($!)
wait_for "http://127.0.0.1:$apy_port/listPairs" "$work/apy.log"
app apertium apertium "http://127.0.0.1:$apy_port"
apertium=$address
key=$(developer_key "$apertium")
wrk_script "$key" "$body" "$work/apertium.lua"
cat >"$work/apy.lua" <<'LUA'
wrk.method = "POST"
wrk.body = "langpair=eng%7Cspa&markUnknown=no&q=The%20quick%20brown%20fox%20jumps%20over%20the%20lazy%20dog."
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
LUA
sed -i 's/"DE"}/"ES"}/' "$work/apertium.lua"
# Warm both up, then alternate the two (the machine is noisy), and compare mean latencies.
wrk -t1 -c4 -d2s -s "$work/apy.lua" "http://127.0.0.1:$apy_port/translate" >/dev/null
wrk -t1 -c4 -d2s -s "$work/apertium.lua" "http://$apertium/v2/translate" >/dev/null
mean_ms() {
    awk '$1 == "Latency" {value = $2; if (value ~ /us$/) {sub(/us$/, "", value); value /= 1000} else if (value ~ /ms$/) {sub(/ms$/, "", value)} else if (value ~ /s$/) {sub(/s$/, "", value); value *= 1000}; print value; exit}'
}
direct_total=0
app_total=0
for round in 1 2 3; do
    direct=$(wrk -t1 -c4 -d"$DURATION" --latency -s "$work/apy.lua" "http://127.0.0.1:$apy_port/translate")
    through=$(wrk -t1 -c4 -d"$DURATION" --latency -s "$work/apertium.lua" "http://$apertium/v2/translate")
    d=$(mean_ms <<<"$direct")
    a=$(mean_ms <<<"$through")
    printf '%-32s %12s %10s %10s %10s\n' "APY directly, round $round" "$(figure rps <<<"$direct")" \
        "$(figure p50 <<<"$direct")" "$(figure p99 <<<"$direct")" "${d}ms"
    printf '%-32s %12s %10s %10s %10s\n' "app + apertium, round $round" "$(figure rps <<<"$through")" \
        "$(figure p50 <<<"$through")" "$(figure p99 <<<"$through")" "${a}ms"
    direct_total=$(python3 -c "print($direct_total + $d)")
    app_total=$(python3 -c "print($app_total + $a)")
done
python3 -c "print(f'the app adds {($app_total / $direct_total - 1) * 100:+.1f} % to the mean latency of calling APY directly (4 connections)')"
