//! User administration (spec 02 §2.10, §5, §6, §7.3): the paged users table, the Add/Edit calls
//! with the wasm-core messages, the admin password change, roles CRUD, impersonation with both
//! users in the audit log, and who may call what.

use api_tests::*;

fn table(role: &str) -> Value {
    json!({"PageIndex": 0, "PageSize": 10, "SortColumn": "Username", "SortDirection": "asc", "Search": "", "SelectedRole": role})
}

fn new_staff(username: &str) -> Value {
    json!({"Roles": ["FrontDesk"], "Email": format!("{username}@example.org"), "Username": username, "FirstName": "Sam", "LastName": "Rivera", "IsActive": true, "Password": "Welcome#2026"})
}

async fn delete(client: &mut Client, path: &str) -> Response {
    client
        .send(Method::DELETE, path, None, Csrf::Auto, &[])
        .await
}

#[tokio::test]
async fn the_table_filters_by_role_and_pages_on_the_server() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let page = admin
        .post_json("/api/user/datatable", &table("Patient"))
        .await
        .expect(StatusCode::OK);
    let rows = page["Data"].as_array().unwrap();
    assert!(rows.iter().all(|r| r["Role"] == json!("Patient")), "{page}");
    assert_eq!(rows[0]["Username"], json!("jane.doe"));
    assert_eq!(rows[0]["Ssn"], json!("100001"));
    // The demo clinic runs in demo mode: the Regular view (the default) leaves the demo accounts out.
    let patients = server
        .count_sql("SELECT COUNT(*) FROM users WHERE role = 'Patient' AND is_demo = FALSE")
        .await;
    let everyone = server
        .count_sql("SELECT COUNT(*) FROM users WHERE is_demo = FALSE")
        .await;
    assert!(
        patients >= 2 && everyone > patients,
        "{patients} {everyone}"
    );
    assert_eq!(page["FilteredCount"], json!(patients));

    // Default role filter is Patient; empty means every role.
    let default = admin
        .post_json(
            "/api/user/datatable",
            &json!({"PageIndex": 0, "PageSize": 10}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(default["FilteredCount"], json!(patients));
    let all = admin
        .post_json("/api/user/datatable", &table(""))
        .await
        .expect(StatusCode::OK);
    assert_eq!(all["FilteredCount"], json!(everyone));
    assert!(
        everyone <= 10,
        "the next check needs a single page: {everyone}"
    );
    let staff = admin.post_json("/api/user/datatable", &json!({"PageIndex": 1, "PageSize": 10, "SelectedRole": "", "Search": "example", "SortColumn": "Email"})).await.expect(StatusCode::OK);
    assert_eq!(
        staff["Data"],
        json!([]),
        "page 2 of {everyone} rows is empty"
    );
    let search = admin
        .post_json(
            "/api/user/datatable",
            &json!({"PageIndex": 0, "PageSize": 10, "SelectedRole": "", "Search": "garc"}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(search["Data"][0]["Username"], json!("maria.garcia"));
    admin
        .post_json(
            "/api/user/datatable",
            &json!({"SortColumn": "password_hash"}),
        )
        .await
        .expect_error(StatusCode::BAD_REQUEST);

    // Read-only for a client admin; nothing for front desk and patients.
    admin
        .post_json("/api/user/postUser", &new_staff("sam"))
        .await
        .expect_error(StatusCode::FORBIDDEN);
    for account in [FRONT_DESK, JANE] {
        let mut other = server.signed_in(account).await;
        other
            .post_json("/api/user/datatable", &table("Patient"))
            .await
            .expect_error(StatusCode::FORBIDDEN);
        other
            .get("/api/user/1")
            .await
            .expect_error(StatusCode::FORBIDDEN);
        other
            .get("/api/role")
            .await
            .expect_error(StatusCode::FORBIDDEN);
    }
}

#[tokio::test]
async fn creating_and_editing_users_uses_the_form_rules() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let body = manager
        .post_json("/api/user/postUser", &json!({"Roles": []}))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(body["Errors"]["Roles"], json!(["Role is required"]));
    assert_eq!(body["Errors"]["Email"], json!(["Email is required"]));
    assert_eq!(body["Errors"]["Username"], json!(["Username is required"]));
    assert_eq!(
        body["Errors"]["FirstName"],
        json!(["First Name is required"])
    );
    assert_eq!(body["Errors"]["Password"], json!(["Password is required"]));
    let body = manager.post_json("/api/user/postUser", &json!({"Roles": ["Patient"], "Email": "p@example.org", "Username": "pp", "Password": "Welcome#2026"})).await.expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(body["Errors"]["Ssn"], json!(["MRN is required"]));
    assert!(
        body["Errors"].get("FirstName").is_none(),
        "names are not required for a patient: {body}"
    );

    let check = manager
        .post_json("/api/user/validatePassword", &json!({"password": "weak"}))
        .await
        .expect(StatusCode::OK);
    assert_eq!(check["Success"], json!(false));
    let check = manager
        .post_json(
            "/api/user/validatePassword",
            &json!({"password": "Welcome#2026"}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(check["Success"], json!(true));

    let created = manager
        .post_json("/api/user/postUser", &new_staff("sam.rivera"))
        .await
        .expect(StatusCode::OK);
    let id = created["Id"].as_i64().unwrap();
    assert_eq!(created["Roles"], json!(["FrontDesk"]));
    let taken = manager
        .post_json("/api/user/postUser", &new_staff("SAM.RIVERA"))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        taken["Errors"]["Username"],
        json!(["This username is already taken"])
    );
    assert_eq!(
        server
            .client()
            .sign_in_staff("sam.rivera", "Welcome#2026")
            .await["IsValid"],
        json!(true)
    );

    // A patient account joins the patient with that MRN.
    let patient = json!({"Roles": ["Patient"], "Email": "p3@example.org", "Username": "patient.three", "Ssn": "100003", "IsActive": true, "Password": "Welcome#2026"});
    let created_patient = manager
        .post_json("/api/user/postUser", &patient)
        .await
        .expect(StatusCode::OK);
    assert_ne!(created_patient["FirstName"], json!(""));
    let mut unknown = patient.clone();
    unknown["Username"] = json!("patient.x");
    unknown["Ssn"] = json!("no-such-mrn");
    let body = manager
        .post_json("/api/user/postUser", &unknown)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(body["Errors"]["Ssn"], json!(["No patient has this MRN"]));

    let mut edit = manager.get_json(&format!("/api/user/{id}")).await;
    edit["LastName"] = json!("Rivera-Cruz");
    edit["IsActive"] = json!(false);
    let updated = manager
        .put_json(&format!("/api/user/{id}"), &edit)
        .await
        .expect(StatusCode::OK);
    assert_eq!(updated["LastName"], json!("Rivera-Cruz"));
    assert_eq!(
        server
            .client()
            .sign_in_staff("sam.rivera", "Welcome#2026")
            .await["IsValid"],
        json!(false),
        "inactive"
    );
    edit["FirstName"] = json!("");
    let body = manager
        .put_json(&format!("/api/user/{id}"), &edit)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        body["Errors"]["FirstName"],
        json!(["First Name is required"])
    );

    // A patient's role, MRN and names stay as they are.
    let jane_id = server
        .count_sql("SELECT id FROM users WHERE username = 'jane.doe'")
        .await;
    let mut jane = manager.get_json(&format!("/api/user/{jane_id}")).await;
    jane["Roles"] = json!(["ProgramManager"]);
    jane["Ssn"] = json!("999");
    jane["Comment"] = json!("called 3/2");
    let saved = manager
        .put_json(&format!("/api/user/{jane_id}"), &jane)
        .await
        .expect(StatusCode::OK);
    assert_eq!(saved["Roles"], json!(["Patient"]));
    assert_eq!(saved["Ssn"], json!("100001"));
    assert_eq!(saved["Comment"], json!("called 3/2"));

    // The admin password change.
    let change = json!({"UserId": created_patient["Id"], "NewPassword": "Other#2027", "NewPasswordRepeat": "Other#2028"});
    let body = manager
        .put_json("/api/user/changePassword", &change)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        body["Errors"]["NewPasswordRepeat"],
        json!(["Password and Repeat password do not match"])
    );
    let change = json!({"UserId": created_patient["Id"], "NewPassword": "Other#2027", "NewPasswordRepeat": "Other#2027"});
    manager
        .put_json("/api/user/changePassword", &change)
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        server
            .client()
            .sign_in_patient("patient.three", "Other#2027")
            .await["IsValid"],
        json!(true)
    );

    assert_eq!(
        server
            .count_sql(
                "SELECT COUNT(*) FROM audit_log WHERE action IN ('UserCreated', 'UserUpdated')"
            )
            .await,
        4
    );
    assert_eq!(server.count_sql("SELECT COUNT(*) FROM audit_log WHERE new_values LIKE '%Welcome#2026%' OR new_values LIKE '%Other#2027%'").await, 0);
}

