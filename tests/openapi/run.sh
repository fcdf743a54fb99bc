#!/usr/bin/env bash
# The generated OpenAPI document (issue 13 §2): openapi-spec-validator on `portal-api openapi`,
# then schemathesis against a demo server (SQLite, loopback) as anonymous and as a program
# manager, checking for server errors and answers that do not match the document.
# Prints one line per suite for scripts/test.sh: "openapi-suite: NAME PASSED FAILED".
#   OPENAPI_LOG_DIR schemathesis' full output is kept here (default: removed at the end)
#   PORTAL_API_BIN  the server binary (default target/debug/portal-api)
#   PY_TOOLS        the venv scripts/setup.sh installs (default target/py-tools)
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN=${PORTAL_API_BIN:-$PWD/target/debug/portal-api}
PY=${PY_TOOLS:-$PWD/target/py-tools}/bin
WORK=$(mktemp -d -t portal-openapi.XXXXXX)
LOGS=${OPENAPI_LOG_DIR:-$WORK}  # schemathesis' full output per run (test.sh keeps it)
mkdir -p "$LOGS"
SERVER=
cleanup() { [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

"$BIN" openapi > "$WORK/openapi.json" || { echo "openapi-suite: validator 0 1"; exit 1; }
if "$PY/openapi-spec-validator" "$WORK/openapi.json"; then
  echo "openapi-suite: validator 1 0"
else
  echo "openapi-suite: validator 0 1"
fi

# The demo clinic on a free port; the first line of its output names the address.
"$BIN" --bind 127.0.0.1:0 --database-url "sqlite://$WORK/portal.db" --web-dir web/dist --demo \
  --key-file "$WORK/portal.key" > "$WORK/server.out" 2> "$WORK/server.err" &
SERVER=$!
for _ in $(seq 100); do
  BASE=$(sed -n 's/^listening on //p' "$WORK/server.out" | head -n 1)
  [ -n "$BASE" ] && break
  sleep 0.2
done
[ -n "${BASE:-}" ] || { echo "demo server did not start"; cat "$WORK/server.err"; echo "openapi-suite: schemathesis 0 1"; exit 1; }

# A program manager's session, signed in like the web app (CSRF cookie first).
JAR=$WORK/jar
curl -sf -c "$JAR" -b "$JAR" "$BASE/api/health" > /dev/null
csrf() { awk '$6=="portal_csrf"{print $7}' "$JAR"; }
curl -sf -c "$JAR" -b "$JAR" -H "X-CSRF-Token: $(csrf)" -H 'content-type: application/json' \
  -d '{"usernameOrEmail":"manager","password":"Portal!2026"}' "$BASE/api/staffUser/login" > /dev/null
SESSION=$(awk '$6=="portal_session"{print $7}' "$JAR")
[ -n "$SESSION" ] || echo "program manager sign-in failed"

run() { # name extra-args...
  local name=$1; shift
  (cd "$WORK" && "$PY/schemathesis" run "$WORK/openapi.json" --url "$BASE" --no-color \
    --checks not_a_server_error,response_schema_conformance \
    --max-examples 10 --seed 13 --workers 2 --request-timeout 30 "$@") > "$LOGS/$name.txt" 2>&1
  local rc=$? p f
  p=$(sed -n 's/^ *\([0-9]*\) generated, .*/\1/p' "$LOGS/$name.txt" | tail -n 1)
  f=$(grep -oE '[0-9]+ failed' "$LOGS/$name.txt" | tail -n 1 | grep -oE '[0-9]+')
  f=${f:-0}; p=$(( ${p:-0} - f ))
  if [ "$rc" != 0 ]; then
    # The failures with the requests that reproduce them, without the long lists of operations.
    grep -v '^  - ' "$LOGS/$name.txt" | sed -n '/FAILURES/,/WARNINGS/p' | head -n 200
    tail -n 25 "$LOGS/$name.txt"
    [ "$f" = 0 ] && f=1
  else
    grep -E 'generated|Tested:' "$LOGS/$name.txt"
  fi
  echo "openapi-suite: $name $p $f"
}

# Operations that would end the session or undo the demo clinic are left out as the manager:
# every DELETE, signing out, impersonating, password changes, the demo reset, reconfiguring the
# portal, deleting a survey, and editing accounts (which could disable the manager's own).
DESTRUCTIVE='/(logout|changemypassword|impersonate|changePassword|demoResetUser|saveConfiguration|DeleteUploadedSurveyXml)$'
run "schemathesis-anonymous" -H "Cookie: portal_csrf=t" -H "X-CSRF-Token: t"
run "schemathesis-manager" -H "Cookie: portal_csrf=$(csrf); portal_session=$SESSION" \
  -H "X-CSRF-Token: $(csrf)" --exclude-method DELETE --exclude-path-regex "$DESTRUCTIVE" \
  --exclude-by 'method == "PUT" and path == "/api/user/{id}"'
