//! PDF printers (spec 03 §2 pdf-printers; issue 16): the print server's queues over IPP from a
//! real `cupsd` started by the test on loopback (tests/api/src/cups.rs), the enabled list saved
//! with its version (409 when stale), and a letter printed by staff as a real Print-Job whose
//! document arrives at the scheduler, audited as a read of the patient's data. A print server
//! that is down gives a clear message, never a 5xx.

use api_tests::*;

/// Points the portal at `address` (the settings form of DocumentsPdfPrinters).
async fn set_print_server(client: &mut Client, address: &str) -> Response {
    let path = "/api/configurationForm/DocumentsPdfPrinters";
    let envelope = client.get_json(path).await;
    let mut settings = envelope["Settings"].clone();
    settings["PrintServer"] = json!(address);
    client
        .put_json(
            path,
            &json!({"Version": envelope["Version"], "Settings": settings}),
        )
        .await
}

async fn enable(client: &mut Client, printers: &[&str]) -> Value {
    let version = client.get_json("/api/printers/enabled").await["Version"].clone();
    client
        .put_json(
            "/api/printers",
            &json!({"Version": version, "Printers": printers}),
        )
        .await
        .expect(StatusCode::OK)
}

async fn janes_letter(server: &TestServer) -> String {
    let mut jane = server.signed_in(JANE).await;
    let body = jane
        .post_json(
            "/api/documents/loadDocuments",
            &json!({"TimezoneOffset": 0}),
        )
        .await
        .expect(StatusCode::OK);
    body["list"][0]["AccessToken"].as_str().unwrap().to_owned()
}

fn pdf_text(pdf: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("job.pdf");
    std::fs::write(&path, pdf).unwrap();
    let out = std::process::Command::new("pdftotext")
        .arg(&path)
        .arg("-")
        .output()
        .expect("pdftotext (scripts/setup.sh installs poppler-utils)");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[tokio::test]
async fn admins_list_the_print_servers_printers_and_save_the_enabled_ones() {
    let cups = CupsServer::start(&["Radiology-2", "Front_Desk"]).await;
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;

    // Default: the local cupsd; nothing enabled.
    let envelope = manager
        .get_json("/api/configurationForm/DocumentsPdfPrinters")
        .await;
    assert_eq!(envelope["Settings"]["PrintServer"], "http://localhost:631");
    let enabled = manager.get_json("/api/printers/enabled").await;
    assert_eq!(enabled["Printers"], json!([]));

    set_print_server(&mut manager, &cups.address())
        .await
        .expect(StatusCode::OK);
    let available = manager
        .get("/api/printers/available")
        .await
        .expect(StatusCode::OK);
    assert_eq!(available["Error"], Value::Null, "{available}");
    let names: Vec<&str> = available["Printers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["Name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Front_Desk", "Radiology-2"]);
    assert_eq!(available["Printers"][0]["Info"], "Front_Desk test queue");
    assert_eq!(available["Printers"][0]["Location"], "Test room");
    assert_eq!(available["Printers"][0]["State"], "idle");

    // Save, then a save at the old version is refused with the current list.
    let before = manager.get_json("/api/printers/enabled").await["Version"]
        .as_i64()
        .unwrap();
    let saved = enable(&mut manager, &["Front_Desk", "Radiology-2"]).await;
    assert_eq!(saved["Printers"], json!(["Front_Desk", "Radiology-2"]));
    assert_eq!(saved["Version"].as_i64().unwrap(), before + 1);
    let stale = manager
        .put_json(
            "/api/printers",
            &json!({"Version": before, "Printers": ["Front_Desk"]}),
        )
        .await
        .expect_error(StatusCode::CONFLICT);
    assert_eq!(
        stale["Current"]["Settings"]["EnabledPrinters"],
        json!(["Front_Desk", "Radiology-2"])
    );
    // Removing one (the X) keeps the other.
    let saved = enable(&mut manager, &["Radiology-2"]).await;
    assert_eq!(saved["Printers"], json!(["Radiology-2"]));
    assert_eq!(
        manager.get_json("/api/printers/enabled").await["Printers"],
        json!(["Radiology-2"])
    );
    assert!(
        server
            .count_sql(
                "SELECT COUNT(*) FROM audit_log WHERE action = 'SettingsSaved' \
                 AND target_id = 'DocumentsPdfPrinters'"
            )
            .await
            >= 3
    );
}

#[tokio::test]
async fn bad_printer_names_and_addresses_get_field_messages() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let version = admin.get_json("/api/printers/enabled").await["Version"].clone();
    let long = "p".repeat(5000);
    let body = admin
        .put_json(
            "/api/printers",
            &json!({"Version": version, "Printers": ["ok", "a b", "ok", long]}),
        )
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    let errors = &body["Errors"];
    assert_eq!(
        errors["EnabledPrinters.1"][0],
        "A printer name is 1 to 127 characters without spaces, '/', '\\', quotes or '#'"
    );
    assert_eq!(
        errors["EnabledPrinters.2"][0],
        "This printer is already enabled"
    );
    assert!(errors["EnabledPrinters.3"].is_array(), "{body}");
    let many: Vec<String> = (0..101).map(|i| format!("p{i}")).collect();
    let body = admin
        .put_json(
            "/api/printers",
            &json!({"Version": version, "Printers": many}),
        )
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        body["Errors"]["EnabledPrinters"][0],
        "At most 100 printers can be enabled"
    );
    // Not a list at all: the body's own message, not a 5xx.
    let status = admin
        .put_json(
            "/api/printers",
            &json!({"Version": version, "Printers": "Front_Desk"}),
        )
        .await
        .status;
    assert!(status.is_client_error(), "{status}");
    for address in [
        "ftp://x",
        "http://x/admin",
        "http://user@x",
        &"h".repeat(300),
    ] {
        let body = set_print_server(&mut admin, address)
            .await
            .expect_error(StatusCode::BAD_REQUEST);
        assert!(
            body["Errors"]["PrintServer"].is_array(),
            "{address}: {body}"
        );
    }
    server.assert_alive().await;
}

