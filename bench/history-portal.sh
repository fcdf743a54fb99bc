#!/usr/bin/env bash
# History Portal list at a million rows (issue 6): generates 1,000,000 survey-queue rows (with
# their appointments and 200,000 patients) across 20 locations and 3 years with set-based SQL,
# then measures POST /api/surveyQueue/datatable under bounded concurrent load (wrk, 127.0.0.1)
# on SQLite and on PostgreSQL. Writes bench/results-history-portal.md.
#   bench/history-portal.sh            both engines (PostgreSQL at $BENCH_PG_ADMIN_URL)
#   ROWS=100000 DURATION=5 bench/history-portal.sh   smaller / shorter
#   BASELINE_BIN=/path/to/older/portal-api bench/history-portal.sh   before/after in one run: the
#     data set is generated for each binary (its own schema), both servers run side by side and
#     every case is measured with the older binary and then with this one, so both see the same
#     machine load; the results add a before/after table with ratios.
#   ENGINES=sqlite | ENGINES=postgres   one engine only
#   KEEP_DATA=1 keeps the generated databases; SQLITE_DATA=/path/bench.db and PG_DATA=postgres://...
#     measure such a kept data set again instead of generating one (no generation row then).
# Needs target/release/portal-api (cargo build --release -p portal-api), wrk, sqlite3 or python3,
# psql for PostgreSQL.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
source "$ROOT/scripts/lib/portal.sh"
BIN=${PORTAL_API_BIN:-$ROOT/target/release/portal-api}
ROWS=${ROWS:-1000000}
PATIENTS=$(( ROWS / 5 ))
DURATION=${DURATION:-10}
CONNECTIONS=${CONNECTIONS:-4}
PG_ADMIN=${BENCH_PG_ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres}
OUT=$ROOT/bench/results-history-portal.md
TMP=$(mktemp -d /tmp/portal-bench-hp.XXXXXX)
PIDS=()
PG_DB=portal_bench_hp_$$
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  if [ -n "${KEEP_DATA:-}" ]; then # KEEP_DATA=1: leave the generated databases for EXPLAIN
    echo "kept $TMP${PG_CREATED:+ and PostgreSQL databases $PG_DB, ${PG_DB}_before}" >&2
    return
  fi
  [ -n "${PG_CREATED:-}" ] && psql "$PG_ADMIN" -qc "DROP DATABASE IF EXISTS $PG_DB" >/dev/null 2>&1 || true
  [ -n "${PG_CREATED:-}" ] && psql "$PG_ADMIN" -qc "DROP DATABASE IF EXISTS ${PG_DB}_before" >/dev/null 2>&1 || true
  rm -rf "$TMP"
}
trap cleanup EXIT
[ -x "$BIN" ] || { echo "build first: cargo build --release -p portal-api" >&2; exit 1; }
if [ -n "${BASELINE_BIN:-}" ]; then
  [ -x "$BASELINE_BIN" ] || { echo "BASELINE_BIN $BASELINE_BIN is not executable" >&2; exit 1; }
  BASELINE_LABEL=${BASELINE_LABEL:-$BASELINE_BIN}
fi
command -v wrk >/dev/null || { echo "wrk is needed" >&2; exit 1; }

# Base instant: the start of the current UTC day; appointments span 2 years back, 1 ahead.
NOW_MS=$(( $(date -u +%s) * 1000 ))
DAY=86400000
BASE=$(( NOW_MS / DAY * DAY - 730 * DAY ))
SPAN=$(( 1095 * DAY ))

