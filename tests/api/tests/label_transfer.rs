//! Dynamic Labels export and re-import for a human translator (issue 21): one language's labels
//! (shipped and the clinic's) as CSV, read back with a preview, then stored all or nothing in one
//! transaction with an audit row; bad rows (unknown key, markup, placeholders) each named and
//! nothing stored; a label saved since the export: 409; size limits; garbage never a 5xx; roles.

use api_tests::*;

const EXPORT: &str = "/api/Configuration/LabelExport";
const IMPORT: &str = "/api/Configuration/LabelImport";

/// Replaces the Translation column of `key`'s row (the file's last column, unquoted here).
fn with_translation(csv: &str, key: &str, text: &str) -> String {
    csv.split("\r\n")
        .map(|line| {
            if line.starts_with(&format!("{key},")) {
                let cut = line.rfind(',').unwrap();
                format!("{},{text}", &line[..cut])
            } else {
                line.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\r\n")
}

async fn spanish(client: &mut Client, key: &str) -> String {
    client
        .get_json("/api/Configuration/LoadLabelValues?language=es")
        .await[key]
        .as_str()
        .unwrap()
        .to_owned()
}

async fn import(client: &mut Client, text: &str, confirm: bool) -> Response {
    client
        .post_json(
            IMPORT,
            &json!({"Language": "spanish", "Text": text, "Confirm": confirm}),
        )
        .await
}

#[tokio::test]
async fn export_edit_preview_confirm_and_the_checks() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(MANAGER).await;
    // A clinic label with a placeholder.
    let translations: Vec<Value> = [
        "english",
        "spanish",
        "chinese",
        "cambodian",
        "vietnamese",
        "tagalog",
    ]
    .iter()
    .map(|l| json!({"Language": l, "Value": if *l == "english" { "Hello {name}" } else { "" }}))
    .collect();
    let new = json!({"Labels": [], "New": [{
        "Key": "Clinic_Greeting", "Title": "Greeting", "Category": "Portal", "Revision": 0,
        "Translations": translations
    }]});
    admin
        .post_json("/api/Configuration/SaveLabelValues", &new)
        .await
        .expect(StatusCode::OK);

    let file = admin.get_json(&format!("{EXPORT}?Language=es")).await;
    assert_eq!(file["FileName"], json!("labels-es.csv"));
    let csv = file["Text"].as_str().unwrap().to_owned();
    assert!(
        csv.starts_with("Key,Revision,Context,English,Translation\r\n"),
        "{csv}"
    );
    assert!(
        csv.contains("\r\nHome_Welcome,0,")
            && csv.contains("Welcome to the patient portal,Bienvenida al portal del paciente\r\n"),
        "a shipped label with its translation: {csv}"
    );
    assert!(
        csv.contains("\r\nClinic_Greeting,1,Greeting (Portal).,Hello {name},\r\n"),
        "{csv}"
    );
    assert!(file["Rows"].as_i64().unwrap() > 10);
    // By name too; English and unknown languages are refused.
    admin
        .get(&format!("{EXPORT}?Language=vietnamese"))
        .await
        .expect(StatusCode::OK);
    for bad in ["en", "xx", ""] {
        assert_eq!(
            admin.get(&format!("{EXPORT}?Language={bad}")).await.status,
            StatusCode::BAD_REQUEST
        );
    }

    // The translator's file: two changes. The preview stores nothing.
    let edited = with_translation(&csv, "Clinic_Greeting", "Hola {name}");
    let edited = with_translation(
        &edited,
        "Home_Welcome",
        "Le damos la bienvenida al portal del paciente",
    );
    let preview = import(&mut admin, &edited, false)
        .await
        .expect(StatusCode::OK);
    assert_eq!(preview["Applied"], json!(false));
    let changes = preview["Changes"].as_array().unwrap();
    assert_eq!(changes.len(), 2, "{preview}");
    let welcome = changes.iter().find(|c| c["Key"] == "Home_Welcome").unwrap();
    assert_eq!(welcome["Old"], json!("Bienvenida al portal del paciente"));
    assert_eq!(
        welcome["New"],
        json!("Le damos la bienvenida al portal del paciente")
    );
    assert_eq!(welcome["English"], json!("Welcome to the patient portal"));
    assert_eq!(
        spanish(&mut admin, "Home_Welcome").await,
        "Bienvenida al portal del paciente"
    );

    // Bad rows: each named, nothing stored.
    let bad = with_translation(&edited, "Home_PendingActions", "<b>Acciones</b>");
    let bad = with_translation(&bad, "Clinic_Greeting", "Hola {nombre}");
    let bad = format!("{bad}No_Such_Key,0,,x,y\r\n");
    let err = import(&mut admin, &bad, true)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    let messages: Vec<&str> = err["Errors"]["File"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(messages.len(), 3, "{err}");
    assert!(
        messages
            .iter()
            .any(|m| m.contains("(Home_PendingActions): labels are plain text")),
        "{err}"
    );
    assert!(
        messages.iter().any(|m| m.contains(
            "(Clinic_Greeting): the placeholders must be the English ones ({name}), found {nombre}"
        )),
        "{err}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("(No_Such_Key): there is no label with this key")),
        "{err}"
    );
    assert_eq!(
        spanish(&mut admin, "Home_Welcome").await,
        "Bienvenida al portal del paciente"
    );
    assert_eq!(
        spanish(&mut admin, "Clinic_Greeting").await,
        "Hello {name}",
        "English until translated"
    );

    // Confirmed: both stored, one audit row.
    let done = import(&mut admin, &edited, true)
        .await
        .expect(StatusCode::OK);
    assert_eq!(done["Applied"], json!(true));
    assert_eq!(
        spanish(&mut admin, "Home_Welcome").await,
        "Le damos la bienvenida al portal del paciente"
    );
    assert_eq!(spanish(&mut admin, "Clinic_Greeting").await, "Hola {name}");
    assert_eq!(
        server.count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'LabelsSaved' AND target_type = 'DynamicLabelsImport'").await,
        1
    );
    // The same file again: those labels changed since its export: 409, nothing stored.
    let again = with_translation(&edited, "Home_PendingSurvey", "cuestionario pendiente");
    let err = import(&mut admin, &again, true)
        .await
        .expect_error(StatusCode::CONFLICT);
    let message = err["Message"].as_str().unwrap();
    assert!(
        message.contains("Home_Welcome") && message.contains("Clinic_Greeting"),
        "{err}"
    );
    assert_eq!(
        spanish(&mut admin, "Home_PendingSurvey").await,
        "encuesta pendiente"
    );
    // A fresh export round-trips: nothing to change.
    let fresh = admin.get_json(&format!("{EXPORT}?Language=es")).await["Text"]
        .as_str()
        .unwrap()
        .to_owned();
    let same = import(&mut admin, &fresh, false)
        .await
        .expect(StatusCode::OK);
    assert_eq!(same["Changes"], json!([]), "{same}");
}

#[tokio::test]
async fn limits_garbage_and_roles() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(MANAGER).await;
    let header = "Key,Revision,Context,English,Translation\r\n";
    // Too many rows; too large a body (the API's request limit: 413).
    let many = format!("{header}{}", "K,0,,,\r\n".repeat(10_001));
    let err = import(&mut admin, &many, false)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        err["Errors"]["File"],
        json!(["The file has more than 10000 rows"])
    );
    let huge = format!("{header}{}", "x".repeat(1_100_000));
    assert_eq!(
        import(&mut admin, &huge, false).await.status,
        StatusCode::PAYLOAD_TOO_LARGE
    );
    // Garbage: 400 with a message, never a 5xx.
    for text in [
        "",
        "\u{0}\u{1}\u{2}",
        "just some words",
        "Key,Revision,Context,English,Translation\r\n\"Home_Welcome,0,,,",
        "Key,Revision,Context,English,Translation\r\nHome_Welcome,abc,,,x",
        "Key,Revision,Context,English,Translation\r\nHome_Welcome,0,x",
    ] {
        let r = import(&mut admin, text, true).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{text:?}: {}", r.text());
    }
    for body in [
        json!("x"),
        json!({"Language": "es"}),
        json!({"Language": 1, "Text": []}),
    ] {
        assert_eq!(
            admin.post_json(IMPORT, &body).await.status.as_u16() / 100,
            4
        );
    }
    let r = admin
        .post_json(
            IMPORT,
            &json!({"Language": "english", "Text": header, "Confirm": true}),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    // Settings admins only.
    assert_eq!(
        server
            .client()
            .get(&format!("{EXPORT}?Language=es"))
            .await
            .status,
        StatusCode::UNAUTHORIZED
    );
    for account in [FRONT_DESK, JANE] {
        let mut c = server.signed_in(account).await;
        assert_eq!(
            c.get(&format!("{EXPORT}?Language=es")).await.status,
            StatusCode::FORBIDDEN
        );
        assert_eq!(
            import(&mut c, header, true).await.status,
            StatusCode::FORBIDDEN
        );
    }
}

async fn vietnamese(client: &mut Client) -> String {
    client
        .get_json("/api/Configuration/LoadLabelValues?language=vi")
        .await["Home_Welcome"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// The second format: XLIFF 1.2 (?Format=XLIFF), read back the same way (preview, bad units named
/// and nothing stored, Confirm stores, a stale file 409); an unknown format: 400.
#[tokio::test]
async fn xliff_export_and_import() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(MANAGER).await;
    let file = admin
        .get_json(&format!("{EXPORT}?Language=vi&Format=XLIFF"))
        .await;
    assert_eq!(file["FileName"], json!("labels-vi.xlf"));
    assert_eq!(
        file["ContentType"],
        json!("application/x-xliff+xml; charset=utf-8")
    );
    let xliff = file["Text"].as_str().unwrap().to_owned();
    assert!(
        xliff.contains("target-language=\"vi\"")
            && xliff.contains("<trans-unit id=\"Home_Welcome\" extradata=\"revision:0\">"),
        "{xliff}"
    );
    let before = vietnamese(&mut admin).await;
    let unit = xliff
        .split("<trans-unit ")
        .find(|u| u.starts_with("id=\"Home_Welcome\""))
        .unwrap();
    let target = &unit[unit.find("<target").unwrap()..unit.find("</target>").unwrap() + 9];
    let edited = xliff.replacen(
        target,
        "<target state=\"translated\">Chào mừng quý vị đến cổng thông tin bệnh nhân</target>",
        1,
    );
    let body = |text: &str, confirm: bool| json!({"Language": "vietnamese", "Format": "xliff", "Text": text, "Confirm": confirm});
    let preview = admin
        .post_json(IMPORT, &body(&edited, false))
        .await
        .expect(StatusCode::OK);
    assert_eq!(preview["Changes"].as_array().unwrap().len(), 1, "{preview}");
    assert_eq!(preview["Changes"][0]["Old"], json!(before));
    assert_eq!(vietnamese(&mut admin).await, before);

    // Inline markup in a target and a unit without its revision: named, nothing stored.
    let bad = edited.replacen(
        "<trans-unit id=\"Home_PendingActions\" extradata=\"revision:0\">",
        "<trans-unit id=\"Home_PendingActions\">",
        1,
    );
    let bad = bad.replacen("Chào mừng quý vị", "<g id=\"1\">Chào mừng</g> quý vị", 1);
    let err = admin
        .post_json(IMPORT, &body(&bad, true))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    let messages = err["Errors"]["File"].to_string();
    assert!(
        messages.contains("(Home_Welcome): labels are plain text")
            && messages.contains("(Home_PendingActions): extradata must be the exported revision"),
        "{err}"
    );
    assert_eq!(vietnamese(&mut admin).await, before);
    // The wrong language's file, CSV sent as XLIFF, an unknown format: 400, never a 5xx.
    let wrong = json!({"Language": "spanish", "Format": "XLIFF", "Text": edited, "Confirm": false});
    let err = admin
        .post_json(IMPORT, &wrong)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert!(err["Errors"]["File"][0]
        .as_str()
        .unwrap()
        .contains("the file is for the language vi, not es"));
    admin
        .post_json(
            IMPORT,
            &body("Key,Revision,Context,English,Translation\r\n", false),
        )
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    let err = admin
        .post_json(
            IMPORT,
            &json!({"Language": "vietnamese", "Format": "pdf", "Text": "", "Confirm": false}),
        )
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert!(err["Errors"]["Format"].to_string().contains("CSV or XLIFF"));
    assert_eq!(
        admin
            .get(&format!("{EXPORT}?Language=vi&Format=doc"))
            .await
            .status,
        StatusCode::BAD_REQUEST
    );

    // Confirmed: stored; the same file again is stale (409).
    admin
        .post_json(IMPORT, &body(&edited, true))
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        vietnamese(&mut admin).await,
        "Chào mừng quý vị đến cổng thông tin bệnh nhân"
    );
    admin
        .post_json(IMPORT, &body(&edited, true))
        .await
        .expect_error(StatusCode::CONFLICT);
}
