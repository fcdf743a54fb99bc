//! Issue 17, the survey packages screen's additions (spec 04): report templates that shape the
//! summary PDF (read back with pdftotext), libraries behind MissingLibs, the storage schema sync
//! behind MissingStorages, the lexicon export; size limits, bad input never a 5xx, roles.

use std::io::{Cursor, Read};
use std::time::Duration;

use api_tests::*;

const UPLOAD_REPORT: &str = "/api/surveyReportsConfig/UploadSurveyReportTemplate";
const REPORTS: &str = "/api/surveyReportsConfig/GetAllSurveyReports";
const UPLOAD_LIB: &str = "/api/admin/UploadLibraryDll";
const LIBS: &str = "/api/survey/GetUploadedLibraries";
const DELETE_LIB: &str = "/api/admin/DeleteUploadedLibrary";
const SCHEMA: &str = "/api/admin/GetStorageSchemaCacheLastDate";
const REFRESH: &str = "/api/admin/RefreshStorageSchemaCache";
const LIST: &str = "/api/survey/ValidateSurveyXmls";

async fn upload_report(c: &mut Client, query: &str, body: &str) -> Response {
    c.post_raw(
        &format!("{UPLOAD_REPORT}?{query}"),
        body.as_bytes().to_vec(),
        "text/plain",
    )
    .await
}

async fn upload_lib(c: &mut Client, body: &[u8]) -> Response {
    c.post_raw(
        &format!("{UPLOAD_LIB}?fileName=lib.xml"),
        body.to_vec(),
        "application/xml",
    )
    .await
}

async fn row(c: &mut Client, survey_id: &str) -> Value {
    let list = c.get_json(LIST).await;
    list.as_array()
        .unwrap()
        .iter()
        .find(|r| r["SurveyId"] == survey_id)
        .unwrap_or_else(|| panic!("{survey_id} not listed: {list}"))
        .clone()
}

const TEMPLATE: &str = "# technologist copy\nsurvey: BIH-001\ntitle: Intake for <PATIENT>\nheader: Technologist copy\nfooter: Checked on <DATE> for <MRN>\n\nsection: Body first\nquestions: weight_lb, height_in\nsection: Screening history\nquestions: prior_mammogram\n";

