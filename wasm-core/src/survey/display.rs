//! How the survey runner behaves under SurveyGeneral (spec 04 §3): whose name it shows, whether
//! a single-choice answer moves on by itself, which device classes get the numeric keypad, and
//! how long a kiosk PIN lives. The API fills [`SurveyRunDisplay`] from the stored settings; the
//! runner calls [`numeric_keypad`] and [`auto_advance`] (through the bindings) with them.

use crate::model::{QuestionKind, SurveyRunDisplay};
use crate::settings::survey_general::SurveyGeneral;

/// Viewport widths (CSS px) below which a device counts as a phone, then as a tablet
/// (the breakpoints of the portal's own layout, web/src/styles).
pub const MOBILE_MAX_WIDTH: u32 = 767;
pub const TABLET_MAX_WIDTH: u32 = 1199;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeviceClass {
    Mobile,
    Tablet,
    Desktop,
}

pub fn device_class(viewport_width: u32) -> DeviceClass {
    if viewport_width <= MOBILE_MAX_WIDTH {
        DeviceClass::Mobile
    } else if viewport_width <= TABLET_MAX_WIDTH {
        DeviceClass::Tablet
    } else {
        DeviceClass::Desktop
    }
}

/// What the runner needs of the settings, for one patient (`name` and `mrn` of the respondent).
pub fn run_display(g: &SurveyGeneral, name: &str, mrn: &str) -> SurveyRunDisplay {
    let thank_you = g.is_display_patient_name_and_mrn_on_survey_thank_you_screen;
    SurveyRunDisplay {
        patient_name: (!g.hide_patient_name_in_survey).then(|| name.to_owned()),
        thank_you_name_and_mrn: thank_you.then(|| format!("{name} ({mrn})")),
        auto_advance: g.auto_advance_in_survey_enabled,
        disable_smart_num_pad: g.disable_smart_num_pad,
        disable_num_pad_mobile: g.disable_num_pad_objects_mobile,
        disable_num_pad_tablet: g.disable_num_pad_objects_tablet,
        disable_num_pad_desktop: g.disable_num_pad_objects_desktop,
    }
}

/// Whether a numeric question shows the device's numeric keypad (`inputmode="decimal"`) on a
/// viewport this wide: not when DisableSmartNumPad is on, nor on a device class whose
/// DisableNumPadObjects* is on.
pub fn numeric_keypad(d: &SurveyRunDisplay, viewport_width: u32) -> bool {
    if d.disable_smart_num_pad {
        return false;
    }
    !match device_class(viewport_width) {
        DeviceClass::Mobile => d.disable_num_pad_mobile,
        DeviceClass::Tablet => d.disable_num_pad_tablet,
        DeviceClass::Desktop => d.disable_num_pad_desktop,
    }
}

/// AutoAdvanceInSurveyEnabled: answering a single-choice question moves to the next page when
/// it is the only question the page shows and the survey is not read-only (a page with more
/// questions waits for Next, and the last page for Submit).
pub fn auto_advance(
    d: &SurveyRunDisplay,
    answered: &QuestionKind,
    shown_on_page: usize,
    last_page: bool,
    read_only: bool,
) -> bool {
    d.auto_advance
        && !read_only
        && !last_page
        && shown_on_page == 1
        && matches!(answered, QuestionKind::Single | QuestionKind::YesNo)
}

/// "Never" as an instant: 9999-12-31T23:59:59Z (ms), which every date format still prints.
pub const NEVER_MS: i64 = 253_402_300_799_000;

/// When a kiosk PIN made `now` (ms) expires: never (IsNeverExpirePin, [`NEVER_MS`]), else after
/// PinExpirationSeconds (an unusable value falls back to the 12-hour default, spec 01 §8).
pub fn pin_expires_at(g: &SurveyGeneral, now: i64) -> i64 {
    if g.is_never_expire_pin {
        return NEVER_MS;
    }
    let secs = g.pin_expiration_seconds;
    let secs = if secs.is_finite() && secs >= 1.0 {
        secs.min(10.0 * 365.0 * 86_400.0)
    } else {
        SurveyGeneral::default().pin_expiration_seconds
    };
    now.saturating_add((secs * 1000.0) as i64).min(NEVER_MS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn display(g: &SurveyGeneral) -> SurveyRunDisplay {
        run_display(g, "Jane Doe", "MRN1")
    }

    #[test]
    fn name_shown_unless_hidden() {
        let mut g = SurveyGeneral::default();
        assert_eq!(display(&g).patient_name.as_deref(), Some("Jane Doe"));
        assert_eq!(display(&g).thank_you_name_and_mrn, None);
        g.hide_patient_name_in_survey = true;
        g.is_display_patient_name_and_mrn_on_survey_thank_you_screen = true;
        assert_eq!(display(&g).patient_name, None);
        assert_eq!(
            display(&g).thank_you_name_and_mrn.as_deref(),
            Some("Jane Doe (MRN1)")
        );
    }

    #[test]
    fn keypad_per_device_class() {
        let mut g = SurveyGeneral::default();
        assert!(numeric_keypad(&display(&g), 390));
        g.disable_num_pad_objects_mobile = true;
        assert!(!numeric_keypad(&display(&g), 390));
        assert!(numeric_keypad(&display(&g), 820));
        assert!(numeric_keypad(&display(&g), 1280));
        g.disable_num_pad_objects_tablet = true;
        assert!(!numeric_keypad(&display(&g), 820));
        g.disable_num_pad_objects_desktop = true;
        assert!(!numeric_keypad(&display(&g), 1280));
        let g = SurveyGeneral {
            disable_smart_num_pad: true,
            ..SurveyGeneral::default()
        };
        assert!(!numeric_keypad(&display(&g), 1280));
        assert_eq!(device_class(767), DeviceClass::Mobile);
        assert_eq!(device_class(768), DeviceClass::Tablet);
        assert_eq!(device_class(1200), DeviceClass::Desktop);
    }

    #[test]
    fn auto_advance_only_alone_on_a_page() {
        let mut g = SurveyGeneral::default();
        assert!(!auto_advance(
            &display(&g),
            &QuestionKind::Single,
            1,
            false,
            false
        ));
        g.auto_advance_in_survey_enabled = true;
        let d = display(&g);
        assert!(auto_advance(&d, &QuestionKind::Single, 1, false, false));
        assert!(auto_advance(&d, &QuestionKind::YesNo, 1, false, false));
        assert!(!auto_advance(&d, &QuestionKind::Single, 2, false, false));
        assert!(!auto_advance(&d, &QuestionKind::Single, 1, true, false));
        assert!(!auto_advance(&d, &QuestionKind::Single, 1, false, true));
        assert!(!auto_advance(&d, &QuestionKind::Text, 1, false, false));
    }

    #[test]
    fn pin_lifetime() {
        let mut g = SurveyGeneral::default();
        assert_eq!(pin_expires_at(&g, 1000), 1000 + 43_200_000);
        g.pin_expiration_seconds = 600.0;
        assert_eq!(pin_expires_at(&g, 1000), 1000 + 600_000);
        g.pin_expiration_seconds = f64::NAN;
        assert_eq!(pin_expires_at(&g, 0), 43_200_000);
        g.is_never_expire_pin = true;
        assert_eq!(pin_expires_at(&g, 1000), NEVER_MS);
    }
}
