//! Settings groups on the wire (issue 13; spec 03 §7 "Settings groups": GET and PUT
//! /api/configurationForm/{sectionName}, the body of the PUT the full settings object).

use crate::wire;

wire! {
    /// A group as the API answers it: the whole document with the version it was read at.
    /// Secret fields are answered empty; the ones the server holds are named in StoredSecrets
    /// (an empty secret on save keeps the stored one).
    #[serde(rename_all = "PascalCase")]
    pub struct SettingsEnvelope<T> {
        pub name: String,
        pub version: i64,
        pub settings: T,
        pub stored_secrets: Vec<String>,
    }

    /// A save: the whole document and the version it was read at (409 when it is stale).
    #[serde(rename_all = "PascalCase")]
    pub struct SettingsSave<T> {
        pub version: i64,
        pub settings: T,
    }

    /// One group of a save of several (a page with one Save for several groups, such as
    /// Documents Settings > general-documents).
    #[serde(rename_all = "PascalCase")]
    pub struct NamedSettingsSave<T> {
        pub name: String,
        pub version: i64,
        pub settings: T,
    }

    /// PUT /api/configurationForms: several groups saved together or not at all (409 when any is
    /// stale; 400 with each message under `{Group}.{Field}`).
    #[serde(rename_all = "PascalCase")]
    pub struct SettingsSaveAll<T> {
        pub groups: Vec<NamedSettingsSave<T>>,
    }
}

wire! {
    /// POST /api/settings/setvalue: one stored value by key (home content, logo widths).
    pub struct SetValueRequest {
        #[serde(alias = "Key")]
        pub key: String,
        #[serde(alias = "Value")]
        pub value: String,
    }
}

wire! {
    /// The 409 of a save at a stale version (spec 04 §4): the error body, and the group as
    /// stored now, so the page can offer to reload it instead of overwriting it.
    #[serde(rename_all = "PascalCase")]
    pub struct SettingsConflict<T> {
        #[serde(flatten)]
        pub error: crate::model::ApiError,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub current: Option<SettingsEnvelope<T>>,
    }
}
