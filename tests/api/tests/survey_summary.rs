//! Survey summary report PDF (issue 5 part 7; spec 04 GenerateSummaryReport and the PDF
//! options): a submitted survey makes a PDF of the questions shown and their answers, read back
//! with `pdftotext`; header, page numbers and file name per the settings; staff and the own
//! patient open it, another patient gets 404; no PDF when the setting is off. The summary *form*
//! report (GenerateSummaryFormReport): every question of the survey with its answer, within the
//! SummaryFormPdfTopMargin / BottomMargin margins (word boxes read back with `pdftotext -bbox`).

use std::time::Duration;

use api_tests::*;

/// An Assigned BIH-001 row of Jane's.
async fn janes_history_row(server: &TestServer) -> i64 {
    let jane = server
        .count_sql("SELECT patient_id FROM users WHERE username = 'jane.doe'")
        .await;
    let id = server
        .count_sql(&format!(
            "SELECT COALESCE(MIN(q.id), 0) FROM survey_queue q JOIN survey_definitions d ON d.id = q.survey_definition_id
             WHERE q.status = 'Assigned' AND d.survey_id = 'BIH-001' AND q.patient_id = {jane}"
        ))
        .await;
    let id = if id > 0 {
        id
    } else {
        // Give Jane one of the demo's Assigned BIH-001 rows.
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
    };
    id
}

/// Jane's MRN, as her documents list shows it (Ssn).
async fn jane_mrn(server: &TestServer) -> String {
    let mut jane = server.signed_in(JANE).await;
    let docs = jane
        .post_json(
            "/api/documents/loadDocuments",
            &json!({"TimezoneOffset": 0}),
        )
        .await
        .expect(StatusCode::OK);
    let any = docs["list"]
        .as_array()
        .into_iter()
        .chain(docs["other"].as_array())
        .flatten()
        .next()
        .expect("Jane has letters in the demo")
        .clone();
    any["SSN"].as_str().unwrap().to_owned()
}

async fn set_summary_settings(server: &TestServer, body: &Value) {
    let text = body.to_string().replace('\'', "''");
    server
        .execute_sql(&format!(
            "UPDATE settings SET body = '{text}' WHERE group_name = 'SurveyGeneral'"
        ))
        .await;
}

/// Answers to BIH-001: no symptoms and no biopsy (their follow-up questions are skipped), a prior
/// mammogram (its date and place shown), two relatives with cancer.
fn answers(relatives: usize) -> Value {
    let rows: Vec<Value> = (0..relatives)
        .map(|i| match i % 2 {
            0 => json!({"relation": "mother", "side": "maternal", "cancer_type": "breast", "age_at_diagnosis": (50 + i).to_string()}),
            _ => json!({"relation": "aunt", "cancer_type": "ovarian"}),
        })
        .collect();
    json!({
        "height_in": "64", "weight_lb": "150", "sex_at_birth": "female",
        "has_symptoms": "no",
        "prior_mammogram": "yes", "prior_mammogram_date": "2024-06-15", "prior_mammogram_place": "Harbor Imaging, Springfield",
        "had_biopsy": "no",
        "had_breast_cancer": "no", "other_cancer": "no", "chest_radiation": "no", "genetic_test": "negative",
        "family_cancer": "yes", "relatives": rows,
        "menopause": "no",
        "pregnant_now": "no", "breastfeeding": "no", "births": "2", "first_birth_age": "28",
        "has_implants": "no"
    })
}

async fn submit(server: &TestServer, queue: i64, answers: &Value) {
    let mut staff = server.signed_in(FRONT_DESK).await;
    let body = json!({"ChangeId": "summary-1", "BaseRevision": 0, "Answers": answers, "PageId": "implants"});
    let r = staff
        .send(
            Method::POST,
            &format!("/api/surveyRun/{queue}/submit"),
            Some((body.to_string().into_bytes(), "application/json")),
            Csrf::Auto,
            &[],
        )
        .await;
    let done = r.expect(StatusCode::OK);
    assert_eq!(done["StatusKey"], "Completed", "{done}");
}

