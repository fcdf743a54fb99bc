-- Notification Templates per language (issue 21): the clinic's Subject and Body of a template in
-- a language other than English. A notice is rendered from the patient's language here, else the
-- shipped translation (api/notice_translations/), else the English template itself.
-- template_type 'Portal' (notification_templates.id, location 0) or 'EmailLetter'
-- (email_letters.id and location_id).
CREATE TABLE notice_template_languages (
    template_type TEXT NOT NULL,
    template_id BIGINT NOT NULL,
    location_id BIGINT NOT NULL DEFAULT 0,
    language TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    revision BIGINT NOT NULL DEFAULT 1,
    PRIMARY KEY (template_type, template_id, location_id, language)
);
