#!/usr/bin/env bash
# Patient-area benchmarks (issue 4) -> bench/results-patient-area.md
#  1. letter PDF generation p50/p99: a two-page letter with the logo (api/examples/letter_pdf.rs)
#  2. POST /api/documents/loadDocuments p50/p99 for a patient with 500 letters: a demo portal on
#     127.0.0.1, 500 letters added to Jane, oha or wrk (bounded: 10 s, 4 connections).
# Release build (LTO off to keep the build short): set PROFILE=debug for a quick look.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
PROFILE=${PROFILE:-release}
OUT=bench/results-patient-area.md
FLAGS=(); [ "$PROFILE" = release ] && FLAGS=(--release)
export CARGO_PROFILE_RELEASE_LTO=${CARGO_PROFILE_RELEASE_LTO:-false} CARGO_PROFILE_RELEASE_CODEGEN_UNITS=${CARGO_PROFILE_RELEASE_CODEGEN_UNITS:-16}
cargo build -q "${FLAGS[@]}" -p portal-api --example letter_pdf --bin portal-api
BIN=target/$PROFILE/portal-api
PDF_LINE=$(target/$PROFILE/examples/letter_pdf 2000 /tmp/bench-letter.pdf)

TMP=$(mktemp -d /tmp/bench-patient-area.XXXXXX)
PID=
trap '[ -n "$PID" ] && kill "$PID" 2>/dev/null; rm -rf "$TMP"' EXIT
"$BIN" --bind 127.0.0.1:0 --database-url "sqlite://$TMP/bench.db" --web-dir web/dist --demo >"$TMP/out" 2>"$TMP/err" &
PID=$!
for _ in $(seq 1 100); do grep -q "^listening on " "$TMP/out" 2>/dev/null && break; sleep 0.1; done
URL=$(head -1 "$TMP/out" | sed 's/^listening on //')
# 500 letters for Jane (patient 1), straight into the database.
python3 - "$TMP/bench.db" <<'PY'
import sqlite3, sys, time, secrets
db = sqlite3.connect(sys.argv[1])
now = int(time.time() * 1000)
rows = [(1, f"bench-{i}-{secrets.token_urlsafe(24)}", "Patient Result Letter", "Email", "Dear Jane Doe,\n\nBench letter.", now - i * 3600_000,
         now - i * 3600_000 + 60_000 if i % 2 else None) for i in range(500)]
db.executemany("INSERT INTO letters (patient_id, access_token, letter_type, notify_type, body, sent_at, read_at) VALUES (?,?,?,?,?,?,?)", rows)
db.commit()
print(db.execute("SELECT COUNT(*) FROM letters WHERE patient_id = 1").fetchone()[0], file=sys.stderr)
PY
JAR=$TMP/jar
curl -s -c "$JAR" -b "$JAR" "$URL/api/health" >/dev/null
CSRF=$(awk '$6=="portal_csrf"{print $7}' "$JAR")
curl -s -c "$JAR" -b "$JAR" -H "X-CSRF-Token: $CSRF" -H 'Content-Type: application/json' \
  -d '{"usernameOrEmail":"jane.doe","password":"Portal!2026"}' "$URL/api/patientUser/login" >/dev/null
SESSION=$(awk '$6=="portal_session"{print $7}' "$JAR")
COUNT=$(curl -s -b "$JAR" -H "X-CSRF-Token: $CSRF" -H 'Content-Type: application/json' -d '{}' "$URL/api/documents/loadDocuments" \
  | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["list"]))')
cat >"$TMP/load.lua" <<LUA
wrk.method = "POST"
wrk.body = "{\"TimezoneOffset\":0}"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["X-CSRF-Token"] = "$CSRF"
wrk.headers["Cookie"] = "portal_session=$SESSION; portal_csrf=$CSRF"
LUA
WRK=$(wrk -t2 -c4 -d10s --latency -s "$TMP/load.lua" "$URL/api/documents/loadDocuments")
P50=$(echo "$WRK" | awk '$1=="50%"{print $2}')
P99=$(echo "$WRK" | awk '$1=="99%"{print $2}')
RPS=$(echo "$WRK" | awk '/Requests\/sec/{print $2}')
NON2XX=$(echo "$WRK" | awk '/Non-2xx/{print $4}')
{
  echo "# Patient area benchmarks"
  echo
  echo "Run $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(nproc) cores, profile $PROFILE (LTO $CARGO_PROFILE_RELEASE_LTO)."
  echo
  echo "## Letter PDF generation (goal: p50 and p99 under 10 ms for a two-page letter with logo)"
  echo
  echo '```'
  echo "$PDF_LINE"
  echo '```'
  echo
  echo "## POST /api/documents/loadDocuments, patient with $COUNT letters (SQLite, wrk -t2 -c4 -d10s)"
  echo
  echo "| p50 | p99 | requests/s | non-2xx |"
  echo "|---|---|---|---|"
  echo "| $P50 | $P99 | $RPS | ${NON2XX:-0} |"
} >"$OUT"
cat "$OUT"
