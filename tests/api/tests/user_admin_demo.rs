//! User administration, issue 3 part 10/11 gaps (spec 02 §2.10, §4 "Demo reset", §6, §7.3): the
//! Regular/Demo view mode, the demo reset (what it resets, and who/when it is refused), the
//! admin PIN and location restriction of Program managers, and the options the page reads.

use api_tests::*;

const RESET: &str = "/api/historyPortal/demoResetUser";

fn table(role: &str, view_mode: &str) -> Value {
    json!({"PageIndex": 0, "PageSize": 10, "SortColumn": "Username", "SortDirection": "asc", "Search": "", "SelectedRole": role, "ViewMode": view_mode})
}

fn usernames(page: &Value) -> Vec<String> {
    page["Data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["Username"].as_str().unwrap().to_owned())
        .collect()
}

async fn set_user_management(server: &TestServer, key: &str, value: &str) {
    let sql = format!(
        "UPDATE settings SET body = replace(replace(body, '\"{key}\":true', '\"{key}\":{value}'), '\"{key}\":false', '\"{key}\":{value}') WHERE group_name = 'UserManagement'"
    );
    server.execute_sql(&sql).await;
}

#[tokio::test]
async fn the_view_mode_splits_demo_accounts_when_demo_mode_is_on() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let options = admin.get_json("/api/user/configuration").await;
    assert_eq!(options["EnableDemoMode"], json!(true), "{options}");
    assert_eq!(options["UserManagementViewMode"], json!("Regular"));
    assert_eq!(options["AdminPinLength"], json!(4));
    assert!(
        options["Locations"]
            .as_array()
            .unwrap()
            .contains(&json!("101")),
        "{options}"
    );

    let regular = admin
        .post_json("/api/user/datatable", &table("Patient", "Regular"))
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        usernames(&regular),
        ["jane.doe", "lena.park", "maria.garcia", "sara.lopez"]
    );
    let demo = admin
        .post_json("/api/user/datatable", &table("Patient", "Demo"))
        .await
        .expect(StatusCode::OK);
    assert_eq!(usernames(&demo), ["demo.patient"]);
    assert_eq!(demo["TotalCount"], json!(1));

    // Demo mode off: one list with every account, whatever the view mode.
    set_user_management(&server, "EnableDemoMode", "false").await;
    let all = admin
        .post_json("/api/user/datatable", &table("Patient", "Demo"))
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        usernames(&all),
        [
            "demo.patient",
            "jane.doe",
            "lena.park",
            "maria.garcia",
            "sara.lopez"
        ]
    );
    server
        .client()
        .get("/api/user/configuration")
        .await
        .expect_error(StatusCode::UNAUTHORIZED);
    server
        .signed_in(JANE)
        .await
        .get("/api/user/configuration")
        .await
        .expect_error(StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_demo_reset_really_resets_a_demo_patient() {
    let server = TestServer::demo().await;
    let demo_id = server
        .count_sql("SELECT id FROM users WHERE username = 'demo.patient'")
        .await;
    let patient = server
        .count_sql("SELECT patient_id FROM users WHERE username = 'demo.patient'")
        .await;
    let completed = format!(
        "SELECT COUNT(*) FROM survey_queue WHERE patient_id = {patient} AND status = 'Completed'"
    );
    let read = format!("SELECT COUNT(*) FROM letters WHERE patient_id = {patient} AND read_at IS NOT NULL AND acked_at IS NOT NULL");
    let arrived = format!("SELECT COUNT(*) FROM appointments WHERE patient_id = {patient} AND arrival_status = 'PatientArrived'");
    let logs = format!("SELECT COUNT(*) FROM survey_logs WHERE survey_queue_id IN (SELECT id FROM survey_queue WHERE patient_id = {patient})");
    assert_eq!(
        (
            server.count_sql(&completed).await,
            server.count_sql(&read).await,
            server.count_sql(&arrived).await,
            server.count_sql(&logs).await
        ),
        (1, 1, 1, 1)
    );
    // The demo patient signs in and has locked themself out meanwhile.
    server
        .execute_sql(&format!(
            "UPDATE users SET failed_login_count = 3 WHERE id = {demo_id}"
        ))
        .await;

    let mut manager = server.signed_in(MANAGER).await;
    let body = json!({"userId": demo_id, "clientDateTimeOffsetNow": "2026-11-22T18:20:00-05:00"});
    let done = manager.post_json(RESET, &body).await.expect(StatusCode::OK);
    assert_eq!(
        done,
        json!({"IsSuccess": true, "Surveys": 1, "Letters": 1, "Arrivals": 1})
    );
    assert_eq!(server.count_sql(&completed).await, 0);
    assert_eq!(server.count_sql(&format!("SELECT COUNT(*) FROM survey_queue WHERE patient_id = {patient} AND status = 'Assigned' AND completed_at IS NULL AND started_at IS NULL")).await, 1);
    assert_eq!(server.count_sql(&logs).await, 0, "the answers are gone");
    assert_eq!(server.count_sql(&format!("SELECT COUNT(*) FROM letters WHERE patient_id = {patient} AND read_at IS NULL AND acked_at IS NULL")).await, 1);
    assert_eq!(server.count_sql(&arrived).await, 0);
    assert_eq!(
        server
            .count_sql(&format!(
                "SELECT failed_login_count FROM users WHERE id = {demo_id}"
            ))
            .await,
        0
    );
    assert_eq!(server.count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'DemoUserReset' AND new_values LIKE '%18:20:00-05:00%'").await, 1);

    // The patient area shows it as new again.
    let mut demo = server.client();
    let login = demo.sign_in_patient("demo.patient", DEMO_PASSWORD).await;
    assert_eq!(login["IsValid"], json!(true), "{login}");
    // Jane's data is untouched by it.
    let jane_completed = "SELECT COUNT(*) FROM survey_queue q JOIN users u ON u.patient_id = q.patient_id WHERE u.username = 'jane.doe' AND q.status <> 'Assigned'";
    assert!(server.count_sql(jane_completed).await > 0);
}

#[tokio::test]
async fn a_demo_reset_is_refused_outside_demo_mode_for_real_accounts_and_for_non_managers() {
    let server = TestServer::demo().await;
    let demo_id = server
        .count_sql("SELECT id FROM users WHERE username = 'demo.patient'")
        .await;
    let jane_id = server
        .count_sql("SELECT id FROM users WHERE username = 'jane.doe'")
        .await;
    let jane_done = "SELECT COUNT(*) FROM survey_queue q JOIN users u ON u.patient_id = q.patient_id WHERE u.username = 'jane.doe' AND q.status <> 'Assigned'";
    let before = server.count_sql(jane_done).await;

    let mut manager = server.signed_in(MANAGER).await;
    let body = manager
        .post_json(
            RESET,
            &json!({"userId": jane_id, "clientDateTimeOffsetNow": "2026-11-22T18:20:00Z"}),
        )
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        body["Message"],
        json!("Only demo accounts can be reset for demo")
    );
    assert_eq!(server.count_sql(jane_done).await, before);
    manager
        .post_json(RESET, &json!({"userId": 999_999}))
        .await
        .expect_error(StatusCode::NOT_FOUND);
    manager
        .post_json(RESET, &json!({"clientDateTimeOffsetNow": "x"}))
        .await
        .expect_error(StatusCode::BAD_REQUEST);

    for account in [CLIENT_ADMIN, FRONT_DESK, JANE] {
        server
            .signed_in(account)
            .await
            .post_json(RESET, &json!({"userId": demo_id}))
            .await
            .expect_error(StatusCode::FORBIDDEN);
    }
    server
        .client()
        .post_json(RESET, &json!({"userId": demo_id}))
        .await
        .expect_error(StatusCode::UNAUTHORIZED);

    set_user_management(&server, "EnableDemoMode", "false").await;
    let body = manager
        .post_json(RESET, &json!({"userId": demo_id}))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(body["Message"], json!("Demo mode is not enabled"));
    let patient = server
        .count_sql("SELECT patient_id FROM users WHERE username = 'demo.patient'")
        .await;
    assert_eq!(server.count_sql(&format!("SELECT COUNT(*) FROM survey_queue WHERE patient_id = {patient} AND status = 'Completed'")).await, 1);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'DemoUserReset'")
            .await,
        0
    );
}

