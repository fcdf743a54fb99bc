//! History Portal actions (spec 01 §2.6, §4): re-send the assignment notice, Ready For Exam.
//! Notices go through the one outbox; the rules for when a button works are wasm-core's
//! `history_portal::survey_actions`, enforced here as well as shown in the page.

use axum::extract::State;
use axum::Json;
use serde_json::json;
use wasm_core::history_portal::{self, LIMIT_REACHED};
use wasm_core::model::{
    IdQuery, IsExpiredResult, ReadyForExamRequest, ReadyForExamResult, ResendResult,
    SurveyActionInput, SurveyQueueIdQuery, SurveyStatus,
};
use wasm_core::settings::core_portal::CorePortal;
use wasm_core::settings::history_portal::HistoryPortal;
use wasm_core::survey::start;

use crate::audit::{self, Action, Actor, Target};
use crate::auth::{RequireRole, Staff};
use crate::client_addr::ClientAddr;
use crate::db::now_ms;
use crate::error::{ApiJson, ApiQuery, AppError, AppResult};
use crate::openapi::ApiRouter;
use crate::outbox::{self, Channel, OutboundMessage};
use crate::settings;
use crate::store::history_portal::actions::{self, QueueTarget};
use crate::store::surveys as store;
use crate::{fmt, AppState};

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .post(
            "/api/HistoryPortal/ResendAssignMail",
            "Queue the survey assignment notice again (?surveyQueueId); returns the last-sent time",
            resend_assign_mail,
        )
        .post(
            "/api/HistoryPortal/ReadyForExam",
            "Send the Ready For Exam notice of a Today row, within HistoryPortalMaxReadyForExamEmail",
            ready_for_exam,
        )
        .get(
            "/api/surveyQueue/isExpired",
            "Start check of Start Survey (?id): whether the survey has expired, with the message to show (an unfinished survey past its expiry instant is expired now, as the engine would)",
            is_expired,
        )
}

/// Start Survey's check before it opens the survey (spec 01 §7 "start checks"): the list may
/// show a row as startable that has passed its expiry instant since it was loaded. The same
/// expiry rule as the survey start applies (wasm-core survey::expiry), so the answer never
/// differs from what the survey page would say.
async fn is_expired(
    _user: RequireRole<Staff>,
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<IdQuery>,
) -> AppResult<Json<IsExpiredResult>> {
    let run = store::run_by_queue(&state.db, q.id)
        .await?
        .ok_or(AppError::NotFound)?;
    let run = super::surveys::expire_if_due(&state, run, now_ms()).await?;
    let status = SurveyStatus::parse(&run.status).filter(|s| s.is_expired());
    let decision = status.map(|s| start::start_decision(s, false, false));
    Ok(Json(match decision {
        Some(d) => IsExpiredResult {
            is_expired: true,
            title: d.title,
            message: d.message,
            title_label: d.title_label,
            message_label: d.message_label,
        },
        None => IsExpiredResult {
            is_expired: false,
            title: String::new(),
            message: String::new(),
            title_label: None,
            message_label: None,
        },
    }))
}

pub const SENT: &str = "Notification was sent successfully";
pub const NOT_SENT: &str = "Notification was not sent";

async fn load_row(state: &AppState, id: i64) -> AppResult<QueueTarget> {
    actions::target(&state.db, id)
        .await?
        .ok_or(AppError::NotFound)
}

fn action_input(row: &QueueTarget) -> SurveyActionInput {
    SurveyActionInput {
        appointment_date: row.starts_at.map(fmt::iso_utc),
        status_key: row.status.clone(),
        survey_log_id: row.survey_log_id,
        arrival_status: row.arrival_status.clone(),
        ready_for_exam_count: row.ready_for_exam_count.unwrap_or(0),
    }
}

/// Email when the patient has an address, else SMS when a phone; nothing for unsubscribed.
fn channel_for(row: &QueueTarget) -> Option<(Channel, String)> {
    if row.unsubscribed {
        return None;
    }
    let email = row
        .email
        .as_deref()
        .map(str::trim)
        .filter(|e| !e.is_empty());
    let phone = row
        .phone
        .as_deref()
        .map(str::trim)
        .filter(|p| !p.is_empty());
    match (email, phone) {
        (Some(e), _) => Some((Channel::Email, e.to_owned())),
        (None, Some(p)) => Some((Channel::Sms, p.to_owned())),
        _ => None,
    }
}

