-- Staff two-step sign-in (issue 22): one authenticator secret per user (AES-256-GCM with the
-- server's key file, secrets.rs), usable once a code from it was confirmed; the highest time step
-- accepted so far (a code is never accepted twice); ten single-use recovery codes (SHA-256 only);
-- the sign-ins waiting for their second step (the cookie holds a random token, this its SHA-256).
CREATE TABLE staff_mfa (
    user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    secret_enc TEXT NOT NULL,
    confirmed_at BIGINT,
    last_step BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);

CREATE TABLE staff_mfa_recovery_codes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    code_hash TEXT NOT NULL,
    used_at BIGINT
);
CREATE INDEX staff_mfa_recovery_codes_user ON staff_mfa_recovery_codes (user_id);

CREATE TABLE mfa_challenges (
    token_hash TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    failures BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX mfa_challenges_expires ON mfa_challenges (expires_at);
