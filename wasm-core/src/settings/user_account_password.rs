//! UserAccountPassword (spec 03 §3 "UserAccountPassword", "User Account pages > Password
//! settings"; §5: ResetKeyExpirationInSeconds required, IDFailMax and ResetKeyExpirationInSeconds
//! accept digits only). The password requirement counts (LenNeeded, NumNeeded, UcaseNeeded,
//! SymNeeded) are stored here too: the API reads them from this group (`password_requirements`).

use super::checks::*;
use super::SettingsGroup;
use crate::ValidationErrors;

crate::settings_struct! {
    pub struct UserAccountPassword {
        "UseComplexityRequirements" use_complexity_requirements: bool,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "LenNeeded" len_needed: f64,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "NumNeeded" num_needed: f64,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "UcaseNeeded" ucase_needed: f64,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "SymNeeded" sym_needed: f64,
        /// Wrong passwords in a row that lock the account (0 = no lockout).
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "IDFailMax" id_fail_max: f64,
        "IDFailureURL" id_failure_url: String,
        /// How long a password reset link is valid (0 = no expiry).
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "ResetKeyExpirationInSeconds" reset_key_expiration_in_seconds: f64,
        "NewPasswordString" new_password_string: String,
        "NewPasswordAgainString" new_password_again_string: String,
        "ResetPasswordRedirectUrl" reset_password_redirect_url: String,
        "DisableChangePasswordMenu" disable_change_password_menu: bool,
        /// Issue 22: Program managers and Client admins must sign in with a second step (an
        /// authenticator app code, `mfa`); other staff may set one up. Off by default.
        "RequireMfaForAdmins" require_mfa_for_admins: bool,
    }
}

impl Default for UserAccountPassword {
    fn default() -> Self {
        // `api` `settings::defaults()`.
        UserAccountPassword {
            use_complexity_requirements: true,
            len_needed: 8.0,
            num_needed: 1.0,
            ucase_needed: 1.0,
            sym_needed: 1.0,
            id_fail_max: 5.0,
            id_failure_url: String::new(),
            reset_key_expiration_in_seconds: 3600.0,
            new_password_string: "New password".into(),
            new_password_again_string: "Repeat new password".into(),
            reset_password_redirect_url: String::new(),
            disable_change_password_menu: false,
            require_mfa_for_admins: false,
        }
    }
}

impl SettingsGroup for UserAccountPassword {
    const NAME: &'static str = "UserAccountPassword";

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        for (field, v) in [
            ("LenNeeded", self.len_needed),
            ("NumNeeded", self.num_needed),
            ("UcaseNeeded", self.ucase_needed),
            ("SymNeeded", self.sym_needed),
        ] {
            digits(&mut e, field, v, Some(128));
        }
        digits(&mut e, "IDFailMax", self.id_fail_max, Some(1000));
        web_address(&mut e, "IDFailureURL", &self.id_failure_url);
        // At most a year.
        required_digits(
            &mut e,
            "ResetKeyExpirationInSeconds",
            self.reset_key_expiration_in_seconds,
            Some(31_536_000),
        );
        text(&mut e, "NewPasswordString", &self.new_password_string, 200);
        text(
            &mut e,
            "NewPasswordAgainString",
            &self.new_password_again_string,
            200,
        );
        web_address(
            &mut e,
            "ResetPasswordRedirectUrl",
            &self.reset_password_redirect_url,
        );
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_only_and_required() {
        let p = UserAccountPassword {
            id_fail_max: 2.5,
            reset_key_expiration_in_seconds: f64::NAN,
            len_needed: -1.0,
            ..Default::default()
        };
        let e = p.validate();
        assert_eq!(e.field("IDFailMax"), [DIGITS_ONLY]);
        assert_eq!(e.field("ResetKeyExpirationInSeconds"), [FIELD_REQUIRED]);
        assert_eq!(e.field("LenNeeded"), [DIGITS_ONLY]);
        let p = UserAccountPassword {
            reset_key_expiration_in_seconds: 60.5,
            ..Default::default()
        };
        assert_eq!(
            p.validate().field("ResetKeyExpirationInSeconds"),
            [DIGITS_ONLY]
        );
    }
}
