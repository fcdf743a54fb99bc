//! The wasm-core messages patients read that carry a number or a name ("Pin number is wrong. You
//! have 2 attempts left", "Begin Health History"), translated like the constant ones
//! (labels::PATIENT_MESSAGES). Each is built from one English template with `{name}` placeholders
//! (declared beside the rule that sends it, which fills it with `fill`), and its `Msg_` label's six
//! texts carry the same placeholders. The wire stays English: the browser and the server recognise
//! the English message, find the label (`message_key`) and put the message's values into that
//! label's text in the patient's language (`message_text`).
//!
//! Placeholders: `{n}` stands for a whole number (digits only), any other name for a non-empty
//! text on one line (a survey's name, a bound such as "1.5" or "2026-01-31"). Values are never
//! translated: numbers stay digits, names stay as the clinic wrote them.

/// (label key, English template) of every parameterised patient message. Append-only; keys
/// `Msg_{Area}_{What}`, shipped in wasm-core/labels (a test checks the English is the template).
pub const MESSAGE_TEMPLATES: &[(&str, &str)] = &[
    ("Msg_Kiosk_PinWrong", crate::survey::start::PIN_WRONG),
    ("Msg_Home_BeginSurvey", crate::medical_history::BEGIN_NAMED),
    (
        "Msg_Home_ResumeSurvey",
        crate::medical_history::RESUME_NAMED,
    ),
    (
        "Msg_Home_UnreadLetters",
        crate::medical_history::UNREAD_LETTERS,
    ),
    ("Msg_Password_Length", crate::password::LENGTH_MANY),
    ("Msg_Password_Number", crate::password::NUMBER_MANY),
    ("Msg_Password_Uppercase", crate::password::UPPERCASE_MANY),
    ("Msg_Password_Symbol", crate::password::SYMBOL_MANY),
    (
        "Msg_Membership_UsernameMin",
        crate::membership::USERNAME_MIN,
    ),
    (
        "Msg_Membership_UsernameMax",
        crate::membership::USERNAME_MAX,
    ),
    ("Msg_Survey_Between", crate::survey::MSG_BETWEEN),
    ("Msg_Survey_AtLeast", crate::survey::MSG_AT_LEAST),
    ("Msg_Survey_AtMost", crate::survey::MSG_AT_MOST),
    ("Msg_Survey_Decimals", crate::survey::MSG_DECIMALS),
    ("Msg_Survey_MaxLength", crate::survey::MSG_MAX_LENGTH),
    ("Msg_Survey_MinRows", crate::survey::MSG_MIN_ROWS),
    ("Msg_Survey_MaxRows", crate::survey::MSG_MAX_ROWS),
    (
        "Msg_Survey_LockedOutMinutes",
        crate::survey::link::LOCKED_OUT_MINUTES,
    ),
    ("Msg_Http_Status", crate::http_error::STATUS_MESSAGE),
    ("Msg_Documents_OnDate", crate::documents::ON_DATE),
    (
        "Msg_Recovery_CodeInvalidLeft",
        crate::recovery::CODE_INVALID_LEFT,
    ),
    ("Msg_Login_LockedOut", crate::login::LOCKED_OUT),
    (
        "Msg_Documents_TitlePatientId",
        crate::documents::TITLE_PATIENT_ID,
    ),
    (
        "Msg_Documents_TitleStudyDate",
        crate::documents::TITLE_STUDY_DATE,
    ),
];

/// `template` with each `{name}` replaced by its value in `values`; a placeholder without a
/// value stays as written.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    for part in parse(template) {
        match part {
            Part::Text(text) => out.push_str(text),
            Part::Slot(name) => match values.iter().find(|(n, _)| *n == name) {
                Some((_, value)) => out.push_str(value),
                None => {
                    out.push('{');
                    out.push_str(name);
                    out.push('}');
                }
            },
        }
    }
    out
}

