//! Reads of patient data and refused accesses in the audit log (issue 15 "What gets recorded"):
//! staff opening a patient's survey (to take it or to view its log, as the History Portal does)
//! and its summary report write SurveyViewed / SummaryViewed rows about that patient; the
//! patient's own reads do not count as staff accesses; another patient asking for a survey, its
//! log, its summary or a letter is answered 404 and written as a Denied row about the owner, by
//! the one hook (denied_access.rs) with the client's address. The patient's own access list
//! shows the staff reads.

use std::time::Duration;

use api_tests::*;

async fn user_id(server: &TestServer, username: &str) -> i64 {
    server
        .count_sql(&format!(
            "SELECT id FROM users WHERE username = '{username}'"
        ))
        .await
}

async fn jane_id(server: &TestServer) -> i64 {
    server
        .count_sql("SELECT patient_id FROM users WHERE username = 'jane.doe'")
        .await
}

/// An Assigned BIH-001 survey-queue row of Jane's (one of the demo's given to her if needed).
async fn janes_survey(server: &TestServer) -> i64 {
    let jane = jane_id(server).await;
    let any = server
        .count_sql(
            "SELECT COALESCE(MIN(q.id), 0) FROM survey_queue q JOIN survey_definitions d ON d.id = q.survey_definition_id
             WHERE q.status = 'Assigned' AND d.survey_id = 'BIH-001'",
        )
        .await;
    assert!(any > 0, "the demo has an Assigned BIH-001 row");
    server
        .execute_sql(&format!(
            "UPDATE survey_queue SET patient_id = {jane} WHERE id = {any}"
        ))
        .await;
    any
}

fn answers() -> Value {
    json!({
        "height_in": "64", "weight_lb": "150", "sex_at_birth": "female",
        "has_symptoms": "no", "prior_mammogram": "no", "had_biopsy": "no",
        "had_breast_cancer": "no", "other_cancer": "no", "chest_radiation": "no", "genetic_test": "negative",
        "family_cancer": "no", "menopause": "no",
        "pregnant_now": "no", "breastfeeding": "no", "births": "0",
        "has_implants": "no"
    })
}

/// Front desk submits Jane's survey with the summary report on; (queue id, log id) once the
/// report exists.
async fn submitted_with_summary(server: &TestServer) -> (i64, i64) {
    server
        .execute_sql(
            r#"UPDATE settings SET body = '{"GenerateSummaryReport": true}' WHERE group_name = 'SurveyGeneral'"#,
        )
        .await;
    let queue = janes_survey(server).await;
    let mut staff = server.signed_in(FRONT_DESK).await;
    let body = json!({"ChangeId": "reads-1", "BaseRevision": 0, "Answers": answers(), "PageId": "implants"});
    let done = staff
        .send(
            Method::POST,
            &format!("/api/surveyRun/{queue}/submit"),
            Some((body.to_string().into_bytes(), "application/json")),
            Csrf::Auto,
            &[],
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(done["StatusKey"], "Completed", "{done}");
    let sql =
        format!("SELECT COUNT(*) FROM letters WHERE survey_queue_id = {queue} AND pdf IS NOT NULL");
    for _ in 0..150 {
        if server.count_sql(&sql).await > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(server.count_sql(&sql).await, 1, "the summary was made");
    let log = server
        .count_sql(&format!(
            "SELECT id FROM survey_logs WHERE survey_queue_id = {queue}"
        ))
        .await;
    (queue, log)
}

/// Rows of `action` about `patient` by `user` with `outcome`.
async fn rows(server: &TestServer, action: &str, patient: i64, user: i64, outcome: &str) -> i64 {
    server
        .count_sql(&format!(
            "SELECT COUNT(*) FROM audit_log WHERE action = '{action}' AND patient_id = {patient}
               AND user_id = {user} AND outcome = '{outcome}' AND ip IS NOT NULL"
        ))
        .await
}

#[tokio::test]
async fn staff_opening_a_patients_survey_is_a_recorded_read_the_patients_own_is_not() {
    let server = TestServer::demo().await;
    let queue = janes_survey(&server).await;
    let jane = jane_id(&server).await;
    let desk = user_id(&server, "frontdesk").await;
    let jane_user = user_id(&server, "jane.doe").await;

    let mut staff = server.signed_in(FRONT_DESK).await;
    staff
        .get(&format!("/api/surveyRun/{queue}"))
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        rows(&server, "SurveyViewed", jane, desk, "Success").await,
        1
    );
    assert_eq!(
        server
            .count_sql(&format!(
                "SELECT COUNT(*) FROM audit_log WHERE action = 'SurveyViewed' AND category = 'Patient'
                   AND target_type = 'SurveyQueue' AND target_id = '{queue}'"
            ))
            .await,
        1
    );

    let mut own = server.signed_in(JANE).await;
    own.get(&format!("/api/surveyRun/{queue}"))
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        server
            .count_sql(&format!(
                "SELECT COUNT(*) FROM audit_log WHERE action = 'SurveyViewed' AND user_id = {jane_user}"
            ))
            .await,
        0,
        "the patient's own open is not a staff access"
    );
}

