//! Named settings groups (spec 03 §3), one JSON document each. This foundation reads the few
//! values the shell needs; defaults are inserted at start-up for any group that is missing, so
//! every reader finds a document. Admin editing (with wasm-core validation and versions) comes later.

use serde_json::{json, Value};

use wasm_core::survey::expiry::ExpiryRule;

use crate::db::{now_ms, Db};
use crate::error::AppResult;
use crate::on_db;

pub const CORE_PORTAL: &str = "CorePortal";
pub const LICENSE: &str = "License";
pub const HISTORY_PORTAL: &str = "HistoryPortal";
pub const USER_ACCOUNT_PASSWORD: &str = "UserAccountPassword";
pub const CORE_NOTIFICATIONS: &str = "CoreNotifications";
/// User administration options (spec 02 §3 "Configuration").
pub const USER_MANAGEMENT: &str = "UserManagement";
pub const DOCUMENTS_ESSENTIAL: &str = "DocumentsEssential";
pub const DOCUMENTS_COLUMN_TITLE: &str = "DocumentsColumnTitle";
pub const DOCUMENTS_OTHER: &str = "DocumentsOther";
pub const DOCUMENTS_HIDING: &str = "DocumentsHidingEmailNotSending";
/// Spec 03 §3: phone verification limits (0 = no limit / never expires, spec 03 §9).
pub const USER_ACCOUNT_VERIFICATION: &str = "UserAccountUserAccountVerification";
pub const USER_ACCOUNT_PATIENT_PORTAL_OPTIONS: &str = "UserAccountPatientPortalOptions";
/// Survey general settings (spec 04 §3; GET/POST /api/surveySettings/generalSettings).
pub const SURVEY_GENERAL: &str = "SurveyGeneral";

/// Session length when CorePortal does not say (minutes).
pub const DEFAULT_SESSION_TIMEOUT_MINUTES: i64 = 20;

