//! The append-only audit log (ARCHITECTURE "Security model"): who (real and impersonated
//! user), what, on which target, old and new values. Rows are only ever inserted.

use serde_json::Value;

use crate::auth::session::SessionUser;
use crate::db::{now_ms, Db, Tx};
use crate::error::AppResult;
use crate::store::audit_log::AuditRow;

/// Who acted: the signed-in user and, when impersonating, the real user behind them.
#[derive(Debug, Clone, Copy, Default)]
pub struct Actor {
    pub user_id: Option<i64>,
    pub impersonator_user_id: Option<i64>,
}

impl Actor {
    pub fn anonymous() -> Actor {
        Actor::default()
    }

    pub fn user(user_id: i64) -> Actor {
        Actor {
            user_id: Some(user_id),
            impersonator_user_id: None,
        }
    }
}

impl From<&SessionUser> for Actor {
    fn from(u: &SessionUser) -> Actor {
        Actor {
            user_id: Some(u.user_id),
            impersonator_user_id: u.impersonator_user_id,
        }
    }
}

/// What an entry is about.
#[derive(Debug, Clone, Default)]
pub struct Target {
    pub target_type: Option<&'static str>,
    pub target_id: Option<String>,
    pub target_user_id: Option<i64>,
}

impl Target {
    pub fn none() -> Target {
        Target::default()
    }

    pub fn user(user_id: i64) -> Target {
        Target {
            target_type: Some("User"),
            target_id: Some(user_id.to_string()),
            target_user_id: Some(user_id),
        }
    }
}

/// Audit actions and their categories (the portal audit log filters by category).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    LoginSucceeded,
    LoginFailed,
    Logout,
    /// History Portal (issue 6): assignment notice re-sent; Ready For Exam notice sent.
    SurveyNotificationResent,
    ReadyForExamSent,
    ConfigurationSaved,
    PasswordChanged,
    UserCreated,
    UserUpdated,
    RoleCreated,
    RoleUpdated,
    RoleDeleted,
    ImpersonationStarted,
    ImpersonationEnded,
    DemoUserReset,
    /// A letter's PDF was served (spec 01 §2.3: every view is audited).
    LetterViewed,
    LetterAcknowledged,
    /// A letter was sent to a CUPS printer (a read of patient data: its PDF left the portal).
    LetterPrinted,
    /// A letter asked for by a token that is unknown or not the caller's (answered 404).
    LetterAccessDenied,
    /// A portal value (e.g. Home_Page_Content) was changed.
    SettingsSaved,
    /// A logo was uploaded or removed.
    LogoChanged,
    /// The I Am Here link recorded a patient's arrival.
    PatientArrived,
    SurveySubmitted,
    SurveyPinGenerated,
    SurveyPinFailed,
    /// Issue 3 parts 5-7: portal invitation, failed self-registration, survey registration, unsubscribe.
    RegistrationInvitationSent,
    RegistrationFailed,
    SurveyRegistrationRequested,
    PatientUnsubscribed,
    /// Issue 3: forgot password / username, reset by key, phone codes (never the key or code).
    PasswordResetRequested,
    PasswordReset,
    UsernameRecoveryRequested,
    PhoneVerification,
    /// Survey packages admin (spec 04): a survey file uploaded or replaced; a survey deleted.
    SurveyUploaded,
    SurveyDeleted,
    /// Issue 17: a report template uploaded; a library uploaded or deleted; the storage schema
    /// synchronised.
    SurveyReportUploaded,
    SurveyLibraryUploaded,
    SurveyLibraryDeleted,
    StorageSchemaSynchronised,
    SurveyAdminPinChecked,
    /// Staff start (spec 01 §2.5): a patient or a study created on the kiosk.
    PatientCreated,
    StudyCreated,
    /// An emailed survey link was opened (the outcome, never the token).
    SurveyLinkOpened,
    /// Dynamic Labels Management (spec 03 §2): labels added or their texts changed.
    LabelsSaved,
    /// The patient's Appointments page read (spec 01 §2.1).
    AppointmentsViewed,
    /// Issue 17: the survey integrations' delivery log read (it shows what was sent).
    IntegrationDeliveriesViewed,
    /// Issue 20: a kiosk's "I need help", and staff marking it handled.
    KioskHelpRequested,
    KioskHelpResolved,
    /// Issue 19: a patient signed in by single sign-on (the flow), or a refusal with its reason.
    SsoSignIn,
    SsoSignInRefused,
    /// Survey themes (spec 04 §2): a theme added, applied (selected) or deleted.
    SurveyThemeAdded,
    SurveyThemeApplied,
    SurveyThemeDeleted,
    /// Techpad settings (issue 18, spec 04 §7): a techpad settings group saved, or the worklist
    /// sorting reset to its defaults; old and new values of the changed fields (Techpad Logs).
    TechpadSettingsSaved,
    TechpadWorklistSortingReset,
    /// A techpad PDF form uploaded or deleted (spec 04 §2 pdf-forms; Techpad Logs).
    TechpadPdfFormUploaded,
    TechpadPdfFormDeleted,
    /// Issue 15 Techpad Logs "techpad API calls": the tablet app read its configuration; a PDF
    /// form's file was downloaded.
    TechpadConfigurationRead,
    TechpadPdfFormDownloaded,
    /// Notification Templates (spec 03 §2 email-service): a template saved or deleted.
    NotificationTemplateSaved,
    NotificationTemplateDeleted,
    /// Services management (spec 03 §7): a service started, stopped or restarted.
    ServiceAction,
    /// Audit Logs (issue 15): staff searched patients (the typeahead) or opened a patient's
    /// record; a request for a patient object the caller may not see (403).
    PatientSearched,
    PatientRecordOpened,
    PatientAccessDenied,
    /// Issue 15: staff opened a patient's survey (to take it for them or to view its log), or
    /// read its summary report.
    SurveyViewed,
    SummaryViewed,
    /// Release sync (issue 16, spec 03 §2 release-sync): a letter imported from a release table;
    /// the imported letters deleted ('delete all', one row per letter); a sync started or stopped.
    LetterImported,
    ImportedLetterDeleted,
    ReleaseSyncAction,
    /// Issue 22: staff two-step sign-in: the password passed and a code is asked; a code
    /// refused (wrong, replayed, too many); an authenticator set up; one reset by a program
    /// manager.
    MfaChallenged,
    MfaFailed,
    MfaEnrolled,
    MfaReset,
    /// Issue 21: a patient's language preference read (at sign-in).
    LanguagePreferenceRead,
    /// Issue 15: a field of an existing patient's record changed (field-level old and new
    /// values; MagView Audit Logs). Today the one such field the portal writes is the record's
    /// language (the patient's picker, issue 21; the clinical record's primary language).
    PatientDemographicsChanged,
}

