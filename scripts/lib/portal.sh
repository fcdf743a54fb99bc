# Sourced by test.sh, bench.sh and tests/e2e/run-local.sh: start a portal-api process and learn
# its address. start_portal BIN LOGFILE ARGS... sets PORTAL_URL (the base URL, once the server
# accepts connections) and PORTAL_PID. Call it directly, never inside $(...): a subshell would
# lose PORTAL_PID and the server would outlive its caller. The server is asked for port 0 and
# prints the one it got.

start_portal() {
  local bin=$1 log=$2; shift 2
  "$bin" --bind 127.0.0.1:0 "$@" >"$log" 2>"$log.err" &
  PORTAL_PID=$!
  local i url=""
  for i in $(seq 1 600); do
    url=$(grep -m1 -o 'http://127\.0\.0\.1:[0-9]*' "$log" 2>/dev/null || true)
    [ -n "$url" ] && break
    kill -0 "$PORTAL_PID" 2>/dev/null || { echo "portal-api exited early:" >&2; cat "$log.err" >&2; return 1; }
    sleep 0.05
  done
  [ -n "$url" ] || { echo "portal-api did not start in 30 s" >&2; return 1; }
  PORTAL_URL=$url
}
