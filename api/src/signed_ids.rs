//! Tokens that name one row and prove it without anything stored per token: `{id}.{HMAC-SHA256(
//! secret, "{purpose}:v1:{id}")}` (base64url, no padding). Unsubscribe links (unsubscribe.rs) and
//! emailed survey links (survey_link.rs) are such tokens, each with its own secret and purpose.
//!
//! Why an HMAC: the notifications engine writes the link into every notice, so it needs the token
//! itself, and the project keeps no token in clear. A link cannot be forged from an id without the
//! secret, and replacing the secret (its server_secrets row) revokes every link at once. The
//! secret lives in the database so that every API instance and an engine in another process agree.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::Sha256;

use crate::db::{now_ms, Db};
use crate::error::AppResult;

/// The key of one kind of link: the secret and the purpose it signs for.
#[derive(Clone)]
pub struct SignedIds {
    secret: Vec<u8>,
    purpose: &'static str,
}

impl std::fmt::Debug for SignedIds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SignedIds({}, ..)", self.purpose)
    }
}

impl SignedIds {
    pub fn new(secret: Vec<u8>, purpose: &'static str) -> SignedIds {
        SignedIds { secret, purpose }
    }

    /// The secret `secret_name` of server_secrets (created with 32 random bytes on first use),
    /// signing for `purpose`.
    pub async fn load(db: &Db, secret_name: &str, purpose: &'static str) -> AppResult<SignedIds> {
        let mut fresh = [0u8; 32];
        rand::rngs::OsRng.fill_bytes(&mut fresh);
        let fresh = URL_SAFE_NO_PAD.encode(fresh);
        let value =
            crate::store::server_secrets::get_or_insert(db, secret_name, &fresh, now_ms()).await?;
        let secret = URL_SAFE_NO_PAD
            .decode(value.as_bytes())
            .unwrap_or_else(|_| value.into_bytes());
        Ok(SignedIds::new(secret, purpose))
    }

    fn mac(&self, id: i64) -> Hmac<Sha256> {
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&self.secret)
            .expect("HMAC takes a key of any length");
        mac.update(format!("{}:v1:{id}", self.purpose).as_bytes());
        mac
    }

    /// The token naming `id`.
    pub fn token(&self, id: i64) -> String {
        format!(
            "{id}.{}",
            URL_SAFE_NO_PAD.encode(self.mac(id).finalize().into_bytes())
        )
    }

    /// The id a token was made for, when its HMAC is right (constant-time compare). Only the id
    /// as `token` writes it: '042' or '+42' is not another name for 42.
    pub fn verify(&self, token: &str) -> Option<i64> {
        let (id, tag) = token.split_once('.')?;
        if id.len() > 18 || !id.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let parsed: i64 = id
            .parse()
            .ok()
            .filter(|n: &i64| *n > 0 && n.to_string() == id)?;
        let tag = URL_SAFE_NO_PAD.decode(tag.as_bytes()).ok()?;
        self.mac(parsed).verify_slice(&tag).ok()?;
        Some(parsed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_verifies_only_with_its_secret_purpose_and_id() {
        let key = SignedIds::new(vec![7; 32], "test");
        let t = key.token(42);
        assert_eq!(key.verify(&t), Some(42));
        assert_eq!(
            SignedIds::new(vec![8; 32], "test").verify(&t),
            None,
            "another secret"
        );
        assert_eq!(
            SignedIds::new(vec![7; 32], "other").verify(&t),
            None,
            "another purpose"
        );
        let (_, tag) = t.split_once('.').unwrap();
        for forged in [
            format!("43.{tag}"),
            format!("+42.{tag}"),
            format!("042.{tag}"),
            "42".to_owned(),
            "42.!!".to_owned(),
            String::new(),
        ] {
            assert_eq!(key.verify(&forged), None, "{forged:?}");
        }
    }
}
