//! The configured password requirements (UserAccountPassword), read by every form that sets a
//! password: change my password, user administration, password reset, first-run setup,
//! registration; and the breached-password list every one of them checks too.

use wasm_core::breached_passwords::{validate_not_breached, BreachedList};
use wasm_core::password::PasswordRequirements;
use wasm_core::settings::user_account_password::UserAccountPassword;
use wasm_core::ValidationErrors;

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

/// The breached and common passwords list shipped with the server (ASVS V2.1.7; made by
/// `scripts/gen-common-passwords.py`: the 100,000 most common breached passwords).
static BREACHED: &[u8] = include_bytes!("../resources/common-passwords.bin");

pub fn breached_list() -> BreachedList<'static> {
    BreachedList::new(BREACHED)
}

/// wasm-core's breached-password rule over the shipped list: `field` gets its message when
/// `password` is on it. Every path that sets a password merges this.
pub fn breached(field: &str, password: &str) -> ValidationErrors {
    validate_not_breached(field, password, &breached_list())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_list_holds_the_common_passwords() {
        let list = breached_list();
        assert!(list.len() > 95_000, "{}", list.len());
        for p in [
            "123456",
            "password",
            "Password1",
            "iloveyou",
            "qwerty123",
            "Welcome1",
        ] {
            assert!(list.contains(p), "{p}");
        }
        // The demo password and a long random one are not on it.
        assert!(breached("NewPassword", "Portal!2026").is_valid());
        assert!(!list.contains("k7#Qv9!tZr2@pLm4"));
    }
}
