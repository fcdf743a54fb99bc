//! LuminaryOne (spec 03 §3: "LuminaryOne" is a named section; §2 version info block "expected
//! LuminaryOne version"). The Luminary One Settings page (spec 01 §2.1 admin/luminary-one-settings)
//! edits this group beside CoreMagview's LuminaryOneUrl (with its test) and SurveyGeneral's
//! LuminaryOnePatientDetailsSurveyId, each stored in its own group once.

use super::checks::*;
use super::SettingsGroup;
use crate::ValidationErrors;

pub const VERSION_MAX: usize = 50;

crate::settings_struct! {
    #[derive(Default)]
    pub struct LuminaryOne {
        /// The LuminaryOne version this portal expects (shown in the version info block).
        "ExpectedLuminaryOneVersion" expected_luminary_one_version: String,
    }
}

impl SettingsGroup for LuminaryOne {
    const NAME: &'static str = "LuminaryOne";

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        text(
            &mut e,
            "ExpectedLuminaryOneVersion",
            &self.expected_luminary_one_version,
            VERSION_MAX,
        );
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_is_short_text() {
        let l = LuminaryOne {
            expected_luminary_one_version: "x".repeat(51),
        };
        assert_eq!(
            l.validate().field("ExpectedLuminaryOneVersion"),
            ["Must be at most 50 characters"]
        );
        assert!(LuminaryOne::default().validate().is_valid());
    }
}

crate::wire! {
    /// The Luminary One Settings page (GET and PUT /api/luminaryOne/settings): its three fields,
    /// each stored in its own group once, with the version of each group as read (a save after
    /// someone else saved one of them is a conflict).
    pub struct LuminaryOnePage {
        #[serde(rename = "LuminaryOneUrl")]
        pub luminary_one_url: String,
        #[serde(rename = "ExpectedLuminaryOneVersion")]
        pub expected_luminary_one_version: String,
        #[serde(rename = "LuminaryOnePatientDetailsSurveyId")]
        pub luminary_one_patient_details_survey_id: String,
        /// The versions of CoreMagview, LuminaryOne and SurveyGeneral, in that order.
        #[serde(rename = "Versions")]
        pub versions: Vec<i64>,
    }
}

/// The groups the page writes, in the order of `LuminaryOnePage::versions`, with the field of
/// each.
pub const PAGE_FIELDS: [(&str, &str); 3] = [
    ("CoreMagview", "LuminaryOneUrl"),
    ("LuminaryOne", "ExpectedLuminaryOneVersion"),
    ("SurveyGeneral", "LuminaryOnePatientDetailsSurveyId"),
];