enum Part<'a> {
    Text(&'a str),
    Slot(&'a str),
}

/// A template's literal texts and placeholders, in order. `{` not followed by a name and `}`
/// is text.
fn parse(template: &str) -> Vec<Part<'_>> {
    let mut parts = Vec::new();
    let rest = template;
    let mut text_start = 0;
    let mut at = 0;
    // Every offset below is at an ASCII character ({, } or a name's), so `get` always finds a
    // character boundary; it is used instead of indexing only because it cannot panic.
    let cut = |from: usize, to: usize| rest.get(from..to).unwrap_or_default();
    while let Some(open) = rest.get(at..).and_then(|r| r.find('{')).map(|i| at + i) {
        let after = cut(open + 1, rest.len());
        let name_len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        let close = open + 1 + name_len;
        if name_len > 0 && rest.as_bytes().get(close) == Some(&b'}') {
            if open > text_start {
                parts.push(Part::Text(cut(text_start, open)));
            }
            parts.push(Part::Slot(cut(open + 1, close)));
            text_start = close + 1;
            at = close + 1;
        } else {
            at = open + 1;
        }
    }
    if text_start < rest.len() {
        parts.push(Part::Text(cut(text_start, rest.len())));
    }
    parts
}

/// Whether `value` may stand for placeholder `name` (see the module comment).
fn fits(name: &str, value: &str) -> bool {
    if name == "n" {
        !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit())
    } else {
        !value.is_empty() && !value.contains(['\n', '\r'])
    }
}

/// The placeholder values that make `template` read `message`, or None. Earlier placeholders
/// take the shortest value that lets the rest match.
fn match_template<'t, 'a>(parts: &[Part<'t>], message: &'a str) -> Option<Vec<(&'t str, &'a str)>> {
    match parts.split_first() {
        None => message.is_empty().then(Vec::new),
        Some((Part::Text(text), rest)) => match_template(rest, message.strip_prefix(text)?),
        Some((Part::Slot(name), rest)) => {
            let ends = message
                .char_indices()
                .skip(1)
                .map(|(i, _)| i)
                .chain([message.len()]);
            for end in ends {
                let Some((value, after)) = message.split_at_checked(end) else {
                    continue;
                };
                if !fits(name, value) {
                    if *name == "n" {
                        return None;
                    }
                    continue;
                }
                if let Some(mut values) = match_template(rest, after) {
                    values.insert(0, (*name, value));
                    return Some(values);
                }
            }
            None
        }
    }
}

/// A patient message read back into its label and values.
#[derive(Debug, Clone, PartialEq)]
pub struct MessageParts<'a> {
    /// The `Msg_` label that translates it.
    pub key: &'static str,
    /// (placeholder name, the value the English message carries), in the template's order;
    /// none for a constant message.
    pub params: Vec<(&'static str, &'a str)>,
}

/// The label and values of a wasm-core message: a constant one (labels::PATIENT_MESSAGES) or
/// one built from a template (MESSAGE_TEMPLATES); None for any other text.
pub fn message_parts(english: &str) -> Option<MessageParts<'_>> {
    match crate::labels::message_key(english) {
        Some(key) => Some(MessageParts {
            key,
            params: Vec::new(),
        }),
        None => template_parts(english),
    }
}

/// The label and values of a message built from a template (MESSAGE_TEMPLATES) only: what the
/// browser asks wasm-core for (it finds the constant messages by their shipped English, so the
/// wasm file need not carry the PATIENT_MESSAGES table).
pub fn template_parts(english: &str) -> Option<MessageParts<'_>> {
    MESSAGE_TEMPLATES.iter().find_map(|(key, template)| {
        Some(MessageParts {
            key,
            params: match_template(&parse(template), english)?,
        })
    })
}

/// The label key that translates `english` (constant or template message).
pub fn message_key(english: &str) -> Option<&'static str> {
    message_parts(english).map(|p| p.key)
}

/// `translated` (the text of `english`'s label in some language) with the values `english`
/// carries in its placeholders; `translated` as it is when `english` is no template message.
pub fn message_text(english: &str, translated: &str) -> String {
    match template_parts(english) {
        Some(parts) => fill(translated, &parts.params),
        None => translated.to_owned(),
    }
}

