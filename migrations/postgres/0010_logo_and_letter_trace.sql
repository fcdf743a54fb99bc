-- Issue 4: uploaded logos (shell and survey) and the letter trace lookup.

-- One row per uploaded image: 'logo' (the shell and the letters) or 'surveyLogo'.
CREATE TABLE logo_images (
    name TEXT PRIMARY KEY,
    content_type TEXT NOT NULL,
    data BYTEA NOT NULL,
    updated_at BIGINT NOT NULL
);

-- The trace of a patient's letters reads audit rows by target, not by scanning the category.
CREATE INDEX audit_log_target ON audit_log (target_type, target_id);
