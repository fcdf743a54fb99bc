//! GET/PUT /api/account/language (issue 21): the signed-in patient's language, set from the
//! picker and read back at the next sign-in; only the caller's own record; anything but the six
//! languages is a 400 naming them; staff have no patient language (403); reads and changes are
//! audited against the patient.

use api_tests::*;

const PATH: &str = "/api/account/language";

async fn put(client: &mut Client, language: &str) -> Response {
    client
        .send(
            Method::PUT,
            PATH,
            Some((
                serde_json::to_vec(&json!({ "Language": language })).unwrap(),
                "application/json",
            )),
            Csrf::Auto,
            &[],
        )
        .await
}

async fn read(client: &mut Client) -> String {
    client.get(PATH).await.expect(StatusCode::OK)["Language"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[tokio::test]
async fn a_patient_sets_a_language_and_reads_it_back_at_the_next_sign_in() {
    let server = TestServer::demo().await;
    let mut jane = server.signed_in(JANE).await;
    assert_eq!(read(&mut jane).await, "english");
    let set = put(&mut jane, "cambodian").await.expect(StatusCode::OK);
    assert_eq!(set["Language"], "cambodian");
    // A code is taken too and answered with the name.
    let set = put(&mut jane, "zh").await.expect(StatusCode::OK);
    assert_eq!(set["Language"], "chinese");
    put(&mut jane, "Cambodian").await.expect(StatusCode::OK);
    // Signed out and in again (a new session): the choice is still hers.
    jane.get("/api/accountApi/logout").await;
    assert_eq!(jane.get(PATH).await.status, StatusCode::UNAUTHORIZED);
    let mut again = server.signed_in(JANE).await;
    assert_eq!(read(&mut again).await, "cambodian");
    // Stored as the language's code, the column's form ('en' by default).
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM patients p JOIN users u ON u.patient_id = p.id WHERE u.username = 'jane.doe' AND p.language = 'km'")
            .await,
        1
    );
}

#[tokio::test]
async fn another_patient_neither_sees_nor_changes_it() {
    let server = TestServer::demo().await;
    let mut jane = server.signed_in(JANE).await;
    let mut maria = server.signed_in(MARIA).await;
    put(&mut jane, "vietnamese").await.expect(StatusCode::OK);
    // Maria's own preference is hers: the endpoint takes no patient id, so she can only ever
    // read and change her own.
    let before = read(&mut maria).await;
    assert_ne!(before, "vietnamese");
    put(&mut maria, "tagalog").await.expect(StatusCode::OK);
    assert_eq!(read(&mut jane).await, "vietnamese");
    assert_eq!(read(&mut maria).await, "tagalog");
    // A patient id in the body is no way around it: the field is not read.
    let r = jane
        .send(
            Method::PUT,
            PATH,
            Some((
                serde_json::to_vec(&json!({"Language": "spanish", "PatientId": 2})).unwrap(),
                "application/json",
            )),
            Csrf::Auto,
            &[],
        )
        .await;
    assert!(r.status == StatusCode::OK || r.status == StatusCode::BAD_REQUEST);
    assert_eq!(read(&mut maria).await, "tagalog");
}

#[tokio::test]
async fn a_bad_value_is_a_clear_400_and_changes_nothing() {
    let server = TestServer::demo().await;
    let mut jane = server.signed_in(JANE).await;
    put(&mut jane, "spanish").await.expect(StatusCode::OK);
    for bad in ["klingon", "", "es-MX", "<b>km</b>", &"x".repeat(5000)] {
        let body = put(&mut jane, bad)
            .await
            .expect_error(StatusCode::BAD_REQUEST);
        assert!(
            body.to_string().contains(
                "Choose one of: english, spanish, chinese, cambodian, vietnamese, tagalog"
            ),
            "{bad:?}: {body}"
        );
    }
    // Not JSON, or the wrong shape: 400, never a 5xx.
    for raw in [&b"{"[..], &b"{\"Language\": 7}"[..], &b"[]"[..]] {
        let r = jane
            .send(
                Method::PUT,
                PATH,
                Some((raw.to_vec(), "application/json")),
                Csrf::Auto,
                &[],
            )
            .await;
        assert!(r.status.is_client_error(), "{:?}: {}", raw, r.status);
    }
    assert_eq!(read(&mut jane).await, "spanish");
}

#[tokio::test]
async fn staff_and_strangers_are_refused() {
    let server = TestServer::demo().await;
    let mut anonymous = server.client();
    assert_eq!(anonymous.get(PATH).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        put(&mut anonymous, "spanish").await.status,
        StatusCode::UNAUTHORIZED
    );
    let mut manager = server.signed_in(MANAGER).await;
    assert_eq!(manager.get(PATH).await.status, StatusCode::FORBIDDEN);
    assert_eq!(
        put(&mut manager, "spanish").await.status,
        StatusCode::FORBIDDEN
    );
}

#[tokio::test]
async fn reads_and_changes_are_audited_against_the_patient() {
    let server = TestServer::demo().await;
    let mut jane = server.signed_in(JANE).await;
    read(&mut jane).await;
    put(&mut jane, "chinese").await.expect(StatusCode::OK);
    put(&mut jane, "nonsense")
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    let jane_patient = "(SELECT patient_id FROM users WHERE username = 'jane.doe')";
    assert_eq!(
        server
            .count_sql(&format!("SELECT COUNT(*) FROM audit_log WHERE action = 'LanguagePreferenceRead' AND patient_id = {jane_patient} AND category = 'UserAccount'"))
            .await,
        1
    );
    assert_eq!(
        server
            .count_sql(&format!("SELECT COUNT(*) FROM audit_log WHERE action = 'PatientDemographicsChanged' AND category = 'Patient' AND patient_id = {jane_patient} AND old_values LIKE '%english%' AND new_values LIKE '%chinese%'"))
            .await,
        1,
        "one change row with old and new values; the refused value wrote none"
    );
}
