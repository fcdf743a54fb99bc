//! DocumentsHidingEmailNotSending (spec 03 §3 "DocumentsHidingEmailNotSending", documents tab
//! "documents-hiding-email-not-sending": By Letter Type, By BI-RADS, Emails/Letters Delay; §4
//! "Field visibility": the days fields are disabled when Hide forever is ticked). The API hides
//! letters with these rules (`api` `store::documents::HidingRules`): a days value of 0 hides
//! nothing, an absent AllowAck allows acknowledging.

use super::checks::*;
use super::SettingsGroup;
use crate::ValidationErrors;

/// The longest hiding period (days, about ten years).
pub const HIDE_DAYS_MAX: i32 = 3650;
pub const DATE_SHAPE: &str = "Enter a date as YYYY-MM-DD";
pub const LETTER_TYPE_REQUIRED: &str = "Letter type is required";
pub const BIRAD_REQUIRED: &str = "BI-RADS is required";
pub const CHOOSE_MULTIPLIER: &str = "Choose Seconds, Hours, Days or Business Days";
/// DelayEmailMultiplier (spec 03 §9): Seconds=1, Hours=3600, Days=86400, Business Days=-1 (0 as
/// stored by older documents: no delay).
pub const DELAY_MULTIPLIERS: [(&str, i32); 4] = [
    ("Seconds", 1),
    ("Hours", 3600),
    ("Days", 86_400),
    ("Business Days", -1),
];

crate::settings_struct! {
    /// One BI-RADS rule of a letter type.
    pub struct BiradSetting {
        /// The BI-RADS category ('0'..'6', '4A', ...).
        #[serde(deserialize_with = "crate::settings::text::lenient")] "Birad" birad: String,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "HideLetDays" hide_let_days: f64,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "HideLetBizDays" hide_let_biz_days: f64,
        "HideLetForever" hide_let_forever: bool,
        "AllowAck" allow_ack: bool,
    }
}

impl Default for BiradSetting {
    fn default() -> Self {
        BiradSetting {
            birad: String::new(),
            hide_let_days: 0.0,
            hide_let_biz_days: 0.0,
            hide_let_forever: false,
            // The API allows acknowledging when a rule does not say.
            allow_ack: true,
        }
    }
}

crate::settings_struct! {
    #[derive(Default)]
    pub struct LetterTypeBiradSettings {
        "Type" letter_type: String,
        "BiradSettings" birad_settings: Vec<BiradSetting>,
    }
}

crate::settings_struct! {
    pub struct DocumentsHidingEmailNotSending {
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "HideRPLetDays" hide_rp_let_days: f64,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "HideRPLetBizDays" hide_rp_let_biz_days: f64,
        "HideRPLetForever" hide_rp_let_forever: bool,
        /// '' or YYYY-MM-DD: letters sent before that day are hidden.
        "HideAllLettersPriorThisDate" hide_all_letters_prior_this_date: String,
        "LetterTypesBiradSettings" letter_types_birad_settings: Vec<LetterTypeBiradSettings>,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "DelayEmailMultiplier" delay_email_multiplier: f64,
        #[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))] "DelayEmailSendValue" delay_email_send_value: f64,
    }
}

impl Default for DocumentsHidingEmailNotSending {
    fn default() -> Self {
        // `api` `settings::defaults()`: nothing hidden, no delay.
        DocumentsHidingEmailNotSending {
            hide_rp_let_days: 0.0,
            hide_rp_let_biz_days: 0.0,
            hide_rp_let_forever: false,
            hide_all_letters_prior_this_date: String::new(),
            letter_types_birad_settings: Vec::new(),
            delay_email_multiplier: 0.0,
            delay_email_send_value: 0.0,
        }
    }
}

/// Spec 03 §4: the days fields are enabled unless Hide forever is ticked.
pub fn days_enabled(hide_forever: bool) -> bool {
    !hide_forever
}

/// 'YYYY-MM-DD' naming a real day.
pub fn is_iso_date(value: &str) -> bool {
    let b = value.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let num = |r: core::ops::Range<usize>| -> Option<u32> {
        b[r].iter().try_fold(0u32, |n, &c| {
            c.is_ascii_digit().then(|| n * 10 + u32::from(c - b'0'))
        })
    };
    match (num(0..4), num(5..7), num(8..10)) {
        (Some(y), Some(m), Some(d)) => {
            (1..=12).contains(&m) && d >= 1 && d <= crate::dates::days_in_month(i64::from(y), m)
        }
        _ => false,
    }
}

fn hide_days(e: &mut ValidationErrors, prefix: &str, days: f64, biz_days: f64, forever: bool) {
    // Disabled fields are not checked.
    if days_enabled(forever) {
        digits(e, &format!("{prefix}Days"), days, Some(HIDE_DAYS_MAX));
        digits(
            e,
            &format!("{prefix}BizDays"),
            biz_days,
            Some(HIDE_DAYS_MAX),
        );
    }
}

impl SettingsGroup for DocumentsHidingEmailNotSending {
    const NAME: &'static str = "DocumentsHidingEmailNotSending";