pub fn defaults() -> Vec<(&'static str, Value)> {
    vec![
        (
            USER_MANAGEMENT,
            json!({
                "UserManagementViewMode": "Regular",
                "IsImpersonationEnabled": true,
                "EnableDemoMode": false,
                "IsAdminPinAndLocationsRestrictionsEnabled": false
            }),
        ),
        (
            CORE_PORTAL,
            json!({
                "ClientName": "Demo Breast Imaging",
                "PublicWebAddress": "",
                "SessionTimeoutMinutes": DEFAULT_SESSION_TIMEOUT_MINUTES,
                "WarnBeforeSessionTimeoutMinutes": 2,
                "SessionTimeoutRedirectLink": "",
                "CountOfRetriesInCaseDeadlock": 3,
                "DelayInMillisecondsBetweenRetriesInCaseDeadlock": 200,
                "IsSsoMode": false,
                "IsCernerOAuthEnabled": false,
                "DisableSecondaryRecoveryOptions": false
            }),
        ),
        (
            LICENSE,
            json!({ "Module_Documents": true, "Module_Appointments": true, "Module_MedicalHistory": true }),
        ),
        (
            HISTORY_PORTAL,
            json!({
                "HistoryPortalMaxReadyForExamEmail": -1,
                "IsDisabledIamHere": false,
                "IsHideAppointmentTimeInHistoryPortal": false
            }),
        ),
        (
            // Spec 03 "Notifications settings form": outbound email (SMTP) and SMS (Twilio-style).
            CORE_NOTIFICATIONS,
            json!({
                "EmailFrom": "",
                "EmailFromName": "",
                "UseSMTPServer": true,
                "SMTPServer": "",
                "SMTPServerCertificate": "",
                "SMTPUseSSL": false,
                "UseAltSmtpAcct": false,
                "UserName": "",
                "Password": "",
                "Port": 25,
                "Timeout": 30,
                "IsErrorEmailEnabled": false,
                "EmailToSendError": "",
                "TwilioAccSid": "",
                "TwilioAuthToken": "",
                "TwilioFrom": "",
                "TwilioCallbackUrl": "",
                "AzureTwilioEndpoint": ""
            }),
        ),
        (
            USER_ACCOUNT_PASSWORD,
            json!({
                "UseComplexityRequirements": true,
                "LenNeeded": 8,
                "NumNeeded": 1,
                "UcaseNeeded": 1,
                "SymNeeded": 1,
                "IDFailMax": 5,
                "IDFailureURL": "",
                "ResetKeyExpirationInSeconds": 3600,
                "NewPasswordString": "New password",
                "NewPasswordAgainString": "Repeat new password",
                "ResetPasswordRedirectUrl": "",
                "DisableChangePasswordMenu": false
            }),
        ),
        (
            USER_ACCOUNT_VERIFICATION,
            json!({
                "VerificationAttemptsMax": 5,
                "VerificationCodeRequestsMax": 5,
                "VerificationCodeTimeoutInMinutes": 10,
                // Off until the clinic turns it on: with no SMS provider configured, a required
                // phone check would stop every self-registration.
                "IsPhoneNumberPatientVerificationEnabled": false,
                "IsPhoneNumberVerificationRequiredForResetPassword": false
            }),
        ),
        (
            USER_ACCOUNT_PATIENT_PORTAL_OPTIONS,
            json!({ "RequireDOB": true, "ForgotPasswordValidateDOB": true }),
        ),
        // spec 03 §3 documents groups; spec 01 §2.3 default texts.
        (
            DOCUMENTS_ESSENTIAL,
            json!({
                "ShowOtherDocumentsTab": true,
                "ShowDoctorLettersToPatients": false,
                "ShowReferringPhysicianLettersWithOtherDocuments": false,
                "DisableRSeqRDateGrouping": false,
                "DocumentsIsShowRSeqWithDocType": false,
                "ACKOnView": false,
                "AckOnViewDelay": 5,
                "DisabledResultsPortalLocations": [],
                "CombineDocViewAndReadColumns": false,
                "ShowReadColumn": true,
                "ShowAckWhenDisabled": true,
                "ShowPatNameColumn": false,
                "ShowStudyDescColumn": true,
                "ShowNotifTypeColumn": false,
                "ShowAckColumn": true,
                "ShowStudyDateColumn": true,
                "ShowDateWhenSentColumn": true,
                "IsTraceEnabled": false,
                "UCSDMode": false,
                "CompactViewDocumentsDescription": ""
            }),
        ),
        (
            DOCUMENTS_COLUMN_TITLE,
            json!({
                "DocPatNameColumnTitle": "Patient Name",
                "DocViewColumnTitle": "View",
                "DocViewWhenColumnTitle": "Date Sent",
                "DocStudyDateColTitle": "Study Date",
                "DocStudyDescColTitle": "Study Description",
                "DocTypeColumnTitle": "Letter Type",
                "DocNotifTypeColumnTitle": "Sent By",
                "DocReadColumnTitle": "Read",
                "DocAckColumnTitle": "Acknowledged",
                "OtherDocDateColTitle": "Date"
            }),
        ),
        (
            DOCUMENTS_OTHER,
            json!({
                "DocViewDateFormat": "EEEE, MMMM d, y",
                "DocViewBtnText": "View",
                "DocAckBtnText": "Acknowledge",
                "UnreadTabLabel": "Unread Letters"
            }),
        ),
        // spec 04 §3 survey general settings: the summary report and survey choice fields so far.
        (
            SURVEY_GENERAL,
            json!({
                "DefaultSurvey": "",
                "IsSurveyPerLocationEnabled": true,
                "GenerateSummaryReport": false,
                "SummaryPdfHeaderText": "",
                "IsAddPageNumberToSummaryPdf": true,
                "PdfPageNumberFontSize": 9,
                "PdfPageNumberAlignment": "Center",
                "IsAddHeaderToAllPagesToSummaryPdf": false
            }),
        ),
        (
            DOCUMENTS_HIDING,
            json!({
                "HideRPLetDays": 0,
                "HideRPLetBizDays": 0,
                "HideRPLetForever": false,
                "HideAllLettersPriorThisDate": "",
                "LetterTypesBiradSettings": [],
                "DelayEmailMultiplier": 0,
                "DelayEmailSendValue": 0
            }),
        ),
    ]
}

