#!/usr/bin/env bash
# Webhook delivery p99 on loopback (issue 17), on SQLite and PostgreSQL: WEBHOOK_BENCH_N
# (default 200) deliveries through the integration outbox to a receiver on 127.0.0.1, each one
# pass of `integrations::deliver_due` (claim the row, sign the body with HMAC-SHA256, POST, log
# the attempt, mark it delivered), timed one after another. The figure is the ignored test
# `webhook_delivery_latency_on_loopback` of tests/api/tests/survey_integrations.rs. Release
# build unless BENCH_PROFILE=debug. Writes bench/results-webhook.md.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/postgres.sh
source scripts/lib/test-figures.sh
trap 'stop_throwaway_postgres || true; rm -rf "$FIGURES_LOG"' EXIT

figures_build
figures_postgres
LINES=""
for engine in sqlite postgres; do
  LINES+="$(run_figure "$engine" 'webhook delivery on loopback' survey_integrations:webhook_delivery_latency_on_loopback | sed 's/^/- /')"$'\n'
done
{
  figures_header "Webhook delivery on loopback (issue 17)" \
"One line per engine: the time of one delivery pass for one due webhook (claim, HMAC-SHA256
signature, POST to a loopback receiver answering 200, attempt row, Delivered), measured by the
test process, which drives the pass itself (the server's Integration Service is stopped first).
Produced by \`scripts/bench.sh webhook\`."
  echo "$LINES"
} > bench/results-webhook.md
cat bench/results-webhook.md
