-- Issue 4: the patient area (letters and reports, site usage of documents).

-- The patient's mailing address, printed on generated letters.
ALTER TABLE patients ADD COLUMN address TEXT;

-- Site usage events (spec 03 §3 event types: UrlHit=0, DocumentLoaded=13).
CREATE TABLE site_usage_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created_at BIGINT NOT NULL,
    event_type INTEGER NOT NULL,
    user_id BIGINT,
    patient_id BIGINT,
    target_id TEXT,
    url TEXT
);
CREATE INDEX site_usage_events_type_created ON site_usage_events (event_type, created_at);
