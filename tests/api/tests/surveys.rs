//! Taking a survey (issue 5): PIN start with attempts left and expiry, loading a run, autosave
//! that is idempotent by ChangeId and refuses stale revisions, submission re-validated with
//! wasm-core's rules, hidden answers dropped, expired / completed refusals, access checks.

use api_tests::*;

/// An Assigned queue row of the demo and its survey id, straight from the database.
async fn assigned_row(server: &TestServer, survey: &str) -> i64 {
    let sql = format!(
        "SELECT MIN(q.id) FROM survey_queue q JOIN survey_definitions d ON d.id = q.survey_definition_id
         WHERE q.status = 'Assigned' AND d.survey_id = '{survey}'"
    );
    let id = server.count_sql(&sql).await;
    assert!(id > 0, "the demo has an Assigned {survey} row");
    id
}

async fn pin_for(server: &TestServer, queue_id: i64) -> String {
    let mut staff = server.signed_in(FRONT_DESK).await;
    let r = staff
        .post_json(
            "/api/v2/survey/generatePin",
            &json!({"SurveyQueueId": queue_id}),
        )
        .await;
    let body = r.expect(StatusCode::OK);
    let pin = body["Pin"].as_str().unwrap().to_owned();
    assert!(
        pin.len() == 4 && pin.bytes().all(|b| b.is_ascii_digit()),
        "{body}"
    );
    pin
}

/// Gives `number` one PIN row only: of `queue`, expired (or expiring) at `expires_at`.
async fn plant_pin(server: &TestServer, number: &str, queue: i64, expires_at: i64) {
    server
        .execute_sql(&format!("DELETE FROM survey_pins WHERE pin = '{number}'"))
        .await;
    server
        .execute_sql(&format!(
            "INSERT INTO survey_pins (pin, survey_queue_id, created_at, expires_at) VALUES ('{number}', {queue}, {expires_at}, {expires_at})"
        ))
        .await;
}

async fn send_json(
    client: &mut Client,
    method: Method,
    path: &str,
    body: &Value,
    token: &str,
) -> Response {
    let headers = [("x-survey-token", token)];
    client
        .send(
            method,
            path,
            Some((body.to_string().into_bytes(), "application/json")),
            Csrf::Auto,
            &headers,
        )
        .await
}

async fn get_with_token(client: &mut Client, path: &str, token: &str) -> Response {
    client
        .send(
            Method::GET,
            path,
            None,
            Csrf::Auto,
            &[("x-survey-token", token)],
        )
        .await
}

/// A kiosk that entered the PIN: (client, token, queue id).
async fn kiosk(server: &TestServer, pin: &str) -> (Client, String, i64) {
    let mut c = server.client();
    let r = c
        .get(&format!("/api/surveyIdentity/checkPin?pin={pin}"))
        .await
        .expect(StatusCode::OK);
    assert_eq!(r["success"], true, "{r}");
    (
        c,
        r["Token"].as_str().unwrap().to_owned(),
        r["surveyDataId"].as_i64().unwrap(),
    )
}

const SCREENING_VALID: &str = r#"{"pregnant": "no", "breastfeeding": "no", "deodorant": "no", "new_problem": "no", "implants": "no"}"#;

#[tokio::test]
async fn wrong_pins_count_down_then_lock_and_a_right_pin_opens_the_survey() {
    let server = TestServer::demo().await;
    let queue = assigned_row(&server, "PES-010").await;
    let pin = pin_for(&server, queue).await;
    let wrong = if pin == "0000" { "0001" } else { "0000" };
    let mut c = server.client();
    c.get("/api/health").await;
    for left in [2, 1, 0] {
        let r = c
            .get(&format!("/api/surveyIdentity/checkPin?pin={wrong}"))
            .await
            .expect(StatusCode::OK);
        assert_eq!(r["success"], false);
        assert_eq!(r["attemptsLeft"], left, "{r}");
        assert_eq!(
            r["Message"],
            format!("Pin number is wrong. You have {left} attempts left")
        );
    }
    // Locked: even the right PIN is refused for this browser.
    let r = c
        .get(&format!("/api/surveyIdentity/checkPin?pin={pin}"))
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        (r["success"].clone(), r["attemptsLeft"].clone()),
        (json!(false), json!(0)),
        "{r}"
    );
    // Another browser starts with the right PIN.
    let (mut k, token, id) = kiosk(&server, &pin).await;
    assert_eq!(id, queue);
    let run = get_with_token(&mut k, &format!("/api/surveyRun/{queue}"), &token)
        .await
        .expect(StatusCode::OK);
    assert_eq!(run["Decision"]["Kind"], "Start", "{run}");
    assert_eq!(run["Definition"]["Id"], "PES-010");
    assert_eq!(run["Revision"], 0);
}