# Set-based generation, the same shape on both engines: a number series joined to small lists.
# $SERIES(n) is a recursive CTE on SQLite and generate_series on PostgreSQL.
gen_sql() { # engine
  local engine=$1 series_p series_q
  if [ "$engine" = sqlite ]; then
    series_p="WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < $PATIENTS)"
    series_q="WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < $ROWS)"
    fmt_mrn="'B' || substr('0000000' || n, -7)"
    begin="BEGIN;"; commit="COMMIT;"
  else
    series_p="WITH s(n) AS (SELECT generate_series(1, $PATIENTS)::bigint)"
    series_q="WITH s(n) AS (SELECT generate_series(1, $ROWS)::bigint)"
    fmt_mrn="'B' || lpad(n::text, 7, '0')"
    begin="BEGIN;"; commit="COMMIT;"
  fi
  cat <<SQL
$begin
INSERT INTO locations (loc_num, name, address, phone, timezone)
  $( [ "$engine" = sqlite ] && echo "WITH RECURSIVE l(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM l WHERE n < 20)" || echo "WITH l(n) AS (SELECT generate_series(1, 20))" )
  SELECT 'B' || n, 'BENCH_SITE_' || n, NULL, NULL, 'America/New_York' FROM l;
CREATE TEMP TABLE first_names (i INTEGER PRIMARY KEY, name TEXT NOT NULL);
INSERT INTO first_names VALUES (0,'Abigail'),(1,'Aisha'),(2,'Amelia'),(3,'Ana'),(4,'Aria'),(5,'Ava'),(6,'Beatriz'),(7,'Camila'),(8,'Charlotte'),(9,'Chloe'),
 (10,'Daniela'),(11,'Elena'),(12,'Ella'),(13,'Emily'),(14,'Emma'),(15,'Evelyn'),(16,'Fatima'),(17,'Grace'),(18,'Hannah'),(19,'Harper'),
 (20,'Isabella'),(21,'Jane'),(22,'Julia'),(23,'Layla'),(24,'Lily'),(25,'Luna'),(26,'Maria'),(27,'Mia'),(28,'Nora'),(29,'Olivia'),
 (30,'Priya'),(31,'Rosa'),(32,'Sara'),(33,'Sofia'),(34,'Sophia'),(35,'Valentina'),(36,'Victoria'),(37,'Yara'),(38,'Zoe'),(39,'Zara');
CREATE TEMP TABLE last_names (i INTEGER PRIMARY KEY, name TEXT NOT NULL);
INSERT INTO last_names VALUES (0,'Adams'),(1,'Allen'),(2,'Baker'),(3,'Brown'),(4,'Campbell'),(5,'Carter'),(6,'Clark'),(7,'Collins'),(8,'Davis'),(9,'Diaz'),
 (10,'Edwards'),(11,'Evans'),(12,'Flores'),(13,'Garcia'),(14,'Gomez'),(15,'Green'),(16,'Hall'),(17,'Harris'),(18,'Hernandez'),(19,'Hill'),
 (20,'Jackson'),(21,'Johnson'),(22,'Jones'),(23,'King'),(24,'Lee'),(25,'Lewis'),(26,'Lopez'),(27,'Martin'),(28,'Martinez'),(29,'Miller'),
 (30,'Mitchell'),(31,'Moore'),(32,'Nelson'),(33,'Nguyen'),(34,'Parker'),(35,'Perez'),(36,'Phillips'),(37,'Ramirez'),(38,'Roberts'),(39,'Robinson'),
 (40,'Rodriguez'),(41,'Sanchez'),(42,'Scott'),(43,'Smith'),(44,'Taylor'),(45,'Thomas'),(46,'Thompson'),(47,'Torres'),(48,'Walker'),(49,'Wright');
CREATE TEMP TABLE ctx AS SELECT
  (SELECT COALESCE(MAX(id), 0) FROM patients) AS p0,
  (SELECT COALESCE(MAX(id), 0) FROM appointments) AS a0,
  (SELECT COALESCE(MAX(id), 0) FROM survey_queue) AS q0,
  (SELECT MIN(id) FROM locations WHERE loc_num = 'B1') AS l0,
  (SELECT MIN(id) FROM survey_definitions) AS d0,
  (SELECT COUNT(*) FROM survey_definitions) AS dn;
$series_p
INSERT INTO patients (id, mrn, first_name, last_name, dob, email, phone, gender, language, unsubscribed, created_at, updated_at)
  SELECT ctx.p0 + n, $fmt_mrn, f.name, l.name, '1960-01-01', 'p' || n || '@bench.test', NULL, 'F', 'en', FALSE, $NOW_MS, $NOW_MS
  FROM s CROSS JOIN ctx JOIN first_names f ON f.i = (n * 7) % 40 JOIN last_names l ON l.i = (n * 13) % 50;
$series_q
INSERT INTO appointments (id, patient_id, location_id, study_id, starts_at, status, arrival_status, iam_here_token, ready_for_exam_count)
  SELECT ctx.a0 + n, ctx.p0 + 1 + (n * 7919) % $PATIENTS, ctx.l0 + n % 20, NULL,
         $BASE + (n * 104729) % $SPAN / 900000 * 900000, 'Scheduled', NULL, NULL, 0
  FROM s CROSS JOIN ctx;
$series_q
INSERT INTO survey_queue (id, patient_id, appointment_id, study_id, location_id, survey_definition_id, status,
                          created_at, started_at, completed_at, updated_at, last_email_sent_at, revision, appt_starts_at)
  SELECT ctx.q0 + n, a.patient_id, a.id, NULL, a.location_id, ctx.d0 + n % ctx.dn,
         CASE (n / 20) % 10 WHEN 0 THEN 'Assigned' WHEN 1 THEN 'Assigned' WHEN 2 THEN 'IntermediateSave' WHEN 3 THEN 'Completed'
           WHEN 4 THEN 'Completed' WHEN 5 THEN 'Completed' WHEN 6 THEN 'Reviewed' WHEN 7 THEN 'Expired'
           WHEN 8 THEN 'PartiallyCompleteExpired' ELSE 'IntermediateSaveExpired' END,
         a.starts_at - 7 * $DAY, NULL, NULL, a.starts_at - 7 * $DAY, NULL, 1, a.starts_at
  FROM s CROSS JOIN ctx JOIN appointments a ON a.id = ctx.a0 + n;
$commit
SQL
  if [ "$engine" = postgres ]; then
    echo "SELECT setval(pg_get_serial_sequence('patients', 'id'), (SELECT MAX(id) FROM patients));"
    echo "SELECT setval(pg_get_serial_sequence('appointments', 'id'), (SELECT MAX(id) FROM appointments));"
    echo "SELECT setval(pg_get_serial_sequence('survey_queue', 'id'), (SELECT MAX(id) FROM survey_queue));"
    echo "VACUUM ANALYZE;"
  else
    echo "ANALYZE;"
  fi
}

