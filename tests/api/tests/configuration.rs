//! The setup wizard's API (spec 02 §2.11, §4, §5, §7.5): who may call it, the wasm-core rules
//! with their exact messages, secrets encrypted at rest and never answered, and connection tests
//! that really connect (the local PostgreSQL at 127.0.0.1:5432, this test server's own address).

use api_tests::*;

const SECRET: &str = "pw-Secret-4711";

/// A configuration that passes validateSetup: LuminaryOne mode, the local PostgreSQL as the
/// portal database (its `postgres` database exists), a SQL login with a password.
fn valid_config() -> Value {
    json!({
        "ClientName": "Northside Breast Imaging",
        "PublicWebAddress": "portal.example.org",
        "MagViewMode": "LuminaryOne",
        "LuminaryOneUrl": "http://127.0.0.1:9/l1",
        "DataConnectionType": "FOXPRO",
        "IsDMZMode": true,
        "PortalSqlServerName": "127.0.0.1:5432",
        "PortalSqlDbName": "postgres",
        "PortalIntegratedSecurity": false,
        "PortalSqlUserName": "postgres",
        "PortalSqlUserPwd": SECRET,
        "SERVICE_ACCOUNT_USERNAME": "CORP\\svc-portal",
        "SERVICE_ACCOUNT_PASSWORD": "svc-pass",
        "SERVICE_ACCOUNT_PASSWORD_Confirm": "svc-pass",
        "NOTIFICATION_EmailFrom": "portal@example.org",
        "NOTIFICATION_Port": 2525,
        "SurveyPerLocation": [{"Key": "1", "Value": "Breast history"}]
    })
}

const FIRST_PASSWORD: &str = "First!Manager9";

/// The first save of a fresh portal also creates its first Program manager.
fn with_first_manager(mut cfg: Value, username: &str) -> Value {
    cfg["FirstManager"] = json!({
        "Username": username, "Email": format!("{username}@example.org"), "FirstName": "Fran", "LastName": "First",
        "Password": FIRST_PASSWORD, "PasswordRepeat": FIRST_PASSWORD
    });
    cfg
}

fn portal_db_test(server: &str, db: &str) -> Value {
    json!({"DataConnectionType": "SQL", "SqlServerName": server, "SqlDbName": db, "SqlUserName": "postgres", "SqlUserPwd": "", "IntegratedSecurity": false})
}

#[tokio::test]
async fn an_unconfigured_portal_is_configured_by_anyone_once() {
    let server = TestServer::fresh().await;
    let mut client = server.client();
    let loaded = client
        .get_json("/api/configuration/loadConfiguration")
        .await;
    assert!(loaded["ClientName"].is_string(), "{loaded}");
    assert_eq!(loaded["PortalSqlUserPwd"], json!(""));
    assert_eq!(loaded["StoredSecrets"], json!([]));

    let saved = client
        .post_json(
            "/api/configuration/saveConfiguration",
            &with_first_manager(valid_config(), "first.pm"),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(saved["success"], json!(true), "{saved}");
    assert_eq!(saved["LaunchUrl"], json!("http://portal.example.org"));
    assert_eq!(
        client.get_json("/api/TestInit/isPortalConfigured").await,
        json!({"IsPortalConfigured": true})
    );

    // Configured now: the wizard's calls need a ProgramManager.
    client
        .get("/api/configuration/loadConfiguration")
        .await
        .expect_error(StatusCode::UNAUTHORIZED);
    client
        .post_json("/api/configuration/saveConfiguration", &valid_config())
        .await
        .expect_error(StatusCode::UNAUTHORIZED);
    client
        .post_json("/api/configuration/testFolder", &json!({"Path": "/"}))
        .await
        .expect_error(StatusCode::UNAUTHORIZED);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'ConfigurationSaved'")
            .await,
        1
    );
}

