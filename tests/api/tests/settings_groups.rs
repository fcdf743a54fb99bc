//! Settings groups through the one engine (issue 13 §1; spec 03 §7 GET/PUT
//! /api/configurationForm/{name}, §5 messages): roles, versions and 409, field messages with
//! nothing stored, secrets, field-level audit rows, hostile input, the spec's alias paths.

use api_tests::*;

fn path(name: &str) -> String {
    format!("/api/configurationForm/{name}")
}

async fn put(client: &mut Client, name: &str, body: &Value) -> Response {
    put_raw(client, &path(name), serde_json::to_vec(body).unwrap()).await
}

async fn put_raw(client: &mut Client, path: &str, bytes: Vec<u8>) -> Response {
    client
        .send(
            Method::PUT,
            path,
            Some((bytes, "application/json")),
            Csrf::Auto,
            &[],
        )
        .await
}

#[tokio::test]
async fn roles_and_unknown_groups() {
    let server = TestServer::demo().await;
    assert_eq!(
        server.client().get(&path("CorePortal")).await.status,
        StatusCode::UNAUTHORIZED
    );
    let mut desk = server.signed_in(FRONT_DESK).await;
    assert_eq!(
        desk.get(&path("CorePortal")).await.status,
        StatusCode::FORBIDDEN
    );
    let mut jane = server.signed_in(JANE).await;
    assert_eq!(
        jane.get(&path("HistoryPortal")).await.status,
        StatusCode::FORBIDDEN
    );
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    assert_eq!(
        admin.get(&path("NoSuchGroup")).await.status,
        StatusCode::NOT_FOUND
    );
    // Names are the spec's, exactly.
    assert_eq!(
        admin.get(&path("coreportal")).await.status,
        StatusCode::NOT_FOUND
    );
    let saved = put(
        &mut admin,
        "NoSuchGroup",
        &json!({"Version": 1, "Settings": {}}),
    )
    .await;
    assert_eq!(saved.status, StatusCode::NOT_FOUND);
    let mut desk_put = put(
        &mut desk,
        "CorePortal",
        &json!({"Version": 1, "Settings": {}}),
    )
    .await;
    assert_eq!(desk_put.status, StatusCode::FORBIDDEN);
    desk_put = put(
        &mut jane,
        "CorePortal",
        &json!({"Version": 1, "Settings": {}}),
    )
    .await;
    assert_eq!(desk_put.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_save_bumps_the_version_and_writes_one_audit_row_with_the_changed_fields() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let response = admin.get(&path("CorePortal")).await;
    let doc = response.expect(StatusCode::OK);
    let version = doc["Version"].as_i64().unwrap();
    assert_eq!(
        response.header("etag").as_deref(),
        Some(format!("\"{version}\"").as_str())
    );
    assert_eq!(doc["Name"], "CorePortal");
    let mut settings = doc["Settings"].as_object().unwrap().clone();
    assert!(settings.contains_key("SessionTimeoutMinutes"), "{doc}");
    settings.insert("ClientName".into(), json!("Harbor Imaging"));
    settings.insert("SessionTimeoutMinutes".into(), json!(30));
    let saved = put(
        &mut admin,
        "CorePortal",
        &json!({"Version": version, "Settings": settings}),
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(saved["Version"], version + 1);
    assert_eq!(saved["Settings"]["ClientName"], "Harbor Imaging");
    assert_eq!(
        admin.get_json(&path("CorePortal")).await["Settings"],
        saved["Settings"]
    );
    let audit = "SELECT COUNT(*) FROM audit_log WHERE action = 'SettingsSaved' AND target_id = 'CorePortal'";
    assert_eq!(server.count_sql(audit).await, 1);
    let fields = format!(
        "{audit} AND new_values LIKE '%\"ClientName\":\"Harbor Imaging\"%' AND new_values LIKE '%\"SessionTimeoutMinutes\":30%'
           AND old_values LIKE '%\"SessionTimeoutMinutes\":20%' AND new_values NOT LIKE '%PublicWebAddress%'"
    );
    assert_eq!(server.count_sql(&fields).await, 1);
}

#[tokio::test]
async fn the_later_of_two_saves_from_one_version_gets_409_with_the_current_document() {
    let server = TestServer::demo().await;
    let mut first = server.signed_in(CLIENT_ADMIN).await;
    let mut second = server.signed_in(MANAGER).await;
    let read_one = first.get_json(&path("HistoryPortal")).await;
    let read_two = second.get_json(&path("HistoryPortal")).await;
    let version = read_one["Version"].as_i64().unwrap();
    let mut a = read_one["Settings"].clone();
    a["ClientBusinessPhone"] = json!("555-0100");
    put(
        &mut first,
        "HistoryPortal",
        &json!({"Version": version, "Settings": a}),
    )
    .await
    .expect(StatusCode::OK);
    let mut b = read_two["Settings"].clone();
    b["HistoryPortalMaxReadyForExamEmail"] = json!(7);
    let refused = put(
        &mut second,
        "HistoryPortal",
        &json!({"Version": version, "Settings": b}),
    )
    .await;
    let body = refused.expect_error(StatusCode::CONFLICT);
    assert_eq!(body["Current"]["Version"], version + 1);
    assert_eq!(
        body["Current"]["Settings"]["ClientBusinessPhone"],
        "555-0100"
    );
    // Nothing of the refused save was kept.
    let now = first.get_json(&path("HistoryPortal")).await;
    assert_eq!(now["Settings"]["HistoryPortalMaxReadyForExamEmail"], -1);
    assert_eq!(now["Version"], version + 1);
}

#[tokio::test]
async fn invalid_documents_get_the_spec_messages_and_nothing_is_stored() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let doc = manager.get_json(&path("CorePortal")).await;
    let version = doc["Version"].clone();
    let mut bad = doc["Settings"].clone();
    bad["ClientName"] = json!("  ");
    bad["SessionTimeoutMinutes"] = json!(1.5);
    bad["WarnBeforeSessionTimeoutMinutes"] = json!(0.5);
    let body = put(
        &mut manager,
        "CorePortal",
        &json!({"Version": version, "Settings": bad}),
    )
    .await
    .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        body["Errors"]["ClientName"],
        json!(["Client Name field can not be empty"])
    );
    assert_eq!(
        body["Errors"]["SessionTimeoutMinutes"],
        json!(["Value can not be decimal"])
    );
    assert_eq!(
        body["Errors"]["WarnBeforeSessionTimeoutMinutes"],
        json!(["Value can not be a decimal"])
    );

    let mut order = doc["Settings"].clone();
    order["SessionTimeoutMinutes"] = json!(5);
    order["WarnBeforeSessionTimeoutMinutes"] = json!(5);
    let body = put(
        &mut manager,
        "CorePortal",
        &json!({"Version": version, "Settings": order}),
    )
    .await
    .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        body["Errors"]["WarnBeforeSessionTimeoutMinutes"],
        json!(["Warning before session timeout should be less than session timeout"])
    );
    let after = manager.get_json(&path("CorePortal")).await;
    assert_eq!(after, doc);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'SettingsSaved'")
            .await,
        0
    );
}

