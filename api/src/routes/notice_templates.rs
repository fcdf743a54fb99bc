//! Notification Templates (spec 03 §2 email-service, §5 "Email templates", §7): the
//! imaging-system email templates and the portal's notice templates. Every save is checked by
//! wasm-core's rule (required fields, known tokens: an unknown one is named), sanitised
//! (`notice_templates::sanitise_template_html`: Quill's markup and inline images only), stored at
//! the revision it was read (409 otherwise) and audited in the same transaction.
//!
//! Client admins and program managers (spec 03 §6: settings pages).

use axum::extract::State;
use axum::Json;
use serde_json::json;
use wasm_core::model::{
    Deleted, EmailLetter, EmailLetterKey, EmailLetterRow, PortalTemplate, TemplateIdQuery,
    TemplateLanguageKey, TemplateTranslation,
};
use wasm_core::notice_templates as rules;

use crate::audit::{self, Action, Actor, Target};
use crate::auth::roles::SettingsAdmins;
use crate::auth::RequireRole;
use crate::client_addr::ClientAddr;
use crate::error::{ApiJson, ApiQuery, AppError, AppResult};
use crate::notice_languages::{self, TemplateRef};
use crate::notice_templates::sanitise_template_html;
use crate::openapi::ApiRouter;
use crate::store::notice_languages as languages;
use crate::store::notice_templates::{self as store, PortalTemplateRow};
use crate::AppState;

type Admin = RequireRole<SettingsAdmins>;

/// 409: the template was saved by someone else since it was opened.
pub const TEMPLATE_STALE: &str =
    "This template was changed by someone else since you opened it. Reload it to see the changes.";
pub const NAME_TAKEN: &str = "A template with this name already exists";
/// Every location (a template not tied to one).
pub const ALL_LOCATIONS: &str = "All locations";

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/magview.api/emailLetters",
            "The imaging-system email templates (Email ID, Type, Location)",
            email_letters,
        )
        .get(
            "/magview.api/emailLetters/details",
            "One imaging-system email template (?id&location) with Subject, Comments, Content and its Revision",
            email_letter,
        )
        .put(
            "/magview.api/emailLetters",
            "Saves the imaging-system template ?id&location (Subject, Comments, Content; Id and Location read-only): 400 with field messages (Subject and Content required, unknown tokens named, images other than inline PNG/JPEG/GIF of at most 512 KB), 409 when saved by someone else since Revision; answers the stored template",
            save_email_letter,
        )
        .get(
            "/api/notificationTemplate/gettemplates",
            "The portal's notice templates (Id, Name, IsActive, IsSendDuringBusinessHours, Subject, Body, Type, Revision)",
            portal_templates,
        )
        .post(
            "/api/notificationTemplate/save",
            "Adds (Id 0) or saves a portal template: 400 with field messages (Name, Subject and Body required, unknown tokens named, a known Type, a unique Name, images as for emailLetters), 409 when saved by someone else since Revision; the Name of a saved template does not change. Answers the stored template",
            save_portal_template,
        )
        .get(
            "/api/notificationTemplate/language",
            "A template's Subject and Body in one language (?Type=Portal|EmailLetter&Id&Location&Language=es|zh|km|vi|tl): the clinic's text, else the shipped translation, else English (Source Clinic, Shipped or English; Revision 0 when the clinic has saved none)",
            template_language,
        )
        .post(
            "/api/notificationTemplate/language",
            "Saves a template's text in one language (Revision 0: the first save of that language): 400 with field messages (Subject and Body required, the English template's tokens kept, unknown tokens named, images as for emailLetters), 409 when saved by someone else since Revision; answers the stored text",
            save_template_language,
        )
        .delete(
            "/api/notificationTemplate/RemoveTemplate",
            "Deletes the portal template ?id (404 when there is none)",
            remove_portal_template,
        )
}

fn location_name(name: Option<String>, location: i64) -> String {
    match name {
        Some(n) => n,
        None if location == 0 => ALL_LOCATIONS.to_owned(),
        None => format!("Location {location}"),
    }
}

