#!/usr/bin/env bash
# The usage analytics over a large store, measured from a separate process: one subscription
# with 3 developer keys and 1,000 custom tags used on each of 366 days by every key, that is
# 1,098,000 usage rows (seeded into the usage journal with the sqlite3 CLI, as charges write it;
# the first report folds them into usage_daily and the rollups, and says how long that took), then:
#   custom-tags period, first page    wrk, 16 connections: p50, p99
#   custom-tags day, first page       wrk, 16 connections: p50, p99
#   custom-tags day, full walk        every page in turn (curl, one request at a time): pages,
#                                     p50, p99; likewise for the period walk
#   analytics by key                  wrk, 4 connections (the per-day-and-key rollup of the range)
# Target (2-core machine, load generator on the same cores): every custom-tag figure under 50 ms
# p50 through HTTP.
source "$(dirname "$0")/lib.sh"

ADMIN_KEY="bench000-0000-4000-8000-0000000a0a1c:adm"
TAGS=${TAGS:-1000}
DAYS=${DAYS:-366}
# Mid-month, so that the whole range is 16 days, 11 whole months and 16 days.
FIRST_DAY=2025-01-16
LAST_DAY=$(python3 -c "import datetime; print(datetime.date.fromisoformat('$FIRST_DAY') + datetime.timedelta(days=$DAYS - 1))")
RANGE="start_date=$FIRST_DAY&end_date=$LAST_DAY"
state=$work/state

# app: starts the application on $state and sets `address` and `app_pid`.
app() {
    local port args=()
    port=$(free_port)
    for migration in sql/*.sql; do args+=(--sqlite "@$migration"); done
    SPIN_VARIABLE_ENGINE=deterministic SPIN_VARIABLE_BOOTSTRAP_ADMIN_KEY=$ADMIN_KEY GLOSSA_LOG=warn \
        GLOSSA_STORAGE=${STORAGE:-spin} "$RUNNER" up --listen "127.0.0.1:$port" --state-dir "$state" "${args[@]}" >>"$work/app.log" 2>&1 &
    app_pid=$!
    pids+=("$app_pid")
    wait_for "http://127.0.0.1:$port/.well-known/spin/health" "$work/app.log"
    address="127.0.0.1:$port"
}

# 1. The subscription and its keys, through the API; then the usage, straight into the database.
app
for label in web mobile batch; do
    curl -fs -X POST -H "Authorization: Service-Auth-Key $ADMIN_KEY" -H "Content-Type: application/json" \
        -d "{\"label\": \"$label\"}" "http://$address/v2/admin/developer-keys" >/dev/null
done
unlimited_rate "$address"
kill -TERM "$app_pid"
wait "$app_pid" || true
database=$state/sqlite_db.db
started=$(date +%s)
sqlite3 "$database" >/dev/null <<SQL
WITH RECURSIVE
    days(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM days WHERE n < $DAYS - 1),
    tags(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM tags WHERE n < $TAGS),
    keys(subscription_id, id) AS (SELECT subscription_id, id FROM api_keys WHERE kind = 'developer')
INSERT INTO usage_journal (subscription_id, day, key_id, tag, product, period_start, units)
SELECT keys.subscription_id, date('$FIRST_DAY', '+' || days.n || ' days'), keys.id, printf('tag-%04d', tags.n),
       'translate', strftime('%Y-%m-01T00:00:00Z', date('$FIRST_DAY', '+' || days.n || ' days')),
       1 + (days.n * 7 + tags.n) % 100
  FROM days, keys, tags
 ORDER BY 1, 2, 3, 4;
PRAGMA wal_checkpoint(TRUNCATE);
SQL
rows=$(sqlite3 "$database" "SELECT count(*) FROM usage_journal")
echo "seeded $rows usage rows ($TAGS tags) in $(($(date +%s) - started)) s"
app
folding=$(curl -fsS -o /dev/null -w '%{time_total}' -H "Authorization: Service-Auth-Key $ADMIN_KEY" \
    "http://$address/v2/admin/analytics?$RANGE")
entries=$(sqlite3 "$database" "SELECT count(*) FROM usage_tag_daily")
echo "the first report folded them into $entries tag-day entries in $folding s"

# 2. Latency under load.
cat >"$work/admin.lua" <<LUA
wrk.headers["Authorization"] = "Service-Auth-Key $ADMIN_KEY"
LUA
# load LABEL CONNECTIONS PATH: one wrk run, one line of figures.
load() {
    local label=$1 connections=$2 path=$3 output
    curl -fs -H "Authorization: Service-Auth-Key $ADMIN_KEY" "http://$address$path" >/dev/null
    output=$(wrk -t"$THREADS" -c"$connections" -d"${ANALYTICS_DURATION:-5s}" --latency -s "$work/admin.lua" "http://$address$path")
    printf '%-34s %12s %10s %10s  %s\n' "$label" "$(figure rps <<<"$output")" "$(figure p50 <<<"$output")" \
        "$(figure p99 <<<"$output")" "$(figure non2xx <<<"$output")"
}
echo "wrk: $THREADS threads, ${ANALYTICS_DURATION:-5s} per run, on $(nproc) cores"
printf '%-34s %12s %10s %10s  %s\n' run "requests/s" p50 p99 errors
load "custom-tags period, first page" "$CONNECTIONS" "/v2/admin/analytics/custom-tags?$RANGE"
load "custom-tags day, first page" "$CONNECTIONS" "/v2/admin/analytics/custom-tags?$RANGE&aggregate_by=day"
load "analytics by key (whole range)" 4 "/v2/admin/analytics?$RANGE&group_by=key"

# 3. Full walks: follow next_page to the end, one request at a time, timing each.
# walk LABEL QUERY: prints pages, entries, p50 and p99.
walk() {
    local label=$1 query=$2 page=0 pages=0 entries=0 next
    : >"$work/times"
    while :; do
        curl -fsS -o "$work/page.json" -w '%{time_total}\n' -H "Authorization: Service-Auth-Key $ADMIN_KEY" \
            "http://$address/v2/admin/analytics/custom-tags?$query&page=$page" >>"$work/times"
        pages=$((pages + 1))
        entries=$((entries + $(grep -o '"custom_tag"' "$work/page.json" | wc -l)))
        next=$(grep -o '"next_page":[a-z0-9]*' "$work/page.json")
        next=${next#*:}
        [ "$next" = null ] && break
        page=$next
    done
    sort -n "$work/times" | awk -v label="$label" -v pages="$pages" -v entries="$entries" '
        {t[NR] = $1 * 1000}
        END {printf "%-34s %6d pages %8d entries   p50 %7.2fms   p99 %7.2fms\n", label, pages, entries,
             t[int(NR * 0.5 + 0.5)], t[int(NR * 0.99 + 0.5)]}'
}
walk "custom-tags day, full walk" "$RANGE&aggregate_by=day"
walk "custom-tags period, full walk" "$RANGE"
