-- Patient Logs with a date range (issue 15): the patient's rows between two dates are counted and
-- paged from this index instead of fetching each of the patient's rows from the table.
CREATE INDEX audit_log_patient_created ON audit_log (patient_id, created_at);
