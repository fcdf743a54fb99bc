//! Techpad PDF forms (issue 18; spec 04 §2 "pdf-forms | a list only; its contents are not
//! shown"): the list, upload (name required and unique, a real PDF read by lopdf, at most 1 MiB),
//! download, delete, the tablet's configuration, roles, and a Techpad Log row per change.

use api_tests::*;
use portal_api::pdf::{assemble, Page};

const LIST: &str = "/api/techpadSettings/pdfForms";
const CONFIGURATION: &str = "/api/techpad/configuration";

fn pdf(pages: usize) -> Vec<u8> {
    let pages = (0..pages)
        .map(|i| {
            let mut p = Page::new();
            p.text(
                72.0,
                720.0,
                false,
                12.0,
                &format!("Consent form page {}", i + 1),
            );
            p
        })
        .collect();
    assemble(pages, "Consent", "Clinic", None)
}

fn upload_path(name: &str, file_name: &str) -> String {
    format!("{LIST}?name={name}&fileName={file_name}")
}

async fn upload(client: &mut Client, name: &str, file_name: &str, body: Vec<u8>) -> Response {
    client
        .post_raw(&upload_path(name, file_name), body, "application/pdf")
        .await
}

async fn delete(client: &mut Client, id: i64) -> Response {
    client
        .send(
            Method::DELETE,
            &format!("{LIST}/{id}"),
            None,
            Csrf::Auto,
            &[],
        )
        .await
}

/// A technologist account made by the program manager, signed in (the tablet's user).
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

fn field<'a>(error: &'a Value, name: &str) -> &'a Value {
    &error["Errors"][name]
}

#[tokio::test]
async fn a_form_is_uploaded_listed_downloaded_and_deleted_with_techpad_log_rows() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    assert_eq!(manager.get_json(LIST).await, json!([]));

    let file = pdf(3);
    let saved = upload(
        &mut manager,
        "Contrast consent",
        "contrast-consent.pdf",
        file.clone(),
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(saved["Name"], "Contrast consent");
    assert_eq!(saved["FileName"], "contrast-consent.pdf");
    assert_eq!(saved["Pages"], 3);
    assert_eq!(saved["SizeBytes"], file.len());
    assert!(!saved["UploadedBy"].as_str().unwrap().is_empty(), "{saved}");
    assert!(saved["UploadedAt"].as_i64().unwrap() > now_unix() * 1000 - 600_000);
    let id = saved["Id"].as_i64().unwrap();

    // The list, by name.
    upload(&mut manager, "  MRI screening ", "mri.pdf", pdf(1))
        .await
        .expect(StatusCode::OK);
    let list = manager.get_json(LIST).await;
    let names: Vec<_> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["Name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(names, ["Contrast consent", "MRI screening"]);

    // The download is the same bytes, as an attachment.
    let got = manager.get(saved["DownloadUrl"].as_str().unwrap()).await;
    assert_eq!(got.status, StatusCode::OK);
    assert_eq!(got.content_type(), "application/pdf");
    assert!(got
        .header("content-disposition")
        .unwrap()
        .starts_with("attachment; filename=\"contrast-consent.pdf\""));
    assert_eq!(got.body, file);

    let log = "SELECT COUNT(*) FROM audit_log WHERE category = 'Techpad' AND action = 'TechpadPdfFormUploaded' AND new_values LIKE '%Contrast consent%'";
    assert_eq!(server.count_sql(log).await, 1);

    delete(&mut manager, id).await.expect(StatusCode::OK);
    let deleted = "SELECT COUNT(*) FROM audit_log WHERE category = 'Techpad' AND action = 'TechpadPdfFormDeleted' AND old_values LIKE '%Contrast consent%'";
    assert_eq!(server.count_sql(deleted).await, 1);
    assert_eq!(manager.get_json(LIST).await.as_array().unwrap().len(), 1);
    manager
        .get(saved["DownloadUrl"].as_str().unwrap())
        .await
        .expect_error(StatusCode::NOT_FOUND);
    // Deleting it again: 404, nothing logged.
    delete(&mut manager, id)
        .await
        .expect_error(StatusCode::NOT_FOUND);
    assert_eq!(server.count_sql(deleted).await, 1);
}

#[tokio::test]
async fn bad_uploads_get_field_messages_and_store_nothing() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let long_name = "n".repeat(101);
    let cases: Vec<(&str, &str, Vec<u8>, &str, &str)> = vec![
        ("", "a.pdf", pdf(1), "Name", "Name is required"),
        ("%20%20", "a.pdf", pdf(1), "Name", "Name is required"),
        (
            &long_name,
            "a.pdf",
            pdf(1),
            "Name",
            "Must be at most 100 characters",
        ),
        ("Empty", "a.pdf", Vec::new(), "File", "Choose a PDF file"),
        (
            "Text",
            "a.pdf",
            b"hello, not a pdf".to_vec(),
            "File",
            "The file is not a PDF document.",
        ),
        (
            "Image",
            "logo.pdf",
            b"\x89PNG\r\n\x1a\n0000".to_vec(),
            "File",
            "The file is not a PDF document.",
        ),
        (
            "Broken",
            "broken.pdf",
            b"%PDF-1.7\n1 0 obj <<>> garbage".to_vec(),
            "File",
            "The file is not a PDF document.",
        ),
    ];
    for (name, file_name, body, field_name, message) in cases {
        let error = upload(&mut manager, name, file_name, body)
            .await
            .expect_error(StatusCode::BAD_REQUEST);
        assert_eq!(
            field(&error, field_name),
            &json!([message]),
            "{name}: {error}"
        );
    }
    // A file above 1 MiB: the File field's message, not a bare 413 and never a 5xx.
    let mut big = pdf(1);
    big.resize(1024 * 1024 + 10, b' ');
    let error = upload(&mut manager, "Big", "big.pdf", big)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        field(&error, "File"),
        &json!(["The file is larger than 1 MB."])
    );
    // No query at all: the name and file name are missing.
    let error = manager
        .post_raw(LIST, pdf(1), "application/pdf")
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(field(&error, "Name"), &json!(["Name is required"]));
    assert_eq!(manager.get_json(LIST).await, json!([]));
    let logged = "SELECT COUNT(*) FROM audit_log WHERE action = 'TechpadPdfFormUploaded'";
    assert_eq!(server.count_sql(logged).await, 0);

    // The name is unique without case or surrounding spaces.
    upload(&mut manager, "Consent", "c.pdf", pdf(1))
        .await
        .expect(StatusCode::OK);
    let error = upload(&mut manager, "%20consent%20", "c2.pdf", pdf(2))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        field(&error, "Name"),
        &json!(["A PDF form with this name already exists."])
    );
    assert_eq!(manager.get_json(LIST).await.as_array().unwrap().len(), 1);
    assert_eq!(server.count_sql(logged).await, 1);

    // Odd ids and file names: 404 / 400 and a safe header, never a 5xx.
    for path in [
        format!("{LIST}/abc"),
        format!("{LIST}/99999999999999999999"),
        format!("{LIST}/-1/file"),
    ] {
        let got = manager.get(&path).await;
        assert!(got.status.is_client_error(), "{path}: {}", got.status);
    }
    let odd = upload(
        &mut manager,
        "Odd",
        "..%2F..%2Fetc%2F%22x%22%3B.pdf",
        pdf(1),
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(odd["FileName"], "_x__.pdf");
}

