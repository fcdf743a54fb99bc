//! POST /api/surveyApi/GetAppointmentsForUser (issue 20, the patient's Appointments page; spec
//! 01 §2.1 menu, Module_Appointments): the signed-in patient's own appointments, upcoming and
//! past, with location address and phone (ClientBusinessPhone when the location has none), the
//! study, the survey due and the I Am Here token only while check-in is open; audited; 403 for
//! staff and when the module is off.

use api_tests::*;

const PATH: &str = "/api/surveyApi/GetAppointmentsForUser";

async fn mine(client: &mut Client) -> Value {
    client
        .post_json(PATH, &json!({}))
        .await
        .expect(StatusCode::OK)
}

fn ids(list: &Value) -> Vec<i64> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|a| a["Id"].as_i64().unwrap())
        .collect()
}

fn instants(list: &Value) -> Vec<i64> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|a| parse_iso_utc(a["AppointmentDateTime"].as_str().unwrap()).unwrap())
        .collect()
}

#[tokio::test]
async fn jane_sees_her_own_upcoming_and_past_appointments_with_location_and_phone() {
    let server = TestServer::demo().await;
    let mut jane = server.signed_in(JANE).await;
    let body = mine(&mut jane).await;
    let (upcoming, past) = (&body["upcoming"], &body["past"]);
    // The demo gives Jane two future appointments and one 200 days ago.
    assert_eq!(upcoming.as_array().unwrap().len(), 2, "{body}");
    assert_eq!(past.as_array().unwrap().len(), 1, "{body}");
    let up = instants(upcoming);
    assert!(
        up.windows(2).all(|w| w[0] <= w[1]),
        "upcoming soonest first: {up:?}"
    );
    assert!(up[0] > now_unix() - 60 && instants(past)[0] < now_unix());
    for a in upcoming
        .as_array()
        .unwrap()
        .iter()
        .chain(past.as_array().unwrap())
    {
        assert!(!a["LocationName"].as_str().unwrap().is_empty(), "{a}");
        assert!(!a["LocationAddress"].as_str().unwrap().is_empty(), "{a}");
        assert!(
            a["LocationPhone"].as_str().unwrap().starts_with("555-"),
            "{a}"
        );
        if let Some(survey) = a["Survey"].as_object() {
            let key = survey["StatusKey"].as_str().unwrap();
            assert!(key == "Assigned" || key == "IntermediateSave", "{a}");
            assert!(!survey["SurveyName"].as_str().unwrap().is_empty(), "{a}");
        }
    }
    // The survey due for each (the demo's Assigned and In Progress rows): Begin, then Resume.
    assert_eq!(upcoming[0]["Survey"]["StatusKey"], "Assigned", "{body}");
    assert_eq!(
        upcoming[1]["Survey"]["StatusKey"], "IntermediateSave",
        "{body}"
    );
    // A completed survey is not due: the past appointment has none.
    assert!(past[0]["Survey"].is_null(), "{body}");
    // The rescheduled one keeps its status; days away, so check-in is not open.
    assert!(upcoming
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a["Status"] == "Rescheduled"));
    assert!(upcoming
        .as_array()
        .unwrap()
        .iter()
        .all(|a| a["IamHereToken"].is_null()));
    // Every one is Jane's, and all of Jane's are there.
    let jane_id = "(SELECT patient_id FROM users WHERE username = 'jane.doe')";
    let all = server
        .count_sql(&format!(
            "SELECT COUNT(*) FROM appointments WHERE patient_id = {jane_id}"
        ))
        .await;
    assert_eq!((ids(upcoming).len() + ids(past).len()) as i64, all);
    for id in ids(upcoming).into_iter().chain(ids(past)) {
        assert_eq!(
            server
                .count_sql(&format!(
                    "SELECT COUNT(*) FROM appointments WHERE id = {id} AND patient_id = {jane_id}"
                ))
                .await,
            1
        );
    }
    // The read is audited.
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'AppointmentsViewed'")
            .await,
        1
    );
}

#[tokio::test]
async fn check_in_is_offered_only_while_open_and_until_the_patient_arrived() {
    let server = TestServer::demo().await;
    let mut maria = server.signed_in(MARIA).await;
    let body = mine(&mut maria).await;
    // Maria's appointment within the hour: I Am Here is open, with its own link's token.
    let today = body["upcoming"][0].clone();
    let token = today["IamHereToken"]
        .as_str()
        .expect("I Am Here open")
        .to_owned();
    assert_eq!(
        server
            .count_sql(&format!(
                "SELECT COUNT(*) FROM appointments WHERE id = {} AND iam_here_token = '{token}'",
                today["Id"]
            ))
            .await,
        1
    );
    // Her appointment 40 days away has none.
    assert!(body["upcoming"][1]["IamHereToken"].is_null(), "{body}");
    // Once she checked in (the link itself), the state shows instead of the button.
    server
        .client()
        .get(&format!("/api/HistoryPortal/ProcessIAmHere?token={token}"))
        .await
        .expect(StatusCode::OK);
    let after = mine(&mut maria).await;
    assert_eq!(after["upcoming"][0]["ArrivalStatus"], "PatientArrived");
    assert!(after["upcoming"][0]["IamHereToken"].is_null());
    // Jane never sees Maria's appointments.
    let mut jane = server.signed_in(JANE).await;
    let janes = mine(&mut jane).await;
    assert!(!ids(&janes["upcoming"]).contains(&today["Id"].as_i64().unwrap()));
}

#[tokio::test]
async fn a_location_without_a_phone_gives_the_clinic_business_phone() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let read = admin.get_json("/api/configurationForm/HistoryPortal").await;
    let mut settings = read["Settings"].clone();
    settings["ClientBusinessPhone"] = json!("555-0199");
    admin
        .send(
            Method::PUT,
            "/api/configurationForm/HistoryPortal",
            Some((
                serde_json::to_vec(&json!({"Version": read["Version"], "Settings": settings}))
                    .unwrap(),
                "application/json",
            )),
            Csrf::Auto,
            &[],
        )
        .await
        .expect(StatusCode::OK);
    server
        .execute_sql("UPDATE locations SET phone = NULL")
        .await;
    let mut jane = server.signed_in(JANE).await;
    let body = mine(&mut jane).await;
    assert_eq!(body["upcoming"][0]["LocationPhone"], "555-0199", "{body}");
}

#[tokio::test]
async fn staff_signed_out_and_a_switched_off_module_are_refused() {
    let server = TestServer::demo().await;
    for account in STAFF_ACCOUNTS {
        let mut staff = server.signed_in(account).await;
        staff
            .post_json(PATH, &json!({}))
            .await
            .expect_error(StatusCode::FORBIDDEN);
    }
    server
        .client()
        .post_json(PATH, &json!({}))
        .await
        .expect_error(StatusCode::UNAUTHORIZED);
    let mut jane = server.signed_in(JANE).await;
    mine(&mut jane).await;
    let body = json!({"Module_Documents": true, "Module_Appointments": false, "Module_MedicalHistory": true});
    server
        .execute_sql(&format!(
            "UPDATE settings SET body = '{body}' WHERE group_name = 'License'"
        ))
        .await;
    let refused = jane
        .post_json(PATH, &json!({}))
        .await
        .expect_error(StatusCode::FORBIDDEN);
    assert!(
        refused
            .to_string()
            .contains("The Appointments module is not licensed."),
        "{refused}"
    );
}
