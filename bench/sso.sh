#!/usr/bin/env bash
# SSO sign-in p99 on loopback (issue 19), per SSO type, on SQLite and PostgreSQL: decryption
# token (DecryptionByHash, DecryptionByPassword), SAML 2.0 (against the pysaml2 IdP of
# tests/saml-idp), Epic SMART on FHIR and Cerner OAuth (against npm oidc-provider with the SMART
# layer of tests/oidc-provider). Each figure is an ignored test of the API suite that prints it
# (`sign_in_p99_on_loopback` in tests/api/tests/sso_{decryption,saml,oauth}.rs); N per type from
# DECRYPTION_BENCH_N (100), SAML_BENCH_N (40), OAUTH_BENCH_N (100). Release build unless
# BENCH_PROFILE=debug. Writes bench/results-sso.md.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/postgres.sh
source scripts/lib/test-figures.sh
trap 'stop_throwaway_postgres || true; rm -rf "$FIGURES_LOG"' EXIT

figures_build
figures_postgres
LINES=""
for engine in sqlite postgres; do
  for t in sso_decryption:sign_in_p99_on_loopback sso_saml:sign_in_p99_on_loopback sso_oauth:sign_in_p99_on_loopback; do
    LINES+="$(run_figure "$engine" 'sign-in on loopback' "$t" | sed 's/^/- /')"$'\n'
  done
done
# What SAML adds to the server (issue 19's second figure): the code of the crates only samael
# brings (`cargo tree -i` shows quick-xml and openssl are reached only through it) and of the
# portal's own SAML module, summed from the binary's symbol sizes (after LTO, inlined code counts
# where it landed), and the shared libraries the binary links only for SAML (libxmlsec1, libxml2,
# OpenSSL), by size on disk.
saml_size() {
  local bin=$1 total
  total=$(stat -c %s "$bin")
  nm -C -S --size-sort "$bin" | awk -v total="$total" '
    { size = strtonum("0x" $2); $1 = $2 = $3 = ""; name = $0 }
    name ~ /samael/ { part["samael"] += size; next }
    name ~ /quick_xml/ { part["quick-xml"] += size; next }
    name ~ /portal_api::(routes::)?sso::saml/ { part["portal SAML module"] += size; next }
    name ~ /openssl|xmlsec/ { part["openssl, xmlsec bindings"] += size; next }
    END {
      for (k in part) { printf "- %s: %.0f KB\n", k, part[k] / 1000; sum += part[k] }
      printf "- **in all: %.0f KB of the %.1f MB binary (%.1f %%)**\n", sum / 1000, total / 1e6, 100 * sum / total
    }'
  echo
  echo "Shared libraries linked for SAML (size on disk):"
  echo
  ldd "$bin" | awk '/libxmlsec1|libxml2|libssl|libcrypto/ { print $1, $3 }' | while read -r name path; do
    echo "- $name: $(( $(stat -L -c %s "$path") / 1000 )) KB"
  done
}

{
  figures_header "SSO sign-in on loopback (issue 19)" \
"Each line: one SSO type on one engine, N whole sign-ins one after another, each from its own
forwarded address (the SSO throttle). *Portal time* is what the portal spends answering: for the
decryption token the one request (key derived: SHA-256 for DecryptionByHash, 100,000 PBKDF2
rounds for DecryptionByPassword; token opened and checked, nonce kept, patient found, SSO session
made, audited); for SAML the AuthnRequest redirect plus the ACS (signature checked by
libxmlsec1 on a blocking thread, assertion ID kept); for Epic and Cerner the start plus the
callback (smart-configuration discovery, token exchange with PKCE and, for Epic, an RS384
client assertion, JWKS, id_token check, session). The *whole trip* adds the identity provider's
own pages. Produced by \`scripts/bench.sh sso\`."
  echo "$LINES"
  echo "## What the SAML dependency adds to the server binary"
  echo
  echo "The server binary measured above (${BENCH_SERVER_BUILD:-$PROFILE} build):"
  echo
  saml_size "$PORTAL_API_BIN"
} > bench/results-sso.md
cat bench/results-sso.md
