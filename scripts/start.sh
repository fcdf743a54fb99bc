#!/usr/bin/env bash
# Starts the portal on SQLite with the demo clinic: installs and builds what is missing first.
# Usage: ./scripts/start.sh            (http://127.0.0.1:8080, database data/portal.db)
#        PORT=9000 ./scripts/start.sh  DATABASE_URL=postgres://... ./scripts/start.sh
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
echo "[start] cargo build --release -p portal-api (a few minutes the first time)"
cargo build --release --quiet -p portal-api
mkdir -p data
export DATABASE_URL="${DATABASE_URL:-sqlite://data/portal.db}"
exec target/release/portal-api --bind "127.0.0.1:${PORT:-8080}" --web-dir web/dist --demo
