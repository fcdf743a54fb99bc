//! The decryption sign-in token (issue 19; IntegrationType DecryptionByHash / DecryptionByPassword).
//!
//! Format v1, what the EHR puts in `/sso/decryption/{key}?token=`:
//! `base64url(nonce[12] || AES-256-GCM(key, nonce, plaintext, aad = "portal-sso-v1"))` without
//! padding, the plaintext being JSON `{"Identifier": MRN or alternate id, "Timestamp": Unix
//! seconds, "Nonce": 16-128 characters}`. The 256-bit key comes from the configured AESKey:
//! - DecryptionByHash: SHA-256 of the AESKey text;
//! - DecryptionByPassword: PBKDF2-HMAC-SHA256 of the AESKey text, salt "portal-sso-v1",
//!   100 000 rounds.
//!
//! A token is accepted within [`WINDOW_SECS`] of its timestamp (and at most [`SKEW_SECS`] ahead),
//! once: its nonce is stored until the window closes. The GCM tag authenticates every byte, so a
//! forged or altered token never decrypts. The older unauthenticated format (AES-CBC without a
//! MAC, CryptographyKeySize bits) is not accepted at all: anyone able to flip ciphertext bits
//! could change the identifier in it.

use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::{Aes256Gcm, Nonce};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde::Deserialize;
use sha2::{Digest, Sha256};

pub const AAD: &[u8] = b"portal-sso-v1";
pub const PBKDF2_SALT: &[u8] = b"portal-sso-v1";
pub const PBKDF2_ROUNDS: u32 = 100_000;
/// How long after its timestamp a token is accepted.
pub const WINDOW_SECS: i64 = 120;
/// How far ahead of this server's clock a timestamp may be.
pub const SKEW_SECS: i64 = 30;
/// Longest token accepted (a few hundred characters in practice).
const MAX_TOKEN: usize = 4096;

/// Why a token was refused (audited; never shown: the user sees one message for all).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    Malformed,
    /// It does not decrypt with the configured key: forged, altered or another key.
    NotAuthentic,
    Expired,
    FromTheFuture,
}

impl Refusal {
    pub fn reason(self) -> &'static str {
        match self {
            Refusal::Malformed => "malformed token",
            Refusal::NotAuthentic => "token not authentic",
            Refusal::Expired => "token expired",
            Refusal::FromTheFuture => "token timestamp ahead of the server clock",
        }
    }
}

/// A token's content, checked for authenticity and time (the nonce is the caller's to store).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct Claims {
    pub identifier: String,
    pub timestamp: i64,
    pub nonce: String,
}

/// The AES-256 key of a key type from the configured AESKey text.
pub fn derive_key(key_type: &str, aes_key: &str) -> Option<[u8; 32]> {
    if aes_key.is_empty() {
        return None;
    }
    match key_type {
        "DecryptionByHash" => Some(Sha256::digest(aes_key.as_bytes()).into()),
        "DecryptionByPassword" => {
            let mut key = [0u8; 32];
            pbkdf2::pbkdf2_hmac::<Sha256>(aes_key.as_bytes(), PBKDF2_SALT, PBKDF2_ROUNDS, &mut key);
            Some(key)
        }
        _ => None,
    }
}

/// Decrypts and checks `token` at `now` (Unix seconds).
pub fn open(key: &[u8; 32], token: &str, now: i64) -> Result<Claims, Refusal> {
    if token.len() > MAX_TOKEN {
        return Err(Refusal::Malformed);
    }
    let bytes = URL_SAFE_NO_PAD
        .decode(token.trim())
        .map_err(|_| Refusal::Malformed)?;
    if bytes.len() < 12 + 16 {
        return Err(Refusal::Malformed);
    }
    let (nonce, sealed) = bytes.split_at(12);
    let plain = Aes256Gcm::new(key.into())
        .decrypt(
            Nonce::from_slice(nonce),
            Payload {
                msg: sealed,
                aad: AAD,
            },
        )
        .map_err(|_| Refusal::NotAuthentic)?;
    let claims: Claims = serde_json::from_slice(&plain).map_err(|_| Refusal::Malformed)?;
    let nonce_ok = (16..=128).contains(&claims.nonce.len());
    let id_ok = !claims.identifier.trim().is_empty() && claims.identifier.len() <= 128;
    if !nonce_ok || !id_ok {
        return Err(Refusal::Malformed);
    }
    if claims.timestamp > now + SKEW_SECS {
        return Err(Refusal::FromTheFuture);
    }
    if claims.timestamp + WINDOW_SECS < now {
        return Err(Refusal::Expired);
    }
    Ok(claims)
}

/// Seals claims as an EHR would (the API tests make their tokens with it).
pub fn seal(key: &[u8; 32], claims_json: &str) -> String {
    use rand::RngCore;
    let mut nonce = [0u8; 12];
    rand::rngs::OsRng.fill_bytes(&mut nonce);
    let sealed = Aes256Gcm::new(key.into())
        .encrypt(
            Nonce::from_slice(&nonce),
            Payload {
                msg: claims_json.as_bytes(),
                aad: AAD,
            },
        )
        .unwrap_or_default();
    let mut out = nonce.to_vec();
    out.extend(sealed);
    URL_SAFE_NO_PAD.encode(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claims(ts: i64) -> String {
        format!(r#"{{"Identifier":"MRN-1","Timestamp":{ts},"Nonce":"0123456789abcdef"}}"#)
    }

    #[test]
    fn opens_what_it_seals_inside_the_window() {
        let key = derive_key("DecryptionByHash", "shared secret").unwrap();
        let token = seal(&key, &claims(1000));
        let c = open(&key, &token, 1060).unwrap();
        assert_eq!(c.identifier, "MRN-1");
        assert_eq!(
            open(&key, &token, 1000 + WINDOW_SECS + 1),
            Err(Refusal::Expired)
        );
        assert_eq!(
            open(&key, &token, 1000 - SKEW_SECS - 1),
            Err(Refusal::FromTheFuture)
        );
    }

    #[test]
    fn another_key_or_an_altered_byte_is_not_authentic() {
        let key = derive_key("DecryptionByHash", "shared secret").unwrap();
        let other = derive_key("DecryptionByPassword", "shared secret").unwrap();
        assert_ne!(key, other);
        let token = seal(&key, &claims(1000));
        assert_eq!(open(&other, &token, 1000), Err(Refusal::NotAuthentic));
        let mut bytes = URL_SAFE_NO_PAD.decode(&token).unwrap();
        let last = bytes.len() - 20;
        bytes[last] ^= 1;
        let altered = URL_SAFE_NO_PAD.encode(bytes);
        assert_eq!(open(&key, &altered, 1000), Err(Refusal::NotAuthentic));
        assert_eq!(open(&key, "not base64!", 1000), Err(Refusal::Malformed));
        assert_eq!(open(&key, "", 1000), Err(Refusal::Malformed));
        assert!(derive_key("DecryptionByHash", "").is_none());
        assert!(derive_key("Saml", "k").is_none());
    }
}