fn letter(r: store::EmailLetterRow) -> EmailLetter {
    EmailLetter {
        id: r.id,
        location: r.location_id,
        location_name: location_name(r.location_name, r.location_id),
        letter_type: r.letter_type,
        subject: r.subject,
        comments: r.comments,
        content: r.content,
        revision: r.revision,
    }
}

async fn email_letters(
    State(state): State<AppState>,
    _user: Admin,
) -> AppResult<Json<Vec<EmailLetterRow>>> {
    Ok(Json(
        store::email_letters(&state.db)
            .await?
            .into_iter()
            .map(|r| EmailLetterRow {
                id: r.id,
                location: r.location_id,
                location_name: location_name(r.location_name, r.location_id),
                letter_type: r.letter_type,
            })
            .collect(),
    ))
}

async fn email_letter(
    State(state): State<AppState>,
    _user: Admin,
    ApiQuery(key): ApiQuery<EmailLetterKey>,
) -> AppResult<Json<EmailLetter>> {
    store::email_letter(&state.db, key.id, key.location)
        .await?
        .map(|r| Json(letter(r)))
        .ok_or(AppError::NotFound)
}

/// The sanitised rich text of `field`, or its field message.
fn sanitised(field: &str, html: &str) -> AppResult<String> {
    sanitise_template_html(html).map_err(|message| {
        let mut errors = wasm_core::ValidationErrors::new();
        errors.add(field, message);
        AppError::Validation(errors)
    })
}

async fn save_email_letter(
    State(state): State<AppState>,
    user: Admin,
    peer: ClientAddr,
    ApiQuery(key): ApiQuery<EmailLetterKey>,
    ApiJson(body): ApiJson<EmailLetter>,
) -> AppResult<Json<EmailLetter>> {
    let errors = rules::validate_email_letter(&body);
    if !errors.is_valid() {
        return Err(AppError::Validation(errors));
    }
    let content = sanitised("Content", &body.content)?;
    let old = store::email_letter(&state.db, key.id, key.location)
        .await?
        .ok_or(AppError::NotFound)?;
    let subject = body.subject.trim();
    let mut tx = state.db.begin().await?;
    if !store::update_email_letter(
        &mut tx,
        key.id,
        key.location,
        body.revision,
        subject,
        body.comments.trim(),
        &content,
    )
    .await?
    {
        return Err(AppError::Conflict(TEMPLATE_STALE.to_owned()));
    }
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::NotificationTemplateSaved,
        Target {
            target_type: Some("EmailLetter"),
            target_id: Some(format!("{}:{}", key.id, key.location)),
            target_user_id: None,
        },
        Some(json!({"Subject": old.subject, "Comments": old.comments, "Content": old.content})),
        Some(json!({"Subject": subject, "Comments": body.comments.trim(), "Content": content})),
        Some(peer.ip().to_string()),
    )
    .await?;
    tx.commit().await?;
    store::email_letter(&state.db, key.id, key.location)
        .await?
        .map(|r| Json(letter(r)))
        .ok_or(AppError::NotFound)
}

fn template(r: PortalTemplateRow) -> PortalTemplate {
    PortalTemplate {
        id: r.id,
        name: r.name,
        is_active: r.is_active,
        is_send_during_business_hours: r.is_send_during_business_hours,
        subject: r.subject,
        body: r.body,
        kind: r.kind,
        revision: r.revision,
    }
}

async fn portal_templates(
    State(state): State<AppState>,
    _user: Admin,
) -> AppResult<Json<Vec<PortalTemplate>>> {
    Ok(Json(
        store::portal_templates(&state.db)
            .await?
            .into_iter()
            .map(template)
            .collect(),
    ))
}

fn audit_view(t: &PortalTemplateRow) -> serde_json::Value {
    json!({"Name": t.name, "IsActive": t.is_active, "IsSendDuringBusinessHours": t.is_send_during_business_hours,
        "Subject": t.subject, "Body": t.body, "Type": t.kind})
}

