//! UserAccountUsernameValidation (spec 03 §3; §5: username min and max length are required).
//! The API checks a new username against these (registration, `create_rules`).

use super::checks::*;
use super::SettingsGroup;
use crate::ValidationErrors;

pub const MIN_NOT_ABOVE_MAX: &str = "Minimum length can not be greater than maximum length";
/// The longest username the portal stores.
pub const USERNAME_LENGTH_MAX: i32 = 256;

crate::settings_struct! {
    pub struct UserAccountUsernameValidation {
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "MinUsernameLength" min_username_length: f64,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "MaxUsernameLength" max_username_length: f64,
    }
}

impl Default for UserAccountUsernameValidation {
    fn default() -> Self {
        // `api` `routes::registration` DEFAULT_MIN_USERNAME / DEFAULT_MAX_USERNAME.
        UserAccountUsernameValidation {
            min_username_length: 4.0,
            max_username_length: 64.0,
        }
    }
}

impl SettingsGroup for UserAccountUsernameValidation {
    const NAME: &'static str = "UserAccountUsernameValidation";

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        let min_ok = required_digits(
            &mut e,
            "MinUsernameLength",
            self.min_username_length,
            Some(USERNAME_LENGTH_MAX),
        );
        let max_ok = required_digits(
            &mut e,
            "MaxUsernameLength",
            self.max_username_length,
            Some(USERNAME_LENGTH_MAX),
        ) && whole(
            &mut e,
            "MaxUsernameLength",
            self.max_username_length,
            Some(1),
            Some(USERNAME_LENGTH_MAX),
            VALUE_CAN_NOT_BE_DECIMAL,
        );
        if min_ok && max_ok && self.min_username_length > self.max_username_length {
            e.add("MinUsernameLength", MIN_NOT_ABOVE_MAX);
        }
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths() {
        let u = UserAccountUsernameValidation {
            min_username_length: f64::NAN,
            max_username_length: 0.0,
        };
        let e = u.validate();
        assert_eq!(e.field("MinUsernameLength"), [FIELD_REQUIRED]);
        assert_eq!(e.field("MaxUsernameLength"), ["Must be between 1 and 256"]);
        let u = UserAccountUsernameValidation {
            min_username_length: 10.0,
            max_username_length: 8.0,
        };
        assert_eq!(u.validate().field("MinUsernameLength"), [MIN_NOT_ABOVE_MAX]);
    }
}
