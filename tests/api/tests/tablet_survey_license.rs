//! License Management's Module_TabletSurvey (spec 03 §3 "License"): switched off, the survey
//! kiosk's calls (PIN start, admin PIN, the staff start's search, respondents, start options, new
//! patients and studies, generated PINs) answer 403 to everyone, and the licensed-modules answer
//! says so for the kiosk screen; emailed-link and History Portal survey starts are not the
//! tablet's and keep working. Runs on SQLite and (TEST_DATABASE_URL) PostgreSQL.

use api_tests::*;

const UNLICENSED: &str = "The Tablet Survey module is not licensed.";

/// The kiosk's calls (method, path, body).
fn kiosk_calls() -> Vec<(Method, &'static str, Option<Value>)> {
    vec![
        (Method::GET, "/api/surveyIdentity/checkPin?pin=1234", None),
        (
            Method::GET,
            "/api/surveyIdentity/CheckAdminPin?adminPin=1234",
            None,
        ),
        (
            Method::POST,
            "/api/v2/survey/generatePin",
            Some(json!({"SurveyQueueId": 1})),
        ),
        (
            Method::POST,
            "/api/v2/survey/searchRespondents",
            Some(json!({"SearchText": "doe"})),
        ),
        (
            Method::POST,
            "/api/v2/survey/loadRespondentEntities",
            Some(json!({})),
        ),
        (Method::POST, "/api/v2/survey/startOptions", Some(json!({}))),
        (Method::PUT, "/magview.api/patient/add", Some(json!({}))),
        (Method::PUT, "/magview.api/studies/create", Some(json!({}))),
    ]
}

async fn call(client: &mut Client, method: &Method, path: &str, body: &Option<Value>) -> Response {
    let body = body
        .as_ref()
        .map(|b| (serde_json::to_vec(b).unwrap(), "application/json"));
    client
        .send(method.clone(), path, body, Csrf::Auto, &[])
        .await
}

async fn set_tablet_survey(manager: &mut Client, on: bool) {
    let saved = manager
        .post_json(
            "/api/license/updateLicense",
            &json!({"Module_Documents": true, "Module_Appointments": true, "Module_MedicalHistory": true, "Module_TabletSurvey": on}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(saved["force"]["Module_TabletSurvey"], on);
}

#[tokio::test]
async fn switched_off_the_kiosk_answers_403_and_the_rest_of_surveys_keeps_working() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let mut front_desk = server.signed_in(FRONT_DESK).await;
    let mut kiosk = server.client();
    assert_eq!(
        kiosk.get_json("/api/accountApi/apppermissionsJson").await["Module_TabletSurvey"],
        true
    );
    // Licensed: the calls are answered by their handlers (whatever they make of these bodies;
    // some refuse a caller without the admin PIN's grant, never for the license).
    for (method, path, body) in kiosk_calls() {
        for client in [&mut kiosk, &mut front_desk] {
            let answer = call(client, &method, path, &body).await;
            assert!(
                !answer.status.is_server_error(),
                "{method} {path}: {}",
                answer.status
            );
            assert!(!answer.text().contains(UNLICENSED), "{method} {path}");
        }
    }

    set_tablet_survey(&mut manager, false).await;
    assert_eq!(
        kiosk.get_json("/api/accountApi/apppermissionsJson").await["Module_TabletSurvey"],
        false
    );
    for (method, path, body) in kiosk_calls() {
        for client in [&mut kiosk, &mut front_desk, &mut manager] {
            let answer = call(client, &method, path, &body).await;
            assert_eq!(answer.status, StatusCode::FORBIDDEN, "{method} {path}");
            assert_eq!(answer.json()["Message"], UNLICENSED);
        }
    }
    // Not the tablet's: the survey settings every start (emailed link, History Portal) reads.
    kiosk.get_json("/api/survey/SurveySettings").await;

    set_tablet_survey(&mut manager, true).await;
    for (method, path, body) in kiosk_calls() {
        let answer = call(&mut kiosk, &method, path, &body).await;
        assert!(!answer.text().contains(UNLICENSED), "{method} {path}");
    }
}