/// `english` in a language, given the label texts in that language (`text_of(key)`): what the
/// server does with labels_catalog, and the case tables with the shipped files.
pub fn message_in(english: &str, text_of: impl Fn(&str) -> String) -> String {
    match message_key(english) {
        Some(key) => message_text(english, &text_of(key)),
        None => english.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(english: &str) -> Option<(&'static str, Vec<(&'static str, &str)>)> {
        message_parts(english).map(|p| (p.key, p.params))
    }

    fn pair<'a>(n: &'static str, v: &'a str) -> (&'static str, &'a str) {
        (n, v)
    }

    #[test]
    fn fill_replaces_known_placeholders_only() {
        assert_eq!(fill("You have {n} left", &[("n", "2")]), "You have 2 left");
        assert_eq!(fill("{a} and {b}", &[("a", "1")]), "1 and {b}");
        assert_eq!(fill("a { b } {} {x", &[("x", "1")]), "a { b } {} {x");
    }

    /// Templates and values with non-ASCII text beside the placeholders and braces at the edges
    /// (`parse` and `match_template` cut strings at computed offsets).
    #[test]
    fn non_ascii_text_and_braces_at_the_edges() {
        let v = [("n", "7"), ("é", "x")];
        assert_eq!(fill("ä{n}ö", &v), "ä7ö");
        assert_eq!(fill("{n}", &v), "7");
        assert_eq!(fill("{é}{n}", &v), "{é}7");
        assert_eq!(fill("{{n}}", &v), "{7}");
        assert_eq!(fill("}{n}{", &v), "}7{");
        assert_eq!(fill("{n", &v), "{n");
        assert_eq!(fill("{", &v), "{");
        assert_eq!(fill("", &v), "");
        assert_eq!(fill("日本{n}語{n}", &v), "日本7語7");
        let got = values("Begin Ünïcødé 調査 Survey").unwrap();
        assert_eq!(got.0, "Msg_Home_BeginSurvey");
        assert_eq!(got.1, vec![pair("survey", "Ünïcødé 調査 Survey")]);
        assert_eq!(
            message_text("Begin Ünïcødé", "Comenzar «{survey}»"),
            "Comenzar «Ünïcødé»"
        );
    }

    #[test]
    fn a_numbered_message_gives_its_key_and_number() {
        let got = values("Pin number is wrong. You have 2 attempts left").unwrap();
        assert_eq!(got.0, "Msg_Kiosk_PinWrong");
        assert_eq!(got.1, vec![pair("n", "2")]);
        assert_eq!(
            values("You have 12 unread letters").unwrap().1,
            vec![pair("n", "12")]
        );
    }

    #[test]
    fn n_takes_digits_only_and_names_take_any_text() {
        assert!(values("Pin number is wrong. You have two attempts left").is_none());
        assert!(values("Pin number is wrong. You have -1 attempts left").is_none());
        assert!(values("Pin number is wrong. You have  attempts left").is_none());
        let got = values("Begin Health History {and more}").unwrap();
        assert_eq!(got.0, "Msg_Home_BeginSurvey");
        assert_eq!(got.1, vec![pair("survey", "Health History {and more}")]);
        assert!(values("Begin ").is_none());
        let got = values("Please enter a value between -1.5 and 2026-01-31").unwrap();
        assert_eq!(got.1, vec![pair("min", "-1.5"), pair("max", "2026-01-31")]);
    }

    #[test]
    fn a_constant_message_wins_over_a_template() {
        let got = values("Begin Survey").unwrap();
        assert_eq!(got.0, "Msg_MedicalHistory_BeginSurvey");
        assert!(got.1.is_empty());
    }

    #[test]
    fn the_translated_text_gets_the_english_values() {
        assert_eq!(
            message_text("You have 3 unread letters", "Tiene {n} cartas sin leer"),
            "Tiene 3 cartas sin leer"
        );
        assert_eq!(message_text("Hello", "Hola"), "Hola");
        assert_eq!(
            message_in("Resume Knee Survey", |key| format!("{key}: {{survey}}")),
            "Msg_Home_ResumeSurvey: Knee Survey"
        );
    }

    #[test]
    fn every_template_reads_back_what_fill_writes() {
        for (key, template) in MESSAGE_TEMPLATES {
            let names: Vec<&str> = parse(template)
                .into_iter()
                .filter_map(|p| match p {
                    Part::Slot(name) => Some(name),
                    Part::Text(_) => None,
                })
                .collect();
            assert!(!names.is_empty(), "{key} has no placeholder");
            let vals: Vec<(&str, &str)> = names.iter().map(|n| (*n, "37")).collect();
            let english = fill(template, &vals);
            assert_eq!(message_key(&english), Some(*key), "{english}");
        }
    }
}
