//! Unsubscribe links (spec 02 §2.1 unsubscribe/{token}, issue 3 part 7). A link carries
//! `{patient id}.{HMAC-SHA256(secret, "unsubscribe:v1:{patient id}")}` (base64url, no padding).
//!
//! The token is a signed id (signed_ids.rs: why an HMAC and nothing stored per patient);
//! replacing the secret (server_secrets 'unsubscribe') revokes every link at once.

use crate::db::Db;
use crate::error::AppResult;
use crate::signed_ids::SignedIds;

pub const SECRET_NAME: &str = "unsubscribe";
const PURPOSE: &str = "unsubscribe";

/// The key of unsubscribe links (created on first use).
pub type UnsubscribeKey = SignedIds;

/// Loads the key, creating it with 32 random bytes when the database has none yet.
pub async fn key(db: &Db) -> AppResult<UnsubscribeKey> {
    SignedIds::load(db, SECRET_NAME, PURPOSE).await
}

/// `{base}/unsubscribe/{token}`: the page of spec 02 §2.9.
pub fn link(base: &str, key: &UnsubscribeKey, patient_id: i64) -> String {
    format!("{base}/unsubscribe/{}", key.token(patient_id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_verify_only_with_their_key_and_patient() {
        let key = SignedIds::new(vec![7; 32], PURPOSE);
        let other = SignedIds::new(vec![8; 32], PURPOSE);
        let t = key.token(42);
        assert_eq!(key.verify(&t), Some(42));
        assert_eq!(other.verify(&t), None);
        let (_, tag) = t.split_once('.').unwrap();
        assert_eq!(key.verify(&format!("43.{tag}")), None);
        assert_eq!(key.verify("42"), None);
        assert_eq!(key.verify("42.!!"), None);
        assert_eq!(
            link("https://p.test", &key, 42),
            format!("https://p.test/unsubscribe/{t}")
        );
    }
}