#[tokio::test]
async fn each_call_checks_the_role() {
    let server = TestServer::demo().await;
    let put_body = json!({"Version": 0, "Printers": []});
    let print_body = json!({"AccessToken": "x", "Printer": "Front_Desk"});

    let mut anonymous = server.client();
    assert_eq!(
        anonymous.get("/api/printers/available").await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        anonymous.get("/api/printers/enabled").await.status,
        StatusCode::UNAUTHORIZED
    );

    let mut jane = server.signed_in(JANE).await;
    assert_eq!(
        jane.get("/api/printers/available").await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        jane.get("/api/printers/enabled").await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        jane.put_json("/api/printers", &put_body).await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        jane.post_json("/api/documents/printLetter", &print_body)
            .await
            .status,
        StatusCode::FORBIDDEN
    );

    // Front desk prints (reads the enabled list) but does not choose printers.
    let mut desk = server.signed_in(FRONT_DESK).await;
    assert_eq!(
        desk.get("/api/printers/available").await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        desk.put_json("/api/printers", &put_body).await.status,
        StatusCode::FORBIDDEN
    );
    desk.get("/api/printers/enabled")
        .await
        .expect(StatusCode::OK);

    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    admin
        .get("/api/printers/available")
        .await
        .expect(StatusCode::OK);
    let version = admin.get_json("/api/printers/enabled").await["Version"].clone();
    admin
        .put_json(
            "/api/printers",
            &json!({"Version": version, "Printers": []}),
        )
        .await
        .expect(StatusCode::OK);
}

#[tokio::test]
async fn staff_print_a_letter_and_its_pdf_arrives_at_the_printer() {
    let cups = CupsServer::start(&["Front_Desk", "Other"]).await;
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    set_print_server(&mut manager, &cups.address())
        .await
        .expect(StatusCode::OK);
    enable(&mut manager, &["Front_Desk"]).await;
    let token = janes_letter(&server).await;

    let mut desk = server.signed_in(FRONT_DESK).await;
    // Only an enabled printer.
    let body = desk
        .post_json(
            "/api/documents/printLetter",
            &json!({"AccessToken": token, "Printer": "Other"}),
        )
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        body["Errors"]["Printer"][0],
        "Choose one of the enabled printers"
    );
    // An unknown letter is 404, as for a view.
    desk.post_json(
        "/api/documents/printLetter",
        &json!({"AccessToken": "no-such-letter", "Printer": "Front_Desk"}),
    )
    .await
    .expect_error(StatusCode::NOT_FOUND);
    assert!(cups.job_documents().is_empty());

    let done = desk
        .post_json(
            "/api/documents/printLetter",
            &json!({"AccessToken": token, "Printer": "Front_Desk"}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(done["Printer"], "Front_Desk");
    assert!(done["JobId"].as_i64().unwrap() > 0, "{done}");
    let docs = cups.wait_for_jobs(1).await;
    assert!(docs[0].starts_with(b"%PDF-"), "not a PDF");
    let text = pdf_text(&docs[0]);
    assert!(text.contains("Jane"), "{text}");
    assert!(text.contains("100001"), "{text}");

    // Audited as a read of Jane's data, with the printer and job.
    let jane_id = server
        .count_sql("SELECT id FROM patients WHERE mrn = '100001'")
        .await;
    assert_eq!(
        server
            .count_sql(&format!(
                "SELECT COUNT(*) FROM audit_log WHERE action = 'LetterPrinted' \
                 AND patient_id = {jane_id} AND new_values LIKE '%Front_Desk%'"
            ))
            .await,
        1
    );
}

#[tokio::test]
async fn a_print_server_that_is_down_gives_a_clear_message() {
    let mut cups = CupsServer::start(&["Front_Desk"]).await;
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    set_print_server(&mut manager, &cups.address())
        .await
        .expect(StatusCode::OK);
    enable(&mut manager, &["Front_Desk"]).await;
    let token = janes_letter(&server).await;
    cups.stop();

    let available = manager
        .get("/api/printers/available")
        .await
        .expect(StatusCode::OK);
    assert_eq!(available["Printers"], json!([]));
    let message = available["Error"].as_str().unwrap();
    assert!(
        message.starts_with(&format!(
            "The print server at {} could not be reached",
            cups.address()
        )),
        "{message}"
    );
    let body = manager
        .post_json(
            "/api/documents/printLetter",
            &json!({"AccessToken": token, "Printer": "Front_Desk"}),
        )
        .await
        .expect_error(StatusCode::CONFLICT);
    assert!(
        body["Message"]
            .as_str()
            .unwrap()
            .contains("could not be reached"),
        "{body}"
    );
    // Nothing printed, nothing audited as printed.
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'LetterPrinted'")
            .await,
        0
    );
    server.assert_alive().await;
}