impl Action {
    pub fn name(self) -> &'static str {
        match self {
            Action::LoginSucceeded => "LoginSucceeded",
            Action::LoginFailed => "LoginFailed",
            Action::Logout => "Logout",
            Action::SurveyNotificationResent => "SurveyNotificationResent",
            Action::ReadyForExamSent => "ReadyForExamSent",
            Action::ConfigurationSaved => "ConfigurationSaved",
            Action::PasswordChanged => "PasswordChanged",
            Action::UserCreated => "UserCreated",
            Action::UserUpdated => "UserUpdated",
            Action::RoleCreated => "RoleCreated",
            Action::RoleUpdated => "RoleUpdated",
            Action::RoleDeleted => "RoleDeleted",
            Action::ImpersonationStarted => "ImpersonationStarted",
            Action::ImpersonationEnded => "ImpersonationEnded",
            Action::DemoUserReset => "DemoUserReset",
            Action::LetterViewed => "LetterViewed",
            Action::LetterAcknowledged => "LetterAcknowledged",
            Action::LetterPrinted => "LetterPrinted",
            Action::LetterAccessDenied => "LetterAccessDenied",
            Action::SettingsSaved => "SettingsSaved",
            Action::LogoChanged => "LogoChanged",
            Action::PatientArrived => "PatientArrived",
            Action::SurveySubmitted => "SurveySubmitted",
            Action::SurveyPinGenerated => "SurveyPinGenerated",
            Action::SurveyPinFailed => "SurveyPinFailed",
            Action::RegistrationInvitationSent => "RegistrationInvitationSent",
            Action::RegistrationFailed => "RegistrationFailed",
            Action::SurveyRegistrationRequested => "SurveyRegistrationRequested",
            Action::PatientUnsubscribed => "PatientUnsubscribed",
            Action::PasswordResetRequested => "PasswordResetRequested",
            Action::PasswordReset => "PasswordReset",
            Action::UsernameRecoveryRequested => "UsernameRecoveryRequested",
            Action::PhoneVerification => "PhoneVerification",
            Action::SurveyUploaded => "SurveyUploaded",
            Action::SurveyDeleted => "SurveyDeleted",
            Action::SurveyReportUploaded => "SurveyReportUploaded",
            Action::SurveyLibraryUploaded => "SurveyLibraryUploaded",
            Action::SurveyLibraryDeleted => "SurveyLibraryDeleted",
            Action::StorageSchemaSynchronised => "StorageSchemaSynchronised",
            Action::SurveyAdminPinChecked => "SurveyAdminPinChecked",
            Action::PatientCreated => "PatientCreated",
            Action::StudyCreated => "StudyCreated",
            Action::SurveyLinkOpened => "SurveyLinkOpened",
            Action::LabelsSaved => "LabelsSaved",
            Action::AppointmentsViewed => "AppointmentsViewed",
            Action::IntegrationDeliveriesViewed => "IntegrationDeliveriesViewed",
            Action::KioskHelpRequested => "KioskHelpRequested",
            Action::KioskHelpResolved => "KioskHelpResolved",
            Action::SsoSignIn => "SsoSignIn",
            Action::SsoSignInRefused => "SsoSignInRefused",
            Action::SurveyThemeAdded => "SurveyThemeAdded",
            Action::SurveyThemeApplied => "SurveyThemeApplied",
            Action::SurveyThemeDeleted => "SurveyThemeDeleted",
            Action::TechpadSettingsSaved => "TechpadSettingsSaved",
            Action::TechpadWorklistSortingReset => "TechpadWorklistSortingReset",
            Action::TechpadPdfFormUploaded => "TechpadPdfFormUploaded",
            Action::TechpadPdfFormDeleted => "TechpadPdfFormDeleted",
            Action::TechpadConfigurationRead => "TechpadConfigurationRead",
            Action::TechpadPdfFormDownloaded => "TechpadPdfFormDownloaded",
            Action::NotificationTemplateSaved => "NotificationTemplateSaved",
            Action::NotificationTemplateDeleted => "NotificationTemplateDeleted",
            Action::ServiceAction => "ServiceAction",
            Action::PatientSearched => "PatientSearched",
            Action::PatientRecordOpened => "PatientRecordOpened",
            Action::PatientAccessDenied => "PatientAccessDenied",
            Action::SurveyViewed => "SurveyViewed",
            Action::SummaryViewed => "SummaryViewed",
            Action::LetterImported => "LetterImported",
            Action::ImportedLetterDeleted => "ImportedLetterDeleted",
            Action::ReleaseSyncAction => "ReleaseSyncAction",
            Action::MfaChallenged => "MfaChallenged",
            Action::MfaFailed => "MfaFailed",
            Action::MfaEnrolled => "MfaEnrolled",
            Action::MfaReset => "MfaReset",
            Action::LanguagePreferenceRead => "LanguagePreferenceRead",
            Action::PatientDemographicsChanged => "PatientDemographicsChanged",
        }
    }

    pub fn category(self) -> &'static str {
        match self {
            Action::LoginSucceeded | Action::LoginFailed | Action::Logout => "Authentication",
            Action::SurveyNotificationResent | Action::ReadyForExamSent => "HistoryPortal",
            Action::ConfigurationSaved => "Settings",
            Action::PasswordChanged | Action::UserCreated | Action::UserUpdated => "UserAccount",
            Action::RoleCreated | Action::RoleUpdated | Action::RoleDeleted => "UserAccount",
            Action::ImpersonationStarted | Action::ImpersonationEnded => "Authentication",
            Action::DemoUserReset => "UserAccount",
            Action::LetterViewed
            | Action::LetterAcknowledged
            | Action::LetterPrinted
            | Action::LetterAccessDenied => "Documents",
            Action::SettingsSaved | Action::LogoChanged | Action::LabelsSaved => "Settings",
            Action::PatientArrived => "Appointments",
            Action::RegistrationInvitationSent
            | Action::RegistrationFailed
            | Action::PatientUnsubscribed => "UserAccount",
            Action::SurveyRegistrationRequested => "Survey",
            Action::PasswordResetRequested
            | Action::PasswordReset
            | Action::UsernameRecoveryRequested
            | Action::PhoneVerification => "UserAccount",
            Action::SurveyUploaded | Action::SurveyDeleted => "Survey",
            Action::SurveyReportUploaded
            | Action::SurveyLibraryUploaded
            | Action::SurveyLibraryDeleted
            | Action::StorageSchemaSynchronised => "Survey",
            Action::SurveySubmitted
            | Action::SurveyPinGenerated
            | Action::SurveyPinFailed
            | Action::SurveyAdminPinChecked => "Survey",
            Action::PatientCreated | Action::StudyCreated => "Survey",
            Action::SurveyLinkOpened => "Survey",
            Action::AppointmentsViewed => "Appointments",
            Action::IntegrationDeliveriesViewed => "Survey",
            Action::KioskHelpRequested | Action::KioskHelpResolved => "Survey",
            Action::SsoSignIn | Action::SsoSignInRefused => "Authentication",
            Action::SurveyThemeAdded | Action::SurveyThemeApplied | Action::SurveyThemeDeleted => {
                "Settings"
            }
            Action::TechpadSettingsSaved
            | Action::TechpadWorklistSortingReset
            | Action::TechpadPdfFormUploaded
            | Action::TechpadPdfFormDeleted
            | Action::TechpadConfigurationRead
            | Action::TechpadPdfFormDownloaded => "Techpad",
            Action::NotificationTemplateSaved | Action::NotificationTemplateDeleted => "Settings",
            Action::ServiceAction => "Settings",
            Action::PatientSearched
            | Action::PatientRecordOpened
            | Action::PatientAccessDenied
            | Action::SurveyViewed
            | Action::SummaryViewed => "Patient",
            Action::LetterImported | Action::ImportedLetterDeleted => "Documents",
            Action::ReleaseSyncAction => "Settings",
            Action::MfaChallenged | Action::MfaFailed => "Authentication",
            Action::MfaEnrolled | Action::MfaReset => "UserAccount",
            Action::LanguagePreferenceRead => "UserAccount",
            Action::PatientDemographicsChanged => "Patient",
        }
    }
}

