//! Dynamic Labels Management (spec 03 §2, §3 "Dynamic label", §7): GET LoadLabels / LoadLabelValues,
//! POST SaveLabelValues. Roles, a saved text reaching LoadLabelValues at once, markup and
//! duplicate keys refused with nothing stored, revisions (409), the New Label form, audit rows.

use api_tests::*;

const LANGUAGES: [&str; 6] = [
    "english",
    "spanish",
    "chinese",
    "cambodian",
    "vietnamese",
    "tagalog",
];

const SAVE: &str = "/api/Configuration/SaveLabelValues";

fn label(labels: &Value, key: &str) -> Value {
    labels
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["Key"] == key)
        .unwrap_or_else(|| panic!("{key} missing in {labels}"))
        .clone()
}

fn set_text(label: &mut Value, language: &str, text: &str) {
    let i = LANGUAGES.iter().position(|l| *l == language).unwrap();
    label["Translations"][i]["Value"] = json!(text);
}

fn new_label(key: &str, english: &str) -> Value {
    json!({
        "Key": key, "Title": "A new label", "Category": "Survey", "Revision": 0,
        "Translations": LANGUAGES.iter().map(|l| json!({"Language": l, "Value": if *l == "english" { english } else { "" }})).collect::<Vec<_>>()
    })
}

#[tokio::test]
async fn only_settings_admins_save_labels() {
    let server = TestServer::demo().await;
    let body = json!({"Labels": [], "New": []});
    assert_eq!(
        server.client().post_json(SAVE, &body).await.status,
        StatusCode::UNAUTHORIZED
    );
    for account in [JANE, FRONT_DESK] {
        let mut c = server.signed_in(account).await;
        assert_eq!(
            c.post_json(SAVE, &body).await.status,
            StatusCode::FORBIDDEN,
            "{}",
            account.username
        );
    }
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    admin.post_json(SAVE, &body).await.expect(StatusCode::OK);
}

#[tokio::test]
async fn a_saved_text_is_served_at_once_and_audited() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let labels = manager.get_json("/api/Configuration/LoadLabels").await;
    let mut welcome = label(&labels, "Home_PendingSurvey");
    set_text(&mut welcome, "spanish", "encuesta por hacer");
    set_text(&mut welcome, "tagalog", "survey na hinihintay");
    let audits = server
        .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'LabelsSaved'")
        .await;
    let saved = manager
        .post_json(SAVE, &json!({"Labels": [welcome], "New": []}))
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        label(&saved, "Home_PendingSurvey")["Revision"],
        json!(welcome["Revision"].as_i64().unwrap() + 1)
    );
    let mut patient = server.client();
    let es = patient
        .get_json("/api/Configuration/LoadLabelValues?language=spanish")
        .await;
    assert_eq!(es["Home_PendingSurvey"], "encuesta por hacer");
    let tl = patient
        .get_json("/api/Configuration/LoadLabelValues?language=tl")
        .await;
    assert_eq!(tl["Home_PendingSurvey"], "survey na hinihintay");
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'LabelsSaved'")
            .await,
        audits + 1
    );
}

#[tokio::test]
async fn markup_and_bad_shapes_are_refused_and_nothing_is_stored() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let labels = manager.get_json("/api/Configuration/LoadLabels").await;
    let mut good = label(&labels, "Home_UnreadLetter");
    set_text(&mut good, "spanish", "should not be stored");
    let mut bad = label(&labels, "Home_PendingSurvey");
    set_text(&mut bad, "english", "<img src=x onerror=alert(1)>");
    let answer = manager
        .post_json(SAVE, &json!({"Labels": [good, bad], "New": []}))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        answer["Errors"]["Home_PendingSurvey.english"],
        json!(["Labels are plain text: remove the markup (text between < and >)"]),
        "{answer}"
    );
    let es = manager
        .get_json("/api/Configuration/LoadLabelValues?language=spanish")
        .await;
    assert_ne!(es["Home_UnreadLetter"], "should not be stored");
    // Too long, missing languages, hostile sizes: clear 400s, never a 5xx.
    let mut long = label(&labels, "Home_UnreadLetter");
    set_text(&mut long, "english", &"x".repeat(2001));
    let answer = manager
        .post_json(SAVE, &json!({"Labels": [long], "New": []}))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        answer["Errors"]["Home_UnreadLetter.english"],
        json!(["A label must be at most 2000 characters"])
    );
    let mut short = label(&labels, "Home_UnreadLetter");
    short["Translations"] = json!([{"Language": "english", "Value": "x"}]);
    manager
        .post_json(SAVE, &json!({"Labels": [short], "New": []}))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    for body in [
        json!({"Labels": "x"}),
        json!([1, 2]),
        json!({"Labels": [{"Key": 5}]}),
    ] {
        let r = manager.post_json(SAVE, &body).await;
        assert!(r.status.is_client_error(), "{body}: {}", r.status);
    }
    let huge = json!({"Labels": [], "New": [new_label(&"K".repeat(100_000), "x")]});
    let r = manager.post_json(SAVE, &huge).await;
    assert!(r.status.is_client_error(), "{}", r.status);
}

