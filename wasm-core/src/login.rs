//! The sign-in form rule (spec 02 §5 "Login"), run by the login form and by the API before it
//! looks the user up (a failure there is a 400 with these field messages).

use crate::model::{LoginLinks, LoginRequest, MainMenuSettings};
use crate::validation::{is_blank, ValidationErrors};

pub const USERNAME_OR_EMAIL_REQUIRED: &str = "Username or email is required";
pub const PASSWORD_REQUIRED: &str = "Password is required";
pub const USERNAME_REQUIRED: &str = "Username is required";
/// The server's answers to a refused sign-in (spec 02 §2.2); here so they ship with a label.
pub const LOGIN_FAILED: &str = "The user name or password provided is incorrect.";
/// How long IDFailMax wrong passwords in a row lock an account (spec 03 UserAccountPassword).
pub const LOCKOUT_MINUTES: u32 = 15;
/// A locked account's answer, with the minutes the lockout still lasts (a template:
/// crate::message_templates).
pub const LOCKED_OUT: &str =
    "This account is locked after too many failed sign-in attempts. Try again in {n} minutes or ask the provider to reset the password.";
/// The same in its last minute (translated through labels::PATIENT_MESSAGES).
pub const LOCKED_OUT_ONE_MINUTE: &str =
    "This account is locked after too many failed sign-in attempts. Try again in 1 minute or ask the provider to reset the password.";

/// The locked account's message for a lockout that ends in `remaining_ms` (rounded up to whole
/// minutes, at least one).
pub fn locked_out_message(remaining_ms: i64) -> String {
    let minutes = (remaining_ms.max(1) + 59_999) / 60_000;
    match minutes {
        1 => LOCKED_OUT_ONE_MINUTE.to_owned(),
        n => crate::message_templates::fill(LOCKED_OUT, &[("n", &n.to_string())]),
    }
}

/// usernameOrEmail and password are required; userName too once the server asked for it
/// (IsAskUsername). Field names are the request's own (camelCase).
pub fn validate_login(req: &LoginRequest, ask_username: bool) -> ValidationErrors {
    let mut errors = ValidationErrors::new();
    errors.check(
        is_blank(&req.username_or_email),
        "usernameOrEmail",
        USERNAME_OR_EMAIL_REQUIRED,
    );
    // A password may be white space only; it is missing only when empty.
    errors.check(req.password.is_empty(), "password", PASSWORD_REQUIRED);
    if ask_username {
        errors.check(
            req.user_name.as_deref().is_none_or(is_blank),
            "userName",
            USERNAME_REQUIRED,
        );
    }
    errors
}

/// The login page's links (spec 02 §2.2): Forgot Password except for patients in single-sign-on
/// mode, Forgot Username once the server asked for a username, and the external health-record
/// sign-in at the patient door when IsCernerOAuthEnabled is on.
pub fn login_links(
    patient_door: bool,
    settings: &MainMenuSettings,
    ask_username: bool,
) -> LoginLinks {
    LoginLinks {
        forgot_password: !(patient_door && settings.is_sso_mode),
        forgot_username: ask_username,
        health_record: patient_door && settings.is_cerner_oauth_enabled,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lockout_message_names_the_minutes_left() {
        let full = locked_out_message(i64::from(LOCKOUT_MINUTES) * 60_000);
        assert_eq!(
            full,
            "This account is locked after too many failed sign-in attempts. Try again in 15 minutes or ask the provider to reset the password."
        );
        assert!(locked_out_message(14 * 60_000 + 1).contains("in 15 minutes"));
        assert!(locked_out_message(2 * 60_000).contains("in 2 minutes"));
        assert_eq!(locked_out_message(60_000), LOCKED_OUT_ONE_MINUTE);
        assert_eq!(locked_out_message(1), LOCKED_OUT_ONE_MINUTE);
        assert_eq!(locked_out_message(-5), LOCKED_OUT_ONE_MINUTE);
        // The template reads its own messages back (the label's values).
        let parts = crate::message_templates::template_parts(&full).unwrap();
        assert_eq!(parts.key, "Msg_Login_LockedOut");
        assert_eq!(parts.params, vec![("n", "15")]);
    }

    fn req(user: &str, password: &str, user_name: Option<&str>) -> LoginRequest {
        LoginRequest {
            username_or_email: user.into(),
            password: password.into(),
            remember_me: false,
            device_id: None,
            user_name: user_name.map(Into::into),
        }
    }

    #[test]
    fn requires_both_fields() {
        assert!(validate_login(&req("jane.doe", "x", None), false).is_valid());
        let errors = validate_login(&req("  ", "", None), false);
        assert_eq!(
            errors.field("usernameOrEmail"),
            [USERNAME_OR_EMAIL_REQUIRED]
        );
        assert_eq!(errors.field("password"), [PASSWORD_REQUIRED]);
        assert!(errors.field("userName").is_empty());
    }

    #[test]
    fn user_name_only_when_asked() {
        assert!(validate_login(&req("a@b.c", "x", None), false).is_valid());
        assert_eq!(
            validate_login(&req("a@b.c", "x", None), true).field("userName"),
            [USERNAME_REQUIRED]
        );
        assert_eq!(
            validate_login(&req("a@b.c", "x", Some(" ")), true).field("userName"),
            [USERNAME_REQUIRED]
        );
        assert!(validate_login(&req("a@b.c", "x", Some("jane")), true).is_valid());
    }
}
