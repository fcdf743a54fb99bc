#!/usr/bin/env bash
# Site Usage Report latency (issue 16): 1,000,000 site usage events spread over the last year
# (page changes and opened documents, with their per-hour counts, as the API keeps them), then
# the summary (POST /api/event/getEventsForDashboard, a random week per request) and the details
# table (GET /api/Event/GetEventsForDatatable, a random day, sorted by address) under wrk load,
# BENCH_CONNECTIONS (default 8) clients for BENCH_SECONDS (default 10) each, on SQLite and on
# PostgreSQL (TEST_DATABASE_URL's server, else a throwaway cluster); release build, loopback only.
# Targets: dashboard p99 < 50 ms, details p99 < 20 ms. Writes bench/results-usage.md.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/portal.sh
source scripts/lib/postgres.sh
SECONDS_PER_RUN=${BENCH_SECONDS:-10}
CONNECTIONS=${BENCH_CONNECTIONS:-8}
EVENTS=${BENCH_USAGE_EVENTS:-1000000}
OUT=$(mktemp -d /tmp/portal-bench-usage.XXXXXX)
PID=""
PG_DB=""
cleanup() {
  [ -n "$PID" ] && kill "$PID" 2>/dev/null || true
  [ -n "$PG_DB" ] && psql "${PG_URL%/*}/postgres" -qc "DROP DATABASE IF EXISTS $PG_DB" >/dev/null 2>&1 || true
  stop_throwaway_postgres || true
  rm -rf "$OUT"
}
trap cleanup EXIT
BUILD_NOTE="release build"
if [ -z "${PORTAL_API_BIN:-}" ]; then
  cargo build --release --quiet -p portal-api
  PORTAL_API_BIN=target/release/portal-api
else
  # The build's profile and name, not this machine's path.
  BUILD_NOTE="binary $(basename "$(dirname "$PORTAL_API_BIN")")/$(basename "$PORTAL_API_BIN")"
fi
LOAD_START=$(awk '{print $1}' /proc/loadavg)
NOW_MS=$(($(date +%s) * 1000))
YEAR_MS=$((365 * 86400000))

# The events: every 31.5 s or so over the year, one in ten an opened document; addresses, systems
# and browsers from small lists. The same SQL on both engines (generate_series / a recursive CTE).
fill_sql() { # series-sql
  cat <<SQL
INSERT INTO site_usage_events (created_at, event_type, user_id, patient_id, target_id, url, ip, os, browser)
SELECT $NOW_MS - $YEAR_MS + n * ($YEAR_MS / $EVENTS),
       CASE WHEN n % 10 = 0 THEN 13 ELSE 0 END, NULL, NULL,
       CASE WHEN n % 10 = 0 THEN CAST(n % 5000 AS TEXT) ELSE '' END, '/home',
       '10.0.' || CAST(n % 200 AS TEXT) || '.' || CAST(n % 251 AS TEXT),
       CASE n % 4 WHEN 0 THEN 'Windows 10' WHEN 1 THEN 'Mac OSX' WHEN 2 THEN 'iPhone' ELSE 'Android' END,
       CASE n % 3 WHEN 0 THEN 'Chrome 120' WHEN 1 THEN 'Safari 17' ELSE 'Firefox 121' END
FROM ($1) AS s;
INSERT INTO site_usage_hourly (event_type, hour, events)
SELECT event_type, created_at / 3600000, COUNT(*) FROM site_usage_events GROUP BY event_type, created_at / 3600000
ON CONFLICT (event_type, hour) DO UPDATE SET events = excluded.events;
SQL
}

cat > "$OUT/dashboard.lua" <<LUA
math.randomseed(os.time())
wrk.method = "POST"
request = function()
  local day = math.random(7, 364)
  local s = $NOW_MS - day * 86400000
  local body = string.format('{"startDate":"%s","endDate":"%s","type":0,"offsetMinutes":0}',
    os.date("!%Y-%m-%dT00:00:00.000+00:00", math.floor(s / 1000)),
    os.date("!%Y-%m-%dT23:59:59.999+00:00", math.floor(s / 1000) + 6 * 86400))
  return wrk.format(nil, nil, nil, body)
end
LUA
# details_lua SEED ZONE: a random day of the year as a viewer at ZONE (an ISO offset) asks for it.
# At +00:00 the page is a range of the UTC-day index; at -05:00 (05:00Z to 05:00Z) it cannot be,
# and sorts the day's rows (the hourly counts still give the total).
details_lua() {
  cat <<LUA
math.randomseed(os.time() + $1)
request = function()
  local s = math.floor(($NOW_MS - math.random(1, 364) * 86400000) / 1000)
  local path = string.format("/api/Event/GetEventsForDatatable?type=0&startDate=%s&endDate=%s&PageIndex=%d&PageSize=25&SortColumn=IpAddress&SortDirection=desc",
    os.date("!%Y-%m-%dT00:00:00.000$2", s), os.date("!%Y-%m-%dT00:00:00.000$2", s + 86400), math.random(0, 20))
  return wrk.format("GET", path)
end
LUA
}
details_lua 1 '%%2B00:00' > "$OUT/details.lua"
details_lua 2 '-05:00' > "$OUT/details-local.lua"

