//! The patient's own surveys (spec 01 §2.4, §7): assigned and in progress, completed or expired,
//! and the unfinished flag. Patients only; never another patient's rows.

use std::collections::HashSet;

use api_tests::*;

const AVAILABLE: &str = "/api/surveyApi/GetAvailableSurveysForUser";
const COMPLETED: &str = "/api/surveyApi/GetCompletedSurveysForUser";

fn ids(body: &Value) -> HashSet<i64> {
    body["surveys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["Id"].as_i64().unwrap())
        .collect()
}

#[tokio::test]
async fn available_and_completed_split_by_status() {
    let server = TestServer::demo().await;
    let mut jane = server.signed_in(JANE).await;
    let available = jane
        .post_json(AVAILABLE, &json!({"TimezoneOffset": -300}))
        .await
        .expect(StatusCode::OK);
    let completed = jane.get_json(COMPLETED).await;
    for s in available["surveys"].as_array().unwrap() {
        assert!(
            ["Assigned", "IntermediateSave"].contains(&s["StatusKey"].as_str().unwrap()),
            "{s}"
        );
        assert!(!s["SurveyName"].as_str().unwrap().is_empty());
    }
    for s in completed["surveys"].as_array().unwrap() {
        assert!(
            !["Assigned", "IntermediateSave"].contains(&s["StatusKey"].as_str().unwrap()),
            "{s}"
        );
    }
    let total = server.count_sql("SELECT COUNT(*) FROM survey_queue q JOIN users u ON u.patient_id = q.patient_id WHERE u.username = 'jane.doe'").await;
    assert_eq!(
        (ids(&available).len() + ids(&completed).len()) as i64,
        total,
        "every one of Jane's rows, once"
    );
    let get = jane.get_json(AVAILABLE).await;
    assert_eq!(ids(&get), ids(&available));
    let flag = jane
        .get_json("/api/surveyApi/IsCurrentPatientHasIncompletedSurvey")
        .await;
    assert_eq!(flag["HasIncompletedSurvey"], !ids(&available).is_empty());
}

#[tokio::test]
async fn maria_never_sees_janes_surveys() {
    let server = TestServer::demo().await;
    let mut jane = server.signed_in(JANE).await;
    let mut maria = server.signed_in(MARIA).await;
    let janes: HashSet<i64> = ids(&jane.get_json(AVAILABLE).await)
        .union(&ids(&jane.get_json(COMPLETED).await))
        .copied()
        .collect();
    let marias: HashSet<i64> = ids(&maria.get_json(AVAILABLE).await)
        .union(&ids(&maria.get_json(COMPLETED).await))
        .copied()
        .collect();
    assert!(!janes.is_empty());
    assert!(
        janes.is_disjoint(&marias),
        "shared rows: {:?}",
        janes.intersection(&marias).collect::<Vec<_>>()
    );
}

#[tokio::test]
async fn staff_and_strangers_are_refused() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    manager
        .get(AVAILABLE)
        .await
        .expect_error(StatusCode::FORBIDDEN);
    manager
        .get("/api/surveyApi/IsCurrentPatientHasIncompletedSurvey")
        .await
        .expect_error(StatusCode::FORBIDDEN);
    assert_eq!(
        server.client().get(COMPLETED).await.status,
        StatusCode::UNAUTHORIZED
    );
}
