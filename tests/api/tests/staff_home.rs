//! Issue 20: the kiosk's "I need help" (POST /api/surveyRun/{id}/help) and the staff home's
//! pending work (GET /api/staffHome/pendingWork, POST /api/staffHome/helpRequests/{id}/resolve):
//! the request reaches the front desk, is recorded once while open, is marked handled once (404
//! after), is audited; today's arrivals and failed notices show; patients are refused. The demo's
//! working kiosk PIN (2580) opens its own survey.

use api_tests::*;

const WORK: &str = "/api/staffHome/pendingWork?TimezoneOffset=0";

async fn kiosk(server: &TestServer) -> (Client, String, i64) {
    let mut c = server.client();
    let r = c
        .get("/api/surveyIdentity/checkPin?pin=2580")
        .await
        .expect(StatusCode::OK);
    assert_eq!(r["success"], true, "the demo kiosk PIN works: {r}");
    (
        c,
        r["Token"].as_str().unwrap().to_owned(),
        r["surveyDataId"].as_i64().unwrap(),
    )
}

async fn ask_help(c: &mut Client, queue: i64, token: Option<&str>) -> Response {
    let headers: Vec<(&str, &str)> = token
        .map(|t| vec![("x-survey-token", t)])
        .unwrap_or_default();
    c.send(
        Method::POST,
        &format!("/api/surveyRun/{queue}/help"),
        Some((b"{}".to_vec(), "application/json")),
        Csrf::Auto,
        &headers,
    )
    .await
}