#[tokio::test]
async fn roles_crud() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let roles = manager.get_json("/api/role").await;
    // The four roles of spec 02 and Technologist (issue 18).
    assert_eq!(roles.as_array().unwrap().len(), 5);
    let body = manager
        .post_json(
            "/api/role/postRole",
            &json!({"Name": " ", "Description": "x"}),
        )
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(body["Errors"]["Name"], json!(["Name is required"]));
    let created = manager
        .post_json("/api/role/postRole", &json!({"Name": "Auditor"}))
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        created,
        json!({"Name": "Auditor", "Description": "", "IsBuiltIn": false, "UserCount": 0})
    );
    let again = manager
        .post_json("/api/role/postRole", &json!({"Name": "Auditor"}))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        again["Errors"]["Name"],
        json!(["A role with this name exists"])
    );
    let renamed = manager
        .put_json(
            "/api/role/Auditor",
            &json!({"Name": "Reviewer", "Description": "Reads audit logs"}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(renamed["Name"], json!("Reviewer"));
    assert_eq!(
        manager.get_json("/api/role/Reviewer").await["Description"],
        json!("Reads audit logs")
    );
    manager
        .put_json("/api/role/Patient", &json!({"Name": "Client"}))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    delete(&mut manager, "/api/role/Patient")
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    delete(&mut manager, "/api/role/Reviewer")
        .await
        .expect(StatusCode::OK);
    manager
        .get("/api/role/Reviewer")
        .await
        .expect_error(StatusCode::NOT_FOUND);
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    admin
        .post_json("/api/role/postRole", &json!({"Name": "X"}))
        .await
        .expect_error(StatusCode::FORBIDDEN);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action LIKE 'Role%'")
            .await,
        3
    );
}