#[tokio::test]
async fn an_expired_pin_says_so() {
    let server = TestServer::demo().await;
    let queue = assigned_row(&server, "PES-010").await;
    let pin = pin_for(&server, queue).await;
    let hour_ago = portal_api::db::now_ms() - 3_600_000;
    server
        .execute_sql(&format!(
            "UPDATE survey_pins SET expires_at = {hour_ago} WHERE pin = '{pin}'"
        ))
        .await;
    let mut c = server.client();
    c.get("/api/health").await;
    let r = c
        .get(&format!("/api/surveyIdentity/checkPin?pin={pin}"))
        .await
        .expect(StatusCode::OK);
    assert_eq!(r["attemptsLeft"], -1, "{r}");
    assert_eq!(r["Message"], "Pin number is expired");
    // The expired answer cost an attempt: a wrong PIN next leaves one.
    let wrong = if pin == "0000" { "0001" } else { "0000" };
    server
        .execute_sql(&format!("DELETE FROM survey_pins WHERE pin = '{wrong}'"))
        .await;
    let r = c
        .get(&format!("/api/surveyIdentity/checkPin?pin={wrong}"))
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        r["Message"], "Pin number is wrong. You have 1 attempts left",
        "{r}"
    );
}

#[tokio::test]
async fn expired_pin_answers_count_as_attempts_so_no_browser_can_try_every_number() {
    let server = TestServer::demo().await;
    let queue = assigned_row(&server, "PES-010").await;
    let pin = pin_for(&server, queue).await;
    // Three numbers whose PINs expired an hour ago (a busy clinic has many).
    let expired: Vec<String> = (0..3)
        .map(|i| format!("{:04}", (pin.parse::<u32>().unwrap() + 1 + i) % 10_000))
        .collect();
    let hour_ago = portal_api::db::now_ms() - 3_600_000;
    for number in &expired {
        plant_pin(&server, number, queue, hour_ago).await;
    }
    let mut c = server.client();
    c.get("/api/health").await;
    for number in &expired {
        let r = c
            .get(&format!("/api/surveyIdentity/checkPin?pin={number}"))
            .await
            .expect(StatusCode::OK);
        assert_eq!(
            (r["attemptsLeft"].clone(), r["Message"].clone()),
            (json!(-1), json!("Pin number is expired")),
            "{r}"
        );
    }
    // Locked out: the live PIN is refused for this browser.
    let r = c
        .get(&format!("/api/surveyIdentity/checkPin?pin={pin}"))
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        (r["success"].clone(), r["attemptsLeft"].clone()),
        (json!(false), json!(0)),
        "{r}"
    );
}

/// Browsers from one address, three wrong PINs each, until the address has given the
/// PIN_ATTEMPTS_PER_ADDRESS (120) wrong PINs it may give in 15 minutes. `forwarded`: the
/// address a trusted proxy names (None: the connection's own).
async fn use_up_address(server: &TestServer, wrong: &str, forwarded: Option<&str>) {
    for _ in 0..portal_api::survey_pins::PIN_ATTEMPTS_PER_ADDRESS / 3 {
        let mut c = server.client();
        c.get("/api/health").await;
        for left in [2, 1, 0] {
            let r = match forwarded {
                Some(from) => pin_from(&mut c, wrong, from).await,
                None => c
                    .get(&format!("/api/surveyIdentity/checkPin?pin={wrong}"))
                    .await
                    .expect(StatusCode::OK),
            };
            assert_eq!(r["attemptsLeft"], left, "{r}");
        }
    }
}

