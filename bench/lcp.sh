#!/usr/bin/env bash
# Patient pages' Largest Contentful Paint (issue 22 goal: under 1.0 s on loopback) ->
# bench/results-lcp.md. A demo portal (BIN, default the release build) serving web/dist on
# 127.0.0.1; tests/e2e/bench/lcp.mjs loads each page cold in Chromium and reads LCP with a
# PerformanceObserver (Lighthouse is not installed here; see that file). RUNS per page (default 5).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/portal.sh
BIN=${BIN:-target/release/portal-api}
RUNS=${RUNS:-5}
TMP=$(mktemp -d /tmp/bench-lcp.XXXXXX)
PORTAL_PID=
trap '[ -n "$PORTAL_PID" ] && kill "$PORTAL_PID" 2>/dev/null; rm -rf "$TMP"' EXIT
start_portal "$BIN" "$TMP/portal.log" --database-url "sqlite://$TMP/lcp.db" --web-dir web/dist --demo
load=$(awk '{print $1}' /proc/loadavg)
lines=$(cd tests/e2e && node bench/lcp.mjs "$PORTAL_URL" "$RUNS")
{
  echo "# Patient pages: Largest Contentful Paint"
  echo
  echo "Run $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(nproc) cores (load average $load at the start), binary \`$BIN\`,"
  echo "\`bench/lcp.sh\`: Chromium $(/usr/bin/chromium --version 2>/dev/null | awk '{print $2}'), 1350x940, each load cold (new"
  echo "context, service worker blocked), signed in as jane.doe, LCP from a buffered PerformanceObserver"
  echo "(Lighthouse not installed: same metric, no simulated throttling). $RUNS runs per page."
  echo
  echo "| page | median ms | min ms | max ms |"
  echo "|---|---:|---:|---:|"
  echo "$lines" | awk '{ printf "| %s | %s | %s | %s |\n", $1, $2, $3, $4 }'
} > bench/results-lcp.md
cat bench/results-lcp.md
