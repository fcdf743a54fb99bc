//! The one rule for showing a code name to a person (issue 20: no raw enums on screen): a role
//! (ProgramManager), a wire field named as a column (HasStandardSummaryReport, EventDateTime), an
//! audit action (TechpadSettingsSaved) or a type (ForgotPassword) becomes words: split at capital
//! letters (a run of capitals stays one word), a few initialisms written as such, the 'Is' of a
//! yes/no field dropped. A value that already holds spaces or lower-case words is kept.

use crate::settings::techpad::split_at_capitals;

/// Names the portal's screens call otherwise than their words (the patient's Ssn is the MRN
/// here, spec 01 §9 SDate is the study date, IamHere is the "I Am Here" button).
const WHOLE: &[(&str, &str)] = &[
    ("Ssn", "MRN"),
    ("SDate", "Study Date"),
    ("IamHere", "I Am Here"),
];

/// Words written as initialisms.
const WORDS: &[(&str, &str)] = &[
    ("Id", "ID"),
    ("Url", "URL"),
    ("Pdf", "PDF"),
    ("Sso", "SSO"),
    ("Ssn", "MRN"),
    ("Sms", "SMS"),
    ("Ip", "IP"),
];

/// `value` as a person reads it: 'ProgramManager' -> 'Program Manager',
/// 'HasStandardSummaryReport' -> 'Has Standard Summary Report', 'IsSent' -> 'Sent',
/// 'RequestUrl' -> 'Request URL', 'HASSTANDARD' stays whole. Empty stays empty.
pub fn enum_label(value: &str) -> String {
    let value = value.trim();
    if let Some((_, label)) = WHOLE.iter().find(|(code, _)| *code == value) {
        return (*label).to_owned();
    }
    // Bytes rather than `str::contains(char)`, whose non-ASCII path links core's substring search
    // into the wasm file (issue 22); the same answer for an ASCII character.
    if value.bytes().any(|b| b == b' ' || b == b'_') {
        // `replace('_', " ")`, with the join the labels use (no second copy loop in the file).
        return crate::join(value.split('_'), " ");
    }
    let split = split_at_capitals(value);
    let mut words: Vec<&str> = split.split(' ').filter(|w| !w.is_empty()).collect();
    if words.len() > 1 && words[0] == "Is" {
        words.remove(0);
    }
    let labels = words.iter().map(|w| {
        WORDS
            .iter()
            .find(|(code, _)| code == w)
            .map_or(*w, |(_, label)| *label)
    });
    crate::join(labels, " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_names_read_as_words() {
        for (code, label) in [
            ("ProgramManager", "Program Manager"),
            ("ClientAdmin", "Client Admin"),
            ("FrontDesk", "Front Desk"),
            ("Technologist", "Technologist"),
            ("Patient", "Patient"),
            ("HasStandardSummaryReport", "Has Standard Summary Report"),
            ("MissingLibs", "Missing Libs"),
            ("SurveyId", "Survey ID"),
            ("EventDateTime", "Event Date Time"),
            ("RequestUrl", "Request URL"),
            ("IsSent", "Sent"),
            ("StatusWithDescription", "Status With Description"),
            ("TechpadSettingsSaved", "Techpad Settings Saved"),
            ("SsoSignIn", "SSO Sign In"),
            ("Ssn", "MRN"),
            ("SDate", "Study Date"),
            ("ExamWaiting", "Exam Waiting"),
            ("ShowRISHold", "Show RIS Hold"),
            ("Ready for Exam", "Ready for Exam"),
            ("LOGIN_FAILED", "LOGIN FAILED"),
            ("_Log__in_", " Log  in "),
            ("é_ü", "é ü"),
            ("", ""),
            ("Is", "Is"),
        ] {
            assert_eq!(enum_label(code), label, "{code}");
        }
    }
}
