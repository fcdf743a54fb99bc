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
};
use wasm_core::notice_templates as rules;

use crate::audit::{self, Action, Actor, Target};
use crate::auth::roles::SettingsAdmins;
use crate::auth::RequireRole;
use crate::client_addr::ClientAddr;
use crate::error::{ApiJson, ApiQuery, AppError, AppResult};
use crate::notice_templates::sanitise_template_html;
use crate::openapi::ApiRouter;
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