/// Writes one audit row inside `tx`, the transaction of the change it records, so the change
/// and its row are stored together or not at all.
pub async fn record(
    tx: &mut Tx,
    actor: Actor,
    action: Action,
    target: Target,
    old: Option<Value>,
    new: Option<Value>,
    ip: Option<String>,
) -> AppResult<()> {
    let patient = concerned_patient(&target, new.as_ref());
    Entry::new(actor, action, target)
        .values(old, new)
        .ip(ip)
        .patient(patient)
        .write(tx)
        .await
}

/// The patient a row concerns, for the Patient Logs and the patient's own access list: the
/// target when it is a patient, else the `PatientId` its new values name (letters, summaries).
fn concerned_patient(target: &Target, new: Option<&Value>) -> Option<i64> {
    if target.target_type == Some("Patient") {
        if let Some(id) = target.target_id.as_deref().and_then(|t| t.parse().ok()) {
            return Some(id);
        }
    }
    new.and_then(|v| v.get("PatientId")).and_then(Value::as_i64)
}

/// An audit row with everything it may carry: besides [`record`]'s fields, the patient and study
/// it concerns (Patient Logs, the patient's own access list) and the outcome (Success by default;
/// Denied for a refused access).
#[derive(Debug, Clone)]
pub struct Entry {
    row: AuditRow,
}

