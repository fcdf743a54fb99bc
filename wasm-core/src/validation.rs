//! The result every form rule returns: field name -> the messages for that field, in the order
//! the rules ran. An empty map means valid. The API sends it as `Errors` in a 400 response and
//! the web app shows each list under its field.

use crate::sorted_map::SortedMap;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
// tsify names a map's TypeScript type by its Rust type's name: written out as BTreeMap's was.
#[cfg_attr(
    feature = "wasm",
    derive(tsify::Tsify),
    tsify(type = "Record<string, string[]>")
)]
#[serde(transparent)]
pub struct ValidationErrors(pub SortedMap<String, Vec<String>>);

impl ValidationErrors {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn add(&mut self, field: &str, message: impl Into<String>) {
        self.0
            .entry(field.to_owned())
            .or_default()
            .push(message.into());
    }

    /// Adds `message` to `field` when `failed` holds; returns `failed` so rules can chain.
    pub fn check(&mut self, failed: bool, field: &str, message: &str) -> bool {
        if failed {
            self.add(field, message);
        }
        failed
    }

    pub fn is_valid(&self) -> bool {
        self.0.is_empty()
    }

    pub fn field(&self, field: &str) -> &[String] {
        self.0.get(field).map(Vec::as_slice).unwrap_or(&[])
    }

    pub fn merge(&mut self, other: ValidationErrors) {
        for (field, messages) in other.0 {
            self.0.entry(field).or_default().extend(messages);
        }
    }

    /// Every message, field by field, for a one-line summary.
    pub fn messages(&self) -> impl Iterator<Item = &str> {
        self.0.values().flatten().map(String::as_str)
    }
}

/// A value is missing when it is empty or only white space.
pub fn is_blank(value: &str) -> bool {
    value.trim().is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collects_messages_per_field_in_order() {
        let mut errors = ValidationErrors::new();
        assert!(errors.is_valid());
        errors.add("Password", "first");
        errors.check(true, "Password", "second");
        errors.check(false, "Email", "never");
        assert_eq!(errors.field("Password"), ["first", "second"]);
        assert!(errors.field("Email").is_empty());
        assert!(!errors.is_valid());
    }

    #[test]
    fn serialises_as_a_plain_object() {
        let mut errors = ValidationErrors::new();
        errors.add("Email", "Email Address is required");
        let json = serde_json::to_string(&errors).unwrap();
        assert_eq!(json, r#"{"Email":["Email Address is required"]}"#);
    }

    #[test]
    fn blank_means_empty_or_white_space() {
        assert!(is_blank(""));
        assert!(is_blank("  \t"));
        assert!(!is_blank(" a "));
    }
}
