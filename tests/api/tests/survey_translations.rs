//! Issue 21, the surveys in six languages: the translation coverage per survey package
//! (`GET /api/survey/TranslationCoverage`): the three shipped surveys are complete in all six
//! languages; an upload missing texts lists them (id and English) per language; program managers
//! only.

use api_tests::*;

const COVERAGE: &str = "/api/survey/TranslationCoverage";
const LANGUAGES: [&str; 6] = ["en", "es", "zh", "km", "vi", "tl"];

fn survey_of(list: &Value, survey_id: &str) -> Value {
    list.as_array()
        .expect("an array")
        .iter()
        .find(|s| s["SurveyId"] == survey_id)
        .unwrap_or_else(|| panic!("{survey_id} not listed: {list}"))
        .clone()
}

fn language(survey: &Value, code: &str) -> Value {
    survey["Languages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["Language"] == code)
        .unwrap_or_else(|| panic!("{code} missing: {survey}"))
        .clone()
}

#[tokio::test]
async fn the_shipped_surveys_are_complete_in_six_languages() {
    let server = TestServer::demo().await;
    let mut pm = server.signed_in(MANAGER).await;
    let list = pm.get_json(COVERAGE).await;
    for (id, name) in [
        ("BIH-001", "Breast Imaging History"),
        ("PES-010", "Pre-Exam Screening"),
        ("MRI-003", "Breast MRI Safety Screening"),
    ] {
        let s = survey_of(&list, id);
        assert_eq!(s["Name"], name);
        let codes: Vec<&str> = s["Languages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["Language"].as_str().unwrap())
            .collect();
        assert_eq!(codes, LANGUAGES);
        for code in LANGUAGES {
            let l = language(&s, code);
            assert_eq!(l["Percent"], 100, "{id} {code}: {l}");
            assert_eq!(l["Missing"], json!([]), "{id} {code}");
            assert_eq!(l["Translated"], l["Total"]);
            assert!(l["Total"].as_u64().unwrap() > 15, "{id} {code}: {l}");
        }
    }
}

/// Name and page in English and Spanish, one question in English only, one answer with a
/// Vietnamese text but no Spanish: 5 items.
const PARTIAL: &str = r#"<survey id="TR-1" version="1">
  <name lang="en">Partial</name><name lang="es">Parcial</name>
  <page id="p"><title lang="en">Page</title><title lang="es">Página</title>
    <question id="side" type="single" storage="history.symptom_side">
      <text lang="en">Which side?</text>
      <option value="left"><text lang="en">Left</text><text lang="vi">Bên trái</text></option>
      <option value="right"><text lang="en">Right</text><text lang="es">Derecho</text></option>
    </question>
  </page>
</survey>"#;

#[tokio::test]
async fn a_package_missing_texts_lists_them_per_language() {
    let server = TestServer::demo().await;
    let mut pm = server.signed_in(MANAGER).await;
    pm.post_raw(
        "/api/admin/UploadSurveyXml?fileName=tr-1.xml&overWrite=false",
        PARTIAL.as_bytes().to_vec(),
        "application/xml",
    )
    .await
    .expect(StatusCode::OK);
    let s = survey_of(&pm.get_json(COVERAGE).await, "TR-1");
    assert_eq!(s["Name"], "Partial");
    let en = language(&s, "en");
    assert_eq!(
        (en["Percent"].clone(), en["Total"].clone()),
        (json!(100), json!(5))
    );
    let es = language(&s, "es");
    assert_eq!(es["Translated"], 3);
    assert_eq!(es["Percent"], 60);
    assert_eq!(
        es["Missing"],
        json!([
            {"Id": "side", "English": "Which side?"},
            {"Id": "side=left", "English": "Left"},
        ])
    );
    let vi = language(&s, "vi");
    assert_eq!(vi["Translated"], 1);
    assert_eq!(vi["Percent"], 20);
    let vi_missing: Vec<&str> = vi["Missing"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["Id"].as_str().unwrap())
        .collect();
    assert_eq!(vi_missing, ["name", "page:p", "side", "side=right"]);
    let km = language(&s, "km");
    assert_eq!(
        (km["Percent"].clone(), km["Translated"].clone()),
        (json!(0), json!(0))
    );
    assert_eq!(km["Missing"].as_array().unwrap().len(), 5);
}

#[tokio::test]
async fn only_program_managers_read_the_coverage() {
    let server = TestServer::demo().await;
    for account in [FRONT_DESK, CLIENT_ADMIN, JANE] {
        let mut c = server.signed_in(account).await;
        c.get(COVERAGE).await.expect_error(StatusCode::FORBIDDEN);
    }
    let mut anon = server.client();
    anon.get(COVERAGE)
        .await
        .expect_error(StatusCode::UNAUTHORIZED);
}
