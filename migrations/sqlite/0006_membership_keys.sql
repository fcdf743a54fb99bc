-- Issue 3: the single-use keys that membership emails carry (spec 02 §2.1, §4), shared by the
-- password-reset flow and self-registration, and the SMS codes that verify a phone for either.

-- One emailed key. Only the SHA-256 (hex) of the key is stored; the key itself exists only in
-- the email. purpose is 'reset' (password reset link: change-password?pwdReset=KEY&id=USER) or
-- 'registration' (create?key=KEY). A key is spent by setting used_at; expires_at NULL = never
-- (ResetKeyExpirationInSeconds = 0).
CREATE TABLE membership_keys (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    token_hash TEXT NOT NULL UNIQUE,
    purpose TEXT NOT NULL CHECK (purpose IN ('reset', 'registration')),
    user_id BIGINT REFERENCES users (id) ON DELETE CASCADE,
    patient_id BIGINT REFERENCES patients (id) ON DELETE CASCADE,
    email TEXT,
    created_at BIGINT NOT NULL,
    expires_at BIGINT,
    used_at BIGINT,
    phone_verified_at BIGINT
);
CREATE INDEX membership_keys_user ON membership_keys (user_id);
CREATE INDEX membership_keys_patient ON membership_keys (patient_id);

-- The current 6-digit phone code of one key (spec 02 §2.6): only its SHA-256 is stored.
-- requests counts codes sent (VerificationCodeRequestsMax), attempts counts wrong codes
-- (VerificationAttemptsMax); generated_at drives VerificationCodeTimeoutInMinutes.
CREATE TABLE phone_codes (
    key_id BIGINT PRIMARY KEY REFERENCES membership_keys (id) ON DELETE CASCADE,
    code_hash TEXT NOT NULL,
    generated_at BIGINT NOT NULL,
    requests BIGINT NOT NULL DEFAULT 1,
    attempts BIGINT NOT NULL DEFAULT 0
);
