//! TechpadDiagramSettings (spec 04 §3 "Diagram settings", §4, §9): one row per diagram icon
//! (Type, Enabled, Label, DisabledCarryForward). Nine icons; Star (shown as 'Pain/Lump') is off
//! by default and the other eight on. When fewer rows than that are stored, the missing icons'
//! defaults are filled in (`normalize`).

use super::super::checks::*;
use super::super::SettingsGroup;
use crate::ValidationErrors;

/// Spec 04 §3: the icon types, in the default order, with the label each is shown with.
pub const DIAGRAM_TYPES: &[(&str, &str)] = &[
    ("Scar", "Scar"),
    ("ReductionScar", "Reduction Scar"),
    ("Mole", "Mole"),
    ("Lump", "Lump"),
    ("Pain", "Pain"),
    ("Mastectomy", "Mastectomy"),
    ("Star", "Pain/Lump"),
    ("Square", "Square"),
    ("Label", "Label"),
];
/// Longest icon label.
pub const DIAGRAM_LABEL_MAX: usize = 50;
pub const DUPLICATE_TYPE: &str = "This icon is already listed";

crate::settings_struct! {
    #[derive(Default)]
    pub struct DiagramSetting {
        /// One of [`DIAGRAM_TYPES`].
        "Type" kind: String,
        "Enabled" enabled: bool,
        "Label" label: String,
        /// Excluded from carry forward.
        "DisabledCarryForward" disabled_carry_forward: bool,
    }
}

crate::settings_struct! {
    pub struct TechpadDiagramSettings {
        "DiagramSettings" diagram_settings: Vec<DiagramSetting>,
    }
}

/// The default row of icon `kind` (Star off, every other icon on, carried forward).
pub fn default_diagram_setting(kind: &str, label: &str) -> DiagramSetting {
    DiagramSetting {
        kind: kind.into(),
        enabled: kind != "Star",
        label: label.into(),
        disabled_carry_forward: false,
    }
}

impl Default for TechpadDiagramSettings {
    fn default() -> Self {
        TechpadDiagramSettings {
            diagram_settings: DIAGRAM_TYPES
                .iter()
                .map(|(kind, label)| default_diagram_setting(kind, label))
                .collect(),
        }
    }
}

impl SettingsGroup for TechpadDiagramSettings {
    const NAME: &'static str = "TechpadDiagramSettings";

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        let kinds: Vec<&str> = DIAGRAM_TYPES.iter().map(|(k, _)| *k).collect();
        for (i, row) in self.diagram_settings.iter().enumerate() {
            let at = |field: &str| format!("DiagramSettings.{i}.{field}");
            if one_of(&mut e, &at("Type"), &row.kind, &kinds)
                && self.diagram_settings[..i]
                    .iter()
                    .any(|r| r.kind == row.kind)
            {
                e.add(&at("Type"), DUPLICATE_TYPE);
            }
            text(&mut e, &at("Label"), &row.label, DIAGRAM_LABEL_MAX);
        }
        e
    }

    /// Spec 04 §4: with fewer rows than the nine icons, each missing icon gets its default row
    /// (appended, in the default order); stored rows are kept as they are.
    fn normalize(&mut self) {
        if self.diagram_settings.len() >= DIAGRAM_TYPES.len() {
            return;
        }
        for (kind, label) in DIAGRAM_TYPES {
            if !self.diagram_settings.iter().any(|r| r.kind == *kind) {
                self.diagram_settings
                    .push(default_diagram_setting(kind, label));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_nine_icons_with_star_off() {
        let d = TechpadDiagramSettings::default();
        assert_eq!(d.diagram_settings.len(), 9);
        let off: Vec<&str> = d
            .diagram_settings
            .iter()
            .filter(|r| !r.enabled)
            .map(|r| r.kind.as_str())
            .collect();
        assert_eq!(off, ["Star"]);
        assert_eq!(d.diagram_settings[6].label, "Pain/Lump");
    }

    #[test]
    fn missing_icons_are_filled_in() {
        let mut stored = TechpadDiagramSettings {
            diagram_settings: vec![DiagramSetting {
                kind: "Mole".into(),
                enabled: false,
                label: "Naevus".into(),
                disabled_carry_forward: true,
            }],
        };
        stored.normalize();
        assert_eq!(stored.diagram_settings.len(), 9);
        assert_eq!(stored.diagram_settings[0].label, "Naevus");
        assert!(!stored.diagram_settings[0].enabled);
        assert_eq!(stored.diagram_settings[1].kind, "Scar");
        assert!(stored.validate().is_valid());
        let again = stored.clone();
        stored.normalize();
        assert_eq!(stored, again);

        let mut empty = TechpadDiagramSettings {
            diagram_settings: Vec::new(),
        };
        empty.normalize();
        assert_eq!(empty, TechpadDiagramSettings::default());
    }

    #[test]
    fn types_are_known_and_listed_once() {
        let mut d = TechpadDiagramSettings::default();
        d.diagram_settings[1].kind = "Scar".into();
        d.diagram_settings[2].kind = "Circle".into();
        let e = d.validate();
        assert_eq!(e.field("DiagramSettings.1.Type"), [DUPLICATE_TYPE]);
        assert_eq!(
            e.field("DiagramSettings.2.Type"),
            ["Choose one of: Scar, ReductionScar, Mole, Lump, Pain, Mastectomy, Star, Square, Label"]
        );
    }
}
