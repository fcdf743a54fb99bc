#!/usr/bin/env bash
# Runs every test suite: the code gate (rustfmt, clippy, ESLint, tsc), Rust unit tests, wasm
# parity (the wasm builds against the shared case tables), web component tests, API integration
# tests on SQLite and on PostgreSQL, the OpenAPI document (validator, schemathesis against a demo
# server), and Playwright in Chromium. Ends with a per-suite summary;
# exits non-zero when anything failed.
#   TEST_DATABASE_URL=postgres://...  use this PostgreSQL server instead of a throwaway cluster
#   CI=true                           the PostgreSQL run is required, not skipped
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
source scripts/lib/postgres.sh

OUT=$(mktemp -d /tmp/portal-test.XXXXXX)
SUMMARY=()
TOTAL_PASSED=0
TOTAL_FAILED=0
trap stop_throwaway_postgres EXIT

LAST_RECORD=$SECONDS
record() { # name passed failed [note]; with the seconds since the previous record (where CI time goes)
  local took=$((SECONDS - LAST_RECORD)); LAST_RECORD=$SECONDS
  SUMMARY+=("$(printf '%-28s %5d passed, %d failed  %5ds%s' "$1:" "$2" "$3" "$took" "${4:+  ($4)}")")
  TOTAL_PASSED=$((TOTAL_PASSED + $2))
  TOTAL_FAILED=$((TOTAL_FAILED + $3))
}
cargo_counts() { # log -> "passed failed"
  awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i) ~ /^passed/) p += $(i-1); if ($(i) ~ /^failed/) f += $(i-1) } }
       END { print p + 0, f + 0 }' "$1"
}
run_cargo_suite() { # name log cargo-args...
  local name=$1 log=$2; shift 2
  echo "== $name"
  # --no-fail-fast: one failing test file must not hide the counts of the others.
  cargo test --no-fail-fast "$@" 2>&1 | tee "$log" | grep -E '^(test result|failures:|---- )|panicked' || true
  local rc=${PIPESTATUS[0]} counts
  counts=$(cargo_counts "$log")
  set -- $counts
  # A build failure leaves no counts: count it as a failure so it cannot pass silently.
  if [ "$rc" != 0 ] && [ "$2" = 0 ]; then record "$name" "$1" 1 "cargo exited $rc"; else record "$name" "$1" "$2"; fi
}
node_suite() { # name log node-test-args...: Node's built-in runner, TAP output
  local name=$1 log=$2; shift 2
  echo "== $name"
  node --test --test-reporter=tap "$@" >"$log" 2>&1
  local rc=$? p f
  grep -E '^not ok|^# (tests|pass|fail)' "$log" | tail -n 12
  p=$(awk '/^# pass/ { print $3 }' "$log"); f=$(awk '/^# fail/ { print $3 }' "$log")
  p=${p:-0}; f=${f:-0}
  if [ "$rc" != 0 ] && [ "$f" = 0 ]; then f=1; fi
  record "$name" "$p" "$f"
}
vitest_suite() { # name json vitest-args...
  local name=$1 json=$2; shift 2
  echo "== $name"
  (cd web && npx vitest run --reporter=default --reporter=json --outputFile="$json" "$@") 2>&1 | tail -n 15
  local rc=${PIPESTATUS[0]}
  if [ -f "$json" ]; then
    read -r p f < <(node -e 'const r=require(process.argv[1]); console.log(r.numPassedTests, r.numFailedTests + (r.numRuntimeErrorTestSuites||0))' "$json")
  else p=0; f=1; fi
  if [ "$rc" != 0 ] && [ "$f" = 0 ]; then f=1; fi
  record "$name" "$p" "$f"
}

echo "== set-up (tools, wasm build, web build)"
./scripts/setup.sh || { echo "set-up failed"; exit 1; }
echo "set-up took $SECONDS s"
LAST_RECORD=$SECONDS
gate() { # name log command...: a check that must print no finding
  local name=$1 log=$2; shift 2
  echo "== $name"
  if "$@" >"$log" 2>&1; then record "$name" 1 0; else tail -n 40 "$log"; record "$name" 0 1 "see above"; fi
}
gate "gate: cargo fmt --check" "$OUT/fmt.log" cargo fmt --all --check
gate "gate: clippy -D warnings" "$OUT/clippy.log" cargo clippy --quiet --workspace --all-targets -- -D warnings
gate "gate: clippy (wasm builds)" "$OUT/clippy-wasm.log" \
  cargo clippy --quiet -p wasm-core --features wasm-settings --target wasm32-unknown-unknown -- -D warnings
