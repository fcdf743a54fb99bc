//! The survey integrations at work (spec 04 §2 "Survey integrations", issue 17): on Survey Start
//! (the first save of a run) and Survey Submit the portal
//!
//! - writes a Maglink interface queue file (SurveyMaglinkIntegrations; [`deliver::maglink`]),
//! - posts each active webhook (SurveyWebhookIntegration; [`deliver::webhook`]),
//! - runs the chosen survey actions (SurveyActions and SurveyPowerscribeIntegrations; the
//!   registry is wasm-core's `exam_actions`, the portal's own ones run in [`actions`]).
//!
//! Nothing is sent inside the request: [`on_survey_event`] stores one `integration_deliveries`
//! row per target in the transaction that saves the answers, under an idempotency key made of
//! the event and the run's ChangeId, so a replayed submit never stores a second one. The
//! Integration Service (services registry) claims due rows, delivers them, logs every attempt
//! with its status code and retries failures with backoff; a failure is in the service status
//! and the Error Logs.

pub mod actions;
pub mod deliver;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use wasm_core::exam_actions::{is_portal_action, PORTAL_SEND_TO_QUEUE};
use wasm_core::model::{Answers, SurveyDefinition};
use wasm_core::settings::survey_actions::{split_actions, SurveyActions};
use wasm_core::settings::survey_maglink_integrations::SurveyMaglinkIntegrations;
use wasm_core::settings::survey_powerscribe_integrations::SurveyPowerscribeIntegrations;
use wasm_core::settings::survey_webhook_integration::SurveyWebhookIntegration;
use wasm_core::survey_integration::{
    answered_questions, data_value, hl7_oru_r01, queue_file_name, DataValue, SurveyEventFacts,
    DATA_KEYS, EVENT_SURVEY_START, EVENT_SURVEY_SUBMIT, MESSAGE_TYPE_JSON,
};

use crate::db::{Db, Tx};
use crate::error::{AppError, AppResult};
use crate::settings;
use crate::store::integrations::{self as store, NewDelivery};
use crate::store::surveys::QueueRun;

pub use deliver::{deliver_due, DeliveryReport};

pub const KIND_MAGLINK: &str = "Maglink";
pub const KIND_WEBHOOK: &str = "Webhook";
pub const KIND_ACTION: &str = "Action";

/// A Maglink delivery: the file to write, fixed at the event.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct QueueFile {
    pub folder: String,
    pub file_name: String,
    pub content: String,
}

/// A webhook delivery: the request, fixed at the event; the credential is the webhook's own,
/// read at delivery by the webhook's id (it is stored encrypted in the settings, never copied
/// here).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct WebhookRequest {
    /// The webhook's `Id` (empty in rows stored before webhooks had one).
    #[serde(default)]
    pub webhook_id: String,
    pub url: String,
    pub authorization_type: String,
    pub authorization_name: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

/// An action delivery.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct ActionRun {
    pub class_name: String,
    pub event: String,
    pub survey_queue_id: i64,
}

/// The facts of a survey event: the run's patient and study (read before the transaction;
/// they do not change with the answers) and the answers being saved.
pub async fn event_facts(
    db: &Db,
    run: &QueueRun,
    def: &SurveyDefinition,
    answers: &Answers,
    event: &str,
    now: i64,
) -> AppResult<SurveyEventFacts> {
    let facts = crate::store::surveys::summary_facts(db, run.id).await?;
    let stamp = crate::fmt::iso_utc(now);
    let occurred_at: String = stamp
        .chars()
        .filter(char::is_ascii_digit)
        .take(14)
        .collect();
    Ok(SurveyEventFacts {
        event: event.to_owned(),
        survey_queue_id: run.id,
        survey_log_id: run.log_id.unwrap_or(0),
        survey_id: def.id.clone(),
        survey_name: wasm_core::survey::local_text(&def.name, "en"),
        mrn: facts.as_ref().map(|f| f.mrn.clone()).unwrap_or_default(),
        first_name: facts
            .as_ref()
            .map(|f| f.first_name.clone())
            .unwrap_or_default(),
        last_name: facts
            .as_ref()
            .map(|f| f.last_name.clone())
            .unwrap_or_default(),
        dob: facts.and_then(|f| f.dob).unwrap_or_default(),
        occurred_at,
        answers: answered_questions(def, answers),
    })
}