to_ms() { awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n = n; else if (v ~ /s$/) n *= 1000; printf "%.2f", n }'; }
measure() { # label script base headers... -> "rps p50 p99 non2xx"
  local script=$1 base=$2; shift 2
  local args=() h
  for h in "$@"; do args+=(-H "$h"); done
  local out; out=$(wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_PER_RUN}s" --latency -s "$script" "${args[@]}" "$base")
  echo "$out" >>"$OUT/wrk.txt"
  local non2xx; non2xx=$(echo "$out" | awk '/Non-2xx/ { print $NF }')
  echo "$(echo "$out" | awk '/Requests\/sec/ { print $2 }') $(to_ms "$(echo "$out" | awk '$1 == "50%" { print $2 }')") $(to_ms "$(echo "$out" | awk '$1 == "99%" { print $2 }')") ${non2xx:-0}"
}
rows=()
run() { # engine database-url
  local engine=$1 db=$2 jar=$OUT/jar-$1.txt csrf session
  start_portal "$PORTAL_API_BIN" "$OUT/$engine.log" --database-url "$db" --web-dir web/dist --demo
  PID=$PORTAL_PID
  curl -s -c "$jar" -b "$jar" "$PORTAL_URL/api/TestInit/isPortalConfigured" >/dev/null
  csrf=$(awk '$6 == "portal_csrf" { print $7 }' "$jar")
  curl -s -c "$jar" -b "$jar" -H "Content-Type: application/json" -H "X-CSRF-Token: $csrf" \
    -d '{"usernameOrEmail":"manager","password":"Portal!2026"}' "$PORTAL_URL/api/staffUser/login" | grep -q '"IsValid":true'
  session=$(awk '$6 == "portal_session" { print $7 }' "$jar")
  local cookie="Cookie: portal_session=$session; portal_csrf=$csrf"
  local d; d=$(measure "$OUT/dashboard.lua" "$PORTAL_URL/api/event/getEventsForDashboard" "$cookie" "X-CSRF-Token: $csrf" "Content-Type: application/json")
  local t; t=$(measure "$OUT/details.lua" "$PORTAL_URL" "$cookie")
  local l; l=$(measure "$OUT/details-local.lua" "$PORTAL_URL" "$cookie")
  kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""
  set -- $d; rows+=("| $engine | summary (a random week) | $1 | $2 | $3 | $4 | < 50 |")
  set -- $t; rows+=("| $engine | details (a random UTC day, page of 25 by address) | $1 | $2 | $3 | $4 | < 20 |")
  set -- $l; rows+=("| $engine | details (the same, a UTC-5 viewer's day) | $1 | $2 | $3 | $4 | < 20 |")
}

# SQLite: migrate and seed the demo through the server once, then add the events.
start_portal "$PORTAL_API_BIN" "$OUT/init.log" --database-url "sqlite://$OUT/usage.db" --web-dir web/dist --demo
kill "$PORTAL_PID"; wait "$PORTAL_PID" 2>/dev/null || true
t0=$(date +%s)
sqlite3 "$OUT/usage.db" "$(fill_sql "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < $EVENTS) SELECT n FROM c")"
echo "SQLite: $EVENTS events in $(( $(date +%s) - t0 )) s"
run SQLite "sqlite://$OUT/usage.db"

PG_URL=${TEST_DATABASE_URL:-}
if [ -z "$PG_URL" ] && start_throwaway_postgres; then PG_URL=$PG_URL; fi
if [ -n "$PG_URL" ]; then
  PG_DB="bench_usage_$$"
  psql "$PG_URL" -qc "CREATE DATABASE $PG_DB" >/dev/null
  url="${PG_URL%/*}/$PG_DB"
  start_portal "$PORTAL_API_BIN" "$OUT/init-pg.log" --database-url "$url" --web-dir web/dist --demo
  kill "$PORTAL_PID"; wait "$PORTAL_PID" 2>/dev/null || true
  t0=$(date +%s)
  psql "$url" -qc "$(fill_sql "SELECT generate_series(1, $EVENTS) AS n")" >/dev/null
  psql "$url" -qc "ANALYZE" >/dev/null
  echo "PostgreSQL: $EVENTS events in $(( $(date +%s) - t0 )) s"
  run PostgreSQL "$url"
fi

when=$(date -u +%Y-%m-%dT%H:%M:%SZ)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
cat > bench/results-usage.md <<MD
# Site Usage Report benchmark

Measured $when at commit $commit by \`./scripts/bench.sh usage\` (bench/usage.sh) on this machine
($(nproc) cores, shared with other work: figures are noisy). $EVENTS site usage events over the
last year (one in ten an opened document) with their per-hour counts; $BUILD_NOTE; load average
$LOAD_START at the start; wrk,
2 threads, $CONNECTIONS connections, ${SECONDS_PER_RUN} s per endpoint, 127.0.0.1 only. Each
summary request asks for a random week of the year (and reads the week before it for the trend);
each details request a random day, a random page of 25 sorted by IP address, as a UTC viewer
and as a viewer at UTC-5 asks for it.

| engine | request | req/s | p50 ms | p99 ms | non-2xx | target p99 ms |
|---|---|---:|---:|---:|---:|---:|
$(printf '%s\n' "${rows[@]}")

The summary reads the hourly counts (site_usage_hourly: 2 weeks = 336 rows a type), kept in the
transaction that stores each event; a details page of a UTC day by address is a range of the
(event_type, day, ip, id) index (migration 0059) with LIMIT/OFFSET; another zone's day reads the
day through the (event_type, created_at) index and sorts it. Either way the total is the day's 24
hourly counts.
MD
cat bench/results-usage.md
