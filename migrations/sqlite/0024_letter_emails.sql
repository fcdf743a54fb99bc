-- Issue 16: the email a letter is owed (the notifications engine sends it once the results hold
-- and the Emails/Letters Delay allow). Letters imported for the patient set email_due; letters
-- already stored, and stored documents such as survey summaries, owe none.
ALTER TABLE letters ADD COLUMN email_due BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE letters ADD COLUMN emailed_at BIGINT;
CREATE INDEX letters_email_owed ON letters (sent_at) WHERE email_due = TRUE AND emailed_at IS NULL;
