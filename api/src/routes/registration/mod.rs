//! Self-registration from an emailed key, online survey registration and unsubscribe
//! (spec 02 §2.1, §2.7-2.9, §3, §4, §5, §7.2, §8; issue 3 parts 5-7).
//!
//! The form rules are wasm-core's (`validate_create_account`, `validate_survey_registration`);
//! the server adds what only it knows: the key, the date of birth on record, username uniqueness
//! and the phone verification of the key. Keys are stored as SHA-256 only (membership_keys).
//! The anonymous endpoints are throttled per client address, and an unknown, spent or expired
//! key gets one and the same answer.

use axum::extract::State;
use axum::Json;
use serde_json::json;
use wasm_core::membership::{self, DOB_MISMATCH, USERNAME_TAKEN};
use wasm_core::model::{
    CreateAccountRules, CreateUserRequest, CreateUserResult, LocNumQuery, LocationCheck,
    RegistrationInvitation, RequestRegistrationEmail, SendRegistrationEmail, SurveyEmailCheck,
    SurveyRegistration, UnsubscribeResult, UserCreationParams,
};
use wasm_core::settings::core_portal::CorePortal;
use wasm_core::settings::user_account_password::UserAccountPassword;
use wasm_core::settings::user_account_patient_portal_options::UserAccountPatientPortalOptions;
use wasm_core::settings::user_account_username_validation::UserAccountUsernameValidation;
use wasm_core::settings::user_account_verification::UserAccountUserAccountVerification;
use wasm_core::ValidationErrors;

use crate::audit::{self, Action, Actor, Target};
use crate::auth::{hash_token, password, random_token, RequireRole, Staff};
use crate::client_addr::ClientAddr;
use crate::db::{now_ms, Db, Tx};
use crate::error::{ApiJson, ApiPath, ApiQuery, AppError, AppResult};
use crate::openapi::ApiRouter;
use crate::outbox;
use crate::settings;
use crate::store::registration as store;
use crate::{unsubscribe, AppState};

mod create;
mod invitation;
mod survey_registration;
mod unsubscribing;

use create::*;
use invitation::*;
use survey_registration::*;
use unsubscribing::*;

pub const TOKEN_EMPTY: &str = "Token is empty. Self registration is not allowed.";
pub const LINK_EXPIRED: &str = "Link is expired.";
pub const IDENTITY_NOT_VERIFIED: &str =
    "Your identity could not be verified after too many attempts. Please call the provider to create your portal account.";
pub const PHONE_VERIFICATION_NEEDED: &str =
    "Please verify your phone number before creating your account.";
pub const ALREADY_COMPLETED: &str = "You have already completed survey";
pub const LOCATION_INVALID: &str = "Location is not valid";
pub const NO_SURVEY: &str = "No survey is available for this location.";
pub const NO_EMAIL: &str = "The patient has no email address.";
pub const NO_DOB: &str = "The patient has no date of birth on record.";
pub const HAS_ACCOUNT: &str = "The patient already has a portal account.";
pub const INVITATION_SENT: &str = "Portal invitation sent.";
pub use crate::request_limit::TOO_MANY;

/// IDFailMax when UserAccountPassword does not say.
const DEFAULT_ID_FAIL_MAX: i64 = 5;

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .post(
            "/api/patientUser/sendRegistrationEmail",
            "Emails a patient who has an email and no portal account a single-use registration link /patient/create?key=KEY. Spec 03 has no registration-link expiry setting: the key expires after UserAccountPassword ResetKeyExpirationInSeconds (0 = never)",
            send_registration_email,
        )
        .get(
            "/api/patientUser/registrationInvitation",
            "Whether the patient of a survey-queue row (query surveyQueueId) can be sent a portal invitation: an email and no account",
            registration_invitation,
        )
        .get(
            "/api/patientUser/userCreationParams",
            "What a registration key (query key) allows: IsValid, IsLockedOut, IsLinkExpired, Email, FirstName, LastName",
            user_creation_params,
        )
        .post(
            "/api/patientUser/create",
            "Creates the Patient user of a registration key: date of birth on record, username rules and uniqueness, password rules, recovery option; spends the key",
            create,
        )
        .get(
            "/api/userRegistrationApi/checkLocation",
            "Whether a survey registration link's location (?locNum=) exists: IsValid. /register asks it before anything else",
            check_location,
        )
        .post(
            "/api/userRegistrationApi/sendRequestRegistrationEmail",
            "Online survey registration step 1 (email, locNum): emails the survey link to a known patient with a survey to do",
            send_request_registration_email,
        )
        .post(
            "/api/userRegistrationApi/requestRegistration",
            "Online survey registration step 2: creates the patient, assigns the location's survey and emails its link",
            request_registration,
        )
        .get(
            "/api/user/unsubscribe/{token}",
            "Unsubscribes the patient of an unsubscribe link from notifications",
            unsubscribe_patient,
        )
}

// --- throttle -------------------------------------------------------------------------------

use crate::request_limit::throttle;
/// Per address and per account, shared with the recovery endpoints (`request_limit`).
pub use crate::request_limit::{ADDRESS_LIMIT, SUBJECT_LIMIT};

// --- helpers --------------------------------------------------------------------------------

async fn public_base(db: &Db) -> AppResult<String> {
    let core: CorePortal = settings::get(db).await?;
    Ok(core
        .public_web_address
        .trim()
        .trim_end_matches('/')
        .to_owned())
}

fn ip(peer: &ClientAddr) -> Option<String> {
    Some(peer.ip().to_string())
}

fn bounded(value: i64) -> u32 {
    u32::try_from(value.max(0)).unwrap_or(u32::MAX)
}

async fn id_fail_max(db: &Db) -> AppResult<i64> {
    let pw: UserAccountPassword = settings::get(db).await?;
    // A whole number once saved (validated digits); 0 falls back as before.
    Ok(Some(pw.id_fail_max as i64)
        .filter(|n| *n > 0)
        .unwrap_or(DEFAULT_ID_FAIL_MAX))
}

/// The settings `validate_create_account` depends on.
async fn create_rules(db: &Db) -> AppResult<CreateAccountRules> {
    let names: UserAccountUsernameValidation = settings::get(db).await?;
    let core: CorePortal = settings::get(db).await?;
    let options: UserAccountPatientPortalOptions = settings::get(db).await?;
    Ok(CreateAccountRules {
        require_dob: options.require_dob,
        password: super::password::password_requirements(db).await?,
        min_username_length: bounded(names.min_username_length as i64),
        max_username_length: bounded(names.max_username_length as i64),
        disable_secondary_recovery_options: core.disable_secondary_recovery_options,
    })
}

fn invitation(can_invite: bool, is_sent: bool, message: &str) -> RegistrationInvitation {
    RegistrationInvitation {
        can_invite,
        is_sent,
        message: message.to_owned(),
    }
}