#[tokio::test]
async fn saving_validates_with_the_wasm_core_messages() {
    let server = TestServer::fresh().await;
    let mut client = server.client();
    let mut cfg = valid_config();
    cfg["ClientName"] = json!("  ");
    cfg["SERVICE_ACCOUNT_PASSWORD_Confirm"] = json!("other");
    cfg["SURVEY_SELECT_PATIENT_MODE"] = json!(true);
    cfg["MagViewMode"] = json!("MagViewDesktop");
    cfg["DataConnectionType"] = json!("SQL");
    let body = client
        .post_json("/api/configuration/saveConfiguration", &cfg)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    let errors = &body["Errors"];
    assert_eq!(
        errors["ClientName"],
        json!(["Client Name field is required"]),
        "{body}"
    );
    assert_eq!(
        errors["SERVICE_ACCOUNT_PASSWORD_Confirm"],
        json!(["Passwords are not matching"])
    );
    assert_eq!(
        errors["Survey"],
        json!(["Not all necessary fields were filled with data"])
    );
    assert_eq!(errors["MagViewPath"], json!(["MagView path is required"]));
    assert_eq!(
        errors["MagViewSqlServerName"],
        json!(["Server name is required"])
    );
    assert_eq!(
        errors["MagViewSqlUserName"],
        json!(["SQL login is required"])
    );
    assert_eq!(
        errors["MagViewSqlUserPwd"],
        json!(["SQL password is required"])
    );

    let mut cfg = valid_config();
    cfg["LuminaryOneUrl"] = json!("");
    cfg["SurveyPerLocation"] = json!([{"Key": "1", "Value": ""}]);
    let body = client
        .post_json("/api/configuration/saveConfiguration", &cfg)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        body["Errors"]["LuminaryOneUrl"],
        json!(["LuminaryOne URL is required"])
    );
    assert_eq!(
        body["Errors"]["Survey"],
        json!(["Not all necessary fields were filled with data"])
    );
    assert_eq!(
        client.get_json("/api/TestInit/isPortalConfigured").await,
        json!({"IsPortalConfigured": false})
    );
}

#[tokio::test]
async fn a_settings_group_message_is_answered_under_the_wizards_field() {
    // The engine checks each settings group the wizard writes (CoreNotifications: Port at most
    // 65535); its message names the wizard's field, and nothing is stored.
    let server = TestServer::fresh().await;
    let mut client = server.client();
    let mut cfg = with_first_manager(valid_config(), "port.pm");
    cfg["NOTIFICATION_Port"] = json!(70000);
    cfg["EMAIL_SERVICE_Timeout"] = json!(99999);
    let body = client
        .post_json("/api/configuration/saveConfiguration", &cfg)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        body["Errors"],
        json!({"NOTIFICATION_Port": ["Must be at most 65535"]}),
        "{body}"
    );
    assert_eq!(
        client.get_json("/api/TestInit/isPortalConfigured").await,
        json!({"IsPortalConfigured": false})
    );
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM users WHERE username = 'port.pm'")
            .await,
        0
    );
    cfg["NOTIFICATION_Port"] = json!(2525);
    let body = client
        .post_json("/api/configuration/saveConfiguration", &cfg)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        body["Errors"],
        json!({"EMAIL_SERVICE_Timeout": ["Must be at most 3600"]}),
        "{body}"
    );
}

