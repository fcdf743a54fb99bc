-- History Portal, notifications and the one outbox (issue 6). SQLite flavour: keep in step with
-- ../postgres/0005_history_portal.sql; the two differ only in identity columns.

-- Every outbound email and SMS (spec 01 §2.8 Notification History, spec 03 Email Logs). A row is
-- written by outbox::enqueue and delivered by outbox::deliver_due with retries and backoff.
-- dedupe_key (optional, unique) makes a scheduled notice idempotent: two engine instances that
-- both decide to send "reminder 2 for queue row 17" insert one row between them.
CREATE TABLE outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    channel TEXT NOT NULL CHECK (channel IN ('Email', 'Sms')),
    recipient TEXT NOT NULL,
    subject TEXT NOT NULL DEFAULT '',
    body_text TEXT NOT NULL DEFAULT '',
    body_html TEXT,
    kind TEXT NOT NULL,
    patient_id BIGINT REFERENCES patients (id),
    survey_queue_id BIGINT REFERENCES survey_queue (id),
    dedupe_key TEXT UNIQUE,
    status TEXT NOT NULL DEFAULT 'Pending' CHECK (status IN ('Pending', 'Sending', 'Sent', 'Failed')),
    attempts BIGINT NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    claimed_until BIGINT,
    created_at BIGINT NOT NULL,
    sent_at BIGINT,
    last_error TEXT
);
CREATE INDEX outbox_due ON outbox (status, next_attempt_at);
CREATE INDEX outbox_sent ON outbox (sent_at);
CREATE INDEX outbox_patient ON outbox (patient_id);

-- Email Logs (spec 01 §2.1 logs: Date, Type, Message, Method, To, IsSent): one row per attempt.
CREATE TABLE email_logs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    outbox_id BIGINT REFERENCES outbox (id),
    created_at BIGINT NOT NULL,
    kind TEXT NOT NULL,
    message TEXT NOT NULL,
    method TEXT NOT NULL,
    recipient TEXT NOT NULL,
    is_sent BOOLEAN NOT NULL
);
CREATE INDEX email_logs_created ON email_logs (created_at);

-- History Portal lists at a million rows. The appointment instant is copied onto the queue row
-- (kept by triggers), so every filter (status, location, appointment range) and the default
-- sorts are answered from survey_queue's own indexes, counts never join, and a page's ids come
-- from an index before the ten rows are joined to their patient, survey and appointment.
ALTER TABLE survey_queue ADD COLUMN appt_starts_at BIGINT;
UPDATE survey_queue SET appt_starts_at = (SELECT a.starts_at FROM appointments a WHERE a.id = survey_queue.appointment_id);
CREATE TRIGGER survey_queue_appt_after_insert AFTER INSERT ON survey_queue
    WHEN NEW.appointment_id IS NOT NULL
BEGIN
    UPDATE survey_queue SET appt_starts_at = (SELECT starts_at FROM appointments WHERE id = NEW.appointment_id)
    WHERE id = NEW.id;
END;
CREATE TRIGGER survey_queue_appt_after_update AFTER UPDATE OF appointment_id ON survey_queue
BEGIN
    UPDATE survey_queue SET appt_starts_at = (SELECT starts_at FROM appointments WHERE id = NEW.appointment_id)
    WHERE id = NEW.id;
END;
CREATE TRIGGER appointments_starts_after_update AFTER UPDATE OF starts_at ON appointments
BEGIN
    UPDATE survey_queue SET appt_starts_at = NEW.starts_at WHERE appointment_id = NEW.id;
END;
CREATE INDEX survey_queue_appt ON survey_queue (appt_starts_at, id, patient_id);
CREATE INDEX survey_queue_status_appt ON survey_queue (status, appt_starts_at, id);
CREATE INDEX survey_queue_location_appt ON survey_queue (location_id, appt_starts_at, id);
CREATE INDEX survey_queue_status_location_appt ON survey_queue (status, location_id, appt_starts_at, id, patient_id);
CREATE INDEX survey_queue_patient_appt ON survey_queue (patient_id, appt_starts_at, id);
-- Search: prefix of 'first last', 'last first' (lower case) or of the MRN (unique index).
CREATE INDEX patients_search_first_last ON patients (lower(first_name || ' ' || last_name));
CREATE INDEX patients_search_last_first ON patients (lower(last_name || ' ' || first_name));

-- The list's TotalCount without counting a million rows per request: a counter kept by triggers.
CREATE TABLE survey_queue_count (id INTEGER PRIMARY KEY CHECK (id = 1), n BIGINT NOT NULL);
INSERT INTO survey_queue_count (id, n) SELECT 1, COUNT(*) FROM survey_queue;
CREATE TRIGGER survey_queue_count_insert AFTER INSERT ON survey_queue
BEGIN
    UPDATE survey_queue_count SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER survey_queue_count_delete AFTER DELETE ON survey_queue
BEGIN
    UPDATE survey_queue_count SET n = n - 1 WHERE id = 1;
END;

-- The notifications engine marks an appointment's I Am Here link expired X hours after it.
ALTER TABLE appointments ADD COLUMN iam_here_expired BOOLEAN NOT NULL DEFAULT FALSE;