/// Inserts each default group that is not stored yet (existing documents are never touched).
pub async fn ensure_defaults(db: &Db) -> AppResult<()> {
    let now = now_ms();
    for (group, body) in defaults() {
        let body = body.to_string();
        on_db!(db, pool => sqlx::query(
            "INSERT INTO settings (group_name, version, body, updated_at) VALUES ($1, 1, $2, $3)
             ON CONFLICT (group_name) DO NOTHING",
        )
        .bind(group)
        .bind(&body)
        .bind(now)
        .execute(pool)
        .await.map(|_| ()))?;
    }
    invalidate(db);
    Ok(())
}

/// Merges `patch` into the stored document of `group` (its default, or `{}`, when none is
/// stored) and bumps its version. Keys not in `patch` are kept.
/// Writes a group's whole document ($1 group, $2 body, $3 now), bumping its version.
pub const UPSERT_SQL: &str = "INSERT INTO settings (group_name, version, body, updated_at) VALUES ($1, 1, $2, $3)
         ON CONFLICT (group_name) DO UPDATE SET body = $2, updated_at = $3, version = settings.version + 1";

pub async fn save_patch(
    db: &Db,
    group: &str,
    patch: &serde_json::Map<String, Value>,
) -> AppResult<()> {
    let mut doc = load(db, group).await?;
    if !doc.is_object() {
        doc = json!({});
    }
    if let Some(obj) = doc.as_object_mut() {
        for (k, v) in patch {
            obj.insert(k.clone(), v.clone());
        }
    }
    let body = doc.to_string();
    let now = now_ms();
    on_db!(db, pool => sqlx::query(UPSERT_SQL)
    .bind(group)
    .bind(&body)
    .bind(now)
    .execute(pool)
    .await.map(|_| ()))?;
    invalidate(db);
    Ok(())
}

/// The stored document of a group, or its default, or `{}`. On PostgreSQL the documents are
/// kept in memory (see [`cache`]); SQLite reads the row (an in-process lookup).
pub async fn load(db: &Db, group: &str) -> AppResult<Value> {
    let cached = cache::begin(db, group);
    if let cache::Lookup::Hit(doc) = cached {
        return Ok(doc);
    }
    let doc = load_stored(db, group).await?;
    if let cache::Lookup::Miss(ticket) = cached {
        cache::put(ticket, group, &doc);
    }
    Ok(doc)
}

/// Forgets the cached documents of `db`: call after writing the settings table (the PostgreSQL
/// trigger of 0014 tells the other instances, and this one, a moment later).
pub fn invalidate(db: &Db) {
    cache::invalidate(db);
}

async fn load_stored(db: &Db, group: &str) -> AppResult<Value> {
    let body: Option<String> = on_db!(db, pool => sqlx::query_scalar(
        "SELECT body FROM settings WHERE group_name = $1",
    )
    .bind(group)
    .fetch_optional(pool)
    .await)?;
    let stored = body.and_then(|b| serde_json::from_str::<Value>(&b).ok());
    Ok(stored
        .or_else(|| {
            defaults()
                .into_iter()
                .find(|(g, _)| *g == group)
                .map(|(_, v)| v)
        })
        .unwrap_or_else(|| json!({})))
}

