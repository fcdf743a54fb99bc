-- Issue 5 part 4 (staff start) and part 3 (expiry without the notifications engine).

-- A staff member who entered the admin PIN on a kiosk (spec 01 §2.5) gets a grant token
-- (header X-Survey-Admin) for patient search and survey start; only its SHA-256 is kept.
-- loc_nums: the locations the grant covers (comma list), NULL for all.
CREATE TABLE survey_admin_grants (
    token_hash TEXT PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    loc_nums TEXT,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX survey_admin_grants_expires ON survey_admin_grants (expires_at);

-- Expiry of unfinished surveys when the notifications engine is off: each pass expires the
-- surveys whose expiry moment lies in (expired_through, now] and moves the mark to now. The
-- first pass only sets the mark, so rows that were already past their moment when this
-- started (such as old demo rows) keep their status.
CREATE TABLE survey_expiry_mark (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    expired_through BIGINT NOT NULL
);
