//! The registration throttle (issue 13 §3, issue 20): requests to the anonymous registration
//! endpoints are counted in the database (`request_throttle`) per endpoint group and client
//! address (600 per 10 minutes: a waiting room of 50 behind one NAT cannot reach it) and per
//! account (10 per email or key: guessing one person's details is still braked). Both paths of a
//! group share one count, a new process on the same database (a second instance) sees the same
//! count, only hashes are stored, and the count empties once its requests left the window.

use api_tests::*;

const TOO_MANY: &str = "Too many requests. Please wait a few minutes and try again.";
/// registration.rs ADDRESS_LIMIT, SUBJECT_LIMIT and WINDOW_MS.
const LIMIT: usize = 600;
const SUBJECT_LIMIT: usize = 10;
const WINDOW_MS: i64 = 10 * 60 * 1000;

const STEP1: &str = "/api/userRegistrationApi/sendRequestRegistrationEmail";
const STEP2: &str = "/api/userRegistrationApi/requestRegistration";

fn is_too_many(r: &Response) -> bool {
    r.status == StatusCode::BAD_REQUEST && r.json()["Message"] == TOO_MANY
}

async fn probe(c: &mut Client, path: &str, i: usize) -> Response {
    let body = json!({"email": format!("probe{i}@example.test"), "locNum": "101"});
    c.post_json(path, &body).await
}

#[tokio::test]
async fn the_limit_holds_across_both_paths_and_instances_and_resets_after_its_window() {
    let mut server = TestServer::demo().await;
    let mut c = server.client();
    // Half on each path of the survey-registration group: all counted together.
    for i in 0..LIMIT {
        let path = if i % 2 == 0 { STEP1 } else { STEP2 };
        let r = probe(&mut c, path, i).await;
        assert!(!is_too_many(&r), "request {i} on {path} refused early");
        assert!(r.status.as_u16() < 500, "{path}: {}", r.text());
    }
    for path in [STEP1, STEP2] {
        let r = probe(&mut c, path, 99).await;
        assert!(
            is_too_many(&r),
            "{path} past the limit: {} {}",
            r.status,
            r.text()
        );
    }
    // Refusals are not counted; only hashes are stored (no address, no group name): one row per
    // request for the address, one for its email.
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM request_throttle")
            .await,
        2 * LIMIT as i64 + 2
    );
    assert_eq!(
        server
            .count_sql(
                "SELECT COUNT(*) FROM request_throttle WHERE throttle_key LIKE '%127.0.0.1%' \
                 OR throttle_key LIKE '%registration%' OR length(throttle_key) <> 64"
            )
            .await,
        0
    );
    // Another group from the same address is not affected.
    let other = c
        .get("/api/patientUser/userCreationParams?key=nothing")
        .await;
    assert!(!is_too_many(&other), "{}", other.text());

    // A new process on the same database (as a second instance would be) refuses too: the count
    // did not live in the first process's memory.
    server.restart(ServerOptions::demo()).await;
    let mut c = server.client();
    let r = probe(&mut c, STEP2, 100).await;
    assert!(is_too_many(&r), "after restart: {} {}", r.status, r.text());

    // Once the counted requests are older than the window, the address may ask again.
    server
        .execute_sql(&format!(
            "UPDATE request_throttle SET requested_at = requested_at - {WINDOW_MS}"
        ))
        .await;
    let r = probe(&mut c, STEP1, 101).await;
    assert!(!is_too_many(&r), "after the window: {}", r.text());
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    // The old rows went with that request (its address row and its email row stay).
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM request_throttle")
            .await,
        2
    );
}

#[tokio::test]
async fn a_waiting_room_behind_one_address_registers_but_one_email_is_braked() {
    let server = TestServer::demo().await;
    let mut c = server.client();
    // Fifty people behind one clinic address, each trying twice: nobody is refused.
    for person in 0..50 {
        for _ in 0..2 {
            let r = probe(&mut c, STEP1, person).await;
            assert!(!is_too_many(&r), "person {person} refused: {}", r.text());
        }
    }
    // One email tried over and over is refused after SUBJECT_LIMIT, whatever the address...
    for _ in 0..SUBJECT_LIMIT - 2 {
        assert!(!is_too_many(&probe(&mut c, STEP1, 7).await));
    }
    assert!(is_too_many(&probe(&mut c, STEP2, 7).await));
    // ...and the others from the same address go on.
    assert!(!is_too_many(&probe(&mut c, STEP1, 8).await));
}
