//! The shell and survey logos (spec 02 §3 "Logo settings", §7.4, §7.4b; GET /api/logoSettings/login
//! and /survey).

use crate::wire;

wire! {
    #[serde(rename_all = "PascalCase")]
    pub struct LogoSettings {
        /// The uploaded image's address with `?t=` its upload time, so a new image is never
        /// served from a cache; absent when none is uploaded (the built-in mark is shown).
        pub logo_url: Option<String>,
        /// Pixels (default 50, spec 02 §9).
        pub logo_width: u32,
        pub logo_title: String,
    }
}