#[tokio::test]
async fn impersonation_records_both_users_and_can_be_cancelled() {
    let server = TestServer::demo().await;
    let manager_id = server
        .count_sql("SELECT id FROM users WHERE username = 'manager'")
        .await;
    let jane_id = server
        .count_sql("SELECT id FROM users WHERE username = 'jane.doe'")
        .await;
    let mut manager = server.signed_in(MANAGER).await;
    let before = manager.cookie("portal_session").unwrap();

    let yes = manager
        .get_json(&format!("/api/staffUser/CanImpersonate?id={jane_id}"))
        .await;
    assert_eq!(yes, json!({"CanImpersonate": true, "Message": ""}));
    let no = manager
        .get_json(&format!("/api/staffUser/CanImpersonate?id={manager_id}"))
        .await;
    assert_eq!(no["CanImpersonate"], json!(false));
    manager
        .post_json(&format!("/api/user/{manager_id}/impersonate"), &json!({}))
        .await
        .expect_error(StatusCode::FORBIDDEN);

    manager
        .post_json(&format!("/api/user/{jane_id}/impersonate"), &json!({}))
        .await
        .expect(StatusCode::OK);
    assert_ne!(
        manager.cookie("portal_session").unwrap(),
        before,
        "a new session id"
    );
    let perms = manager.get_json("/api/accountApi/permissionsJson").await;
    assert_eq!(perms["IsPatient"], json!(true));
    assert_eq!(perms["IsImpersonated"], json!(true));
    // While impersonating: no staff endpoints (the identity is the patient's), no own password change.
    manager
        .post_json("/api/user/datatable", &table("Patient"))
        .await
        .expect_error(StatusCode::FORBIDDEN);
    let change = json!({"OldPassword": DEMO_PASSWORD, "NewPassword": "Changed#2027", "NewPasswordRepeat": "Changed#2027"});
    manager
        .post_json("/api/accountApi/changemypassword", &change)
        .await
        .expect_error(StatusCode::FORBIDDEN);
    let started = format!("SELECT COUNT(*) FROM audit_log WHERE action = 'ImpersonationStarted' AND user_id = {jane_id} AND impersonator_user_id = {manager_id}");
    assert_eq!(server.count_sql(&started).await, 1);

    manager.get_json("/api/staffUser/cancelImpersonation").await;
    let perms = manager.get_json("/api/accountApi/permissionsJson").await;
    assert_eq!(perms["IsProgramManager"], json!(true));
    assert_eq!(perms["IsImpersonated"], json!(false));
    let ended = format!("SELECT COUNT(*) FROM audit_log WHERE action = 'ImpersonationEnded' AND user_id = {jane_id} AND impersonator_user_id = {manager_id}");
    assert_eq!(server.count_sql(&ended).await, 1);
    manager
        .get("/api/staffUser/cancelImpersonation")
        .await
        .expect_error(StatusCode::BAD_REQUEST);

    // Switched off in the settings: refused.
    server.execute_sql("UPDATE settings SET body = '{\"IsImpersonationEnabled\": false}' WHERE group_name = 'UserManagement'").await;
    let no = manager
        .get_json(&format!("/api/staffUser/CanImpersonate?id={jane_id}"))
        .await;
    assert_eq!(
        no,
        json!({"CanImpersonate": false, "Message": "Impersonation is not enabled."})
    );
}