#[tokio::test]
async fn fresh_cookies_do_not_buy_more_tries_than_the_address_allows() {
    let server = TestServer::demo().await;
    let queue = assigned_row(&server, "PES-010").await;
    let pin = pin_for(&server, queue).await;
    let wrong = if pin == "0000" { "0001" } else { "0000" };
    use_up_address(&server, wrong, None).await;
    // The next browser is refused at once, even with the right PIN, and naming another
    // address in X-Forwarded-For does not help: no proxy is trusted by default.
    let mut c = server.client();
    c.get("/api/health").await;
    let spoofed = c
        .send(
            Method::GET,
            &format!("/api/surveyIdentity/checkPin?pin={pin}"),
            None,
            Csrf::Omit,
            &[("x-forwarded-for", "198.51.100.23")],
        )
        .await;
    let r = spoofed.expect(StatusCode::OK);
    assert_eq!(
        (r["success"].clone(), r["attemptsLeft"].clone()),
        (json!(false), json!(0)),
        "{r}"
    );
}

/// A PIN check through the reverse proxy: the client's own X-Forwarded-For is kept in front,
/// and the proxy appends the address it saw.
async fn pin_from(c: &mut Client, pin: &str, from: &str) -> Value {
    let forwarded = format!("10.9.9.9, {from}");
    let path = format!("/api/surveyIdentity/checkPin?pin={pin}");
    c.send(
        Method::GET,
        &path,
        None,
        Csrf::Omit,
        &[("x-forwarded-for", &forwarded)],
    )
    .await
    .expect(StatusCode::OK)
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_forwarded_address_has_its_own_limit() {
    // The test client plays the reverse proxy: every connection comes from 127.0.0.1.
    let server = TestServer::start(ServerOptions::demo().behind_proxy("127.0.0.1,::1")).await;
    let queue = assigned_row(&server, "PES-010").await;
    let pin = pin_for(&server, queue).await;
    let wrong = if pin == "0000" { "0001" } else { "0000" };
    // One clinic's address uses up its attempts...
    use_up_address(&server, wrong, Some("203.0.113.7")).await;
    let mut c = server.client();
    c.get("/api/health").await;
    let r = pin_from(&mut c, &pin, "203.0.113.7").await;
    assert_eq!(
        (r["success"].clone(), r["attemptsLeft"].clone()),
        (json!(false), json!(0)),
        "{r}"
    );
    // ...while a patient elsewhere, behind the same proxy, starts with the right PIN.
    let mut c = server.client();
    c.get("/api/health").await;
    let r = pin_from(&mut c, &pin, "198.51.100.23").await;
    assert_eq!(r["success"], json!(true), "{r}");
}

#[tokio::test]
async fn a_pin_expired_over_a_week_ago_is_a_wrong_pin_and_housekeeping_deletes_it() {
    let server = TestServer::demo().await;
    let queue = assigned_row(&server, "PES-010").await;
    let pin = pin_for(&server, queue).await;
    let now = portal_api::db::now_ms();
    let (week, hour) = (7 * 24 * 3_600_000_i64, 3_600_000_i64);
    let old = format!("{:04}", (pin.parse::<u32>().unwrap() + 1) % 10_000);
    let recent = format!("{:04}", (pin.parse::<u32>().unwrap() + 2) % 10_000);
    plant_pin(&server, &old, queue, now - week - hour).await;
    plant_pin(&server, &recent, queue, now - week + hour).await;
    let mut c = server.client();
    c.get("/api/health").await;
    let r = c
        .get(&format!("/api/surveyIdentity/checkPin?pin={old}"))
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        r["Message"], "Pin number is wrong. You have 2 attempts left",
        "{r}"
    );
    let r = c
        .get(&format!("/api/surveyIdentity/checkPin?pin={recent}"))
        .await
        .expect(StatusCode::OK);
    assert_eq!(r["Message"], "Pin number is expired", "{r}");

    // Housekeeping: the old row goes; the recent and the live stay. A failure count whose window
    // has passed goes too, the one just made stays.
    server
        .execute_sql(&format!("INSERT INTO survey_pin_failures (client_key, failures, first_failure_at) VALUES ('stale-kiosk', 2, {})", now - hour))
        .await;
    let db = portal_api::Db::open(server.database_url()).await.unwrap();
    let purged = portal_api::jobs::purge_spent_pins(&db, portal_api::db::now_ms())
        .await
        .unwrap();
    assert!(purged >= 2, "{purged}");
    let left = |number: &str| format!("SELECT COUNT(*) FROM survey_pins WHERE pin = '{number}'");
    assert_eq!(server.count_sql(&left(&old)).await, 0);
    assert_eq!(server.count_sql(&left(&recent)).await, 1);
    assert_eq!(server.count_sql(&format!("SELECT COUNT(*) FROM survey_pins WHERE pin = '{pin}' AND survey_queue_id = {queue}")).await, 1);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM survey_pin_failures WHERE client_key = 'stale-kiosk'")
            .await,
        0
    );
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM survey_pin_failures WHERE client_key LIKE 'csrf:%'")
            .await,
        1
    );
    // The kiosk's own count survived the purge: a third wrong answer leaves none.
    let r = c
        .get(&format!("/api/surveyIdentity/checkPin?pin={old}"))
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        r["Message"], "Pin number is wrong. You have 0 attempts left",
        "{r}"
    );
}

