//! The notifications engine (spec 01 §2.6 "timer service"; spec 03 HistoryPortal group): one
//! pass ([`run_once`]) at a given instant decides what is due and queues it in the outbox —
//! survey assignment notices and reminders (only on business days inside the reminder hours),
//! the I Am Here link X hours before the appointment — and expires unfinished surveys and old
//! I Am Here links. Rules are wasm-core's `notify_schedule`.
//!
//! Several API instances may run it against one PostgreSQL at once: every notice is queued
//! with `outbox::enqueue_once` under a key naming the notice (e.g. `remind:17:2:Email`), and the
//! outbox's unique key makes the second instance's insert a no-op, so each notice is stored —
//! and, with the outbox's `FOR UPDATE SKIP LOCKED` claims, delivered — exactly once. Expiries
//! are idempotent set-based UPDATEs. On SQLite there is one writer at a time.

use wasm_core::notice_templates::render_notice;
use wasm_core::notify_schedule::{self as rules, BusinessWindow};
use wasm_core::settings::core_portal::CorePortal;
use wasm_core::settings::history_portal::HistoryPortal;

use crate::db::Db;
use crate::error::AppResult;
use crate::fmt;
use crate::outbox::{self, Channel, OutboundMessage};
use crate::settings;
use crate::store::notice_templates::{self as templates, PortalTemplateRow};
use crate::store::notifications as store;

