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
