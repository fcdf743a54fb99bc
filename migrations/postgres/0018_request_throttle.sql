-- Issue 13 §3: the registration throttle (self-registration, survey registration, unsubscribe)
-- moves from one process's memory to the database, like the sign-in throttle (0009), so every
-- API instance on the same database counts the same requests and a restart forgets nothing.
-- One row per request allowed in the window; the key is a SHA-256 hash of the endpoint group
-- and the client address, so addresses are never stored.
CREATE TABLE request_throttle (
    throttle_key TEXT NOT NULL,
    requested_at BIGINT NOT NULL
);
CREATE INDEX request_throttle_key_time ON request_throttle (throttle_key, requested_at);
CREATE INDEX request_throttle_time ON request_throttle (requested_at);
