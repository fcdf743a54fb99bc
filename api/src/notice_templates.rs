//! Notices from the Notification Templates (spec 03 §2 email-service): the stored template of a
//! notice, rendered by wasm-core's one rule (`notice_templates::render_notice`: values
//! HTML-escaped in the email's HTML part, plain in its text part and in an SMS), and the
//! sanitising every template passes before it is stored.

use std::sync::{Arc, Mutex};

use base64::Engine as _;
use wasm_core::notice_templates::{self as rules, Rendered, IMAGE_REFUSED, MAX_IMAGE_BYTES};

use crate::db::Db;
use crate::error::AppResult;
use crate::notice_languages::{self, TemplateRef};
use crate::outbox::{Channel, OutboundMessage};
use crate::store::notice_templates as store;

/// A template's rich text as it may be stored: the Quill allow-list (`html::sanitise_quill_html`'s
/// tags and classes) plus images, which must be inline PNG, JPEG or GIF (`data:` URIs, checked by
/// their bytes) of at most `MAX_IMAGE_BYTES`; any other image refuses the whole text, with a
/// message, rather than vanish silently. `data:` is kept nowhere else (no `data:` links).
pub fn sanitise_template_html(html: &str) -> Result<String, String> {
    let refused = Arc::new(Mutex::new(false));
    let flag = Arc::clone(&refused);
    let mut builder = crate::html::quill_builder();
    builder.add_url_schemes(["data"]);
    builder.attribute_filter(move |element, attribute, value| {
        let is_data = value.trim_start().to_ascii_lowercase().starts_with("data:");
        if element == "img" && attribute == "src" {
            if inline_image_ok(value) {
                return Some(value.into());
            }
            if let Ok(mut f) = flag.lock() {
                *f = true;
            }
            return None;
        }
        if is_data {
            return None;
        }
        Some(value.into())
    });
    let clean = builder.clean(html).to_string();
    let was_refused = refused.lock().map(|f| *f).unwrap_or(true);
    if was_refused {
        Err(IMAGE_REFUSED.to_owned())
    } else {
        Ok(clean)
    }
}

/// `data:image/(png|jpeg|gif);base64,...` whose bytes are that kind of image, small enough.
fn inline_image_ok(src: &str) -> bool {
    let Some(rest) = src.trim().strip_prefix("data:") else {
        return false;
    };
    let Some((head, data)) = rest.split_once(',') else {
        return false;
    };
    let magic: &[u8] = match head.to_ascii_lowercase().as_str() {
        "image/png;base64" => b"\x89PNG\r\n\x1a\n",
        "image/jpeg;base64" | "image/jpg;base64" => b"\xff\xd8\xff",
        "image/gif;base64" => b"GIF8",
        _ => return false,
    };
    // Four base64 characters carry three bytes: refuse before decoding anything too big.
    if data.len() / 4 * 3 > MAX_IMAGE_BYTES + 3 {
        return false;
    }
    match base64::engine::general_purpose::STANDARD.decode(data.trim()) {
        Ok(bytes) => bytes.len() <= MAX_IMAGE_BYTES && bytes.starts_with(magic),
        Err(_) => false,
    }
}

/// A portal notice (`kind`: one of `rules::PORTAL_TYPES`) in `language`, rendered from the
/// active template of that kind (its text in the language, else English: `notice_languages`),
/// and whether it waits for business hours. `None` when no template of the kind is active: the
/// notice is switched off.
pub async fn portal_notice(
    db: &Db,
    kind: &str,
    language: &str,
    values: &[(&str, &str)],
) -> AppResult<Option<(Rendered, bool)>> {
    let Some(t) = store::active_template(db, kind).await? else {
        return Ok(None);
    };
    let (subject, body) = portal_text(db, &t, language).await?;
    Ok(Some((
        rules::render_notice(&subject, &body, values),
        t.is_send_during_business_hours,
    )))
}

/// What a survey notice (assignment, reminder, I Am Here) says about its patient and survey.
pub struct SurveyNoticeValues<'a> {
    pub client_name: &'a str,
    /// The portal's public address, without a trailing '/'.
    pub base: &'a str,
    pub first_name: &'a str,
    pub last_name: &'a str,
    /// `{AppointmentDate}`, already in the patient's language (`notice_words`).
    pub appointment_date: &'a str,
    pub survey_link: &'a str,
    pub iam_here_link: &'a str,
    pub unsubscribe_link: &'a str,
}

impl SurveyNoticeValues<'_> {
    /// The tokens' values: the engine's notices, the History Portal's Resend and the survey
    /// registration's email say the same.
    pub fn tokens(&self) -> Vec<(&'static str, String)> {
        vec![
            ("ClientName", self.client_name.to_owned()),
            ("PortalLink", self.base.to_owned()),
            (
                "PatientName",
                format!("{} {}", self.first_name, self.last_name),
            ),
            ("PatientFirstName", self.first_name.to_owned()),
            ("PatientLastName", self.last_name.to_owned()),
            ("AppointmentDate", self.appointment_date.to_owned()),
            ("SurveyLink", self.survey_link.to_owned()),
            ("IamHereLink", self.iam_here_link.to_owned()),
            ("UnsubscribeLink", self.unsubscribe_link.to_owned()),
        ]
    }
}

