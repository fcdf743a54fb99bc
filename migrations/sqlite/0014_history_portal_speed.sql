-- History Portal list at a million rows, second step (issue 6). SQLite flavour: keep in step with
-- ../postgres/0014_history_portal_speed.sql.
--
-- 1. survey_queue.sort_name = lower(first_name || ' ' || last_name) of the row's patient, kept by
--    triggers, so sorting by patient name reads survey_queue's own indexes (no join per row).
-- 2. survey_queue_count.revision: bumped in the same transaction by every change that can move a
--    row in or out of a filter or change its place in an order (insert, delete, status,
--    location, patient, appointment, the appointment's instant, the patient's name or MRN, a
--    location number). The API caches filtered counts and deep-page anchors per revision, so a
--    cached figure is never stale: any instance that reads a newer revision recounts.
-- The 0005 insert triggers (appointment instant, count) become one, so a bulk insert does one
-- extra statement per row, not three.

ALTER TABLE survey_queue ADD COLUMN sort_name TEXT;
UPDATE survey_queue SET sort_name = (SELECT lower(p.first_name || ' ' || p.last_name) FROM patients p WHERE p.id = survey_queue.patient_id);
ALTER TABLE survey_queue_count ADD COLUMN revision BIGINT NOT NULL DEFAULT 0;

DROP TRIGGER survey_queue_appt_after_insert;
DROP TRIGGER survey_queue_count_insert;
DROP TRIGGER survey_queue_count_delete;

CREATE TRIGGER survey_queue_after_insert AFTER INSERT ON survey_queue
BEGIN
    UPDATE survey_queue SET
        appt_starts_at = (SELECT starts_at FROM appointments WHERE id = NEW.appointment_id),
        sort_name = (SELECT lower(first_name || ' ' || last_name) FROM patients WHERE id = NEW.patient_id)
    WHERE id = NEW.id;
    UPDATE survey_queue_count SET n = n + 1, revision = revision + 1 WHERE id = 1;
END;
CREATE TRIGGER survey_queue_after_delete AFTER DELETE ON survey_queue
BEGIN
    UPDATE survey_queue_count SET n = n - 1, revision = revision + 1 WHERE id = 1;
END;
CREATE TRIGGER survey_queue_patient_after_update AFTER UPDATE OF patient_id ON survey_queue
BEGIN
    UPDATE survey_queue SET sort_name = (SELECT lower(first_name || ' ' || last_name) FROM patients WHERE id = NEW.patient_id)
    WHERE id = NEW.id;
END;
CREATE TRIGGER survey_queue_revision_after_update AFTER UPDATE OF status, location_id, patient_id, appointment_id ON survey_queue
BEGIN
    UPDATE survey_queue_count SET revision = revision + 1 WHERE id = 1;
END;
CREATE TRIGGER patients_name_after_update AFTER UPDATE OF first_name, last_name ON patients
BEGIN
    UPDATE survey_queue SET sort_name = lower(NEW.first_name || ' ' || NEW.last_name) WHERE patient_id = NEW.id;
    UPDATE survey_queue_count SET revision = revision + 1 WHERE id = 1;
END;
CREATE TRIGGER patients_mrn_after_update AFTER UPDATE OF mrn ON patients
BEGIN
    UPDATE survey_queue_count SET revision = revision + 1 WHERE id = 1;
END;
CREATE TRIGGER appointments_starts_revision AFTER UPDATE OF starts_at ON appointments
BEGIN
    UPDATE survey_queue_count SET revision = revision + 1 WHERE id = 1;
END;
CREATE TRIGGER locations_number_revision AFTER UPDATE OF loc_num ON locations
BEGIN
    UPDATE survey_queue_count SET revision = revision + 1 WHERE id = 1;
END;

-- Sort by name: the whole list in name order, and a filtered set's names without a table read.
CREATE INDEX survey_queue_sort_name ON survey_queue (sort_name, id);
DROP INDEX survey_queue_status_location_appt;
CREATE INDEX survey_queue_status_location_appt ON survey_queue (status, location_id, appt_starts_at, id, patient_id, sort_name);
DROP INDEX survey_queue_patient_appt;
CREATE INDEX survey_queue_patient_appt ON survey_queue (patient_id, appt_starts_at, id, sort_name);
-- (PostgreSQL also gets a NOTIFY trigger on settings for the in-process settings cache; SQLite
-- settings are not cached, see api/src/settings.rs.)