run_sql() { # engine url file
  if [ "$1" = sqlite ]; then
    python3 - "$2" "$3" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1].removeprefix("sqlite://"), isolation_level=None)
db.executescript(open(sys.argv[2]).read())
PY
  else
    psql "$2" -v ON_ERROR_STOP=1 -q -f "$3" >/dev/null
  fi
}

login() { # base_url -> cookie header text in $TMP/cookie
  local url=$1 jar=$TMP/jar
  rm -f "$jar"
  curl -s -c "$jar" -b "$jar" "$url/api/health" >/dev/null
  local csrf; csrf=$(awk '$6 == "portal_csrf" {print $7}' "$jar")
  curl -s -c "$jar" -b "$jar" -H "content-type: application/json" -H "x-csrf-token: $csrf" \
    -d '{"usernameOrEmail":"manager","password":"Portal!2026","rememberMe":false}' "$url/api/staffUser/login" >/dev/null
  local session; session=$(awk '$6 == "portal_session" {print $7}' "$jar")
  csrf=$(awk '$6 == "portal_csrf" {print $7}' "$jar")
  [ -n "$session" ] || { echo "sign-in failed" >&2; return 1; }
  COOKIE="portal_session=$session; portal_csrf=$csrf"; CSRF=$csrf
}

to_ms() { awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n = n; else if (v ~ /s$/) n *= 1000; printf "%.2f", n }'; }