async fn save_portal_template(
    State(state): State<AppState>,
    user: Admin,
    peer: ClientAddr,
    ApiJson(body): ApiJson<PortalTemplate>,
) -> AppResult<Json<PortalTemplate>> {
    let mut tx = state.db.begin().await?;
    // Id and Name are fixed once saved: an edit keeps the stored name.
    let old = if body.id == 0 {
        None
    } else {
        Some(
            store::portal_template_in(&mut tx, body.id)
                .await?
                .ok_or(AppError::NotFound)?,
        )
    };
    let name = old
        .as_ref()
        .map_or_else(|| body.name.trim().to_owned(), |o| o.name.clone());
    let checked = PortalTemplate {
        name: name.clone(),
        ..body.clone()
    };
    let mut errors = rules::validate_portal_template(&checked);
    if old.is_none()
        && errors.field("Name").is_empty()
        && store::name_taken(&mut tx, &name, 0).await?
    {
        errors.add("Name", NAME_TAKEN);
    }
    if !errors.is_valid() {
        return Err(AppError::Validation(errors));
    }
    let mut row = PortalTemplateRow {
        id: body.id,
        name,
        is_active: body.is_active,
        is_send_during_business_hours: body.is_send_during_business_hours,
        subject: body.subject.trim().to_owned(),
        body: sanitised("Body", &body.body)?,
        kind: body.kind.clone(),
        revision: body.revision,
    };
    match &old {
        None => row.id = store::insert_portal_template(&mut tx, &row).await?,
        Some(_) => {
            if !store::update_portal_template(&mut tx, &row).await? {
                return Err(AppError::Conflict(TEMPLATE_STALE.to_owned()));
            }
        }
    }
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::NotificationTemplateSaved,
        Target {
            target_type: Some("NotificationTemplate"),
            target_id: Some(row.id.to_string()),
            target_user_id: None,
        },
        old.as_ref().map(audit_view),
        Some(audit_view(&row)),
        Some(peer.ip().to_string()),
    )
    .await?;
    let saved = store::portal_template_in(&mut tx, row.id)
        .await?
        .ok_or(AppError::NotFound)?;
    tx.commit().await?;
    Ok(Json(template(saved)))
}

async fn remove_portal_template(
    State(state): State<AppState>,
    user: Admin,
    peer: ClientAddr,
    ApiQuery(q): ApiQuery<TemplateIdQuery>,
) -> AppResult<Json<Deleted>> {
    let mut tx = state.db.begin().await?;
    let old = store::portal_template_in(&mut tx, q.id)
        .await?
        .ok_or(AppError::NotFound)?;
    store::delete_portal_template(&mut tx, q.id).await?;
    languages::delete_for_template(&mut tx, notice_languages::PORTAL, q.id).await?;
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::NotificationTemplateDeleted,
        Target {
            target_type: Some("NotificationTemplate"),
            target_id: Some(q.id.to_string()),
            target_user_id: None,
        },
        Some(audit_view(&old)),
        None,
        Some(peer.ip().to_string()),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(Deleted { deleted: true }))
}

/// The template a language key names, with its English Subject and Body; 404 when there is none.
async fn english_of(
    state: &AppState,
    key: &TemplateLanguageKey,
) -> AppResult<(TemplateRef<'static>, String, String)> {
    match key.template_type.as_str() {
        notice_languages::PORTAL => {
            let mut tx = state.db.begin().await?;
            let t = store::portal_template_in(&mut tx, key.id)
                .await?
                .ok_or(AppError::NotFound)?;
            tx.commit().await?;
            Ok((
                TemplateRef {
                    template_type: notice_languages::PORTAL,
                    id: t.id,
                    location: 0,
                    shipped_name: format!("Portal:{}", t.kind),
                },
                t.subject,
                t.body,
            ))
        }
        notice_languages::EMAIL_LETTER => {
            let t = store::email_letter(&state.db, key.id, key.location)
                .await?
                .ok_or(AppError::NotFound)?;
            Ok((
                TemplateRef {
                    template_type: notice_languages::EMAIL_LETTER,
                    id: t.id,
                    location: t.location_id,
                    shipped_name: format!("EmailLetter:{}", t.letter_type),
                },
                t.subject,
                t.content,
            ))
        }
        _ => Err(AppError::NotFound),
    }
}

