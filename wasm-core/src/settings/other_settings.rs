//! OtherSettings (spec 03 §3 "OtherSettings", "Other Settings": the login link after self
//! registration, the email reset link in the My Account menu with its text, the users list SSN
//! column name, the Help button with its window's content; §5 'Form is invalid' as the toast).

use super::checks::*;
use super::SettingsGroup;
use crate::ValidationErrors;

/// The help window's rich text (HTML) is longer than a plain setting.
pub const HELP_CONTENT_MAX: usize = 50_000;
pub const EMAIL_RESET_LINK_REQUIRED: &str = "Link text is required";

crate::settings_struct! {
    /// Off or empty by default, but the login link after self registration.
    pub struct OtherSettings {
        "IsAllowedToShowLoginLinkWhenSelfRegistered" is_allowed_to_show_login_link_when_self_registered: bool,
        "IsAllowedToShowEmailResetLink" is_allowed_to_show_email_reset_link: bool,
        /// The link's text in the My Account menu.
        "EmailResetLink" email_reset_link: String,
        "UsersListSsnColumnName" users_list_ssn_column_name: String,
        "IsAllowedToShowHelpButton" is_allowed_to_show_help_button: bool,
        /// HTML from the rich text editor.
        "HelpModalContent" help_modal_content: String,
    }
}

impl Default for OtherSettings {
    fn default() -> Self {
        OtherSettings {
            // The Account Created page has offered its Log In link so far: kept unless turned off.
            is_allowed_to_show_login_link_when_self_registered: true,
            is_allowed_to_show_email_reset_link: false,
            email_reset_link: String::new(),
            users_list_ssn_column_name: String::new(),
            is_allowed_to_show_help_button: false,
            help_modal_content: String::new(),
        }
    }
}

impl SettingsGroup for OtherSettings {
    const NAME: &'static str = "OtherSettings";

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        if self.is_allowed_to_show_email_reset_link {
            required_text(
                &mut e,
                "EmailResetLink",
                &self.email_reset_link,
                200,
                Some(EMAIL_RESET_LINK_REQUIRED),
            );
        } else {
            text(&mut e, "EmailResetLink", &self.email_reset_link, 200);
        }
        text(
            &mut e,
            "UsersListSsnColumnName",
            &self.users_list_ssn_column_name,
            100,
        );
        text(
            &mut e,
            "HelpModalContent",
            &self.help_modal_content,
            HELP_CONTENT_MAX,
        );
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reset_link_text_needed_when_shown() {
        let o = OtherSettings {
            is_allowed_to_show_email_reset_link: true,
            ..Default::default()
        };
        assert_eq!(
            o.validate().field("EmailResetLink"),
            [EMAIL_RESET_LINK_REQUIRED]
        );
        let long = OtherSettings {
            users_list_ssn_column_name: "x".repeat(101),
            ..Default::default()
        };
        assert_eq!(
            long.validate().field("UsersListSsnColumnName"),
            ["Must be at most 100 characters"]
        );
    }
}
