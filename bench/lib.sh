# Shared by the benchmark scripts: settings, a scratch directory, processes stopped on exit, and
# helpers to start things and read wrk's figures. Sourced, never run.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-16}
THREADS=${THREADS:-2}
RUNNER=${RUNNER:-./target/dist/glossa}
work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_for URL LOG: waits until URL answers; shows LOG and stops if it never does.
wait_for() {
    local url=$1 log=$2
    for _ in $(seq 1 600); do
        curl -fs "$url" >/dev/null 2>&1 && return
        sleep 0.1
    done
    echo "nothing answered at $url:" >&2
    cat "$log" >&2
    exit 1
}

# figure NAME < WRK_OUTPUT: one figure from wrk's report (rps, p50, p99, mean, non2xx).
figure() {
    case $1 in
    rps) awk '/^Requests\/sec:/ {print $2}' ;;
    p50) awk '$1 == "50%" {print $2}' ;;
    p99) awk '$1 == "99%" {print $2}' ;;
    mean) awk '$1 == "Latency" {print $2; exit}' ;;
    non2xx) awk '/Non-2xx or 3xx responses:/ {print "non-2xx: " $NF} /Socket errors:/ {print "socket:" $0}' ;;
    esac
}

# The bootstrap admin key of the applications `app` starts.
ADMIN_KEY=${ADMIN_KEY:-"bench000-0000-4000-8000-000000000000:adm"}

# app NAME ENGINE [APERTIUM_URL]: starts the application and sets `address` (not printed: a
# command substitution's subshell would lose the pid cleanup needs). Its databases are opened as
# Spin opens them (a fresh connection per request) unless STORAGE=pooled says otherwise. It uses
# the language-tools service at LANGUAGE_TOOLS_URL with LANGUAGE_TOOLS_SECRET when both are set.
app() {
    local name=$1 engine=$2 apertium=${3:-http://127.0.0.1:2737}
    local port args=()
    port=$(free_port)
    for migration in sql/*.sql; do args+=(--sqlite "@$migration"); done
    SPIN_VARIABLE_LANGUAGE_TOOLS_URL=${LANGUAGE_TOOLS_URL:-http://127.0.0.1:2740} \
    SPIN_VARIABLE_LANGUAGE_TOOLS_SECRET=${LANGUAGE_TOOLS_SECRET:-} \
    SPIN_VARIABLE_ENGINE=$engine SPIN_VARIABLE_APERTIUM_URL=$apertium SPIN_VARIABLE_BOOTSTRAP_ADMIN_KEY=$ADMIN_KEY \
        GLOSSA_LOG=warn GLOSSA_STORAGE=${STORAGE:-spin} "$RUNNER" up --listen "127.0.0.1:$port" --state-dir "$work/$name" "${args[@]}" \
        >"$work/$name.log" 2>&1 &
    pids+=($!)
    wait_for "http://127.0.0.1:$port/.well-known/spin/health" "$work/$name.log"
    address="127.0.0.1:$port"
}

# unlimited_rate ADDRESS [ADMIN_KEY]: raises the request rate limit of the admin key's
# subscription (the bootstrap one by default) to the most the admin API allows: the load
# generator sends far more than the default 100 requests per second per key.
unlimited_rate() {
    curl -fs -o /dev/null -X PUT -H "Authorization: Service-Auth-Key ${2:-$ADMIN_KEY}" -H "Content-Type: application/json" \
        -d '{"requests_per_second": 100000, "burst": 100000}' "http://$1/v2/admin/rate-limit"
}

# developer_key ADDRESS: a new developer key of the bootstrap subscription, without a binding
# rate limit.
developer_key() {
    unlimited_rate "$1"
    curl -fs -X POST -H "Authorization: Service-Auth-Key $ADMIN_KEY" "http://$1/v2/admin/developer-keys" |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["key"])'
}

# A wrk script that POSTs a JSON body with a key.
wrk_script() {
    local key=$1 body=$2 file=$3
    cat >"$file" <<LUA
wrk.method = "POST"
wrk.body = '$body'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Service-Auth-Key $key"
LUA
}

# alternate URL A B: loads URL with $work/A.lua and $work/B.lua in turn (wrk, three rounds of
# each, so both see the same machine), prints a row per run, and sets `slowdown` to how much
# longer a B request takes than an A request: with a fixed number of connections, the time a
# request takes is the inverse of the throughput.
alternate() {
    local url=$1 a=$2 b=$3 round kind output rps
    local -A total=([$a]=0 [$b]=0)
    printf '%-32s %12s %10s %10s %10s  %s\n' run "requests/s" p50 p99 mean errors
    for round in 1 2 3; do
        for kind in "$a" "$b"; do
            output=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s "$work/$kind.lua" "$url")
            rps=$(figure rps <<<"$output")
            printf '%-32s %12s %10s %10s %10s  %s\n' "$kind, round $round" "$rps" "$(figure p50 <<<"$output")" \
                "$(figure p99 <<<"$output")" "$(figure mean <<<"$output")" "$(figure non2xx <<<"$output")"
            total[$kind]=$(python3 -c "print(${total[$kind]} + $rps)")
        done
    done
    slowdown=$(python3 -c "print(f'{${total[$a]} / ${total[$b]}:.2f}')")
}

# translate_document FILE [FIELD=VALUE...]: uploads $work/FILE to the application at `address`
# with the key in `auth` (the fields as form parts), polls its status every 100 ms until it is
# done, downloads the result to $work/FILE.out, and sets `done_after` and `downloaded_after`
# (seconds from the upload). A refused or failed document stops the script.
translate_document() {
    local file=$1 started answer id document_key status fields=()
    shift
    for field in "$@"; do fields+=(-F "$field"); done
    started=$(date +%s.%N)
    answer=$(curl -s -H "$auth" -F "file=@$work/$file" "${fields[@]}" "http://$address/v2/document")
    id=$(python3 -c 'import json, sys; print(json.loads(sys.argv[1]).get("document_id", ""))' "$answer")
    [ -n "$id" ] || { echo "$file: refused: $answer" >&2; exit 1; }
    document_key=$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["document_key"])' "$answer")
    while :; do
        status=$(curl -fs -H "$auth" -d "document_key=$document_key" "http://$address/v2/document/$id" |
            python3 -c 'import json, sys; print(json.load(sys.stdin)["status"])')
        [ "$status" = done ] && break
        [ "$status" = error ] && { echo "$file: status error" >&2; exit 1; }
        sleep 0.1
    done
    done_after=$(awk "BEGIN {print $(date +%s.%N) - $started}")
    curl -fs -o "$work/$file.out" -H "$auth" -d "document_key=$document_key" "http://$address/v2/document/$id/result"
    downloaded_after=$(awk "BEGIN {print $(date +%s.%N) - $started}")
}
