#!/usr/bin/env bash
# Throughput and latency of the local runner, measured from a separate process (wrk) with 16
# connections, for three components:
#   health   GET /health             the real application's health check (variable, one SQLite
#                                    upsert, two key-value operations)
#   trivial  GET /probe/trivial      a spin-sdk component that answers "ok"
#   select1  GET /probe/sqlite/select1  the same component running one `SELECT 1`
# It also prints the mean time to instantiate a component per request, from the runner's log.
# These run with the runner's pooled connections; one more run of select1 opens the database as
# Spin does (a fresh connection per request): the most any request that touches the database
# can reach under Spin on the machine.
# Targets (2-core machine, load generator on the same cores): at least the Spin CLI's figures for
# the same components (trivial ~6,600 req/s, SELECT 1 ~3,700 req/s) and p99 under 5 ms.
source "$(dirname "$0")/lib.sh"

# start NAME MANIFEST MIGRATION... : starts a runner, waits until it answers, and sets `address`
# (not printed: a command substitution's subshell would lose the pid cleanup needs).
start() {
    local name=$1 manifest=$2
    shift 2
    local port args=()
    port=$(free_port)
    for migration in "$@"; do args+=(--sqlite "@$migration"); done
    GLOSSA_STORAGE=${STORAGE:-pooled} "$RUNNER" up -f "$manifest" --listen "127.0.0.1:$port" --state-dir "$work/$name" "${args[@]}" \
        >"$work/$name.log" 2>&1 &
    pids+=($!)
    wait_for "http://127.0.0.1:$port/.well-known/spin/health" "$work/$name.log"
    address="127.0.0.1:$port"
}

# measure LABEL URL LOG : one wrk run, one line of figures.
measure() {
    local label=$1 url=$2 log=$3
    curl -fs "$url" >/dev/null # warm up
    wrk -t"$THREADS" -c"$CONNECTIONS" -d2s "$url" >/dev/null
    local before
    before=$(wc -l <"$log")
    local output
    output=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency "$url")
    local instantiate
    instantiate=$(tail -n +"$((before + 1))" "$log" | sed -n 's/.*(instantiated in \([0-9]*\) µs).*/\1/p' |
        awk '{sum += $1; n++} END {if (n) printf "%.0f", sum / n; else print "-"}')
    printf '%-8s %12s %10s %10s %16s  %s\n' "$label" "$(figure rps <<<"$output")" \
        "$(figure p50 <<<"$output")" "$(figure p99 <<<"$output")" "${instantiate} µs" "$(figure non2xx <<<"$output")"
}

start app spin.toml sql/*.sql
app=$address
start probe tests/fixtures/spin.toml tests/fixtures/probe.sql
probe=$address
STORAGE=spin start probe-spin tests/fixtures/spin.toml tests/fixtures/probe.sql
probe_spin=$address

echo "wrk: $THREADS threads, $CONNECTIONS connections, $DURATION per run, on $(nproc) cores"
printf '%-8s %12s %10s %10s %16s  %s\n' component "requests/s" p50 p99 "instantiation" "errors"
measure health "http://$app/health" "$work/app.log"
measure trivial "http://$probe/probe/trivial" "$work/probe.log"
measure select1 "http://$probe/probe/sqlite/select1" "$work/probe.log"
measure select1s "http://$probe_spin/probe/sqlite/select1" "$work/probe-spin.log"
echo "(select1s: select1 with the database opened as Spin opens it, a fresh connection per request)"
