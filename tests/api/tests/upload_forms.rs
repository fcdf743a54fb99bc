//! Issue 17: the survey administration uploads are multipart forms (spec 04 "POST (multipart)"):
//! the file and the form's fields as parts, limits enforced while the parts stream in, and a
//! missing, oversized, duplicated or unexpected part a 400/413, never a 5xx. The raw-body variant
//! (fields in the query) is kept for scripts and is covered by survey_admin.rs.

use api_tests::*;
use portal_api::pdf::{assemble, Page};

const UPLOAD_REPORT: &str = "/api/surveyReportsConfig/UploadSurveyReportTemplate";
const UPLOAD_LIB: &str = "/api/admin/UploadLibraryDll";
const UPLOAD_XML: &str = "/api/admin/UploadSurveyXml";
const PDF_FORMS: &str = "/api/techpadSettings/pdfForms";

const LIB: &str = "<library id=\"shared\">\n<list id=\"yesno\">\n<option value=\"y\"><text>Yes</text></option>\n<option value=\"n\"><text>No</text></option>\n</list>\n</library>\n";
const TEMPLATE: &str = "survey: BIH-001\ntitle: Intake for <PATIENT>\nsection: Body\nquestions: weight_lb, height_in\n";
const SURVEY: &str = "<survey id=\"MP-1\"><name>Multipart survey</name><page id=\"p\"><title>T</title>\n<question id=\"q\" type=\"text\" storage=\"history.notes\"><text>Anything?</text></question>\n</page></survey>\n";

fn pdf() -> Vec<u8> {
    let mut p = Page::new();
    p.text(72.0, 720.0, false, 12.0, "Consent");
    assemble(vec![p], "Consent", "Clinic", None)
}