/// Stores the deliveries of one survey event in `tx` (the transaction saving the answers).
/// `key` names the event once (e.g. "SurveySubmit:12:change-id"); a replay stores nothing new.
/// Returns how many rows were stored.
pub async fn on_survey_event(
    tx: &mut Tx,
    facts: &SurveyEventFacts,
    key: &str,
    now: i64,
) -> AppResult<usize> {
    let start = facts.event == EVENT_SURVEY_START;
    let mut rows: Vec<NewDelivery> = Vec::new();
    let delivery =
        |kind: &'static str, target: String, id: &str, payload: String, test| NewDelivery {
            kind,
            event: facts.event.clone(),
            target,
            idempotency_key: format!("{key}:{kind}:{id}"),
            survey_queue_id: Some(facts.survey_queue_id),
            payload,
            test_mode: test,
        };

    // Maglink (and the action that asks for the same file).
    let maglink = settings::get_in::<SurveyMaglinkIntegrations>(tx).await?;
    let (queue_on, folder, message_type) = if start {
        (
            maglink.is_interface_queue_enabled_for_survey_start,
            maglink.interface_queue_path_for_survey_start.clone(),
            maglink
                .interface_queue_message_type_for_survey_start
                .clone(),
        )
    } else {
        (
            maglink.is_interface_queue_enabled_for_survey_submit,
            maglink.interface_queue_path_for_survey_submit.clone(),
            maglink
                .interface_queue_message_type_for_survey_submit
                .clone(),
        )
    };
    let actions = chosen_actions(tx, start).await?;
    let queue_by_action = actions.iter().any(|a| a == PORTAL_SEND_TO_QUEUE);
    if queue_on || queue_by_action {
        let file = queue_file(facts, key, &folder, &message_type)?;
        rows.push(delivery(
            KIND_MAGLINK,
            folder.trim().to_owned(),
            "queue",
            to_json(&file)?,
            false,
        ));
    }

    // Webhooks: Survey Submit only (issue 17).
    if !start {
        let hooks = settings::get_in::<SurveyWebhookIntegration>(tx).await?;
        for (i, hook) in hooks.web_hooks.iter().enumerate() {
            if !hook.is_active {
                continue;
            }
            let request = WebhookRequest {
                webhook_id: hook.id.clone(),
                url: hook.url.trim().to_owned(),
                authorization_type: hook.authorization_type.clone(),
                authorization_name: hook.authorization_name.clone(),
                headers: hook
                    .headers
                    .iter()
                    .filter(|h| !h.name.trim().is_empty())
                    .map(|h| (h.name.trim().to_owned(), h.value.clone()))
                    .collect(),
                body: webhook_body(facts, &hook.parameters)?,
            };
            // The webhook's id names it in the key (its place in the list, before it had one).
            let name = if hook.id.is_empty() {
                i.to_string()
            } else {
                hook.id.clone()
            };
            rows.push(delivery(
                KIND_WEBHOOK,
                request.url.clone(),
                &name,
                to_json(&request)?,
                hook.is_test_mode,
            ));
        }
    }

    // Survey actions: the portal's own run here; MagView's are logged as handed over.
    for class_name in actions {
        if class_name == PORTAL_SEND_TO_QUEUE {
            continue; // the Maglink row above
        }
        let run = ActionRun {
            class_name: class_name.clone(),
            event: facts.event.clone(),
            survey_queue_id: facts.survey_queue_id,
        };
        rows.push(delivery(
            KIND_ACTION,
            class_name.clone(),
            &class_name,
            to_json(&run)?,
            false,
        ));
    }

    let mut stored = 0;
    for row in &rows {
        if store::insert(tx, row, now).await?.is_some() {
            stored += 1;
        }
    }
    Ok(stored)
}

