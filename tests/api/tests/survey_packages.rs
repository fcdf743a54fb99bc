//! Survey packages admin (spec 04 "Survey packages", issue 5 part 2): upload of one XML (with
//! overwrite), of a zip package, the list columns, download, replace, delete with assignments,
//! size limits, zip bombs, path traversal, garbage, and who may call it.

use std::io::{Cursor, Write};

use api_tests::*;

const LIST: &str = "/api/survey/ValidateSurveyXmls";
const DELETE: &str = "/api/admin/DeleteUploadedSurveyXml";

/// A valid survey with a CRLF line, a comment and non-ASCII text (so "byte-identical" means
/// something), one storage column the storage dictionary lacks (lab.value).
fn survey(id: &str, name: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n<!-- uploaded by a test -->\n<survey id=\"{id}\">\n  <name lang=\"en\">{name}</name>\n  <name lang=\"es\">Encuesta ñandú</name>\n  <page id=\"p1\">\n    <title>Page</title>\n    <question id=\"a\" type=\"text\" storage=\"lab.value\"><text>Lab value?</text></question>\n    <question id=\"b\" type=\"yesno\" storage=\"history.pregnant_now\"><text>Pregnant?</text></question>\n  </page>\n</survey>\n"
    )
}

/// Line 4 has a question of an unknown type.
fn invalid(id: &str) -> String {
    format!("<survey id=\"{id}\">\n<name>Broken</name>\n<page id=\"p\"><title>T</title>\n<question id=\"q\" type=\"colour\" storage=\"x.y\"><text>Q</text></question>\n</page></survey>\n")
}

fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in entries {
        w.start_file(*name, options).unwrap();
        w.write_all(bytes).unwrap();
    }
    w.finish().unwrap().into_inner()
}

async fn upload(client: &mut Client, query: &str, body: &[u8]) -> Response {
    client
        .post_raw(
            &format!("/api/admin/UploadSurveyXml?{query}"),
            body.to_vec(),
            "application/xml",
        )
        .await
}

async fn package(client: &mut Client, query: &str, body: Vec<u8>) -> Response {
    client
        .post_raw(
            &format!("/api/admin/UploadPackage?{query}"),
            body,
            "application/zip",
        )
        .await
}

async fn row(client: &mut Client, survey_id: &str) -> Option<Value> {
    let list = client.get_json(LIST).await;
    let rows = list.as_array().expect("the list is an array");
    let found: Vec<&Value> = rows.iter().filter(|r| r["SurveyId"] == survey_id).collect();
    assert!(found.len() <= 1, "{survey_id} listed twice: {list}");
    found.first().map(|r| (*r).clone())
}

async fn definitions(server: &TestServer) -> i64 {
    server
        .count_sql("SELECT COUNT(*) FROM survey_definitions")
        .await
}

#[tokio::test]
async fn an_uploaded_xml_is_listed_with_every_column_downloads_byte_identical_and_is_audited() {
    let server = TestServer::demo().await;
    let mut pm = server.signed_in(MANAGER).await;
    let xml = survey("ADM-1", "Admin Test");
    let res = upload(
        &mut pm,
        "fileName=adm-1.xml&enteredName=My%20Upload&overWrite=false",
        xml.as_bytes(),
    )
    .await;
    let body = res.expect(StatusCode::OK);
    assert_eq!(body["Files"][0]["Status"], "Uploaded");
    assert_eq!(body["Files"][0]["Message"], "Survey Uploaded");
    assert_eq!(body["Files"][0]["SurveyId"], "ADM-1");

    let r = row(&mut pm, "ADM-1").await.expect("listed");
    assert_eq!(r["Name"], "My Upload");
    assert_eq!(r["MissingLibs"], json!([]));
    assert_eq!(r["MissingStorages"], json!(["lab.value"]));
    assert_eq!(r["Questions"], 2);
    assert_eq!(r["Error"], Value::Null);
    assert_eq!(r["HasStandardSummaryReport"], true);
    assert_eq!(r["Assigned"], 0);
    // The shipped surveys are listed too, valid, with every storage column known.
    let shipped = row(&mut pm, "PES-010")
        .await
        .expect("shipped survey listed");
    assert_eq!(shipped["Error"], Value::Null);
    assert_eq!(shipped["MissingStorages"], json!([]));
    assert!(shipped["Assigned"].as_u64().unwrap() > 0);

    let dl = pm.get("/api/admin/DownloadSurveyXml?surveyId=ADM-1").await;
    assert_eq!(dl.status, StatusCode::OK);
    assert_eq!(
        dl.body,
        xml.as_bytes(),
        "download must be the file as uploaded"
    );
    assert!(dl
        .header("content-disposition")
        .unwrap()
        .contains("filename=\"ADM-1.xml\""));
    pm.get("/api/admin/DownloadSurveyXml?surveyId=NOPE")
        .await
        .expect_error(StatusCode::NOT_FOUND);

    assert_eq!(
        server.count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'SurveyUploaded' AND target_id = 'ADM-1'").await,
        1
    );
}

