//! Issue 22: sessions are cached in each API process (api/src/auth/session_cache.rs), and a
//! session that ends or a user that changes must still take effect at once: on this instance on
//! the very next request, on another instance within a short poll (PostgreSQL: the NOTIFY of
//! migration 0064; SQLite: the cache's 2 s maximum age, the bound on a write it cannot see), and
//! when the row is deleted by hand.

use std::time::{Duration, Instant};

use api_tests::*;

/// A client of `server` carrying only this session cookie.
fn with_session(server: &TestServer, session: &str) -> Client {
    let mut client = server.client();
    client.set_cookie("portal_session", session);
    client
}

/// Several authenticated reads, so the session is surely in the server's cache.
async fn warm(client: &mut Client) {
    for _ in 0..3 {
        let permissions = client.get_json("/api/accountApi/permissionsJson").await;
        assert_eq!(permissions["IsUserLoggedIn"], json!(true), "{permissions}");
    }
}

async fn status(client: &mut Client) -> StatusCode {
    client
        .get("/api/accountApi/getCurrentUserName")
        .await
        .status
}

/// Polls until the client's session is refused (401); how long it took, or a panic after `limit`.
async fn refused_within(client: &mut Client, limit: Duration, what: &str) -> Duration {
    let started = Instant::now();
    loop {
        let got = status(client).await;
        if got == StatusCode::UNAUTHORIZED {
            return started.elapsed();
        }
        assert_eq!(got, StatusCode::OK, "{what}");
        assert!(
            started.elapsed() < limit,
            "{what}: still signed in after {:?}",
            started.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// How long another process's change may take to reach a server: the NOTIFY on PostgreSQL, the
/// cache's maximum age on SQLite.
fn bound(server: &TestServer) -> Duration {
    if server.is_postgres() {
        Duration::from_secs(1)
    } else {
        SQLITE_CACHE_MAX_AGE + Duration::from_millis(500)
    }
}

async fn user_id(server: &TestServer, username: &str) -> i64 {
    server
        .count_sql(&format!(
            "SELECT id FROM users WHERE username = '{username}'"
        ))
        .await
}

#[tokio::test]
async fn sign_out_ends_the_cached_session_at_once() {
    let server = TestServer::demo().await;
    for round in 0..5 {
        let mut client = server.signed_in(JANE).await;
        let session = client.cookie("portal_session").unwrap();
        let mut copy = with_session(&server, &session);
        warm(&mut copy).await;
        client
            .get("/api/accountApi/logout")
            .await
            .expect(StatusCode::OK);
        assert_eq!(
            status(&mut copy).await,
            StatusCode::UNAUTHORIZED,
            "round {round}: the request right after sign-out"
        );
    }
}

#[tokio::test]
async fn a_role_change_and_a_deactivation_take_effect_on_the_next_request() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let mut desk = server.signed_in(FRONT_DESK).await;
    warm(&mut desk).await;
    let id = user_id(&server, FRONT_DESK.username).await;
    let path = format!("/api/user/{id}");

    let mut form = manager.get_json(&path).await;
    form["Roles"] = json!(["ClientAdmin"]);
    manager.put_json(&path, &form).await.expect(StatusCode::OK);
    let permissions = desk.get_json("/api/accountApi/permissionsJson").await;
    assert_eq!(
        (
            permissions["IsFrontDesk"].clone(),
            permissions["IsClientAdmin"].clone()
        ),
        (json!(false), json!(true)),
        "the new role on the next request: {permissions}"
    );
    warm(&mut desk).await;

    form["IsActive"] = json!(false);
    manager.put_json(&path, &form).await.expect(StatusCode::OK);
    assert_eq!(
        status(&mut desk).await,
        StatusCode::UNAUTHORIZED,
        "the request right after the deactivation"
    );
}

#[tokio::test]
async fn a_session_deleted_by_hand_is_honoured() {
    let server = TestServer::demo().await;
    let mut jane = server.signed_in(JANE).await;
    warm(&mut jane).await;
    let session = jane.cookie("portal_session").unwrap();
    // Straight on the database, as by hand (`execute_sql` would wait out the bound itself).
    let url = server.database_url().to_owned();
    let delete =
        "DELETE FROM sessions WHERE user_id = (SELECT id FROM users WHERE username = 'jane.doe')";
    {
        use sqlx::{Connection, Executor};
        if server.is_postgres() {
            let mut c = sqlx::PgConnection::connect(&url).await.unwrap();
            c.execute(delete).await.unwrap();
        } else {
            let mut c = sqlx::SqliteConnection::connect(&url).await.unwrap();
            c.execute(delete).await.unwrap();
        }
    }
    let mut copy = with_session(&server, &session);
    let took = refused_within(&mut copy, bound(&server), "a session row deleted by hand").await;
    eprintln!("a session deleted by hand was refused after {took:?}");
}

#[tokio::test]
async fn another_instance_sees_a_sign_out_and_a_deactivation() {
    let server = TestServer::demo().await;
    let other = server.another_instance(ServerOptions::demo()).await;

    // Signed in on the first instance, also used on the second (a load balancer's two legs).
    let mut jane = server.signed_in(JANE).await;
    let session = jane.cookie("portal_session").unwrap();
    let mut jane_there = with_session(&other, &session);
    warm(&mut jane_there).await;
    jane.get("/api/accountApi/logout")
        .await
        .expect(StatusCode::OK);
    let took = refused_within(&mut jane_there, bound(&server), "sign-out elsewhere").await;
    eprintln!("the other instance refused a signed-out session after {took:?}");

    let mut manager = server.signed_in(MANAGER).await;
    let desk = server.signed_in(FRONT_DESK).await;
    let session = desk.cookie("portal_session").unwrap();
    let mut desk_there = with_session(&other, &session);
    warm(&mut desk_there).await;
    let id = user_id(&server, FRONT_DESK.username).await;
    let path = format!("/api/user/{id}");
    let mut form = manager.get_json(&path).await;

    // A role change keeps the session (only the users row changes).
    form["Roles"] = json!(["ClientAdmin"]);
    manager.put_json(&path, &form).await.expect(StatusCode::OK);
    let started = Instant::now();
    loop {
        let permissions = desk_there.get_json("/api/accountApi/permissionsJson").await;
        if permissions["IsClientAdmin"] == json!(true) {
            break;
        }
        assert!(
            started.elapsed() < bound(&server),
            "the other instance still answers the old role after {:?}: {permissions}",
            started.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    eprintln!(
        "the other instance answered the new role after {:?}",
        started.elapsed()
    );

    form["IsActive"] = json!(false);
    manager.put_json(&path, &form).await.expect(StatusCode::OK);
    let took = refused_within(&mut desk_there, bound(&server), "deactivation elsewhere").await;
    eprintln!("the other instance refused a deactivated user after {took:?}");
    drop(other);
}
