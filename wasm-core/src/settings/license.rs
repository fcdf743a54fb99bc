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

pub const NOT_TOGGLEABLE: &str = "The Appointments module cannot be toggled";

crate::wire! {
    /// GET /api/license/getLicense (spec 03 §7: the response has 'force' with the Module_* flags)
    /// and the group's Version for the save.
    pub struct LicenseAnswer {
        pub force: License,
        #[serde(rename = "Version")]
        pub version: i64,
    }

    /// POST /api/license/updateLicense: the four Module_* booleans (spec 03 §7) and, from the
    /// page, the Version it loaded (a save after someone else's is a conflict).
    pub struct LicenseUpdate {
        #[serde(rename = "Module_Documents")]
        pub module_documents: bool,
        #[serde(rename = "Module_Appointments")]
        pub module_appointments: bool,
        #[serde(rename = "Module_MedicalHistory")]
        pub module_medical_history: bool,
        #[serde(rename = "Module_TabletSurvey")]
        pub module_tablet_survey: bool,
        #[serde(rename = "Version", default)]
        pub version: Option<i64>,
    }
}

/// The messages of changing the licence from `before` to `after` (spec 03 §6: the Appointments
/// module cannot be toggled by the administrator).
pub fn license_change_errors(before: &License, after: &License) -> crate::ValidationErrors {
    let mut e = crate::ValidationErrors::new();
    if before.module_appointments != after.module_appointments {
        e.add("Module_Appointments", NOT_TOGGLEABLE);
    }
    e
}

impl SettingsGroup for License {
    const NAME: &'static str = "License";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appointments_change_is_refused() {
        let before = License::default();
        let after = License {
            module_appointments: false,
            module_documents: false,
            ..License::default()
        };
        assert_eq!(
            license_change_errors(&before, &after).field("Module_Appointments"),
            [NOT_TOGGLEABLE]
        );
        let docs_only = License {
            module_documents: false,
            ..License::default()
        };
        assert!(license_change_errors(&before, &docs_only).is_valid());
    }

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
