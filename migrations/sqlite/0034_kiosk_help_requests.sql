-- Issue 20: the kiosk's "I need help" asks the front desk to come. One row per request; a
-- staff member marks it handled (resolved_at, resolved_by). Open requests show on the staff home.
CREATE TABLE kiosk_help_requests (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    survey_queue_id BIGINT NOT NULL REFERENCES survey_queue (id),
    patient_id BIGINT NOT NULL REFERENCES patients (id),
    location_id BIGINT REFERENCES locations (id),
    requested_at BIGINT NOT NULL,
    resolved_at BIGINT,
    resolved_by BIGINT REFERENCES users (id)
);
CREATE INDEX kiosk_help_requests_open ON kiosk_help_requests (resolved_at, requested_at);
CREATE INDEX kiosk_help_requests_queue ON kiosk_help_requests (survey_queue_id);