async fn resend_assign_mail(
    user: RequireRole<Staff>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiQuery(q): ApiQuery<SurveyQueueIdQuery>,
) -> AppResult<Json<ResendResult>> {
    let row = load_row(&state, q.survey_queue_id).await?;
    let actions =
        history_portal::survey_actions(&action_input(&row), -1, &fmt::iso_utc(now_ms()), 0);
    if !actions.can_resend {
        return Err(AppError::BadRequest(
            "The survey is completed or started: there is nothing to resend".to_owned(),
        ));
    }
    let Some((channel, to)) = channel_for(&row) else {
        return Ok(Json(ResendResult {
            is_sent: false,
            message: NOT_SENT.to_owned(),
            last_email_sent: row.last_email_sent_at.map(fmt::iso_utc),
        }));
    };
    let db = &state.db;
    let core = settings::get::<CorePortal>(db).await?;
    let base = core
        .public_web_address
        .trim()
        .trim_end_matches('/')
        .to_owned();
    let link = crate::survey_link::link(&base, &crate::survey_link::key(db).await?, row.id);
    let unsubscribe =
        crate::unsubscribe::link(&base, &crate::unsubscribe::key(db).await?, row.patient_id);
    // The assignment notice again, from its template in the patient's language (English when
    // the language has none), the appointment in the clinic's zone.
    let language =
        crate::store::notice_languages::patient_language(db, Some(row.patient_id)).await?;
    let when = crate::notice_words::NoticeWords::load(db)
        .await?
        .appointment_date(row.starts_at, state.clinic_utc_offset_minutes, &language);
    let values = crate::notice_templates::SurveyNoticeValues {
        client_name: core.client_name.trim(),
        base: &base,
        first_name: &row.first_name,
        last_name: &row.last_name,
        appointment_date: &when,
        survey_link: &link,
        iam_here_link: "",
        unsubscribe_link: &unsubscribe,
    };
    let Some(rendered) = crate::notice_templates::survey_assignment(db, &language, &values).await?
    else {
        // The clinic switched the assignment notice off.
        return Ok(Json(ResendResult {
            is_sent: false,
            message: NOT_SENT.to_owned(),
            last_email_sent: row.last_email_sent_at.map(fmt::iso_utc),
        }));
    };
    let message = OutboundMessage {
        patient_id: Some(row.patient_id),
        survey_queue_id: Some(row.id),
        ..crate::notice_templates::message(channel, &to, &rendered, "SurveyAssignment")
    };
    let now = now_ms();
    let mut tx = db.begin().await?;
    outbox::enqueue_in(&mut tx, &message, now).await?;
    actions::mark_notice_sent(&mut tx, row.id, now).await?;
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::SurveyNotificationResent,
        Target {
            target_type: Some("SurveyQueue"),
            target_id: Some(row.id.to_string()),
            target_user_id: None,
        },
        None,
        Some(json!({ "Channel": channel.key() })),
        Some(peer.ip().to_string()),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(ResendResult {
        is_sent: true,
        message: SENT.to_owned(),
        last_email_sent: Some(fmt::iso_utc(now)),
    }))
}

async fn ready_for_exam(
    user: RequireRole<Staff>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(req): ApiJson<ReadyForExamRequest>,
) -> AppResult<Json<ReadyForExamResult>> {
    let row = load_row(&state, req.survey_queue_id).await?;
    let max = settings::get::<HistoryPortal>(&state.db)
        .await?
        .history_portal_max_ready_for_exam_email as i64;
    let offset = req.timezone_offset.clamp(-1080, 1080);
    let actions =
        history_portal::survey_actions(&action_input(&row), max, &fmt::iso_utc(now_ms()), offset);
    if !actions.ready_for_exam_enabled {
        let limit = history_portal::ready_for_exam_limit_reached(
            row.ready_for_exam_count.unwrap_or(0),
            max,
        );
        return Err(AppError::BadRequest(
            if limit {
                LIMIT_REACHED
            } else {
                "Ready For Exam is not available for this survey"
            }
            .to_owned(),
        ));
    }
    let appointment_id = row.appointment_id.ok_or(AppError::NotFound)?;
    // The notice from its Notification Template (none active: no notice).
    let name = format!("{} {}", row.first_name, row.last_name);
    let values = [
        ("PatientName", name.as_str()),
        ("PatientFirstName", row.first_name.as_str()),
        ("PatientLastName", row.last_name.as_str()),
    ];
    let language =
        crate::store::notice_languages::patient_language(&state.db, Some(row.patient_id)).await?;
    let rendered =
        crate::notice_templates::portal_notice(&state.db, "ReadyForExam", &language, &values)
            .await?
            .map(|(r, _)| r);
    let mut tx = state.db.begin().await?;
    // Count first, guarded by the limit, so two clicks racing cannot pass it.
    if !actions::count_ready_for_exam(&mut tx, appointment_id, max).await? {
        return Err(AppError::BadRequest(LIMIT_REACHED.to_owned()));
    }
    if let (Some((channel, to)), Some(rendered)) = (channel_for(&row), rendered) {
        let message = OutboundMessage {
            patient_id: Some(row.patient_id),
            survey_queue_id: Some(row.id),
            ..crate::notice_templates::message(channel, &to, &rendered, "ReadyForExam")
        };
        outbox::enqueue_in(&mut tx, &message, now_ms()).await?;
    }
    let count = row.ready_for_exam_count.unwrap_or(0) + 1;
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::ReadyForExamSent,
        Target {
            target_type: Some("SurveyQueue"),
            target_id: Some(row.id.to_string()),
            target_user_id: None,
        },
        None,
        Some(json!({ "ReadyForExamCount": count })),
        Some(peer.ip().to_string()),
    )
    .await?;
    tx.commit().await?;
    let message = if max < 0 {
        String::new()
    } else if count >= max {
        LIMIT_REACHED.to_owned()
    } else {
        format!("Sent {count} of {max} notifications")
    };
    Ok(Json(ReadyForExamResult {
        ready_for_exam_count: count,
        max,
        arrival_status: "ReadyForExam".to_owned(),
        message,
    }))
}
