//! PDFs in six languages (issue 21). The survey summary in the language the survey was answered
//! in: Khmer, Chinese and Vietnamese summaries extract (pdftotext) with their fixed texts and the
//! patient's answers, their fonts are embedded as subsets (pdffonts) and the files stay small; a
//! clinic's edit of a SummaryPdf_* label is what the report prints; English embeds no font.
//! Letters: the text in the patient's language where the letter has one, else English.

use std::time::Duration;

use api_tests::*;

/// An Assigned BIH-001 row, given to Jane.
async fn history_row(server: &TestServer) -> i64 {
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

fn answers(place: &str) -> Value {
    json!({
        "height_in": "64", "weight_lb": "150", "sex_at_birth": "female",
        "has_symptoms": "no",
        "prior_mammogram": "yes", "prior_mammogram_date": "2024-06-15", "prior_mammogram_place": place,
        "had_biopsy": "no",
        "had_breast_cancer": "no", "other_cancer": "no", "chest_radiation": "no", "genetic_test": "negative",
        "family_cancer": "no", "menopause": "no",
        "pregnant_now": "no", "breastfeeding": "no", "births": "2", "first_birth_age": "28",
        "has_implants": "no"
    })
}

/// Submits the run in `language` (the runner's language) and returns the summary PDF and the
/// milliseconds from the submit to the stored PDF.
async fn summary_in(server: &TestServer, language: &str, place: &str) -> (Vec<u8>, u128) {
    let body = json!({"GenerateSummaryReport": true, "IsAddPageNumberToSummaryPdf": true,
                      "PdfPageNumberFontSize": 9, "PdfPageNumberAlignment": "Center"})
    .to_string();
    server
        .execute_sql(&format!(
            "UPDATE settings SET body = '{body}' WHERE group_name = 'SurveyGeneral'"
        ))
        .await;
    let queue = history_row(server).await;
    let mut staff = server.signed_in(FRONT_DESK).await;
    let body = json!({"ChangeId": format!("lang-{language}"), "BaseRevision": 0, "Answers": answers(place),
                      "PageId": "implants", "Language": language});
    let started = std::time::Instant::now();
    let r = staff
        .send(
            Method::POST,
            &format!("/api/surveyRun/{queue}/submit"),
            Some((body.to_string().into_bytes(), "application/json")),
            Csrf::Auto,
            &[],
        )
        .await;
    assert_eq!(r.expect(StatusCode::OK)["StatusKey"], "Completed");
    let sql =
        format!("SELECT COUNT(*) FROM letters WHERE survey_queue_id = {queue} AND pdf IS NOT NULL");
    for _ in 0..300 {
        if server.count_sql(&sql).await > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let elapsed = started.elapsed().as_millis();
    let log = server
        .count_sql(&format!(
            "SELECT id FROM survey_logs WHERE survey_queue_id = {queue}"
        ))
        .await;
    let r = staff
        .get(&format!("/api/surveyRun/log/{log}/summaryPdf"))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    (r.body, elapsed)
}

/// Output of a poppler tool on the PDF.
fn poppler(tool: &str, args: &[&str], pdf: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("summary.pdf");
    std::fs::write(&path, pdf).unwrap();
    let out = std::process::Command::new(tool)
        .args(args)
        .arg(&path)
        .arg("-")
        .output()
        .unwrap_or_else(|e| panic!("{tool} (poppler-utils): {e}"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The extracted text, whitespace collapsed.
fn text_of(pdf: &[u8]) -> String {
    poppler("pdftotext", &["-raw"], pdf)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// pdffonts' rows: (name, type, embedded, subset).
fn fonts_of(pdf: &[u8]) -> Vec<(String, String, bool, bool)> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("summary.pdf");
    std::fs::write(&path, pdf).unwrap();
    let out = std::process::Command::new("pdffonts")
        .arg(&path)
        .output()
        .expect("pdffonts (poppler-utils)");
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines()
        .skip(2)
        .map(|line| {
            let cols: Vec<&str> = line.split_whitespace().collect();
            // name type [type words] encoding emb sub uni object ID
            let n = cols.len();
            (
                cols[0].to_owned(),
                cols[1..n - 6].join(" "),
                cols[n - 5] == "yes",
                cols[n - 4] == "yes",
            )
        })
        .collect()
}

fn assert_contains(all: &str, expected: &[&str]) {
    for shown in expected {
        assert!(all.contains(shown), "missing {shown:?} in:\n{all}");
    }
}

/// Every embedded font is a subset; the named families are there.
fn assert_subset_fonts(pdf: &[u8], families: &[&str]) {
    let fonts = fonts_of(pdf);
    for family in families {
        let font = fonts
            .iter()
            .find(|f| f.0.contains(family))
            .unwrap_or_else(|| panic!("no {family} font in {fonts:?}"));
        assert!(font.2 && font.3, "{family} embedded as a subset: {font:?}");
        assert!(font.1.starts_with("CID"), "a CID font: {font:?}");
        assert!(
            font.0.as_bytes()[6] == b'+',
            "subset tag in the name: {font:?}"
        );
    }
}

#[tokio::test]
async fn a_khmer_summary_is_shaped_embedded_and_extracts_as_khmer() {
    let server = TestServer::demo().await;
    let place = "មន្ទីរពេទ្យកាល់ម៉ែត ភ្នំពេញ";
    let (pdf, ms) = summary_in(&server, "km", place).await;
    let all = text_of(&pdf);
    assert_contains(
        &all,
        &[
            // the survey's Khmer name, fixed texts from summary-pdf.json, the answer as typed
            "ប្រវត្តិការថតរូបភាពដោះ",
            "របាយការណ៍សង្ខេបប្រវត្តិវេជ្ជសាស្ត្រ",
            "ថ្ងៃខែឆ្នាំកំណើត",
            "ទំព័រ 1 នៃ",
            "ព័ត៌មានសម្ងាត់របស់អ្នកជំងឺ",
            place,
        ],
    );
    assert!(!all.contains("Page 1 of"), "{all}");
    assert_subset_fonts(&pdf, &["NotoSansKhmer"]);
    // The Khmer font alone is ~ 50 KB; its subset a few KB.
    assert!(pdf.len() < 60_000, "Khmer summary is {} bytes", pdf.len());
    println!("khmer summary: {} bytes, {ms} ms", pdf.len());
}

#[tokio::test]
async fn a_chinese_summary_embeds_a_subset_of_noto_sans_cjk_sc() {
    let server = TestServer::demo().await;
    let place = "旧金山港湾影像中心";
    let (pdf, ms) = summary_in(&server, "zh", place).await;
    let all = text_of(&pdf);
    assert_contains(
        &all,
        &[
            "乳腺影像病史",
            "病史摘要报告",
            "出生日期",
            "病历号",
            "第 1 页，共 2 页",
            "患者保密信息",
            place,
        ],
    );
    assert_subset_fonts(&pdf, &["NotoSansCJKsc"]);
    // The CJK font is 19 MB; the subset of a page's characters stays small.
    assert!(
        pdf.len() < 120_000,
        "Chinese summary is {} bytes",
        pdf.len()
    );
    println!("chinese summary: {} bytes, {ms} ms", pdf.len());
}

#[tokio::test]
async fn a_vietnamese_summary_keeps_its_diacritics() {
    let server = TestServer::demo().await;
    let place = "Bệnh viện Chợ Rẫy, Thành phố Hồ Chí Minh";
    let (pdf, _) = summary_in(&server, "vi", place).await;
    let all = text_of(&pdf);
    assert_contains(
        &all,
        &[
            "Tiền sử chẩn đoán hình ảnh tuyến vú",
            "Báo cáo tóm tắt tiền sử bệnh",
            "Số hồ sơ bệnh án",
            "Trang 1 / 2",
            place,
        ],
    );
    assert_subset_fonts(&pdf, &["NotoSans-"]);
    assert!(
        !all.contains("??") && !all.contains('\u{FFFD}'),
        "nothing unreadable: {all}"
    );
}

#[tokio::test]
async fn english_embeds_no_font_and_a_clinic_edit_of_a_label_is_printed() {
    let server = TestServer::demo().await;
    // The clinic renames the Khmer report title on the Dynamic Labels page.
    let mut manager = server.signed_in(MANAGER).await;
    let labels = manager.get_json("/api/Configuration/LoadLabels").await;
    let mut title = labels
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["Key"] == "SummaryPdf_Title")
        .unwrap_or_else(|| panic!("SummaryPdf_Title is a label: {labels}"))
        .clone();
    for t in title["Translations"].as_array_mut().unwrap() {
        if t["Language"] == "cambodian" {
            t["Value"] = json!("របាយការណ៍ប្រវត្តិ (គ្លីនិក)");
        }
    }
    manager
        .post_json(
            "/api/Configuration/SaveLabelValues",
            &json!({"Labels": [title], "New": []}),
        )
        .await
        .expect(StatusCode::OK);
    let (pdf, ms) = summary_in(&server, "en", "Harbor Imaging, Springfield").await;
    let all = text_of(&pdf);
    assert_contains(
        &all,
        &[
            "Breast Imaging History",
            "Medical History Summary Report",
            "Page 1 of 2",
            "Harbor Imaging, Springfield",
        ],
    );
    let fonts = fonts_of(&pdf);
    assert!(
        fonts.iter().all(|f| !f.2),
        "English uses the standard fonts only: {fonts:?}"
    );
    assert!(pdf.len() < 12_000, "English summary is {} bytes", pdf.len());
    println!("english summary: {} bytes, {ms} ms", pdf.len());
    let (pdf, _) = summary_in(&server, "km", "ភ្នំពេញ").await;
    assert!(text_of(&pdf).contains("របាយការណ៍ប្រវត្តិ (គ្លីនិក)"));
}

#[tokio::test]
async fn a_letter_is_drawn_in_the_patients_language_when_it_has_that_text() {
    let server = TestServer::demo().await;
    let jane = server
        .count_sql("SELECT patient_id FROM users WHERE username = 'jane.doe'")
        .await;
    let letter = server
        .count_sql(&format!(
            "SELECT COALESCE(MIN(id), 0) FROM letters WHERE patient_id = {jane} AND pdf IS NULL AND body <> ''"
        ))
        .await;
    assert!(letter > 0, "Jane has a letter drawn from its text");
    let khmer = "សូមជម្រាបសួរ។ លទ្ធផលការថតកាំរស្មីដោះរបស់អ្នកធម្មតា។";
    let translations = json!({"km": khmer, "vi": ""}).to_string();
    server
        .execute_sql(&format!(
            "UPDATE letters SET body = 'Your mammogram results are normal.', body_translations = '{translations}' WHERE id = {letter}"
        ))
        .await;
    let mut jane_client = server.signed_in(JANE).await;
    let docs = jane_client
        .post_json(
            "/api/documents/loadDocuments",
            &json!({"TimezoneOffset": 0}),
        )
        .await
        .expect(StatusCode::OK);
    let token = docs["list"]
        .as_array()
        .into_iter()
        .chain(docs["other"].as_array())
        .flatten()
        .find(|l| l["Id"] == letter)
        .and_then(|l| l["AccessToken"].as_str())
        .unwrap_or_else(|| panic!("letter {letter} in Jane's documents: {docs}"))
        .to_owned();
    let read = |language: &'static str| {
        let server = &server;
        let token = token.clone();
        async move {
            server
                .execute_sql(&format!(
                    "UPDATE patients SET language = '{language}' WHERE id = {jane}"
                ))
                .await;
            let mut c = server.signed_in(JANE).await;
            let r = c
                .get(&format!("/api/documents/letterPdf?accessToken={token}"))
                .await;
            assert_eq!(r.status, StatusCode::OK);
            text_of(&r.body)
        }
    };
    // Khmer: the letter has it.
    let km = read("km").await;
    assert!(km.contains(khmer), "{km}");
    assert!(!km.contains("results are normal"), "{km}");
    // Vietnamese (an empty text) and Tagalog (none): English.
    for language in ["vi", "tl"] {
        let text = read(language).await;
        assert!(
            text.contains("Your mammogram results are normal."),
            "{language}: {text}"
        );
    }
}

/// Jane's first letter drawn from its text, as a PDF, with her record's language `language`.
async fn janes_letter_in(server: &TestServer, language: &str) -> Vec<u8> {
    let jane = server
        .count_sql("SELECT patient_id FROM users WHERE username = 'jane.doe'")
        .await;
    let letter = server
        .count_sql(&format!(
            "SELECT COALESCE(MIN(id), 0) FROM letters WHERE patient_id = {jane} AND pdf IS NULL AND body <> ''"
        ))
        .await;
    assert!(letter > 0, "Jane has a letter drawn from its text");
    server
        .execute_sql(&format!(
            "UPDATE patients SET language = '{language}' WHERE id = {jane}"
        ))
        .await;
    let mut client = server.signed_in(JANE).await;
    let docs = client
        .post_json(
            "/api/documents/loadDocuments",
            &json!({"TimezoneOffset": 0}),
        )
        .await
        .expect(StatusCode::OK);
    let token = docs["list"]
        .as_array()
        .into_iter()
        .chain(docs["other"].as_array())
        .flatten()
        .find(|l| l["Id"] == letter)
        .and_then(|l| l["AccessToken"].as_str())
        .unwrap_or_else(|| panic!("letter {letter} in Jane's documents: {docs}"))
        .to_owned();
    let r = client
        .get(&format!("/api/documents/letterPdf?accessToken={token}"))
        .await;
    assert_eq!(r.status, StatusCode::OK);
    // LETTER_PDF_DIR=dir keeps the files, to look at the pages (pdftoppm -png).
    if let Ok(dir) = std::env::var("LETTER_PDF_DIR") {
        std::fs::write(format!("{dir}/letter-{language}.pdf"), &r.body).unwrap();
    }
    r.body
}

#[tokio::test]
async fn a_letters_fixed_texts_are_in_the_patients_language_chinese_and_khmer() {
    let server = TestServer::demo().await;
    // Chinese: the letter has no Chinese body (English), but the subject box, the date's names,
    // the closing and the footer are Chinese, in an embedded subset of Noto Sans CJK SC.
    let zh = janes_letter_in(&server, "zh").await;
    let text = text_of(&zh);
    assert_contains(
        &text,
        &[
            "患者",
            "出生日期",
            "检查日期",
            "此致敬礼",
            "患者保密信息",
            "病历号",
            "星期",
        ],
    );
    for english in [
        "Sincerely",
        "confidential patient information",
        "Date of birth",
        "Page 1 of",
    ] {
        assert!(!text.contains(english), "{english}: {text}");
    }
    assert!(text.contains("第 1 页") || text.contains("第1页"), "{text}");
    assert_subset_fonts(&zh, &["NotoSansCJKsc"]);

    // Khmer: shaped, extracted as Khmer.
    let km = janes_letter_in(&server, "km").await;
    let text = text_of(&km);
    assert_contains(
        &text,
        &["ដោយក្តីគោរព", "ថ្ងៃខែឆ្នាំកំណើត", "ព័ត៌មានសម្ងាត់របស់អ្នកជំងឺ", "កម្មវត្ថុ៖"],
    );
    assert!(!text.contains("Sincerely"), "{text}");
    assert_subset_fonts(&km, &["NotoSansKhmer"]);

    // English stays English.
    let en = text_of(&janes_letter_in(&server, "en").await);
    assert_contains(
        &en,
        &[
            "Sincerely,",
            "Date of birth",
            "confidential patient information",
        ],
    );
}
