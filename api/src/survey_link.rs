//! Emailed survey links (issue 5; spec 01 §2.5, §4, §7 GET /api/surveyIdentity/getForEmail):
//! `/survey?startType=Email&token={survey queue id}.{HMAC-SHA256(secret, "survey-link:v1:{id}")}`
//! (base64url, no padding).
//!
//! The token is a signed id (signed_ids.rs: why an HMAC and nothing stored per link). It names
//! only the survey-queue row; whether the survey may still start is decided on every open
//! (completed, expired, locked out), so an old link is harmless. Replacing the secret
//! (server_secrets 'survey-link') revokes every link at once.
//! Tokens are never logged: the request log records paths without their query.

use crate::db::Db;
use crate::error::AppResult;
use crate::signed_ids::SignedIds;

pub const SECRET_NAME: &str = "survey-link";
const PURPOSE: &str = "survey-link";

/// The HMAC key of survey links (created on first use).
pub type LinkKey = SignedIds;

pub async fn key(db: &Db) -> AppResult<LinkKey> {
    SignedIds::load(db, SECRET_NAME, PURPOSE).await
}

/// `{base}/survey?startType=Email&token=...` (the token is URL-safe as it stands).
pub fn link(base: &str, key: &LinkKey, queue_id: i64) -> String {
    format!(
        "{base}/survey?startType=Email&token={}",
        key.token(queue_id)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_verify_only_with_their_key_and_row() {
        let key = SignedIds::new(vec![7; 32], PURPOSE);
        let other = SignedIds::new(vec![8; 32], PURPOSE);
        let t = key.token(42);
        assert_eq!(key.verify(&t), Some(42));
        assert_eq!(other.verify(&t), None);
        let (_, tag) = t.split_once('.').unwrap();
        assert_eq!(key.verify(&format!("43.{tag}")), None);
        assert_eq!(key.verify(&format!("+42.{tag}")), None);
        assert_eq!(
            key.verify(&format!("042.{tag}")),
            None,
            "another spelling of the id is another message"
        );
        assert_eq!(key.verify("42"), None);
        assert_eq!(key.verify("42.!!"), None);
        assert_eq!(key.verify(""), None);
        assert_eq!(
            link("https://p.test", &key, 42),
            format!("https://p.test/survey?startType=Email&token={t}")
        );
        // The unsubscribe token of the same number, under the same secret, is not a survey link.
        assert_eq!(
            key.verify(&SignedIds::new(vec![7; 32], "unsubscribe").token(42)),
            None
        );
    }
}