/// Waits for the background summary of a queue row (at most 15 s); its count.
async fn wait_for_summary(server: &TestServer, queue: i64) -> i64 {
    let sql =
        format!("SELECT COUNT(*) FROM letters WHERE survey_queue_id = {queue} AND pdf IS NOT NULL");
    for _ in 0..150 {
        let n = server.count_sql(&sql).await;
        if n > 0 {
            return n;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    0
}

async fn log_of(server: &TestServer, queue: i64) -> i64 {
    server
        .count_sql(&format!(
            "SELECT id FROM survey_logs WHERE survey_queue_id = {queue}"
        ))
        .await
}

/// The text of each page (pdftotext -raw keeps the drawing order: a question's lines, then its
/// answer), whitespace collapsed.
fn pages_text(pdf: &[u8]) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("summary.pdf");
    std::fs::write(&path, pdf).unwrap();
    let out = std::process::Command::new("pdftotext")
        .arg("-raw")
        .arg(&path)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils) runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    text.split('\u{c}')
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|p| !p.is_empty())
        .collect()
}

fn is_guid(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    parts.iter().map(|p| p.len()).collect::<Vec<_>>() == [8, 4, 4, 4, 12]
        && parts
            .iter()
            .all(|p| p.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[tokio::test]
async fn a_submitted_survey_has_a_summary_of_the_questions_shown_for_staff_and_its_patient() {
    let server = TestServer::demo().await;
    set_summary_settings(
        &server,
        &json!({
            "GenerateSummaryReport": true,
            "SummaryPdfHeaderText": "Breast Imaging Medical History - Confidential",
            "IsAddPageNumberToSummaryPdf": true, "PdfPageNumberFontSize": 10, "PdfPageNumberAlignment": "Right",
            "IsAddHeaderToAllPagesToSummaryPdf": true
        }),
    )
    .await;
    let queue = janes_history_row(&server).await;
    let mrn = jane_mrn(&server).await;
    // Twenty relatives: the report runs over more than one page.
    submit(&server, queue, &answers(20)).await;
    assert_eq!(
        wait_for_summary(&server, queue).await,
        1,
        "one summary after the submission"
    );
    let log = log_of(&server, queue).await;

    // Staff open it from the View of the survey.
    let mut staff = server.signed_in(FRONT_DESK).await;
    // Issue 16: a report opened is a Site Usage DocumentLoaded (13) event, as a letter is.
    let loaded = |who: &str| {
        format!(
            "SELECT COUNT(*) FROM site_usage_events e JOIN users u ON u.id = e.user_id
             WHERE e.event_type = 13 AND u.username = '{who}' AND e.ip = '127.0.0.1'
               AND e.url = '/api/surveyRun/log/summaryPdf'
               AND e.patient_id = (SELECT id FROM patients WHERE mrn = '{mrn}')
               AND e.target_id = (SELECT CAST(MAX(l.id) AS TEXT) FROM letters l JOIN patients p ON p.id = l.patient_id WHERE p.mrn = '{mrn}' AND l.file_name LIKE 'Summary_%')"
        )
    };
    assert_eq!(server.count_sql(&loaded("frontdesk")).await, 0);
    let view = staff.get_json(&format!("/api/surveyRun/log/{log}")).await;
    assert_eq!(view["HasSummaryPdf"], true, "{view}");
    let r = staff
        .get(&format!("/api/surveyRun/log/{log}/summaryPdf"))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(r.content_type(), "application/pdf");
    let disposition = r.header("content-disposition").unwrap();
    let name = disposition
        .split("filename=\"")
        .nth(1)
        .unwrap()
        .trim_end_matches('"')
        .to_owned();
    let stem = name
        .strip_suffix(".pdf")
        .unwrap_or_else(|| panic!("{name}"));
    let parts: Vec<&str> = stem.splitn(4, '_').collect();
    assert_eq!(parts.len(), 4, "{name}");
    assert_eq!(parts[0], "Summary");
    assert_eq!(parts[1], mrn, "<SSN> is the patient's identifier");
    let today = portal_api::fmt::iso_utc(now_unix() * 1000)[..10].replace('-', "");
    assert_eq!(parts[2], today, "<DATE> is the completion day");
    assert!(is_guid(parts[3]), "{name}");
    let pdf = r.body.clone();
    assert_eq!(
        server.count_sql(&loaded("frontdesk")).await,
        1,
        "staff opened the report"
    );

    let pages = pages_text(&pdf);
    assert!(pages.len() >= 2, "{} pages", pages.len());
    let all = pages.join(" ");
    for shown in [
        // question, then its answer, as the report prints them
        "Height (inches) 64",
        "Weight (pounds) 150",
        "Sex assigned at birth Female",
        "Do you have any breast problems or symptoms today? No",
        "Have you had a mammogram before? Yes",
        "Date of your last mammogram 06/15/2024",
        "Where was it done? (facility and city) Harbor Imaging, Springfield",
        "Have you ever had a breast biopsy or breast surgery? No",
        "Have you had genetic testing for breast cancer risk (e.g. BRCA1/BRCA2)? Yes, negative",
        "Has a blood relative had breast, ovarian, pancreatic or prostate cancer? Yes",
        "List each relative with cancer.",
        "Relative Side of the family Cancer type Age at diagnosis",
        "Mother Mother's side Breast 50",
        "Aunt - Ovarian -",
        "Have you gone through menopause? No",
        "How many children have you given birth to? 2",
        "Your age at your first birth 28",
        "Do you have breast implants? No",
        // shown but left empty
        "Are you of Ashkenazi Jewish descent? Not answered",
    ] {
        assert!(all.contains(shown), "missing {shown:?} in:\n{all}");
    }
    for skipped in [
        "Which symptoms do you have?",
        "Which breast?",
        "When did you first notice it?",
        "Tell us about each biopsy or surgery.",
        "Age at diagnosis Treatment received",
        "Which cancer?",
        "Which gene?",
        "Age at menopause",
        "Implant type",
        "These questions help the radiologist",
    ] {
        assert!(
            !all.contains(skipped),
            "skipped question {skipped:?} is in the report"
        );
    }
    let total = pages.len();
    for (i, page) in pages.iter().enumerate() {
        assert!(
            page.contains("Breast Imaging Medical History - Confidential"),
            "header on page {}: {page}",
            i + 1
        );
        assert!(
            page.contains(&format!("Page {} of {total}", i + 1)),
            "page number on page {}",
            i + 1
        );
        assert!(
            page.contains(&format!("Patient ID {mrn}")),
            "patient on page {}",
            i + 1
        );
    }

    // Jane finds it among her documents and opens it by its access token.
    let mut jane = server.signed_in(JANE).await;
    let docs = jane
        .post_json(
            "/api/documents/loadDocuments",
            &json!({"TimezoneOffset": 0}),
        )
        .await
        .expect(StatusCode::OK);
    let summary = docs["other"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["Type"] == "Survey Summary")
        .unwrap_or_else(|| panic!("no Survey Summary in {docs}"))
        .clone();
    let token = summary["AccessToken"].as_str().unwrap().to_owned();
    let r = jane
        .get(&format!("/api/documents/letterPdf?accessToken={token}"))
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.body, pdf, "the same PDF");
    assert!(
        r.header("content-disposition").unwrap().contains(&name),
        "{:?}",
        r.header("content-disposition")
    );
    assert_eq!(server.count_sql(&loaded("jane.doe")).await, 0);
    let r = jane
        .get(&format!("/api/surveyRun/log/{log}/summaryPdf"))
        .await;
    assert_eq!((r.status, r.body == pdf), (StatusCode::OK, true));
    assert_eq!(
        server.count_sql(&loaded("jane.doe")).await,
        1,
        "the patient opened it"
    );

    // Another patient: 404 by either way; nobody signed in: 401.
    let mut maria = server.signed_in(MARIA).await;
    maria
        .get(&format!("/api/surveyRun/log/{log}/summaryPdf"))
        .await
        .expect_error(StatusCode::NOT_FOUND);
    maria
        .get(&format!("/api/documents/letterPdf?accessToken={token}"))
        .await
        .expect_error(StatusCode::NOT_FOUND);
    let view = maria.get(&format!("/api/surveyRun/log/{log}")).await;
    assert_eq!(view.status, StatusCode::NOT_FOUND);
    // A refused open is no document loaded.
    assert_eq!(server.count_sql(&loaded("maria.garcia")).await, 0);
    server
        .client()
        .get(&format!("/api/surveyRun/log/{log}/summaryPdf"))
        .await
        .expect_error(StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn header_on_the_first_page_only_no_page_numbers_and_the_patients_language() {
    let server = TestServer::demo().await;
    set_summary_settings(
        &server,
        &json!({
            "GenerateSummaryReport": true,
            "SummaryPdfHeaderText": "Historial confidencial",
            "IsAddPageNumberToSummaryPdf": false,
            "IsAddHeaderToAllPagesToSummaryPdf": false
        }),
    )
    .await;
    let queue = janes_history_row(&server).await;
    server.execute_sql(&format!("UPDATE patients SET language = 'es' WHERE id = (SELECT patient_id FROM survey_queue WHERE id = {queue})")).await;
    submit(&server, queue, &answers(20)).await;
    assert_eq!(wait_for_summary(&server, queue).await, 1);
    let log = log_of(&server, queue).await;
    let mut staff = server.signed_in(MANAGER).await;
    let r = staff
        .get(&format!("/api/surveyRun/log/{log}/summaryPdf"))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let pages = pages_text(&r.body);
    assert!(pages.len() >= 2);
    assert!(pages[0].contains("Historial confidencial"));
    for page in &pages[1..] {
        assert!(
            !page.contains("Historial confidencial"),
            "header only on the first page: {page}"
        );
        // The fixed texts in Spanish too (SummaryPdf_* labels).
        assert!(page.contains("(continuación)"), "{page}");
    }
    let all = pages.join(" ");
    assert!(!all.contains("Page 1 of"), "no page numbers");
    // Spanish, with its accents, as the patient read it.
    for shown in [
        "¿Algún familiar consanguíneo ha tenido cáncer de seno, ovario, páncreas o próstata? Sí",
        "Familiar Lado de la familia Tipo de cáncer Edad al diagnóstico",
        "Madre Materno Seno 50",
        "Tía - Ovario -",
    ] {
        assert!(all.contains(shown), "missing {shown:?} in:\n{all}");
    }
}

/// A run saved without its language (before issue 21): the patient's language, Chinese, drawn in
/// the embedded CJK font (tests/api/tests/pdf_languages.rs covers the runner's language).
#[tokio::test]
async fn a_run_without_its_language_is_written_in_the_patients_language() {
    let server = TestServer::demo().await;
    set_summary_settings(&server, &json!({"GenerateSummaryReport": true})).await;
    let queue = janes_history_row(&server).await;
    server.execute_sql(&format!("UPDATE patients SET language = 'zh' WHERE id = (SELECT patient_id FROM survey_queue WHERE id = {queue})")).await;
    submit(&server, queue, &answers(1)).await;
    assert_eq!(wait_for_summary(&server, queue).await, 1);
    let log = log_of(&server, queue).await;
    let mut staff = server.signed_in(MANAGER).await;
    let r = staff
        .get(&format!("/api/surveyRun/log/{log}/summaryPdf"))
        .await;
    let all = pages_text(&r.body).join(" ");
    assert!(
        all.contains("乳腺影像病史"),
        "the survey's Chinese name: {all}"
    );
    assert!(all.contains("病史摘要报告"), "{all}");
    assert!(!all.contains("??"), "no unreadable text: {all}");
}

/// Every word of a PDF with its page: (page, page height, yMin, yMax), y from the top of the
/// page in points (`pdftotext -bbox`).
fn word_boxes(pdf: &[u8]) -> Vec<(usize, f64, f64, f64, String)> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("form.pdf");
    std::fs::write(&path, pdf).unwrap();
    let out = std::process::Command::new("pdftotext")
        .arg("-bbox")
        .arg(&path)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils) runs");
    assert!(out.status.success());
    let html = String::from_utf8(out.stdout).unwrap();
    let attr = |tag: &str, name: &str| -> f64 {
        let at = tag.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
        tag[at..].split('"').next().unwrap().parse().unwrap()
    };
    let (mut page, mut height, mut words) = (0, 0.0, Vec::new());
    for piece in html.split('<').skip(1) {
        if piece.starts_with("page ") {
            page += 1;
            height = attr(piece, "height");
        } else if piece.starts_with("word ") {
            let text = piece.split('>').nth(1).unwrap_or("").to_owned();
            words.push((page, height, attr(piece, "yMin"), attr(piece, "yMax"), text));
        }
    }
    words
}

async fn wait_for_form(server: &TestServer, queue: i64) -> i64 {
    let sql = format!("SELECT COUNT(*) FROM survey_form_reports WHERE survey_queue_id = {queue}");
    for _ in 0..150 {
        let n = server.count_sql(&sql).await;
        if n > 0 {
            return n;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    0
}

#[tokio::test]
async fn the_summary_form_report_has_every_question_with_its_answer_within_the_margins() {
    let server = TestServer::demo().await;
    // The form report on its own (the summary report off), 2 inches blank at the top, 1.5 at the
    // bottom.
    set_summary_settings(
        &server,
        &json!({"GenerateSummaryReport": false, "GenerateSummaryFormReport": true,
                "SummaryFormPdfTopMargin": "144", "SummaryFormPdfBottomMargin": "108"}),
    )
    .await;
    let queue = janes_history_row(&server).await;
    let mrn = jane_mrn(&server).await;
    submit(&server, queue, &answers(2)).await;
    assert_eq!(wait_for_form(&server, queue).await, 1, "one form report");
    assert_eq!(
        server
            .count_sql(&format!(
                "SELECT COUNT(*) FROM letters WHERE survey_queue_id = {queue}"
            ))
            .await,
        0,
        "no summary report: its own switch is off"
    );
    let log = log_of(&server, queue).await;
    let mut staff = server.signed_in(FRONT_DESK).await;
    // The View links it (and not the summary report, which was not made).
    let view = staff.get_json(&format!("/api/surveyRun/log/{log}")).await;
    assert_eq!(
        (
            view["HasSummaryFormPdf"].clone(),
            view["HasSummaryPdf"].clone()
        ),
        (json!(true), json!(false)),
        "{view}"
    );
    let r = staff
        .get(&format!("/api/surveyRun/log/{log}/summaryFormPdf"))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(r.content_type(), "application/pdf");
    let disposition = r.header("content-disposition").unwrap();
    let name = disposition
        .split("filename=\"")
        .nth(1)
        .unwrap()
        .trim_end_matches('"');
    let parts: Vec<&str> = name.trim_end_matches(".pdf").splitn(4, '_').collect();
    assert_eq!(parts[..2], ["SummaryForm", mrn.as_str()], "{name}");
    assert!(is_guid(parts[3]), "{name}");
    let pdf = r.body.clone();
    // SUMMARY_PDF_DIR=dir keeps the file, to look at the pages (pdftoppm -png).
    if let Ok(dir) = std::env::var("SUMMARY_PDF_DIR") {
        std::fs::write(format!("{dir}/summary-form.pdf"), &pdf).unwrap();
    }

    let all = pages_text(&pdf).join(" ");
    for shown in [
        "Medical History Form",
        // answered, as written
        "Height (inches) 64",
        "Date of your last mammogram 06/15/2024",
        "Where was it done? (facility and city) Harbor Imaging, Springfield",
        // a choice question with all its options
        "Sex assigned at birth Female Male",
        "Have you had a mammogram before? Yes No",
        // the relatives table
        "Mother Mother's side Breast 50",
        // questions the skip logic did not ask are on the form too, marked
        "Which symptoms do you have?",
        "Tell us about each biopsy or surgery.",
        "Age at menopause",
        "Not asked (skipped for an earlier answer)",
    ] {
        assert!(all.contains(shown), "missing {shown:?} in:\n{all}");
    }
    assert!(all.contains(&format!("Patient ID: {mrn}")), "{all}");
    let words = word_boxes(&pdf);
    let pages = words.iter().map(|w| w.0).max().unwrap();
    assert!(all.contains(&format!("Page {pages} of {pages}")), "{all}");
    // Nothing is printed in the margins, on any page.
    for (page, height, y_min, y_max, text) in &words {
        assert!(
            *y_min >= 144.0 - 0.5 && *y_max <= height - 108.0 + 0.5,
            "{text:?} on page {page} at {y_min}..{y_max} is inside a margin"
        );
    }
    // The header starts at the top margin, the footer ends at the bottom one.
    let first = words
        .iter()
        .filter(|w| w.0 == 1)
        .map(|w| w.2)
        .fold(f64::MAX, f64::min);
    assert!(
        first < 144.0 + 12.0,
        "the clinic name under the top margin: {first}"
    );
    let last = words
        .iter()
        .filter(|w| w.0 == 1)
        .map(|w| w.3)
        .fold(0.0, f64::max);
    assert!(
        last > 792.0 - 108.0 - 12.0,
        "the page number above the bottom margin: {last}"
    );

    // The patient opens her own; another patient gets 404.
    let mut jane = server.signed_in(JANE).await;
    let own = jane
        .get(&format!("/api/surveyRun/log/{log}/summaryFormPdf"))
        .await;
    assert_eq!(own.status, StatusCode::OK);
    assert_eq!(own.body, pdf);
    let mut other = server.signed_in(MARIA).await;
    other
        .get(&format!("/api/surveyRun/log/{log}/summaryFormPdf"))
        .await
        .expect_error(StatusCode::NOT_FOUND);
    // Each opening is a Site Usage DocumentLoaded (13) event, as the summary's is; the refused
    // one is not.
    let form_loaded = |who: &str| {
        format!(
            "SELECT COUNT(*) FROM site_usage_events e JOIN users u ON u.id = e.user_id
             WHERE e.event_type = 13 AND u.username = '{who}'
               AND e.url = '/api/surveyRun/log/summaryFormPdf'"
        )
    };
    assert_eq!(server.count_sql(&form_loaded("jane.doe")).await, 1);
    assert_eq!(server.count_sql(&form_loaded("maria.garcia")).await, 0);

    // Smaller margins take effect on the next report: 0 is the standard 36 points.
    set_summary_settings(
        &server,
        &json!({"GenerateSummaryFormReport": true, "SummaryFormPdfTopMargin": "0", "SummaryFormPdfBottomMargin": "0"}),
    )
    .await;
    let db = portal_api::Db::open(server.database_url()).await.unwrap();
    assert!(portal_api::routes::surveys::make_summary_form(&db, queue)
        .await
        .unwrap());
    let again = staff
        .get(&format!("/api/surveyRun/log/{log}/summaryFormPdf"))
        .await;
    assert_eq!(again.status, StatusCode::OK);
    let pdf = again.body;
    let words = word_boxes(&pdf);
    let top = words
        .iter()
        .filter(|w| w.0 == 1)
        .map(|w| w.2)
        .fold(f64::MAX, f64::min);
    assert!((36.0 - 0.5..36.0 + 12.0).contains(&top), "{top}");
    assert!(
        words.iter().map(|w| w.0).max().unwrap() < pages,
        "more room on a page, fewer pages"
    );
}

#[tokio::test]
async fn no_summary_when_generate_summary_report_is_off() {
    let server = TestServer::demo().await;
    // The default: off.
    let queue = janes_history_row(&server).await;
    submit(&server, queue, &answers(1)).await;
    // The summary would be made within milliseconds; give it ample time to show it is not.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(
        server
            .count_sql(&format!(
                "SELECT COUNT(*) FROM letters WHERE survey_queue_id = {queue}"
            ))
            .await,
        0
    );
    let log = log_of(&server, queue).await;
    let mut staff = server.signed_in(FRONT_DESK).await;
    let view = staff.get_json(&format!("/api/surveyRun/log/{log}")).await;
    assert_eq!(view["HasSummaryPdf"], false);
    assert_eq!(view["HasSummaryFormPdf"], false);
    staff
        .get(&format!("/api/surveyRun/log/{log}/summaryPdf"))
        .await
        .expect_error(StatusCode::NOT_FOUND);
    let mut jane = server.signed_in(JANE).await;
    let docs = jane
        .post_json(
            "/api/documents/loadDocuments",
            &json!({"TimezoneOffset": 0}),
        )
        .await
        .expect(StatusCode::OK);
    assert!(!docs.to_string().contains("Survey Summary"));
    // Nor a summary form report (GenerateSummaryFormReport, off by default).
    assert_eq!(
        server
            .count_sql(&format!(
                "SELECT COUNT(*) FROM survey_form_reports WHERE survey_queue_id = {queue}"
            ))
            .await,
        0
    );
    staff
        .get(&format!("/api/surveyRun/log/{log}/summaryFormPdf"))
        .await
        .expect_error(StatusCode::NOT_FOUND);
}
