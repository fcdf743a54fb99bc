#!/usr/bin/env bash
# Installs what the portal needs on a fresh machine of this kind and builds the wasm and web parts.
# Every step checks first and skips what is already there at the right version.
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=0.2.130
WASM_PACK_VERSION=0.15.1
log() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

need_apt=()
command -v chromium >/dev/null || need_apt+=(chromium)
command -v pdftotext >/dev/null || need_apt+=(poppler-utils)
# The PDFs' embedded fonts (README "PDF fonts"): Noto Sans, Noto Sans Khmer, Noto Sans CJK SC.
[ -f /usr/share/fonts/truetype/noto/NotoSansKhmer-Regular.ttf ] || need_apt+=(fonts-noto-core)
[ -f /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc ] || need_apt+=(fonts-noto-cjk)
command -v wrk >/dev/null || need_apt+=(wrk)
# SAML (issue 19): samael's `xmlsec` feature builds against libxmlsec1 (bindgen needs libclang);
# the test IdP (pysaml2) signs with the xmlsec1 program.
for pkg in libxmlsec1-dev libxml2-dev libssl-dev pkg-config libclang-dev xmlsec1; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || need_apt+=("$pkg")
done
if [ "${SETUP_SKIP_APT:-0}" != 1 ] && [ ${#need_apt[@]} -gt 0 ]; then
  log "apt-get install ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

# The printer tests start a private CUPS scheduler on loopback (tests/api/src/cups.rs) as their
# own process; the system's cupsd is not used. No recommends: cups-filters, avahi and the like
# are not needed for raw test queues.
need_cups=()
[ -x /usr/sbin/cupsd ] || need_cups+=(cups-daemon)
command -v lpadmin >/dev/null || need_cups+=(cups-client)
command -v ipptool >/dev/null || need_cups+=(cups-ipp-utils)
if [ "${SETUP_SKIP_APT:-0}" != 1 ] && [ ${#need_cups[@]} -gt 0 ]; then
  log "apt-get install ${need_cups[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need_cups[@]}" >/dev/null
fi

# A real SMTP server on loopback for the mail tests (outbox, notifications).
if ! python3 -c 'import aiosmtpd' 2>/dev/null; then
  log "pip install aiosmtpd"
  python3 -m pip install --quiet --disable-pip-version-check aiosmtpd
fi

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WASM_BINDGEN_VERSION" ]; then
  log "cargo install wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 5 minutes, once)"
  # --locked can fail while the registry lags a transitive release; fall back to a fresh resolve.
  cargo install --locked wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" \
    || cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

if [ "$(wasm-pack --version 2>/dev/null | awk '{print $2}')" != "$WASM_PACK_VERSION" ]; then
  log "cargo install wasm-pack $WASM_PACK_VERSION (about 5 minutes, once)"
  cargo install --locked wasm-pack --version "$WASM_PACK_VERSION"
fi

# The OpenAPI checks' Python tools (tests/openapi/run.sh), in a venv of their own under target/.
SCHEMATHESIS_VERSION=4.32.5
SPEC_VALIDATOR_VERSION=0.9.0
PY_TOOLS=target/py-tools
if [ "$("$PY_TOOLS/bin/schemathesis" --version 2>/dev/null | awk '{print $3}')" != "$SCHEMATHESIS_VERSION" ] \
  || ! "$PY_TOOLS/bin/openapi-spec-validator" --help >/dev/null 2>&1; then
  log "pip install schemathesis $SCHEMATHESIS_VERSION, openapi-spec-validator $SPEC_VALIDATOR_VERSION (venv $PY_TOOLS)"
  python3 -m venv "$PY_TOOLS"
  "$PY_TOOLS/bin/pip" install --quiet --disable-pip-version-check \
    "schemathesis==$SCHEMATHESIS_VERSION" "openapi-spec-validator==$SPEC_VALIDATOR_VERSION"
fi

# The SAML test IdP (tests/saml-idp/idp.py) runs on pysaml2, in a venv of its own under target/.
PYSAML2_VERSION=7.5.5
SAML_IDP=target/saml-idp
if [ "$("$SAML_IDP/bin/python" -c 'import importlib.metadata as m; print(m.version("pysaml2"))' 2>/dev/null)" != "$PYSAML2_VERSION" ]; then
  log "pip install pysaml2 $PYSAML2_VERSION (venv $SAML_IDP)"
  python3 -m venv "$SAML_IDP"
  "$SAML_IDP/bin/pip" install --quiet --disable-pip-version-check "pysaml2==$PYSAML2_VERSION"
fi

# The OAuth / SMART test authorization server (tests/oidc-provider: npm oidc-provider 9.13.3,
# the last line that runs on Node 20), for the Epic and Cerner sign-in tests.
OIDC_DIR=tests/oidc-provider
OIDC_SUM=$(sha256sum "$OIDC_DIR/package-lock.json" | cut -c1-64)
if [ "$(cat "$OIDC_DIR/node_modules/.lock-stamp" 2>/dev/null)" != "$OIDC_SUM" ]; then
  log "npm ci in $OIDC_DIR"
  (cd "$OIDC_DIR" && npm ci --no-audit --no-fund --loglevel=error)
  echo "$OIDC_SUM" > "$OIDC_DIR/node_modules/.lock-stamp"
fi

# wasm-opt from npm binaryen@132 (wasm-core/tools; TOOLCHAIN.md: Debian's binaryen v108 breaks the
# externref table) for the one post-build pass on the wasm packages below.
WASM_TOOLS=wasm-core/tools
WASM_TOOLS_SUM=$(sha256sum "$WASM_TOOLS/package-lock.json" | cut -c1-64)
if [ "$(cat "$WASM_TOOLS/node_modules/.lock-stamp" 2>/dev/null)" != "$WASM_TOOLS_SUM" ]; then
  log "npm ci in $WASM_TOOLS"
  (cd "$WASM_TOOLS" && npm ci --no-audit --no-fund --loglevel=error)
  echo "$WASM_TOOLS_SUM" > "$WASM_TOOLS/node_modules/.lock-stamp"
fi

if [ "${SETUP_TOOLS_ONLY:-0}" = 1 ]; then exit 0; fi

log "wasm-pack build wasm-core"
# Bundler target: vite-plugin-wasm imports the .wasm as an ES module. The wasm-release profile
# (root Cargo.toml) optimises for size without slowing the API's native release build.
(cd wasm-core && wasm-pack --quiet build --target bundler --out-dir pkg --profile wasm-release -- --features wasm)
# The staff package: the admin and staff pages' rules (settings groups, History Portal, Audit Logs,
# the kiosk's staff start), a second package loaded only by those pages (issue 22).
log "wasm-pack build wasm-core (settings package)"
(cd wasm-core && wasm-pack --quiet build --target bundler --out-dir pkg-settings --out-name wasm_core_settings \
  --profile wasm-release -- --features wasm-settings)
# One binaryen pass on both packages (issue 22): it drops the functions and the name section that
# nothing uses and writes the code section tighter (patient package -6 kB raw, -1.1 KB gzip -9).
# Only this pass: wasm-opt's -Oz/-Os/-O2 shrink raw bytes but grow the gzipped file
# (bench/results-issue22-speed.md). wasm-pack's own wasm-opt stays off (wasm-core/Cargo.toml).
for wasm in wasm-core/pkg/wasm_core_bg.wasm wasm-core/pkg-settings/wasm_core_settings_bg.wasm; do
  "$WASM_TOOLS/node_modules/.bin/wasm-opt" --enable-bulk-memory --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue \
    --remove-unused-module-elements "$wasm" -o "$wasm"
done

export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
for dir in web tests/e2e; do
  if [ -f "$dir/package-lock.json" ]; then
    stamp="$dir/node_modules/.lock-stamp"
    sum=$(sha256sum "$dir/package-lock.json" | cut -c1-64)
    if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$sum" ]; then
      log "npm ci in $dir"
      (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
      echo "$sum" > "$stamp"
    fi
  fi
done
log "vite build"
(cd web && npm run build --silent)
log "done"
