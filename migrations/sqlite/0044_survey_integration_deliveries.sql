-- Issue 17: the survey integrations' durable queue. One row per (event, integration target):
-- a Maglink queue file, a webhook request or a portal survey action. The idempotency key is
-- unique, so a replayed submit never makes a second row; the integration service claims due
-- rows (as the outbox does), retries failures with backoff and keeps every attempt.
CREATE TABLE integration_deliveries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    event TEXT NOT NULL,
    target TEXT NOT NULL,
    idempotency_key TEXT NOT NULL UNIQUE,
    survey_queue_id BIGINT REFERENCES survey_queue (id),
    payload TEXT NOT NULL,
    test_mode BOOLEAN NOT NULL DEFAULT FALSE,
    status TEXT NOT NULL,
    attempts BIGINT NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    claimed_until BIGINT,
    last_error TEXT,
    created_at BIGINT NOT NULL,
    finished_at BIGINT
);
CREATE INDEX integration_deliveries_due ON integration_deliveries (status, next_attempt_at);

-- Every attempt of a delivery: its outcome, HTTP status code (webhooks) and time taken.
CREATE TABLE integration_attempts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    delivery_id BIGINT NOT NULL REFERENCES integration_deliveries (id),
    attempt BIGINT NOT NULL,
    at BIGINT NOT NULL,
    outcome TEXT NOT NULL,
    status_code BIGINT,
    duration_ms BIGINT NOT NULL,
    detail TEXT NOT NULL
);
CREATE INDEX integration_attempts_delivery ON integration_attempts (delivery_id);
