//! Techpad settings (issue 18; spec 04 §2-§5, §7, §9): the thirteen groups at
//! /api/techpadSettings/{category} on the settings engine (roles, defaults, 400 with field
//! messages and nothing stored, 409, Techpad Log rows with old and new values), the lookups
//! (CheckForAvailableAlternateIdentifierColumns, LoadTechpadActionsForExam, StorageColumnsLookup),
//! PUT ResetWorklistSorting, and the tablet app's GET /api/techpad/configuration for a
//! Technologist or a program manager.

use api_tests::*;

const CATEGORIES: [&str; 13] = [
    "General",
    "MaglinkEvents",
    "ExamActions",
    "CommentsSettings",
    "DiagramSettings",
    "WorklistSorting",
    "DynamicLabelsPerformExamButtonAliases",
    "DynamicLabelsExamTabsAliases",
    "StatusAliases",
    "Tags",
    "Resources",
    "ExamDynamicLabels",
    "CannedNotes",
];
const LOOKUPS: [&str; 3] = [
    "/api/techpadSettings/CheckForAvailableAlternateIdentifierColumns",
    "/api/techpadSettings/LoadTechpadActionsForExam",
    "/api/techpadSettings/StorageColumnsLookup",
];
const RESET: &str = "/api/techpadSettings/ResetWorklistSorting";
const CONFIGURATION: &str = "/api/techpad/configuration";

fn path(category: &str) -> String {
    format!("/api/techpadSettings/{category}")
}

async fn put_body(client: &mut Client, path: &str, body: Option<&Value>) -> Response {
    client
        .send(
            Method::PUT,
            path,
            body.map(|b| (serde_json::to_vec(b).unwrap(), "application/json")),
            Csrf::Auto,
            &[],
        )
        .await
}

async fn put(client: &mut Client, category: &str, version: &Value, settings: &Value) -> Response {
    put_body(
        client,
        &path(category),
        Some(&json!({"Version": version, "Settings": settings})),
    )
    .await
}

/// A technologist account made by the program manager through the user administration, signed in.
async fn technologist(server: &TestServer) -> Client {
    let mut manager = server.signed_in(MANAGER).await;
    let created = manager
        .post_json(
            "/api/user/postUser",
            &json!({"Roles": ["Technologist"], "Email": "tech@example.org", "Username": "tech", "FirstName": "Terry", "LastName": "Tech", "IsActive": true, "Password": "Welcome#2026"}),
        )
        .await;
    assert!(created.status.is_success(), "{}", created.text());
    let mut tech = server.client();
    let login = tech.sign_in_staff("tech", "Welcome#2026").await;
    assert_eq!(login["IsValid"], json!(true), "{login}");
    tech
}

