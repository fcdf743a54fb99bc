#!/usr/bin/env bash
# Settings engine latency (issue 13): GET and PUT /api/configurationForm/{group} with
# BENCH_CONNECTIONS (default 32) clients for BENCH_SECONDS (default 10) each, against a release
# build on a throwaway demo database, on SQLite and on PostgreSQL (a throwaway cluster, or
# TEST_DATABASE_URL's server), loopback only. The client is api/examples/settings_bench.rs (PUT:
# each client flips a switch of its own group at the version it last got; with more clients than
# groups some share one, so 409s are real). Writes bench/results-settings.md.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/portal.sh
source scripts/lib/postgres.sh
SECONDS_PER_RUN=${BENCH_SECONDS:-10}
CONNECTIONS=${BENCH_CONNECTIONS:-32}
OUT=$(mktemp -d /tmp/portal-bench-settings.XXXXXX)
PID=""
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null || true; stop_throwaway_postgres || true; rm -rf "$OUT"; }
trap cleanup EXIT
if [ -z "${PORTAL_API_BIN:-}" ]; then
  cargo build --release --quiet -p portal-api
  PORTAL_API_BIN=target/release/portal-api
fi
cargo build --release --quiet -p portal-api --example settings_bench
CLIENT=target/release/examples/settings_bench

run() { # engine database-url -> one JSON line
  start_portal "$PORTAL_API_BIN" "$OUT/$1.log" --database-url "$2" --web-dir web/dist --demo
  PID=$PORTAL_PID
  "$CLIENT" "$PORTAL_URL" "$CONNECTIONS" "$SECONDS_PER_RUN" | tee "$OUT/$1.json"
  kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""
}
run sqlite "sqlite://$OUT/demo.db"
PG_URL=${TEST_DATABASE_URL:-}
if [ -z "$PG_URL" ] && start_throwaway_postgres; then PG_URL=$PG_URL; fi
if [ -n "$PG_URL" ]; then
  db="bench_settings_$$"
  psql "$PG_URL" -qc "CREATE DATABASE $db" >/dev/null
  run postgres "${PG_URL%/*}/$db"
fi

row() { # engine kind -> markdown row
  node -e 'const r=require(process.argv[1])[process.argv[2]]; const c=r.conflicts===undefined?"":` / ${r.conflicts} / ${r.refused}`;
    console.log(`| ${process.argv[3]} | ${process.argv[2].toUpperCase()} | ${r.count} | ${r.p50_ms} | ${r.p99_ms} | ${r.max_ms} | ${r.errors}${c} |`)' \
    "$OUT/$1.json" "$2" "$1"
}
{
  echo "# Settings engine latency (issue 13)"
  echo
  echo "GET and PUT /api/configurationForm/{group} on a release build, demo database, loopback;"
  echo "$CONNECTIONS clients, ${SECONDS_PER_RUN} s each, $(nproc) cores shared with other work."
  echo "PUT: each client flips a switch of its own group at the version it last got (409s where"
  echo "clients share a group, then it goes on from the 409's Current)."
  echo
  echo "| engine | call | requests | p50 ms | p99 ms | max ms | 5xx (PUT: / 409 / other 4xx) |"
  echo "|---|---|---|---|---|---|---|"
  for e in sqlite postgres; do
    [ -f "$OUT/$e.json" ] || continue
    row "$e" get; row "$e" put
  done
  echo
  echo "Measured $(date -u +"%Y-%m-%d %H:%M UTC")."
} > bench/results-settings.md
cat bench/results-settings.md