#[tokio::test]
async fn secrets_are_stored_encrypted_answered_empty_and_kept_when_left_empty() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let doc = manager.get_json(&path("CorePortal")).await;
    let mut settings = doc["Settings"].clone();
    settings["PortalSqlUserPwd"] = json!("s3cret-Value");
    let saved = put(
        &mut manager,
        "CorePortal",
        &json!({"Version": doc["Version"], "Settings": settings}),
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(saved["Settings"]["PortalSqlUserPwd"], "");
    assert_eq!(saved["StoredSecrets"], json!(["PortalSqlUserPwd"]));
    let leaked = "SELECT COUNT(*) FROM settings WHERE body LIKE '%s3cret-Value%'";
    assert_eq!(server.count_sql(leaked).await, 0);
    let audit_leak = "SELECT COUNT(*) FROM audit_log WHERE new_values LIKE '%s3cret%' OR old_values LIKE '%s3cret%'";
    assert_eq!(server.count_sql(audit_leak).await, 0);
    // Saved again with the secret left empty: still stored.
    let mut again = saved["Settings"].clone();
    again["ClientName"] = json!("Another Name");
    let kept = put(
        &mut manager,
        "CorePortal",
        &json!({"Version": saved["Version"], "Settings": again}),
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(kept["StoredSecrets"], json!(["PortalSqlUserPwd"]));
    assert_eq!(
        server.count_sql("SELECT COUNT(*) FROM settings WHERE group_name = 'CorePortal' AND body LIKE '%\"PortalSqlUserPwd\":\"\"%'").await,
        0
    );
}

#[tokio::test]
async fn hostile_input_is_refused_without_a_server_error_and_stores_nothing() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let doc = admin.get_json(&path("HistoryPortal")).await;
    let version = doc["Version"].clone();
    let long = "x".repeat(200_000);
    let cases = [
        json!({"Version": version, "Settings": {"ClientBusinessPhone": long}}),
        json!({"Version": version, "Settings": {"HistoryPortalBusinessDays": "weekdays"}}),
        json!({"Version": version, "Settings": {"IsDisabledIamHere": {"nested": [1, 2]}}}),
        json!({"Version": version, "Settings": {"HrsAppointmentTimeValue": "abc"}}),
        json!({"Version": version, "Settings": {"HrsAppointmentTimeValue": 1e308}}),
        json!({"Version": "one", "Settings": {}}),
        json!({"Version": version, "Settings": [1, 2, 3]}),
        json!({"Version": version}),
        json!([]),
    ];
    for case in cases {
        let response = put(&mut admin, "HistoryPortal", &case).await;
        assert_eq!(
            response.status,
            StatusCode::BAD_REQUEST,
            "{case}: {}",
            response.text()
        );
    }
    for raw in [&b"{"[..], b"\x00\xff", b"null", b"\"text\""] {
        let response = put_raw(&mut admin, &path("HistoryPortal"), raw.to_vec()).await;
        assert_eq!(response.status, StatusCode::BAD_REQUEST, "{raw:?}");
    }
    let very_long_name = path(&"A".repeat(5000));
    assert_eq!(
        admin.get(&very_long_name).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(admin.get_json(&path("HistoryPortal")).await, doc);
    server.assert_alive().await;
}

#[tokio::test]
async fn the_spec_alias_paths_are_the_same_groups() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let by_alias = manager
        .get_json("/api/surveySettings/generalSettings")
        .await;
    assert_eq!(by_alias, manager.get_json(&path("SurveyGeneral")).await);
    let mut settings = by_alias["Settings"].clone();
    settings["SurveyAdminPin"] = json!("1234567");
    let body = manager
        .post_json(
            "/api/surveySettings/generalSettings",
            &json!({"Version": by_alias["Version"], "Settings": settings}),
        )
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        body["Errors"]["SurveyAdminPin"],
        json!(["Must be at most 6 characters"])
    );
    settings["SurveyAdminPin"] = json!("2468");
    settings["PdfPageNumberAlignment"] = json!("Right");
    let saved = manager
        .post_json(
            "/api/surveySettings/generalSettings",
            &json!({"Version": by_alias["Version"], "Settings": settings}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(saved["Settings"]["PdfPageNumberAlignment"], "Right");
    let hp = manager
        .get_json("/api/configuration/GetHistoryPortalSettings")
        .await;
    assert_eq!(hp, manager.get_json(&path("HistoryPortal")).await);
}

#[tokio::test]
async fn techpad_categories_and_survey_integrations_are_groups_too() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let general = admin.get_json("/api/techpadSettings/General").await;
    assert_eq!(general["Name"], "TechpadGeneral");
    assert_eq!(general, admin.get_json(&path("TechpadGeneral")).await);
    assert_eq!(
        admin
            .get("/api/techpadSettings/NoSuchCategory")
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        admin
            .get_json("/api/surveySettings/integrations/SurveyWebhookIntegration")
            .await["Name"],
        "SurveyWebhookIntegration"
    );

    // Spec 04 §5: at most 8 canned notes per category; nothing is saved past it.
    let notes = admin.get_json("/api/techpadSettings/CannedNotes").await;
    let nine: Vec<Value> = (1..=9)
        .map(|i| json!({"Id": i, "Name": format!("Note {i}"), "Value": "Text", "CommentId": 1}))
        .collect();
    let body = json!({"Version": notes["Version"], "Settings": {"CannedNotes": nine}});
    let refused = put_raw(
        &mut admin,
        "/api/techpadSettings/CannedNotes",
        serde_json::to_vec(&body).unwrap(),
    )
    .await
    .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        refused["Errors"]["CannedNotes"],
        json!(["At most 8 notes can share a category"])
    );
    let eight = json!({"Version": notes["Version"], "Settings": {"CannedNotes": &body["Settings"]["CannedNotes"].as_array().unwrap()[..8]}});
    let saved = put_raw(
        &mut admin,
        "/api/techpadSettings/CannedNotes",
        serde_json::to_vec(&eight).unwrap(),
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(
        saved["Settings"]["CannedNotes"].as_array().unwrap().len(),
        8
    );
}

