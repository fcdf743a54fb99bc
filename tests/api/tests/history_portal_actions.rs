//! History Portal actions (spec 01 §2.6, §4): Resend of the assignment notice and Ready For Exam
//! with its limit; both queue a message in the one outbox and write the audit log.

use api_tests::*;

const DATATABLE: &str = "/api/surveyQueue/datatable";

async fn rows(client: &mut Client, extra: Value) -> Vec<Value> {
    let mut body = json!({"PageIndex": 0, "PageSize": 100, "SortColumn": "Id", "SortDirection": "asc", "Search": "", "TimezoneOffset": 0});
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    client.post_json(DATATABLE, &body).await.json()["Data"]
        .as_array()
        .unwrap()
        .clone()
}

#[tokio::test]
async fn resend_queues_the_assignment_notice_only_while_the_survey_is_open() {
    let server = TestServer::demo().await;
    let mut staff = server.signed_in(FRONT_DESK).await;
    let all = rows(&mut staff, json!({})).await;
    let open = all
        .iter()
        .find(|r| {
            r["StatusKey"] == "Assigned"
                && r["SurveyLogId"].is_null()
                && r["UserEmail"].as_str().is_some_and(|e| !e.is_empty())
        })
        .expect("an open survey of a patient with an email");
    let id = open["Id"].as_i64().unwrap();
    server.execute_sql(&format!("UPDATE patients SET unsubscribed = FALSE WHERE id = (SELECT patient_id FROM survey_queue WHERE id = {id})")).await;
    let response = staff
        .post_json(
            &format!("/api/HistoryPortal/ResendAssignMail?surveyQueueId={id}"),
            &json!({}),
        )
        .await;
    let body = response.expect(StatusCode::OK);
    assert_eq!(body["IsSent"], json!(true));
    assert_eq!(body["Message"], "Notification was sent successfully");
    assert!(
        parse_iso_utc(body["LastEmailSent"].as_str().unwrap()).is_some(),
        "{body}"
    );
    assert_eq!(
        server.count_sql(&format!("SELECT COUNT(*) FROM outbox WHERE survey_queue_id = {id} AND kind = 'SurveyAssignment' AND channel = 'Email' AND body_text LIKE '%/survey?startType=Email&token={id}.%'")).await,
        1
    );
    assert_eq!(server.count_sql(&format!("SELECT COUNT(*) FROM audit_log WHERE action = 'SurveyNotificationResent' AND target_id = '{id}'")).await, 1);
    // The row now shows when it was sent.
    let after = rows(&mut staff, json!({})).await;
    let row = after.iter().find(|r| r["Id"] == id).unwrap();
    assert!(!row["LastEmailSentString"].as_str().unwrap().is_empty());

    // An unsubscribed patient gets nothing.
    server.execute_sql(&format!("UPDATE patients SET unsubscribed = TRUE WHERE id = (SELECT patient_id FROM survey_queue WHERE id = {id})")).await;
    let body = staff
        .post_json(
            &format!("/api/HistoryPortal/ResendAssignMail?surveyQueueId={id}"),
            &json!({}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(body["IsSent"], json!(false));
    assert_eq!(body["Message"], "Notification was not sent");
    assert_eq!(
        server
            .count_sql(&format!(
                "SELECT COUNT(*) FROM outbox WHERE survey_queue_id = {id}"
            ))
            .await,
        1
    );

    // Completed (or started) surveys are not resent; unknown ids are 404; patients may not.
    let done = all
        .iter()
        .find(|r| r["IsCompleted"] == json!(true))
        .expect("a completed survey");
    let done_id = done["Id"].as_i64().unwrap();
    assert_eq!(
        staff
            .post_json(
                &format!("/api/HistoryPortal/ResendAssignMail?surveyQueueId={done_id}"),
                &json!({})
            )
            .await
            .status,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        staff
            .post_json(
                "/api/HistoryPortal/ResendAssignMail?surveyQueueId=99999999",
                &json!({})
            )
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    let mut patient = server.signed_in(JANE).await;
    assert_eq!(
        patient
            .post_json(
                &format!("/api/HistoryPortal/ResendAssignMail?surveyQueueId={id}"),
                &json!({})
            )
            .await
            .status,
        StatusCode::FORBIDDEN
    );
}

async fn ready(client: &mut Client, id: i64) -> Response {
    client
        .post_json(
            "/api/HistoryPortal/ReadyForExam",
            &json!({"surveyQueueId": id, "timezoneOffset": 0}),
        )
        .await
}

#[tokio::test]
async fn ready_for_exam_counts_up_to_the_limit() {
    let server = TestServer::demo().await;
    server
        .execute_sql("UPDATE settings SET body = '{\"HistoryPortalMaxReadyForExamEmail\": 2, \"IsDisabledIamHere\": false, \"IsHideAppointmentTimeInHistoryPortal\": false}' WHERE group_name = 'HistoryPortal'")
        .await;
    let mut staff = server.signed_in(MANAGER).await;
    let today = rows(&mut staff, json!({"StatusGroup": "Today"})).await;
    let row = today.first().expect("a row today (UTC)");
    let id = row["Id"].as_i64().unwrap();
    // Make it a completed survey of a patient who has just arrived.
    server
        .execute_sql(&format!(
            "UPDATE survey_queue SET status = 'Completed' WHERE id = {id}"
        ))
        .await;
    server
        .execute_sql(&format!(
            "UPDATE appointments SET arrival_status = 'PatientArrived', ready_for_exam_count = 0 WHERE id = (SELECT appointment_id FROM survey_queue WHERE id = {id})"
        ))
        .await;
    let first = ready(&mut staff, id).await.expect(StatusCode::OK);
    assert_eq!(first["ReadyForExamCount"], 1);
    assert_eq!(first["Message"], "Sent 1 of 2 notifications");
    assert_eq!(first["ArrivalStatus"], "ReadyForExam");
    let second = ready(&mut staff, id).await.expect(StatusCode::OK);
    assert_eq!(second["ReadyForExamCount"], 2);
    assert_eq!(second["Message"], "Notification limit reached!");
    let third = ready(&mut staff, id).await;
    assert_eq!(third.status, StatusCode::BAD_REQUEST);
    assert!(
        third.text().contains("Notification limit reached!"),
        "{}",
        third.text()
    );
    let after = rows(&mut staff, json!({"StatusGroup": "Today"})).await;
    let now = after.iter().find(|r| r["Id"] == id).unwrap();
    assert_eq!(now["ReadyForExamCount"], 2);
    assert_eq!(now["ArrivalStatus"], "ReadyForExam");
    assert_eq!(server.count_sql(&format!("SELECT COUNT(*) FROM audit_log WHERE action = 'ReadyForExamSent' AND target_id = '{id}'")).await, 2);

    // A survey that is not completed cannot be marked ready.
    server
        .execute_sql(&format!(
            "UPDATE survey_queue SET status = 'Assigned' WHERE id = {id}"
        ))
        .await;
    server.execute_sql("UPDATE settings SET body = '{\"HistoryPortalMaxReadyForExamEmail\": -1}' WHERE group_name = 'HistoryPortal'").await;
    let refused = ready(&mut staff, id).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    assert!(
        refused.text().contains("not available"),
        "{}",
        refused.text()
    );
}

/// Start Survey's start check (GET /api/surveyQueue/isExpired, spec 01 §7): a row still Assigned
/// 25 hours after its appointment (the default rule: After 24) is expired by the check itself,
/// as the survey start would, and the answer carries the spec's message; an open row is not.
#[tokio::test]
async fn start_check_expires_a_survey_past_its_expiry_instant() {
    let server = TestServer::demo().await;
    let mut desk = server.signed_in(FRONT_DESK).await;
    let now = now_unix() * 1000;
    let hour = 3_600_000;
    let row = |n: usize| {
        format!("SELECT id FROM survey_queue WHERE status = 'Assigned' AND appointment_id IS NOT NULL ORDER BY id LIMIT 1 OFFSET {n}")
    };
    let due = server.count_sql(&row(0)).await;
    let open = server.count_sql(&row(1)).await;
    let appointment = |id: i64| format!("SELECT appointment_id FROM survey_queue WHERE id = {id}");
    assert_ne!(
        server.count_sql(&appointment(due)).await,
        server.count_sql(&appointment(open)).await
    );
    for (id, at) in [(due, now - 25 * hour), (open, now + 2 * hour)] {
        server
            .execute_sql(&format!(
                "UPDATE appointments SET starts_at = {at} WHERE id = ({})",
                appointment(id)
            ))
            .await;
    }

    let check = desk
        .get_json(&format!("/api/surveyQueue/isExpired?id={open}"))
        .await;
    assert_eq!(
        check,
        json!({"IsExpired": false, "Title": "", "Message": ""})
    );
    let check = desk
        .get_json(&format!("/api/surveyQueue/isExpired?id={due}"))
        .await;
    assert_eq!(check["IsExpired"], true);
    assert_eq!(check["Title"], "Survey Expired");
    assert_eq!(check["TitleLabel"], "MedicalHistory_SurveyExpired_Title");
    assert_eq!(
        check["MessageLabel"],
        "MedicalHistory_SurveyExpired_Message"
    );
    assert_eq!(
        check["Message"],
        "Could not start the survey, survey already expired. Please contact system administrator if you want to reschedule the survey."
    );
    assert_eq!(
        server
            .count_sql(&format!(
                "SELECT COUNT(*) FROM survey_queue WHERE id = {due} AND status = 'Expired'"
            ))
            .await,
        1
    );
    assert_eq!(
        server
            .count_sql(&format!(
                "SELECT COUNT(*) FROM survey_queue WHERE id = {open} AND status = 'Assigned'"
            ))
            .await,
        1
    );
    // Asked again: still expired, nothing else changes.
    assert_eq!(
        desk.get_json(&format!("/api/surveyQueue/isExpired?id={due}"))
            .await["IsExpired"],
        true
    );

    desk.get(&format!(
        "/api/surveyQueue/isExpired?id={}",
        due + 1_000_000
    ))
    .await
    .expect_error(StatusCode::NOT_FOUND);
    desk.get("/api/surveyQueue/isExpired?id=abc")
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    server
        .signed_in(JANE)
        .await
        .get(&format!("/api/surveyQueue/isExpired?id={open}"))
        .await
        .expect_error(StatusCode::FORBIDDEN);
    server
        .client()
        .get(&format!("/api/surveyQueue/isExpired?id={open}"))
        .await
        .expect_error(StatusCode::UNAUTHORIZED);
}
