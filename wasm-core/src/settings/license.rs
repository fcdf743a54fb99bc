//! License (spec 03 §3 "License", "License Management": a table of modules with an enable
//! checkbox; Appointments is shown but cannot be toggled). The API answers a switched-off
//! module's paths with 403 (`api` `license.rs`) and reads Module_Documents,
//! Module_Appointments and Module_MedicalHistory; Module_TabletSurvey is the spec's fourth.

use super::SettingsGroup;

/// The modules in the page's order (field name, label).
pub const MODULES: &[(&str, &str)] = &[
    ("Module_Documents", "Documents"),
    ("Module_Appointments", "Appointments"),
    ("Module_MedicalHistory", "Medical History"),
    ("Module_TabletSurvey", "Tablet Survey"),
];

crate::settings_struct! {
    pub struct License {
        "Module_Documents" module_documents: bool,
        "Module_Appointments" module_appointments: bool,
        "Module_MedicalHistory" module_medical_history: bool,
        "Module_TabletSurvey" module_tablet_survey: bool,
    }
}

impl Default for License {
    fn default() -> Self {
        // `api` `settings::defaults()`: every module on.
        License {
            module_documents: true,
            module_appointments: true,
            module_medical_history: true,
            module_tablet_survey: true,
        }
    }
}

/// Whether the page lets the user switch `module` (Appointments is shown but cannot be toggled).
pub fn can_toggle(module: &str) -> bool {
    module != "Module_Appointments"
}

impl SettingsGroup for License {
    const NAME: &'static str = "License";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appointments_cannot_be_toggled() {
        assert!(!can_toggle("Module_Appointments"));
        assert!(can_toggle("Module_Documents"));
        let json = serde_json::to_value(License::default()).unwrap();
        for (field, _) in MODULES {
            assert_eq!(json[field], serde_json::json!(true), "{field}");
        }
    }
}
