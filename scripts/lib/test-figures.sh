# Sourced by bench/sso.sh and bench/webhook.sh: figures printed by ignored "bench" tests of the
# API suite (tests/api), run on SQLite and on PostgreSQL (TEST_DATABASE_URL's server, else a
# throwaway cluster). The tests hold no time bounds: timing belongs to the benches.
#
# BENCH_PROFILE=release (default) or debug picks the build (a debug build's figures are upper
# bounds, for a machine where a release build does not fit); PORTAL_API_BIN may name the server
# binary of that build, or of another one that BENCH_SERVER_BUILD then names for the results
# (e.g. a release server measured by the debug test client, when the test crate's release build
# does not fit). test_figures RESULTS_VAR PATTERN TEST_FILE:TEST_NAME... appends the lines
# matching PATTERN that each test prints, per engine, to the variable RESULTS_VAR.

PROFILE=${BENCH_PROFILE:-release}
CARGO_PROFILE_FLAG=$([ "$PROFILE" = release ] && echo --release || true)
FIGURES_LOG=$(mktemp -d /tmp/portal-bench-figures.XXXXXX)

figures_build() {
  # shellcheck disable=SC2086
  cargo build $CARGO_PROFILE_FLAG --quiet -p portal-api --bin portal-api
  PORTAL_API_BIN=${PORTAL_API_BIN:-$PWD/target/$PROFILE/portal-api}
  export PORTAL_API_BIN
  LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
}

# Sets PG_BENCH_URL. Call it directly, never inside $(...): the throwaway cluster's PG_DIR must
# reach the caller's cleanup.
figures_postgres() {
  if [ -n "${TEST_DATABASE_URL:-}" ]; then
    PG_BENCH_URL=$TEST_DATABASE_URL
  else
    start_throwaway_postgres || { echo "no PostgreSQL for the bench" >&2; return 1; }
    PG_BENCH_URL=$PG_URL
  fi
}

# run_figure ENGINE PATTERN FILE:TEST -> the matching lines of its output (the whole log kept).
run_figure() {
  local engine=$1 pattern=$2 file=${3%%:*} name=${3#*:} log
  log="$FIGURES_LOG/$file-$name-$engine.log"
  # shellcheck disable=SC2086
  if [ "$engine" = postgres ]; then
    TEST_DATABASE_URL=$PG_BENCH_URL cargo test $CARGO_PROFILE_FLAG --quiet -p api-tests --test "$file" -- \
      --ignored --nocapture --exact "$name" >"$log" 2>&1 || { cat "$log" >&2; return 1; }
  else
    env -u TEST_DATABASE_URL cargo test $CARGO_PROFILE_FLAG --quiet -p api-tests --test "$file" -- \
      --ignored --nocapture --exact "$name" >"$log" 2>&1 || { cat "$log" >&2; return 1; }
  fi
  grep -E "$pattern" "$log" || { echo "no figure in $file::$name ($engine)" >&2; return 1; }
}

figures_header() { # title what
  cat <<MD
# $1

$2

Measured $(date -u +%Y-%m-%d) on $(nproc) cores, $PROFILE build (\`BENCH_PROFILE=$PROFILE\`)$([ -n "${BENCH_SERVER_BUILD:-}" ] && echo " of the test client; the server a $BENCH_SERVER_BUILD build (\`PORTAL_API_BIN\`)");
load average before: $LOAD_START, after: $(cut -d' ' -f1-3 /proc/loadavg). Loopback only.
$([ "$PROFILE" = debug ] && [ -z "${BENCH_SERVER_BUILD:-}" ] && echo "
A debug build's figures are upper bounds (unoptimised code, its crypto above all); the release
figures are the ones to quote.")

MD
}
