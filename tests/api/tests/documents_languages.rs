//! The Documents page's texts in the reader's language (issue 21): the column titles and button
//! texts a clinic left at their shipped defaults (DocumentsColumnTitle, DocumentsOther) are the
//! `DocumentsSetting_` labels in the page's language (`?language=`, else the patient's stored
//! one); a text the clinic wrote is shown as written in every language; the clinic's edit of a
//! label is used.

use api_tests::*;

const SETTINGS: &str = "/api/documents/documentsSettings";

async fn set_group(server: &TestServer, group: &str, body: Value) {
    server
        .execute_sql(&format!(
            "INSERT INTO settings (group_name, version, body, updated_at) VALUES ('{group}', 1, '{body}', 0)
             ON CONFLICT (group_name) DO UPDATE SET body = '{body}'"
        ))
        .await;
}

#[tokio::test]
async fn default_titles_and_buttons_follow_the_language_and_the_clinics_own_stay() {
    let server = TestServer::demo().await;
    let mut jane = server.signed_in(JANE).await;

    // English by default, the groups' shipped texts.
    let en = jane.get_json(SETTINGS).await;
    assert_eq!(en["DocPatNameColumnTitle"], json!("Patient Name"), "{en}");
    assert_eq!(en["DocViewBtnText"], json!("View"));
    assert_eq!(en["DocAckBtnText"], json!("Acknowledge"));

    // The page's language.
    let es = jane.get_json(&format!("{SETTINGS}?language=spanish")).await;
    assert_eq!(
        es["DocPatNameColumnTitle"],
        json!("Nombre del paciente"),
        "{es}"
    );
    assert_eq!(es["DocViewWhenColumnTitle"], json!("Fecha de envío"));
    assert_eq!(es["DocTypeColumnTitle"], json!("Tipo de carta"));
    assert_eq!(es["DocViewBtnText"], json!("Ver"));
    assert_eq!(es["DocAckBtnText"], json!("Confirmar lectura"));
    let zh = jane.get_json(&format!("{SETTINGS}?language=zh")).await;
    assert_eq!(zh["DocAckColumnTitle"], json!("已确认已读"), "{zh}");
    assert_eq!(zh["DocViewBtnText"], json!("查看"));
    // Not one of the six: English, never an error.
    let other = jane.get_json(&format!("{SETTINGS}?language=%3Cb%3E")).await;
    assert_eq!(other["DocTypeColumnTitle"], json!("Letter Type"));

    // Without ?language= the patient's stored language.
    server
        .execute_sql("UPDATE patients SET language = 'vi' WHERE id = (SELECT patient_id FROM users WHERE username = 'jane.doe')")
        .await;
    let vi = jane.get_json(SETTINGS).await;
    assert_eq!(vi["DocTypeColumnTitle"], json!("Loại thư"), "{vi}");

    // A text the clinic wrote is shown as written in every language; a blank one is the default.
    set_group(
        &server,
        "DocumentsColumnTitle",
        json!({"DocTypeColumnTitle": "Kind of letter", "DocReadColumnTitle": ""}),
    )
    .await;
    set_group(
        &server,
        "DocumentsOther",
        json!({"DocViewBtnText": "Open letter", "DocAckBtnText": "Acknowledge"}),
    )
    .await;
    let es = jane.get_json(&format!("{SETTINGS}?language=spanish")).await;
    assert_eq!(es["DocTypeColumnTitle"], json!("Kind of letter"), "{es}");
    assert_eq!(es["DocViewBtnText"], json!("Open letter"));
    assert_eq!(es["DocAckBtnText"], json!("Confirmar lectura"));
    assert_eq!(es["DocReadColumnTitle"], json!("Leída"));
    assert_eq!(es["DocPatNameColumnTitle"], json!("Nombre del paciente"));

    // The clinic's edit of the label (Dynamic Labels) is what a default shows.
    let mut manager = server.signed_in(MANAGER).await;
    let labels = manager.get_json("/api/Configuration/LoadLabels").await;
    let mut label = labels
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["Key"] == "DocumentsSetting_DocStudyDateColTitle")
        .unwrap_or_else(|| panic!("the title is a label: {labels}"))
        .clone();
    for t in label["Translations"].as_array_mut().unwrap() {
        if t["Language"] == "spanish" {
            t["Value"] = json!("Fecha de la mamografía");
        }
    }
    manager
        .post_json(
            "/api/Configuration/SaveLabelValues",
            &json!({"Labels": [label], "New": []}),
        )
        .await
        .expect(StatusCode::OK);
    let es = jane.get_json(&format!("{SETTINGS}?language=es")).await;
    assert_eq!(
        es["DocStudyDateColTitle"],
        json!("Fecha de la mamografía"),
        "{es}"
    );
    let en = jane.get_json(&format!("{SETTINGS}?language=english")).await;
    assert_eq!(en["DocStudyDateColTitle"], json!("Study Date"), "{en}");
    assert_eq!(en["DocTypeColumnTitle"], json!("Kind of letter"), "{en}");
}