/// The actions chosen for the event: SurveyActions' list and the Powerscribe form's one, each
/// when its switch is on, without repeats.
async fn chosen_actions(tx: &mut Tx, start: bool) -> AppResult<Vec<String>> {
    let a = settings::get_in::<SurveyActions>(tx).await?;
    let p = settings::get_in::<SurveyPowerscribeIntegrations>(tx).await?;
    let mut out = Vec::new();
    let (a_on, a_list, p_on, p_one) = if start {
        (
            a.call_mv_api_action_when_survey_start,
            a.mv_api_action_when_survey_start,
            p.is_call_mv_api_action_when_survey_start,
            p.mv_api_action_when_survey_start,
        )
    } else {
        (
            a.call_mv_api_action_when_survey_end,
            a.mv_api_action_when_survey_end,
            p.is_call_mv_api_action_when_survey_end,
            p.mv_api_action_when_survey_end,
        )
    };
    if a_on {
        out.extend(split_actions(&a_list));
    }
    if p_on {
        for c in split_actions(&p_one) {
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    Ok(out)
}

/// Lower-case hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn to_json<T: Serialize>(value: &T) -> AppResult<String> {
    serde_json::to_string(value).map_err(AppError::internal)
}

/// The queue file of an event in the configured type (HL7 ORU^R01 unless JSON).
fn queue_file(
    facts: &SurveyEventFacts,
    key: &str,
    folder: &str,
    message_type: &str,
) -> AppResult<QueueFile> {
    // The message control id comes from the event's key: a retried write is the same file.
    let control_id = hex(&Sha256::digest(key.as_bytes())[..10]);
    let content = if message_type == MESSAGE_TYPE_JSON {
        let mut v = serde_json::to_value(facts).map_err(AppError::internal)?;
        v["MessageType"] = serde_json::Value::from(MESSAGE_TYPE_JSON);
        v["MessageControlId"] = serde_json::Value::from(control_id.clone());
        serde_json::to_string_pretty(&v).map_err(AppError::internal)?
    } else {
        hl7_oru_r01(facts, &control_id)
    };
    Ok(QueueFile {
        folder: folder.trim().to_owned(),
        file_name: queue_file_name(&facts.event, &control_id, message_type),
        content,
    })
}

/// The webhook's JSON body: each parameter's name with its data key's value; with no
/// parameters, every data key under its own name.
fn webhook_body(
    facts: &SurveyEventFacts,
    parameters: &[wasm_core::settings::survey_webhook_integration::WebHookParameter],
) -> AppResult<String> {
    let pairs: Vec<(String, String)> = if parameters.is_empty() {
        DATA_KEYS
            .iter()
            .map(|k| ((*k).to_owned(), (*k).to_owned()))
            .collect()
    } else {
        parameters
            .iter()
            .filter(|p| !p.value.trim().is_empty())
            .map(|p| (p.value.trim().to_owned(), p.key.clone()))
            .collect()
    };
    let mut body = serde_json::Map::new();
    for (name, key) in pairs {
        let value = match data_value(facts, &key) {
            Some(DataValue::Text(t)) => serde_json::Value::from(t),
            Some(DataValue::Number(n)) => serde_json::Value::from(n),
            Some(DataValue::Answers(a)) => serde_json::to_value(a).map_err(AppError::internal)?,
            None => serde_json::Value::Null,
        };
        body.insert(name, value);
    }
    to_json(&body)
}

/// Whether the portal runs the class itself (else the row records the hand-over to MagView).
pub fn runs_in_portal(class_name: &str) -> bool {
    is_portal_action(class_name)
}

/// The event name of a submit (used by the runs' hook and the tests).
pub const SUBMIT: &str = EVENT_SURVEY_SUBMIT;
pub const START: &str = EVENT_SURVEY_START;
