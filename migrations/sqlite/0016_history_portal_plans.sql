-- History Portal list at a million rows, third step (issue 6). SQLite flavour: keep in step with
-- ../postgres/0016_history_portal_plans.sql.
--
-- The API now picks how a filtered page is read (api/src/routes/survey_queue.rs, Plan): it walks
-- the order's index testing each row, or it gathers the filter's rows through the filter's own
-- index and sorts them. Both should read index entries only, never the table row by row:
-- 1. survey_queue.sort_name_rev = lower(last_name || ' ' || first_name), kept by the same
--    triggers as sort_name, so a name search ('garcia camila' or 'smith') is a range of
--    survey_queue's own indexes: one contiguous range per name form instead of one probe per
--    matching patient.
-- 2. The appointment index carries both name keys: today's rows sort by name, and a walk in
--    date order tests a name search, from the index alone.
-- 3. Each name index carries the other sort keys a gathered search needs, and the patient index
--    (an MRN search's rows) both name keys, which the gathered search tests.

ALTER TABLE survey_queue ADD COLUMN sort_name_rev TEXT;
UPDATE survey_queue SET sort_name_rev = (SELECT lower(p.last_name || ' ' || p.first_name) FROM patients p WHERE p.id = survey_queue.patient_id);

DROP TRIGGER survey_queue_after_insert;
CREATE TRIGGER survey_queue_after_insert AFTER INSERT ON survey_queue
BEGIN
    UPDATE survey_queue SET
        appt_starts_at = (SELECT starts_at FROM appointments WHERE id = NEW.appointment_id),
        sort_name = (SELECT lower(first_name || ' ' || last_name) FROM patients WHERE id = NEW.patient_id),
        sort_name_rev = (SELECT lower(last_name || ' ' || first_name) FROM patients WHERE id = NEW.patient_id)
    WHERE id = NEW.id;
    UPDATE survey_queue_count SET n = n + 1, revision = revision + 1 WHERE id = 1;
END;
DROP TRIGGER survey_queue_patient_after_update;
CREATE TRIGGER survey_queue_patient_after_update AFTER UPDATE OF patient_id ON survey_queue
BEGIN
    UPDATE survey_queue SET
        sort_name = (SELECT lower(first_name || ' ' || last_name) FROM patients WHERE id = NEW.patient_id),
        sort_name_rev = (SELECT lower(last_name || ' ' || first_name) FROM patients WHERE id = NEW.patient_id)
    WHERE id = NEW.id;
END;
DROP TRIGGER patients_name_after_update;
CREATE TRIGGER patients_name_after_update AFTER UPDATE OF first_name, last_name ON patients
BEGIN
    UPDATE survey_queue SET sort_name = lower(NEW.first_name || ' ' || NEW.last_name),
                            sort_name_rev = lower(NEW.last_name || ' ' || NEW.first_name)
    WHERE patient_id = NEW.id;
    UPDATE survey_queue_count SET revision = revision + 1 WHERE id = 1;
END;

DROP INDEX survey_queue_appt;
CREATE INDEX survey_queue_appt ON survey_queue (appt_starts_at, id, patient_id, sort_name, sort_name_rev);
DROP INDEX survey_queue_sort_name;
CREATE INDEX survey_queue_sort_name ON survey_queue (sort_name, id, appt_starts_at);
CREATE INDEX survey_queue_sort_name_rev ON survey_queue (sort_name_rev, sort_name, id, appt_starts_at);
DROP INDEX survey_queue_patient_appt;
CREATE INDEX survey_queue_patient_appt ON survey_queue (patient_id, appt_starts_at, id, sort_name, sort_name_rev);