#[tokio::test]
async fn many_saves_from_one_version_at_once_store_exactly_one() {
    // Concurrent edits of one record: one wins, every other gets 409, none a 5xx, none lost
    // silently (SQLite write transactions begin IMMEDIATE; PostgreSQL's versioned UPDATE).
    let server = TestServer::demo().await;
    let mut reader = server.signed_in(MANAGER).await;
    let doc = reader.get_json(&path("HistoryPortal")).await;
    let mut tasks = Vec::new();
    for i in 0..12 {
        let mut client = server
            .signed_in(if i % 2 == 0 { MANAGER } else { CLIENT_ADMIN })
            .await;
        let mut settings = doc["Settings"].clone();
        settings["ClientBusinessPhone"] = json!(format!("555-01{i:02}"));
        let body = json!({"Version": doc["Version"], "Settings": settings});
        tasks.push(tokio::spawn(async move {
            put(&mut client, "HistoryPortal", &body).await.status
        }));
    }
    let mut statuses = Vec::new();
    for task in tasks {
        statuses.push(task.await.unwrap());
    }
    let ok = statuses.iter().filter(|s| **s == StatusCode::OK).count();
    let conflicts = statuses
        .iter()
        .filter(|s| **s == StatusCode::CONFLICT)
        .count();
    assert_eq!((ok, conflicts), (1, 11), "{statuses:?}");
    let after = reader.get_json(&path("HistoryPortal")).await;
    assert_eq!(after["Version"], doc["Version"].as_i64().unwrap() + 1);
    let audit = "SELECT COUNT(*) FROM audit_log WHERE action = 'SettingsSaved' AND target_id = 'HistoryPortal'";
    assert_eq!(server.count_sql(audit).await, 1);
}

