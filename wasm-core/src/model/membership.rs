//! Wire types of the membership forms (spec 02 §3): user, role, create account, survey
//! registration, verification code, change my password, and the form-check result.

use crate::password::PasswordRequirements;
use crate::wire;
use crate::ValidationErrors;

wire! {
    /// What a form rule returns: the field messages, and the toast to show when the form as a
    /// whole is refused ('Form is invalid', 'Not all necessary fields were filled with data').
    #[serde(rename_all = "PascalCase")]
    pub struct FormCheck {
        pub is_valid: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub toast: Option<String>,
        pub errors: ValidationErrors,
    }

    /// The Add/Edit User form (spec 02 §3 "User"). One role is used of `Roles`.
    #[serde(rename_all = "PascalCase", default)]
    #[derive(Default)]
    pub struct UserForm {
        pub id: Option<i64>,
        pub ssn: String,
        pub first_name: String,
        pub last_name: String,
        pub username: String,
        pub email: String,
        pub is_active: bool,
        pub roles: Vec<String>,
        pub comment: String,
        pub survey_pin: String,
        pub loc_nums: String,
        pub is_results_portal_text_notification_enabled: bool,
    }

    /// The Add-role form (spec 02 §3 "Role").
    #[serde(rename_all = "PascalCase", default)]
    #[derive(Default)]
    pub struct RoleForm {
        pub name: String,
        pub description: String,
    }

    /// POST patientUser/create (spec 02 §3 "Create-user payload", camelCase).
    #[serde(rename_all = "camelCase", default)]
    #[derive(Default)]
    pub struct CreateUserRequest {
        pub year: Option<u32>,
        pub month: Option<u32>,
        pub day: Option<u32>,
        pub email: String,
        pub username: String,
        pub new_password: String,
        pub new_password_repeat: String,
        pub phone_number: Option<String>,
        pub second_email: Option<String>,
        pub registration_key: String,
    }

    /// The settings the create-account rule depends on (UserAccountPassword, CorePortal,
    /// UserAccountPatientPortalOptions).
    #[serde(rename_all = "PascalCase", default)]
    pub struct CreateAccountRules {
        pub password: PasswordRequirements,
        pub min_username_length: u32,
        pub max_username_length: u32,
        pub disable_secondary_recovery_options: bool,
        /// UserAccountPatientPortalOptions RequireDOB: the patient confirms the date of birth on
        /// record to create the account (on unless said otherwise).
        #[serde(rename = "RequireDOB")]
        pub require_dob: bool,
    }

    /// POST userRegistrationApi/requestRegistration (spec 02 §3 "Survey registration").
    #[serde(rename_all = "camelCase", default)]
    #[derive(Default)]
    pub struct SurveyRegistration {
        pub email: String,
        pub first_name: String,
        pub last_name: String,
        pub gender: String,
        pub year: Option<u32>,
        pub month: Option<u32>,
        pub day: Option<u32>,
        pub phone_number: String,
        pub loc_num: String,
        /// The language picked on the registration page (a name or code of the six, spec 03
        /// §9): a new patient's stored language and the language of the survey mail. Absent or
        /// not one of the six: English. A known patient's own language is kept.
        pub language: Option<String>,
    }

    /// POST api/accountApi/changemypassword (spec 01 §3).
    #[serde(rename_all = "PascalCase", default)]
    #[derive(Default)]
    pub struct ChangeMyPassword {
        pub old_password: String,
        pub new_password: String,
        pub new_password_repeat: String,
    }

    /// The answer of changemypassword and changePassword (spec 02 §3).
    #[serde(rename_all = "PascalCase")]
    pub struct ChangePasswordResult {
        pub is_success: bool,
        pub error_messages: Vec<String>,
    }
}

