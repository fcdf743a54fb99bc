-- Issue 3 parts 5-7: self-registration, online survey registration, unsubscribe.

-- Wrong dates of birth entered with one registration key (spec 02 §4 "a locked-out identity
-- returns to the patient login"): at UserAccountPassword IDFailMax the key is locked out.
ALTER TABLE membership_keys ADD COLUMN dob_failures BIGINT NOT NULL DEFAULT 0;

-- Server-side secrets that are not configuration: 'unsubscribe' is the HMAC-SHA256 key of the
-- per-patient unsubscribe links (spec 02 §2.1 unsubscribe/{token}). Created with 32 random bytes
-- on first use; shared through the database so every API instance and the notifications engine
-- make and accept the same links. Replacing the value invalidates every link already sent.
CREATE TABLE server_secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- The recovery options given at self-registration (spec 02 §2.7 "Recovery options": phone,
-- recovery email), kept on the new user.
ALTER TABLE users ADD COLUMN recovery_phone TEXT;
ALTER TABLE users ADD COLUMN recovery_email TEXT;
