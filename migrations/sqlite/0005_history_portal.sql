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
