-- Issue 5 part 7: survey summary reports (spec 04 GenerateSummaryReport). A summary is a letter of
-- type 'Survey Summary' with its PDF stored, so the patient finds it among her documents and opens
-- it by the same access token as any letter. One per survey-queue row (a re-submission after
-- Modify replaces it); file_name follows 'Summary_<SSN>_<DATE>_<GUID>'.
ALTER TABLE letters ADD COLUMN survey_queue_id BIGINT REFERENCES survey_queue (id);
ALTER TABLE letters ADD COLUMN file_name TEXT;
CREATE UNIQUE INDEX letters_survey_queue ON letters (survey_queue_id);