#[tokio::test]
async fn autosave_is_idempotent_and_refuses_stale_revisions_then_submit_completes() {
    let server = TestServer::demo().await;
    let queue = assigned_row(&server, "PES-010").await;
    let pin = pin_for(&server, queue).await;
    let (mut k, token, _) = kiosk(&server, &pin).await;
    let path = format!("/api/surveyRun/{queue}/answers");
    // A hidden answer (side, while there is no new problem) is dropped by the server.
    let first = json!({"ChangeId": "c1", "BaseRevision": 0, "PageId": "today",
        "Answers": {"pregnant": "no", "new_problem": "no", "new_problem_side": "left"}});
    let saved = send_json(&mut k, Method::PUT, &path, &first, &token)
        .await
        .expect(StatusCode::OK);
    assert_eq!(saved["Revision"], 1);
    assert_eq!(saved["StatusKey"], "IntermediateSave");
    assert_eq!(
        saved["Answers"],
        json!({"pregnant": "no", "new_problem": "no"})
    );
    // Replay: nothing changes.
    let again = send_json(&mut k, Method::PUT, &path, &first, &token)
        .await
        .expect(StatusCode::OK);
    assert_eq!(again["Revision"], 1);
    // A different change on an old base: 409.
    let stale = json!({"ChangeId": "c2", "BaseRevision": 0, "Answers": {"pregnant": "yes"}});
    send_json(&mut k, Method::PUT, &path, &stale, &token)
        .await
        .expect_error(StatusCode::CONFLICT);
    let next = json!({"ChangeId": "c3", "BaseRevision": 1, "PageId": "changes", "Answers": {"pregnant": "no", "breastfeeding": "no"}});
    assert_eq!(
        send_json(&mut k, Method::PUT, &path, &next, &token)
            .await
            .expect(StatusCode::OK)["Revision"],
        2
    );
    // Resume: the run comes back with the answers and the page.
    let run = get_with_token(&mut k, &format!("/api/surveyRun/{queue}"), &token)
        .await
        .expect(StatusCode::OK);
    assert_eq!(run["Decision"]["Kind"], "Resume");
    assert_eq!(run["PageId"], "changes");
    assert_eq!(run["Revision"], 2);
    // Submit: the full re-validation lists missing required answers.
    let submit_path = format!("/api/surveyRun/{queue}/submit");
    let incomplete = json!({"ChangeId": "s1", "BaseRevision": 2, "Answers": {"pregnant": "no"}});
    let err = send_json(&mut k, Method::POST, &submit_path, &incomplete, &token)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        err["Errors"]["breastfeeding"],
        json!(["This question is required"]),
        "{err}"
    );
    let answers: Value = serde_json::from_str(SCREENING_VALID).unwrap();
    let complete = json!({"ChangeId": "s2", "BaseRevision": 2, "Answers": answers});
    let done = send_json(&mut k, Method::POST, &submit_path, &complete, &token)
        .await
        .expect(StatusCode::OK);
    assert_eq!(done["StatusKey"], "Completed");
    // Replay of the submit: same answer, still one log, audited once.
    let again = send_json(&mut k, Method::POST, &submit_path, &complete, &token)
        .await
        .expect(StatusCode::OK);
    assert_eq!(again["Revision"], done["Revision"]);
    assert_eq!(
        server
            .count_sql(&format!(
                "SELECT COUNT(*) FROM survey_logs WHERE survey_queue_id = {queue}"
            ))
            .await,
        1
    );
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'SurveySubmitted'")
            .await,
        1
    );
    // Completed: starting again says 'Survey Complete'; further saves are refused.
    let run = get_with_token(&mut k, &format!("/api/surveyRun/{queue}"), &token)
        .await
        .expect(StatusCode::OK);
    assert_eq!(run["Decision"]["Title"], "Survey Complete", "{run}");
    let late = json!({"ChangeId": "late", "BaseRevision": done["Revision"], "Answers": {}});
    send_json(&mut k, Method::PUT, &path, &late, &token)
        .await
        .expect_error(StatusCode::CONFLICT);
    // View by log id: read-only with the answers.
    let log_id = done["SurveyLogId"].as_i64().unwrap();
    let view = get_with_token(&mut k, &format!("/api/surveyRun/log/{log_id}"), &token)
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        (view["ReadOnly"].clone(), view["Decision"]["Kind"].clone()),
        (json!(true), json!("View"))
    );
    assert_eq!(view["Answers"], answers);
}

