//! History Portal actions (spec 01 §2.6, §4): Resend of the assignment notice and Ready For Exam
//! with its limit; both queue a message in the one outbox and write the audit log.

use api_tests::*;

const DATATABLE: &str = "/api/surveyQueue/datatable";

async fn rows(client: &mut Client, extra: Value) -> Vec<Value> {
    let mut body = json!({"PageIndex": 0, "PageSize": 100, "SortColumn": "Id", "SortDirection": "asc", "Search": "", "TimezoneOffset": 0});
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    client.post_json(DATATABLE, &body).await.json()["Data"].as_array().unwrap().clone()
}

#[tokio::test]
async fn resend_queues_the_assignment_notice_only_while_the_survey_is_open() {
    let server = TestServer::demo().await;
    let mut staff = server.signed_in(FRONT_DESK).await;
    let all = rows(&mut staff, json!({})).await;
    let open = all
        .iter()
        .find(|r| r["StatusKey"] == "Assigned" && r["SurveyLogId"].is_null() && r["UserEmail"].as_str().is_some_and(|e| !e.is_empty()))
        .expect("an open survey of a patient with an email");
    let id = open["Id"].as_i64().unwrap();
    server.execute_sql(&format!("UPDATE patients SET unsubscribed = FALSE WHERE id = (SELECT patient_id FROM survey_queue WHERE id = {id})")).await;
    let response = staff.post_json(&format!("/api/HistoryPortal/ResendAssignMail?surveyQueueId={id}"), &json!({})).await;
    let body = response.expect(StatusCode::OK);
    assert_eq!(body["IsSent"], json!(true));
    assert_eq!(body["Message"], "Notification was sent successfully");
    assert!(parse_iso_utc(body["LastEmailSent"].as_str().unwrap()).is_some(), "{body}");
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
    let body = staff.post_json(&format!("/api/HistoryPortal/ResendAssignMail?surveyQueueId={id}"), &json!({})).await.expect(StatusCode::OK);
    assert_eq!(body["IsSent"], json!(false));
    assert_eq!(body["Message"], "Notification was not sent");
    assert_eq!(server.count_sql(&format!("SELECT COUNT(*) FROM outbox WHERE survey_queue_id = {id}")).await, 1);

    // Completed (or started) surveys are not resent; unknown ids are 404; patients may not.
    let done = all.iter().find(|r| r["IsCompleted"] == json!(true)).expect("a completed survey");
    let done_id = done["Id"].as_i64().unwrap();
    assert_eq!(staff.post_json(&format!("/api/HistoryPortal/ResendAssignMail?surveyQueueId={done_id}"), &json!({})).await.status, StatusCode::BAD_REQUEST);
    assert_eq!(staff.post_json("/api/HistoryPortal/ResendAssignMail?surveyQueueId=99999999", &json!({})).await.status, StatusCode::NOT_FOUND);
    let mut patient = server.signed_in(JANE).await;
    assert_eq!(patient.post_json(&format!("/api/HistoryPortal/ResendAssignMail?surveyQueueId={id}"), &json!({})).await.status, StatusCode::FORBIDDEN);
}

async fn ready(client: &mut Client, id: i64) -> Response {
    client.post_json("/api/HistoryPortal/ReadyForExam", &json!({"surveyQueueId": id, "timezoneOffset": 0})).await
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
    server.execute_sql(&format!("UPDATE survey_queue SET status = 'Completed' WHERE id = {id}")).await;
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
    assert!(third.text().contains("Notification limit reached!"), "{}", third.text());
    let after = rows(&mut staff, json!({"StatusGroup": "Today"})).await;
    let now = after.iter().find(|r| r["Id"] == id).unwrap();
    assert_eq!(now["ReadyForExamCount"], 2);
    assert_eq!(now["ArrivalStatus"], "ReadyForExam");
    assert_eq!(server.count_sql(&format!("SELECT COUNT(*) FROM audit_log WHERE action = 'ReadyForExamSent' AND target_id = '{id}'")).await, 2);

    // A survey that is not completed cannot be marked ready.
    server.execute_sql(&format!("UPDATE survey_queue SET status = 'Assigned' WHERE id = {id}")).await;
    server.execute_sql("UPDATE settings SET body = '{\"HistoryPortalMaxReadyForExamEmail\": -1}' WHERE group_name = 'HistoryPortal'").await;
    let refused = ready(&mut staff, id).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    assert!(refused.text().contains("not available"), "{}", refused.text());
}
