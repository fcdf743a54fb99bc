//! Server-side sessions. The cookie holds a random token; the table holds its SHA-256. Idle
//! timeout: CorePortal SessionTimeoutMinutes, enforced here (an expired session is deleted and
//! the caller is treated as signed out). `last_seen_at`/`expires_at` are refreshed at most every
//! [`TOUCH_INTERVAL_MS`] to spare a write per request.

use wasm_core::model::Role;

use super::{hash_token, random_token, session_cache};
use crate::db::{now_ms, Db, Tx};
use crate::error::AppResult;
use crate::settings;
use crate::store::sessions;

pub const TOUCH_INTERVAL_MS: i64 = 30_000;

/// The signed-in user behind a session.
#[derive(Debug, Clone)]
pub struct SessionUser {
    pub user_id: i64,
    pub username: String,
    pub first_name: String,
    pub last_name: String,
    pub role: Role,
    pub patient_id: Option<i64>,
    pub impersonator_user_id: Option<i64>,
    pub token_hash: String,
    /// Set when the session was opened by single sign-on (issue 19): its SSO context token.
    /// Such a session is in SSO mode (spec 01 §4, §6).
    pub sso_context: Option<String>,
}

impl SessionUser {
    /// First + last name, else the username (getCurrentUserName, PortalUserLoggedIn).
    pub fn display_name(&self) -> String {
        let full = format!("{} {}", self.first_name.trim(), self.last_name.trim());
        let full = full.trim();
        if full.is_empty() {
            self.username.clone()
        } else {
            full.to_owned()
        }
    }
}

/// Creates a session for `user_id` and returns its token (for the cookie).
pub async fn create(db: &Db, user_id: i64, impersonator_user_id: Option<i64>) -> AppResult<String> {
    let length = length_ms(db).await?;
    let mut tx = db.begin().await?;
    let token = create_in(&mut tx, user_id, impersonator_user_id, length).await?;
    tx.commit().await?;
    Ok(token)
}

/// How long a new session lasts (CorePortal). Read it before a transaction begins: a
/// transaction that waits for a second connection of the pool can starve it.
pub async fn length_ms(db: &Db) -> AppResult<i64> {
    Ok(settings::session_timeout_minutes(db).await? * 60_000)
}

/// [`create`] inside `tx`, with the change it belongs to (and its audit row).
pub async fn create_in(
    tx: &mut Tx,
    user_id: i64,
    impersonator_user_id: Option<i64>,
    length_ms: i64,
) -> AppResult<String> {
    let token = random_token();
    let now = now_ms();
    sessions::insert(
        tx,
        &hash_token(&token),
        user_id,
        impersonator_user_id,
        now,
        now + length_ms,
        None,
    )
    .await?;
    Ok(token)
}

/// A session opened by single sign-on, inside `tx`: its token and its SSO context token (the
/// last segment of the documents address, spec 01 §2.3).
pub async fn create_sso_in(
    tx: &mut Tx,
    user_id: i64,
    length_ms: i64,
) -> AppResult<(String, String)> {
    let token = random_token();
    let context = random_token();
    let now = now_ms();
    sessions::insert(
        tx,
        &hash_token(&token),
        user_id,
        None,
        now,
        now + length_ms,
        Some(&context),
    )
    .await?;
    Ok((token, context))
}

