-- Notification Templates (spec 03 §2 email-service, §3, §5, §7): the imaging-system email
-- templates and the portal's own notice templates the notifications engine renders.

-- Portal templates (spec 03 §3): Name is unique and fixed once saved; Type names the notice.
CREATE TABLE notification_templates (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE,
    is_active BOOLEAN NOT NULL DEFAULT TRUE,
    is_send_during_business_hours BOOLEAN NOT NULL DEFAULT FALSE,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    kind TEXT NOT NULL,
    revision BIGINT NOT NULL DEFAULT 1
);
CREATE INDEX notification_templates_kind ON notification_templates (kind, is_active);

-- Imaging-system email templates (spec 03 §3): one per letter type; location 0 serves every
-- location that has none of its own. Id and Location are read-only; a save names its revision.
CREATE TABLE email_letters (
    id BIGINT NOT NULL,
    location_id BIGINT NOT NULL DEFAULT 0,
    letter_type TEXT NOT NULL,
    subject TEXT NOT NULL,
    comments TEXT NOT NULL DEFAULT '',
    content TEXT NOT NULL,
    revision BIGINT NOT NULL DEFAULT 1,
    PRIMARY KEY (id, location_id)
);

INSERT INTO email_letters (id, location_id, letter_type, subject, comments, content) VALUES
(1, 0, 'Unknown', 'A message from {ClientName}', '', '<p>Dear {PatientName},</p><p>there is a new message for you in the patient portal: <a href="{PortalLink}">{PortalLink}</a></p>'),
(2, 0, 'ReferringPhysician', 'A new report from {ClientName}', 'Letters to referring physicians', '<p>Dear Doctor,</p><p>a new report for your patient {PatientName} (MRN {MRN}) is available in the portal: <a href="{LoginLink}">{LoginLink}</a></p>'),
(3, 0, 'Notification', 'Your results are available', 'Result notification letters', '<p>Dear {PatientName},</p><p>a new document is available in your patient portal: <a href="{LoginLink}">{LoginLink}</a></p>'),
(4, 0, 'Recall', 'Time for your next exam', 'Recall letters', '<p>Dear {PatientName},</p><p>our records show that you are due for your next exam. Please call {ClientName} to schedule it.</p>'),
(5, 0, 'Reminder', 'Appointment reminder', 'Appointment reminders', '<p>Dear {PatientName},</p><p>this is a reminder of your appointment on {AppointmentDate} at {Location}.</p>'),
(6, 0, 'ForgotPassword', 'Change password request', 'Sent when a user asks to change a forgotten password', '<p>Hello {PatientFirstName},</p><p>we received a request to change the password of your {ClientName} portal account ({Username}).</p><p>Open this link to choose a new password:</p><p><a href="{ResetLink}">{ResetLink}</a></p><p>{LinkExpiry}</p><p>The link works once. If you did not ask for this, ignore this email: your password stays as it is.</p>'),
(7, 0, 'NewAccount', 'Create your patient portal account', 'Invitation to create a portal account', '<p>Dear {PatientName},</p><p>you are invited to create your patient portal account:</p><p><a href="{RegistrationLink}">{RegistrationLink}</a></p><p>{LinkExpiry}</p>'),
(8, 0, 'ForgotAccount', 'Your portal username', 'Sent when a user asks for a forgotten username', '<p>Hello {PatientFirstName},</p><p>your portal username is: {Username}</p><p>Sign in at <a href="{LoginLink}">{LoginLink}</a></p><p>If you did not ask for this, you can ignore this email.</p>'),
(9, 0, 'AccountInfo', 'Your patient portal account', 'Account information', '<p>Dear {PatientName},</p><p>your portal username is {Username}. Sign in at <a href="{LoginLink}">{LoginLink}</a></p>'),
(10, 0, 'History', 'Your medical history', 'Medical history letters', '<p>Dear {PatientName},</p><p>please review your medical history before your appointment on {AppointmentDate}.</p>'),
(11, 0, 'EHRMessage', 'A message about your health record', 'EHR messages', '<p>Dear {PatientName},</p><p>there is a new message about your health record in the portal: <a href="{LoginLink}">{LoginLink}</a></p>');

INSERT INTO notification_templates (name, is_active, is_send_during_business_hours, subject, body, kind) VALUES
('Survey assignment', TRUE, TRUE, 'Your medical history survey', '<p>Dear {PatientName},</p><p>please fill in your medical history survey before your appointment on {AppointmentDate}:</p><p><a href="{SurveyLink}">{SurveyLink}</a></p><p>To stop these messages: <a href="{UnsubscribeLink}">{UnsubscribeLink}</a></p>', 'SurveyAssignment'),
('Survey reminder', TRUE, TRUE, 'Reminder: your medical history survey', '<p>Dear {PatientName},</p><p>this is a reminder to fill in your survey before your appointment on {AppointmentDate}:</p><p><a href="{SurveyLink}">{SurveyLink}</a></p><p>To stop these messages: <a href="{UnsubscribeLink}">{UnsubscribeLink}</a></p>', 'SurveyReminder'),
('I am here link', TRUE, FALSE, 'Let us know when you are here', '<p>Dear {PatientName},</p><p>when you arrive for your appointment on {AppointmentDate}, tap <a href="{IamHereLink}">{IamHereLink}</a> to tell the front desk you are here.</p><p>To stop these messages: <a href="{UnsubscribeLink}">{UnsubscribeLink}</a></p>', 'IamHere'),
('Ready for exam', TRUE, FALSE, 'Ready for your exam', '<p>Dear {PatientName}, we are ready for your exam. Please come to the front desk.</p>', 'ReadyForExam');
