#!/usr/bin/env bash
# Benchmarks: sizes of what the browser downloads, API cold start, and an authenticated JSON GET
# against an unauthenticated static endpoint of the same server under the same bounded load.
# Writes bench/results.md and bench/results.json. Load goes to 127.0.0.1 only and is bounded in
# time (BENCH_SECONDS, default 10 per endpoint) and connections (BENCH_CONNECTIONS, default 32).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/postgres.sh
source scripts/lib/portal.sh
SECONDS_PER_RUN=${BENCH_SECONDS:-10}
CONNECTIONS=${BENCH_CONNECTIONS:-32}
OUT=$(mktemp -d /tmp/portal-bench.XXXXXX)
PIDS=()
# Under set -e a failing kill (server already stopped) would end the trap early and leave the
# throwaway PostgreSQL running: every step here tolerates failure.
cleanup() {
  local p
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  stop_throwaway_postgres || true
  rm -rf "$OUT"
}
trap cleanup EXIT

# `scripts/bench.sh AREA...` runs only those area benchmarks (bench/AREA.sh), e.g. `settings`,
# `audit`, `usage`.
if [ $# -gt 0 ]; then
  for area in "$@"; do
    [ -x "bench/$area.sh" ] || { echo "no bench/$area.sh" >&2; exit 2; }
    echo "== bench/$area.sh"
    "bench/$area.sh"
  done
  exit 0
fi

./scripts/setup.sh
cargo build --release --quiet -p portal-api
BIN=target/release/portal-api

gz() { gzip -9 -c "$1" | wc -c; }
wasm=$(ls wasm-core/pkg/*.wasm | head -n 1)
wasm_raw=$(wc -c <"$wasm"); wasm_gz=$(gz "$wasm")
# The initial bundle is what index.html loads before the app runs: its entry script and the
# modules it preloads, plus the app itself (start-*.js), which the entry imports once the
# browser check passes (the wasm is counted above).
initial_js=$( (grep -oE '(src|href)="/assets/[^"]+\.js"' web/dist/index.html | sed -E 's/.*="\/(.*)"/web\/dist\/\1/'; ls web/dist/assets/start-*.js) | sort -u)
js_raw=0; js_gz=0
for f in $initial_js; do js_raw=$((js_raw + $(wc -c <"$f"))); js_gz=$((js_gz + $(gz "$f"))); done
css_gz=0
for f in $(grep -oE 'href="/assets/[^"]+\.css"' web/dist/index.html | sed -E 's/.*="\/(.*)"/web\/dist\/\1/'); do css_gz=$((css_gz + $(gz "$f"))); done

read -r cold_fresh cold_fresh_min cold_fresh_max < <(python3 bench/cold_start.py "$BIN" 7 --fresh-db)
read -r cold_warm cold_warm_min cold_warm_max < <(python3 bench/cold_start.py "$BIN" 7)

# wrk prints latency percentiles with units (us, ms, s); normalise to milliseconds.
to_ms() { awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n = n; else if (v ~ /s$/) n *= 1000; printf "%.2f", n }'; }
load() { # url [header] -> "rps p50 p99 errors"
  local url=$1 header=${2:-} out
  if [ -n "$header" ]; then
    out=$(wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_PER_RUN}s" --latency -H "$header" "$url")
  else
    out=$(wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_PER_RUN}s" --latency "$url")
  fi
  echo "$out" > "$OUT/wrk-$(echo "$url" | md5sum | cut -c1-8).txt"
  local rps p50 p99 non2xx
  rps=$(echo "$out" | awk '/Requests\/sec/ { print $2 }')
  p50=$(to_ms "$(echo "$out" | awk '$1 == "50%" { print $2 }')")
  p99=$(to_ms "$(echo "$out" | awk '$1 == "99%" { print $2 }')")
  non2xx=$(echo "$out" | awk '/Non-2xx/ { print $NF }'); non2xx=${non2xx:-0}
  echo "$rps $p50 $p99 $non2xx"
}
sign_in() { # base-url -> session cookie header for the demo program manager
  local base=$1 jar=$OUT/jar.txt csrf
  rm -f "$jar"
  curl -s -c "$jar" -b "$jar" "$base/api/TestInit/isPortalConfigured" >/dev/null
  csrf=$(awk '$6 == "portal_csrf" { print $7 }' "$jar")
  curl -s -c "$jar" -b "$jar" -H "Content-Type: application/json" -H "X-CSRF-Token: $csrf" \
    -d '{"usernameOrEmail":"manager","password":"Portal!2026"}' "$base/api/staffUser/login" | grep -q '"IsValid":true'
  echo "Cookie: portal_session=$(awk '$6 == "portal_session" { print $7 }' "$jar")"
}

rows=()
json_rows=()
bench_engine() { # label database-url [binary]
  local label=$1 db=$2 bin=${3:-$BIN} base cookie auth static
  start_portal "$bin" "$OUT/$label.log" --database-url "$db" --web-dir web/dist --demo
  PIDS+=("$PORTAL_PID"); base=$PORTAL_URL
  cookie=$(sign_in "$base")
  auth=$(load "$base/api/accountApi/permissionsJson" "$cookie")
  static=$(load "$base/api/health")
  kill "$PORTAL_PID"; wait "$PORTAL_PID" 2>/dev/null || true
  set -- $auth; local a_rps=$1 a_p50=$2 a_p99=$3 a_err=$4
  set -- $static; local s_rps=$1 s_p50=$2 s_p99=$3 s_err=$4
  local ratio; ratio=$(awk -v a="$a_rps" -v s="$s_rps" 'BEGIN { printf "%.2f", a / s }')
  rows+=("| $label | GET /api/accountApi/permissionsJson (signed in) | $a_rps | $a_p50 | $a_p99 | $a_err |")
  rows+=("| $label | GET /api/health (static, no auth) | $s_rps | $s_p50 | $s_p99 | $s_err |")
  rows+=("| $label | **ratio authenticated / static (req/s)** | **$ratio** | | | |")
  rows+=("| $label | (load average at the start: $(awk '{print $1}' /proc/loadavg)) | | | | |")
  json_rows+=("{\"engine\":\"$label\",\"authenticated\":{\"rps\":$a_rps,\"p50_ms\":$a_p50,\"p99_ms\":$a_p99,\"non2xx\":$a_err},\"static\":{\"rps\":$s_rps,\"p50_ms\":$s_p50,\"p99_ms\":$s_p99,\"non2xx\":$s_err},\"ratio\":$ratio}")
}
# BASELINE_BIN=<an older portal-api>: the same loads against it too, right before this build's,
# so a before/after comparison sees the same machine load (rows labelled "before").
bench_both() { # label before-url after-url
  if [ -n "${BASELINE_BIN:-}" ]; then bench_engine "$1 before" "$2" "$BASELINE_BIN"; fi
  bench_engine "$1" "$3"
}
if [ -n "${BASELINE_BIN:-}" ]; then
  bench_both SQLite "sqlite://$OUT/bench-before.db" "sqlite://$OUT/bench.db"
else
  bench_engine SQLite "sqlite://$OUT/bench.db"
fi
if start_throwaway_postgres; then
  if [ -n "${BASELINE_BIN:-}" ]; then
    psql "$PG_URL" -qc "CREATE DATABASE bench_before" >/dev/null
    bench_both PostgreSQL "${PG_URL%/*}/bench_before" "$PG_URL"
  else
    bench_engine PostgreSQL "$PG_URL"
  fi
fi

when=$(date -u +%Y-%m-%dT%H:%M:%SZ)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
cat > bench/results.md <<MD
# Benchmark results

Measured $when at commit $commit by \`./scripts/bench.sh\` on this machine ($(nproc) cores,
shared and noisy: compare figures of one run as ratios). Load: wrk, 2 threads, $CONNECTIONS
connections, ${SECONDS_PER_RUN} s per endpoint, 127.0.0.1 only; release build.

## Sizes

| what | raw bytes | gzip -9 bytes |
|---|---:|---:|
| wasm-core .wasm | $wasm_raw | $wasm_gz |
| initial JS (entry + preloaded modules) | $js_raw | $js_gz |
| initial CSS | | $css_gz |

## API cold start (spawn to first 200 on /api/health, median of 7; min-max)

| database | median ms | min ms | max ms |
|---|---:|---:|---:|
| new SQLite file (migrations run) | $cold_fresh | $cold_fresh_min | $cold_fresh_max |
| existing SQLite file | $cold_warm | $cold_warm_min | $cold_warm_max |

## Authenticated JSON GET against a static endpoint, same server, same run

| engine | endpoint | req/s | p50 ms | p99 ms | non-2xx |
|---|---|---:|---:|---:|---:|
$(printf '%s\n' "${rows[@]}")
MD
cat > bench/results.json <<JSON
{"measured":"$when","commit":"$commit","wasm":{"raw":$wasm_raw,"gzip":$wasm_gz},"initial_js":{"raw":$js_raw,"gzip":$js_gz},"initial_css_gzip":$css_gz,
 "cold_start_ms":{"fresh_sqlite":{"median":$cold_fresh,"min":$cold_fresh_min,"max":$cold_fresh_max},"existing_sqlite":{"median":$cold_warm,"min":$cold_warm_min,"max":$cold_warm_max}},
 "load":[$(IFS=,; echo "${json_rows[*]}")]}
JSON
cat bench/results.md

# Area benchmarks, each writing bench/results-<area>.md (its own figures and method). BENCH_AREAS
# picks some by name; history-portal generates a million rows per engine (several minutes each).
for area in ${BENCH_AREAS:-login patient-area surveys history-portal settings audit usage lcp sso webhook}; do
  if [ -x "bench/$area.sh" ]; then
    echo "== bench/$area.sh"
    "bench/$area.sh" || echo "bench/$area.sh failed (exit $?)"
  fi
done