#[tokio::test]
async fn secrets_are_encrypted_kept_and_never_answered() {
    let server = TestServer::demo().await;
    // The demo portal is configured: only a ProgramManager may use the wizard.
    server
        .client()
        .get("/api/configuration/loadConfiguration")
        .await
        .expect_error(StatusCode::UNAUTHORIZED);
    for account in [CLIENT_ADMIN, FRONT_DESK, JANE] {
        let mut other = server.signed_in(account).await;
        other
            .get("/api/configuration/loadConfiguration")
            .await
            .expect_error(StatusCode::FORBIDDEN);
        other
            .post_json("/api/configuration/saveConfiguration", &valid_config())
            .await
            .expect_error(StatusCode::FORBIDDEN);
        other
            .post_json(
                "/api/configuration/testPortalDbConnection",
                &portal_db_test("127.0.0.1:5432", "postgres"),
            )
            .await
            .expect_error(StatusCode::FORBIDDEN);
    }
    let mut manager = server.signed_in(MANAGER).await;
    manager
        .post_json("/api/configuration/saveConfiguration", &valid_config())
        .await
        .expect(StatusCode::OK);

    let loaded = manager
        .get_json("/api/configuration/loadConfiguration")
        .await;
    let text = loaded.to_string();
    assert!(
        !text.contains(SECRET) && !text.contains("svc-pass") && !text.contains("enc:v1:"),
        "{text}"
    );
    assert_eq!(loaded["PortalSqlUserPwd"], json!(""));
    let held: Vec<String> = serde_json::from_value(loaded["StoredSecrets"].clone()).unwrap();
    assert!(
        held.contains(&"PortalSqlUserPwd".to_owned())
            && held.contains(&"SERVICE_ACCOUNT_PASSWORD".to_owned()),
        "{held:?}"
    );
    // Normalised on save (spec 02 §4, §5).
    assert_eq!(loaded["SERVICE_ACCOUNT_USERNAME"], json!("\\svc-portal"));
    assert_eq!(
        loaded["PublicWebAddress"],
        json!("http://portal.example.org")
    );
    assert_eq!(loaded["IsDMZMode"], json!(false), "FoxPro forces DMZ off");
    assert_eq!(loaded["NOTIFICATION_Port"], json!(2525));
    assert_eq!(
        loaded["SurveyPerLocation"],
        json!([{"Key": "1", "Value": "Breast history"}])
    );

    // At rest: encrypted, never in clear; the notification group holds its own keys.
    let secret_rows = "SELECT COUNT(*) FROM settings WHERE body LIKE '%pw-Secret-4711%' OR body LIKE '%svc-pass%'";
    assert_eq!(server.count_sql(secret_rows).await, 0);
    assert_eq!(server.count_sql("SELECT COUNT(*) FROM settings WHERE group_name = 'CorePortal' AND body LIKE '%enc:v1:%'").await, 1);
    assert_eq!(server.count_sql("SELECT COUNT(*) FROM settings WHERE group_name = 'CoreNotifications' AND body LIKE '%\"Port\":2525%'").await, 1);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE new_values LIKE '%pw-Secret%'")
            .await,
        0
    );

    // Saved again with the secret left empty: the stored one is kept and still works.
    let mut again = loaded.clone();
    again["ClientName"] = json!("Renamed Clinic");
    let saved = manager
        .post_json("/api/configuration/saveConfiguration", &again)
        .await
        .expect(StatusCode::OK);
    assert_eq!(saved["success"], json!(true));
    let reloaded = manager
        .get_json("/api/configuration/loadConfiguration")
        .await;
    assert_eq!(reloaded["ClientName"], json!("Renamed Clinic"));
    assert_eq!(reloaded["StoredSecrets"], loaded["StoredSecrets"]);
    // The connection test falls back to the stored (decrypted) password.
    let result = manager
        .post_json(
            "/api/configuration/testPortalDbConnection",
            &portal_db_test("127.0.0.1:5432", "postgres"),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(result["success"], json!(true), "{result}");
    assert!(
        !server.stderr().contains(SECRET),
        "the secret reached the log"
    );
}

