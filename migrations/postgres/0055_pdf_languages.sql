-- Issue 21: the language a survey was answered in (a code: en, es, zh, km, vi, tl), so its
-- summary PDF is written in it; NULL for runs saved before (the patient's language is used).
ALTER TABLE survey_logs ADD COLUMN language TEXT;

-- Issue 21: a letter's text in other languages, as a JSON object from language code to text
-- ({"es": "...", "km": "..."}); the letter is drawn in the patient's language when it has a
-- non-empty text for it, else in `body` (English). NULL: English only.
ALTER TABLE letters ADD COLUMN body_translations TEXT;
