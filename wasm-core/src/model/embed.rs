//! Embedded (single-sign-on) pages (spec 01 §2.11, §3 "Embed error data"; GET /api/userApi/EmbedError).

use crate::wire;

wire! {
    #[serde(rename_all = "PascalCase")]
    pub struct EmbedError {
        /// Sanitised HTML.
        pub message: String,
        #[serde(rename = "ShowBackToMainMenuInSSO")]
        pub show_back_to_main_menu_in_sso: bool,
        #[serde(rename = "ShowBackToMainMenuAsLinkInSSO")]
        pub show_back_to_main_menu_as_link_in_sso: bool,
        #[serde(rename = "ShowIconInBackToMainMenuInSSO")]
        pub show_icon_in_back_to_main_menu_in_sso: bool,
        pub go_back_section_text: String,
        pub go_back_section_link: String,
        pub return_url: String,
    }
}

wire! {
    /// GET /api/userApi/EmbedError?mode=&id=&errorId=
    pub struct EmbedQuery {
        #[serde(default)]
        pub mode: String,
        #[serde(default, rename = "errorId")]
        pub error_id: String,
    }
}

wire! {
    /// The SSO type the SSO Management page shows for a stored IntegrationType (spec 03 §4;
    /// `settings::sso::sso_type_of`).
    #[derive(Default, Eq)]
    #[serde(rename_all = "PascalCase")]
    pub struct SsoTypeChoice {
        /// Decryption, Saml, or the stored value itself (EpicSmartOnFhirTesseract, ...).
        pub sso_type: String,
        /// For Decryption: DecryptionByHash or DecryptionByPassword.
        pub key_type: String,
        /// For Saml: the 'with service request' box.
        pub with_service_request: bool,
    }
}

wire! {
    /// POST /api/ssoConfiguration/CheckAlternativeIdColumnExist (spec 03 §7).
    #[serde(rename_all = "PascalCase")]
    pub struct AlternativeIdColumn {
        #[serde(default)]
        pub column: String,
    }
}

wire! {
    /// The answer: IsSuccess, and the page's text ('Column Exist' / 'Column Not Exist', spec 03 §8).
    #[serde(rename_all = "PascalCase")]
    pub struct AlternativeIdColumnCheck {
        pub is_success: bool,
        pub message: String,
    }
}
