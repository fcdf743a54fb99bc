//! Who may call what: anonymous -> 401, wrong role -> 403, right role -> 200 (spec 01 §6).

use api_tests::*;

fn table() -> Value {
    json!({"PageIndex": 0, "PageSize": 10, "SortDirection": "asc", "Search": ""})
}

/// The staff-only endpoints: (method, path, body).
fn staff_calls() -> Vec<(Method, &'static str, Option<Value>)> {
    vec![
        (Method::GET, "/api/survey/GetAllLocations", None),
        (Method::GET, "/api/historyPortal/statusesLookup", None),
        (Method::POST, "/api/surveyQueue/datatable", Some(table())),
    ]
}

async fn call(client: &mut Client, method: &Method, path: &str, body: &Option<Value>) -> Response {
    match body {
        Some(body) => client.post_json(path, body).await,
        None => {
            client
                .send(method.clone(), path, None, Csrf::Auto, &[])
                .await
        }
    }
}

#[tokio::test]
async fn anonymous_gets_401_on_staff_and_patient_endpoints() {
    let server = TestServer::demo().await;
    let mut client = server.client();
    let mut calls = staff_calls();
    calls.push((
        Method::POST,
        "/api/surveyApi/GetNextAppointmentsForUser",
        Some(json!({"TimezoneOffset": 0})),
    ));
    for (method, path, body) in &calls {
        let response = call(&mut client, method, path, body).await;
        assert_eq!(
            response.status,
            StatusCode::UNAUTHORIZED,
            "anonymous {method} {path}: {}",
            response.text()
        );
        let error = response.expect_error(StatusCode::UNAUTHORIZED);
        assert_eq!(error["Title"], json!("Unauthorized"), "{method} {path}");
    }
}

#[tokio::test]
async fn patients_get_403_on_staff_endpoints() {
    let server = TestServer::demo().await;
    for account in [JANE, MARIA] {
        let mut client = server.signed_in(account).await;
        for (method, path, body) in &staff_calls() {
            let response = call(&mut client, method, path, body).await;
            assert_eq!(
                response.status,
                StatusCode::FORBIDDEN,
                "{} {method} {path}: {}",
                account.username,
                response.text()
            );
            let error = response.expect_error(StatusCode::FORBIDDEN);
            assert_eq!(
                error["Title"],
                json!("Forbidden"),
                "{} {method} {path}",
                account.username
            );
        }
    }
}

#[tokio::test]
async fn staff_get_403_on_the_patient_appointments() {
    let server = TestServer::demo().await;
    for account in STAFF_ACCOUNTS {
        let mut client = server.signed_in(account).await;
        let response = client
            .post_json(
                "/api/surveyApi/GetNextAppointmentsForUser",
                &json!({"TimezoneOffset": 0}),
            )
            .await;
        assert_eq!(
            response.status,
            StatusCode::FORBIDDEN,
            "{}: {}",
            account.username,
            response.text()
        );
        let error = response.expect_error(StatusCode::FORBIDDEN);
        assert_eq!(error["Title"], json!("Forbidden"), "{}", account.username);
    }
}

#[tokio::test]
async fn each_staff_role_gets_200_on_staff_endpoints() {
    let server = TestServer::demo().await;
    for account in STAFF_ACCOUNTS {
        let mut client = server.signed_in(account).await;
        for (method, path, body) in &staff_calls() {
            let response = call(&mut client, method, path, body).await;
            assert_eq!(
                response.status,
                StatusCode::OK,
                "{} {method} {path}: {}",
                account.username,
                response.text()
            );
            response.json();
        }
    }
}

#[tokio::test]
async fn patients_get_200_on_their_appointments() {
    let server = TestServer::demo().await;
    for account in [JANE, MARIA] {
        let mut client = server.signed_in(account).await;
        let response = client
            .post_json(
                "/api/surveyApi/GetNextAppointmentsForUser",
                &json!({"TimezoneOffset": 0}),
            )
            .await;
        let body = response.expect(StatusCode::OK);
        assert!(
            body["nextAppointments"].is_array(),
            "{}: {body}",
            account.username
        );
    }
}

#[tokio::test]
async fn a_signed_out_staff_member_loses_access() {
    let server = TestServer::demo().await;
    let mut client = server.signed_in(FRONT_DESK).await;
    client
        .get("/api/survey/GetAllLocations")
        .await
        .expect(StatusCode::OK);
    client
        .get("/api/accountApi/logout")
        .await
        .expect(StatusCode::OK);
    client
        .get("/api/survey/GetAllLocations")
        .await
        .expect_error(StatusCode::UNAUTHORIZED);
}
