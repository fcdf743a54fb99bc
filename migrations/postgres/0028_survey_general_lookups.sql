-- Spec 04 §3, §7 (survey general settings): the procedures a study may be (GetAllProcedures:
-- Code, Description, AskSide), for the standalone default procedure; and patients' alternate
-- identifiers by column (CheckForAvailableAlternateIdentifierColumns, LocationToMrnColumnMapping),
-- which the staff patient search reads when SearchForPatientUsingAlternateUserIdentifier is on.
-- Same text for both engines: keep in step with ../sqlite/0028_survey_general_lookups.sql.
CREATE TABLE procedures (
    code TEXT PRIMARY KEY,
    description TEXT NOT NULL,
    ask_side BOOLEAN NOT NULL DEFAULT FALSE
);

CREATE TABLE patient_identifiers (
    patient_id BIGINT NOT NULL REFERENCES patients (id),
    column_name TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (patient_id, column_name)
);
CREATE INDEX patient_identifiers_value ON patient_identifiers (column_name, value);