#[tokio::test]
async fn overwrite_off_refuses_overwrite_on_replaces_and_replace_checks_the_id() {
    let server = TestServer::demo().await;
    let mut pm = server.signed_in(MANAGER).await;
    upload(
        &mut pm,
        "fileName=a.xml",
        survey("ADM-2", "First").as_bytes(),
    )
    .await
    .expect(StatusCode::OK);
    let before = definitions(&server).await;

    let second = survey("ADM-2", "Second");
    let err = upload(&mut pm, "fileName=a.xml&overWrite=false", second.as_bytes())
        .await
        .expect_error(StatusCode::CONFLICT);
    assert_eq!(
        err["Message"],
        "Survey 'ADM-2' already exists. Choose Overwrite to replace it."
    );
    assert_eq!(row(&mut pm, "ADM-2").await.unwrap()["Name"], "First");

    let ok = upload(&mut pm, "fileName=a.xml&overWrite=true", second.as_bytes())
        .await
        .expect(StatusCode::OK);
    assert_eq!(ok["Files"][0]["Message"], "Survey Uploaded");
    assert_eq!(row(&mut pm, "ADM-2").await.unwrap()["Name"], "Second");
    assert_eq!(
        pm.get("/api/admin/DownloadSurveyXml?surveyId=ADM-2")
            .await
            .body,
        second.as_bytes()
    );
    assert_eq!(
        definitions(&server).await,
        before,
        "an unassigned survey is replaced in place"
    );

    // Replace (upload to the base URL plus the id): the file must be that survey.
    let err = pm
        .post_raw(
            "/api/admin/UploadSurveyXml/ADM-2?fileName=b.xml",
            survey("OTHER-9", "x").into_bytes(),
            "application/xml",
        )
        .await
        .expect_error(StatusCode::CONFLICT);
    assert_eq!(
        err["Message"],
        "The file's SurveyId 'OTHER-9' does not match 'ADM-2'."
    );
    let third = survey("ADM-2", "Third");
    pm.post_raw(
        "/api/admin/UploadSurveyXml/ADM-2?fileName=b.xml",
        third.clone().into_bytes(),
        "application/xml",
    )
    .await
    .expect(StatusCode::OK);
    // A replace keeps the listed name unless a new one is entered.
    assert_eq!(row(&mut pm, "ADM-2").await.unwrap()["Name"], "Second");
    assert_eq!(
        pm.get("/api/admin/DownloadSurveyXml?surveyId=ADM-2")
            .await
            .body,
        third.as_bytes()
    );
    pm.post_raw(
        "/api/admin/UploadSurveyXml/NOPE?fileName=b.xml",
        third.into_bytes(),
        "application/xml",
    )
    .await
    .expect_error(StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn an_invalid_file_is_listed_with_its_line_and_never_replaces_a_valid_survey() {
    let server = TestServer::demo().await;
    let mut pm = server.signed_in(MANAGER).await;
    let res = upload(&mut pm, "fileName=broken.xml", invalid("BAD-1").as_bytes())
        .await
        .expect(StatusCode::OK);
    assert_eq!(res["Files"][0]["Status"], "Invalid");
    assert_eq!(
        res["Files"][0]["Message"],
        "Line 4: 'q' has unknown type 'colour'"
    );
    let r = row(&mut pm, "BAD-1")
        .await
        .expect("an invalid file is listed");
    assert_eq!(r["Error"], "Line 4: 'q' has unknown type 'colour'");
    assert_eq!(r["Questions"], 0);
    assert_eq!(r["HasStandardSummaryReport"], false);
    assert_eq!(r["Name"], "broken");

    // Not even a parseable root: named after the file.
    let res = upload(&mut pm, "fileName=half.xml", b"<survey id=\"X\"><name>")
        .await
        .expect(StatusCode::OK);
    assert_eq!(res["Files"][0]["SurveyId"], "half");
    assert!(
        res["Files"][0]["Message"]
            .as_str()
            .unwrap()
            .starts_with("Line 1: "),
        "{res}"
    );

    // A broken file never replaces a valid survey, even with overwrite on.
    let good = survey("ADM-3", "Good");
    upload(&mut pm, "fileName=g.xml", good.as_bytes())
        .await
        .expect(StatusCode::OK);
    let err = upload(
        &mut pm,
        "fileName=g.xml&overWrite=true",
        invalid("ADM-3").as_bytes(),
    )
    .await
    .expect_error(StatusCode::CONFLICT);
    assert_eq!(
        err["Message"],
        "Survey 'ADM-3' was not replaced: Line 4: 'q' has unknown type 'colour'"
    );
    assert_eq!(
        pm.get("/api/admin/DownloadSurveyXml?surveyId=ADM-3")
            .await
            .body,
        good.as_bytes()
    );
    // A valid file replaces the broken one.
    upload(
        &mut pm,
        "fileName=b.xml&overWrite=true",
        survey("BAD-1", "Fixed").as_bytes(),
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(row(&mut pm, "BAD-1").await.unwrap()["Error"], Value::Null);
}

#[tokio::test]
async fn a_package_stores_its_good_files_lists_its_bad_one_and_downloads_as_a_zip() {
    let server = TestServer::demo().await;
    let mut pm = server.signed_in(MANAGER).await;
    let one = survey("PKG-1", "Package One");
    let two = survey("PKG-2", "Package Two");
    let zip = zip_of(&[
        ("surveys/one.xml", one.as_bytes()),
        ("two.XML", two.as_bytes()),
        ("bad.xml", invalid("PKG-BAD").as_bytes()),
        ("readme.txt", b"not a survey"),
    ]);
    let res = package(&mut pm, "overWrite=false", zip.clone())
        .await
        .expect(StatusCode::OK);
    let files = res["Files"].as_array().unwrap();
    let status = |name: &str| {
        files
            .iter()
            .find(|f| f["FileName"] == name)
            .map(|f| (f["Status"].clone(), f["Message"].clone()))
    };
    assert_eq!(
        status("surveys/one.xml"),
        Some((json!("Uploaded"), json!("Survey Uploaded")))
    );
    assert_eq!(
        status("two.XML"),
        Some((json!("Uploaded"), json!("Survey Uploaded")))
    );
    assert_eq!(
        status("bad.xml"),
        Some((
            json!("Invalid"),
            json!("Line 4: 'q' has unknown type 'colour'")
        ))
    );
    assert_eq!(
        status("readme.txt"),
        Some((
            json!("Refused"),
            json!("Only .xml files are read from a package.")
        ))
    );
    assert_eq!(row(&mut pm, "PKG-1").await.unwrap()["Name"], "Package One");
    assert_eq!(
        row(&mut pm, "PKG-BAD").await.unwrap()["Error"],
        "Line 4: 'q' has unknown type 'colour'"
    );

    // Again without overwrite: each existing survey is refused, nothing changes.
    let res = package(&mut pm, "", zip).await.expect(StatusCode::OK);
    assert!(
        res["Files"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["Status"] == "Refused"),
        "{res}"
    );

    let dl = pm.get("/api/admin/DownloadSurveyPackage").await;
    assert_eq!(dl.status, StatusCode::OK);
    assert_eq!(dl.content_type(), "application/zip");
    let mut archive = zip::ZipArchive::new(Cursor::new(dl.body)).expect("a zip");
    let mut got = String::new();
    std::io::Read::read_to_string(&mut archive.by_name("PKG-2.xml").unwrap(), &mut got).unwrap();
    assert_eq!(got, two);
    assert!(archive.by_name("BIH-001.xml").is_ok());
}

#[tokio::test]
async fn zip_bombs_unsafe_paths_oversized_files_and_garbage_are_refused_whole() {
    let server = TestServer::demo().await;
    let mut pm = server.signed_in(MANAGER).await;
    let before = definitions(&server).await;
    let good = survey("SAFE-1", "Would be stored");
    let refuse = |res: Response, message: &str| {
        let body = res.expect_error(StatusCode::BAD_REQUEST);
        assert!(
            body["Message"].as_str().unwrap().contains(message),
            "{body}"
        );
    };
    // One entry that unpacks past 512 KB (a few KB packed).
    let bomb = vec![b' '; 3 * 1024 * 1024];
    refuse(
        package(
            &mut pm,
            "",
            zip_of(&[("good.xml", good.as_bytes()), ("bomb.xml", &bomb)]),
        )
        .await,
        "'bomb.xml' is larger than 512 KB.",
    );
    // Many entries under the per-file cap that together unpack past 8 MB.
    let chunk = vec![b' '; 500 * 1024];
    let names: Vec<String> = (0..20).map(|i| format!("f{i}.xml")).collect();
    let entries: Vec<(&str, &[u8])> = names
        .iter()
        .map(|n| (n.as_str(), chunk.as_slice()))
        .collect();
    let packed = zip_of(&entries);
    assert!(packed.len() < 200 * 1024);
    refuse(
        package(&mut pm, "", packed).await,
        "unpacks to more than 8 MB",
    );
    refuse(
        package(
            &mut pm,
            "",
            zip_of(&[
                ("good.xml", good.as_bytes()),
                ("../../etc/evil.xml", good.as_bytes()),
            ]),
        )
        .await,
        "unsafe file name",
    );
    refuse(
        package(&mut pm, "", zip_of(&[("/abs/evil.xml", good.as_bytes())])).await,
        "unsafe file name",
    );
    let many: Vec<String> = (0..101).map(|i| format!("m{i}.xml")).collect();
    let entries: Vec<(&str, &[u8])> = many
        .iter()
        .map(|n| (n.as_str(), b"<x/>".as_slice()))
        .collect();
    refuse(
        package(&mut pm, "", zip_of(&entries)).await,
        "more than 100 files",
    );
    refuse(
        package(&mut pm, "", b"this is not a zip".to_vec()).await,
        "The file is not a zip package.",
    );
    refuse(
        package(&mut pm, "", zip_of(&[("readme.txt", b"x")])).await,
        "no .xml survey files",
    );
    assert_eq!(
        definitions(&server).await,
        before,
        "a refused package stores nothing"
    );

    // Size limits: one XML above 512 KB; any body above 1 MiB.
    let mut big = survey("BIG-1", "Big").into_bytes();
    big.extend(std::iter::repeat_n(b' ', 600 * 1024));
    let err = upload(&mut pm, "fileName=big.xml", &big)
        .await
        .expect_error(StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(err["Message"], "'big.xml' is larger than 512 KB.");
    let huge = vec![b'A'; 1024 * 1024 + 10];
    package(&mut pm, "", huge)
        .await
        .expect_error(StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(definitions(&server).await, before);
    server.assert_alive().await;
}

#[tokio::test]
async fn garbage_uploads_never_crash_the_server() {
    let server = TestServer::demo().await;
    let mut pm = server.signed_in(MANAGER).await;
    let valid_zip = zip_of(&[("a.xml", survey("FZ-1", "Fuzz").as_bytes())]);
    let mut seed: u64 = 0x5eed_1234;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize
    };
    for i in 0..60 {
        let mut bytes = if i % 2 == 0 {
            valid_zip.clone()
        } else {
            survey("FZ-2", "Fuzz").into_bytes()
        };
        // Flip, cut or insert bytes (NUL and invalid UTF-8 included).
        for _ in 0..(1 + next() % 8) {
            let at = next() % bytes.len();
            match next() % 3 {
                0 => bytes[at] = (next() % 256) as u8,
                1 => bytes.truncate(at.max(1)),
                _ => bytes.insert(at, [0u8, 0xff, b'<', b'&'][next() % 4]),
            }
        }
        let res = if i % 2 == 0 {
            package(&mut pm, "overWrite=true", bytes).await
        } else {
            upload(&mut pm, "overWrite=true", &bytes).await
        };
        assert!(
            [
                StatusCode::OK,
                StatusCode::BAD_REQUEST,
                StatusCode::CONFLICT
            ]
            .contains(&res.status),
            "iteration {i}: {} {}",
            res.status,
            res.text()
        );
    }
    server.assert_alive().await;
    let list = pm.get(LIST).await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text());
}

#[tokio::test]
async fn delete_refuses_an_assigned_survey_and_replacing_it_keeps_the_old_version_for_its_assignments(
) {
    let server = TestServer::demo().await;
    let mut pm = server.signed_in(MANAGER).await;
    upload(
        &mut pm,
        "fileName=d.xml",
        survey("DEL-1", "To delete").as_bytes(),
    )
    .await
    .expect(StatusCode::OK);
    pm.post_json(DELETE, &json!({"surveyId": "DEL-1"}))
        .await
        .expect(StatusCode::OK);
    assert!(row(&mut pm, "DEL-1").await.is_none());
    pm.post_json(DELETE, &json!({"surveyId": "DEL-1"}))
        .await
        .expect_error(StatusCode::NOT_FOUND);
    assert_eq!(server.count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'SurveyDeleted' AND target_id = 'DEL-1'").await, 1);

    // PES-010 is assigned in the demo clinic.
    let assigned = server
        .count_sql("SELECT COUNT(*) FROM survey_queue q JOIN survey_definitions d ON d.id = q.survey_definition_id WHERE d.survey_id = 'PES-010'")
        .await;
    assert!(assigned > 0);
    let err = pm
        .post_json(DELETE, &json!({"surveyId": "PES-010"}))
        .await
        .expect_error(StatusCode::CONFLICT);
    assert_eq!(
        err["Message"],
        "Survey 'PES-010' cannot be deleted: it is assigned to patients (existing assignments and answers use it). Upload a new version instead."
    );
    assert!(row(&mut pm, "PES-010").await.is_some());

    // Replacing it keeps the old version (retired) under every existing assignment.
    let old_xml = pm
        .get("/api/admin/DownloadSurveyXml?surveyId=PES-010")
        .await
        .body;
    let new_xml = survey("PES-010", "Pre-Exam Screening v2");
    let res = upload(
        &mut pm,
        "fileName=pes.xml&overWrite=true",
        new_xml.as_bytes(),
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(res["Files"][0]["Message"], "Survey Uploaded");
    let r = row(&mut pm, "PES-010").await.unwrap();
    assert_eq!(r["Questions"], 2);
    assert_eq!(r["Assigned"], 0, "new assignments start on the new version");
    assert_eq!(
        pm.get("/api/admin/DownloadSurveyXml?surveyId=PES-010")
            .await
            .body,
        new_xml.as_bytes()
    );
    let still = server
        .count_sql(
            "SELECT COUNT(*) FROM survey_queue q JOIN survey_definitions d ON d.id = q.survey_definition_id
             WHERE d.retired_at IS NOT NULL AND d.survey_id LIKE 'PES-010~%'",
        )
        .await;
    assert_eq!(
        still, assigned,
        "every assignment keeps the version it was made with"
    );
    let kept = server
        .count_sql(&format!(
            "SELECT COUNT(*) FROM survey_definitions WHERE retired_at IS NOT NULL AND xml = '{}'",
            String::from_utf8(old_xml).unwrap().replace('\'', "''")
        ))
        .await;
    assert_eq!(kept, 1);
    // The new version has no assignments: it may be deleted; the old one stays for its rows.
    pm.post_json(DELETE, &json!({"surveyId": "PES-010"}))
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM survey_definitions WHERE survey_id LIKE 'PES-010~%'")
            .await,
        1
    );
}

#[tokio::test]
async fn only_program_managers_may_use_survey_packages() {
    let server = TestServer::demo().await;
    let xml = survey("ROLE-1", "Role test");
    let zip = zip_of(&[("a.xml", xml.as_bytes())]);
    for account in [FRONT_DESK, CLIENT_ADMIN, JANE] {
        let mut c = server.signed_in(account).await;
        c.get(LIST).await.expect_error(StatusCode::FORBIDDEN);
        upload(&mut c, "fileName=a.xml", xml.as_bytes())
            .await
            .expect_error(StatusCode::FORBIDDEN);
        c.post_raw(
            "/api/admin/UploadSurveyXml/PES-010",
            xml.clone().into_bytes(),
            "application/xml",
        )
        .await
        .expect_error(StatusCode::FORBIDDEN);
        package(&mut c, "", zip.clone())
            .await
            .expect_error(StatusCode::FORBIDDEN);
        c.get("/api/admin/DownloadSurveyXml?surveyId=PES-010")
            .await
            .expect_error(StatusCode::FORBIDDEN);
        c.get("/api/admin/DownloadSurveyPackage")
            .await
            .expect_error(StatusCode::FORBIDDEN);
        c.post_json(DELETE, &json!({"surveyId": "PES-010"}))
            .await
            .expect_error(StatusCode::FORBIDDEN);
    }
    let mut anon = server.client();
    anon.get(LIST).await.expect_error(StatusCode::UNAUTHORIZED);
    upload(&mut anon, "fileName=a.xml", xml.as_bytes())
        .await
        .expect_error(StatusCode::UNAUTHORIZED);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM survey_definitions WHERE survey_id = 'ROLE-1'")
            .await,
        0
    );
}
