#!/usr/bin/env bash
# The service under attack, and its memory:
#   slow bodies   1,100 clients send their headers, then trickle their bodies a byte a second;
#                 meanwhile wrk measures GET /health and POST /v2/translate (requests/s, p99,
#                 errors), against the same load without the attack.
#   idle          3,000 connections that never send a byte, then the same measurement.
#   memory        the runner's resident size idle, at the end of a 256-connection burst, and
#                 15 s after it.
# Targets: under attack the service answers every request (no 5xx, no socket errors) at a
# rate of the same order as without it; memory after a burst falls back towards the idle figure.
source "$(dirname "$0")/lib.sh"

app hostile deterministic
key=$(developer_key "$address")
body='{"text": ["The quick brown fox jumps over the lazy dog."], "source_lang": "EN", "target_lang": "DE"}'
wrk_script "$key" "$body" "$work/translate.lua"
runner_pid=${pids[-1]}

rss_mib() { awk '/^VmRSS:/ {printf "%.0f MiB", $2 / 1024}' "/proc/$runner_pid/status"; }

# attackers MODE COUNT: opens COUNT connections in the background (MODE slow: a head and a
# trickled body; idle: nothing sent); they hold on until killed.
attackers() {
    python3 - "$1" "$2" "${address%:*}" "${address#*:}" <<'PY' &
import socket, sys, time
mode, count, host, port = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
sockets = []
for _ in range(count):
    s = socket.create_connection((host, port))
    if mode == "slow":
        s.sendall(b"POST /v2/translate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n")
    sockets.append(s)
while True:
    for s in sockets:
        if mode == "slow":
            try:
                s.send(b" ")
            except OSError:
                pass
    time.sleep(1)
PY
    pids+=($!)
    sleep 3
}

printf '%-36s %12s %10s  %s\n' run "requests/s" p99 errors
measure() {
    local label=$1
    for target in health translate; do
        local output
        if [ "$target" = health ]; then
            output=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --timeout 5s --latency "http://$address/health")
        else
            output=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --timeout 5s --latency -s "$work/translate.lua" "http://$address/v2/translate")
        fi
        printf '%-36s %12s %10s  %s\n' "$label, $target" "$(figure rps <<<"$output")" "$(figure p99 <<<"$output")" \
            "$(figure non2xx <<<"$output" | tr '\n' ' ')"
    done
}

ulimit -n 8192 2>/dev/null || true
echo "memory idle: $(rss_mib)"
measure "no attack"
attackers slow 1100
measure "1,100 slow bodies"
kill -TERM "${pids[-1]}"
attackers idle 3000
measure "3,000 idle connections"
kill -TERM "${pids[-1]}"

wrk -t"$THREADS" -c256 -d"$DURATION" -s "$work/translate.lua" "http://$address/v2/translate" >/dev/null &
burst=$!
sleep "$(( ${DURATION%s} - 1 ))"
echo "memory at the end of a 256-connection burst: $(rss_mib)"
wait "$burst"
sleep 15
echo "memory 15 s after the burst: $(rss_mib)"
