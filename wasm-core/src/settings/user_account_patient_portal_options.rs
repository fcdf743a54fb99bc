//! UserAccountPatientPortalOptions (spec 03 §3: RequireDOB, ForgotPasswordValidateDOB). The
//! API asks for the date of birth on a patient's forgot-password when ForgotPasswordValidateDOB
//! is on. Two switches: nothing to validate.

use super::SettingsGroup;

crate::settings_struct! {
    pub struct UserAccountPatientPortalOptions {
        "RequireDOB" require_dob: bool,
        "ForgotPasswordValidateDOB" forgot_password_validate_dob: bool,
    }
}

impl Default for UserAccountPatientPortalOptions {
    fn default() -> Self {
        // `api` `settings::defaults()`.
        UserAccountPatientPortalOptions {
            require_dob: true,
            forgot_password_validate_dob: true,
        }
    }
}

impl SettingsGroup for UserAccountPatientPortalOptions {
    const NAME: &'static str = "UserAccountPatientPortalOptions";
}
