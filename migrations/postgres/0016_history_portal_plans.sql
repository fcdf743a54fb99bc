-- History Portal list at a million rows, third step (issue 6). PostgreSQL flavour: keep in step
-- with ../sqlite/0016_history_portal_plans.sql.
--
-- The API now picks how a filtered page is read (api/src/routes/survey_queue.rs, Plan): it walks
-- the order's index testing each row, or it gathers the filter's rows through the filter's own
-- index and sorts them. Both should read index entries only, never the table row by row:
-- 1. survey_queue.sort_name_rev = lower(last_name || ' ' || first_name), kept by the same
--    triggers as sort_name (bytewise order, COLLATE "C"), so a name search ('garcia camila' or
--    'smith') is a range of survey_queue's own indexes: one contiguous range per name form
--    instead of one probe per matching patient.
-- 2. The appointment index carries both name keys: today's rows sort by name, and a walk in
--    date order tests a name search, from the index alone.
-- 3. Each name index carries the other sort keys a gathered search needs, and the patient index
--    (an MRN search's rows) both name keys, which the gathered search tests.

ALTER TABLE survey_queue ADD COLUMN sort_name_rev TEXT COLLATE "C";
UPDATE survey_queue sq SET sort_name_rev = lower(p.last_name || ' ' || p.first_name) FROM patients p WHERE p.id = sq.patient_id;

CREATE OR REPLACE FUNCTION survey_queue_copy_derived() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.appt_starts_at := (SELECT starts_at FROM appointments WHERE id = NEW.appointment_id);
    SELECT lower(first_name || ' ' || last_name), lower(last_name || ' ' || first_name)
      INTO NEW.sort_name, NEW.sort_name_rev FROM patients WHERE id = NEW.patient_id;
    RETURN NEW;
END $$;

CREATE OR REPLACE FUNCTION patients_push_sort_name() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE survey_queue SET sort_name = lower(NEW.first_name || ' ' || NEW.last_name),
                            sort_name_rev = lower(NEW.last_name || ' ' || NEW.first_name)
    WHERE patient_id = NEW.id
      AND (sort_name IS DISTINCT FROM lower(NEW.first_name || ' ' || NEW.last_name)
           OR sort_name_rev IS DISTINCT FROM lower(NEW.last_name || ' ' || NEW.first_name));
    RETURN NULL;
END $$;

DROP INDEX survey_queue_appt;
CREATE INDEX survey_queue_appt ON survey_queue (appt_starts_at, id, patient_id, sort_name, sort_name_rev);
DROP INDEX survey_queue_sort_name;
CREATE INDEX survey_queue_sort_name ON survey_queue (sort_name, id, appt_starts_at);
CREATE INDEX survey_queue_sort_name_rev ON survey_queue (sort_name_rev, sort_name, id, appt_starts_at);
DROP INDEX survey_queue_patient_appt;
CREATE INDEX survey_queue_patient_appt ON survey_queue (patient_id, appt_starts_at, id, sort_name, sort_name_rev);
