//! Unsubscribe links (spec 02 §2.1 unsubscribe/{token}, issue 3 part 7). A link carries
//! `{patient id}.{HMAC-SHA256(secret, "unsubscribe:v1:{patient id}")}` (base64url, no padding).
//!
//! Why an HMAC and not a stored token: the notifications engine writes the link into every
//! reminder, so it needs the token itself; a stored per-patient token could then only be kept in
//! clear (the project stores only hashes of tokens). With an HMAC nothing per patient is stored,
//! a link cannot be guessed or forged from a patient id without the secret, and replacing the
//! secret (server_secrets 'unsubscribe') revokes every link at once. The secret lives in the
//! database so that every API instance and an engine running in another process agree.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::Sha256;

use crate::db::{now_ms, Db};
use crate::error::AppResult;
use crate::on_db;

const SECRET_NAME: &str = "unsubscribe";

/// The HMAC key of unsubscribe links (created on first use).
#[derive(Clone)]
pub struct UnsubscribeKey(Vec<u8>);

impl std::fmt::Debug for UnsubscribeKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("UnsubscribeKey(..)")
    }
}

/// Loads the key, creating it with 32 random bytes when the database has none yet.
pub async fn key(db: &Db) -> AppResult<UnsubscribeKey> {
    Ok(UnsubscribeKey(hmac_secret(db, SECRET_NAME).await?))
}

/// The HMAC secret `name` of server_secrets, created with 32 random bytes on first use (the
/// emailed survey links use one too, see survey_link.rs).
pub(crate) async fn hmac_secret(db: &Db, name: &str) -> AppResult<Vec<u8>> {
    let mut fresh = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut fresh);
    let fresh = URL_SAFE_NO_PAD.encode(fresh);
    // Two instances racing both insert; one wins and both read the winner.
    on_db!(db, pool => sqlx::query(
        "INSERT INTO server_secrets (name, value, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING",
    )
    .bind(name)
    .bind(&fresh)
    .bind(now_ms())
    .execute(pool)
    .await
    .map(|_| ()))?;
    let value: String = on_db!(db, pool => sqlx::query_scalar("SELECT value FROM server_secrets WHERE name = $1")
        .bind(name)
        .fetch_one(pool)
        .await)?;
    Ok(URL_SAFE_NO_PAD.decode(value.as_bytes()).unwrap_or_else(|_| value.into_bytes()))
}

fn mac(key: &UnsubscribeKey, patient_id: i64) -> Hmac<Sha256> {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&key.0).expect("HMAC takes a key of any length");
    mac.update(format!("unsubscribe:v1:{patient_id}").as_bytes());
    mac
}

/// The token of one patient's unsubscribe link.
pub fn token(key: &UnsubscribeKey, patient_id: i64) -> String {
    format!("{patient_id}.{}", URL_SAFE_NO_PAD.encode(mac(key, patient_id).finalize().into_bytes()))
}

/// `{base}/unsubscribe/{token}`: the page of spec 02 §2.9.
pub fn link(base: &str, key: &UnsubscribeKey, patient_id: i64) -> String {
    format!("{base}/unsubscribe/{}", token(key, patient_id))
}

/// The patient a token was made for, when its HMAC is right (constant-time compare).
pub fn verify(key: &UnsubscribeKey, token: &str) -> Option<i64> {
    let (id, tag) = token.split_once('.')?;
    let patient_id: i64 = id.parse().ok().filter(|n| *n > 0)?;
    let tag = URL_SAFE_NO_PAD.decode(tag.as_bytes()).ok()?;
    mac(key, patient_id).verify_slice(&tag).ok()?;
    Some(patient_id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_verify_only_with_their_key_and_patient() {
        let key = UnsubscribeKey(vec![7; 32]);
        let other = UnsubscribeKey(vec![8; 32]);
        let t = token(&key, 42);
        assert_eq!(verify(&key, &t), Some(42));
        assert_eq!(verify(&other, &t), None);
        let (_, tag) = t.split_once('.').unwrap();
        assert_eq!(verify(&key, &format!("43.{tag}")), None);
        assert_eq!(verify(&key, "42"), None);
        assert_eq!(verify(&key, "42.!!"), None);
        assert_eq!(link("https://p.test", &key, 42), format!("https://p.test/unsubscribe/{t}"));
    }
}