#[tokio::test]
async fn a_label_saved_by_someone_else_since_is_a_conflict() {
    let server = TestServer::demo().await;
    let mut first = server.signed_in(MANAGER).await;
    let mut second = server.signed_in(CLIENT_ADMIN).await;
    let labels = first.get_json("/api/Configuration/LoadLabels").await;
    let mut mine = label(&labels, "Documents_AllTab");
    let mut theirs = mine.clone();
    set_text(&mut mine, "chinese", "全部信件");
    set_text(&mut theirs, "chinese", "所有信件");
    first
        .post_json(SAVE, &json!({"Labels": [mine], "New": []}))
        .await
        .expect(StatusCode::OK);
    second
        .post_json(SAVE, &json!({"Labels": [theirs], "New": []}))
        .await
        .expect_error(StatusCode::CONFLICT);
    let zh = first
        .get_json("/api/Configuration/LoadLabelValues?language=chinese")
        .await;
    assert_eq!(zh["Documents_AllTab"], "全部信件");
}

#[tokio::test]
async fn the_new_label_form_adds_a_label_once() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let saved = manager
        .post_json(
            SAVE,
            &json!({"Labels": [], "New": [new_label("Survey_Welcome_Title", "Welcome to your survey")]}),
        )
        .await
        .expect(StatusCode::OK);
    let added = label(&saved, "Survey_Welcome_Title");
    assert_eq!(added["Category"], "Survey");
    assert_eq!(added["Title"], "A new label");
    assert_eq!(added["Revision"], 1);
    let en = manager
        .get_json("/api/Configuration/LoadLabelValues?language=english")
        .await;
    assert_eq!(en["Survey_Welcome_Title"], "Welcome to your survey");
    // The same key again (any case), a built-in key, a bad key, a missing title: 400.
    for (key, message) in [
        (
            "survey_welcome_title",
            "A label with this key already exists",
        ),
        ("Home_Welcome", "A label with this key already exists"),
        (
            "bad key!",
            "Key may contain only letters, digits and underscores (at most 100 characters)",
        ),
    ] {
        let answer = manager
            .post_json(SAVE, &json!({"Labels": [], "New": [new_label(key, "x")]}))
            .await
            .expect_error(StatusCode::BAD_REQUEST);
        let messages = answer["Errors"]
            .as_object()
            .unwrap()
            .values()
            .flat_map(|m| m.as_array().unwrap().clone())
            .collect::<Vec<_>>();
        assert!(messages.contains(&json!(message)), "{key}: {answer}");
    }
    let mut untitled = new_label("Another_Key", "x");
    untitled["Title"] = json!(" ");
    untitled["Category"] = json!("Elsewhere");
    let answer = manager
        .post_json(SAVE, &json!({"Labels": [], "New": [untitled]}))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        answer["Errors"]["New.0.Title"],
        json!(["Title is required"])
    );
    assert_eq!(
        answer["Errors"]["New.0.Category"],
        json!(["Choose one of: Portal, Survey"])
    );
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM label_keys WHERE LOWER(key) = 'survey_welcome_title'")
            .await,
        1
    );
}
