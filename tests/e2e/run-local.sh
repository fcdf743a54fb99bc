#!/usr/bin/env bash
# Runs the browser tests against three throwaway portals (a demo clinic, a fresh unconfigured
# database, and one more fresh database that the setup-wizard spec configures), the way
# scripts/test.sh does. Needs web/dist and target/debug/portal-api built.
#   tests/e2e/run-local.sh [playwright args...]     e.g. -g "History Portal"
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(cd ../.. && pwd)
source "$ROOT/scripts/lib/portal.sh"
BIN=${PORTAL_API_BIN:-$ROOT/target/debug/portal-api}
TMP=$(mktemp -d /tmp/portal-e2e.XXXXXX)
PIDS=()
trap 'for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$TMP"' EXIT
cd "$ROOT"
PORTAL_OUTBOX_PERIOD_MS=300 start_portal "$BIN" "$TMP/demo.log" --database-url "sqlite://$TMP/demo.db" --web-dir web/dist --demo
PIDS+=("$PORTAL_PID"); DEMO_URL=$PORTAL_URL
# The demo portal's mail and SMS go to loopback sinks the reset specs read (MAIL_DIR, SMS_DIR).
python3 tests/e2e/sinks.py "$TMP/demo.db" "$DEMO_URL" "$TMP/mail" "$TMP/sms" &
PIDS+=("$!")
for _ in $(seq 1 200); do [ -e "$TMP/sinks.ready" ] && break; sleep 0.05; done
[ -e "$TMP/sinks.ready" ] || { echo "mail/SMS sinks did not start" >&2; exit 1; }
# The SAML test IdP (pysaml2 with xmlsec1, tests/saml-idp/idp.py) for the SAML sign-in in
# sso.spec.ts; its key and certificate are made here for this run only.
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=portal-test-idp \
  -keyout "$TMP/test-idp.key" -out "$TMP/test-idp.crt" 2>/dev/null
SAML_IDP_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
target/saml-idp/bin/python tests/saml-idp/idp.py --port "$SAML_IDP_PORT" --key "$TMP/test-idp.key" \
  --cert "$TMP/test-idp.crt" --sp-metadata "$DEMO_URL/sso/saml/clinic7/metadata" 2>"$TMP/saml-idp.log" &
PIDS+=("$!")
SAML_IDP_URL=http://127.0.0.1:$SAML_IDP_PORT
for _ in $(seq 1 200); do curl -sf "$SAML_IDP_URL/metadata" >/dev/null && break; sleep 0.05; done
curl -sf "$SAML_IDP_URL/metadata" >/dev/null || { echo "SAML test IdP did not start" >&2; cat "$TMP/saml-idp.log" >&2; exit 1; }
# Epic SMART on FHIR and Cerner OAuth (sso-oauth.spec.ts) on a demo portal of their own (they
# switch the SSO group and the login page's health-record link, which other specs read), against
# the test authorization server (tests/oidc-provider: oidc-provider with a SMART layer). The
# portal's Epic key pair is made here for this run only; the server registers the public half.
start_portal "$BIN" "$TMP/oauth.log" --database-url "sqlite://$TMP/oauth.db" --web-dir web/dist --demo
PIDS+=("$PORTAL_PID"); OAUTH_PORTAL_URL=$PORTAL_URL
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$TMP/epic.pem" 2>/dev/null
openssl pkey -pubout -in "$TMP/epic.pem" -out "$TMP/epic.pub.pem"
OIDC_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
node tests/oidc-provider/server.mjs --port "$OIDC_PORT" --epic-public-key "$TMP/epic.pub.pem" \
  --redirect "$OAUTH_PORTAL_URL/sso/epic/clinic7/callback,$OAUTH_PORTAL_URL/api/oauth/healthRecord/callback" \
  >"$TMP/oidc.log" 2>&1 &
PIDS+=("$!")
OIDC_URL=http://127.0.0.1:$OIDC_PORT
for _ in $(seq 1 200); do curl -sf "$OIDC_URL/fhir/.well-known/smart-configuration" >/dev/null && break; sleep 0.05; done
curl -sf "$OIDC_URL/fhir/.well-known/smart-configuration" >/dev/null || { echo "test authorization server did not start" >&2; cat "$TMP/oidc.log" >&2; exit 1; }
start_portal "$BIN" "$TMP/fresh.log" --database-url "sqlite://$TMP/fresh.db" --web-dir web/dist
PIDS+=("$PORTAL_PID"); FRESH_URL=$PORTAL_URL
# A second fresh portal that the setup-wizard spec configures (the one above must stay unconfigured).
start_portal "$BIN" "$TMP/wizard.log" --database-url "sqlite://$TMP/wizard.db" --web-dir web/dist
PIDS+=("$PORTAL_PID"); WIZARD_URL=$PORTAL_URL
cd - >/dev/null
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
OAUTH_PORTAL_URL=$OAUTH_PORTAL_URL OIDC_URL=$OIDC_URL EPIC_KEY_FILE=$TMP/epic.pem \
SAML_IDP_URL=$SAML_IDP_URL MAIL_DIR=$TMP/mail SMS_DIR=$TMP/sms PORTAL_URL=$DEMO_URL PORTAL_UNCONFIGURED_URL=$FRESH_URL PORTAL_WIZARD_URL=$WIZARD_URL npx playwright test "$@"