gate "gate: eslint" "$OUT/eslint.log" bash -c "cd web && npx eslint --max-warnings 0 ."
gate "gate: tsc" "$OUT/tsc.log" bash -c "cd web && npx tsc -b"

echo "== cargo build (portal-api)"
cargo build --quiet -p portal-api || { record "build" 0 1 "cargo build failed"; }
export PORTAL_API_BIN="$ROOT/target/debug/portal-api"

run_cargo_suite "rust unit (wasm-core, api)" "$OUT/unit.log" --workspace --exclude api-tests
node_suite "wasm parity (wasm vs native)" "$OUT/parity.tap" wasm-core/tests/parity/
vitest_suite "web components (vitest)" "$OUT/vitest.json"

GIVEN_PG_URL=${TEST_DATABASE_URL:-}
unset TEST_DATABASE_URL  # no URL: each API test gets a fresh SQLite file
run_cargo_suite "api on SQLite" "$OUT/api-sqlite.log" -p api-tests
TEST_DATABASE_URL=$GIVEN_PG_URL

PG_NOTE=""
if [ -z "${TEST_DATABASE_URL:-}" ]; then
  if start_throwaway_postgres; then
    TEST_DATABASE_URL=$PG_URL; PG_NOTE="throwaway cluster"
  fi
fi
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  export TEST_DATABASE_URL
  run_cargo_suite "api on PostgreSQL" "$OUT/api-pg.log" -p api-tests
elif [ "${CI:-}" = true ]; then
  record "api on PostgreSQL" 0 1 "no PostgreSQL server binaries and no TEST_DATABASE_URL"
else
  SUMMARY+=("api on PostgreSQL:            skipped (no PostgreSQL server binaries; set TEST_DATABASE_URL)")
fi

echo "== openapi (spec validator, schemathesis as anonymous and as a program manager)"
PORTAL_API_BIN=$PORTAL_API_BIN OPENAPI_LOG_DIR=$OUT/openapi tests/openapi/run.sh > "$OUT/openapi.log" 2>&1
grep -v '^openapi-suite:' "$OUT/openapi.log" | tail -n 60
if grep -q '^openapi-suite:' "$OUT/openapi.log"; then
  while read -r _ name p f; do record "openapi: $name" "$p" "$f"; done < <(grep '^openapi-suite:' "$OUT/openapi.log")
else
  record "openapi" 0 1 "tests/openapi/run.sh printed no result"
fi

echo "== playwright (Chromium)"
# run-local.sh starts the two servers (demo clinic, fresh unconfigured database) and stops them.
PORTAL_API_BIN=$PORTAL_API_BIN PLAYWRIGHT_JSON_OUTPUT_NAME="$OUT/playwright.json" \
  tests/e2e/run-local.sh --reporter=line,json 2>&1 | tail -n 40
rc=${PIPESTATUS[0]}
if [ -f "$OUT/playwright.json" ]; then
  read -r p f flaky < <(node -e 'const s=require(process.argv[1]).stats; console.log(s.expected + s.flaky, s.unexpected, s.flaky)' "$OUT/playwright.json")
else p=0; f=1; flaky=0; fi
if [ "$rc" != 0 ] && [ "$f" = 0 ]; then f=1; fi
# The line reporter's tail can cut a failure's first try: print every failed or retried test's
# errors, each try's first lines, from the JSON report.
if [ -f "$OUT/playwright.json" ] && { [ "$f" != 0 ] || [ "${flaky:-0}" != 0 ]; }; then
  node "$ROOT/scripts/lib/playwright-failures.js" "$OUT/playwright.json" || true
fi
record "playwright (Chromium)" "$p" "$f" "$([ "${flaky:-0}" != 0 ] && echo "$flaky passed only on retry")"

echo
echo "== summary"
printf '%s\n' "${SUMMARY[@]}"
echo "total: $TOTAL_PASSED passed, $TOTAL_FAILED failed in $SECONDS s"
[ "$TOTAL_FAILED" = 0 ]
