//! UserAccountUserAccountVerification (spec 03 §3; §5: the three verification limits are
//! required and accept digits only; spec 03 §9: 0 means no limit / never expires).

use super::checks::*;
use super::SettingsGroup;
use crate::ValidationErrors;

crate::settings_struct! {
    pub struct UserAccountUserAccountVerification {
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "VerificationAttemptsMax" verification_attempts_max: f64,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "VerificationCodeRequestsMax" verification_code_requests_max: f64,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "VerificationCodeTimeoutInMinutes" verification_code_timeout_in_minutes: f64,
        "IsPhoneNumberPatientVerificationEnabled" is_phone_number_patient_verification_enabled: bool,
        "IsPhoneNumberVerificationRequiredForResetPassword" is_phone_number_verification_required_for_reset_password: bool,
    }
}

impl Default for UserAccountUserAccountVerification {
    fn default() -> Self {
        // `api` `settings::defaults()`: phone verification off until the clinic turns it on
        // (with no SMS provider a required phone check would stop every self-registration).
        UserAccountUserAccountVerification {
            verification_attempts_max: 5.0,
            verification_code_requests_max: 5.0,
            verification_code_timeout_in_minutes: 10.0,
            is_phone_number_patient_verification_enabled: false,
            is_phone_number_verification_required_for_reset_password: false,
        }
    }
}

impl SettingsGroup for UserAccountUserAccountVerification {
    const NAME: &'static str = "UserAccountUserAccountVerification";

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        required_digits(
            &mut e,
            "VerificationAttemptsMax",
            self.verification_attempts_max,
            Some(1000),
        );
        required_digits(
            &mut e,
            "VerificationCodeRequestsMax",
            self.verification_code_requests_max,
            Some(1000),
        );
        // At most a week.
        required_digits(
            &mut e,
            "VerificationCodeTimeoutInMinutes",
            self.verification_code_timeout_in_minutes,
            Some(10_080),
        );
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_required_digits() {
        let v = UserAccountUserAccountVerification {
            verification_attempts_max: f64::NAN,
            verification_code_requests_max: 1.5,
            verification_code_timeout_in_minutes: -3.0,
            ..Default::default()
        };
        let e = v.validate();
        assert_eq!(e.field("VerificationAttemptsMax"), [FIELD_REQUIRED]);
        assert_eq!(e.field("VerificationCodeRequestsMax"), [DIGITS_ONLY]);
        assert_eq!(e.field("VerificationCodeTimeoutInMinutes"), [DIGITS_ONLY]);
        let zero = UserAccountUserAccountVerification {
            verification_attempts_max: 0.0,
            ..Default::default()
        };
        assert!(zero.validate().is_valid());
    }
}
