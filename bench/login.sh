#!/usr/bin/env bash
# Login latency under a bounded concurrent load (issue 3): POST /api/staffUser/login with the
# right password, CONNECTIONS connections for SECONDS seconds, to 127.0.0.1 only, against a
# release build on a throwaway SQLite demo database. Every request hashes with argon2id
# (m = 19456 KiB, t = 2, p = 1; api/src/auth/password.rs) on tokio's blocking pool.
# Writes bench/results-login.md.   BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 8),
# PORTAL_API_BIN (default: builds target/release/portal-api).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/portal.sh
SECONDS_PER_RUN=${BENCH_SECONDS:-10}
CONNECTIONS=${BENCH_CONNECTIONS:-8}
OUT=$(mktemp -d /tmp/portal-bench-login.XXXXXX)
PID=""
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null || true; rm -rf "$OUT"; }
trap cleanup EXIT
if [ -z "${PORTAL_API_BIN:-}" ]; then
  cargo build --release --quiet -p portal-api
  PORTAL_API_BIN=target/release/portal-api
fi
start_portal "$PORTAL_API_BIN" "$OUT/portal.log" --database-url "sqlite://$OUT/demo.db" --web-dir web/dist --demo
PID=$PORTAL_PID
cat >"$OUT/login.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"usernameOrEmail":"manager","password":"Portal!2026"}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Cookie"] = "portal_csrf=bench"
wrk.headers["X-CSRF-Token"] = "bench"
-- Anything but 200 with IsValid true counts as an error.
response = function(status, headers, body)
  if status ~= 200 or not string.find(body, '"IsValid":true', 1, true) then
    wrk.thread:stop()
  end
end
LUA
threads=$(( CONNECTIONS < 2 ? CONNECTIONS : 2 ))
wrk -t"$threads" -c"$CONNECTIONS" -d"${SECONDS_PER_RUN}s" --timeout 10s --latency -s "$OUT/login.lua" "$PORTAL_URL/api/staffUser/login" >"$OUT/wrk.txt"
p50=$(awk '$1 == "50%" {print $2}' "$OUT/wrk.txt")
p99=$(awk '$1 == "99%" {print $2}' "$OUT/wrk.txt")
rps=$(awk '/Requests\/sec/ {print $2}' "$OUT/wrk.txt")
total=$(awk '/requests in/ {print $1}' "$OUT/wrk.txt")
errors=$(awk '/Non-2xx/ {print $NF}' "$OUT/wrk.txt"); errors=${errors:-0}
cores=$(nproc)
cat >bench/results-login.md <<MD
# Login latency (issue 3)

POST /api/staffUser/login (right password) on a release build, SQLite demo database, loopback.
argon2id m = 19456 KiB, t = 2, p = 1, hashed on tokio's blocking pool. $CONNECTIONS connections,
${SECONDS_PER_RUN} s, $cores cores (shared with other work when measured).

| p50 | p99 | requests/s | requests | non-2xx |
|---|---|---|---|---|
| $p50 | $p99 | $rps | $total | $errors |

Measured $(date -u +"%Y-%m-%d %H:%M UTC") with wrk; raw output:

\`\`\`
$(cat "$OUT/wrk.txt")
\`\`\`
MD
cat bench/results-login.md