#[tokio::test]
async fn database_tests_really_connect() {
    let server = TestServer::fresh().await;
    let mut client = server.client();
    let ok = client
        .post_json(
            "/api/configuration/testPortalDbConnection",
            &portal_db_test("127.0.0.1:5432", "postgres"),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        ok,
        json!({"success": true, "error": null, "isDataBaseExist": true, "message": "Connection successfully established"})
    );

    let missing = client
        .post_json(
            "/api/configuration/testPortalDbConnection",
            &portal_db_test("127.0.0.1", "portal_no_such_db_xyz"),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(missing["success"], json!(true), "{missing}");
    assert_eq!(missing["isDataBaseExist"], json!(false));
    assert!(
        missing["message"]
            .as_str()
            .unwrap()
            .contains("will be created"),
        "{missing}"
    );

    // Nothing listens on port 1: the server's error is passed on.
    let failed = client
        .post_json(
            "/api/configuration/testPortalDbConnection",
            &portal_db_test("127.0.0.1:1", "postgres"),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(failed["success"], json!(false));
    assert_eq!(failed["message"], json!("Test Connection Failed"));
    assert!(
        !failed["error"].as_str().unwrap_or("").is_empty(),
        "{failed}"
    );

    // A role PostgreSQL does not know: the server's own error text comes back.
    let mut bad_user = portal_db_test("127.0.0.1:5432", "postgres");
    bad_user["SqlUserName"] = json!("no_such_role_xyz");
    let failed = client
        .post_json("/api/configuration/testPortalDbConnection", &bad_user)
        .await
        .expect(StatusCode::OK);
    assert_eq!(failed["success"], json!(false));
    assert!(
        failed["error"]
            .as_str()
            .unwrap()
            .contains("no_such_role_xyz"),
        "{failed}"
    );

    // The clinical database must exist: missing is a failure there.
    let magview = client
        .post_json(
            "/api/configuration/testMagViewDbConnection",
            &portal_db_test("127.0.0.1:5432", "portal_no_such_db_xyz"),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(magview["success"], json!(false));
    assert!(
        magview["error"]
            .as_str()
            .unwrap()
            .contains("does not exist"),
        "{magview}"
    );
}

#[tokio::test]
async fn saving_creates_a_missing_portal_database() {
    let server = TestServer::fresh().await;
    let mut client = server.client();
    // Named like the harness's own databases, so a crashed run is swept up later.
    let name = format!(
        "portal_test_{}_wizard_{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    );
    let mut cfg = with_first_manager(valid_config(), "first.pm");
    cfg["PortalSqlDbName"] = json!(name);
    let saved = client
        .post_json("/api/configuration/saveConfiguration", &cfg)
        .await
        .expect(StatusCode::OK);
    assert_eq!(saved["PortalDatabaseCreated"], json!(true), "{saved}");

    let admin = "postgres://postgres@127.0.0.1:5432/postgres";
    use sqlx::Connection;
    let mut conn = sqlx::PgConnection::connect(admin)
        .await
        .expect("local PostgreSQL");
    let exists: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM pg_database WHERE datname = $1")
        .bind(&name)
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(exists, 1);
    sqlx::query(&format!("DROP DATABASE \"{name}\""))
        .execute(&mut conn)
        .await
        .unwrap();
}

#[tokio::test]
async fn folder_and_web_address_tests_are_real() {
    let server = TestServer::fresh().await;
    let mut client = server.client();
    let dir = std::env::temp_dir();
    let ok = client
        .post_json(
            "/api/configuration/testFolder",
            &json!({"Path": dir.display().to_string()}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(ok["success"], json!(true), "{ok}");
    let missing = client
        .post_json(
            "/api/configuration/testFolder",
            &json!({"Path": "/no/such/folder/xyz"}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(missing["success"], json!(false));
    assert_eq!(missing["message"], json!("Test Connection Failed"));

    // This test server answers on its own address (the trailing slash is added).
    let ok = client
        .post_json(
            "/api/configuration/testWebAddress",
            &json!({"Url": server.base_url()}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(ok["success"], json!(true), "{ok}");
    let refused = client
        .post_json(
            "/api/configuration/testWebAddress",
            &json!({"Url": "http://127.0.0.1:9"}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(refused["success"], json!(false));
    assert_eq!(refused["message"], json!("Test Connection Failed"));
    let not_http = client
        .post_json(
            "/api/configuration/testWebAddress",
            &json!({"Url": "file:///etc/passwd"}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(not_http["success"], json!(false));
}

#[tokio::test]
async fn the_first_save_creates_the_first_program_manager_in_the_same_transaction() {
    let server = TestServer::fresh().await;
    let mut client = server.client();
    let save = "/api/configuration/saveConfiguration";
    let configured = "/api/TestInit/isPortalConfigured";

    // Without a first account a fresh portal is not saved: nobody could sign in to it.
    let body = client
        .post_json(save, &valid_config())
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        body["Errors"]["FirstManager"],
        json!(["The first Program manager account is required"]),
        "{body}"
    );
    assert_eq!(
        client.get_json(configured).await,
        json!({"IsPortalConfigured": false})
    );

    // The wasm-core user and password rules, under FirstManager.<field>; nothing is written.
    let mut cfg = with_first_manager(valid_config(), "first.pm");
    cfg["FirstManager"]["Email"] = json!("");
    cfg["FirstManager"]["LastName"] = json!(" ");
    cfg["FirstManager"]["Password"] = json!("short");
    cfg["FirstManager"]["PasswordRepeat"] = json!("shorts");
    let body = client
        .post_json(save, &cfg)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    let errors = &body["Errors"];
    assert_eq!(
        errors["FirstManager.Email"],
        json!(["Email is required"]),
        "{body}"
    );
    assert_eq!(
        errors["FirstManager.LastName"],
        json!(["Last Name is required"])
    );
    assert_eq!(
        errors["FirstManager.PasswordRepeat"],
        json!(["Password and Repeat password do not match"])
    );
    let pw: Vec<String> = serde_json::from_value(errors["FirstManager.Password"].clone()).unwrap();
    assert!(
        pw.iter()
            .any(|m| m == "Password must be at least 8 characters long"),
        "{pw:?}"
    );
    assert_eq!(
        client.get_json(configured).await,
        json!({"IsPortalConfigured": false})
    );
    assert_eq!(server.count_sql("SELECT COUNT(*) FROM users").await, 0);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM settings WHERE body LIKE '%Northside%'")
            .await,
        0
    );

    // A valid first save: configuration and account together.
    let saved = client
        .post_json(save, &with_first_manager(valid_config(), "first.pm"))
        .await
        .expect(StatusCode::OK);
    assert_eq!(saved["FirstManagerCreated"], json!(true), "{saved}");
    assert_eq!(
        client.get_json(configured).await,
        json!({"IsPortalConfigured": true})
    );
    assert_eq!(server.count_sql("SELECT COUNT(*) FROM users WHERE username = 'first.pm' AND role = 'ProgramManager' AND is_active = TRUE").await, 1);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM users WHERE password_hash LIKE '%First!Manager9%'")
            .await,
        0
    );
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'UserCreated'")
            .await,
        1
    );

    // The new account signs in at the staff door and may use the wizard now.
    let mut manager = server.client();
    let login = manager.sign_in_staff("first.pm", FIRST_PASSWORD).await;
    assert_eq!(login["IsValid"], json!(true), "{login}");
    let loaded = manager
        .get_json("/api/configuration/loadConfiguration")
        .await;
    assert_eq!(loaded["ClientName"], json!("Northside Breast Imaging"));

    // Never twice: anonymous callers are refused, and so is a second first account.
    client
        .post_json(save, &with_first_manager(valid_config(), "second.pm"))
        .await
        .expect_error(StatusCode::UNAUTHORIZED);
    let body = manager
        .post_json(save, &with_first_manager(valid_config(), "second.pm"))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        body["Errors"]["FirstManager"],
        json!(["A Program manager account already exists: add users in User Management"])
    );
    // Without it the manager saves as before.
    manager
        .post_json(save, &valid_config())
        .await
        .expect(StatusCode::OK);
    assert_eq!(server.count_sql("SELECT COUNT(*) FROM users").await, 1);
    assert!(
        !server.stderr().contains(FIRST_PASSWORD),
        "the password reached the log"
    );
}

#[tokio::test]
async fn two_first_saves_at_once_create_one_account() {
    let server = TestServer::fresh().await;
    let (mut a, mut b) = (server.client(), server.client());
    // Both fetch their CSRF cookie first, so the two saves really overlap.
    a.get("/api/TestInit/isPortalConfigured").await;
    b.get("/api/TestInit/isPortalConfigured").await;
    let (cfg_a, cfg_b) = (
        with_first_manager(valid_config(), "pm.a"),
        with_first_manager(valid_config(), "pm.b"),
    );
    let (ra, rb) = tokio::join!(
        a.post_json("/api/configuration/saveConfiguration", &cfg_a),
        b.post_json("/api/configuration/saveConfiguration", &cfg_b),
    );
    let oks = [ra.status, rb.status]
        .iter()
        .filter(|s| **s == StatusCode::OK)
        .count();
    assert_eq!(oks, 1, "{} / {}", ra.text(), rb.text());
    assert_eq!(server.count_sql("SELECT COUNT(*) FROM users").await, 1);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'ConfigurationSaved'")
            .await,
        1
    );
}

#[tokio::test]
async fn radview_path_detection_reads_the_settings_file_beside_the_magview_database() {
    let server = TestServer::fresh().await;
    let mut client = server.client();
    let dir = tempfile::tempdir().unwrap();
    let magview = dir.path().join("MagView");
    let radview = dir.path().join("RadView Data");
    std::fs::create_dir_all(&magview).unwrap();
    std::fs::create_dir_all(&radview).unwrap();
    let detect = "/api/configuration/detectRadViewPath";
    let body = json!({"DbPath": magview.display().to_string()});

    let missing = client.post_json(detect, &body).await.expect(StatusCode::OK);
    assert_eq!(missing["success"], json!(false));
    assert_eq!(
        missing["error"],
        json!(format!(
            "No RadView settings file (RadView.ini) in {}",
            magview.display()
        ))
    );

    std::fs::write(
        magview.join("RadView.ini"),
        format!("[Paths]\nRadViewPath={}\n", radview.display()),
    )
    .unwrap();
    let found = client.post_json(detect, &body).await.expect(StatusCode::OK);
    assert_eq!(
        found,
        json!({"success": true, "radViewPath": radview.display().to_string(), "error": null})
    );

    std::fs::write(
        magview.join("RadView.ini"),
        "[Paths]\nRadViewPath=/no/such/radview\n",
    )
    .unwrap();
    let gone = client.post_json(detect, &body).await.expect(StatusCode::OK);
    assert_eq!(gone["success"], json!(false));
    assert!(
        gone["error"].as_str().unwrap().contains("is not a folder"),
        "{gone}"
    );

    // Like every wizard call: a ProgramManager's once configured.
    client
        .post_json(
            "/api/configuration/saveConfiguration",
            &with_first_manager(valid_config(), "first.pm"),
        )
        .await
        .expect(StatusCode::OK);
    client
        .post_json(detect, &body)
        .await
        .expect_error(StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn page_changes_are_logged_only_once_configured() {
    let server = TestServer::fresh().await;
    let mut client = server.client();
    let log = "/api/Event/LogUrlChange";
    let body = client
        .post_json(log, &json!({"Url": "/init"}))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(body["Message"], json!("The portal is not configured"));
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM site_usage_events")
            .await,
        0
    );

    let demo = TestServer::demo().await;
    let mut anonymous = demo.client();
    anonymous
        .post_json(log, &json!({"Url": "/patient/login"}))
        .await
        .expect(StatusCode::OK);
    let mut jane = demo.signed_in(JANE).await;
    jane.post_json(log, &json!({"Url": "/documents/unread?x=1"}))
        .await
        .expect(StatusCode::OK);
    assert_eq!(demo.count_sql("SELECT COUNT(*) FROM site_usage_events WHERE event_type = 0 AND url = '/patient/login' AND user_id IS NULL").await, 1);
    let jane_id = demo
        .count_sql("SELECT id FROM users WHERE username = 'jane.doe'")
        .await;
    assert_eq!(demo.count_sql(&format!("SELECT COUNT(*) FROM site_usage_events WHERE event_type = 0 AND url = '/documents/unread?x=1' AND user_id = {jane_id} AND patient_id IS NOT NULL")).await, 1);
    for bad in [
        "",
        "https://elsewhere.example/x",
        "//elsewhere.example",
        "/a\nb",
    ] {
        jane.post_json(log, &json!({"Url": bad}))
            .await
            .expect_error(StatusCode::BAD_REQUEST);
    }
    // Without the CSRF header it is refused like every unsafe call.
    anonymous
        .post_json_with(log, &json!({"Url": "/x"}), Csrf::Omit)
        .await
        .expect_error(StatusCode::FORBIDDEN);
}
