#!/usr/bin/env bash
# Audit log at a million rows (issue 15), on SQLite and PostgreSQL: a demo database filled with
# AUDIT_ROWS (default 1,000,000) rows through the real chain path (api/examples/audit_bench.rs);
# then the Patient Logs and Portal Audit requests (AUDIT_REQUESTS per case, default 300, one at a
# time) against a release build, the per-change overhead of the audit row (a letter marked read,
# alone and with its row, 1,000 times each) and `portal-api audit verify` over the whole chain.
# PostgreSQL: TEST_DATABASE_URL's server or a throwaway cluster. Writes bench/results-audit.md.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/portal.sh
source scripts/lib/postgres.sh
ROWS=${AUDIT_ROWS:-1000000}
REQUESTS=${AUDIT_REQUESTS:-300}
# AUDIT_ENGINES=postgres (or sqlite) measures one engine again, into results-audit-ENGINE.md, and
# leaves the two-engine results-audit.md as it is.
ENGINES=${AUDIT_ENGINES:-sqlite postgres}
RESULTS=bench/results-audit.md
[ "$ENGINES" = "sqlite postgres" ] || RESULTS="bench/results-audit-${ENGINES// /-}.md"
wants() { [[ " $ENGINES " == *" $1 "* ]]; }
OUT=$(mktemp -d /tmp/portal-bench-audit.XXXXXX)
PID=""
PG_DB=""
cleanup() {
  [ -n "$PID" ] && kill "$PID" 2>/dev/null || true
  [ -n "$PG_DB" ] && psql "$PG_URL" -qc "DROP DATABASE IF EXISTS $PG_DB" >/dev/null 2>&1 || true
  stop_throwaway_postgres || true
  rm -rf "$OUT"
}
trap cleanup EXIT
# AUDIT_PROFILE=debug measures the debug build (slower: its figures are upper bounds), for a
# machine where a release build does not fit.
PROFILE=${AUDIT_PROFILE:-release}
FLAG=$([ "$PROFILE" = release ] && echo --release || true)
if [ -z "${PORTAL_API_BIN:-}" ]; then
  cargo build $FLAG --quiet -p portal-api
  PORTAL_API_BIN=target/$PROFILE/portal-api
fi
# AUDIT_BENCH_CLIENT: an audit_bench built earlier (with PORTAL_API_BIN from the same build).
CLIENT=${AUDIT_BENCH_CLIENT:-}
if [ -z "$CLIENT" ]; then
  cargo build $FLAG --quiet -p portal-api --example audit_bench
  CLIENT=target/$PROFILE/examples/audit_bench
fi

run() { # engine database-url
  local key="$OUT/$1.key"
  # The demo clinic, migrated; then stopped while the rows go in.
  start_portal "$PORTAL_API_BIN" "$OUT/$1.log" --database-url "$2" --web-dir web/dist --demo --key-file "$key"
  PID=$PORTAL_PID; kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""
  "$CLIENT" fill "$2" "$key" "$ROWS" > "$OUT/$1.fill.json"
  # What autovacuum does to a table a million rows bigger: without statistics PostgreSQL's
  # planner guesses the tiny table it saw at migration time.
  if [ "$1" = postgres ]; then psql "$2" -qc "VACUUM ANALYZE audit_log" >/dev/null; fi
  "$CLIENT" overhead "$2" "$key" 1000 > "$OUT/$1.overhead.json"
  start_portal "$PORTAL_API_BIN" "$OUT/$1.log" --database-url "$2" --web-dir web/dist --key-file "$key"
  PID=$PORTAL_PID
  "$CLIENT" search "$PORTAL_URL" "$REQUESTS" > "$OUT/$1.search.json"
  kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""
  local t0 t1
  t0=$(date +%s.%N)
  "$PORTAL_API_BIN" audit verify --database-url "$2" --key-file "$key" > "$OUT/$1.verify.txt"
  t1=$(date +%s.%N)
  echo "{\"seconds\": $(echo "$t1 - $t0" | bc)}" > "$OUT/$1.verify.json"
}
if wants sqlite; then
  run sqlite "sqlite://$OUT/audit.db"
  ls -la "$OUT/audit.db" > "$OUT/sqlite.size"
  rm -f "$OUT"/audit.db*
fi
PG_URL=${TEST_DATABASE_URL:-}
if wants postgres && [ -z "$PG_URL" ] && start_throwaway_postgres; then PG_URL=$PG_URL; fi
if wants postgres && [ -n "$PG_URL" ]; then
  PG_DB="bench_audit_$$"
  psql "$PG_URL" -qc "CREATE DATABASE $PG_DB" >/dev/null
  run postgres "${PG_URL%/*}/$PG_DB"
fi

node - "$OUT" "$ROWS" "$REQUESTS" "$PROFILE" > "$RESULTS" <<'JS'
const fs = require("fs");
const [out, rows, requests, profile] = process.argv.slice(2);
const read = (f) => (fs.existsSync(`${out}/${f}`) ? JSON.parse(fs.readFileSync(`${out}/${f}`, "utf8")) : null);
const engines = ["sqlite", "postgres"].filter((e) => read(`${e}.fill.json`));
const lines = [];
lines.push("# Audit log at a million rows (issue 15)", "");
lines.push(`${Number(rows).toLocaleString("en-US")} audit rows appended through the real chain path (hash chain, audit_counts, checkpoint every 1,000 rows) into the demo clinic, spread over 2,000 bench patients; ${profile} build, loopback, ${require("os").cpus().length} cores shared with other work (load average ${require("os").loadavg().map((l) => l.toFixed(1)).join(" / ")} at the end of the run). Requests one at a time, ${requests} per case, signed in as the program manager.`, "");
lines.push("## Searches (ms)", "", "| case | " + engines.map((e) => `${e} p50 | ${e} p99`).join(" | ") + " |", "|---|" + engines.map(() => "---|---").join("|") + "|");
const search = Object.fromEntries(engines.map((e) => [e, read(`${e}.search.json`)]));
for (const c of Object.keys(search[engines[0]] ?? {})) {
  lines.push(`| ${c} | ` + engines.map((e) => `${search[e][c].p50_ms} | ${search[e][c].p99_ms}`).join(" | ") + " |");
}
lines.push("", "## Per-change overhead (ms): a letter marked read in its transaction, alone and with its audit row", "", "| engine | alone p50 | alone p99 | with row p50 | with row p99 | added p50 |", "|---|---|---|---|---|---|");
for (const e of engines) {
  const o = read(`${e}.overhead.json`);
  lines.push(`| ${e} | ${o.alone.p50_ms} | ${o.alone.p99_ms} | ${o.with_audit_row.p50_ms} | ${o.with_audit_row.p99_ms} | ${(o.with_audit_row.p50_ms - o.alone.p50_ms).toFixed(3)} |`);
}
lines.push("", "## Fill and `portal-api audit verify`", "", "| engine | fill s | rows/s | verify s (whole chain, process start included) |", "|---|---|---|---|");
for (const e of engines) {
  const f = read(`${e}.fill.json`), v = read(`${e}.verify.json`);
  lines.push(`| ${e} | ${f.seconds.toFixed(1)} | ${Math.round(f.rows / f.seconds)} | ${v.seconds.toFixed(1)} |`);
}
lines.push("", `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC.`);
console.log(lines.join("\n"));
JS
cat "$RESULTS"
