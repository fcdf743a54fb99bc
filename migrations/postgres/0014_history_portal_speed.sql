-- History Portal list at a million rows, second step (issue 6). PostgreSQL flavour: keep in step
-- with ../sqlite/0014_history_portal_speed.sql.
--
-- 1. survey_queue.sort_name = lower(first_name || ' ' || last_name) of the row's patient, kept by
--    triggers, so sorting by patient name reads survey_queue's own indexes (no join per row).
--    Bytewise order (COLLATE "C"), as on SQLite, so both engines sort names alike.
-- 2. survey_queue_count.revision: bumped in the same transaction by every change that can move a
--    row in or out of a filter or change its place in an order (insert, delete, status,
--    location, patient, appointment, the appointment's instant, the patient's name or MRN, a
--    location number). The API caches filtered counts and deep-page anchors per revision, so a
--    cached figure is never stale: any instance that reads a newer revision recounts.

ALTER TABLE survey_queue ADD COLUMN sort_name TEXT COLLATE "C";
UPDATE survey_queue sq SET sort_name = lower(p.first_name || ' ' || p.last_name) FROM patients p WHERE p.id = sq.patient_id;
ALTER TABLE survey_queue_count ADD COLUMN revision BIGINT NOT NULL DEFAULT 0;

-- One BEFORE trigger fills both copied columns (the 0005 one filled the appointment instant).
DROP TRIGGER survey_queue_appt ON survey_queue;
CREATE FUNCTION survey_queue_copy_derived() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.appt_starts_at := (SELECT starts_at FROM appointments WHERE id = NEW.appointment_id);
    NEW.sort_name := (SELECT lower(first_name || ' ' || last_name) FROM patients WHERE id = NEW.patient_id);
    RETURN NEW;
END $$;
CREATE TRIGGER survey_queue_derived BEFORE INSERT OR UPDATE OF appointment_id, patient_id ON survey_queue
    FOR EACH ROW EXECUTE FUNCTION survey_queue_copy_derived();

-- The statement-level count triggers of 0005 also bump the revision.
CREATE OR REPLACE FUNCTION survey_queue_count_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE survey_queue_count SET n = n + (SELECT COUNT(*) FROM inserted_rows), revision = revision + 1 WHERE id = 1;
    RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION survey_queue_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE survey_queue_count SET n = n - (SELECT COUNT(*) FROM deleted_rows), revision = revision + 1 WHERE id = 1;
    RETURN NULL;
END $$;

CREATE FUNCTION survey_queue_bump_revision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE survey_queue_count SET revision = revision + 1 WHERE id = 1;
    RETURN NULL;
END $$;
CREATE TRIGGER survey_queue_revision AFTER UPDATE OF status, location_id, patient_id, appointment_id ON survey_queue
    FOR EACH STATEMENT EXECUTE FUNCTION survey_queue_bump_revision();
CREATE TRIGGER appointments_starts_revision AFTER UPDATE OF starts_at ON appointments
    FOR EACH STATEMENT EXECUTE FUNCTION survey_queue_bump_revision();
CREATE TRIGGER patients_search_revision AFTER UPDATE OF first_name, last_name, mrn ON patients
    FOR EACH STATEMENT EXECUTE FUNCTION survey_queue_bump_revision();
CREATE TRIGGER locations_number_revision AFTER UPDATE OF loc_num ON locations
    FOR EACH STATEMENT EXECUTE FUNCTION survey_queue_bump_revision();

CREATE FUNCTION patients_push_sort_name() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE survey_queue SET sort_name = lower(NEW.first_name || ' ' || NEW.last_name)
    WHERE patient_id = NEW.id AND sort_name IS DISTINCT FROM lower(NEW.first_name || ' ' || NEW.last_name);
    RETURN NULL;
END $$;
CREATE TRIGGER patients_sort_name AFTER UPDATE OF first_name, last_name ON patients
    FOR EACH ROW EXECUTE FUNCTION patients_push_sort_name();

-- Sort by name: the whole list in name order, and a filtered set's names without a table read.
CREATE INDEX survey_queue_sort_name ON survey_queue (sort_name, id);
DROP INDEX survey_queue_status_location_appt;
CREATE INDEX survey_queue_status_location_appt ON survey_queue (status, location_id, appt_starts_at, id, patient_id, sort_name);
DROP INDEX survey_queue_patient_appt;
CREATE INDEX survey_queue_patient_appt ON survey_queue (patient_id, appt_starts_at, id, sort_name);

-- Settings documents are cached in each API instance (api/src/settings.rs): any change to the
-- settings table, by whoever, tells every instance to forget them.
CREATE FUNCTION settings_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('portal_settings', '');
    RETURN NULL;
END $$;
CREATE TRIGGER settings_changed AFTER INSERT OR UPDATE OR DELETE ON settings
    FOR EACH STATEMENT EXECUTE FUNCTION settings_notify();
CREATE TRIGGER settings_truncated AFTER TRUNCATE ON settings
    FOR EACH STATEMENT EXECUTE FUNCTION settings_notify();