wire! {
    /// One row of the users table (spec 02 §2.10). `Ssn` is shown as MRN (Patient only).
    #[serde(rename_all = "PascalCase")]
    pub struct UserRow {
        pub id: i64,
        pub ssn: Option<String>,
        pub first_name: String,
        pub last_name: String,
        pub username: String,
        pub email: Option<String>,
        pub is_active: bool,
        pub role: String,
    }

    /// A role (spec 02 §3 "Role") as listed; `IsBuiltIn` roles cannot be renamed or deleted.
    #[serde(rename_all = "PascalCase")]
    pub struct RoleRow {
        pub name: String,
        pub description: String,
        pub is_built_in: bool,
        pub user_count: i64,
    }

    /// PUT /api/user/changePassword (the Change Password tab).
    #[serde(rename_all = "PascalCase", default)]
    #[derive(Default)]
    pub struct AdminChangePassword {
        pub user_id: i64,
        pub new_password: String,
        pub new_password_repeat: String,
    }
}

wire! {
    /// GET patientUser/userCreationParams (spec 02 §3 "Creation params"). `IsLinkExpired` (an
    /// unknown, spent or expired key: one answer for all three) and `Message` are additions so
    /// the page can tell 'Link is expired.' from 'Token is empty. Self registration is not allowed.';
    /// `Rules` are the settings the page runs validateCreateAccount with.
    #[serde(rename_all = "PascalCase")]
    pub struct UserCreationParams {
        pub is_valid: bool,
        pub is_locked_out: bool,
        pub is_link_expired: bool,
        pub email: String,
        pub first_name: String,
        pub last_name: String,
        pub message: String,
        pub rules: CreateAccountRules,
    }

    /// The answer of POST patientUser/create (spec 02 §3). `State`: Created, Invalid, LockedOut,
    /// Expired or VerificationRequired.
    #[serde(rename_all = "PascalCase")]
    pub struct CreateUserResult {
        pub is_valid: bool,
        pub state: String,
        pub is_verification_failed: bool,
        pub verification_failed_redirect_url: String,
        pub verification_failed_error: String,
        pub verification_errors: Vec<String>,
        pub dob_errors: Vec<String>,
        pub password_errors: Vec<String>,
        pub other_errors: Vec<String>,
        pub username_errors: Vec<String>,
    }

    /// POST patientUser/sendRegistrationEmail: the patient to invite, by id or by a survey-queue
    /// row of theirs (the History Portal details modal knows the row).
    #[serde(rename_all = "PascalCase", default)]
    #[derive(Default)]
    pub struct SendRegistrationEmail {
        pub patient_id: Option<i64>,
        pub survey_queue_id: Option<i64>,
    }

    /// Whether a patient can be invited (has an email, no portal account), and the answer of
    /// the invitation.
    #[serde(rename_all = "PascalCase")]
    pub struct RegistrationInvitation {
        pub can_invite: bool,
        pub is_sent: bool,
        pub message: String,
    }

    /// POST userRegistrationApi/sendRequestRegistrationEmail (spec 02 §7.2).
    #[serde(rename_all = "camelCase", default)]
    #[derive(Default)]
    pub struct RequestRegistrationEmail {
        pub email: String,
        pub loc_num: String,
    }

    /// The email check of online survey registration (spec 02 §3). `message` carries 'You have
    /// already completed survey' when the person exists and no survey email was sent.
    #[serde(rename_all = "camelCase")]
    pub struct SurveyEmailCheck {
        pub is_user_exist: bool,
        pub is_sent_start_hist_portal_survey_email: bool,
        pub message: String,
    }

    /// GET user/unsubscribe/{token} (spec 02 §3 "Unsubscribe response").
    #[serde(rename_all = "camelCase")]
    pub struct UnsubscribeResult {
        pub is_success: bool,
        pub show_call_to_provider_message: bool,
    }
}

// Issue 20: /register checks its link's location before it asks anything.
wire! {
    /// GET /api/userRegistrationApi/checkLocation?locNum=
    #[serde(rename_all = "camelCase")]
    #[derive(Default)]
    pub struct LocNumQuery {
        #[serde(default)]
        pub loc_num: String,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct LocationCheck {
        pub is_valid: bool,
    }
}

impl Default for CreateAccountRules {
    fn default() -> Self {
        CreateAccountRules {
            password: PasswordRequirements::default(),
            min_username_length: 0,
            max_username_length: 0,
            disable_secondary_recovery_options: false,
            require_dob: true,
        }
    }
}
