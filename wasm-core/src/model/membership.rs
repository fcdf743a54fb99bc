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

    /// The settings the create-account rule depends on (UserAccountPassword, CorePortal).
    #[serde(rename_all = "PascalCase", default)]
    #[derive(Default)]
    pub struct CreateAccountRules {
        pub password: PasswordRequirements,
        pub min_username_length: u32,
        pub max_username_length: u32,
        pub disable_secondary_recovery_options: bool,
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