#[tokio::test]
async fn bad_templates_are_refused_with_the_line_at_fault_and_good_ones_listed() {
    let server = TestServer::demo().await;
    let mut pm = server.signed_in(MANAGER).await;
    let cases = [
        (
            "survey: BIH-001\nsection: A\nquestion: height_in\n",
            "Line 3: unknown key 'question'",
        ),
        (
            "survey: BIH-001\nsection: A\nquestions: height_in, nope\n",
            "Line 3: survey 'BIH-001' has no answerable question 'nope'",
        ),
        (
            "\nsurvey: NOPE-1\nsection: A\nquestions: a\n",
            "Line 2: survey 'NOPE-1' is not uploaded",
        ),
        (
            "survey: BIH-001\ntitle: Hi <NAME>\nsection: A\nquestions: height_in\n",
            "Line 2: unknown token '<NAME>'",
        ),
        (
            "survey: BIH-001\nquestions: height_in\n",
            "Line 2: 'questions' before any 'section'",
        ),
        ("hello", "Line 1: expected 'key: value'"),
    ];
    for (text, want) in cases {
        let e = upload_report(&mut pm, "fileName=t.txt&name=Bad", text)
            .await
            .expect_error(StatusCode::BAD_REQUEST);
        let msg = e["Message"].as_str().unwrap();
        assert!(msg.starts_with("The template was not uploaded: "), "{msg}");
        assert!(msg.contains(want), "{msg} lacks {want}");
    }
    let e = pm
        .post_raw(
            &format!("{UPLOAD_REPORT}?fileName=t.txt"),
            b"survey: A\n\xff\n".to_vec(),
            "text/plain",
        )
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert!(e["Message"]
        .as_str()
        .unwrap()
        .contains("Line 2: the file is not UTF-8 text"));
    let e = upload_report(&mut pm, "fileName=t.txt&type=Pdf", TEMPLATE)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        e["Message"],
        "Type must be CustomSummary, Custom or CustomWithImages."
    );
    upload_report(
        &mut pm,
        "fileName=t.txt&resultFileNamePattern=a%20b",
        TEMPLATE,
    )
    .await
    .expect_error(StatusCode::BAD_REQUEST);
    let big = format!("{TEMPLATE}{}", "# padding\n".repeat(7000));
    let e = upload_report(&mut pm, "fileName=big.txt", &big)
        .await
        .expect_error(StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(e["Message"], "'big.txt' is larger than 64 KB.");
    assert_eq!(pm.get_json(REPORTS).await, json!([]), "nothing stored");

    // Defaults: type CustomSummary, the file's name, the spec's pattern, overWrite false.
    let r = upload_report(&mut pm, "fileName=intake.txt", TEMPLATE)
        .await
        .expect(StatusCode::OK);
    assert_eq!(r["name"], "intake");
    assert_eq!(r["type"], "CustomSummary");
    assert_eq!(r["resultFileNamePattern"], "Summary_<SSN>_<DATE>_<GUID>");
    assert_eq!(r["includeSignature"], false);
    let e = upload_report(&mut pm, "fileName=intake.txt&type=Custom", TEMPLATE)
        .await
        .expect_error(StatusCode::CONFLICT);
    assert_eq!(
        e["Message"],
        "Report 'intake' already exists. Choose Overwrite to replace it."
    );
    upload_report(
        &mut pm,
        "fileName=intake.txt&type=Custom&includeSignature=true&overWrite=true",
        TEMPLATE,
    )
    .await
    .expect(StatusCode::OK);
    let list = pm.get_json(REPORTS).await;
    assert_eq!(list.as_array().unwrap().len(), 1);
    let row = &list[0];
    for key in ["name", "type", "templatePath", "includeSignature"] {
        assert!(row.get(key).is_some(), "{key} missing: {row}");
    }
    assert_eq!(row["type"], "Custom");
    assert_eq!(row["templatePath"], "SurveyReports/intake.txt");
    assert_eq!(row["includeSignature"], true);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'SurveyReportUploaded'")
            .await,
        2
    );
}

// --- the template shapes the summary PDF -------------------------------------------------

async fn janes_history_row(server: &TestServer) -> i64 {
    let jane = server
        .count_sql("SELECT patient_id FROM users WHERE username = 'jane.doe'")
        .await;
    let any = server
        .count_sql(
            "SELECT COALESCE(MIN(q.id), 0) FROM survey_queue q JOIN survey_definitions d ON d.id = q.survey_definition_id
             WHERE q.status = 'Assigned' AND d.survey_id = 'BIH-001'",
        )
        .await;
    assert!(any > 0, "the demo has an Assigned BIH-001 row");
    server
        .execute_sql(&format!(
            "UPDATE survey_queue SET patient_id = {jane} WHERE id = {any}"
        ))
        .await;
    any
}

async fn submit_history(server: &TestServer, queue: i64) {
    server
        .execute_sql(
            "UPDATE settings SET body = '{\"GenerateSummaryReport\": true, \"SummaryPdfHeaderText\": \"General header\"}' WHERE group_name = 'SurveyGeneral'",
        )
        .await;
    let answers = json!({
        "height_in": "64", "weight_lb": "150", "sex_at_birth": "female", "has_symptoms": "no",
        "prior_mammogram": "no", "had_biopsy": "no", "had_breast_cancer": "no", "other_cancer": "no",
        "chest_radiation": "no", "genetic_test": "no", "family_cancer": "no", "menopause": "no",
        "pregnant_now": "no", "breastfeeding": "no", "births": "0", "has_implants": "no"
    });
    let mut staff = server.signed_in(FRONT_DESK).await;
    let body =
        json!({"ChangeId": "tpl-1", "BaseRevision": 0, "Answers": answers, "PageId": "implants"});
    let done = staff
        .post_json(&format!("/api/surveyRun/{queue}/submit"), &body)
        .await
        .expect(StatusCode::OK);
    assert_eq!(done["StatusKey"], "Completed", "{done}");
}

