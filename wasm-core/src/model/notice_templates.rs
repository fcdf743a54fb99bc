//! Notification Templates (spec 03 §2 "Notification Templates (email-service)", §3
//! "Imaging-system email template" and "Portal template", §5 "Email templates", §7).

use crate::wire;

wire! {
    /// One imaging-system email template as listed (GET /magview.api/emailLetters).
    #[serde(rename_all = "PascalCase")]
    pub struct EmailLetterRow {
        pub id: i64,
        /// 0: every location (the template used where a location has none of its own).
        pub location: i64,
        pub location_name: String,
        /// One of `notice_templates::LETTER_TYPES`.
        pub letter_type: String,
    }

    /// One imaging-system email template (GET /magview.api/emailLetters/details?id&location; the
    /// body of PUT /magview.api/emailLetters?id&location). Id and Location are read-only.
    #[serde(rename_all = "PascalCase")]
    pub struct EmailLetter {
        #[serde(default)]
        pub id: i64,
        #[serde(default)]
        pub location: i64,
        #[serde(default)]
        pub location_name: String,
        #[serde(default)]
        pub letter_type: String,
        #[serde(default)]
        pub subject: String,
        #[serde(default)]
        pub comments: String,
        /// Rich text (Quill HTML) with `{Token}` placeholders.
        #[serde(default)]
        pub content: String,
        /// The stored revision the edit started from (a later save by someone else: 409).
        #[serde(default)]
        pub revision: i64,
    }

    /// ?id&location of the imaging-system template calls.
    pub struct EmailLetterKey {
        pub id: i64,
        pub location: i64,
    }

    /// One portal notification template (GET /api/notificationTemplate/gettemplates; the body of
    /// POST /api/notificationTemplate/save, Id 0 adds one). Id and Name are not editable once saved.
    #[serde(rename_all = "PascalCase")]
    pub struct PortalTemplate {
        #[serde(default)]
        pub id: i64,
        #[serde(default)]
        pub name: String,
        #[serde(default)]
        pub is_active: bool,
        /// Sent only inside the History Portal business days and hours.
        #[serde(default)]
        pub is_send_during_business_hours: bool,
        #[serde(default)]
        pub subject: String,
        /// Rich text (Quill HTML) with `{Token}` placeholders.
        #[serde(default)]
        pub body: String,
        /// One of `notice_templates::PORTAL_TYPES`.
        #[serde(default, rename = "Type")]
        pub kind: String,
        #[serde(default)]
        pub revision: i64,
    }

    /// Which template's text in which language (GET /api/notificationTemplate/language): Type
    /// "Portal" (Id of a portal template, Location 0) or "EmailLetter" (Id and Location of an
    /// imaging-system template); Language a code of `labels::LANGUAGES` other than "en".
    #[serde(rename_all = "PascalCase")]
    pub struct TemplateLanguageKey {
        #[serde(rename = "Type")]
        pub template_type: String,
        pub id: i64,
        #[serde(default)]
        pub location: i64,
        pub language: String,
    }

    /// A template's Subject and Body in one language (GET/POST /api/notificationTemplate/language).
    /// Source says where the text comes from: "Clinic" (saved here), "Shipped" (the portal's
    /// translation) or "English" (no translation: the notice goes out in English). Revision 0:
    /// the clinic has not saved this language yet.
    #[serde(rename_all = "PascalCase")]
    pub struct TemplateTranslation {
        #[serde(rename = "Type")]
        pub template_type: String,
        pub id: i64,
        #[serde(default)]
        pub location: i64,
        pub language: String,
        #[serde(default)]
        pub subject: String,
        /// Rich text (Quill HTML) with the same `{Token}` placeholders as the English template.
        #[serde(default)]
        pub body: String,
        #[serde(default)]
        pub source: String,
        #[serde(default)]
        pub revision: i64,
    }

    /// ?id of DELETE /api/notificationTemplate/RemoveTemplate.
    pub struct TemplateIdQuery {
        pub id: i64,
    }

    /// One token of the help modal.
    #[serde(rename_all = "PascalCase")]
    pub struct TokenHelp {
        /// Written in a template as `{Token}`.
        pub token: String,
        pub description: String,
    }

    /// A group of the help modal (General, Patient, Study, History Portal, Email Service).
    #[serde(rename_all = "PascalCase")]
    pub struct TokenGroup {
        pub name: String,
        pub tokens: Vec<TokenHelp>,
    }
}
