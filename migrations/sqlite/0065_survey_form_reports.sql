-- Issue 17: the summary *form* report (spec 04 GenerateSummaryFormReport, SummaryFormPdfTopMargin,
-- SummaryFormPdfBottomMargin): the survey as a filled-in form, every question of every page with
-- its answer (choices as ticked boxes), made on submit beside the summary report. One per
-- survey-queue row (a re-submission after Modify replaces it); file_name follows
-- 'SummaryForm_<SSN>_<DATE>_<GUID>'.
CREATE TABLE survey_form_reports (
    survey_queue_id BIGINT PRIMARY KEY REFERENCES survey_queue (id),
    patient_id BIGINT NOT NULL REFERENCES patients (id),
    file_name TEXT NOT NULL,
    pdf BLOB NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX survey_form_reports_patient ON survey_form_reports (patient_id);
