//! GET /api/Configuration/LoadLabels and LoadLabelValues: the patient-screen keys in the six
//! languages of spec 03 §9, with English defaults and an English fallback.

use api_tests::*;

const LANGUAGES: [&str; 6] = [
    "english",
    "spanish",
    "chinese",
    "cambodian",
    "vietnamese",
    "tagalog",
];

#[tokio::test]
async fn every_label_has_six_languages_and_english_defaults() {
    let server = TestServer::demo().await;
    let labels = server
        .client()
        .get_json("/api/Configuration/LoadLabels")
        .await;
    let labels = labels.as_array().unwrap();
    for key in [
        "MedicalHistory_SurveyExpired_Title",
        "Home_PendingSurvey",
        "Home_UnreadLetter",
        "Documents_UnreadTab",
    ] {
        let label = labels
            .iter()
            .find(|l| l["Key"] == key)
            .unwrap_or_else(|| panic!("{key} missing"));
        let languages: Vec<&str> = label["Translations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["Language"].as_str().unwrap())
            .collect();
        assert_eq!(languages, LANGUAGES, "{label}");
        assert!(
            !label["Translations"][0]["Value"]
                .as_str()
                .unwrap()
                .is_empty(),
            "English default for {key}"
        );
    }
}

#[tokio::test]
async fn values_follow_the_language_with_english_fallback() {
    let server = TestServer::demo().await;
    let mut client = server.client();
    let en = client
        .get_json("/api/Configuration/LoadLabelValues?language=english")
        .await;
    assert_eq!(en["Home_PendingSurvey"], "pending survey");
    assert_eq!(en["Home_UnreadLetter"], "unread letter");
    assert_eq!(en["MedicalHistory_SurveyExpired_Title"], "Survey Expired");
    let es = client
        .get_json("/api/Configuration/LoadLabelValues?language=es")
        .await;
    assert_eq!(es["Home_PendingSurvey"], "encuesta pendiente");
    assert_eq!(es["MedicalHistory_SurveyExpired_Title"], "Encuesta vencida");
    // Shipped translations (wasm-core/labels) need no stored value.
    let km = client
        .get_json("/api/Configuration/LoadLabelValues?language=cambodian")
        .await;
    assert_eq!(km["Home_PendingSurvey"], "កម្រងសំណួរដែលមិនទាន់បំពេញ");
    let vi = client
        .get_json("/api/Configuration/LoadLabelValues?language=vietnamese")
        .await;
    assert_eq!(vi["Home_PendingActions"], "Việc cần làm");
    let unknown = client
        .get_json("/api/Configuration/LoadLabelValues?language=klingon")
        .await;
    assert_eq!(unknown, en);
}
