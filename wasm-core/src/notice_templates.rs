//! Notification templates (spec 03 §2, §3, §5): the tokens a template may use (the help modal's
//! groups), the check a template passes before it is saved, and the one rendering rule the
//! notifications engine and the browser's preview share: `{Token}` replaced by its value,
//! HTML-escaped in an email's HTML part, plain in its text part and in an SMS.

use crate::model::{EmailLetter, PortalTemplate, TemplateTranslation, TokenGroup, TokenHelp};
use crate::validation::{is_blank, ValidationErrors};

/// Imaging-system letter types (spec 03 §3), in the clinical system's order.
pub const LETTER_TYPES: &[&str] = &[
    "Unknown",
    "ReferringPhysician",
    "Notification",
    "Recall",
    "Reminder",
    "ForgotPassword",
    "NewAccount",
    "ForgotAccount",
    "AccountInfo",
    "History",
    "EHRMessage",
];

/// Portal template types: the notices the portal's notifications engine sends itself (History
/// Portal survey notices, I Am Here, Ready for exam). The `Type` of their Email Logs lines.
pub const PORTAL_TYPES: &[&str] = &[
    "SurveyAssignment",
    "SurveyReminder",
    "IamHere",
    "ReadyForExam",
];

/// The help modal: (group, [(token, description)]).
pub const TOKEN_GROUPS: &[(&str, &[(&str, &str)])] = &[
    (
        "General",
        &[
            (
                "ClientName",
                "The portal's client name (Core Settings > Portal)",
            ),
            ("PortalLink", "The portal's public web address"),
            ("CurrentDate", "Today's date (MM/DD/YYYY)"),
        ],
    ),
    (
        "Patient",
        &[
            ("PatientName", "The patient's first and last name"),
            ("PatientFirstName", "The patient's first name"),
            ("PatientLastName", "The patient's last name"),
            ("MRN", "The patient's medical record number"),
            ("Username", "The account's username"),
        ],
    ),
    (
        "Study",
        &[
            ("AppointmentDate", "Date and time of the appointment"),
            ("Location", "The appointment's location"),
        ],
    ),
    (
        "History Portal",
        &[
            (
                "SurveyLink",
                "Link that opens the patient's medical history survey",
            ),
            (
                "IamHereLink",
                "Link the patient taps on arrival (I am here)",
            ),
        ],
    ),
    (
        "Email Service",
        &[
            ("ResetLink", "Link to choose a new password"),
            (
                "RegistrationLink",
                "Link to create a patient portal account",
            ),
            ("LoginLink", "The portal's sign-in page"),
            ("LinkExpiry", "How long the link in this message works"),
            (
                "UnsubscribeLink",
                "Link to unsubscribe from email and text (SMS) notifications",
            ),
        ],
    ),
];

/// Whether `name` is a token of the help modal.
pub fn is_known_token(name: &str) -> bool {
    TOKEN_GROUPS
        .iter()
        .any(|(_, tokens)| tokens.iter().any(|(t, _)| *t == name))
}

/// The help modal's groups as wire values.
pub fn token_groups() -> Vec<TokenGroup> {
    TOKEN_GROUPS
        .iter()
        .map(|(name, tokens)| TokenGroup {
            name: (*name).to_owned(),
            tokens: tokens
                .iter()
                .map(|(t, d)| TokenHelp {
                    token: (*t).to_owned(),
                    description: (*d).to_owned(),
                })
                .collect(),
        })
        .collect()
}