impl Entry {
    pub fn new(actor: Actor, action: Action, target: Target) -> Entry {
        Entry {
            row: AuditRow {
                created_at: now_ms(),
                user_id: actor.user_id,
                impersonator_user_id: actor.impersonator_user_id,
                action: action.name().to_owned(),
                category: action.category().to_owned(),
                target_type: target.target_type.map(str::to_owned),
                target_id: target.target_id,
                target_user_id: target.target_user_id,
                outcome: Some(OUTCOME_SUCCESS.to_owned()),
                ..AuditRow::default()
            },
        }
    }

    pub fn values(mut self, old: Option<Value>, new: Option<Value>) -> Entry {
        self.row.old_values = old.map(|v| v.to_string());
        self.row.new_values = new.map(|v| v.to_string());
        self
    }

    pub fn ip(mut self, ip: Option<String>) -> Entry {
        self.row.ip = ip;
        self
    }

    pub fn patient(mut self, patient_id: Option<i64>) -> Entry {
        self.row.patient_id = patient_id;
        self
    }

    pub fn study(mut self, study_id: Option<i64>) -> Entry {
        self.row.study_id = study_id;
        self
    }

    pub fn outcome(mut self, outcome: &str) -> Entry {
        self.row.outcome = Some(outcome.to_owned());
        self
    }

    /// The row as it would be written, for [`crate::audit_chain::append_batch`].
    pub fn into_row(self) -> AuditRow {
        self.row
    }

    /// Appends the row to the audit chain inside `tx` (audit_chain.rs).
    pub async fn write(self, tx: &mut Tx) -> AppResult<()> {
        crate::audit_chain::append(tx, &self.row).await?;
        Ok(())
    }

    /// Its own transaction, for a row that records no change (a read, a refused access).
    pub async fn write_alone(self, db: &Db) -> AppResult<()> {
        let mut tx = db.begin().await?;
        self.write(&mut tx).await?;
        tx.commit().await?;
        Ok(())
    }
}

/// Outcomes of an audited action.
pub const OUTCOME_SUCCESS: &str = "Success";
pub const OUTCOME_DENIED: &str = "Denied";

/// An audit row that records no change of its own (a sign-in attempt, a refused access, a read
/// of patient data with nothing else written): its own one-statement transaction.
pub async fn record_alone(
    db: &Db,
    actor: Actor,
    action: Action,
    target: Target,
    old: Option<Value>,
    new: Option<Value>,
    ip: Option<String>,
) -> AppResult<()> {
    let mut tx = db.begin().await?;
    record(&mut tx, actor, action, target, old, new, ip).await?;
    tx.commit().await?;
    Ok(())
}
