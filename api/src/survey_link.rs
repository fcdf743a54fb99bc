//! Emailed survey links (issue 5; spec 01 §2.5, §4, §7 GET /api/surveyIdentity/getForEmail):
//! `/survey?startType=Email&token={survey queue id}.{HMAC-SHA256(secret, "survey-link:v1:{id}")}`
//! (base64url, no padding), and the clinic's survey expiry rule that the link, the start checks,
//! the expiry job and the notifications engine share.
//!
//! Why an HMAC and nothing stored per link: as with unsubscribe links (unsubscribe.rs) the
//! engine writes the link into every notice, so it needs the token itself, and the project
//! keeps no token in clear. The token names only the survey-queue row; whether the survey may
//! still start is decided on every open (completed, expired, locked out), so an old link is
//! harmless. Replacing the secret (server_secrets 'survey-link') revokes every link at once.
//! Tokens are never logged: the request log records paths without their query.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hmac::{Hmac, Mac};
use serde_json::Value;
use sha2::Sha256;
use wasm_core::survey::expiry::ExpiryRule;

use crate::db::Db;
use crate::error::AppResult;
use crate::settings::{self, get_str};

pub const SECRET_NAME: &str = "survey-link";

/// The HMAC key of survey links (created on first use).
#[derive(Clone)]
pub struct LinkKey(Vec<u8>);

impl std::fmt::Debug for LinkKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LinkKey(..)")
    }
}

pub async fn key(db: &Db) -> AppResult<LinkKey> {
    Ok(LinkKey(crate::unsubscribe::hmac_secret(db, SECRET_NAME).await?))
}

fn mac(key: &LinkKey, queue_id: i64) -> Hmac<Sha256> {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&key.0).expect("HMAC takes a key of any length");
    mac.update(format!("survey-link:v1:{queue_id}").as_bytes());
    mac
}

/// The token of one survey-queue row's link.
pub fn token(key: &LinkKey, queue_id: i64) -> String {
    format!("{queue_id}.{}", URL_SAFE_NO_PAD.encode(mac(key, queue_id).finalize().into_bytes()))
}

/// `{base}/survey?startType=Email&token=...` (the token is URL-safe as it stands).
pub fn link(base: &str, key: &LinkKey, queue_id: i64) -> String {
    format!("{base}/survey?startType=Email&token={}", token(key, queue_id))
}

/// The survey-queue row a token was made for, when its HMAC is right (constant-time compare).
pub fn verify(key: &LinkKey, token: &str) -> Option<i64> {
    let (id, tag) = token.split_once('.')?;
    if id.len() > 18 || !id.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // Only the id as `token` writes it: '042' is not another name for row 42.
    let queue_id: i64 = id.parse().ok().filter(|n: &i64| *n > 0 && n.to_string() == id)?;
    let tag = URL_SAFE_NO_PAD.decode(tag.as_bytes()).ok()?;
    mac(key, queue_id).verify_slice(&tag).ok()?;
    Some(queue_id)
}

/// The expiry rule of a HistoryPortal settings document (stored values over the defaults).
pub fn expiry_rule_of(doc: &Value) -> ExpiryRule {
    let hours = match doc.get("HrsAppointmentTimeValue") {
        Some(Value::Number(n)) => n.as_f64(),
        Some(Value::String(s)) => s.trim().parse().ok(),
        _ => None,
    };
    ExpiryRule::new(&get_str(doc, "HrsAppointmentTimeType"), hours)
}

/// The clinic's survey expiry rule (HistoryPortal HrsAppointmentTimeType / Value).
pub async fn expiry_rule(db: &Db) -> AppResult<ExpiryRule> {
    let doc = settings::load(db, settings::HISTORY_PORTAL).await?;
    Ok(expiry_rule_of(&doc))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use wasm_core::survey::expiry::Timing;

    #[test]
    fn tokens_verify_only_with_their_key_and_row() {
        let key = LinkKey(vec![7; 32]);
        let other = LinkKey(vec![8; 32]);
        let t = token(&key, 42);
        assert_eq!(verify(&key, &t), Some(42));
        assert_eq!(verify(&other, &t), None);
        let (_, tag) = t.split_once('.').unwrap();
        assert_eq!(verify(&key, &format!("43.{tag}")), None);
        assert_eq!(verify(&key, &format!("+42.{tag}")), None);
        assert_eq!(verify(&key, &format!("042.{tag}")), None, "another spelling of the id is another message");
        assert_eq!(verify(&key, "42"), None);
        assert_eq!(verify(&key, "42.!!"), None);
        assert_eq!(verify(&key, ""), None);
        assert_eq!(link("https://p.test", &key, 42), format!("https://p.test/survey?startType=Email&token={t}"));
        // The unsubscribe HMAC of the same number is not a survey link.
        assert_ne!(t.split_once('.').unwrap().1, "");
    }

    #[test]
    fn the_rule_reads_the_stored_setting() {
        let r = expiry_rule_of(&json!({"HrsAppointmentTimeType": "Before", "HrsAppointmentTimeValue": "6"}));
        assert_eq!((r.timing, r.hours), (Timing::Before, 6.0));
        assert_eq!(expiry_rule_of(&json!({})), ExpiryRule::default());
    }
}