measure() { # build url cookie csrf name body -> a line in $OUT.tsv
  local build=$1 url=$2 cookie=$3 csrf=$4 name=$5 body=$6
  # The first request of a case is the cold one (nothing of this filter remembered yet).
  local check cold
  read -r check cold < <(curl -s -o "$TMP/check.json" -w '%{http_code} %{time_total}\n' -H "content-type: application/json" -H "x-csrf-token: $csrf" -H "cookie: $cookie" -d "$body" "$url/api/surveyQueue/datatable")
  [ "$check" = 200 ] || { echo "$name: HTTP $check $(head -c 300 "$TMP/check.json")" >&2; return 1; }
  cold=$(python3 -c "print(f'{$cold * 1000:.2f}')")
  local filtered
  filtered=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["FilteredCount"])' "$TMP/check.json")
  python3 -c 'import json,sys; print(",".join(str(r["Id"]) for r in json.load(open(sys.argv[1]))["Data"]))' "$TMP/check.json" > "$TMP/ids-$build-$(echo "$name" | md5sum | cut -c1-8)"
  cat > "$TMP/post.lua" <<LUA
wrk.method = "POST"
wrk.body = [[$body]]
wrk.headers["content-type"] = "application/json"
wrk.headers["x-csrf-token"] = "$csrf"
wrk.headers["cookie"] = "$cookie"
LUA
  local load; load=$(awk '{print $1}' /proc/loadavg)
  wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$TMP/post.lua" "$url/api/surveyQueue/datatable" > "$TMP/wrk.txt"
  local p50 p99 rps non2xx
  p50=$(to_ms "$(awk '$1 == "50%" {print $2}' "$TMP/wrk.txt")")
  p99=$(to_ms "$(awk '$1 == "99%" {print $2}' "$TMP/wrk.txt")")
  rps=$(awk '/Requests\/sec/ {print $2}' "$TMP/wrk.txt")
  non2xx=$(awk '/Non-2xx/ {print $5}' "$TMP/wrk.txt"); non2xx=${non2xx:-0}
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$ENGINE" "$build" "$name" "$filtered" "$cold" "$p50" "$p99" "$rps" "$non2xx" "$load" >> "$OUT.tsv"
  echo "  $ENGINE $build $name: filtered $filtered, cold $cold ms, p50 $p50 ms, p99 $p99 ms, $rps req/s, load $load" >&2
}

TODAY=$(date -u +%Y-%m-%d)
Y=$(date -u +%Y)
CASES=(
  "page 1, no filter, by appointment|{\"PageIndex\":0,\"PageSize\":10,\"SortColumn\":\"AppointmentDate\",\"SortDirection\":\"asc\",\"Search\":\"\"}"
  "deep page 40000 (offset 400k), no filter|{\"PageIndex\":40000,\"PageSize\":10,\"SortColumn\":\"AppointmentDate\",\"SortDirection\":\"asc\",\"Search\":\"\"}"
  "UI default: today, by patient name|{\"PageIndex\":0,\"PageSize\":10,\"SortColumn\":\"UserFullName\",\"SortDirection\":\"asc\",\"Search\":\"\",\"StatusGroup\":\"All\",\"DateFrom\":\"${TODAY}T00:00:00.000Z\",\"DateTo\":\"${TODAY}T00:00:00.000Z\",\"TimezoneOffset\":0}"
  "year range + location + status, by name, page 5|{\"PageIndex\":4,\"PageSize\":10,\"SortColumn\":\"UserFullName\",\"SortDirection\":\"asc\",\"Search\":\"\",\"DateFrom\":\"${Y}-01-01T00:00:00.000Z\",\"DateTo\":\"${Y}-12-31T00:00:00.000Z\",\"Location\":\"B7\",\"Status\":\"Completed\",\"TimezoneOffset\":0}"
  "year range + location + status, by appointment, deep (page 100)|{\"PageIndex\":100,\"PageSize\":10,\"SortColumn\":\"AppointmentDate\",\"SortDirection\":\"desc\",\"Search\":\"\",\"DateFrom\":\"${Y}-01-01T00:00:00.000Z\",\"DateTo\":\"${Y}-12-31T00:00:00.000Z\",\"Location\":\"B7\",\"Status\":\"Completed\",\"TimezoneOffset\":0}"
  "search 'garcia camila' (name prefix), by name|{\"PageIndex\":0,\"PageSize\":10,\"SortColumn\":\"UserFullName\",\"SortDirection\":\"asc\",\"Search\":\"garcia camila\"}"
  "search MRN prefix 'B00123', by appointment|{\"PageIndex\":0,\"PageSize\":10,\"SortColumn\":\"AppointmentDate\",\"SortDirection\":\"asc\",\"Search\":\"B00123\"}"
  "search 'smith' (1 in 50 patients), by appointment|{\"PageIndex\":0,\"PageSize\":10,\"SortColumn\":\"AppointmentDate\",\"SortDirection\":\"asc\",\"Search\":\"smith\"}"
)