#[tokio::test]
async fn every_call_checks_the_callers_role() {
    let server = TestServer::demo().await;
    let mut anonymous = server.client();
    let mut tech = technologist(&server).await;
    let mut desk = server.signed_in(FRONT_DESK).await;
    let mut jane = server.signed_in(JANE).await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let mut manager = server.signed_in(MANAGER).await;
    for category in CATEGORIES {
        assert_eq!(
            anonymous.get(&path(category)).await.status,
            StatusCode::UNAUTHORIZED
        );
        for other in [&mut tech, &mut desk, &mut jane] {
            other
                .get(&path(category))
                .await
                .expect_error(StatusCode::FORBIDDEN);
            let refused = put(other, category, &json!(1), &json!({})).await;
            assert_eq!(refused.status, StatusCode::FORBIDDEN, "{category}");
        }
        for editor in [&mut admin, &mut manager] {
            let doc = editor.get_json(&path(category)).await;
            assert_eq!(doc["Name"], format!("Techpad{category}"));
        }
    }
    for lookup in LOOKUPS {
        assert_eq!(anonymous.get(lookup).await.status, StatusCode::UNAUTHORIZED);
        for other in [&mut tech, &mut desk, &mut jane] {
            other.get(lookup).await.expect_error(StatusCode::FORBIDDEN);
        }
        admin.get(lookup).await.expect(StatusCode::OK);
        manager.get(lookup).await.expect(StatusCode::OK);
    }
    assert_eq!(
        put_body(&mut anonymous, RESET, None).await.status,
        StatusCode::UNAUTHORIZED
    );
    for other in [&mut tech, &mut desk, &mut jane] {
        assert_eq!(
            put_body(other, RESET, None).await.status,
            StatusCode::FORBIDDEN
        );
    }
    // The tablet app's read: technologists and program managers only.
    assert_eq!(
        anonymous.get(CONFIGURATION).await.status,
        StatusCode::UNAUTHORIZED
    );
    for other in [&mut desk, &mut jane, &mut admin] {
        other
            .get(CONFIGURATION)
            .await
            .expect_error(StatusCode::FORBIDDEN);
    }
    tech.get(CONFIGURATION).await.expect(StatusCode::OK);
    manager.get(CONFIGURATION).await.expect(StatusCode::OK);
    // PDF forms are not a settings group: their own calls (techpad_pdf_forms.rs).
    assert_eq!(
        admin.get("/api/techpadSettings/PdfForms").await.status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn the_groups_start_with_the_spec_defaults() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let general = admin.get_json(&path("General")).await["Settings"].clone();
    assert_eq!(general["DefaultWorklistTab"], 3);
    assert_eq!(general["BarcodeType"], 28);
    assert_eq!(
        general["AllowedStatusToBeChangedFromCompleted"],
        "ExamWaiting"
    );
    assert_eq!(general["WorklistPrioritizingAccuracy"], 1);
    let diagram =
        admin.get_json(&path("DiagramSettings")).await["Settings"]["DiagramSettings"].clone();
    let rows = diagram.as_array().unwrap();
    assert_eq!(rows.len(), 9);
    let off: Vec<&Value> = rows.iter().filter(|r| r["Enabled"] == false).collect();
    assert_eq!(off.len(), 1);
    assert_eq!(off[0]["Type"], "Star");
    assert_eq!(off[0]["Label"], "Pain/Lump");
    let sorting =
        admin.get_json(&path("WorklistSorting")).await["Settings"]["WorklistSorting"].clone();
    let kinds: Vec<&str> = sorting
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["Type"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["Status", "Priority", "ExamType"]);
    let tabs = admin.get_json(&path("DynamicLabelsExamTabsAliases")).await["Settings"]
        ["ExamTabsAliases"]
        .clone();
    assert_eq!(tabs.as_array().unwrap().len(), 8);
    let statuses =
        admin.get_json(&path("StatusAliases")).await["Settings"]["WorklistStatusesConfigs"].clone();
    assert_eq!(
        statuses[0],
        json!({"Status": "ExamWaiting", "Label": "Exam Waiting"})
    );
}

#[tokio::test]
async fn general_refuses_bad_values_with_field_messages_and_stores_nothing() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let doc = admin.get_json(&path("General")).await;
    let mut bad = doc["Settings"].clone();
    bad["WorklistPrioritizingAccuracy"] = json!(0);
    bad["HistoryLoadRetries"] = json!(-1);
    bad["SessionExpirationTimeout"] = json!(-5);
    bad["SessionWarnTimeout"] = json!(-1);
    bad["BarcodeType"] = json!(12);
    bad["DefaultWorklistTab"] = json!(2);
    bad["IsShowChatMenuItem"] = json!(true);
    bad["ChatServiceUrl"] = json!("");
    bad["AllowedStatusToBeChangedFromCompleted"] = json!("ExamStarted");
    let body = put(&mut admin, "General", &doc["Version"], &bad)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    let e = &body["Errors"];
    assert_eq!(
        e["WorklistPrioritizingAccuracy"],
        json!(["Must be between 1 and 1000"])
    );
    assert_eq!(
        e["HistoryLoadRetries"],
        json!(["Must be between 0 and 100"])
    );
    assert_eq!(
        e["SessionExpirationTimeout"],
        json!(["Must be between 0 and 1440"])
    );
    assert_eq!(
        e["SessionWarnTimeout"],
        json!(["Must be between 0 and 1440"])
    );
    assert_eq!(
        e["BarcodeType"],
        json!(["Choose one of: CODE128, CODE128A, CODE128B, CODE39, CODE39Extended"])
    );
    assert_eq!(
        e["DefaultWorklistTab"],
        json!(["Choose one of: Exam, Demographic, History, Diagram, Comments, Documents, FollowUps, Risk"])
    );
    assert_eq!(
        e["ChatServiceUrl"],
        json!(["Chat service url is required when the chat menu is on"])
    );
    assert_eq!(
        e["AllowedStatusToBeChangedFromCompleted"],
        json!(["Choose one of: ExamWaiting, ExamIncomplete"])
    );
    assert_eq!(
        admin.get_json(&path("General")).await,
        doc,
        "nothing stored"
    );
    // Wrong types are 400 too, never a server error.
    let mut typed = doc["Settings"].clone();
    typed["BarcodeType"] = json!("CODE39");
    typed["FamilyTree"] = json!("yes");
    let refused = put(&mut admin, "General", &doc["Version"], &typed).await;
    assert_eq!(
        refused.status,
        StatusCode::BAD_REQUEST,
        "{}",
        refused.text()
    );
    assert_eq!(
        put_body(&mut admin, &path("General"), Some(&json!([1, 2])))
            .await
            .status,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        admin.get_json(&path("General")).await,
        doc,
        "nothing stored"
    );
}