async fn summary_of(server: &TestServer, queue: i64) -> (String, Vec<u8>) {
    let sql =
        format!("SELECT COUNT(*) FROM letters WHERE survey_queue_id = {queue} AND pdf IS NOT NULL");
    for _ in 0..150 {
        if server.count_sql(&sql).await > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let log = server
        .count_sql(&format!(
            "SELECT id FROM survey_logs WHERE survey_queue_id = {queue}"
        ))
        .await;
    let mut staff = server.signed_in(FRONT_DESK).await;
    let r = staff
        .get(&format!("/api/surveyRun/log/{log}/summaryPdf"))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let name = r
        .header("content-disposition")
        .unwrap()
        .split("filename=\"")
        .nth(1)
        .unwrap()
        .trim_end_matches('"')
        .to_owned();
    (name, r.body.clone())
}

fn pdf_text(pdf: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.pdf");
    std::fs::write(&path, pdf).unwrap();
    let out = std::process::Command::new("pdftotext")
        .arg("-raw")
        .arg(&path)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils) runs");
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[tokio::test]
async fn a_custom_template_shapes_the_summary_pdf() {
    let server = TestServer::demo().await;
    let mut pm = server.signed_in(MANAGER).await;
    upload_report(
        &mut pm,
        "fileName=intake.txt&name=Intake&type=Custom&includeSignature=true&resultFileNamePattern=Intake_<SSN>_<GUID>",
        TEMPLATE,
    )
    .await
    .expect(StatusCode::OK);
    let queue = janes_history_row(&server).await;
    submit_history(&server, queue).await;
    let (name, pdf) = summary_of(&server, queue).await;
    assert!(
        name.starts_with("Intake_"),
        "the template's file name pattern: {name}"
    );
    let text = pdf_text(&pdf);
    assert!(
        text.contains("Intake for Jane"),
        "title with <PATIENT>: {text}"
    );
    assert!(text.contains("Technologist copy"), "{text}");
    assert!(
        !text.contains("General header"),
        "the template's header replaces the setting's"
    );
    assert!(text.contains("Checked on "), "{text}");
    let body = text.find("Body first").expect("first section");
    let weight = text.find("Weight (pounds) 150").expect("weight");
    let height = text.find("Height (inches) 64").expect("height");
    let history = text.find("Screening history").expect("second section");
    assert!(
        body < weight && weight < height && height < history,
        "template order: {text}"
    );
    assert!(
        text.contains("Have you had a mammogram before? No"),
        "{text}"
    );
    assert!(
        !text.contains("Sex assigned at birth"),
        "questions not in the template are left out"
    );
    assert!(!text.contains("Medical History Summary Report"), "{text}");
    assert!(
        !text.contains("Date of birth"),
        "type Custom has no patient box"
    );
    assert!(
        text.contains("Patient signature"),
        "includeSignature: {text}"
    );
}

// --- libraries -------------------------------------------------------------------------

const LIB: &str = "<library id=\"common\">\n<list id=\"sides\">\n<option value=\"left\"><text>Left</text><text lang=\"es\">Izquierdo</text></option>\n<option value=\"right\"><text>Right</text></option>\n</list>\n</library>\n";

fn survey_using_library() -> String {
    "<survey id=\"LIB-1\"><name>Library user</name><page id=\"p\"><title>T</title>\n<question id=\"side\" type=\"single\" storage=\"history.symptom_side\" library=\"common\" list=\"sides\"><text>Which side?</text></question>\n</page></survey>\n".to_owned()
}

#[tokio::test]
async fn libraries_make_missing_libs_real_and_delete_asks_by_file_name() {
    let server = TestServer::demo().await;
    let mut pm = server.signed_in(MANAGER).await;
    pm.post_raw(
        "/api/admin/UploadSurveyXml?fileName=lib-1.xml",
        survey_using_library().into_bytes(),
        "application/xml",
    )
    .await
    .expect(StatusCode::OK);
    let r = row(&mut pm, "LIB-1").await;
    assert_eq!(r["MissingLibs"], json!(["common"]), "{r}");
    assert_eq!(r["Error"], Value::Null);

    let lib = upload_lib(&mut pm, LIB.as_bytes())
        .await
        .expect(StatusCode::OK);
    assert_eq!(lib["FileName"], "common.xml");
    assert_eq!(lib["Lists"], json!(["sides"]));
    assert_eq!(row(&mut pm, "LIB-1").await["MissingLibs"], json!([]));
    let libs = pm.get_json(LIBS).await;
    assert_eq!(libs[0]["UsedBy"], json!(["LIB-1"]), "{libs}");
    // The lexicon carries the library's answers in every language it holds.
    let lex = pm.get_json("/exportLexicon/file").await;
    let s = lex
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["SurveyId"] == "LIB-1")
        .unwrap();
    assert_eq!(s["Questions"][0]["Answers"][0]["Text"]["es"], "Izquierdo");

    pm.post_json(DELETE_LIB, &json!({"fileName": "common.xml"}))
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        row(&mut pm, "LIB-1").await["MissingLibs"],
        json!(["common"])
    );
    pm.post_json(DELETE_LIB, &json!({"fileName": "common.xml"}))
        .await
        .expect_error(StatusCode::NOT_FOUND);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action IN ('SurveyLibraryUploaded', 'SurveyLibraryDeleted')")
            .await,
        2
    );

    // Bad libraries: refused with the line; too large: 413.
    let e = upload_lib(&mut pm, b"<library id=\"x\">\n<list id=\"l\"/>\n</library>")
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        e["Message"],
        "The library was not uploaded: Line 2: list 'l' needs at least one <option>"
    );
    let big = vec![b' '; 300 * 1024];
    let e = upload_lib(&mut pm, &big)
        .await
        .expect_error(StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(e["Message"], "'lib.xml' is larger than 256 KB.");
    let e = upload_lib(&mut pm, &vec![b' '; 2 * 1024 * 1024])
        .await
        .expect_error(StatusCode::PAYLOAD_TOO_LARGE);
    assert!(e["Message"].as_str().unwrap().contains("larger than 1 MiB"));
}

