//! Per-address throttles sized for a clinic (issue 20): many patients behind one NAT or proxy
//! share one client address. Fifty different accounts from one address get through sign-in,
//! password and username recovery and the kiosk PIN by normal use (a typo or two each), while
//! one account tried over and over is still throttled. The figures are in the README.

use api_tests::*;

const THROTTLED: &str =
    "Too many failed sign-in attempts. Please wait a few minutes and try again.";
const TOO_MANY: &str = "Too many requests. Please wait a few minutes and try again.";

/// Fifty staff accounts with the demo password (copies of the front desk account's hash).
async fn fifty_accounts(server: &TestServer) -> Vec<String> {
    let mut names = Vec::new();
    for i in 0..50 {
        let name = format!("waiting{i:02}");
        server
            .execute_sql(&format!(
                "INSERT INTO users (username, email, first_name, last_name, role, password_hash, is_active, created_at, updated_at)
                 SELECT '{name}', '{name}@example.test', 'Wait', 'Ing', role, password_hash, is_active, created_at, updated_at
                 FROM users WHERE username = 'frontdesk'"
            ))
            .await;
        names.push(name);
    }
    names
}

#[tokio::test]
async fn fifty_accounts_sign_in_from_one_address_while_one_account_is_throttled() {
    let server = TestServer::demo().await;
    let names = fifty_accounts(&server).await;
    let mut c = server.client();
    // Each of the fifty mistypes the password twice, then signs in: 100 failures from one address.
    for name in &names {
        for _ in 0..2 {
            let r = c.sign_in_staff(name, "Wrong!2026").await;
            assert_eq!(r["ValidationErrors"], json!([LOGIN_FAILED]), "{name}: {r}");
        }
        let ok = c.sign_in_staff(name, DEMO_PASSWORD).await;
        assert_eq!(ok["IsValid"], json!(true), "{name}: {ok}");
        c = server.client();
    }
    // One account tried ten times is refused, even with its password...
    for _ in 0..10 {
        c.sign_in_staff("sam.reed", "Wrong!2026").await;
    }
    let refused = c.sign_in_staff("sam.reed", DEMO_PASSWORD).await;
    assert_eq!(refused["ValidationErrors"], json!([THROTTLED]), "{refused}");
    // ...while the others from the same address still sign in.
    let ok = c.sign_in_staff("frontdesk", DEMO_PASSWORD).await;
    assert_eq!(ok["IsValid"], json!(true), "{ok}");
}

#[tokio::test]
async fn fifty_people_recover_from_one_address_while_one_login_is_braked() {
    let server = TestServer::demo().await;
    let names = fifty_accounts(&server).await;
    let mut c = server.client();
    let too_many =
        |r: &Response| r.status == StatusCode::BAD_REQUEST && r.json()["Message"] == TOO_MANY;
    for name in &names {
        for _ in 0..2 {
            let r = c
                .post_json("/api/staffUser/forgotPassword", &json!({"login": name}))
                .await;
            assert!(
                !too_many(&r) && r.status.is_success(),
                "{name}: {}",
                r.text()
            );
            let r = c
                .post_json(
                    "/api/accountApi/recoverUsername",
                    &json!({"email": format!("{name}@example.test")}),
                )
                .await;
            assert!(
                !too_many(&r) && r.status.is_success(),
                "{name}: {}",
                r.text()
            );
        }
    }
    // One login asked for again and again: braked after ten requests in ten minutes...
    for _ in 0..8 {
        let r = c
            .post_json(
                "/api/staffUser/forgotPassword",
                &json!({"login": "waiting07"}),
            )
            .await;
        assert!(!too_many(&r), "{}", r.text());
    }
    let r = c
        .post_json(
            "/api/staffUser/forgotPassword",
            &json!({"login": "WAITING07 "}),
        )
        .await;
    assert!(too_many(&r), "{} {}", r.status, r.text());
    let r = c
        .post_json(
            "/api/accountApi/recoverUsername",
            &json!({"email": "waiting07@example.test"}),
        )
        .await;
    assert!(
        !too_many(&r),
        "another endpoint group counts apart: {}",
        r.text()
    );
    // ...while the rest of the waiting room goes on.
    let r = c
        .post_json(
            "/api/staffUser/forgotPassword",
            &json!({"login": "waiting08"}),
        )
        .await;
    assert!(!too_many(&r) && r.status.is_success(), "{}", r.text());
}

#[tokio::test]
async fn fifty_kiosk_patients_behind_one_address_each_mistype_a_pin_and_still_start() {
    let server = TestServer::demo().await;
    // A PIN that is live (the demo's working kiosk PIN) and one that is not.
    let live = "2580";
    let wrong = "0001";
    for person in 0..50 {
        // Each patient at a kiosk of the clinic (a browser of its own) mistypes twice.
        let mut kiosk = server.client();
        kiosk.get("/api/health").await;
        for left in [2, 1] {
            let r = kiosk
                .get(&format!("/api/surveyIdentity/checkPin?pin={wrong}"))
                .await
                .expect(StatusCode::OK);
            assert_eq!(r["attemptsLeft"], left, "person {person}: {r}");
        }
        // The right PIN still works for them: 100 wrong PINs from the address so far at most.
        if person % 10 == 9 {
            let r = kiosk
                .get(&format!("/api/surveyIdentity/checkPin?pin={live}"))
                .await
                .expect(StatusCode::OK);
            assert_eq!(r["success"], json!(true), "person {person}: {r}");
        }
    }
    // One kiosk that keeps guessing is stopped after its 3 tries, right PIN or not.
    let mut guesser = server.client();
    guesser.get("/api/health").await;
    for _ in 0..3 {
        guesser
            .get(&format!("/api/surveyIdentity/checkPin?pin={wrong}"))
            .await;
    }
    let r = guesser
        .get(&format!("/api/surveyIdentity/checkPin?pin={live}"))
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        (r["success"].clone(), r["attemptsLeft"].clone()),
        (json!(false), json!(0)),
        "{r}"
    );
}
