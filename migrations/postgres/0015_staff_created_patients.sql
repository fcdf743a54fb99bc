-- Patients created by staff on the kiosk (staff start, spec 01 §2.5). Postgres flavour: keep in step
-- with ../sqlite/0015_staff_created_patients.sql.
--
-- location_id: the location the staff member created the patient at. A staff member whose admin
-- PIN covers only some locations (LocNums) finds a patient with an appointment at one of them or
-- created at one of them, so a new patient can be found before it has a study. NULL for
-- patients from anywhere else (clinical system, self-registration).
ALTER TABLE patients ADD COLUMN location_id BIGINT REFERENCES locations (id);
CREATE INDEX patients_location ON patients (location_id);