/// Several groups in one query, in the order asked (each its stored document, default, or `{}`).
pub async fn load_many(db: &Db, groups: &[&str]) -> AppResult<Vec<Value>> {
    let placeholders: Vec<String> = (1..=groups.len()).map(|i| format!("${i}")).collect();
    let sql = format!(
        "SELECT group_name, body FROM settings WHERE group_name IN ({})",
        placeholders.join(", ")
    );
    let rows: Vec<(String, String)> = on_db!(db, pool => {
        let mut q = sqlx::query_as(&sql);
        for g in groups {
            q = q.bind(*g);
        }
        q.fetch_all(pool).await
    })?;
    let defaults = defaults();
    Ok(groups
        .iter()
        .map(|group| {
            rows.iter()
                .find(|(g, _)| g == group)
                .and_then(|(_, b)| serde_json::from_str::<Value>(b).ok())
                .or_else(|| {
                    defaults
                        .iter()
                        .find(|(g, _)| g == group)
                        .map(|(_, v)| v.clone())
                })
                .unwrap_or_else(|| json!({}))
        })
        .collect())
}

pub fn get_bool(doc: &Value, key: &str) -> bool {
    match doc.get(key) {
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) => s.eq_ignore_ascii_case("true"),
        Some(Value::Number(n)) => n.as_i64().is_some_and(|n| n != 0),
        _ => false,
    }
}

pub fn get_i64(doc: &Value, key: &str) -> Option<i64> {
    match doc.get(key) {
        Some(Value::Number(n)) => n.as_i64(),
        Some(Value::String(s)) => s.trim().parse().ok(),
        _ => None,
    }
}

