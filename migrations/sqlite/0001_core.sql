-- Core data model (spec 01 §3, spec 02 §3). SQLite flavour: keep in step with
-- ../postgres/0001_core.sql; the two differ only in identity columns and BLOB/BYTEA.
-- Instants are BIGINT unix milliseconds (UTC); dates without time are TEXT 'YYYY-MM-DD'.

CREATE TABLE portal_config (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    is_configured BOOLEAN NOT NULL DEFAULT FALSE,
    configured_at BIGINT
);
INSERT INTO portal_config (id, is_configured) VALUES (1, FALSE);

-- Named settings groups (spec 03 §3), one JSON document each, versioned for 409 on races.
CREATE TABLE settings (
    group_name TEXT PRIMARY KEY,
    version BIGINT NOT NULL DEFAULT 1,
    body TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE TABLE roles (
    name TEXT PRIMARY KEY,
    description TEXT NOT NULL
);
INSERT INTO roles (name, description) VALUES
    ('Patient', 'Patient'),
    ('FrontDesk', 'Front desk'),
    ('ClientAdmin', 'Client admin'),
    ('ProgramManager', 'Program manager');

CREATE TABLE locations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    loc_num TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    address TEXT,
    phone TEXT,
    timezone TEXT NOT NULL DEFAULT 'America/New_York'
);

CREATE TABLE patients (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    mrn TEXT NOT NULL UNIQUE,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    dob TEXT,
    email TEXT,
    phone TEXT,
    gender TEXT,
    language TEXT NOT NULL DEFAULT 'en',
    unsubscribed BOOLEAN NOT NULL DEFAULT FALSE,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX patients_last_first ON patients (last_name, first_name);

CREATE TABLE users (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    username TEXT NOT NULL,
    email TEXT,
    first_name TEXT NOT NULL DEFAULT '',
    last_name TEXT NOT NULL DEFAULT '',
    role TEXT NOT NULL REFERENCES roles (name),
    password_hash TEXT NOT NULL,
    is_active BOOLEAN NOT NULL DEFAULT TRUE,
    patient_id BIGINT REFERENCES patients (id),
    ssn TEXT,
    comment TEXT,
    survey_pin TEXT,
    loc_nums TEXT,
    failed_login_count BIGINT NOT NULL DEFAULT 0,
    locked_until BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX users_username_ci ON users (lower(username));
CREATE INDEX users_email_ci ON users (lower(email));
CREATE INDEX users_patient ON users (patient_id);

-- Only a SHA-256 hash of the session token is stored: a leaked table cannot be replayed.
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    impersonator_user_id BIGINT REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expires ON sessions (expires_at);

-- Append-only: the application never updates or deletes rows here.
CREATE TABLE audit_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created_at BIGINT NOT NULL,
    user_id BIGINT,
    impersonator_user_id BIGINT,
    action TEXT NOT NULL,
    category TEXT NOT NULL,
    target_type TEXT,
    target_id TEXT,
    target_user_id BIGINT,
    old_values TEXT,
    new_values TEXT,
    ip TEXT
);
CREATE INDEX audit_log_created ON audit_log (created_at);
CREATE INDEX audit_log_user ON audit_log (user_id);
CREATE INDEX audit_log_category ON audit_log (category, created_at);

CREATE TABLE studies (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    patient_id BIGINT NOT NULL REFERENCES patients (id),
    location_id BIGINT REFERENCES locations (id),
    study_date TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    accession TEXT
);
CREATE INDEX studies_patient ON studies (patient_id);
CREATE INDEX studies_location ON studies (location_id);

CREATE TABLE appointments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    patient_id BIGINT NOT NULL REFERENCES patients (id),
    location_id BIGINT NOT NULL REFERENCES locations (id),
    study_id BIGINT REFERENCES studies (id),
    starts_at BIGINT NOT NULL,
    status TEXT NOT NULL DEFAULT 'Scheduled' CHECK (status IN ('Scheduled', 'Rescheduled', 'Canceled')),
    arrival_status TEXT CHECK (arrival_status IN ('PatientArrived', 'ReadyForExam')),
    iam_here_token TEXT UNIQUE,
    ready_for_exam_count BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX appointments_patient_starts ON appointments (patient_id, starts_at);
CREATE INDEX appointments_location ON appointments (location_id);
CREATE INDEX appointments_study ON appointments (study_id);
CREATE INDEX appointments_starts ON appointments (starts_at);

CREATE TABLE letters (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    patient_id BIGINT NOT NULL REFERENCES patients (id),
    study_id BIGINT REFERENCES studies (id),
    access_token TEXT NOT NULL UNIQUE,
    letter_type TEXT NOT NULL,
    notify_type TEXT NOT NULL DEFAULT 'Email',
    body TEXT NOT NULL DEFAULT '',
    pdf BLOB,
    sent_at BIGINT NOT NULL,
    read_at BIGINT,
    acked_at BIGINT,
    is_ack_on_view BOOLEAN NOT NULL DEFAULT FALSE,
    bi_rads TEXT
);
CREATE INDEX letters_patient_sent ON letters (patient_id, sent_at);
CREATE INDEX letters_study ON letters (study_id);

CREATE TABLE survey_definitions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    survey_id TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    xml TEXT NOT NULL DEFAULT '',
    error TEXT,
    uploaded_at BIGINT NOT NULL
);

CREATE TABLE survey_queue (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    patient_id BIGINT NOT NULL REFERENCES patients (id),
    appointment_id BIGINT REFERENCES appointments (id),
    study_id BIGINT REFERENCES studies (id),
    location_id BIGINT REFERENCES locations (id),
    survey_definition_id BIGINT NOT NULL REFERENCES survey_definitions (id),
    status TEXT NOT NULL CHECK (status IN ('Assigned', 'IntermediateSave', 'Completed', 'Reviewed',
        'Expired', 'PartiallyCompleteExpired', 'IntermediateSaveExpired')),
    created_at BIGINT NOT NULL,
    started_at BIGINT,
    completed_at BIGINT,
    updated_at BIGINT NOT NULL,
    last_email_sent_at BIGINT,
    revision BIGINT NOT NULL DEFAULT 1
);
CREATE INDEX survey_queue_patient ON survey_queue (patient_id);
CREATE INDEX survey_queue_appointment ON survey_queue (appointment_id);
CREATE INDEX survey_queue_study ON survey_queue (study_id);
CREATE INDEX survey_queue_definition ON survey_queue (survey_definition_id);
CREATE INDEX survey_queue_status_location ON survey_queue (status, location_id);
CREATE INDEX survey_queue_location ON survey_queue (location_id);

CREATE TABLE survey_logs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    survey_queue_id BIGINT NOT NULL REFERENCES survey_queue (id),
    answers TEXT NOT NULL DEFAULT '{}',
    revision BIGINT NOT NULL DEFAULT 1,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    completed_at BIGINT
);
CREATE INDEX survey_logs_queue ON survey_logs (survey_queue_id);

CREATE TABLE label_keys (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL UNIQUE,
    category TEXT NOT NULL DEFAULT 'Portal',
    description TEXT
);

CREATE TABLE label_values (
    label_key_id BIGINT NOT NULL REFERENCES label_keys (id) ON DELETE CASCADE,
    language TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (label_key_id, language)
);
