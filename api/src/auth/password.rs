//! argon2id password hashing. Parameters: m = 19456 KiB (19 MiB), t = 2 iterations, p = 1 lane
//! (the OWASP minimum for argon2id). They are stored in each PHC hash string, so raising them
//! later keeps old hashes verifiable. Hashing is CPU-heavy (~tens of ms), so it always runs on
//! tokio's blocking pool, never on a runtime worker.

use std::sync::OnceLock;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

use crate::error::{AppError, AppResult};

fn hasher() -> Argon2<'static> {
    let params = Params::new(19_456, 2, 1, None).expect("static argon2 parameters are valid");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Synchronous hash; call from blocking contexts only (see [`hash`]).
pub fn hash_blocking(password: &str) -> Result<String, argon2::password_hash::Error> {
    let salt = SaltString::generate(&mut rand::rngs::OsRng);
    Ok(hasher()
        .hash_password(password.as_bytes(), &salt)?
        .to_string())
}

fn verify_blocking(password: &str, phc: &str) -> bool {
    match PasswordHash::new(phc) {
        Ok(parsed) => hasher()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok(),
        Err(_) => false,
    }
}

/// A hash no password matches, verified for unknown users so that the time of a failed sign-in
/// does not reveal whether the account exists.
fn dummy_hash() -> &'static str {
    static DUMMY: OnceLock<String> = OnceLock::new();
    DUMMY.get_or_init(|| hash_blocking(&crate::auth::random_token()).unwrap_or_default())
}

pub async fn hash(password: String) -> AppResult<String> {
    tokio::task::spawn_blocking(move || hash_blocking(&password))
        .await
        .map_err(AppError::internal)?
        .map_err(AppError::internal)
}

/// Verifies `password` against `phc`, or against the dummy hash when there is no user.
pub async fn verify(password: String, phc: Option<String>) -> AppResult<bool> {
    tokio::task::spawn_blocking(move || match phc {
        Some(phc) => verify_blocking(&password, &phc),
        None => {
            verify_blocking(&password, dummy_hash());
            false
        }
    })
    .await
    .map_err(AppError::internal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_and_verify() {
        let h = hash_blocking("Portal!2026").unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        assert!(verify_blocking("Portal!2026", &h));
        assert!(!verify_blocking("portal!2026", &h));
        assert!(!verify_blocking("x", "not a hash"));
    }
}
