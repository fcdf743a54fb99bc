//! The emailed survey link (issue 5; spec 01 §2.5, §3 "Survey identity", §4, §7
//! GET /api/surveyIdentity/getForEmail): the link a Resend puts in the email starts the survey
//! signed out, like a PIN start; completed, expired (status or instant, wasm-core
//! survey::expiry) and locked-out rows never hand out a start; forged, cut and moved tokens are
//! refused; a signed-in patient cannot open another patient's link; the token opens one row.

use api_tests::*;
use portal_api::Db;

const GET_FOR_EMAIL: &str = "/api/surveyIdentity/getForEmail?token=";
const INVALID: &str = "This survey link is not valid. Please use the link from your email.";
const HOUR: i64 = 3_600_000;

fn now_ms() -> i64 {
    now_unix() * 1000
}

/// An Assigned demo row of a patient with an email whose appointment lies ahead (never the
/// dedicated lockout patient's), skipping `skip` of them.
async fn open_row(server: &TestServer, skip: usize) -> i64 {
    let sql = format!(
        "SELECT q.id FROM survey_queue q JOIN patients p ON p.id = q.patient_id
         WHERE q.status = 'Assigned' AND q.appt_starts_at > {} AND p.email IS NOT NULL AND p.email <> ''
           AND p.mrn <> '100903' AND p.unsubscribed = FALSE
         ORDER BY q.id LIMIT 1 OFFSET {skip}",
        now_ms() + HOUR
    );
    let id = server.count_sql(&sql).await;
    assert!(id > 0, "the demo has an open row with an appointment ahead");
    id
}

