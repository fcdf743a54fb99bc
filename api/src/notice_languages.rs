//! Notices in the patient's language (issue 21): a template's text in a language is the clinic's
//! (Notification Templates, language selector), else the shipped translation
//! (`api/notice_translations/{code}.json`, keyed `Portal:{Type}` / `EmailLetter:{LetterType}`),
//! else the English template itself. Tokens are the same in every language.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::db::Db;
use crate::error::AppResult;
use crate::store::notice_languages as store;

/// The template types a translation belongs to (`notice_template_languages.template_type`).
pub const PORTAL: &str = "Portal";
pub const EMAIL_LETTER: &str = "EmailLetter";

/// Where a text comes from (the `Source` the page shows).
pub const SOURCE_CLINIC: &str = "Clinic";
pub const SOURCE_SHIPPED: &str = "Shipped";
pub const SOURCE_ENGLISH: &str = "English";

/// The shipped translations: (code, file). Machine-assisted; the clinic reviews them (README).
const SHIPPED_FILES: [(&str, &str); 5] = [
    ("es", include_str!("../notice_translations/es.json")),
    ("zh", include_str!("../notice_translations/zh.json")),
    ("km", include_str!("../notice_translations/km.json")),
    ("vi", include_str!("../notice_translations/vi.json")),
    ("tl", include_str!("../notice_translations/tl.json")),
];

#[derive(Debug, Clone, serde::Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct ShippedText {
    pub subject: String,
    pub body: String,
}

type Shipped = HashMap<&'static str, HashMap<String, ShippedText>>;

fn shipped_all() -> &'static Shipped {
    static SHIPPED: OnceLock<Shipped> = OnceLock::new();
    SHIPPED.get_or_init(|| {
        SHIPPED_FILES
            .iter()
            .map(|(code, text)| {
                // A broken file is caught by the unit test below, never at a patient's notice.
                (*code, serde_json::from_str(text).unwrap_or_default())
            })
            .collect()
    })
}

/// The shipped translation of template `name` ("Portal:SurveyReminder") in `code`.
pub fn shipped(code: &str, name: &str) -> Option<&'static ShippedText> {
    shipped_all().get(code)?.get(name)
}

/// The language code ("es") of a stored language ("es", "es-MX", "spanish"); "en" when unknown.
pub fn language_code(language: &str) -> &'static str {
    let name = wasm_core::labels::language_name(language);
    wasm_core::labels::LANGUAGES
        .iter()
        .find(|(n, _)| *n == name)
        .map_or("en", |(_, code)| *code)
}

/// A template's Subject and Body in one language, and where they come from.
#[derive(Debug, Clone)]
pub struct Localized {
    pub subject: String,
    pub body: String,
    pub source: &'static str,
    /// The clinic's stored revision (0: none stored).
    pub revision: i64,
}

/// Which template: its type, id, location and shipped name (`Portal:{kind}`,
/// `EmailLetter:{letter type}`).
pub struct TemplateRef<'a> {
    pub template_type: &'a str,
    pub id: i64,
    pub location: i64,
    pub shipped_name: String,
}

/// The text of `template` in `language`, falling back to `english` (subject, body).
pub async fn localize(
    db: &Db,
    template: &TemplateRef<'_>,
    language: &str,
    english: (&str, &str),
) -> AppResult<Localized> {
    let code = language_code(language);
    if code != "en" {
        if let Some(row) = store::translation(
            db,
            template.template_type,
            template.id,
            template.location,
            code,
        )
        .await?
        {
            return Ok(Localized {
                subject: row.subject,
                body: row.body,
                source: SOURCE_CLINIC,
                revision: row.revision,
            });
        }
        if let Some(s) = shipped(code, &template.shipped_name) {
            return Ok(Localized {
                subject: s.subject.clone(),
                body: s.body.clone(),
                source: SOURCE_SHIPPED,
                revision: 0,
            });
        }
    }
    Ok(Localized {
        subject: english.0.to_owned(),
        body: english.1.to_owned(),
        source: SOURCE_ENGLISH,
        revision: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shipped file parses, names known templates, and keeps the English template's tokens
    /// (the rule a clinic's save passes too).
    #[test]
    fn shipped_translations_parse_and_keep_their_tokens() {
        let english = [
            (
                "Portal:SurveyAssignment",
                "{PatientName} {AppointmentDate} {SurveyLink} {UnsubscribeLink}",
            ),
            (
                "Portal:IamHere",
                "{PatientName} {AppointmentDate} {IamHereLink} {UnsubscribeLink}",
            ),
            (
                "EmailLetter:ForgotPassword",
                "{PatientFirstName} {ClientName} {Username} {ResetLink} {LinkExpiry}",
            ),
            (
                "EmailLetter:NewAccount",
                "{PatientName} {RegistrationLink} {LinkExpiry}",
            ),
        ];
        for (code, text) in SHIPPED_FILES {
            let parsed: HashMap<String, ShippedText> = serde_json::from_str(text).unwrap();
            assert_eq!(parsed.len(), 14, "{code}");
            for (name, t) in &parsed {
                let (kind, which) = name.split_once(':').unwrap();
                match kind {
                    "Portal" => assert!(wasm_core::notice_templates::PORTAL_TYPES.contains(&which)),
                    _ => assert!(wasm_core::notice_templates::LETTER_TYPES.contains(&which)),
                }
                let check = wasm_model(kind, code, t);
                let tokens = english
                    .iter()
                    .find(|(n, _)| n == name)
                    .map_or("", |(_, t)| *t);
                let errors = wasm_core::notice_templates::validate_translation(&check, tokens);
                assert!(errors.is_valid(), "{code} {name}: {errors:?}");
            }
        }
        assert_eq!(language_code("es-MX"), "es");
        assert_eq!(language_code("cambodian"), "km");
        assert_eq!(language_code("xx"), "en");
    }

    fn wasm_model(
        kind: &str,
        code: &str,
        t: &ShippedText,
    ) -> wasm_core::model::TemplateTranslation {
        wasm_core::model::TemplateTranslation {
            template_type: kind.to_owned(),
            id: 1,
            location: 0,
            language: code.to_owned(),
            subject: t.subject.clone(),
            body: t.body.clone(),
            source: String::new(),
            revision: 0,
        }
    }
}
