//! History Portal settings (spec 03: HistoryPortal group, §4 toggles, §5 ranges) and the
//! version block (spec 01 §2.6).

use api_tests::*;

const GET: &str = "/api/configuration/GetHistoryPortalSettings";
const PUT: &str = "/api/configurationForm/HistoryPortal";

async fn put(client: &mut Client, body: &Value) -> Response {
    let bytes = serde_json::to_vec(body).unwrap();
    client
        .send(
            Method::PUT,
            PUT,
            Some((bytes, "application/json")),
            Csrf::Auto,
            &[],
        )
        .await
}

#[tokio::test]
async fn every_field_is_read_and_a_valid_form_saves_with_a_new_version_and_an_audit_row() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let doc = admin.get_json(GET).await;
    let settings = doc["Settings"].as_object().unwrap().clone();
    for key in [
        "DefaultHistoryPortalSurvey",
        "HrsAppointmentTimeType",
        "HrsAppointmentTimeValue",
        "HistoryPortalSurveyReminderStartTime",
        "HistoryPortalSurveyReminderEndTime",
        "HistoryPortalBusinessDays",
        "EnableSendingHistoryPortalNotifications",
        "EnableHistoryPortalNotificationsByEmail",
        "EnableHistoryPortalNotificationsBySms",
        "HistoryPortalRemindXDaysBeforeAppt",
        "HistoryPortalRemindUntilXHoursBeforeAppt",
        "EnableSendingIamHereNotifications",
        "EnableIamHereNotificationsByEmail",
        "EnableIamHereNotificationsBySms",
        "HistoryPortalSendIAmHereXHoursBeforeAppointment",
        "HistoryPortalExpireIAmHereButtonInXHoursAfterAppointment",
        "HistoryPortalMaxReadyForExamEmail",
        "IsDisabledIamHere",
        "HistoryPortalPatientNameColumnLastNameFirst",
    ] {
        assert!(settings.contains_key(key), "{key} missing: {doc}");
    }
    let version = doc["Version"].as_i64().unwrap();
    let mut next = settings.clone();
    next.insert("HistoryPortalMaxReadyForExamEmail".into(), json!(3));
    next.insert("HistoryPortalRemindXDaysBeforeAppt".into(), json!("3, 1"));
    // Master on with no channel: email on, SMS off (history portal); both on ('I am Here').
    next.insert(
        "EnableSendingHistoryPortalNotifications".into(),
        json!(true),
    );
    next.insert(
        "EnableHistoryPortalNotificationsByEmail".into(),
        json!(false),
    );
    next.insert("EnableHistoryPortalNotificationsBySms".into(), json!(false));
    next.insert("EnableSendingIamHereNotifications".into(), json!(true));
    next.insert("EnableIamHereNotificationsByEmail".into(), json!(false));
    next.insert("EnableIamHereNotificationsBySms".into(), json!(false));
    next.insert("NotAField".into(), json!("dropped"));
    let saved = put(&mut admin, &json!({"Version": version, "Settings": next}))
        .await
        .expect(StatusCode::OK);
    assert_eq!(saved["Version"], version + 1);
    let s = &saved["Settings"];
    assert_eq!(s["HistoryPortalMaxReadyForExamEmail"], 3);
    assert_eq!(
        (
            s["EnableHistoryPortalNotificationsByEmail"].clone(),
            s["EnableHistoryPortalNotificationsBySms"].clone()
        ),
        (json!(true), json!(false))
    );
    assert_eq!(
        (
            s["EnableIamHereNotificationsByEmail"].clone(),
            s["EnableIamHereNotificationsBySms"].clone()
        ),
        (json!(true), json!(true))
    );
    assert!(s.get("NotAField").is_none());
    let again = admin.get_json(GET).await;
    assert_eq!(again["Settings"], saved["Settings"]);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'SettingsSaved' AND target_id = 'HistoryPortal'")
            .await,
        1
    );
    // The Today tab reads the new limit.
    let mut desk = server.signed_in(FRONT_DESK).await;
    assert_eq!(
        desk.get_json("/api/historyPortal/listSettings").await["HistoryPortalMaxReadyForExamEmail"],
        3
    );

    // A stale version is refused.
    let stale = put(
        &mut admin,
        &json!({"Version": version, "Settings": saved["Settings"]}),
    )
    .await;
    assert_eq!(stale.status, StatusCode::CONFLICT);
}

#[tokio::test]
async fn ranges_are_enforced_with_their_messages() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let doc = manager.get_json(GET).await;
    let mut bad = doc["Settings"].as_object().unwrap().clone();
    bad.insert("HistoryPortalSurveyReminderEndTime".into(), json!(25));
    bad.insert("HistoryPortalMaxReadyForExamEmail".into(), json!(-2));
    bad.insert(
        "HistoryPortalSendIAmHereXHoursBeforeAppointment".into(),
        json!(100),
    );
    bad.insert("HistoryPortalRemindXDaysBeforeAppt".into(), json!("2,,3"));
    bad.insert(
        "HistoryPortalBusinessDays".into(),
        json!([false, false, false, false, false, false, false]),
    );
    let response = put(
        &mut manager,
        &json!({"Version": doc["Version"], "Settings": bad}),
    )
    .await;
    let body = response.expect_error(StatusCode::BAD_REQUEST);
    let errors = &body["Errors"];
    assert_eq!(
        errors["HistoryPortalSurveyReminderEndTime"],
        json!(["Must be between 0 and 24"]),
        "{body}"
    );
    assert_eq!(
        errors["HistoryPortalMaxReadyForExamEmail"],
        json!(["Must be between -1 and 99"])
    );
    assert_eq!(
        errors["HistoryPortalSendIAmHereXHoursBeforeAppointment"],
        json!(["Must be between 0 and 99"])
    );
    assert_eq!(
        errors["HistoryPortalRemindXDaysBeforeAppt"],
        json!(["Must be comma-separated whole numbers (for example 2, 3)"])
    );
    assert_eq!(
        errors["HistoryPortalBusinessDays"],
        json!(["Choose at least one business day"])
    );
    assert_eq!(
        manager.get_json(GET).await["Version"],
        doc["Version"],
        "nothing saved"
    );
}

#[tokio::test]
async fn settings_and_version_info_are_for_their_roles_only() {
    let server = TestServer::demo().await;
    let mut desk = server.signed_in(FRONT_DESK).await;
    assert_eq!(desk.get(GET).await.status, StatusCode::FORBIDDEN);
    assert_eq!(
        put(&mut desk, &json!({"Version": 1, "Settings": {}}))
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        desk.get("/api/admin/GetPortalVersionInformation")
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    assert_eq!(
        admin
            .get("/api/admin/GetPortalVersionInformation")
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    let mut manager = server.signed_in(MANAGER).await;
    let info = manager
        .get_json("/api/admin/GetPortalVersionInformation")
        .await;
    assert_eq!(
        info["PortalVersion"],
        env!("CARGO_PKG_VERSION"),
        "the build's own version: {info}"
    );
    assert_eq!(info["SurveyVersion"], env!("CARGO_PKG_VERSION"));
    assert!(matches!(
        info["ComCompatible"].as_str(),
        Some("True" | "False")
    ));
    for key in [
        "TechpadVersion",
        "ExpectedComVersion",
        "InstalledComVersion",
        "ExpectedLuminaryOneVersion",
    ] {
        assert!(
            info[key].as_str().is_some_and(|v| !v.is_empty()),
            "{key}: {info}"
        );
    }
    let mut patient = server.signed_in(JANE).await;
    assert_eq!(patient.get(GET).await.status, StatusCode::FORBIDDEN);
}