#[tokio::test]
async fn expired_surveys_refuse_to_start() {
    let server = TestServer::demo().await;
    let queue = assigned_row(&server, "BIH-001").await;
    server
        .execute_sql(&format!(
            "UPDATE survey_queue SET status = 'IntermediateSaveExpired' WHERE id = {queue}"
        ))
        .await;
    let mut staff = server.signed_in(MANAGER).await;
    let run = staff.get_json(&format!("/api/surveyRun/{queue}")).await;
    assert_eq!(run["Decision"]["Kind"], "Refused");
    assert_eq!(run["Decision"]["Title"], "Survey Expired");
    assert_eq!(
        run["Decision"]["Message"],
        "Could not start the survey, survey already expired. Please contact system administrator if you want to reschedule the survey."
    );
    assert!(run["Definition"].is_null());
    let body = json!({"ChangeId": "x", "BaseRevision": 0, "Answers": {}});
    let r = staff
        .send(
            Method::PUT,
            &format!("/api/surveyRun/{queue}/answers"),
            Some((body.to_string().into_bytes(), "application/json")),
            Csrf::Auto,
            &[],
        )
        .await;
    r.expect_error(StatusCode::CONFLICT);
}

#[tokio::test]
async fn runs_are_closed_to_others() {
    let server = TestServer::demo().await;
    let queue = assigned_row(&server, "BIH-001").await;
    let mut anonymous = server.client();
    anonymous
        .get(&format!("/api/surveyRun/{queue}"))
        .await
        .expect_error(StatusCode::UNAUTHORIZED);
    get_with_token(&mut anonymous, &format!("/api/surveyRun/{queue}"), "forged")
        .await
        .expect_error(StatusCode::NOT_FOUND);
    // A token opens only its own row.
    let other = assigned_row(&server, "PES-010").await;
    let pin = pin_for(&server, other).await;
    let (mut k, token, _) = kiosk(&server, &pin).await;
    get_with_token(&mut k, &format!("/api/surveyRun/{queue}"), &token)
        .await
        .expect_error(StatusCode::NOT_FOUND);
    // A patient who does not own the row: 404. Patients cannot generate PINs.
    let owner = server
        .count_sql(&format!(
            "SELECT patient_id FROM survey_queue WHERE id = {queue}"
        ))
        .await;
    let jane = server
        .count_sql("SELECT patient_id FROM users WHERE username = 'jane.doe'")
        .await;
    let mut patient = server.signed_in(JANE).await;
    if owner != jane {
        patient
            .get(&format!("/api/surveyRun/{queue}"))
            .await
            .expect_error(StatusCode::NOT_FOUND);
    }
    patient
        .post_json(
            "/api/v2/survey/generatePin",
            &json!({"SurveyQueueId": queue}),
        )
        .await
        .expect_error(StatusCode::FORBIDDEN);
}