/// The live session for `token`, refreshing its idle timer; `None` when unknown or expired.
/// Live sessions are kept in memory ([`session_cache`]) until they change or their touch is due.
pub async fn lookup(db: &Db, token: &str) -> AppResult<Option<SessionUser>> {
    let token_hash = hash_token(token);
    let cached = session_cache::begin(db, &token_hash, now_ms());
    if let session_cache::Lookup::Hit(user) = cached {
        return Ok(Some(user));
    }
    let row = sessions::by_token_hash(db, &token_hash).await?;
    let Some(row) = row else { return Ok(None) };
    let now = now_ms();
    let role = Role::parse(&row.role);
    if row.expires_at <= now || !row.is_active || role.is_none() {
        delete(db, &token_hash).await?;
        return Ok(None);
    }
    let (mut last_seen_at, mut expires_at) = (row.last_seen_at, row.expires_at);
    if now - row.last_seen_at >= TOUCH_INTERVAL_MS {
        let length = length_ms(db).await?;
        sessions::extend(db, &token_hash, now, length).await?;
        (last_seen_at, expires_at) = (now, now + length);
    }
    let user = SessionUser {
        user_id: row.user_id,
        username: row.username,
        first_name: row.first_name,
        last_name: row.last_name,
        role: role.unwrap_or(Role::Patient),
        patient_id: row.patient_id,
        impersonator_user_id: row.impersonator_user_id,
        token_hash,
        sso_context: row.sso_context,
    };
    if let session_cache::Lookup::Miss(ticket) = cached {
        session_cache::put(ticket, &user, expires_at, last_seen_at, row.rowid);
    }
    Ok(Some(user))
}

/// Ends the session with this token hash inside `tx`.
pub async fn delete_in(tx: &mut Tx, token_hash: &str) -> AppResult<()> {
    sessions::delete(tx, token_hash).await
}

pub async fn delete(db: &Db, token_hash: &str) -> AppResult<()> {
    let mut tx = db.begin().await?;
    sessions::delete(&mut tx, token_hash).await?;
    tx.commit().await?;
    Ok(())
}

pub async fn delete_token(db: &Db, token: &str) -> AppResult<()> {
    delete(db, &hash_token(token)).await
}

/// Deletes sessions past their idle timeout (lookups already refuse them; this keeps the table
/// small). Takes the clock as an argument so tests need no sleeps.
pub async fn purge_expired(db: &Db, now: i64) -> AppResult<u64> {
    sessions::purge_expired(db, now).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::users;

    async fn demo_db() -> (Db, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("portal-api-session-{}", random_token()));
        let db = Db::open(&format!("sqlite://{}/t.db", dir.display()))
            .await
            .unwrap();
        settings::ensure_defaults(&db).await.unwrap();
        crate::demo::load_if_empty(&db, -300).await.unwrap();
        (db, dir)
    }

    #[tokio::test]
    async fn idle_sessions_expire_and_sign_out_deletes() {
        let (db, dir) = demo_db().await;
        let user_id = users::login_candidates(&db, "jane.doe", 1).await.unwrap()[0].id;
        let token = create(&db, user_id, None).await.unwrap();
        let user = lookup(&db, &token)
            .await
            .unwrap()
            .expect("fresh session is live");
        assert_eq!(user.display_name(), "Jane Doe");
        assert_eq!(user.role, Role::Patient);
        // Kept in memory once no write of the demo load is in flight any more.
        let mut hit = false;
        for _ in 0..200 {
            lookup(&db, &token).await.unwrap().expect("live");
            if let session_cache::Lookup::Hit(u) =
                session_cache::begin(&db, &hash_token(&token), now_ms())
            {
                assert_eq!(u.user_id, user_id);
                hit = true;
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        assert!(hit, "a live session is cached");
        assert!(lookup(&db, "not-a-token").await.unwrap().is_none());

        // Idle past the timeout: refused and removed.
        sessions::extend(&db, &hash_token(&token), now_ms() - 1, 0)
            .await
            .unwrap();
        assert!(lookup(&db, &token).await.unwrap().is_none());

        let token = create(&db, user_id, None).await.unwrap();
        assert_eq!(purge_expired(&db, now_ms()).await.unwrap(), 0);
        assert_eq!(purge_expired(&db, now_ms() + 21 * 60_000).await.unwrap(), 1);
        assert!(lookup(&db, &token).await.unwrap().is_none());
        db.close().await;
        std::fs::remove_dir_all(dir).ok();
    }
}
