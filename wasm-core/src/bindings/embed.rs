//! Embedded pages (crate::embed; spec 01 §2.11).

use wasm_bindgen::prelude::*;

use crate::embed;

/// The address /embed/success leads to, or undefined when the ids are not plain segments.
#[wasm_bindgen(js_name = embedSuccessPath)]
pub fn embed_success_path(
    page: &str,
    #[wasm_bindgen(js_name = clientId)] client_id: &str,
    #[wasm_bindgen(js_name = ssoContextToken)] sso_context_token: &str,
) -> Option<String> {
    embed::embed_success_path(page, client_id, sso_context_token)
}
