//! The configured password requirements (UserAccountPassword), read by every form that sets a
//! password: change my password, user administration, password reset, first-run setup.

use wasm_core::password::PasswordRequirements;

use crate::db::Db;
use crate::error::AppResult;
use crate::settings::{self, get_bool, get_i64};

fn count(doc: &serde_json::Value, key: &str) -> u32 {
    get_i64(doc, key)
        .and_then(|n| u32::try_from(n).ok())
        .unwrap_or(0)
}

/// The configured requirement counts (UserAccountPassword).
pub async fn password_requirements(db: &Db) -> AppResult<PasswordRequirements> {
    let doc = settings::load(db, settings::USER_ACCOUNT_PASSWORD).await?;
    Ok(PasswordRequirements {
        len_needed: count(&doc, "LenNeeded"),
        num_needed: count(&doc, "NumNeeded"),
        ucase_needed: count(&doc, "UcaseNeeded"),
        sym_needed: count(&doc, "SymNeeded"),
        use_complexity_requirements: get_bool(&doc, "UseComplexityRequirements"),
    })
}