    /// Spec 03 §4: the days fields are disabled while Hide forever is ticked.
    fn disabled(&self) -> Vec<String> {
        let mut out = Vec::new();
        if !days_enabled(self.hide_rp_let_forever) {
            out.extend(["HideRPLetDays".to_owned(), "HideRPLetBizDays".to_owned()]);
        }
        for (i, t) in self.letter_types_birad_settings.iter().enumerate() {
            for (j, b) in t.birad_settings.iter().enumerate() {
                if !days_enabled(b.hide_let_forever) {
                    let rule = format!("LetterTypesBiradSettings.{i}.BiradSettings.{j}.HideLet");
                    out.push(format!("{rule}Days"));
                    out.push(format!("{rule}BizDays"));
                }
            }
        }
        out
    }

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        hide_days(
            &mut e,
            "HideRPLet",
            self.hide_rp_let_days,
            self.hide_rp_let_biz_days,
            self.hide_rp_let_forever,
        );
        let date = self.hide_all_letters_prior_this_date.trim();
        if !date.is_empty() && !is_iso_date(date) {
            e.add("HideAllLettersPriorThisDate", DATE_SHAPE);
        } else {
            text(
                &mut e,
                "HideAllLettersPriorThisDate",
                &self.hide_all_letters_prior_this_date,
                32,
            );
        }
        for (i, t) in self.letter_types_birad_settings.iter().enumerate() {
            let row = format!("LetterTypesBiradSettings.{i}");
            required_text(
                &mut e,
                &format!("{row}.Type"),
                &t.letter_type,
                100,
                Some(LETTER_TYPE_REQUIRED),
            );
            for (j, b) in t.birad_settings.iter().enumerate() {
                let rule = format!("{row}.BiradSettings.{j}.");
                required_text(
                    &mut e,
                    &format!("{rule}Birad"),
                    &b.birad,
                    8,
                    Some(BIRAD_REQUIRED),
                );
                hide_days(
                    &mut e,
                    &format!("{rule}HideLet"),
                    b.hide_let_days,
                    b.hide_let_biz_days,
                    b.hide_let_forever,
                );
            }
        }
        let m = self.delay_email_multiplier;
        if !(m == 0.0 || DELAY_MULTIPLIERS.iter().any(|(_, v)| f64::from(*v) == m)) {
            e.add("DelayEmailMultiplier", CHOOSE_MULTIPLIER);
        }
        digits(
            &mut e,
            "DelayEmailSendValue",
            self.delay_email_send_value,
            Some(100_000),
        );
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        for ok in ["2026-02-28", "2024-02-29", "1999-12-31"] {
            assert!(is_iso_date(ok), "{ok}");
        }
        for bad in [
            "2026-02-29",
            "2026-13-01",
            "2026-1-01",
            "26-01-01",
            "2026/01/01",
            "2026-01-00",
            "２０２６-01-01",
        ] {
            assert!(!is_iso_date(bad), "{bad}");
        }
        let d = DocumentsHidingEmailNotSending {
            hide_all_letters_prior_this_date: "01/02/2026".into(),
            ..Default::default()
        };
        assert_eq!(
            d.validate().field("HideAllLettersPriorThisDate"),
            [DATE_SHAPE]
        );
    }

    #[test]
    fn days_are_checked_unless_hidden_forever() {
        let d = DocumentsHidingEmailNotSending {
            hide_rp_let_days: 1.5,
            hide_rp_let_biz_days: f64::NAN,
            ..Default::default()
        };
        let e = d.validate();
        assert_eq!(e.field("HideRPLetDays"), [DIGITS_ONLY]);
        assert_eq!(e.field("HideRPLetBizDays"), [ENTER_A_NUMBER]);
        let forever = DocumentsHidingEmailNotSending {
            hide_rp_let_forever: true,
            ..d
        };
        assert!(forever.validate().is_valid());
        assert!(days_enabled(false));
        assert!(!days_enabled(true));
    }

    #[test]
    fn letter_type_rows() {
        let json = serde_json::json!({
            "LetterTypesBiradSettings": [
                {"Type": "Patient Result Letter", "BiradSettings": [
                    {"Birad": "4A", "HideLetDays": 3},
                    {"Birad": "", "HideLetDays": -1, "AllowAck": false}
                ]},
                {"Type": " ", "BiradSettings": []}
            ]
        });
        let d: DocumentsHidingEmailNotSending = serde_json::from_value(json).unwrap();
        let rules = &d.letter_types_birad_settings[0].birad_settings;
        // An absent AllowAck allows acknowledging, as the API reads it.
        assert!(rules[0].allow_ack);
        assert!(!rules[1].allow_ack);
        let e = d.validate();
        assert!(e
            .field("LetterTypesBiradSettings.0.BiradSettings.0.HideLetDays")
            .is_empty());
        assert_eq!(
            e.field("LetterTypesBiradSettings.0.BiradSettings.1.Birad"),
            [BIRAD_REQUIRED]
        );
        assert_eq!(
            e.field("LetterTypesBiradSettings.0.BiradSettings.1.HideLetDays"),
            [DIGITS_ONLY]
        );
        assert_eq!(
            e.field("LetterTypesBiradSettings.1.Type"),
            [LETTER_TYPE_REQUIRED]
        );
    }
}
