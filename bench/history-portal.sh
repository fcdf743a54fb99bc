#!/usr/bin/env bash
# History Portal list at a million rows (issue 6): generates 1,000,000 survey-queue rows (with
# their appointments and 200,000 patients) across 20 locations and 3 years with set-based SQL,
# then measures POST /api/surveyQueue/datatable under bounded concurrent load (wrk, 127.0.0.1)
# on SQLite and on PostgreSQL. Writes bench/results-history-portal.md.
#   bench/history-portal.sh            both engines (PostgreSQL at $BENCH_PG_ADMIN_URL)
#   ROWS=100000 DURATION=5 bench/history-portal.sh   smaller / shorter
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
  [ -n "${PG_CREATED:-}" ] && psql "$PG_ADMIN" -qc "DROP DATABASE IF EXISTS $PG_DB" >/dev/null 2>&1 || true
  rm -rf "$TMP"
}
trap cleanup EXIT
[ -x "$BIN" ] || { echo "build first: cargo build --release -p portal-api" >&2; exit 1; }
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

measure() { # name url body -> a table row
  local name=$1 url=$2 body=$3
  local check; check=$(curl -s -o "$TMP/check.json" -w '%{http_code}' -H "content-type: application/json" -H "x-csrf-token: $CSRF" -H "cookie: $COOKIE" -d "$body" "$url/api/surveyQueue/datatable")
  [ "$check" = 200 ] || { echo "$name: HTTP $check $(head -c 300 "$TMP/check.json")" >&2; return 1; }
  local filtered rows
  filtered=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["FilteredCount"], len(d["Data"]))' "$TMP/check.json")
  cat > "$TMP/post.lua" <<LUA
wrk.method = "POST"
wrk.body = [[$body]]
wrk.headers["content-type"] = "application/json"
wrk.headers["x-csrf-token"] = "$CSRF"
wrk.headers["cookie"] = "$COOKIE"
LUA
  wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$TMP/post.lua" "$url/api/surveyQueue/datatable" > "$TMP/wrk.txt"
  local p50 p99 rps non2xx
  p50=$(awk '$1 == "50%" {print $2}' "$TMP/wrk.txt")
  p99=$(awk '$1 == "99%" {print $2}' "$TMP/wrk.txt")
  rps=$(awk '/Requests\/sec/ {print $2}' "$TMP/wrk.txt")
  non2xx=$(awk '/Non-2xx/ {print $5}' "$TMP/wrk.txt"); non2xx=${non2xx:-0}
  echo "| $ENGINE | $name | ${filtered% *} | $p50 | $p99 | $rps | $non2xx |" >> "$OUT.tmp"
  echo "  $ENGINE $name: filtered ${filtered% *}, p50 $p50, p99 $p99, $rps req/s" >&2
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

bench_engine() { # engine url
  ENGINE=$1; local url=$2
  echo "== $ENGINE: demo clinic + generation" >&2
  start_portal "$BIN" "$TMP/$ENGINE-seed.log" --database-url "$url" --web-dir /nonexistent --demo
  kill "$PORTAL_PID"; wait "$PORTAL_PID" 2>/dev/null || true
  gen_sql "$ENGINE" > "$TMP/gen.sql"
  local t0 t1; t0=$(date +%s.%N)
  run_sql "$ENGINE" "$url" "$TMP/gen.sql"
  t1=$(date +%s.%N)
  GEN_TIME=$(python3 -c "print(f'{$t1 - $t0:.1f}')")
  echo "| $ENGINE | $ROWS | $GEN_TIME s |" >> "$OUT.gen"
  echo "  generated $ROWS rows in $GEN_TIME s" >&2
  start_portal "$BIN" "$TMP/$ENGINE.log" --database-url "$url" --web-dir /nonexistent
  PIDS+=("$PORTAL_PID")
  login "$PORTAL_URL"
  for c in "${CASES[@]}"; do measure "${c%%|*}" "$PORTAL_URL" "${c#*|}"; done
  kill "$PORTAL_PID"; wait "$PORTAL_PID" 2>/dev/null || true
}

rm -f "$OUT.tmp" "$OUT.gen"
ENGINES=${ENGINES:-sqlite postgres}
case " $ENGINES " in *" sqlite "*) bench_engine sqlite "sqlite://$TMP/bench.db" ;; esac
case " $ENGINES " in *" postgres "*) ;; *) PG_ADMIN=skip ;; esac
if [ "$PG_ADMIN" != skip ] && psql "$PG_ADMIN" -qc "CREATE DATABASE $PG_DB" >/dev/null 2>&1; then
  PG_CREATED=1
  bench_engine postgres "${PG_ADMIN%/*}/$PG_DB"
else
  echo "PostgreSQL not reachable at $PG_ADMIN: skipped" >&2
fi

{
  echo "# History Portal list at a million rows"
  echo
  echo "Generated by bench/history-portal.sh on $(date -u '+%Y-%m-%d %H:%M UTC') ($(nproc) cores, $(uname -m)); release build."
  echo "$ROWS survey-queue rows (one appointment each, $PATIENTS patients, 20 locations, 3 years), plus the demo clinic."
  echo "Load: wrk, 1 thread, $CONNECTIONS connections, ${DURATION} s per case, 127.0.0.1, signed in as a program manager."
  echo
  echo "## Generation (set-based INSERT ... SELECT over a number series)"
  echo
  echo "| Engine | Rows | Time |"
  echo "|---|---|---|"
  cat "$OUT.gen"
  echo
  echo "## POST /api/surveyQueue/datatable"
  echo
  echo "| Engine | Case | FilteredCount | p50 | p99 | Req/s | Non-2xx |"
  echo "|---|---|---|---|---|---|---|"
  cat "$OUT.tmp"
  [ -f "$ROOT/bench/history-portal-notes.md" ] && cat "$ROOT/bench/history-portal-notes.md"
} > "$OUT"
rm -f "$OUT.tmp" "$OUT.gen"
echo "wrote $OUT" >&2