#[tokio::test]
async fn a_program_managers_admin_pin_and_locations_are_checked_when_the_restriction_is_on() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let new_pm = |pin: &str, locs: &str| {
        json!({"Roles": ["ProgramManager"], "Email": "pm2@example.org", "Username": "pm2", "FirstName": "Pia", "LastName": "Moss",
        "IsActive": true, "Password": "Welcome#2026", "SurveyPin": pin, "LocNums": locs})
    };

    // Off (the default): not checked.
    manager
        .post_json("/api/user/postUser", &new_pm("x", "nowhere"))
        .await
        .expect(StatusCode::OK);
    server
        .execute_sql("DELETE FROM users WHERE username = 'pm2'")
        .await;

    set_user_management(&server, "IsAdminPinAndLocationsRestrictionsEnabled", "true").await;
    let body = manager
        .post_json("/api/user/postUser", &new_pm("12a", "101,999"))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        body["Errors"]["SurveyPin"],
        json!(["Admin PIN must be 4 digits"]),
        "{body}"
    );
    assert_eq!(body["Errors"]["LocNums"], json!(["Unknown location: 999"]));
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM users WHERE username = 'pm2'")
            .await,
        0
    );

    let created = manager
        .post_json("/api/user/postUser", &new_pm("2468", " 102, 101,102"))
        .await
        .expect(StatusCode::OK);
    assert_eq!(created["SurveyPin"], json!("2468"));
    assert_eq!(created["LocNums"], json!("102,101"));
    let id = created["Id"].as_i64().unwrap();

    // Edit: the same rule; the AdminPinLength setting decides the length.
    let mut form = manager.get_json(&format!("/api/user/{id}")).await;
    form["SurveyPin"] = json!("123456");
    let body = manager
        .put_json(&format!("/api/user/{id}"), &form)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        body["Errors"]["SurveyPin"],
        json!(["Admin PIN must be 4 digits"])
    );
    server
        .execute_sql(
            "UPDATE settings SET body = '{\"AdminPinLength\":6}' WHERE group_name = 'CoreSurvey'",
        )
        .await;
    server.execute_sql("INSERT INTO settings (group_name, version, body, updated_at) SELECT 'CoreSurvey', 1, '{\"AdminPinLength\":6}', 0 WHERE NOT EXISTS (SELECT 1 FROM settings WHERE group_name = 'CoreSurvey')").await;
    form["LocNums"] = json!("103");
    let saved = manager
        .put_json(&format!("/api/user/{id}"), &form)
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        (saved["SurveyPin"].clone(), saved["LocNums"].clone()),
        (json!("123456"), json!("103"))
    );
    assert_eq!(
        manager.get_json("/api/user/configuration").await["AdminPinLength"],
        json!(6)
    );

    // Other roles are not restricted by it.
    let staff = json!({"Roles": ["FrontDesk"], "Email": "fd2@example.org", "Username": "fd2", "FirstName": "F", "LastName": "D", "IsActive": true, "Password": "Welcome#2026", "SurveyPin": "x"});
    manager
        .post_json("/api/user/postUser", &staff)
        .await
        .expect(StatusCode::OK);
}
