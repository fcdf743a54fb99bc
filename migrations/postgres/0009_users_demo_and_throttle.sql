-- Issue 3 (users, sign-in): demo accounts and a sign-in throttle shared by every API instance.

-- A demo account (spec 02 §2.10, §4 "Demo reset"): listed in the Demo view mode and the only
-- kind a demo reset touches.
ALTER TABLE users ADD COLUMN is_demo BOOLEAN NOT NULL DEFAULT FALSE;

-- Failed sign-ins per account and per client address, counted in a sliding window by every
-- instance on the same database. The key is a SHA-256 hash ('a:' + login or 'i:' + address),
-- so attempted login names (sometimes a mistyped password) are never stored.
CREATE TABLE login_failures (
    throttle_key TEXT NOT NULL,
    failed_at BIGINT NOT NULL
);
CREATE INDEX login_failures_key_time ON login_failures (throttle_key, failed_at);
CREATE INDEX login_failures_time ON login_failures (failed_at);
