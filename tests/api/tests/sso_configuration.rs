//! SSO Management (spec 03 §2, §3 "SSO configuration", §4 "SSO type derived from
//! IntegrationType on load" / "on save" / "SSO alternate id", §5 "SSO", §7 "SSO", §8): the
//! spec's three routes on the real binary, on SQLite and (TEST_DATABASE_URL) PostgreSQL.

use api_tests::*;

const LOAD: &str = "/api/ssoConfiguration/loadConfiguration";
const CHECK: &str = "/api/ssoConfiguration/CheckAlternativeIdColumnExist";
/// An IdP's metadata (public certificate only) for the SAML saves: SAML is saved only with one.
const IDP_METADATA: &str = include_str!("fixtures/saml-idp-metadata.xml");
const INVALID_COLUMN: &str = "\"Alternate Id Column In Patients Table\" is invalid";

fn save_path(sso_type: &str) -> String {
    format!("/api/ssoConfiguration/SaveConfiguration{sso_type}")
}

/// Saves `fields` over the stored configuration through SaveConfiguration{sso_type}.
async fn save(client: &mut Client, sso_type: &str, fields: Value) -> Response {
    let doc = client.get_json(LOAD).await;
    let mut settings = doc["Settings"].clone();
    for (k, v) in fields.as_object().unwrap() {
        settings[k] = v.clone();
    }
    client
        .post_json(
            &save_path(sso_type),
            &json!({"Version": doc["Version"], "Settings": settings}),
        )
        .await
}

#[tokio::test]
async fn settings_admins_only() {
    let server = TestServer::demo().await;
    assert_eq!(
        server.client().get(LOAD).await.status,
        StatusCode::UNAUTHORIZED
    );
    for account in [JANE, FRONT_DESK] {
        let mut c = server.signed_in(account).await;
        assert_eq!(c.get(LOAD).await.status, StatusCode::FORBIDDEN);
        let r = c.post_json(CHECK, &json!({"Column": "mrn"})).await;
        assert_eq!(r.status, StatusCode::FORBIDDEN);
        let r = c
            .post_json(&save_path("Saml"), &json!({"Version": 1, "Settings": {}}))
            .await;
        assert_eq!(r.status, StatusCode::FORBIDDEN);
    }
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let doc = admin.get_json(LOAD).await;
    assert_eq!(doc["Name"], "SSO");
    assert_eq!(doc["Settings"]["PortalMode"], "PortalLogin");
    assert_eq!(doc["Settings"]["CryptographyKeySize"], 128.0);
}

