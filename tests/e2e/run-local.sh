#!/usr/bin/env bash
# Runs the browser tests against two throwaway portals (a demo clinic and a fresh, unconfigured
# database), the way scripts/test.sh does. Needs web/dist and target/debug/portal-api built.
#   tests/e2e/run-local.sh [playwright args...]     e.g. -g "History Portal"
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(cd ../.. && pwd)
source "$ROOT/scripts/lib/portal.sh"
BIN=${PORTAL_API_BIN:-$ROOT/target/debug/portal-api}
TMP=$(mktemp -d /tmp/portal-e2e.XXXXXX)
PIDS=()
trap 'for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done' EXIT
# Not inside $(...): a subshell would lose PORTAL_PID and the servers would outlive the run.
cd "$ROOT"
start_portal "$BIN" "$TMP/demo.log" --database-url "sqlite://$TMP/demo.db" --web-dir web/dist --demo >"$TMP/demo.url"
PIDS+=("$PORTAL_PID")
start_portal "$BIN" "$TMP/fresh.log" --database-url "sqlite://$TMP/fresh.db" --web-dir web/dist >"$TMP/fresh.url"
PIDS+=("$PORTAL_PID")
cd - >/dev/null
DEMO_URL=$(cat "$TMP/demo.url") FRESH_URL=$(cat "$TMP/fresh.url")
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
PORTAL_URL=$DEMO_URL PORTAL_UNCONFIGURED_URL=$FRESH_URL npx playwright test "$@"