/// Where the clinic is (business days and hours are local to it).
#[derive(Debug, Clone, Copy, Default)]
pub struct EngineConfig {
    pub clinic_offset_minutes: i32,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct EngineReport {
    pub assignments: usize,
    pub reminders: usize,
    pub iam_here: usize,
    pub expired_surveys: u64,
    pub expired_iam_here: u64,
    /// Letter emails queued (their hold and delay passed).
    pub letters: usize,
}

/// The portal template types (spec 03 Notification Templates) of the engine's notices.
pub const SURVEY_ASSIGNMENT: &str = "SurveyAssignment";
pub const SURVEY_REMINDER: &str = "SurveyReminder";
pub const IAM_HERE: &str = "IamHere";

/// The channels of a notification block: none while its master switch is off.
fn channels(master: bool, email: bool, sms: bool) -> Vec<Channel> {
    let mut out = Vec::new();
    if master && email {
        out.push(Channel::Email);
    }
    if master && sms {
        out.push(Channel::Sms);
    }
    out
}

/// A notice to queue: dedupe key, kind, channels.
type Notice<'a> = (String, &'a str, &'a [Channel]);

/// The active template of each of the engine's notices (None: that notice is switched off).
struct Templates(Vec<(&'static str, Option<PortalTemplateRow>)>);

impl Templates {
    async fn load(db: &Db) -> AppResult<Templates> {
        let mut out = Vec::new();
        for kind in [SURVEY_ASSIGNMENT, SURVEY_REMINDER, IAM_HERE] {
            out.push((kind, templates::active_template(db, kind).await?));
        }
        Ok(Templates(out))
    }

    fn get(&self, kind: &str) -> Option<&PortalTemplateRow> {
        self.0
            .iter()
            .find(|(k, _)| *k == kind)
            .and_then(|(_, t)| t.as_ref())
    }
}
/// The imaging-system email template (Notification Templates, spec 03 §2 email-service) of a
/// letter's kind: its type's template for the letter's location, else the one for every location.
pub fn letter_template_type(letter_type: &str) -> &'static str {
    match wasm_core::documents::letter_kind(letter_type) {
        wasm_core::documents::LetterKind::ReferringPhysician => "ReferringPhysician",
        wasm_core::documents::LetterKind::Notification => "Notification",
        wasm_core::documents::LetterKind::Recall => "Recall",
        wasm_core::documents::LetterKind::Other => "Unknown",
    }
}

/// Letters are emailed in batches of this many per pass.
const LETTER_BATCH: i64 = 500;

/// The emails letters are owed, each once its results hold and the Emails/Letters Delay allow
/// (wasm-core `documents_hold`, spec 03 §3): queued under `letter:{id}:Email`, so a second engine
/// instance or a retried pass queues none twice. A letter hidden for good owes one until the
/// rules change. Its kind (ReferringPhysician, Notification, Recall, else Letter) is what
/// DisabledResultsPortalLocations stops at the outbox.
async fn letter_emails(db: &Db, now: i64, config: EngineConfig, base: &str) -> AppResult<usize> {
    let hold = crate::letter_hold::LetterHold::load(db, config.clinic_offset_minutes).await?;
    let core: CorePortal = settings::get(db).await?;
    let context = LetterContext {
        client_name: core.client_name.trim().to_owned(),
        base: base.to_owned(),
        today: fmt::date(now, config.clinic_offset_minutes),
        unsubscribe_key: crate::unsubscribe::key(db).await?,
    };
    let mut queued = 0;
    // Page by id: letters still held must not keep the ones behind them waiting.
    let mut after = 0;
    loop {
        let letters = crate::store::documents::letters_to_email(db, after, LETTER_BATCH).await?;
        let Some(last) = letters.last() else { break };
        after = last.id;
        let full = letters.len() as i64 == LETTER_BATCH;
        queued += email_letters(db, now, &hold, &context, letters).await?;
        if !full {
            break;
        }
    }
    Ok(queued)
}

/// What every letter email of a pass shares.
struct LetterContext {
    client_name: String,
    base: String,
    today: String,
    unsubscribe_key: crate::unsubscribe::UnsubscribeKey,
}

async fn email_letters(
    db: &Db,
    now: i64,
    hold: &crate::letter_hold::LetterHold,
    context: &LetterContext,
    letters: Vec<crate::store::documents::LetterToEmail>,
) -> AppResult<usize> {
    let mut queued = 0;
    for l in letters {
        if !hold
            .decide(&l.letter_type, l.bi_rads.as_deref(), l.sent_at)
            .email_due_at(now)
        {
            continue;
        }
        let to = l.email.as_deref().map(str::trim).filter(|t| !t.is_empty());
        if let Some(to) = to {
            let kind = match wasm_core::documents::letter_kind(&l.letter_type) {
                wasm_core::documents::LetterKind::ReferringPhysician => "ReferringPhysician",
                wasm_core::documents::LetterKind::Notification => "Notification",
                wasm_core::documents::LetterKind::Recall => "Recall",
                wasm_core::documents::LetterKind::Other => "Letter",
            };
            let name = format!("{} {}", l.first_name, l.last_name);
            let login = format!("{}/patient/login", context.base);
            let unsubscribe =
                crate::unsubscribe::link(&context.base, &context.unsubscribe_key, l.patient_id);
            let tokens = [
                ("ClientName", context.client_name.as_str()),
                ("PortalLink", context.base.as_str()),
                ("CurrentDate", context.today.as_str()),
                ("PatientName", name.as_str()),
                ("PatientFirstName", l.first_name.as_str()),
                ("PatientLastName", l.last_name.as_str()),
                ("MRN", l.mrn.as_str()),
                ("Username", l.username.as_deref().unwrap_or_default()),
                ("Location", l.location_name.as_deref().unwrap_or_default()),
                ("LoginLink", login.as_str()),
                ("UnsubscribeLink", unsubscribe.as_str()),
            ];
            // The template of the letter's type for its location (values HTML-escaped in the
            // HTML part, plain in the text part: wasm-core's one rendering rule).
            let Some(rendered) = crate::notice_templates::letter_notice(
                db,
                letter_template_type(&l.letter_type),
                l.location_id,
                &l.language,
                &tokens,
            )
            .await?
            else {
                // Templates are edited, never deleted: the email stays owed until one exists.
                tracing::warn!(letter = l.id, "no email template for the letter's type");
                continue;
            };
            let mut message = crate::notice_templates::message(Channel::Email, to, &rendered, kind);
            message.patient_id = Some(l.patient_id);
            if outbox::enqueue_once(db, &message, &format!("letter:{}:Email", l.id), now)
                .await?
                .is_some()
            {
                queued += 1;
            }
        }
        crate::store::documents::mark_emailed(db, l.id, now).await?;
    }
    Ok(queued)
}

/// One pass at `now`.
pub async fn run_once(db: &Db, now: i64, config: EngineConfig) -> AppResult<EngineReport> {
    let hp: HistoryPortal = settings::get(db).await?;
    let core: CorePortal = settings::get(db).await?;
    let base = core
        .public_web_address
        .trim()
        .trim_end_matches('/')
        .to_owned();
    let mut report = EngineReport::default();

    // Expiries first: nothing is sent for a survey or link that has just expired.
    // The one expiry rule (wasm-core survey::expiry): expires_at(appt) <= now <=> appt <= now - offset.
    let cutoff = now - settings::expiry_rule(db).await?.offset_ms();
    report.expired_surveys = store::expire_open_surveys(db, now, cutoff).await?;
    let after_ms = (hp.history_portal_expire_i_am_here_button_in_x_hours_after_appointment
        * 3_600_000.0) as i64;
    report.expired_iam_here = store::expire_iam_here_links(db, now - after_ms).await?;
    report.letters = letter_emails(db, now, config, &base).await?;

    let survey_channels = channels(
        hp.enable_sending_history_portal_notifications,
        hp.enable_history_portal_notifications_by_email,
        hp.enable_history_portal_notifications_by_sms,
    );
    let iam_channels = channels(
        hp.enable_sending_iam_here_notifications && !hp.is_disabled_iam_here,
        hp.enable_iam_here_notifications_by_email,
        hp.enable_iam_here_notifications_by_sms,
    );
    if survey_channels.is_empty() && iam_channels.is_empty() {
        return Ok(report);
    }
    let days = rules::parse_days(&hp.history_portal_remind_x_days_before_appt);
    let until_hours = hp.history_portal_remind_until_x_hours_before_appt;
    let iam_hours = hp.history_portal_send_i_am_here_x_hours_before_appointment;
    let mut business = [false; 7];
    for (i, d) in hp.history_portal_business_days.iter().take(7).enumerate() {
        business[i] = *d;
    }
    let window = BusinessWindow {
        days: business,
        start_hour: hp.history_portal_survey_reminder_start_time,
        end_hour: hp.history_portal_survey_reminder_end_time,
        offset_minutes: config.clinic_offset_minutes,
    };
    let in_window = window.contains(now);
    let horizon = i64::from(days.iter().copied().max().unwrap_or(0)) * 86_400_000 + 86_400_000;
    let candidates =
        store::reminder_candidates(db, now, now + horizon.max((iam_hours * 3_600_000.0) as i64))
            .await?;

    let templates = Templates::load(db).await?;
    let client_name = core.client_name.trim().to_owned();
    let unsubscribe_key = crate::unsubscribe::key(db).await?;
    let link_key = crate::survey_link::key(db).await?;
    let words = crate::notice_words::NoticeWords::load(db).await?;
    for c in candidates {
        // In the patient's language, like the template's text (the weekday and month names).
        let when = words.appointment_date(
            Some(c.appt_starts_at),
            config.clinic_offset_minutes,
            &c.language,
        );
        let survey_link = crate::survey_link::link(&base, &link_key, c.id);
        let iam_link = c
            .iam_here_token
            .as_deref()
            .map(|t| format!("{base}/iamhere?token={t}"))
            .unwrap_or_default();
        let unsubscribe = crate::unsubscribe::link(&base, &unsubscribe_key, c.patient_id);
        let values = crate::notice_templates::SurveyNoticeValues {
            client_name: &client_name,
            base: &base,
            first_name: &c.first_name,
            last_name: &c.last_name,
            appointment_date: &when,
            survey_link: &survey_link,
            iam_here_link: &iam_link,
            unsubscribe_link: &unsubscribe,
        }
        .tokens();
        let tokens = crate::notice_templates::token_refs(&values);
        let open = matches!(c.status.as_str(), "Assigned" | "IntermediateSave");
        let mut notices: Vec<Notice> = Vec::new();
        if open && in_window {
            if c.status == "Assigned" {
                notices.push((
                    format!("assign:{}", c.id),
                    SURVEY_ASSIGNMENT,
                    &survey_channels,
                ));
            }
            if let Some(x) = rules::due_reminder(now, c.appt_starts_at, &days, until_hours) {
                notices.push((
                    format!("remind:{}:{x}", c.id),
                    SURVEY_REMINDER,
                    &survey_channels,
                ));
            }
        }
        if let Some(appointment) = c.appointment_id {
            if !iam_link.is_empty() && rules::iam_here_due(now, c.appt_starts_at, iam_hours) {
                notices.push((format!("iamhere:{appointment}"), IAM_HERE, &iam_channels));
            }
        }
        for (key, kind, chans) in notices {
            // The notice's template; none active switches it off, and one marked "send during
            // business hours" waits for the History Portal business window.
            let Some(template) = templates.get(kind) else {
                continue;
            };
            if template.is_send_during_business_hours && !in_window {
                continue;
            }
            // In the patient's language (the clinic's text, the shipped one, else English).
            let (subject, body) =
                crate::notice_templates::portal_text(db, template, &c.language).await?;
            let rendered = render_notice(&subject, &body, &tokens);
            for channel in chans.iter().copied() {
                let to = match channel {
                    Channel::Email => c.email.as_deref(),
                    Channel::Sms => c.phone.as_deref(),
                }
                .map(str::trim)
                .filter(|t| !t.is_empty());
                let Some(to) = to else { continue };
                let message = OutboundMessage {
                    patient_id: Some(c.patient_id),
                    survey_queue_id: Some(c.id),
                    ..crate::notice_templates::message(channel, to, &rendered, kind)
                };
                if outbox::enqueue_once(db, &message, &format!("{key}:{}", channel.key()), now)
                    .await?
                    .is_some()
                {
                    match kind {
                        SURVEY_ASSIGNMENT => report.assignments += 1,
                        SURVEY_REMINDER => report.reminders += 1,
                        _ => report.iam_here += 1,
                    }
                }
            }
        }
    }
    Ok(report)
}