// --- schema sync ----------------------------------------------------------------------

#[tokio::test]
async fn the_schema_sync_is_what_missing_storages_is_checked_against() {
    let server = TestServer::demo().await;
    let mut pm = server.signed_in(MANAGER).await;
    let before = pm.get_json(SCHEMA).await;
    assert_eq!(before["LastCacheDate"], Value::Null);
    assert_eq!(row(&mut pm, "PES-010").await["MissingStorages"], json!([]));
    // An old synchronised schema that knows only one column.
    server
        .execute_sql("INSERT INTO storage_schema_cache (id, last_cache_date, columns_json) VALUES (1, 1000, '[\"screening.pregnant\"]')")
        .await;
    let stale = pm.get_json(SCHEMA).await;
    assert_eq!(stale["LastCacheDate"], "1970-01-01T00:00:01Z");
    assert_eq!(stale["Columns"], 1);
    let missing = row(&mut pm, "PES-010").await["MissingStorages"].clone();
    assert!(missing.as_array().unwrap().len() > 2, "{missing}");
    assert!(!missing
        .as_array()
        .unwrap()
        .contains(&json!("screening.pregnant")));

    let fresh = pm
        .post_json(REFRESH, &json!({}))
        .await
        .expect(StatusCode::OK);
    let at = parse_iso_utc(fresh["LastCacheDate"].as_str().unwrap()).unwrap();
    assert!((at - now_unix()).abs() < 60, "{fresh}");
    assert_eq!(pm.get_json(SCHEMA).await, fresh);
    assert_eq!(row(&mut pm, "PES-010").await["MissingStorages"], json!([]));
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'StorageSchemaSynchronised'")
            .await,
        1
    );
}

// --- lexicon --------------------------------------------------------------------------