/// A translated language's code, or a 400 naming the field.
fn translated_language(language: &str) -> AppResult<&'static str> {
    wasm_core::labels::LANGUAGES
        .iter()
        .map(|(_, code)| *code)
        .find(|code| *code != "en" && *code == language)
        .ok_or_else(|| {
            let mut errors = wasm_core::ValidationErrors::new();
            errors.add("Language", "Choose one of the translated languages");
            AppError::Validation(errors)
        })
}

async fn template_language(
    State(state): State<AppState>,
    _user: Admin,
    ApiQuery(key): ApiQuery<TemplateLanguageKey>,
) -> AppResult<Json<TemplateTranslation>> {
    let code = translated_language(&key.language)?;
    let (reference, subject, body) = english_of(&state, &key).await?;
    let l = notice_languages::localize(&state.db, &reference, code, (&subject, &body)).await?;
    Ok(Json(TemplateTranslation {
        template_type: reference.template_type.to_owned(),
        id: reference.id,
        location: reference.location,
        language: code.to_owned(),
        subject: l.subject,
        body: l.body,
        source: l.source.to_owned(),
        revision: l.revision,
    }))
}

async fn save_template_language(
    State(state): State<AppState>,
    user: Admin,
    peer: ClientAddr,
    ApiJson(body): ApiJson<TemplateTranslation>,
) -> AppResult<Json<TemplateTranslation>> {
    let code = translated_language(&body.language)?;
    let key = TemplateLanguageKey {
        template_type: body.template_type.clone(),
        id: body.id,
        location: body.location,
        language: code.to_owned(),
    };
    let (reference, subject, english_body) = english_of(&state, &key).await?;
    let errors = rules::validate_translation(&body, &format!("{subject} {english_body}"));
    if !errors.is_valid() {
        return Err(AppError::Validation(errors));
    }
    let clean = sanitised("Body", &body.body)?;
    let new_subject = body.subject.trim();
    let mut tx = state.db.begin().await?;
    let old = languages::translation_in(
        &mut tx,
        reference.template_type,
        reference.id,
        reference.location,
        code,
    )
    .await?;
    if !languages::save_translation(
        &mut tx,
        reference.template_type,
        reference.id,
        reference.location,
        code,
        body.revision,
        new_subject,
        &clean,
    )
    .await?
    {
        return Err(AppError::Conflict(TEMPLATE_STALE.to_owned()));
    }
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::NotificationTemplateSaved,
        Target {
            target_type: Some("NotificationTemplateLanguage"),
            target_id: Some(format!(
                "{}:{}:{}:{code}",
                reference.template_type, reference.id, reference.location
            )),
            target_user_id: None,
        },
        old.map(|o| json!({"Language": code, "Subject": o.subject, "Body": o.body})),
        Some(json!({"Language": code, "Subject": new_subject, "Body": clean})),
        Some(peer.ip().to_string()),
    )
    .await?;
    let saved = languages::translation_in(
        &mut tx,
        reference.template_type,
        reference.id,
        reference.location,
        code,
    )
    .await?
    .ok_or(AppError::NotFound)?;
    tx.commit().await?;
    Ok(Json(TemplateTranslation {
        template_type: reference.template_type.to_owned(),
        id: reference.id,
        location: reference.location,
        language: code.to_owned(),
        subject: saved.subject,
        body: saved.body,
        source: notice_languages::SOURCE_CLINIC.to_owned(),
        revision: saved.revision,
    }))
}