#[tokio::test]
async fn every_upload_takes_the_file_and_the_forms_fields_as_parts() {
    let server = TestServer::demo().await;
    let mut pm = server.signed_in(MANAGER).await;

    // A report template: the form's fields as parts shape the stored row.
    let form = Multipart::new()
        .field("type", "Custom")
        .field("name", "Multipart copy")
        .field("resultFileNamePattern", "Copy_<SSN>_<DATE>")
        .field("includeSignature", "true")
        .field("overWrite", "false")
        .file("file", "copy.txt", "text/plain", TEMPLATE.as_bytes());
    let row = pm
        .post_multipart(UPLOAD_REPORT, form)
        .await
        .expect(StatusCode::OK);
    assert_eq!(row["name"], "Multipart copy", "{row}");
    assert_eq!(row["type"], "Custom");
    assert_eq!(row["includeSignature"], true);
    assert_eq!(row["resultFileNamePattern"], "Copy_<SSN>_<DATE>");
    assert_eq!(row["templatePath"], "SurveyReports/copy.txt");
    // overWrite is a part too: the same name again is refused, then replaced with overWrite.
    let again = || {
        Multipart::new()
            .field("type", "Custom")
            .field("name", "Multipart copy")
            .file("file", "copy.txt", "text/plain", TEMPLATE.as_bytes())
    };
    pm.post_multipart(UPLOAD_REPORT, again())
        .await
        .expect_error(StatusCode::CONFLICT);
    pm.post_multipart(UPLOAD_REPORT, again().field("overWrite", "true"))
        .await
        .expect(StatusCode::OK);
    // The template's own checks still name the line at fault.
    let bad = Multipart::new().file(
        "file",
        "bad.txt",
        "text/plain",
        b"survey: BIH-001\nsection: A\nquestions: nope\n",
    );
    let err = pm
        .post_multipart(UPLOAD_REPORT, bad)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert!(err["Message"].as_str().unwrap().contains("Line 3"), "{err}");

    // A library: its file name comes from the file part when no fileName part is sent.
    let lib = pm
        .post_multipart(
            UPLOAD_LIB,
            Multipart::new().file("file", "shared.xml", "application/xml", LIB.as_bytes()),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(lib["FileName"], "shared.xml");
    assert_eq!(lib["Lists"], json!(["yesno"]));

    // A survey XML with the spec's enteredName and overWrite.
    let up = pm
        .post_multipart(
            UPLOAD_XML,
            Multipart::new()
                .field("enteredName", "Entered by form")
                .field("overWrite", "false")
                .file("file", "mp-1.xml", "application/xml", SURVEY.as_bytes()),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(up["Files"][0]["SurveyId"], "MP-1", "{up}");
    let list = pm.get_json("/api/survey/ValidateSurveyXmls").await;
    let listed = list
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["SurveyId"] == "MP-1")
        .cloned()
        .unwrap();
    assert_eq!(listed["Name"], "Entered by form", "{listed}");
    // Replacing it by id takes the form too.
    pm.post_multipart(
        &format!("{UPLOAD_XML}/MP-1"),
        Multipart::new().file("file", "mp-1b.xml", "application/xml", SURVEY.as_bytes()),
    )
    .await
    .expect(StatusCode::OK);

    // A techpad PDF form with its Name part.
    let form = pm
        .post_multipart(
            PDF_FORMS,
            Multipart::new().field("name", "Consent by form").file(
                "file",
                "consent.pdf",
                "application/pdf",
                &pdf(),
            ),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(form["Name"], "Consent by form", "{form}");
    assert_eq!(form["FileName"], "consent.pdf");
    assert_eq!(form["Pages"], 1);

    // Each upload wrote its audit row.
    for action in ["SurveyReportUploaded", "TechpadPdfFormUploaded"] {
        let n = server
            .count_sql(&format!(
                "SELECT COUNT(*) FROM audit_log WHERE action = '{action}'"
            ))
            .await;
        assert!(n >= 1, "{action}: {n}");
    }
}

#[tokio::test]
async fn a_missing_oversized_duplicated_or_unexpected_part_is_a_400_or_413() {
    let server = TestServer::demo().await;
    let mut pm = server.signed_in(MANAGER).await;

    let no_file = pm
        .post_multipart(UPLOAD_LIB, Multipart::new().field("fileName", "x.xml"))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(no_file["Message"], "The form has no 'file' part.");

    let unexpected = pm
        .post_multipart(
            UPLOAD_LIB,
            Multipart::new().field("library", "x").file(
                "file",
                "x.xml",
                "application/xml",
                LIB.as_bytes(),
            ),
        )
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        unexpected["Message"],
        "The form has an unexpected part 'library' (expected 'file', 'fileName')."
    );

    let two = Multipart::new()
        .file("file", "a.xml", "application/xml", LIB.as_bytes())
        .file("file", "b.xml", "application/xml", LIB.as_bytes());
    let two = pm
        .post_multipart(UPLOAD_LIB, two)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(two["Message"], "The form has more than one 'file' part.");

    // Larger than the library limit (256 KB): refused while it streams in, named by its file.
    let big = vec![b' '; 256 * 1024 + 1];
    let too_big = pm
        .post_multipart(
            UPLOAD_LIB,
            Multipart::new().file("file", "big.xml", "application/xml", &big),
        )
        .await
        .expect_error(StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(too_big["Message"], "'big.xml' is larger than 256 KB.");
    // A report template above 64 KB, and a field above 4 KB.
    let big = vec![b'a'; 64 * 1024 + 1];
    pm.post_multipart(
        UPLOAD_REPORT,
        Multipart::new().file("file", "t.txt", "text/plain", &big),
    )
    .await
    .expect_error(StatusCode::PAYLOAD_TOO_LARGE);
    let long = "n".repeat(4 * 1024 + 1);
    pm.post_multipart(
        UPLOAD_REPORT,
        Multipart::new().field("name", &long).file(
            "file",
            "t.txt",
            "text/plain",
            TEMPLATE.as_bytes(),
        ),
    )
    .await
    .expect_error(StatusCode::PAYLOAD_TOO_LARGE);
    // A PDF form above 1 MiB is the form's File message, as with the raw body.
    let big = vec![b'%'; 1024 * 1024 + 1];
    let pdf_err = pm
        .post_multipart(
            PDF_FORMS,
            Multipart::new()
                .field("name", "Big")
                .file("file", "big.pdf", "application/pdf", &big),
        )
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert!(pdf_err["Errors"]["File"].is_array(), "{pdf_err}");

    // Malformed forms: no boundary, a body that ends inside a part.
    pm.post_raw(UPLOAD_LIB, LIB.as_bytes().to_vec(), "multipart/form-data")
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    let cut =
        "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"x.xml\"\r\n\r\n<library";
    pm.post_raw(
        UPLOAD_LIB,
        cut.as_bytes().to_vec(),
        "multipart/form-data; boundary=b",
    )
    .await
    .expect_error(StatusCode::BAD_REQUEST);
    // A text field that is not UTF-8.
    let (mut body, ct) = Multipart::new().finish();
    body.splice(0..0, b"------portal-test-7MA4YWxkTrZu0gW\r\nContent-Disposition: form-data; name=\"fileName\"\r\n\r\n\xff\xfe\r\n".iter().copied());
    let not_text = pm
        .post_raw(UPLOAD_LIB, body, &ct)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        not_text["Message"],
        "The form field 'fileName' is not UTF-8 text."
    );

    // Nothing of the refused forms was stored.
    let libs = pm.get_json("/api/survey/GetUploadedLibraries").await;
    assert!(
        libs.as_array()
            .unwrap()
            .iter()
            .all(|l| l["FileName"] != "big.xml"),
        "{libs}"
    );
    server.assert_alive().await;
}

#[tokio::test]
async fn only_program_managers_upload_forms() {
    let server = TestServer::demo().await;
    for account in [CLIENT_ADMIN, FRONT_DESK, JANE] {
        let mut c = server.signed_in(account).await;
        let r = c
            .post_multipart(
                UPLOAD_LIB,
                Multipart::new().file("file", "x.xml", "application/xml", LIB.as_bytes()),
            )
            .await;
        assert_eq!(
            r.status,
            StatusCode::FORBIDDEN,
            "{}: {}",
            account.username,
            r.text()
        );
    }
    let mut anon = server.client();
    let r = anon
        .post_multipart(
            UPLOAD_LIB,
            Multipart::new().file("file", "x.xml", "application/xml", LIB.as_bytes()),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.text());
}
