//! The configured password requirements (UserAccountPassword), read by every form that sets a
//! password: change my password, user administration, password reset, first-run setup.

use wasm_core::password::PasswordRequirements;
use wasm_core::settings::user_account_password::UserAccountPassword;

use crate::db::Db;
use crate::error::AppResult;
use crate::settings;

/// The configured requirement counts (UserAccountPassword).
pub async fn password_requirements(db: &Db) -> AppResult<PasswordRequirements> {
    let pw: UserAccountPassword = settings::get(db).await?;
    // Whole numbers from 0 to 128 once saved, so `as u32` is exact.
    Ok(PasswordRequirements {
        len_needed: pw.len_needed as u32,
        num_needed: pw.num_needed as u32,
        ucase_needed: pw.ucase_needed as u32,
        sym_needed: pw.sym_needed as u32,
        use_complexity_requirements: pw.use_complexity_requirements,
    })
}