#[tokio::test]
async fn saves_at_once_get_200_or_409_never_a_server_error() {
    // Three writers per group, eight groups, six saves each, each going on from the version its
    // last answer gave (a 409 carries the current document). With deferred transactions SQLite
    // answered 'database is locked' (500) to a save whose read preceded another's commit.
    let server = TestServer::demo().await;
    let groups = [
        ("HistoryPortal", "IsDisabledIamHere"),
        ("CorePortal", "IsSsoMode"),
        ("SurveyGeneral", "HidePatientNameInSurvey"),
        ("DocumentsEssential", "ShowReadColumn"),
        ("TechpadGeneral", "IsShowDemoMenuItem"),
        (
            "UserAccountSwitchUserOptions",
            "AllowToSwitchLinkedAccounts",
        ),
        ("License", "Module_TabletSurvey"),
        ("SurveyThemesSettings", "HideSurveyThemeSettingsButton"),
    ];
    let mut tasks = Vec::new();
    for i in 0..24 {
        let (group, switch) = groups[i % groups.len()];
        let mut client = server.signed_in(MANAGER).await;
        tasks.push(tokio::spawn(async move {
            let mut doc = client.get_json(&path(group)).await;
            let mut statuses = Vec::new();
            for _ in 0..6 {
                let mut settings = doc["Settings"].clone();
                let flipped = !settings[switch].as_bool().expect(switch);
                settings[switch] = json!(flipped);
                let body = json!({"Version": doc["Version"], "Settings": settings});
                let response = put(&mut client, group, &body).await;
                statuses.push(response.status);
                match response.status {
                    StatusCode::OK => doc = response.json(),
                    StatusCode::CONFLICT => doc = response.json()["Current"].clone(),
                    _ => break,
                }
            }
            (group, statuses)
        }));
    }
    let mut saved = 0;
    for task in tasks {
        let (group, statuses) = task.await.unwrap();
        assert!(
            statuses
                .iter()
                .all(|s| *s == StatusCode::OK || *s == StatusCode::CONFLICT),
            "{group}: {statuses:?}"
        );
        saved += statuses.iter().filter(|s| **s == StatusCode::OK).count();
    }
    // Every 200 is one stored version and one audit row; nothing else was written.
    let audit =
        "SELECT COUNT(*) FROM audit_log WHERE action IN ('SettingsSaved', 'TechpadSettingsSaved')";
    assert_eq!(server.count_sql(audit).await, saved as i64);
}