#[tokio::test]
async fn staff_viewing_a_survey_log_and_its_summary_are_recorded_and_listed_for_the_patient() {
    let server = TestServer::demo().await;
    let (_queue, log) = submitted_with_summary(&server).await;
    let jane = jane_id(&server).await;
    let manager_id = user_id(&server, "manager").await;

    let mut manager = server.signed_in(MANAGER).await;
    let view = manager
        .get(&format!("/api/surveyRun/log/{log}"))
        .await
        .expect(StatusCode::OK);
    assert_eq!(view["ReadOnly"], true, "{view}");
    let pdf = manager
        .get(&format!("/api/surveyRun/log/{log}/summaryPdf"))
        .await;
    assert_eq!(pdf.status, StatusCode::OK);
    assert_eq!(
        server
            .count_sql(&format!(
                "SELECT COUNT(*) FROM audit_log WHERE action = 'SurveyViewed' AND patient_id = {jane}
                   AND user_id = {manager_id} AND new_values LIKE '%\"ReadOnly\":true%'"
            ))
            .await,
        1
    );
    assert_eq!(
        server
            .count_sql(&format!(
                "SELECT COUNT(*) FROM audit_log WHERE action = 'SummaryViewed' AND patient_id = {jane}
                   AND user_id = {manager_id} AND outcome = 'Success' AND target_type = 'Letter'"
            ))
            .await,
        1
    );

    // Jane's own view of the summary is a letter view, not a staff access.
    let mut own = server.signed_in(JANE).await;
    assert_eq!(
        own.get(&format!("/api/surveyRun/log/{log}/summaryPdf"))
            .await
            .status,
        StatusCode::OK
    );
    let list = own
        .post_json(
            "/api/account/recordAccesses",
            &json!({"PageIndex": 0, "PageSize": 50}),
        )
        .await
        .expect(StatusCode::OK);
    let text = list.to_string();
    assert!(text.contains("Survey viewed"), "{text}");
    assert!(text.contains("Survey summary viewed"), "{text}");
    assert!(
        !list["Data"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r.to_string().contains("jane.doe")),
        "her own reads are not listed: {text}"
    );
}

#[tokio::test]
async fn another_patient_asking_for_a_survey_its_log_summary_or_a_letter_is_a_denied_row() {
    let server = TestServer::demo().await;
    let (queue, log) = submitted_with_summary(&server).await;
    let jane = jane_id(&server).await;
    let maria = user_id(&server, "maria.garcia").await;

    let mut other = server.signed_in(MARIA).await;
    for path in [
        format!("/api/surveyRun/{queue}"),
        format!("/api/surveyRun/log/{log}"),
        format!("/api/surveyRun/log/{log}/summaryPdf"),
    ] {
        other.get(&path).await.expect_error(StatusCode::NOT_FOUND);
    }
    assert_eq!(
        rows(&server, "PatientAccessDenied", jane, maria, "Denied").await,
        3,
        "each refusal, about Jane, with Maria's address"
    );
    for object in ["Survey", "SurveySummary"] {
        assert!(
            server
                .count_sql(&format!(
                    "SELECT COUNT(*) FROM audit_log WHERE action = 'PatientAccessDenied' AND new_values LIKE '%\"Object\":\"{object}\"%'"
                ))
                .await
                >= 1,
            "{object}"
        );
    }

    // A letter of Jane's by its access token: the same hook writes LetterAccessDenied, without
    // the token itself.
    let mut jane_client = server.signed_in(JANE).await;
    let docs = jane_client
        .post_json(
            "/api/documents/loadDocuments",
            &json!({"TimezoneOffset": 0}),
        )
        .await
        .expect(StatusCode::OK);
    let token = docs["list"][0]["AccessToken"].as_str().unwrap().to_owned();
    other
        .get(&format!("/api/documents/letterPdf?accessToken={token}"))
        .await
        .expect_error(StatusCode::NOT_FOUND);
    assert_eq!(
        rows(&server, "LetterAccessDenied", jane, maria, "Denied").await,
        1
    );
    assert_eq!(
        server
            .count_sql(&format!(
                "SELECT COUNT(*) FROM audit_log WHERE new_values LIKE '%{token}%'"
            ))
            .await,
        0,
        "the token is never stored"
    );

    // Nobody signed in: 401 and no row (there is no one to record).
    let before = server.count_sql("SELECT COUNT(*) FROM audit_log").await;
    server
        .client()
        .get(&format!("/api/surveyRun/{queue}"))
        .await
        .expect_error(StatusCode::UNAUTHORIZED);
    assert_eq!(
        server.count_sql("SELECT COUNT(*) FROM audit_log").await,
        before
    );

    // The denied rows show in the Patient Logs of Jane, outcome Denied.
    let mut manager = server.signed_in(MANAGER).await;
    let logs = manager
        .post_json(
            "/api/PortalAudit/datatables",
            &json!({"PageIndex": 0, "PageSize": 50, "patient": "100001"}),
        )
        .await
        .expect(StatusCode::OK);
    assert!(logs.to_string().contains("PatientAccessDenied"), "{logs}");
}
