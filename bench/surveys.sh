#!/usr/bin/env bash
# Survey bench (issue 5) -> bench/results-surveys.md:
#  - submit and autosave API p50/p99 under a bounded concurrent load (bench/surveys_api.py, a
#    fresh demo portal on 127.0.0.1, release build when present, else debug),
#  - autosave to IndexedDB (encrypt + write) p50/p95 measured in Chromium by the runner itself
#    (performance.measure 'survey-device-write'), read by the chaos spec (100 flips).
# Needs web/dist and the portal binary built.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
source scripts/lib/portal.sh
BIN=target/release/portal-api
[ -x "$BIN" ] || BIN=target/debug/portal-api
TMP=$(mktemp -d /tmp/portal-bench-surveys.XXXXXX)
trap '[ -n "${PORTAL_PID:-}" ] && kill "$PORTAL_PID" 2>/dev/null; rm -rf "$TMP"' EXIT
start_portal "$BIN" "$TMP/portal.log" --database-url "sqlite://$TMP/demo.db" --web-dir web/dist --demo
API=$(python3 bench/surveys_api.py "$PORTAL_URL" 4 40)
kill "$PORTAL_PID"; PORTAL_PID=
BROWSER=$(cd tests/e2e && ./run-local.sh surveys-chaos 2>&1 | grep -E "^autosave to IndexedDB|^chaos seed" || true)
{
  echo "# Survey bench ($(date -u +%Y-%m-%d), $(nproc) cores, binary: $BIN, SQLite)"
  echo
  echo "| call | requests | concurrency | p50 ms | p99 ms |"
  echo "|---|---|---|---|---|"
  echo "$API"
  echo
  echo "Chromium (headless, Debian), chaos spec with 100 offline flips:"
  echo
  echo '```'
  echo "$BROWSER"
  echo '```'
  echo
  echo "Summary PDF p50/p99: not measured (the summary report is not built yet)."
} > bench/results-surveys.md
cat bench/results-surveys.md
