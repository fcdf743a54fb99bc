//! UserManagement (spec 02 §3 "Configuration": user administration options). The API reads
//! every field here (`api` `routes::users`, `routes::survey_start`, the demo sets
//! EnableDemoMode). The staff admin PIN length (AdminPinLength) is read from CoreSurvey and
//! the advanced patient search switch from SurveyGeneral, where they are stored.

use super::checks::*;
use super::SettingsGroup;
use crate::ValidationErrors;

pub const VIEW_MODES: &[&str] = &["Regular", "Demo"];

crate::settings_struct! {
    pub struct UserManagement {
        /// Regular or Demo.
        "UserManagementViewMode" user_management_view_mode: String,
        "IsImpersonationEnabled" is_impersonation_enabled: bool,
        "EnableDemoMode" enable_demo_mode: bool,
        /// A Program manager's own survey PIN and locations (spec 02 §3).
        "IsAdminPinAndLocationsRestrictionsEnabled" is_admin_pin_and_locations_restrictions_enabled: bool,
    }
}

impl Default for UserManagement {
    fn default() -> Self {
        // `api` `settings::defaults()`.
        UserManagement {
            user_management_view_mode: "Regular".into(),
            is_impersonation_enabled: true,
            enable_demo_mode: false,
            is_admin_pin_and_locations_restrictions_enabled: false,
        }
    }
}

impl SettingsGroup for UserManagement {
    const NAME: &'static str = "UserManagement";

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        one_of(
            &mut e,
            "UserManagementViewMode",
            &self.user_management_view_mode,
            VIEW_MODES,
        );
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn view_mode() {
        let u = UserManagement {
            user_management_view_mode: "demo".into(),
            ..Default::default()
        };
        assert_eq!(
            u.validate().field("UserManagementViewMode"),
            ["Choose one of: Regular, Demo"]
        );
    }
}