#[tokio::test]
async fn a_kiosk_help_request_reaches_the_front_desk_until_handled() {
    let server = TestServer::demo().await;
    let (mut kiosk, token, queue) = kiosk(&server).await;
    // Without the survey token nobody may ask in the survey's name.
    ask_help(&mut server.client(), queue, None)
        .await
        .expect_error(StatusCode::UNAUTHORIZED);
    ask_help(&mut kiosk, queue, Some(&token))
        .await
        .expect(StatusCode::OK);
    // A second press while the first is open records nothing new.
    ask_help(&mut kiosk, queue, Some(&token))
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM kiosk_help_requests WHERE resolved_at IS NULL")
            .await,
        1
    );
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'KioskHelpRequested'")
            .await,
        1
    );

    let mut desk = server.signed_in(FRONT_DESK).await;
    let work = desk.get_json(WORK).await;
    let help = work["HelpRequests"].as_array().unwrap();
    assert_eq!(help.len(), 1, "{work}");
    assert_eq!(help[0]["PatientName"], "Kiosk Demo");
    assert_eq!(help[0]["PatientMrn"], "100904");
    assert_eq!(help[0]["LocationName"], "Main Campus");
    assert_eq!(help[0]["SurveyQueueId"], queue);
    assert!(parse_iso_utc(help[0]["RequestedAt"].as_str().unwrap()).is_some());
    let id = help[0]["Id"].as_i64().unwrap();
    desk.post_json(
        &format!("/api/staffHome/helpRequests/{id}/resolve"),
        &json!({}),
    )
    .await
    .expect(StatusCode::OK);
    // Handled once: a second hand (another staff member) gets 404, and the list is empty.
    let mut manager = server.signed_in(MANAGER).await;
    manager
        .post_json(
            &format!("/api/staffHome/helpRequests/{id}/resolve"),
            &json!({}),
        )
        .await
        .expect_error(StatusCode::NOT_FOUND);
    assert_eq!(manager.get_json(WORK).await["HelpRequests"], json!([]));
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'KioskHelpResolved'")
            .await,
        1
    );
    // After it was handled the patient may ask again.
    ask_help(&mut kiosk, queue, Some(&token))
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        desk.get_json(WORK).await["HelpRequests"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[tokio::test]
async fn the_pending_work_lists_todays_arrivals_and_failed_notices_for_staff_only() {
    let server = TestServer::demo().await;
    let mut desk = server.signed_in(FRONT_DESK).await;
    let before = desk.get_json(WORK).await;
    let unsent = before["ReadyForExamUnsent"].as_i64().unwrap();
    // Maria checks in for her appointment within the hour.
    let mut maria = server.signed_in(MARIA).await;
    let mine = maria
        .post_json("/api/surveyApi/GetAppointmentsForUser", &json!({}))
        .await
        .expect(StatusCode::OK);
    let token = mine["upcoming"][0]["IamHereToken"]
        .as_str()
        .unwrap()
        .to_owned();
    server
        .client()
        .get(&format!("/api/HistoryPortal/ProcessIAmHere?token={token}"))
        .await
        .expect(StatusCode::OK);
    // The viewer's day: Maria's appointment is today at offset 0 unless it crossed midnight UTC.
    let at = parse_iso_utc(mine["upcoming"][0]["AppointmentDateTime"].as_str().unwrap()).unwrap();
    let same_day = at.div_euclid(86_400) == now_unix().div_euclid(86_400);
    let after = desk.get_json(WORK).await;
    if same_day {
        assert!(
            after["Arrivals"]
                .as_array()
                .unwrap()
                .iter()
                .any(|a| a["PatientName"] == "Maria Garcia"
                    && a["ArrivalStatus"] == "PatientArrived"),
            "{after}"
        );
        assert_eq!(after["ReadyForExamUnsent"].as_i64().unwrap(), unsent + 1);
    }
    // A failed notice shows with its error.
    let failed = before["FailedNoticesTotal"].as_i64().unwrap();
    server
        .execute_sql(
            "INSERT INTO outbox (channel, recipient, subject, kind, status, attempts, next_attempt_at, created_at, last_error)
             VALUES ('Email', 'nobody@example.test', 's', 'ReadyForExam', 'Failed', 5, 0, 1, '550 mailbox unavailable')",
        )
        .await;
    let after = desk.get_json(WORK).await;
    assert_eq!(after["FailedNoticesTotal"].as_i64().unwrap(), failed + 1);
    assert!(after["FailedNotices"]
        .as_array()
        .unwrap()
        .iter()
        .any(|n| n["Recipient"] == "nobody@example.test"
            && n["LastError"] == "550 mailbox unavailable"));
    // Patients have no staff home; signed out is 401.
    maria.get(WORK).await.expect_error(StatusCode::FORBIDDEN);
    maria
        .post_json("/api/staffHome/helpRequests/1/resolve", &json!({}))
        .await
        .expect_error(StatusCode::FORBIDDEN);
    server
        .client()
        .get(WORK)
        .await
        .expect_error(StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn staff_and_patients_have_their_own_home_content() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let keys = json!(["Home_Page_Content", "Staff_Home_Page_Content"]);
    let values = manager
        .post_json("/api/settings/getValues", &keys)
        .await
        .expect(StatusCode::OK);
    assert!(values["Staff_Home_Page_Content"]
        .as_str()
        .unwrap()
        .contains("staff portal"));
    assert!(values["Home_Page_Content"]
        .as_str()
        .unwrap()
        .contains("patient portal"));
    manager
        .post_json(
            "/api/settings/setvalue",
            &json!({"key": "Staff_Home_Page_Content", "value": "<p>Staff only</p><script>x</script>"}),
        )
        .await
        .expect(StatusCode::OK);
    let values = manager
        .post_json("/api/settings/getValues", &keys)
        .await
        .expect(StatusCode::OK);
    assert_eq!(values["Staff_Home_Page_Content"], "<p>Staff only</p>");
    assert!(values["Home_Page_Content"]
        .as_str()
        .unwrap()
        .contains("patient portal"));
    // Client admins may not change it.
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    admin
        .post_json(
            "/api/settings/setvalue",
            &json!({"key": "Staff_Home_Page_Content", "value": "<p>x</p>"}),
        )
        .await
        .expect_error(StatusCode::FORBIDDEN);
}