#[tokio::test]
async fn the_lexicon_has_every_question_and_answer_in_every_language_as_json_and_zip() {
    let server = TestServer::demo().await;
    let mut pm = server.signed_in(MANAGER).await;
    let r = pm.get("/exportLexicon/file").await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.content_type().starts_with("application/json"));
    let lex = r.json();
    let bih = lex
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["SurveyId"] == "BIH-001")
        .expect("BIH-001 in the lexicon")
        .clone();
    assert_eq!(bih["Languages"][0], "en");
    let q = bih["Questions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|q| q["Id"] == "sex_at_birth")
        .unwrap();
    assert!(q["Text"]["en"]
        .as_str()
        .unwrap()
        .starts_with("Sex assigned at birth"));
    assert!(q["Answers"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a["Id"] == "female"));
    // Yes/no answers are labelled in all six languages.
    let yes = bih["Questions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|q| q["Id"] == "prior_mammogram")
        .unwrap()["Answers"][0]["Text"]
        .clone();
    assert_eq!(yes.as_object().unwrap().len(), 6, "{yes}");

    let z = pm.get("/exportLexicon/zip").await;
    assert_eq!(z.status, StatusCode::OK);
    assert_eq!(z.content_type(), "application/zip");
    let mut archive = zip::ZipArchive::new(Cursor::new(z.body.clone())).unwrap();
    let mut text = String::new();
    archive
        .by_name("lexicon/BIH-001.json")
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    let from_zip: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(from_zip, bih, "the zip holds the same lexicon");
}

// --- roles and hostile input --------------------------------------------------------------

#[tokio::test]
async fn only_program_managers_and_no_input_gives_a_5xx() {
    let server = TestServer::demo().await;
    for account in [FRONT_DESK, CLIENT_ADMIN, JANE] {
        let mut c = server.signed_in(account).await;
        for path in [
            REPORTS,
            LIBS,
            SCHEMA,
            "/exportLexicon/file",
            "/exportLexicon/zip",
        ] {
            c.get(path).await.expect_error(StatusCode::FORBIDDEN);
        }
        upload_report(&mut c, "fileName=t.txt", TEMPLATE)
            .await
            .expect_error(StatusCode::FORBIDDEN);
        upload_lib(&mut c, LIB.as_bytes())
            .await
            .expect_error(StatusCode::FORBIDDEN);
        c.post_json(DELETE_LIB, &json!({"fileName": "x.xml"}))
            .await
            .expect_error(StatusCode::FORBIDDEN);
        c.post_json(REFRESH, &json!({}))
            .await
            .expect_error(StatusCode::FORBIDDEN);
    }
    let mut anon = server.client();
    for path in [
        REPORTS,
        LIBS,
        SCHEMA,
        "/exportLexicon/file",
        "/exportLexicon/zip",
    ] {
        anon.get(path).await.expect_error(StatusCode::UNAUTHORIZED);
    }

    let mut pm = server.signed_in(MANAGER).await;
    let long = "x".repeat(5000);
    let nasty: Vec<Vec<u8>> = vec![
        Vec::new(),
        b"\0\0\0".to_vec(),
        b"<library".to_vec(),
        "survey: ".repeat(3000).into_bytes(),
        format!("survey: BIH-001\nsection: {long}\nquestions: {long}\n").into_bytes(),
        "<library id=\"a\"><list id=\"b\"><option value=\"c\"><text lang=\"xx\">d</text></option></list></library>".into(),
        "ü\u{202e}\u{FEFF}".repeat(1000).into_bytes(),
        (0..=255u8).cycle().take(10_000).collect(),
    ];
    for (i, body) in nasty.iter().enumerate() {
        for query in [
            "fileName=x".to_owned(),
            format!("fileName={long}&name={long}&type={long}&resultFileNamePattern={long}"),
            "name=%00&type=%FF&overWrite=maybe&includeSignature=%0A".to_owned(),
        ] {
            let r = pm
                .post_raw(
                    &format!("{UPLOAD_REPORT}?{query}"),
                    body.clone(),
                    "text/plain",
                )
                .await;
            assert!(
                r.status.as_u16() < 500,
                "report case {i} {query}: {}",
                r.text()
            );
            let r = pm
                .post_raw(
                    &format!("{UPLOAD_LIB}?{query}"),
                    body.clone(),
                    "application/xml",
                )
                .await;
            assert!(r.status.as_u16() < 500, "library case {i}: {}", r.text());
        }
    }
    for body in [
        json!({}),
        json!({"fileName": long}),
        json!({"fileName": 5}),
        json!([]),
    ] {
        let r = pm.post_json(DELETE_LIB, &body).await;
        assert!(r.status.is_client_error(), "{body}: {}", r.text());
    }
    server.assert_alive().await;
}