/// The link the History Portal's Resend puts in the email of `queue` (read from the outbox).
async fn resent_token(server: &TestServer, queue: i64) -> String {
    let mut staff = server.signed_in(FRONT_DESK).await;
    let body = staff
        .post_json(
            &format!("/api/HistoryPortal/ResendAssignMail?surveyQueueId={queue}"),
            &json!({}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(body["IsSent"], json!(true), "{body}");
    let db = Db::open(server.database_url()).await.unwrap();
    let text: String = portal_api::on_db!(&db, pool => sqlx::query_scalar(
        "SELECT body_text FROM outbox WHERE survey_queue_id = $1 ORDER BY id DESC LIMIT 1",
    )
    .bind(queue)
    .fetch_one(pool)
    .await)
    .unwrap();
    db.close().await;
    let marker = "/survey?startType=Email&token=";
    let at = text
        .find(marker)
        .unwrap_or_else(|| panic!("no survey link in {text}"))
        + marker.len();
    let token: String = text[at..]
        .chars()
        .take_while(|c| !c.is_whitespace())
        .collect();
    assert!(token.starts_with(&format!("{queue}.")), "{token}");
    assert!(
        !text.contains("surveyQueueId="),
        "the old sign-in link is gone: {text}"
    );
    token
}

/// The token of any row, made with the server's own secret (as the engine does).
async fn token_of(server: &TestServer, queue: i64) -> String {
    let db = Db::open(server.database_url()).await.unwrap();
    let key = portal_api::survey_link::key(&db).await.unwrap();
    db.close().await;
    key.token(queue)
}

async fn identity(client: &mut Client, token: &str) -> Value {
    client
        .get(&format!("{GET_FOR_EMAIL}{token}"))
        .await
        .expect(StatusCode::OK)
}

fn assert_refused(identity: &Value, completed: bool, expired: bool, locked: bool) {
    assert_eq!(
        identity["isSurveyCompleted"],
        json!(completed),
        "{identity}"
    );
    assert_eq!(
        identity["isEmailTokenExpired"],
        json!(expired),
        "{identity}"
    );
    assert_eq!(identity["isUserLockedOut"], json!(locked), "{identity}");
    for field in ["pin", "surveyDataId", "Token"] {
        assert!(identity[field].is_null(), "no start: {field} in {identity}");
    }
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

#[tokio::test]
async fn the_resent_link_starts_the_survey_signed_out_like_a_pin() {
    let server = TestServer::demo().await;
    let queue = open_row(&server, 0).await;
    let token = resent_token(&server, queue).await;

    let mut phone = server.client();
    let id = identity(&mut phone, &token).await;
    assert_eq!(
        (
            id["isSurveyCompleted"].clone(),
            id["isEmailTokenExpired"].clone(),
            id["isUserLockedOut"].clone()
        ),
        (json!(false), json!(false), json!(false))
    );
    assert_eq!(id["surveyDataId"], json!(queue));
    let survey_token = id["Token"].as_str().unwrap().to_owned();
    let pin = id["pin"].as_str().unwrap().to_owned();
    assert!(
        pin.len() == 4 && pin.bytes().all(|b| b.is_ascii_digit()),
        "{id}"
    );

    // The survey token opens the run (no sign-in), autosave works.
    let run = get_with_token(
        &mut phone,
        &format!("/api/surveyRun/{queue}"),
        &survey_token,
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(run["Decision"]["Kind"], "Start", "{run}");
    let save = json!({"ChangeId": "link-1", "BaseRevision": 0, "Answers": {}, "PageId": null});
    let saved = phone
        .send(
            Method::PUT,
            &format!("/api/surveyRun/{queue}/answers"),
            Some((save.to_string().into_bytes(), "application/json")),
            Csrf::Auto,
            &[("x-survey-token", survey_token.as_str())],
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        (saved["Revision"].clone(), saved["StatusKey"].clone()),
        (json!(1), json!("IntermediateSave"))
    );
    // Without the survey token the same call is 401.
    assert_eq!(
        server
            .client()
            .get(&format!("/api/surveyRun/{queue}"))
            .await
            .status,
        StatusCode::UNAUTHORIZED
    );

    // Opening the link again (second device) gives the same PIN, a new token; both tokens work,
    // and the PIN still opens this one row at the kiosk (not a duplicate).
    let again = identity(&mut server.client(), &token).await;
    assert_eq!(again["pin"], json!(pin));
    assert_ne!(again["Token"], json!(survey_token));
    assert_eq!(
        get_with_token(
            &mut phone,
            &format!("/api/surveyRun/{queue}"),
            &survey_token
        )
        .await
        .status,
        StatusCode::OK
    );
    let kiosk = server
        .client()
        .get(&format!("/api/surveyIdentity/checkPin?pin={pin}"))
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        (kiosk["success"].clone(), kiosk["surveyDataId"].clone()),
        (json!(true), json!(queue)),
        "{kiosk}"
    );

    // The token opens its own row only.
    let other = open_row(&server, 1).await;
    assert_eq!(
        get_with_token(
            &mut phone,
            &format!("/api/surveyRun/{other}"),
            &survey_token
        )
        .await
        .status,
        StatusCode::NOT_FOUND
    );
    // Opening is audited with its outcome, never the token.
    assert_eq!(server.count_sql(&format!("SELECT COUNT(*) FROM audit_log WHERE action = 'SurveyLinkOpened' AND target_id = '{queue}'")).await, 2);
    let leaked = format!(
        "SELECT COUNT(*) FROM audit_log WHERE new_values LIKE '%{}%'",
        token.split_once('.').unwrap().1
    );
    assert_eq!(server.count_sql(&leaked).await, 0);
    assert!(
        !server.stderr().contains(token.split_once('.').unwrap().1),
        "the token is never logged"
    );
}

#[tokio::test]
async fn completed_expired_and_locked_out_never_start() {
    let server = TestServer::demo().await;
    let mut anon = server.client();
    let set = |id: i64, status: &str| {
        format!("UPDATE survey_queue SET status = '{status}' WHERE id = {id}")
    };
    let (done, expired, late, ahead) = (
        open_row(&server, 0).await,
        open_row(&server, 1).await,
        open_row(&server, 2).await,
        open_row(&server, 3).await,
    );

    // Completed and Reviewed: completed.
    let token = token_of(&server, done).await;
    for status in ["Completed", "Reviewed"] {
        server.execute_sql(&set(done, status)).await;
        assert_refused(&identity(&mut anon, &token).await, true, false, false);
    }

    // An expired status, whatever the date.
    let token = token_of(&server, expired).await;
    for status in [
        "Expired",
        "IntermediateSaveExpired",
        "PartiallyCompleteExpired",
    ] {
        server.execute_sql(&set(expired, status)).await;
        assert_refused(&identity(&mut anon, &token).await, false, true, false);
    }

    // The instant passed (default After 24): refused and the row is expired on the spot; 23
    // hours after the appointment it still starts.
    let token = token_of(&server, late).await;
    let move_appt = |queue: i64, at: i64| {
        format!("UPDATE appointments SET starts_at = {at} WHERE id = (SELECT appointment_id FROM survey_queue WHERE id = {queue})")
    };
    server
        .execute_sql(&move_appt(late, now_ms() - 23 * HOUR))
        .await;
    assert!(identity(&mut anon, &token).await["Token"].is_string());
    server
        .execute_sql(&move_appt(late, now_ms() - 25 * HOUR))
        .await;
    assert_refused(&identity(&mut anon, &token).await, false, true, false);
    assert_eq!(
        server
            .count_sql(&format!(
                "SELECT COUNT(*) FROM survey_queue WHERE id = {late} AND status = 'Expired'"
            ))
            .await,
        1
    );
    // Before 3: three hours before the appointment the link has expired.
    let token = token_of(&server, ahead).await;
    server
        .execute_sql(&move_appt(ahead, now_ms() + 2 * HOUR))
        .await;
    server.execute_sql("UPDATE settings SET body = '{\"HrsAppointmentTimeType\": \"Before\", \"HrsAppointmentTimeValue\": 3}' WHERE group_name = 'HistoryPortal'").await;
    assert_refused(&identity(&mut anon, &token).await, false, true, false);

    // Locked out: the patient's portal account after IDFailMax (5) wrong passwords.
    let lena = server.count_sql("SELECT q.id FROM survey_queue q JOIN patients p ON p.id = q.patient_id WHERE p.mrn = '100903'").await;
    let token = token_of(&server, lena).await;
    server
        .execute_sql("UPDATE settings SET body = '{}' WHERE group_name = 'HistoryPortal'")
        .await;
    assert!(
        identity(&mut anon, &token).await["Token"].is_string(),
        "not locked yet"
    );
    let mut wrong = server.client();
    for _ in 0..5 {
        wrong.sign_in_patient("lena.park", "Wrong!2026").await;
    }
    let locked = identity(&mut anon, &token).await;
    assert_refused(&locked, false, false, true);
    assert_eq!(locked["lockedOutMinutes"], json!(15), "{locked}");
    // Locked out and completed: both facts are answered (the web shows the lockout first).
    server.execute_sql(&set(lena, "Completed")).await;
    assert_refused(&identity(&mut anon, &token).await, true, false, true);
    // The lockout ends: no longer locked.
    server
        .execute_sql("UPDATE users SET locked_until = 1 WHERE username = 'lena.park'")
        .await;
    assert_refused(&identity(&mut anon, &token).await, true, false, false);
}

#[tokio::test]
async fn forged_cut_and_moved_tokens_are_refused() {
    let server = TestServer::demo().await;
    let queue = open_row(&server, 0).await;
    let other = open_row(&server, 1).await;
    let token = token_of(&server, queue).await;
    let (_, tag) = token.split_once('.').unwrap();
    let mut anon = server.client();
    let mut flipped = tag.to_owned();
    let last = if flipped.ends_with('A') { 'B' } else { 'A' };
    flipped.pop();
    flipped.push(last);
    for bad in [
        String::new(),
        format!("{queue}"),
        format!("{queue}."),
        format!("{queue}.{flipped}"),
        format!("{other}.{tag}"),
        format!("0{queue}.{tag}"),
        format!("-{queue}.{tag}"),
        format!("{queue}.{tag}%21"),
        "not-a-token".to_owned(),
        format!("{}.{tag}", "9".repeat(40)),
    ] {
        let r = anon.get(&format!("{GET_FOR_EMAIL}{bad}")).await;
        let body = r.expect_error(StatusCode::BAD_REQUEST);
        assert_eq!(body["Message"], INVALID, "{bad}: {body}");
    }
    // A token made with another secret (another portal's link).
    let db = Db::open(server.database_url()).await.unwrap();
    portal_api::on_db!(&db, pool => sqlx::query("UPDATE server_secrets SET value = 'another-secret' WHERE name = 'survey-link'").execute(pool).await.map(|_| ())).unwrap();
    db.close().await;
    assert_eq!(
        anon.get(&format!("{GET_FOR_EMAIL}{token}"))
            .await
            .expect_error(StatusCode::BAD_REQUEST)["Message"],
        INVALID
    );
    // A genuine token of a row that does not exist: 404.
    let ghost = token_of(&server, 99_999_999).await;
    assert_eq!(
        anon.get(&format!("{GET_FOR_EMAIL}{ghost}")).await.status,
        StatusCode::NOT_FOUND
    );
    // No start was handed out by any of these.
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM survey_pins WHERE token_hash IS NOT NULL")
            .await,
        0
    );
    server.assert_alive().await;
}

#[tokio::test]
async fn a_signed_in_patient_opens_only_their_own_links() {
    let server = TestServer::demo().await;
    let jane_row = server
        .count_sql("SELECT MIN(q.id) FROM survey_queue q JOIN users u ON u.patient_id = q.patient_id WHERE u.username = 'jane.doe' AND q.status = 'Assigned'")
        .await;
    let maria_row = server
        .count_sql("SELECT MIN(q.id) FROM survey_queue q JOIN users u ON u.patient_id = q.patient_id WHERE u.username = 'maria.garcia'")
        .await;
    assert!(jane_row > 0 && maria_row > 0);
    server
        .execute_sql(&format!(
            "UPDATE survey_queue SET status = 'Assigned' WHERE id = {maria_row}"
        ))
        .await;
    server.execute_sql(&format!("UPDATE appointments SET starts_at = {} WHERE id = (SELECT appointment_id FROM survey_queue WHERE id = {maria_row})", now_ms() + 48 * HOUR)).await;
    let mut jane = server.signed_in(JANE).await;
    // Jane's own link works while she is signed in.
    let own = identity(&mut jane, &token_of(&server, jane_row).await).await;
    assert_eq!(own["surveyDataId"], json!(jane_row));
    // Maria's link is refused to Jane's session, with a clear message; nothing is handed out.
    let maria_token = token_of(&server, maria_row).await;
    let refused = jane
        .get(&format!("{GET_FOR_EMAIL}{maria_token}"))
        .await
        .expect_error(StatusCode::FORBIDDEN);
    assert_eq!(
        refused["Message"],
        "This survey link belongs to another patient. Sign out first to open it."
    );
    assert_eq!(
        server
            .count_sql(&format!(
                "SELECT COUNT(*) FROM survey_pins WHERE survey_queue_id = {maria_row}"
            ))
            .await,
        0
    );
    // Jane's session does not open Maria's run either, with or without Jane's own survey token.
    let jane_token = own["Token"].as_str().unwrap();
    assert_eq!(
        get_with_token(
            &mut jane,
            &format!("/api/surveyRun/{maria_row}"),
            jane_token
        )
        .await
        .status,
        StatusCode::NOT_FOUND
    );
    // Staff signed in may open it (the kiosk); signed out it opens for the holder of the email.
    let mut staff = server.signed_in(FRONT_DESK).await;
    assert_eq!(
        identity(&mut staff, &maria_token).await["surveyDataId"],
        json!(maria_row)
    );
    assert_eq!(
        identity(&mut server.client(), &maria_token).await["surveyDataId"],
        json!(maria_row)
    );
}

#[tokio::test]
async fn is_any_survey_available() {
    let server = TestServer::demo().await;
    assert_eq!(
        server
            .client()
            .get_json("/api/survey/isAnySurveyAvailable")
            .await,
        json!(true)
    );
    // With every survey retired the kiosk has nothing to start.
    server
        .execute_sql("UPDATE survey_definitions SET retired_at = 1")
        .await;
    assert_eq!(
        server
            .client()
            .get_json("/api/survey/isAnySurveyAvailable")
            .await,
        json!(false)
    );
}
