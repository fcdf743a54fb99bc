-- Issue 5: taking surveys. PINs that start a survey on a kiosk, the failed-PIN counter, and the
-- fields that make answer uploads idempotent and resumable.

-- A 4-digit PIN for one survey-queue row (spec 01 §2.5), valid until expires_at. A successful
-- check hands out a survey token; only its SHA-256 is kept.
CREATE TABLE survey_pins (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    pin TEXT NOT NULL,
    survey_queue_id BIGINT NOT NULL REFERENCES survey_queue (id),
    token_hash TEXT,
    created_by_user_id BIGINT REFERENCES users (id),
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX survey_pins_pin ON survey_pins (pin);
CREATE INDEX survey_pins_token ON survey_pins (token_hash);

-- Wrong PINs per client (the browser's CSRF cookie), so 'You have N attempts left' holds.
CREATE TABLE survey_pin_failures (
    client_key TEXT PRIMARY KEY,
    failures BIGINT NOT NULL,
    first_failure_at BIGINT NOT NULL
);

-- One log per queue row; page_id is where the patient stopped; last_change_id is the
-- client-generated id of the last applied upload (a replay of it changes nothing).
ALTER TABLE survey_logs ADD COLUMN page_id TEXT;
ALTER TABLE survey_logs ADD COLUMN last_change_id TEXT;
CREATE UNIQUE INDEX survey_logs_one_per_queue ON survey_logs (survey_queue_id);
