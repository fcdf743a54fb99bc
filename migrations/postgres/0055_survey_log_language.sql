-- Issue 21: the language a survey was answered in (a code: en, es, zh, km, vi, tl), so its
-- summary PDF is written in it; NULL for runs saved before (the patient's language is used).
ALTER TABLE survey_logs ADD COLUMN language TEXT;