#[tokio::test]
async fn every_group_saves_at_its_version_with_a_techpad_log_row() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let changes: [(&str, Value); 13] = [
        (
            "General",
            json!({"BarcodeType": 11, "DefaultWorklistTab": 11, "WorklistPrioritizingAccuracy": 5, "IsLdapAuthenticationEnabled": true, "LdapDomain": "clinic.local"}),
        ),
        (
            "MaglinkEvents",
            json!({"IsInterfaceQueueEnabledForExamStart": true, "InterfaceQueuePathForExamStart": "\\\\mq\\start", "InterfaceQueueMessageTypeForExamStart": "ORM"}),
        ),
        (
            "ExamActions",
            json!({"CallMVApiActionWhenExamEnd": true, "MVApiActionWhenExamEnd": " A;;B ; A"}),
        ),
        (
            "CommentsSettings",
            json!({"CommentsSettings": [{"Id": null, "Title": "Tech notes", "Table": "studies", "Field": "Description", "IsReadonly": false}]}),
        ),
        (
            "DiagramSettings",
            json!({"DiagramSettings": [{"Type": "Mole", "Enabled": false, "Label": "Naevus", "DisabledCarryForward": true}]}),
        ),
        (
            "WorklistSorting",
            json!({"WorklistSorting": [{"Type": "Priority", "Enabled": true, "Values": ["Routine", "STAT"]}]}),
        ),
        (
            "DynamicLabelsPerformExamButtonAliases",
            json!({"DynamicLabels": [{"Label": "Start Mammo", "Value": "Mammo"}]}),
        ),
        (
            "DynamicLabelsExamTabsAliases",
            json!({"ExamTabsAliases": [{"Label": "Patient", "Value": "Demographic"}]}),
        ),
        (
            "StatusAliases",
            json!({"WorklistStatusesConfigs": [{"Status": "ExamWaiting", "Label": "Waiting"}]}),
        ),
        (
            "Tags",
            json!({"TagColor": "#ffffff", "TagBackgroundColorDarkMode": "#1f6feb", "Tags": [{"Label": "VIP", "Value": "vip"}]}),
        ),
        (
            "Resources",
            json!({"Resources": [{"Label": "Room 1", "IsSingleUsageOnly": true, "VisibleForStatusesConfig": [{"Status": "ExamWaiting", "IsAllowed": true}]}]}),
        ),
        (
            "ExamDynamicLabels",
            json!({"ExamDynamicLabels": [{"Label": "Begin", "Value": "StartExam"}]}),
        ),
        (
            "CannedNotes",
            json!({"CannedNotes": [{"Id": 1, "Name": "Normal", "Value": "No change.", "CommentId": 1}]}),
        ),
    ];
    for (category, change) in changes {
        let doc = admin.get_json(&path(category)).await;
        let mut settings = doc["Settings"].clone();
        for (k, v) in change.as_object().unwrap() {
            settings[k] = v.clone();
        }
        let saved = put(&mut admin, category, &doc["Version"], &settings)
            .await
            .expect(StatusCode::OK);
        assert_eq!(
            saved["Version"],
            doc["Version"].as_i64().unwrap() + 1,
            "{category}"
        );
        // A second save from the same version is stale: 409 with the current document.
        let stale = put(&mut admin, category, &doc["Version"], &settings)
            .await
            .expect_error(StatusCode::CONFLICT);
        assert_eq!(stale["Current"]["Version"], saved["Version"], "{category}");
        let audit = format!(
            "SELECT COUNT(*) FROM audit_log WHERE action = 'TechpadSettingsSaved' AND category = 'Techpad' AND target_id = 'Techpad{category}' AND old_values IS NOT NULL AND new_values IS NOT NULL"
        );
        assert_eq!(server.count_sql(&audit).await, 1, "{category}");
    }
    // The derived rules ran on the server: actions canonical, a new comment numbered, the
    // missing diagram icons and exam tabs filled in.
    let actions = admin.get_json(&path("ExamActions")).await;
    assert_eq!(actions["Settings"]["MVApiActionWhenExamEnd"], "A;B");
    let comments = admin.get_json(&path("CommentsSettings")).await;
    assert_eq!(comments["Settings"]["CommentsSettings"][0]["Id"], 1);
    let diagram = admin.get_json(&path("DiagramSettings")).await;
    assert_eq!(
        diagram["Settings"]["DiagramSettings"]
            .as_array()
            .unwrap()
            .len(),
        9
    );
    assert_eq!(diagram["Settings"]["DiagramSettings"][0]["Label"], "Naevus");
    let tabs = admin.get_json(&path("DynamicLabelsExamTabsAliases")).await;
    assert_eq!(
        tabs["Settings"]["ExamTabsAliases"]
            .as_array()
            .unwrap()
            .len(),
        8
    );
    let log = "SELECT COUNT(*) FROM audit_log WHERE category = 'Techpad' AND new_values LIKE '%clinic.local%' AND old_values LIKE '%\"LdapDomain\":\"\"%'";
    assert_eq!(
        server.count_sql(log).await,
        1,
        "old and new values are in the Techpad Log row"
    );
}