#[tokio::test]
async fn the_type_in_the_path_is_stored_as_the_integration_type() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    // Decryption: the key type the page chose.
    let saved = save(
        &mut manager,
        "Decryption",
        json!({"PortalMode": "SSO", "IntegrationType": "DecryptionByPassword"}),
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(saved["Settings"]["IntegrationType"], "DecryptionByPassword");
    // Saml with the service request box (as the page sets IntegrationType).
    let saved = save(
        &mut manager,
        "Saml",
        json!({"IntegrationType": "SamlCernerHealtheLifeWithServiceRequest", "SamlIdpMetadata": IDP_METADATA}),
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(
        saved["Settings"]["IntegrationType"],
        "SamlCernerHealtheLifeWithServiceRequest"
    );
    // The path's type wins over a document that disagrees.
    let saved = save(
        &mut manager,
        "Saml",
        json!({"IntegrationType": "DecryptionByHash"}),
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(saved["Settings"]["IntegrationType"], "Saml");
    let saved = save(
        &mut manager,
        "EpicSmartOnFhirTesseract",
        json!({"IntegrationType": ""}),
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(
        saved["Settings"]["IntegrationType"],
        "EpicSmartOnFhirTesseract"
    );
    // Loaded back as stored.
    let doc = manager.get_json(LOAD).await;
    assert_eq!(
        doc["Settings"]["IntegrationType"],
        "EpicSmartOnFhirTesseract"
    );
    // SSO mode without a type: the group's own message, nothing stored.
    let refused = save(&mut manager, "", json!({"IntegrationType": ""}))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        refused["Errors"]["IntegrationType"],
        json!(["SSO type is required"])
    );
    // A type that is none of the page's: no such route.
    let r = save(&mut manager, "Kerberos", json!({})).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let r = manager
        .post_json(
            "/api/ssoConfiguration/NotSaveConfigurationSaml",
            &json!({"Version": 1, "Settings": {}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn secrets_are_encrypted_never_answered_and_kept_when_left_empty() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let saved = save(
        &mut manager,
        "Decryption",
        json!({"IntegrationType": "DecryptionByHash", "AESKey": "aes-secret-123",
               "EpicClientSecret": "epic-secret-456", "CernerOAuthSecret": "cerner-secret-789",
               "EpicJwtPrivateKey": EPIC_PEM}),
    )
    .await
    .expect(StatusCode::OK);
    for field in [
        "AESKey",
        "EpicClientSecret",
        "CernerOAuthSecret",
        "EpicJwtPrivateKey",
    ] {
        assert_eq!(saved["Settings"][field], "", "{field}");
    }
    let mut stored = saved["StoredSecrets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect::<Vec<_>>();
    stored.sort();
    assert_eq!(
        stored,
        [
            "AESKey",
            "CernerOAuthSecret",
            "EpicClientSecret",
            "EpicJwtPrivateKey"
        ]
    );
    // Neither the secrets nor any line of the PEM key are stored or audited in clear.
    for table_leak in [
        "SELECT COUNT(*) FROM settings WHERE body LIKE '%-secret-%' OR body LIKE '%PRIVATE KEY%' OR body LIKE '%MIIEvQIBADAN%'",
        "SELECT COUNT(*) FROM audit_log WHERE new_values LIKE '%-secret-%' OR old_values LIKE '%-secret-%'
           OR new_values LIKE '%PRIVATE KEY%' OR new_values LIKE '%MIIEvQIBADAN%'",
    ] {
        assert_eq!(server.count_sql(table_leak).await, 0, "{table_leak}");
    }
    let loaded = manager.get_json(LOAD).await;
    for field in ["AESKey", "EpicJwtPrivateKey"] {
        assert_eq!(loaded["Settings"][field], "", "{field}");
    }
    // Saved again with the secrets left empty: still stored, the key among them.
    let kept = save(&mut manager, "Decryption", json!({"ReturnURL": "/menu"}))
        .await
        .expect(StatusCode::OK);
    let kept: Vec<&str> = kept["StoredSecrets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(kept.len(), 4, "{kept:?}");
    assert!(kept.contains(&"EpicJwtPrivateKey"), "{kept:?}");
}

/// A PEM-shaped private key (its body is not a real key: only the storage is tested here).
const EPIC_PEM: &str = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7-secret-key\n-----END PRIVATE KEY-----\n";

#[tokio::test]
async fn the_alternate_id_column_test() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let ok = manager
        .post_json(CHECK, &json!({"Column": "alternate_id"}))
        .await
        .expect(StatusCode::OK);
    assert_eq!(ok, json!({"IsSuccess": true, "Message": "Column Exist"}));
    for missing in ["no_such_column", "", "mrn; DROP TABLE patients", "\"mrn\""] {
        let body = manager
            .post_json(CHECK, &json!({"Column": missing}))
            .await
            .expect(StatusCode::OK);
        assert_eq!(
            body,
            json!({"IsSuccess": false, "Message": "Column Not Exist"}),
            "{missing}"
        );
    }
    assert!(server.count_sql("SELECT COUNT(*) FROM patients").await > 0);
}

#[tokio::test]
async fn saving_with_the_alternate_id_checks_the_column_first() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let before = manager.get_json(LOAD).await["Version"].clone();
    let refused = save(
        &mut manager,
        "Decryption",
        json!({"IntegrationType": "DecryptionByHash", "EnableSsoByAlternateId": true,
               "SsoAlternateIdColumn": "no_such_column", "ReturnURL": "/changed"}),
    )
    .await
    .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        refused["Errors"]["SsoAlternateIdColumn"],
        json!([INVALID_COLUMN])
    );
    let after = manager.get_json(LOAD).await;
    assert_eq!(after["Version"], before, "nothing saved");
    assert_eq!(after["Settings"]["ReturnURL"], "");
    // An existing column saves.
    let saved = save(
        &mut manager,
        "Decryption",
        json!({"IntegrationType": "DecryptionByHash", "EnableSsoByAlternateId": true,
               "SsoAlternateIdColumn": "alternate_id"}),
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(saved["Settings"]["SsoAlternateIdColumn"], "alternate_id");
    // Switched off: the column is cleared on save.
    let off = save(
        &mut manager,
        "Decryption",
        json!({"EnableSsoByAlternateId": false, "SsoAlternateIdColumn": "alternate_id"}),
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(off["Settings"]["SsoAlternateIdColumn"], "");
}

#[tokio::test]
async fn a_stale_save_gets_409() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let doc = manager.get_json(LOAD).await;
    let mut settings = doc["Settings"].clone();
    settings["ReturnURL"] = json!("/first");
    manager
        .post_json(
            &save_path(""),
            &json!({"Version": doc["Version"], "Settings": settings}),
        )
        .await
        .expect(StatusCode::OK);
    settings["ReturnURL"] = json!("/second");
    let stale = manager
        .post_json(
            &save_path(""),
            &json!({"Version": doc["Version"], "Settings": settings}),
        )
        .await
        .expect_error(StatusCode::CONFLICT);
    assert_eq!(stale["Current"]["Settings"]["ReturnURL"], "/first");
}