prepare() { # build bin url -> a generated database at url
  local build=$1 bin=$2 url=$3
  if [ -n "${REUSE_URL:-}" ]; then echo "== $ENGINE ($build): reusing $url" >&2; return; fi
  echo "== $ENGINE ($build): demo clinic + generation" >&2
  start_portal "$bin" "$TMP/$ENGINE-$build-seed.log" --database-url "$url" --web-dir /nonexistent --demo
  kill "$PORTAL_PID"; wait "$PORTAL_PID" 2>/dev/null || true
  gen_sql "$ENGINE" > "$TMP/gen.sql"
  local t0 t1 load; t0=$(date +%s.%N); load=$(awk '{print $1}' /proc/loadavg)
  run_sql "$ENGINE" "$url" "$TMP/gen.sql"
  t1=$(date +%s.%N)
  GEN_TIME=$(python3 -c "print(f'{$t1 - $t0:.1f}')")
  printf '%s\t%s\t%s\t%s\t%s\n' "$ENGINE" "$build" "$ROWS" "$GEN_TIME" "$load" >> "$OUT.gen"
  echo "  generated $ROWS rows in $GEN_TIME s (load $load)" >&2
}

bench_engine() { # engine url [baseline-url]
  ENGINE=$1; local url=$2 base_url=${3:-}
  [ -n "$base_url" ] && prepare before "$BASELINE_BIN" "$base_url"
  prepare after "$BIN" "$url"
  start_portal "$BIN" "$TMP/$ENGINE.log" --database-url "$url" --web-dir /nonexistent
  PIDS+=("$PORTAL_PID"); local after_pid=$PORTAL_PID after_url=$PORTAL_URL
  login "$after_url"; local after_cookie=$COOKIE after_csrf=$CSRF
  local before_pid="" before_url="" before_cookie="" before_csrf=""
  if [ -n "$base_url" ]; then
    start_portal "$BASELINE_BIN" "$TMP/$ENGINE-before.log" --database-url "$base_url" --web-dir /nonexistent
    PIDS+=("$PORTAL_PID"); before_pid=$PORTAL_PID; before_url=$PORTAL_URL
    login "$before_url"; before_cookie=$COOKIE; before_csrf=$CSRF
  fi
  for c in "${CASES[@]}"; do
    [ -n "$base_url" ] && measure before "$before_url" "$before_cookie" "$before_csrf" "${c%%|*}" "${c#*|}"
    measure after "$after_url" "$after_cookie" "$after_csrf" "${c%%|*}" "${c#*|}"
    if [ -n "$base_url" ]; then
      local h; h=$(echo "${c%%|*}" | md5sum | cut -c1-8)
      cmp -s "$TMP/ids-before-$h" "$TMP/ids-after-$h" || echo "  note: ${c%%|*}: page rows differ before/after ($(cat "$TMP/ids-before-$h") vs $(cat "$TMP/ids-after-$h"))" >&2
    fi
  done
  kill "$after_pid" 2>/dev/null; wait "$after_pid" 2>/dev/null || true
  if [ -n "$before_pid" ]; then kill "$before_pid" 2>/dev/null; wait "$before_pid" 2>/dev/null || true; fi
}

rm -f "$OUT.tsv" "$OUT.gen"
ENGINES=${ENGINES:-sqlite postgres}
case " $ENGINES " in *" sqlite "*)
  if [ -n "${SQLITE_DATA:-}" ]; then REUSE_URL=1 bench_engine sqlite "sqlite://$SQLITE_DATA"
  else bench_engine sqlite "sqlite://$TMP/bench.db" "${BASELINE_BIN:+sqlite://$TMP/bench-before.db}"; fi ;;
