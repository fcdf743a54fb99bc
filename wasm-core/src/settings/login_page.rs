//! LoginPageSettings (spec 03 §3 "LoginPageSettings", "Login Page Settings"; §5: logo width and
//! mobile logo width required, logo sizes and paddings numbers with minimum 0; an invalid form
//! is refused with the toast 'Values are not valid').

use super::checks::*;
use super::SettingsGroup;
use crate::logo::{DEFAULT_LOGO_WIDTH, MAX_LOGO_WIDTH};
use crate::ValidationErrors;

/// Spec 03 §5: the login page's toast for an invalid form (the other pages say 'Form is invalid').
pub const VALUES_NOT_VALID: &str = "Values are not valid";

crate::settings_struct! {
    pub struct LoginPageSettings {
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "LayoutLoginLogoWidth" layout_login_logo_width: f64,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "LayoutLoginLogoWidthMobile" layout_login_logo_width_mobile: f64,
        "LayoutLoginLogoTitle" layout_login_logo_title: String,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "LayoutLoginLogoLeftPadding" layout_login_logo_left_padding: f64,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "LayoutLoginLogoTopPadding" layout_login_logo_top_padding: f64,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "LayoutLoginLogoRightPadding" layout_login_logo_right_padding: f64,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "LayoutLoginLogoBottomPadding" layout_login_logo_bottom_padding: f64,
    }
}

impl Default for LoginPageSettings {
    fn default() -> Self {
        let width = f64::from(DEFAULT_LOGO_WIDTH);
        LoginPageSettings {
            layout_login_logo_width: width,
            layout_login_logo_width_mobile: width,
            layout_login_logo_title: String::new(),
            layout_login_logo_left_padding: 0.0,
            layout_login_logo_top_padding: 0.0,
            layout_login_logo_right_padding: 0.0,
            layout_login_logo_bottom_padding: 0.0,
        }
    }
}

impl SettingsGroup for LoginPageSettings {
    const NAME: &'static str = "LoginPageSettings";

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        let max = i32::try_from(MAX_LOGO_WIDTH).ok();
        for (field, v) in [
            ("LayoutLoginLogoWidth", self.layout_login_logo_width),
            (
                "LayoutLoginLogoWidthMobile",
                self.layout_login_logo_width_mobile,
            ),
        ] {
            if v.is_nan() {
                e.add(field, FIELD_REQUIRED);
            } else {
                number(&mut e, field, v, Some(0), max);
            }
        }
        for (field, v) in [
            (
                "LayoutLoginLogoLeftPadding",
                self.layout_login_logo_left_padding,
            ),
            (
                "LayoutLoginLogoTopPadding",
                self.layout_login_logo_top_padding,
            ),
            (
                "LayoutLoginLogoRightPadding",
                self.layout_login_logo_right_padding,
            ),
            (
                "LayoutLoginLogoBottomPadding",
                self.layout_login_logo_bottom_padding,
            ),
        ] {
            number(&mut e, field, v, Some(0), max);
        }
        text(
            &mut e,
            "LayoutLoginLogoTitle",
            &self.layout_login_logo_title,
            200,
        );
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_paddings() {
        let s = LoginPageSettings {
            layout_login_logo_width: f64::NAN,
            layout_login_logo_width_mobile: -1.0,
            layout_login_logo_top_padding: -0.5,
            layout_login_logo_left_padding: 2.5,
            layout_login_logo_bottom_padding: f64::NAN,
            ..Default::default()
        };
        let e = s.validate();
        assert_eq!(e.field("LayoutLoginLogoWidth"), [FIELD_REQUIRED]);
        assert_eq!(
            e.field("LayoutLoginLogoWidthMobile"),
            ["Must be between 0 and 1000"]
        );
        assert_eq!(
            e.field("LayoutLoginLogoTopPadding"),
            ["Must be between 0 and 1000"]
        );
        assert!(e.field("LayoutLoginLogoLeftPadding").is_empty());
        assert_eq!(e.field("LayoutLoginLogoBottomPadding"), [ENTER_A_NUMBER]);
    }
}