/// `tokens` as `render_notice` takes them.
pub fn token_refs<'a>(tokens: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
    tokens.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

/// The survey assignment notice (the active `SurveyAssignment` template) of one survey in the
/// patient's `language`, as the History Portal's Resend and the survey registration send it.
/// `None`: the clinic switched the notice off.
pub async fn survey_assignment(
    db: &Db,
    language: &str,
    values: &SurveyNoticeValues<'_>,
) -> AppResult<Option<Rendered>> {
    let tokens = values.tokens();
    Ok(
        portal_notice(db, "SurveyAssignment", language, &token_refs(&tokens))
            .await?
            .map(|(rendered, _)| rendered),
    )
}

/// A portal template's Subject and Body in `language`.
pub async fn portal_text(
    db: &Db,
    t: &store::PortalTemplateRow,
    language: &str,
) -> AppResult<(String, String)> {
    let reference = TemplateRef {
        template_type: notice_languages::PORTAL,
        id: t.id,
        location: 0,
        shipped_name: format!("Portal:{}", t.kind),
    };
    let l = notice_languages::localize(db, &reference, language, (&t.subject, &t.body)).await?;
    Ok((l.subject, l.body))
}

/// An imaging-system letter type's notice for a patient at `location` (its template for that
/// location, else the one for every location) in `language`. `None` when the type has no
/// template.
pub async fn letter_notice(
    db: &Db,
    letter_type: &str,
    location: Option<i64>,
    language: &str,
    values: &[(&str, &str)],
) -> AppResult<Option<Rendered>> {
    let Some(t) = store::email_letter_for(db, letter_type, location).await? else {
        return Ok(None);
    };
    let t = in_language(db, t, language).await?;
    Ok(Some(rules::render_notice(&t.subject, &t.content, values)))
}

/// `t` with its Subject and Content in `language` (English when it has no translation there).
async fn in_language(
    db: &Db,
    mut t: store::EmailLetterRow,
    language: &str,
) -> AppResult<store::EmailLetterRow> {
    let reference = TemplateRef {
        template_type: notice_languages::EMAIL_LETTER,
        id: t.id,
        location: t.location_id,
        shipped_name: format!("EmailLetter:{}", t.letter_type),
    };
    let l = notice_languages::localize(db, &reference, language, (&t.subject, &t.content)).await?;
    t.subject = l.subject;
    t.content = l.body;
    Ok(t)
}

/// The stored template of an imaging-system letter type for every location (the portal's own
/// account emails: ForgotPassword, ForgotAccount, NewAccount) in `language`. Templates are
/// edited, never deleted, so a missing one is a broken database.
pub async fn account_template(
    db: &Db,
    letter_type: &str,
    language: &str,
) -> AppResult<store::EmailLetterRow> {
    let t = store::email_letter_for(db, letter_type, None)
        .await?
        .ok_or_else(|| {
            crate::error::AppError::internal(format!("no {letter_type} email template"))
        })?;
    in_language(db, t, language).await
}

/// `template` rendered with `values`.
pub fn render_letter(template: &store::EmailLetterRow, values: &[(&str, &str)]) -> Rendered {
    rules::render_notice(&template.subject, &template.content, values)
}

/// The outbound message of a rendered notice: an email with its text and HTML parts, or an SMS
/// with the text alone.
pub fn message(channel: Channel, to: &str, rendered: &Rendered, kind: &str) -> OutboundMessage {
    match channel {
        Channel::Email => OutboundMessage {
            html: Some(rendered.html.clone()),
            ..OutboundMessage::email(to, &rendered.subject, &rendered.text, kind)
        },
        Channel::Sms => OutboundMessage::sms(to, &rendered.text, kind),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PNG_1PX: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

    #[test]
    fn inline_images_kept_others_refused() {
        let ok = sanitise_template_html(&format!(
            r#"<p class="ql-align-center">Hi <img src="data:image/png;base64,{PNG_1PX}"></p>"#
        ))
        .unwrap();
        assert!(ok.contains("data:image/png;base64,"), "{ok}");
        assert!(ok.contains("ql-align-center"));
        assert_eq!(
            sanitise_template_html(r#"<img src="https://tracker.test/p.gif">"#),
            Err(IMAGE_REFUSED.to_owned())
        );
        assert_eq!(
            sanitise_template_html(&format!(r#"<img src="data:image/gif;base64,{PNG_1PX}">"#)),
            Err(IMAGE_REFUSED.to_owned()),
            "a PNG claiming to be a GIF"
        );
        let big = base64::engine::general_purpose::STANDARD.encode(vec![0u8; MAX_IMAGE_BYTES + 10]);
        assert!(
            sanitise_template_html(&format!(r#"<img src="data:image/png;base64,{big}">"#)).is_err()
        );
        let clean = sanitise_template_html(
            r#"<a href="data:text/html,x">x</a><a href="{SurveyLink}">s</a><script>1</script>"#,
        )
        .unwrap();
        assert!(
            !clean.contains("data:") && !clean.contains("script"),
            "{clean}"
        );
        assert!(clean.contains(r#"href="{SurveyLink}""#), "{clean}");
    }
}
