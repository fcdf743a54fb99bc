//! One Save for several settings groups (Documents Settings > general-documents, spec 03 §2):
//! PUT /api/configurationForms stores the groups together in one transaction or not at all:
//! 409 when any group was saved after its Version, 400 with messages under `{Group}.{Field}`.

use api_tests::*;

const GROUPS: [&str; 4] = [
    "DocumentsEssential",
    "DocumentsColumnTitle",
    "DocumentsAlternateDocumentTypeDescription",
    "DocumentsOther",
];

/// The four groups as stored now, with `edit` applied to the named ones.
async fn body(client: &mut Client, edits: &[(&str, &str, Value)]) -> Value {
    let mut groups = Vec::new();
    for name in GROUPS {
        let env = client
            .get_json(&format!("/api/configurationForm/{name}"))
            .await;
        let mut settings = env["Settings"].clone();
        for (group, field, value) in edits {
            if *group == name {
                settings[*field] = value.clone();
            }
        }
        groups.push(json!({"Name": name, "Version": env["Version"], "Settings": settings}));
    }
    json!({ "Groups": groups })
}

async fn field(client: &mut Client, group: &str, field: &str) -> Value {
    client
        .get_json(&format!("/api/configurationForm/{group}"))
        .await["Settings"][field]
        .clone()
}

#[tokio::test]
async fn the_four_groups_are_saved_together() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let audits = "SELECT COUNT(*) FROM audit_log WHERE action = 'SettingsSaved' AND target_id LIKE 'Documents%'";
    let before = server.count_sql(audits).await;
    let all = body(
        &mut admin,
        &[
            ("DocumentsEssential", "ShowOtherDocumentsTab", json!(false)),
            (
                "DocumentsColumnTitle",
                "DocAckColumnTitle",
                json!("Confirmed"),
            ),
            (
                "DocumentsAlternateDocumentTypeDescription",
                "AltDocDescRecall",
                json!("Reminder"),
            ),
            ("DocumentsOther", "DocViewBtnText", json!("Open")),
        ],
    )
    .await;
    let saved = admin
        .put_json("/api/configurationForms", &all)
        .await
        .expect(StatusCode::OK);
    let saved = saved.as_array().unwrap();
    assert_eq!(saved.len(), 4);
    for ((env, name), sent) in saved
        .iter()
        .zip(GROUPS)
        .zip(all["Groups"].as_array().unwrap())
    {
        assert_eq!(env["Name"], name);
        assert_eq!(
            env["Version"].as_i64().unwrap(),
            sent["Version"].as_i64().unwrap() + 1,
            "{env}"
        );
    }
    assert_eq!(
        field(&mut admin, "DocumentsEssential", "ShowOtherDocumentsTab").await,
        false
    );
    assert_eq!(
        field(&mut admin, "DocumentsColumnTitle", "DocAckColumnTitle").await,
        "Confirmed"
    );
    assert_eq!(
        field(
            &mut admin,
            "DocumentsAlternateDocumentTypeDescription",
            "AltDocDescRecall"
        )
        .await,
        "Reminder"
    );
    assert_eq!(
        field(&mut admin, "DocumentsOther", "DocViewBtnText").await,
        "Open"
    );
    // One audit row per group, each with its own changed fields.
    assert_eq!(server.count_sql(audits).await, before + 4);
}

#[tokio::test]
async fn a_stale_group_stores_none_of_them() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(MANAGER).await;
    let titles_audited = "SELECT COUNT(*) FROM audit_log WHERE target_id = 'DocumentsColumnTitle'";
    let audited_before = server.count_sql(titles_audited).await;
    let all = body(
        &mut admin,
        &[
            ("DocumentsColumnTitle", "DocAckColumnTitle", json!("Mine")),
            ("DocumentsOther", "DocAckBtnText", json!("Mine")),
        ],
    )
    .await;
    // Someone saves Other Settings meanwhile.
    let env = admin
        .get_json("/api/configurationForm/DocumentsOther")
        .await;
    let mut theirs = env["Settings"].clone();
    theirs["DocAckBtnText"] = json!("Theirs");
    admin
        .put_json(
            "/api/configurationForm/DocumentsOther",
            &json!({"Version": env["Version"], "Settings": theirs}),
        )
        .await
        .expect(StatusCode::OK);

    let stale = admin
        .put_json("/api/configurationForms", &all)
        .await
        .expect_error(StatusCode::CONFLICT);
    assert_eq!(stale["Current"]["Name"], "DocumentsOther");
    assert_eq!(stale["Current"]["Settings"]["DocAckBtnText"], "Theirs");
    // The title, in a group that was not stale, was not stored either.
    assert_eq!(
        field(&mut admin, "DocumentsColumnTitle", "DocAckColumnTitle").await,
        "Acknowledged"
    );
    assert_eq!(server.count_sql(titles_audited).await, audited_before);
}

#[tokio::test]
async fn a_bad_field_in_any_group_stores_none_and_names_the_group() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(MANAGER).await;
    let all = body(
        &mut admin,
        &[
            ("DocumentsEssential", "ACKOnView", json!(true)),
            ("DocumentsEssential", "AckOnViewDelay", json!(2.5)),
            ("DocumentsColumnTitle", "DocAckColumnTitle", json!("Mine")),
            ("DocumentsOther", "DocViewBtnText", json!("x".repeat(101))),
        ],
    )
    .await;
    let refused = admin
        .put_json("/api/configurationForms", &all)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    let errors = &refused["Errors"];
    assert_eq!(
        errors["DocumentsEssential.AckOnViewDelay"][0], "Value can not be decimal",
        "{refused}"
    );
    assert_eq!(
        errors["DocumentsOther.DocViewBtnText"][0],
        "Must be at most 100 characters"
    );
    assert_eq!(
        field(&mut admin, "DocumentsColumnTitle", "DocAckColumnTitle").await,
        "Acknowledged"
    );
}

#[tokio::test]
async fn bad_requests_and_roles() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(MANAGER).await;
    let all = body(&mut admin, &[]).await;
    let one = &all["Groups"][0];
    let path = "/api/configurationForms";
    admin
        .put_json(path, &json!({"Groups": []}))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    admin
        .put_json(path, &json!({"Groups": [one, one]}))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    let eleven: Vec<Value> = (0..11).map(|_| one.clone()).collect();
    admin
        .put_json(path, &json!({ "Groups": eleven }))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    admin
        .put_json(
            path,
            &json!({"Groups": [{"Name": "NoSuchGroup", "Version": 0, "Settings": {}}]}),
        )
        .await
        .expect_error(StatusCode::NOT_FOUND);
    admin
        .put_json(path, &json!({"Groups": "x"}))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    // Unchanged groups: nothing written, versions stay.
    let same = admin.put_json(path, &all).await.expect(StatusCode::OK);
    assert_eq!(same[0]["Version"], all["Groups"][0]["Version"]);

    assert_eq!(
        server.client().put_json(path, &all).await.status,
        StatusCode::UNAUTHORIZED
    );
    let mut desk = server.signed_in(FRONT_DESK).await;
    assert_eq!(
        desk.put_json(path, &all).await.status,
        StatusCode::FORBIDDEN
    );
    let mut jane = server.signed_in(JANE).await;
    assert_eq!(
        jane.put_json(path, &all).await.status,
        StatusCode::FORBIDDEN
    );
    server.assert_alive().await;
}
