-- Issue 19: single sign-on (spec 03 SSO configuration, spec 01 §2.11, §4, §6).
-- An alternate patient identifier an EHR may send instead of the MRN (EnableSsoByAlternateId
-- with SsoAlternateIdColumn = alternate_id).
ALTER TABLE patients ADD COLUMN alternate_id TEXT;
CREATE INDEX patients_alternate_id ON patients (alternate_id);
-- A session opened by SSO carries its context token (the last segment of
-- /documents/all/{clientId}/{ssoContextToken}); NULL for a password sign-in. Such a session is
-- in SSO mode (IsSsoMode): Home hidden, guarded routes lead to /documents.
ALTER TABLE sessions ADD COLUMN sso_context TEXT;
-- Single-use SSO artefacts kept until they expire (decryption token nonces; room for a payload
-- for flows that keep state between two requests). Only SHA-256 hashes are stored as keys.
CREATE TABLE sso_once (
    once_key TEXT PRIMARY KEY,
    payload TEXT NOT NULL DEFAULT '',
    expires_at BIGINT NOT NULL
);
CREATE INDEX sso_once_expires ON sso_once (expires_at);
