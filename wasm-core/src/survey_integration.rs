//! What the survey integrations send (spec 04 §2 "Survey integrations", issue 17): the Maglink
//! interface queue messages (HL7 v2 ORU^R01 with the answers as OBX segments, or JSON), the
//! webhook body's values by data key, and the canonical form a webhook's HMAC-SHA256 signature
//! covers. Pure text rules: the API gathers the facts, writes the files and sends the requests.

/// Maglink message types (InterfaceQueueMessageType...).
pub const MESSAGE_TYPE_HL7: &str = "HL7 ORU^R01";
pub const MESSAGE_TYPE_JSON: &str = "JSON";
pub const MAGLINK_MESSAGE_TYPES: &[&str] = &[MESSAGE_TYPE_HL7, MESSAGE_TYPE_JSON];

/// The survey events the integrations follow.
pub const EVENT_SURVEY_START: &str = "SurveyStart";
pub const EVENT_SURVEY_SUBMIT: &str = "SurveySubmit";

/// WebHookAuthorizationTypes.
pub const AUTH_NONE: &str = "None";
pub const AUTH_BASIC: &str = "Basic";
pub const AUTH_BEARER: &str = "Bearer";
pub const AUTH_API_KEY: &str = "ApiKeyHeader";
pub const AUTH_HMAC: &str = "HmacSha256";
pub const AUTHORIZATION_TYPES: &[&str] =
    &[AUTH_NONE, AUTH_BASIC, AUTH_BEARER, AUTH_API_KEY, AUTH_HMAC];

/// WebHookDataKeys: what a body parameter may carry.
pub const DATA_KEYS: &[&str] = &[
    "Event",
    "SurveyId",
    "SurveyName",
    "SurveyQueueId",
    "SurveyLogId",
    "PatientMrn",
    "PatientFirstName",
    "PatientLastName",
    "PatientDob",
    "OccurredAt",
    "Answers",
];

/// Headers every delivery carries.
pub const IDEMPOTENCY_HEADER: &str = "Idempotency-Key";
pub const TIMESTAMP_HEADER: &str = "X-Portal-Timestamp";
pub const SIGNATURE_HEADER: &str = "X-Portal-Signature";
/// The API key header name when the webhook names none.
pub const DEFAULT_API_KEY_HEADER: &str = "X-Api-Key";

/// One answered question: its id, its text (English) and the answer as text.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct AnsweredQuestion {
    pub id: String,
    pub text: String,
    pub value: String,
}

/// The facts of one survey event (also the JSON queue message, with MessageType added).
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct SurveyEventFacts {
    pub event: String,
    pub survey_queue_id: i64,
    pub survey_log_id: i64,
    pub survey_id: String,
    pub survey_name: String,
    pub mrn: String,
    pub first_name: String,
    pub last_name: String,
    /// YYYY-MM-DD, or empty.
    pub dob: String,
    /// UTC, YYYYMMDDHHMMSS.
    pub occurred_at: String,
    pub answers: Vec<AnsweredQuestion>,
}

/// The answered questions of a survey in the order shown, in English, each answer as the
/// summary report reads it (option texts, dates as MM/DD/YYYY; a table's rows joined with "; ",
/// its cells with ", "); questions left empty are left out.
pub fn answered_questions(
    survey: &crate::model::SurveyDefinition,
    answers: &crate::model::Answers,
) -> Vec<AnsweredQuestion> {
    use crate::survey::summary::{summary, SummaryAnswer};
    summary(survey, answers, "en", &|_| true)
        .into_iter()
        .flat_map(|s| s.items)
        .filter_map(|item| {
            let value = match item.answer {
                SummaryAnswer::Text(t) => t,
                SummaryAnswer::Table { rows, .. } => rows
                    .iter()
                    .map(|r| r.join(", "))
                    .collect::<Vec<_>>()
                    .join("; "),
                SummaryAnswer::NotAnswered => return None,
            };
            Some(AnsweredQuestion {
                id: item.question_id,
                text: item.question,
                value,
            })
        })
        .collect()
}

/// A body parameter's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DataValue {
    Text(String),
    Number(i64),
    Answers(Vec<AnsweredQuestion>),
}

/// The value a data key names (None for a key not in [`DATA_KEYS`]).
pub fn data_value(f: &SurveyEventFacts, key: &str) -> Option<DataValue> {
    use DataValue::*;
    Some(match key {
        "Event" => Text(f.event.clone()),
        "SurveyId" => Text(f.survey_id.clone()),
        "SurveyName" => Text(f.survey_name.clone()),
        "SurveyQueueId" => Number(f.survey_queue_id),
        "SurveyLogId" => Number(f.survey_log_id),
        "PatientMrn" => Text(f.mrn.clone()),
        "PatientFirstName" => Text(f.first_name.clone()),
        "PatientLastName" => Text(f.last_name.clone()),
        "PatientDob" => Text(f.dob.clone()),
        "OccurredAt" => Text(f.occurred_at.clone()),
        "Answers" => Answers(f.answers.clone()),
        _ => return None,
    })
}

