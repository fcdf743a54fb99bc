//! The portal's own survey actions (wasm-core `exam_actions`, `Portal.Actions.*`), run by the
//! Integration Service on Survey Start / Survey End. Portal.Actions.SendSurveyToQueue is a
//! Maglink delivery of its own (mod.rs); MagView's actions are recorded as handed over.

use wasm_core::exam_actions::{
    PORTAL_GENERATE_SUMMARY_LETTER, PORTAL_MARK_STUDY_READY, PORTAL_NOTIFY_FRONT_DESK,
};
use wasm_core::settings::core_notifications::CoreNotifications;

use super::deliver::Attempt;
use super::ActionRun;
use crate::db::Db;
use crate::outbox::{self, OutboundMessage};
use crate::settings;
use crate::store::integrations::{self as store, DeliveryRow};

/// The Email Logs type of the front desk notice.
pub const FRONT_DESK_NOTICE: &str = "SurveyFrontDeskNotice";

pub(super) async fn run(db: &Db, row: &DeliveryRow) -> Attempt {
    let action: ActionRun = match serde_json::from_str(&row.payload) {
        Ok(a) => a,
        Err(e) => return Attempt::failed(None, format!("stored action unreadable: {e}")),
    };
    let id = action.survey_queue_id;
    let result: Result<String, String> = match action.class_name.as_str() {
        PORTAL_GENERATE_SUMMARY_LETTER => crate::routes::surveys::summary_letter(db, id, true)
            .await
            .map(|_| "summary letter stored".to_owned())
            .map_err(|e| format!("summary letter not made: {e}")),
        PORTAL_MARK_STUDY_READY => match store::mark_appointment_ready(db, id).await {
            Ok(true) => Ok("appointment marked ReadyForExam".to_owned()),
            Ok(false) => Ok("the survey has no appointment: nothing to mark".to_owned()),
            Err(e) => Err(e.to_string()),
        },
        PORTAL_NOTIFY_FRONT_DESK => notify_front_desk(db, row, &action).await,
        other if super::runs_in_portal(other) => Err(format!("no runner for {other}")),
        other => Ok(format!(
            "{other} runs in MagView: handed over, not run by the portal"
        )),
    };
    match result {
        Ok(detail) => Attempt::ok("Done", None, detail),
        Err(detail) => Attempt::failed(None, detail),
    }
}

/// An email to the clinic's notification address (CoreNotifications AdminEmail) through the
/// outbox, once per delivery (its key is the outbox dedupe key).
async fn notify_front_desk(
    db: &Db,
    row: &DeliveryRow,
    action: &ActionRun,
) -> Result<String, String> {
    let to = settings::get::<CoreNotifications>(db)
        .await
        .map_err(|e| e.to_string())?
        .admin_email;
    if to.trim().is_empty() {
        return Err("no AdminEmail in the notification settings to notify".to_owned());
    }
    let what = if action.event == super::START {
        "started"
    } else {
        "submitted"
    };
    let text = format!(
        "A patient {what} a survey (survey queue row {}). Open the History Portal to follow it.",
        action.survey_queue_id
    );
    let mut message =
        OutboundMessage::email(&to, &format!("Survey {what}"), &text, FRONT_DESK_NOTICE);
    message.survey_queue_id = None;
    outbox::enqueue_once(db, &message, &row.idempotency_key, crate::db::now_ms())
        .await
        .map(|_| format!("front desk notice queued for {to}"))
        .map_err(|e| e.to_string())
}