#[tokio::test]
async fn every_call_checks_the_callers_role_and_the_tablet_reads_the_list() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let saved = upload(&mut manager, "Screening", "screening.pdf", pdf(2))
        .await
        .expect(StatusCode::OK);
    let id = saved["Id"].as_i64().unwrap();
    let download = saved["DownloadUrl"].as_str().unwrap().to_owned();

    let mut anonymous = server.client();
    let mut tech = technologist(&server).await;
    let mut desk = server.signed_in(FRONT_DESK).await;
    let mut jane = server.signed_in(JANE).await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;

    assert_eq!(anonymous.get(LIST).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        anonymous.get(&download).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        upload(&mut anonymous, "X", "x.pdf", pdf(1)).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        delete(&mut anonymous, id).await.status,
        StatusCode::UNAUTHORIZED
    );
    // The list is managed as the other techpad groups are (client admins and program managers);
    // the tablet's technologist reads it through its configuration and downloads the files.
    for other in [&mut tech, &mut desk, &mut jane] {
        other.get(LIST).await.expect_error(StatusCode::FORBIDDEN);
        upload(other, "X", "x.pdf", pdf(1))
            .await
            .expect_error(StatusCode::FORBIDDEN);
        delete(other, id).await.expect_error(StatusCode::FORBIDDEN);
    }
    for other in [&mut desk, &mut jane] {
        other
            .get(&download)
            .await
            .expect_error(StatusCode::FORBIDDEN);
    }
    assert_eq!(admin.get_json(LIST).await.as_array().unwrap().len(), 1);
    assert_eq!(admin.get(&download).await.status, StatusCode::OK);
    let got = tech.get(&download).await;
    assert_eq!(got.status, StatusCode::OK);
    assert_eq!(got.content_type(), "application/pdf");

    let config = tech.get_json(CONFIGURATION).await;
    let forms = config["PdfForms"]
        .as_array()
        .expect("PdfForms in the configuration");
    assert_eq!(forms.len(), 1);
    assert_eq!(forms[0]["Name"], "Screening");
    assert_eq!(forms[0]["Pages"], 2);
    assert_eq!(forms[0]["DownloadUrl"], json!(download));
    assert_eq!(
        manager.get_json(CONFIGURATION).await["PdfForms"],
        config["PdfForms"]
    );

    // Nothing refused changed anything.
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM techpad_pdf_forms")
            .await,
        1
    );
    // The client admin manages them too: a delete.
    delete(&mut admin, id).await.expect(StatusCode::OK);
    assert_eq!(tech.get_json(CONFIGURATION).await["PdfForms"], json!([]));
}