#[tokio::test]
async fn canned_notes_at_most_eight_per_category_and_name_and_value_required() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let doc = manager.get_json(&path("CannedNotes")).await;
    let nine: Vec<Value> = (1..=9)
        .map(|i| json!({"Id": i, "Name": format!("Note {i}"), "Value": "Text", "CommentId": 2}))
        .collect();
    let refused = put(
        &mut manager,
        "CannedNotes",
        &doc["Version"],
        &json!({"CannedNotes": nine}),
    )
    .await
    .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        refused["Errors"]["CannedNotes"],
        json!(["At most 8 notes can share a category"])
    );
    assert_eq!(
        refused["Errors"]["CannedNotes.8.CommentId"],
        json!(["At most 8 notes can share a category"])
    );
    let blank = json!({"CannedNotes": [{"Id": 1, "Name": "", "Value": " ", "CommentId": 2}]});
    let refused = put(&mut manager, "CannedNotes", &doc["Version"], &blank)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        refused["Errors"]["CannedNotes.0.Name"],
        json!(["Name is required"])
    );
    assert_eq!(
        refused["Errors"]["CannedNotes.0.Value"],
        json!(["Value is required"])
    );
    assert_eq!(
        manager.get_json(&path("CannedNotes")).await,
        doc,
        "nothing stored"
    );
    let none = "SELECT COUNT(*) FROM audit_log WHERE category = 'Techpad'";
    assert_eq!(server.count_sql(none).await, 0);
}

#[tokio::test]
async fn lookups_read_the_portals_real_tables() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let actions = admin
        .get_json("/api/techpadSettings/LoadTechpadActionsForExam")
        .await;
    let actions = actions.as_array().unwrap();
    assert!(actions.len() >= 5);
    assert!(actions
        .iter()
        .all(|a| a["ClassName"].is_string() && a["Description"].is_string()));
    assert!(actions
        .iter()
        .any(|a| a["ClassName"] == "MagView.Actions.MarkStudyCompleted"));

    let storage = admin
        .get_json("/api/techpadSettings/StorageColumnsLookup")
        .await;
    let tables: Vec<&str> = storage
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["tableName"].as_str().unwrap())
        .collect();
    assert_eq!(tables, ["patients", "studies", "appointments"]);
    let patients = &storage[0]["columns"];
    assert!(patients
        .as_array()
        .unwrap()
        .contains(&json!({"columnName": "first_name", "fieldName": "FirstName"})));
    assert!(patients
        .as_array()
        .unwrap()
        .contains(&json!({"columnName": "mrn", "fieldName": "Mrn"})));
    assert!(!patients
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["columnName"] == "id"));
    let studies = &storage[1]["columns"];
    assert!(studies
        .as_array()
        .unwrap()
        .contains(&json!({"columnName": "accession", "fieldName": "Accession"})));

    let found = admin
        .get_json("/api/techpadSettings/CheckForAvailableAlternateIdentifierColumns")
        .await;
    assert_eq!(
        found,
        json!({"EmployeeId": "", "Npi": "", "Ssn": "ssn", "Email": "email"})
    );
    // The configured field is looked for first.
    let doc = admin.get_json(&path("General")).await;
    let mut settings = doc["Settings"].clone();
    settings["UseAlternateUserIdentifier"] = json!(true);
    settings["AlternateUserIdentifierField"] = json!("UserName");
    put(&mut admin, "General", &doc["Version"], &settings)
        .await
        .expect(StatusCode::OK);
    let found = admin
        .get_json("/api/techpadSettings/CheckForAvailableAlternateIdentifierColumns")
        .await;
    assert_eq!(found["UserName"], "username");
    assert_eq!(found["Npi"], "");
}