/// HL7 v2 escaping of a field's text (field |, component ^, repetition ~, escape \,
/// subcomponent &); line breaks become the `\.br\` escape so a segment stays one line.
pub fn hl7_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\E\\"),
            '|' => out.push_str("\\F\\"),
            '^' => out.push_str("\\S\\"),
            '~' => out.push_str("\\R\\"),
            '&' => out.push_str("\\T\\"),
            '\r' => {}
            '\n' => out.push_str("\\.br\\"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// An HL7 v2.5 ORU^R01 message: MSH, PID, OBR (the survey), one OBX per answer (value type ST,
/// observation id `question id^question text^PORTAL`), segments ended by CR.
pub fn hl7_oru_r01(f: &SurveyEventFacts, control_id: &str) -> String {
    let e = hl7_escape;
    let dob = f.dob.replace('-', "");
    let mut m = String::new();
    m.push_str(&format!(
        "MSH|^~\\&|PORTAL|PORTAL|MAGLINK|MAGVIEW|{}||ORU^R01^ORU_R01|{}|P|2.5\r",
        e(&f.occurred_at),
        e(control_id)
    ));
    m.push_str(&format!(
        "PID|1||{}^^^PORTAL^MR||{}^{}||{}\r",
        e(&f.mrn),
        e(&f.last_name),
        e(&f.first_name),
        e(&dob)
    ));
    m.push_str(&format!(
        "OBR|1|{}|{}|{}^{}^PORTAL|||{}||||||||||||||||||F\r",
        f.survey_queue_id,
        f.survey_log_id,
        e(&f.survey_id),
        e(&f.survey_name),
        e(&f.occurred_at)
    ));
    for (i, a) in f.answers.iter().enumerate() {
        m.push_str(&format!(
            "OBX|{}|ST|{}^{}^PORTAL||{}||||||F\r",
            i + 1,
            e(&a.id),
            e(&a.text),
            e(&a.value)
        ));
    }
    m
}

/// The file name of a queue message: event, idempotency key (made file-safe) and the type's
/// extension. One key, one name: a replayed event overwrites nothing new.
pub fn queue_file_name(event: &str, key: &str, message_type: &str) -> String {
    let safe: String = key
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let ext = if message_type == MESSAGE_TYPE_JSON {
        "json"
    } else {
        "hl7"
    };
    format!("{event}_{safe}.{ext}")
}

/// What an HMAC-SHA256 webhook signature covers: the timestamp header's value, a dot, and the
/// exact body bytes (as Stripe and GitHub-style receivers check it).
pub fn signature_base(timestamp: &str, body: &str) -> String {
    format!("{timestamp}.{body}")
}

/// The signature header's value for a hex digest.
pub fn signature_header_value(hex_digest: &str) -> String {
    format!("sha256={hex_digest}")
}

/// Delay before retry number `attempts + 1` of a delivery: 2 s doubling, at most 10 minutes.
pub fn retry_delay_ms(attempts: i64) -> i64 {
    let shift = u32::try_from((attempts - 1).clamp(0, 20)).unwrap_or(20);
    2_000_i64.saturating_mul(1_i64 << shift).min(600_000)
}

/// Attempts before a delivery is given up (it stays listed as Failed, with every attempt).
pub const MAX_DELIVERY_ATTEMPTS: i64 = 12;

#[cfg(test)]
mod tests {
    use super::*;

    fn facts() -> SurveyEventFacts {
        SurveyEventFacts {
            event: EVENT_SURVEY_SUBMIT.into(),
            survey_queue_id: 7,
            survey_log_id: 9,
            survey_id: "BREAST".into(),
            survey_name: "Breast history".into(),
            mrn: "MRN1".into(),
            first_name: "Jane".into(),
            last_name: "Doe".into(),
            dob: "1970-01-02".into(),
            occurred_at: "20261126190000".into(),
            answers: vec![
                AnsweredQuestion {
                    id: "q1".into(),
                    text: "Pain?".into(),
                    value: "Yes|left^right".into(),
                },
                AnsweredQuestion {
                    id: "q2".into(),
                    text: "Notes".into(),
                    value: "line1\nline2".into(),
                },
            ],
        }
    }

    #[test]
    fn oru_r01_has_one_obx_per_answer_escaped() {
        let m = hl7_oru_r01(&facts(), "abc");
        let segs: Vec<&str> = m.split('\r').filter(|s| !s.is_empty()).collect();
        assert_eq!(segs.len(), 5);
        assert!(segs[0].starts_with("MSH|^~\\&|PORTAL|"));
        assert!(segs[0].contains("|ORU^R01^ORU_R01|abc|P|2.5"));
        assert_eq!(segs[1], "PID|1||MRN1^^^PORTAL^MR||Doe^Jane||19700102");
        assert_eq!(
            segs[3],
            "OBX|1|ST|q1^Pain?^PORTAL||Yes\\F\\left\\S\\right||||||F"
        );
        assert_eq!(
            segs[4],
            "OBX|2|ST|q2^Notes^PORTAL||line1\\.br\\line2||||||F"
        );
    }

    #[test]
    fn file_names_follow_the_key_and_type() {
        assert_eq!(
            queue_file_name("SurveySubmit", "s:7/x", MESSAGE_TYPE_JSON),
            "SurveySubmit_s_7_x.json"
        );
        assert_eq!(
            queue_file_name("SurveyStart", "k", MESSAGE_TYPE_HL7),
            "SurveyStart_k.hl7"
        );
    }

    #[test]
    fn data_keys_all_have_values_and_signature_form_is_stable() {
        for key in DATA_KEYS {
            assert!(data_value(&facts(), key).is_some(), "{key}");
        }
        assert_eq!(data_value(&facts(), "Nope"), None);
        assert_eq!(signature_base("17", "{}"), "17.{}");
        assert_eq!(signature_header_value("ab"), "sha256=ab");
        assert_eq!(retry_delay_ms(1), 2_000);
        assert_eq!(retry_delay_ms(3), 8_000);
        assert_eq!(retry_delay_ms(30), 600_000);
    }
}
