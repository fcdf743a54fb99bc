//! TechpadTags (spec 04 §3 "Tags"): the tag colours (light and dark mode) and the tags,
//! Label/Value rows. The spec gives no rule: a colour is empty (the app's own) or a hex colour,
//! texts are bounded.

use super::super::SettingsGroup;
use super::{label_values, LabelValue, LABEL_MAX};
use crate::ValidationErrors;

pub const COLOR_EXPECTED: &str = "Must be a color such as #1f6feb";

crate::settings_struct! {
    /// Defaults: every switch off, every text and list empty.
    #[derive(Default)]
    pub struct TechpadTags {
        "TagColor" tag_color: String,
        "TagBackgroundColor" tag_background_color: String,
        "TagColorDarkMode" tag_color_dark_mode: String,
        "TagBackgroundColorDarkMode" tag_background_color_dark_mode: String,
        "Tags" tags: Vec<LabelValue>,
    }
}

/// '' or '#rgb', '#rrggbb', '#rrggbbaa' (what a colour picker gives).
pub fn is_color(value: &str) -> bool {
    let v = value.trim();
    v.is_empty()
        || v.strip_prefix('#').is_some_and(|hex| {
            matches!(hex.len(), 3 | 6 | 8) && hex.bytes().all(|b| b.is_ascii_hexdigit())
        })
}

impl SettingsGroup for TechpadTags {
    const NAME: &'static str = "TechpadTags";

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        for (field, value) in [
            ("TagColor", &self.tag_color),
            ("TagBackgroundColor", &self.tag_background_color),
            ("TagColorDarkMode", &self.tag_color_dark_mode),
            (
                "TagBackgroundColorDarkMode",
                &self.tag_background_color_dark_mode,
            ),
        ] {
            if !is_color(value) {
                e.add(field, COLOR_EXPECTED);
            }
        }
        label_values(&mut e, "Tags", &self.tags, LABEL_MAX);
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colors_are_hex_or_empty() {
        for ok in ["", "#fff", "#1F6FEB", "#1f6feb80", " #abc "] {
            assert!(is_color(ok), "{ok}");
        }
        for bad in ["fff", "#ffff", "#ggg", "red", "rgb(0,0,0)", "#"] {
            assert!(!is_color(bad), "{bad}");
        }
        let t = TechpadTags {
            tag_background_color_dark_mode: "blue".into(),
            tags: vec![LabelValue {
                label: "VIP".into(),
                value: "vip".into(),
            }],
            ..Default::default()
        };
        let e = t.validate();
        assert_eq!(e.field("TagBackgroundColorDarkMode"), [COLOR_EXPECTED]);
        assert_eq!(e.0.len(), 1);
    }
}