esac
case " $ENGINES " in *" postgres "*) ;; *) PG_ADMIN=skip ;; esac
if [ "$PG_ADMIN" != skip ] && [ -n "${PG_DATA:-}" ]; then
  REUSE_URL=1 bench_engine postgres "$PG_DATA"
elif [ "$PG_ADMIN" != skip ] && psql "$PG_ADMIN" -qc "CREATE DATABASE $PG_DB" >/dev/null 2>&1; then
  PG_CREATED=1
  if [ -n "${BASELINE_BIN:-}" ]; then
    psql "$PG_ADMIN" -qc "CREATE DATABASE ${PG_DB}_before" >/dev/null
    bench_engine postgres "${PG_ADMIN%/*}/$PG_DB" "${PG_ADMIN%/*}/${PG_DB}_before"
  else
    bench_engine postgres "${PG_ADMIN%/*}/$PG_DB"
  fi
else
  echo "PostgreSQL not reachable at $PG_ADMIN: skipped" >&2
fi

{
  echo "# History Portal list at a million rows"
  echo
  echo "Generated by bench/history-portal.sh on $(date -u '+%Y-%m-%d %H:%M UTC') ($(nproc) cores, $(uname -m)); release build."
  echo "$ROWS survey-queue rows (one appointment each, $PATIENTS patients, 20 locations, 3 years), plus the demo clinic."
  echo "Load: wrk, 1 thread, $CONNECTIONS connections, ${DURATION} s per case, 127.0.0.1, signed in as a program manager."
  echo "\"Cold\" is the first request of a case (nothing about its filter remembered yet); p50/p99 are"
  echo "of the ${DURATION} s of load that follow. \"Load avg\" is the machine's 1-minute load average when the case began"
  echo "(the machine is shared: other builds run at the same time)."
  [ -n "${BASELINE_BIN:-}" ] && echo "Before/after in one run: \"before\" is $BASELINE_LABEL, \"after\" is this build; each case ran with one and then the other."
  echo
  echo "## Generation (set-based INSERT ... SELECT over a number series)"
  echo
  echo "| Engine | Build | Rows | Time | Load avg |"
  echo "|---|---|---|---|---|"
  if [ -f "$OUT.gen" ]; then
    awk -F'\t' '{ printf "| %s | %s | %s | %s s | %s |\n", $1, $2, $3, $4, $5 }' "$OUT.gen"
  else
    echo "| (a kept data set was measured again: SQLITE_DATA / PG_DATA) | | | | |"
  fi
  echo
  echo "## POST /api/surveyQueue/datatable"
  echo
  echo "| Engine | Build | Case | FilteredCount | Cold ms | p50 ms | p99 ms | Req/s | Non-2xx | Load avg |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  awk -F'\t' '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 }' "$OUT.tsv"
  if [ -n "${BASELINE_BIN:-}" ]; then
    echo
    echo "## Before / after (same run, same load): after divided by before"
    echo
    echo "| Engine | Case | p50 before | p50 after | p50 ratio | p99 before | p99 after | p99 ratio | Req/s ratio |"
    echo "|---|---|---|---|---|---|---|---|---|"
    python3 - "$OUT.tsv" <<'PY'
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
before = {(r[0], r[2]): r for r in rows if r[1] == "before"}
for r in rows:
    if r[1] != "after" or (r[0], r[2]) not in before:
        continue
    b = before[(r[0], r[2])]
    ratio = lambda a, c: f"{float(a) / float(c):.2f}" if float(c) else "-"
    print(f"| {r[0]} | {r[2]} | {b[5]} | {r[5]} | {ratio(r[5], b[5])} | {b[6]} | {r[6]} | {ratio(r[6], b[6])} | {ratio(r[7], b[7])} |")
PY
  fi
  [ -f "$ROOT/bench/history-portal-notes.md" ] && cat "$ROOT/bench/history-portal-notes.md"
} > "$OUT"
rm -f "$OUT.tsv" "$OUT.gen"
echo "wrote $OUT" >&2