#[tokio::test]
async fn reset_worklist_sorting_restores_the_defaults_with_a_techpad_log_row() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let defaults = admin.get_json(&path("WorklistSorting")).await;
    let changed =
        json!({"WorklistSorting": [{"Type": "Priority", "Enabled": false, "Values": ["Routine"]}]});
    let saved = put(
        &mut admin,
        "WorklistSorting",
        &defaults["Version"],
        &changed,
    )
    .await
    .expect(StatusCode::OK);
    let reset = put_body(&mut admin, RESET, None)
        .await
        .expect(StatusCode::OK);
    assert_eq!(reset["Settings"], defaults["Settings"]);
    assert_eq!(reset["Version"], saved["Version"].as_i64().unwrap() + 1);
    assert_eq!(
        admin.get_json(&path("WorklistSorting")).await["Settings"],
        defaults["Settings"]
    );
    let log = "SELECT COUNT(*) FROM audit_log WHERE action = 'TechpadWorklistSortingReset' AND category = 'Techpad' AND old_values LIKE '%Routine%'";
    assert_eq!(server.count_sql(log).await, 1);
    // Resetting the defaults again changes nothing: no new version, no row.
    let again = put_body(&mut admin, RESET, None)
        .await
        .expect(StatusCode::OK);
    assert_eq!(again["Version"], reset["Version"]);
    assert_eq!(server.count_sql(log).await, 1);
}

#[tokio::test]
async fn the_tablet_app_reads_every_group_with_defaults_filled() {
    let server = TestServer::demo().await;
    let mut tech = technologist(&server).await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let config = tech.get_json(CONFIGURATION).await;
    let keys: Vec<&String> = config.as_object().unwrap().keys().collect();
    // The thirteen groups and the PDF forms list (techpad_pdf_forms.rs).
    assert_eq!(keys.len(), 14, "{keys:?}");
    assert_eq!(config["PdfForms"], json!([]));
    for category in CATEGORIES {
        let group = admin.get_json(&path(category)).await;
        assert_eq!(config[category], group["Settings"], "{category}");
    }
    // A stored diagram list with fewer icons than nine reads with the missing defaults filled in.
    server
        .execute_sql(r#"UPDATE settings SET body = '{"DiagramSettings":[{"Type":"Scar","Enabled":false,"Label":"Old scar","DisabledCarryForward":true}]}' WHERE group_name = 'TechpadDiagramSettings'"#)
        .await;
    // (PostgreSQL's settings cache learns of a write by hand a moment later.)
    let mut config = tech.get_json(CONFIGURATION).await;
    for _ in 0..50 {
        if config["DiagramSettings"]["DiagramSettings"][0]["Label"] == "Old scar" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        config = tech.get_json(CONFIGURATION).await;
    }
    let diagram = config["DiagramSettings"]["DiagramSettings"]
        .as_array()
        .unwrap();
    assert_eq!(diagram.len(), 9);
    assert_eq!(diagram[0]["Label"], "Old scar");
    assert_eq!(
        diagram.iter().find(|r| r["Type"] == "Star").unwrap()["Enabled"],
        false
    );
    // The technologist's menu is Home only; the permissions name the role.
    let perms = tech.get_json("/api/accountApi/permissionsJson").await;
    assert_eq!(perms["IsTechnologist"], true);
    assert_eq!(perms["IsProgramManager"], false);
}