pub fn get_str(doc: &Value, key: &str) -> String {
    doc.get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// CorePortal SessionTimeoutMinutes, at least 1 minute.
pub async fn session_timeout_minutes(db: &Db) -> AppResult<i64> {
    let doc = load(db, CORE_PORTAL).await?;
    Ok(get_i64(&doc, "SessionTimeoutMinutes")
        .filter(|m| *m > 0)
        .unwrap_or(DEFAULT_SESSION_TIMEOUT_MINUTES))
}

/// The expiry rule of a HistoryPortal settings document (stored values over the defaults).
pub fn expiry_rule_of(doc: &Value) -> ExpiryRule {
    let hours = match doc.get("HrsAppointmentTimeValue") {
        Some(Value::Number(n)) => n.as_f64(),
        Some(Value::String(s)) => s.trim().parse().ok(),
        _ => None,
    };
    ExpiryRule::new(&get_str(doc, "HrsAppointmentTimeType"), hours)
}

/// The clinic's survey expiry rule (HistoryPortal HrsAppointmentTimeType / Value), which the
/// emailed link, the start checks, the expiry job and the notifications engine share.
pub async fn expiry_rule(db: &Db) -> AppResult<ExpiryRule> {
    let doc = load(db, HISTORY_PORTAL).await?;
    Ok(expiry_rule_of(&doc))
}

/// The settings documents of each PostgreSQL database, in memory. Every API instance LISTENs on
/// `portal_settings`; a statement trigger on `settings` (0014) NOTIFYs at commit, whoever wrote
/// (this instance, another one, or SQL by hand), and the listener forgets that database's
/// documents. Staleness after another instance writes: the notification's delivery, normally
/// well under a millisecond. While the listener is not connected (start-up, a lost connection)
/// nothing is cached, and on reconnecting everything is forgotten, so a missed notification
/// cannot leave an old document behind. A read that raced with a change is not kept: each
/// forgetting bumps a generation, and a document read under an older generation is dropped.
///
/// SQLite is not cached: its file may be written by another process (sqlite3, a second server)
/// that could not tell this one, and the read is in-process anyway.
mod cache {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    use std::time::Duration;

    use serde_json::Value;
    use sqlx::postgres::{PgListener, PgPool};

    use crate::db::Db;

    pub const CHANNEL: &str = "portal_settings";

    #[derive(Default)]
    struct Docs {
        started: bool,
        listening: bool,
        generation: u64,
        docs: HashMap<String, Value>,
    }

    fn all() -> &'static Mutex<HashMap<String, Docs>> {
        static ALL: OnceLock<Mutex<HashMap<String, Docs>>> = OnceLock::new();
        ALL.get_or_init(|| Mutex::new(HashMap::new()))
    }

    fn with<R>(id: &str, f: impl FnOnce(&mut Docs) -> R) -> R {
        let mut map = all().lock().unwrap_or_else(|e| e.into_inner());
        f(map.entry(id.to_owned()).or_default())
    }

    pub struct Ticket {
        id: String,
        generation: u64,
    }

    pub enum Lookup {
        Hit(Value),
        Miss(Ticket),
        Uncached,
    }

    pub fn begin(db: &Db, group: &str) -> Lookup {
        let Db::Postgres(pool) = db else {
            return Lookup::Uncached;
        };
        let id = db.identity();
        let (start, lookup) = with(&id, |d| {
            let start = !d.started;
            d.started = true;
            let lookup = match (d.listening, d.docs.get(group)) {
                (true, Some(doc)) => Lookup::Hit(doc.clone()),
                (true, None) => Lookup::Miss(Ticket {
                    id: id.clone(),
                    generation: d.generation,
                }),
                (false, _) => Lookup::Uncached,
            };
            (start, lookup)
        });
        if start {
            if let Ok(handle) = tokio::runtime::Handle::try_current() {
                handle.spawn(listen(pool.clone(), id));
            }
        }
        lookup
    }

    pub fn put(ticket: Ticket, group: &str, doc: &Value) {
        with(&ticket.id, |d| {
            if d.listening && d.generation == ticket.generation {
                d.docs.insert(group.to_owned(), doc.clone());
            }
        });
    }

    fn forget(id: &str, listening: Option<bool>) {
        with(id, |d| {
            d.docs.clear();
            d.generation += 1;
            if let Some(l) = listening {
                d.listening = l;
            }
        });
    }

    pub fn invalidate(db: &Db) {
        if matches!(db, Db::Postgres(_)) {
            forget(&db.identity(), None);
        }
    }

    async fn listen(pool: PgPool, id: String) {
        while !pool.is_closed() {
            if let Ok(mut listener) = PgListener::connect_with(&pool).await {
                if listener.listen(CHANNEL).await.is_ok() {
                    forget(&id, Some(true));
                    // Ok(None): the connection was lost; Err: also the pool closing.
                    while let Ok(Some(_)) = listener.try_recv().await {
                        forget(&id, None);
                    }
                }
            }
            forget(&id, Some(false));
            if pool.is_closed() {
                break;
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        with(&id, |d| d.started = false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_expiry_rule_reads_the_stored_setting() {
        use wasm_core::survey::expiry::Timing;
        let r = expiry_rule_of(
            &json!({"HrsAppointmentTimeType": "Before", "HrsAppointmentTimeValue": "6"}),
        );
        assert_eq!((r.timing, r.hours), (Timing::Before, 6.0));
        assert_eq!(expiry_rule_of(&json!({})), ExpiryRule::default());
    }

    #[test]
    fn readers_accept_loose_types() {
        let doc = json!({"a": true, "b": "True", "c": 1, "n": "25", "m": 7, "s": "x"});
        assert!(get_bool(&doc, "a") && get_bool(&doc, "b") && get_bool(&doc, "c"));
        assert!(!get_bool(&doc, "missing"));
        assert_eq!(get_i64(&doc, "n"), Some(25));
        assert_eq!(get_i64(&doc, "m"), Some(7));
        assert_eq!(get_str(&doc, "s"), "x");
    }

    #[test]
    fn defaults_hold_the_session_and_password_values() {
        let all = defaults();
        let core = &all.iter().find(|(g, _)| *g == CORE_PORTAL).unwrap().1;
        assert_eq!(core["SessionTimeoutMinutes"], 20);
        assert_eq!(core["WarnBeforeSessionTimeoutMinutes"], 2);
        let pw = &all
            .iter()
            .find(|(g, _)| *g == USER_ACCOUNT_PASSWORD)
            .unwrap()
            .1;
        assert_eq!(pw["LenNeeded"], 8);
        assert_eq!(pw["UseComplexityRequirements"], true);
    }
}
