//! POST /api/surveyApi/GetNextAppointmentsForUser: the signed-in patient's own future
//! appointments, never another patient's.

use std::collections::HashSet;

use api_tests::*;

const PATH: &str = "/api/surveyApi/GetNextAppointmentsForUser";

async fn next_appointments(client: &mut Client, offset_minutes: i64) -> Value {
    let response = client
        .post_json(PATH, &json!({"TimezoneOffset": offset_minutes}))
        .await;
    let body = response.expect(StatusCode::OK);
    assert!(
        body["nextAppointments"].is_array(),
        "nextAppointments is not an array: {body}"
    );
    assert!(
        body["isHideAppointmentTimeInHistoryPortal"].is_boolean(),
        "isHideAppointmentTimeInHistoryPortal: {body}"
    );
    body
}

/// Checks every appointment's fields and that it is in the future; returns (instant, location).
fn future_appointments(body: &Value, who: &str) -> Vec<(i64, String)> {
    let now = now_unix();
    body["nextAppointments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|appointment| {
            let iso = appointment["AppointmentDateTime"]
                .as_str()
                .unwrap_or_else(|| panic!("{who}: no AppointmentDateTime in {appointment}"));
            let at = parse_iso_utc(iso).unwrap_or_else(|| {
                panic!("{who}: AppointmentDateTime {iso:?} is not an ISO UTC instant")
            });
            // A minute of slack: the server's "now" came a moment before ours.
            assert!(
                at > now - 60,
                "{who}: appointment at {iso} is not in the future"
            );
            for field in ["AppointmentDate", "AppointmentTime", "LocationName"] {
                assert!(
                    appointment[field].is_string(),
                    "{who}: {field} missing in {appointment}"
                );
            }
            let location = appointment["LocationName"].as_str().unwrap().to_owned();
            assert!(
                !location.trim().is_empty(),
                "{who}: empty LocationName in {appointment}"
            );
            (at, location)
        })
        .collect()
}

#[tokio::test]
async fn jane_gets_her_own_future_appointments() {
    let server = TestServer::demo().await;
    let mut jane = server.signed_in(JANE).await;
    let body = next_appointments(&mut jane, 0).await;
    let appointments = future_appointments(&body, "jane.doe");
    assert!(
        appointments.len() >= 2,
        "jane.doe has at least two future appointments: {body}"
    );
}

#[tokio::test]
async fn maria_gets_hers_and_never_janes() {
    let server = TestServer::demo().await;
    let mut jane = server.signed_in(JANE).await;
    let mut maria = server.signed_in(MARIA).await;
    let janes: HashSet<(i64, String)> =
        future_appointments(&next_appointments(&mut jane, 0).await, "jane.doe")
            .into_iter()
            .collect();
    let maria_body = next_appointments(&mut maria, 0).await;
    let marias: HashSet<(i64, String)> = future_appointments(&maria_body, "maria.garcia")
        .into_iter()
        .collect();
    assert!(!janes.is_empty());
    let shared: Vec<_> = janes.intersection(&marias).collect();
    assert!(
        shared.is_empty(),
        "maria.garcia sees appointments of jane.doe: {shared:?}"
    );
    // And the other way round, after Maria asked: Jane's list did not change.
    let again: HashSet<(i64, String)> =
        future_appointments(&next_appointments(&mut jane, 0).await, "jane.doe")
            .into_iter()
            .collect();
    assert_eq!(janes, again);
}

#[tokio::test]
async fn the_time_zone_does_not_move_the_instants() {
    let server = TestServer::demo().await;
    let mut jane = server.signed_in(JANE).await;
    let utc = next_appointments(&mut jane, 0).await;
    let new_york = next_appointments(&mut jane, -300).await;
    let instants = |body: &Value| -> Vec<String> {
        body["nextAppointments"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["AppointmentDateTime"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        instants(&utc),
        instants(&new_york),
        "AppointmentDateTime is UTC whatever the viewer's zone"
    );
}

#[tokio::test]
async fn no_appointments_for_a_signed_out_patient() {
    let server = TestServer::demo().await;
    let mut jane = server.signed_in(JANE).await;
    jane.get("/api/accountApi/logout")
        .await
        .expect(StatusCode::OK);
    let response = jane.post_json(PATH, &json!({"TimezoneOffset": 0})).await;
    response.expect_error(StatusCode::UNAUTHORIZED);
}