/// The `{Name}` placeholders of `text` (Name: a letter, then letters and digits), in order, with
/// the byte range each covers.
fn placeholders(text: &str) -> Vec<(usize, usize, &str)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'{' {
            let start = i + 1;
            let mut j = start;
            while j < bytes.len() && bytes[j].is_ascii_alphanumeric() {
                j += 1;
            }
            if j > start
                && j < bytes.len()
                && bytes[j] == b'}'
                && bytes[start].is_ascii_alphabetic()
            {
                out.push((i, j + 1, &text[start..j]));
                i = j + 1;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// The placeholders of `text` that are not tokens, each once, in order of appearance.
pub fn unknown_tokens(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (_, _, name) in placeholders(text) {
        if !is_known_token(name) && !out.iter().any(|o| o == name) {
            out.push(name.to_owned());
        }
    }
    out
}

/// The message for a template that names tokens the portal does not know.
pub fn unknown_token_message(names: &[String]) -> String {
    let list: Vec<String> = names.iter().map(|n| format!("{{{n}}}")).collect();
    if list.len() == 1 {
        format!("Unknown token {}", list[0])
    } else {
        format!("Unknown tokens {}", list.join(", "))
    }
}

fn check_tokens(errors: &mut ValidationErrors, field: &str, text: &str) {
    let unknown = unknown_tokens(text);
    if !unknown.is_empty() {
        errors.add(field, unknown_token_message(&unknown));
    }
}

/// The largest image a template may carry inline (decoded bytes).
pub const MAX_IMAGE_BYTES: usize = 512 * 1024;
/// Refusal of an image that is not an inline PNG, JPEG or GIF under the limit.
pub const IMAGE_REFUSED: &str =
    "Images must be PNG, JPEG or GIF files of at most 512 KB pasted into the template";

/// spec 03 §5: Subject and Content required; tokens must be known.
pub fn validate_email_letter(t: &EmailLetter) -> ValidationErrors {
    let mut errors = ValidationErrors::new();
    errors.check(is_blank(&t.subject), "Subject", "Subject is required");
    errors.check(
        is_blank(&strip_tags(&t.content)) && !t.content.contains("<img"),
        "Content",
        "Content is required",
    );
    check_tokens(&mut errors, "Subject", &t.subject);
    check_tokens(&mut errors, "Content", &t.content);
    errors
}

/// spec 03 §5: Subject, Name and Body required; tokens must be known; a known type.
pub fn validate_portal_template(t: &PortalTemplate) -> ValidationErrors {
    let mut errors = ValidationErrors::new();
    errors.check(is_blank(&t.name), "Name", "Name is required");
    errors.check(is_blank(&t.subject), "Subject", "Subject is required");
    errors.check(
        is_blank(&strip_tags(&t.body)) && !t.body.contains("<img"),
        "Body",
        "Body is required",
    );
    errors.check(
        !PORTAL_TYPES.contains(&t.kind.as_str()),
        "Type",
        "Choose the notice this template is for",
    );
    errors.check(
        t.name.chars().count() > 100,
        "Name",
        "Name is at most 100 characters",
    );
    errors.check(
        t.subject.chars().count() > 255,
        "Subject",
        "Subject is at most 255 characters",
    );
    check_tokens(&mut errors, "Subject", &t.subject);
    check_tokens(&mut errors, "Body", &t.body);
    errors
}

/// The template types a translation belongs to.
pub const TRANSLATION_TYPES: &[&str] = &["Portal", "EmailLetter"];

/// A template's text in another language: a translated language, Subject and Body required,
/// known tokens only, and the same tokens as the English text (a notice must carry its links in
/// every language; spec 03 §9 languages).
pub fn validate_translation(t: &TemplateTranslation, english: &str) -> ValidationErrors {
    let mut errors = ValidationErrors::new();
    errors.check(
        !TRANSLATION_TYPES.contains(&t.template_type.as_str()),
        "Type",
        "Unknown template type",
    );
    errors.check(
        t.language == "en"
            || !crate::labels::LANGUAGES
                .iter()
                .any(|(_, code)| *code == t.language),
        "Language",
        "Choose one of the translated languages",
    );
    errors.check(is_blank(&t.subject), "Subject", "Subject is required");
    errors.check(
        is_blank(&strip_tags(&t.body)) && !t.body.contains("<img"),
        "Body",
        "Body is required",
    );
    errors.check(
        t.subject.chars().count() > 255,
        "Subject",
        "Subject is at most 255 characters",
    );
    check_tokens(&mut errors, "Subject", &t.subject);
    check_tokens(&mut errors, "Body", &t.body);
    let got = token_set(&format!("{} {}", t.subject, t.body));
    let mut wanted = token_set(english);
    wanted.retain(|n| !got.contains(n));
    if errors.field("Body").is_empty() && !wanted.is_empty() {
        let list: Vec<String> = wanted.iter().map(|n| format!("{{{n}}}")).collect();
        errors.add(
            "Body",
            format!("The translation must keep the tokens {}", list.join(", ")),
        );
    }
    errors
}

/// The distinct placeholder names of `text`.
fn token_set(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (_, _, name) in placeholders(text) {
        if !out.iter().any(|o| o == name) {
            out.push(name.to_owned());
        }
    }
    out
}

/// How token values are written into a template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Escape {
    /// An email's HTML part: values HTML-escaped.
    Html,
    /// A subject, an email's text part or an SMS: values as they are.
    Plain,
}

pub fn escape_html(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// `template` with each token replaced by its value in `values` (a token without a value: empty),
/// in one pass, so a value that itself looks like a token is written as it is. Placeholders that
/// are not tokens stay (a saved template has none).
pub fn render(template: &str, values: &[(&str, &str)], escape: Escape) -> String {
    let mut out = String::with_capacity(template.len() + 64);
    let mut last = 0;
    for (start, end, name) in placeholders(template) {
        if !is_known_token(name) {
            continue;
        }
        out.push_str(&template[last..start]);
        let value = values
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
            .unwrap_or("");
        match escape {
            Escape::Html => out.push_str(&escape_html(value)),
            Escape::Plain => out.push_str(value),
        }
        last = end;
    }
    out.push_str(&template[last..]);
    out
}

fn decode_entities(text: &str) -> String {
    text.replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The value of attribute `name` in a tag's text (`a href="..."`).
fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let at = tag.find(&format!("{name}=\""))? + name.len() + 2;
    let rest = &tag[at..];
    Some(&rest[..rest.find('"')?])
}

fn strip_tags(html: &str) -> String {
    html_to_text(html)
}

/// A rich-text template as plain text (an email's text part, an SMS): a line per paragraph,
/// heading, list item or break, a link's address after its text, other tags dropped, entities
/// decoded.
pub fn html_to_text(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    let mut link: Option<String> = None;
    let mut link_text = String::new();
    while let Some(open) = rest.find('<') {
        let text = decode_entities(&rest[..open]);
        out.push_str(&text);
        link_text.push_str(&text);
        let Some(close) = rest[open..].find('>') else {
            rest = &rest[open..];
            break;
        };
        let tag = &rest[open + 1..open + close];
        rest = &rest[open + close + 1..];
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        let closing = tag.starts_with('/');
        match (name.as_str(), closing) {
            ("a", false) => {
                link = attribute(tag, "href").map(decode_entities);
                link_text.clear();
            }
            ("a", true) => {
                if let Some(href) = link.take() {
                    if link_text.trim() != href.trim() && !href.is_empty() {
                        out.push_str(&format!(" ({href})"));
                    }
                }
            }
            ("br", _) => out.push('\n'),
            (
                "p" | "li" | "blockquote" | "pre" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "div",
                true,
            ) => out.push('\n'),
            _ => {}
        }
    }
    out.push_str(&decode_entities(rest));
    out.trim().to_owned()
}

/// A rendered notice.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct Rendered {
    pub subject: String,
    pub text: String,
    pub html: String,
}

/// A template rendered for an email (subject and text plain, HTML with escaped values) or, with
/// `text` alone, for an SMS.
pub fn render_notice(subject: &str, body_html: &str, values: &[(&str, &str)]) -> Rendered {
    Rendered {
        subject: render(subject, values, Escape::Plain)
            .replace(['\r', '\n'], " ")
            .trim()
            .to_owned(),
        text: render(&html_to_text(body_html), values, Escape::Plain)
            .trim()
            .to_owned(),
        html: render(body_html, values, Escape::Html),
    }
}

/// The demo patient of the preview.
pub const DEMO_VALUES: &[(&str, &str)] = &[
    ("ClientName", "Demo Imaging Center"),
    ("PortalLink", "https://portal.example.test"),
    ("CurrentDate", "11/26/2026"),
    ("PatientName", "Jane Sample"),
    ("PatientFirstName", "Jane"),
    ("PatientLastName", "Sample"),
    ("MRN", "MRN-000123"),
    ("Username", "jane.sample"),
    ("AppointmentDate", "Thursday, December 3, 2026 09:30 AM"),
    ("Location", "Main Street Imaging"),
    (
        "SurveyLink",
        "https://portal.example.test/survey?token=demo",
    ),
    (
        "IamHereLink",
        "https://portal.example.test/iamhere?token=demo",
    ),
    (
        "ResetLink",
        "https://portal.example.test/patient/change-password?pwdReset=demo",
    ),
    (
        "RegistrationLink",
        "https://portal.example.test/patient/create?key=demo",
    ),
    ("LoginLink", "https://portal.example.test/patient/login"),
    ("LinkExpiry", "The link expires in 24 hour(s)."),
    (
        "UnsubscribeLink",
        "https://portal.example.test/unsubscribe/demo",
    ),
];

/// The preview: the template rendered for the demo patient.
pub fn preview(subject: &str, body_html: &str) -> Rendered {
    render_notice(subject, body_html, DEMO_VALUES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_token_has_a_demo_value() {
        for (_, tokens) in TOKEN_GROUPS {
            for (t, _) in *tokens {
                assert!(DEMO_VALUES.iter().any(|(n, _)| n == t), "{t}");
            }
        }
    }

    #[test]
    fn renders_escaped_in_html_plain_in_text_one_pass() {
        let values = [
            ("PatientName", "<b>Ann & {SurveyLink}</b>"),
            ("SurveyLink", "https://x.test/?a=1&b=2"),
        ];
        let r = render_notice(
            "Hi {PatientName}",
            r#"<p>Dear {PatientName},</p><p><a href="{SurveyLink}">Open</a> {MRN}</p>"#,
            &values,
        );
        assert_eq!(r.subject, "Hi <b>Ann & {SurveyLink}</b>");
        assert!(
            r.html
                .contains("Dear &lt;b&gt;Ann &amp; {SurveyLink}&lt;/b&gt;,"),
            "{}",
            r.html
        );
        assert!(
            r.html.contains(r#"href="https://x.test/?a=1&amp;b=2""#),
            "{}",
            r.html
        );
        assert_eq!(
            r.text,
            "Dear <b>Ann & {SurveyLink}</b>,\nOpen (https://x.test/?a=1&b=2)"
        );
    }

    #[test]
    fn unknown_tokens_are_named() {
        assert_eq!(
            unknown_tokens("{PatientName} {Foo} {Foo} {Bar1} {1x} { Baz }"),
            ["Foo", "Bar1"]
        );
        let t = PortalTemplate {
            id: 0,
            name: "N".into(),
            is_active: true,
            is_send_during_business_hours: false,
            subject: "S {Nope}".into(),
            body: "<p>x</p>".into(),
            kind: "IamHere".into(),
            revision: 0,
        };
        assert_eq!(
            validate_portal_template(&t).field("Subject"),
            ["Unknown token {Nope}"]
        );
    }

    #[test]
    fn required_fields() {
        let e = validate_email_letter(&EmailLetter {
            id: 1,
            location: 0,
            location_name: String::new(),
            letter_type: "NewAccount".into(),
            subject: " ".into(),
            comments: String::new(),
            content: "<p><br></p>".into(),
            revision: 0,
        });
        assert_eq!(e.field("Subject"), ["Subject is required"]);
        assert_eq!(e.field("Content"), ["Content is required"]);
    }

    #[test]
    fn text_of_lists_and_breaks() {
        assert_eq!(
            html_to_text(
                "<h1>T</h1><ol><li data-list=\"bullet\">a</li><li>b&nbsp;c</li></ol><p>x<br>y</p>"
            ),
            "T\na\nb c\nx\ny"
        );
    }
}
