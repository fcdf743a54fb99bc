//! The patient area's shell (issue 4 part 1): the logo (upload, size and type limits, removal,
//! roles, the address that changes with each upload, the letter PDF printing a JPEG logo), the
//! allow-listed settings values (LogoWidth by client admins and program managers, all-or-none
//! setvalues), licensed modules refusing their endpoints, and the letter trace for program managers.

use api_tests::*;

const JPEG: &[u8] = include_bytes!("fixtures/logo.jpg");
const PNG: &[u8] = include_bytes!("fixtures/logo.png");

async fn delete(client: &mut Client, path: &str) -> Response {
    client
        .send(Method::DELETE, path, None, Csrf::Auto, &[])
        .await
}

#[tokio::test]
async fn logo_upload_serves_the_image_at_a_new_address_and_removal_restores_the_default() {
    let server = TestServer::demo().await;
    let mut anyone = server.client();
    let before = anyone.get_json("/api/logoSettings/login").await;
    assert_eq!(
        before["LogoWidth"], 50,
        "default width (spec 02 §9): {before}"
    );
    assert!(before.get("LogoUrl").is_none_or(Value::is_null), "{before}");

    let mut manager = server.signed_in(MANAGER).await;
    let first = manager
        .post_raw("/api/logoSettings/logo", PNG, "image/png")
        .await
        .expect(StatusCode::OK);
    let url1 = first["LogoUrl"].as_str().unwrap().to_owned();
    assert!(
        url1.starts_with("/api/logoSettings/image/logo?t="),
        "{url1}"
    );
    let img = anyone.get(&url1).await;
    assert_eq!(img.status, StatusCode::OK);
    assert_eq!(img.content_type(), "image/png");
    assert_eq!(
        img.header("x-content-type-options").as_deref(),
        Some("nosniff")
    );
    assert_eq!(img.body.len(), PNG.len());

    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let second = admin
        .post_raw("/api/logoSettings/logo", JPEG, "image/jpeg")
        .await
        .expect(StatusCode::OK);
    let url2 = second["LogoUrl"].as_str().unwrap().to_owned();
    assert_ne!(url1, url2, "the timestamp changes with each upload");
    assert_eq!(anyone.get(&url2).await.content_type(), "image/jpeg");
    assert_eq!(
        anyone.get_json("/api/logoSettings/login").await["LogoUrl"],
        url2.as_str()
    );
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'LogoChanged'")
            .await,
        2
    );

    let removed = delete(&mut admin, "/api/logoSettings/logo")
        .await
        .expect(StatusCode::OK);
    assert!(
        removed.get("LogoUrl").is_none_or(Value::is_null),
        "{removed}"
    );
    assert_eq!(
        anyone.get("/api/logoSettings/image/logo").await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        anyone.get("/api/logoSettings/image/other").await.status,
        StatusCode::NOT_FOUND
    );

    // The survey logo is its own image.
    manager
        .post_raw("/api/logoSettings/surveyLogo", PNG, "image/png")
        .await
        .expect(StatusCode::OK);
    let survey = anyone.get_json("/api/logoSettings/survey").await;
    assert!(
        survey["LogoUrl"]
            .as_str()
            .unwrap()
            .starts_with("/api/logoSettings/image/surveyLogo?t="),
        "{survey}"
    );
    assert!(anyone
        .get_json("/api/logoSettings/login")
        .await
        .get("LogoUrl")
        .is_none_or(Value::is_null));
    delete(&mut manager, "/api/logoSettings/surveyLogo")
        .await
        .expect(StatusCode::OK);
    assert!(anyone
        .get_json("/api/logoSettings/survey")
        .await
        .get("LogoUrl")
        .is_none_or(Value::is_null));
}

#[tokio::test]
async fn logo_uploads_are_limited_in_type_size_and_role() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let svg = b"<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"alert(1)\"><script>alert(2)</script></svg>";
    let refused = manager
        .post_raw("/api/logoSettings/logo", svg.to_vec(), "image/svg+xml")
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert!(
        refused
            .to_string()
            .contains("The logo must be a PNG, JPEG or GIF image."),
        "{refused}"
    );
    // The declared type is not trusted: an HTML file named as PNG is refused too.
    manager
        .post_raw(
            "/api/logoSettings/logo",
            b"<html><script>x</script></html>".to_vec(),
            "image/png",
        )
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    let empty = manager
        .post_raw("/api/logoSettings/logo", Vec::new(), "image/png")
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert!(
        empty.to_string().contains("Choose an image file."),
        "{empty}"
    );
    let mut big = PNG.to_vec();
    big.resize(600 * 1024, 0);
    let too_big = manager
        .post_raw("/api/logoSettings/logo", big, "image/png")
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert!(
        too_big
            .to_string()
            .contains("The logo image is too large (at most 512 KB)."),
        "{too_big}"
    );
    assert_eq!(
        server.count_sql("SELECT COUNT(*) FROM logo_images").await,
        0
    );

    for account in [JANE, FRONT_DESK] {
        let mut client = server.signed_in(account).await;
        client
            .post_raw("/api/logoSettings/logo", PNG, "image/png")
            .await
            .expect_error(StatusCode::FORBIDDEN);
        delete(&mut client, "/api/logoSettings/logo")
            .await
            .expect_error(StatusCode::FORBIDDEN);
        client
            .post_raw("/api/logoSettings/surveyLogo", PNG, "image/png")
            .await
            .expect_error(StatusCode::FORBIDDEN);
    }
    let mut anonymous = server.client();
    anonymous
        .post_raw("/api/logoSettings/logo", PNG, "image/png")
        .await
        .expect_error(StatusCode::UNAUTHORIZED);
    assert_eq!(
        server.count_sql("SELECT COUNT(*) FROM logo_images").await,
        0
    );
}

#[tokio::test]
async fn a_jpeg_logo_is_printed_on_generated_letters_and_a_png_keeps_the_built_in_one() {
    let server = TestServer::demo().await;
    let mut jane = server.signed_in(JANE).await;
    let list = jane
        .post_json(
            "/api/documents/loadDocuments",
            &json!({"TimezoneOffset": 0}),
        )
        .await
        .expect(StatusCode::OK);
    let token = list["list"][0]["AccessToken"].as_str().unwrap().to_owned();
    let path = format!("/api/documents/letterPdf?accessToken={token}");
    let has_image = |pdf: &[u8]| pdf.windows(10).any(|w| w == b"/DCTDecode");
    assert!(
        !has_image(&jane.get(&path).await.body),
        "no uploaded logo yet"
    );
    let mut manager = server.signed_in(MANAGER).await;
    manager
        .post_raw("/api/logoSettings/logo", PNG, "image/png")
        .await
        .expect(StatusCode::OK);
    assert!(
        !has_image(&jane.get(&path).await.body),
        "a PNG cannot be embedded as it is: built-in logo"
    );
    manager
        .post_raw("/api/logoSettings/logo", JPEG, "image/jpeg")
        .await
        .expect(StatusCode::OK);
    let pdf = jane.get(&path).await;
    assert_eq!(pdf.content_type(), "application/pdf");
    assert!(has_image(&pdf.body), "the JPEG logo is in the letter");
}

#[tokio::test]
async fn logo_width_is_required_numeric_and_set_by_logo_editors() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let saved = admin
        .post_json(
            "/api/settings/setvalue",
            &json!({"Key": "LogoWidth", "Value": "120"}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(saved["LogoWidth"], "120");
    assert_eq!(
        server.client().get_json("/api/logoSettings/login").await["LogoWidth"],
        120
    );
    let required = admin
        .post_json(
            "/api/settings/setvalue",
            &json!({"key": "LogoWidth", "value": " "}),
        )
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert!(
        required.to_string().contains("Logo width is required."),
        "{required}"
    );
    let numeric = admin
        .post_json(
            "/api/settings/setvalue",
            &json!({"key": "LogoWidth", "value": "wide"}),
        )
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert!(
        numeric.to_string().contains("Logo width must be a number."),
        "{numeric}"
    );
    // Client admins may not change the home content or the survey header.
    admin
        .post_json(
            "/api/settings/setvalue",
            &json!({"key": "Home_Page_Content", "value": "<p>x</p>"}),
        )
        .await
        .expect_error(StatusCode::FORBIDDEN);
    admin
        .post_json(
            "/api/settings/setvalue",
            &json!({"key": "SurveyTitle", "value": "x"}),
        )
        .await
        .expect_error(StatusCode::FORBIDDEN);
    for account in [JANE, FRONT_DESK] {
        let mut client = server.signed_in(account).await;
        client
            .post_json(
                "/api/settings/setvalue",
                &json!({"key": "LogoWidth", "value": "70"}),
            )
            .await
            .expect_error(StatusCode::FORBIDDEN);
    }
    let read = admin
        .post_json(
            "/api/settings/getValues",
            &json!(["LogoWidth", "SurveyLogoWidth", "PasswordSecret"]),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(read, json!({"LogoWidth": "120", "SurveyLogoWidth": "50"}));
}

#[tokio::test]
async fn setvalues_stores_all_or_none() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let both = json!([{"Key": "SurveyLogoWidth", "Value": "80"}, {"Key": "SurveyTitle", "Value": "  Breast Health Survey "}]);
    let saved = manager
        .post_json("/api/settings/setvalues", &both)
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        saved,
        json!({"SurveyLogoWidth": "80", "SurveyTitle": "Breast Health Survey"})
    );
    let survey = server.client().get_json("/api/logoSettings/survey").await;
    assert_eq!(
        (survey["LogoWidth"].clone(), survey["LogoTitle"].clone()),
        (json!(80), json!("Breast Health Survey"))
    );
    // One bad value (or one unknown key) and nothing is stored.
    let bad =
        json!([{"Key": "SurveyTitle", "Value": "Changed"}, {"Key": "LogoWidth", "Value": "12a"}]);
    manager
        .post_json("/api/settings/setvalues", &bad)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    let unknown =
        json!([{"Key": "SurveyTitle", "Value": "Changed"}, {"Key": "IsSsoMode", "Value": "true"}]);
    manager
        .post_json("/api/settings/setvalues", &unknown)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    manager
        .post_json("/api/settings/setvalues", &json!({"Key": "SurveyTitle"}))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    let read = manager
        .post_json("/api/settings/getValues", &json!(["SurveyTitle"]))
        .await
        .expect(StatusCode::OK);
    assert_eq!(read["SurveyTitle"], "Breast Health Survey");
    // A client admin may set the logo width but not, in the same call, the survey title.
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let mixed =
        json!([{"Key": "LogoWidth", "Value": "90"}, {"Key": "SurveyTitle", "Value": "Mine"}]);
    admin
        .post_json("/api/settings/setvalues", &mixed)
        .await
        .expect_error(StatusCode::FORBIDDEN);
    assert_eq!(
        server.client().get_json("/api/logoSettings/login").await["LogoWidth"],
        50
    );
}

async fn set_license(
    server: &TestServer,
    documents: bool,
    appointments: bool,
    medical_history: bool,
) {
    let body = json!({"Module_Documents": documents, "Module_Appointments": appointments, "Module_MedicalHistory": medical_history});
    server
        .execute_sql(&format!(
            "UPDATE settings SET body = '{body}' WHERE group_name = 'License'"
        ))
        .await;
}

#[tokio::test]
async fn a_module_that_is_off_refuses_its_endpoints() {
    let server = TestServer::demo().await;
    let mut jane = server.signed_in(JANE).await;
    let list = jane
        .post_json("/api/documents/loadDocuments", &json!({}))
        .await
        .expect(StatusCode::OK);
    let token = list["list"][0]["AccessToken"].as_str().unwrap().to_owned();
    jane.post_json(
        "/api/surveyApi/GetNextAppointmentsForUser",
        &json!({"TimezoneOffset": 0}),
    )
    .await
    .expect(StatusCode::OK);

    set_license(&server, false, true, true).await;
    let refused = jane
        .post_json("/api/documents/loadDocuments", &json!({}))
        .await
        .expect_error(StatusCode::FORBIDDEN);
    assert!(
        refused
            .to_string()
            .contains("The Documents module is not licensed."),
        "{refused}"
    );
    jane.get("/api/documents/GetNotCompletedLetter")
        .await
        .expect_error(StatusCode::FORBIDDEN);
    jane.get(&format!("/api/documents/letterPdf?accessToken={token}"))
        .await
        .expect_error(StatusCode::FORBIDDEN);
    jane.get("/api/documents/documentsSettings")
        .await
        .expect_error(StatusCode::FORBIDDEN);
    // Other modules still answer; the flags say what is off.
    jane.post_json(
        "/api/surveyApi/GetNextAppointmentsForUser",
        &json!({"TimezoneOffset": 0}),
    )
    .await
    .expect(StatusCode::OK);
    let modules = jane.get_json("/api/accountApi/apppermissionsJson").await;
    assert_eq!(modules["Module_Documents"], false);

    set_license(&server, true, false, false).await;
    jane.post_json("/api/documents/loadDocuments", &json!({}))
        .await
        .expect(StatusCode::OK);
    let appointments = jane
        .post_json(
            "/api/surveyApi/GetNextAppointmentsForUser",
            &json!({"TimezoneOffset": 0}),
        )
        .await
        .expect_error(StatusCode::FORBIDDEN);
    assert!(
        appointments
            .to_string()
            .contains("The Appointments module is not licensed."),
        "{appointments}"
    );
    jane.post_json(
        "/api/surveyApi/GetAvailableSurveysForUser",
        &json!({"TimezoneOffset": 0}),
    )
    .await
    .expect_error(StatusCode::FORBIDDEN);
    jane.post_json(
        "/api/surveyApi/GetCompletedSurveysForUser",
        &json!({"TimezoneOffset": 0}),
    )
    .await
    .expect_error(StatusCode::FORBIDDEN);
    // Endpoints outside the modules are untouched.
    jane.post_json("/api/settings/getValues", &json!(["Home_Page_Content"]))
        .await
        .expect(StatusCode::OK);
}

#[tokio::test]
async fn the_letter_trace_is_for_program_managers_only() {
    let server = TestServer::demo().await;
    let mut jane = server.signed_in(JANE).await;
    let list = jane
        .post_json("/api/documents/loadDocuments", &json!({}))
        .await
        .expect(StatusCode::OK);
    let token = list["list"][0]["AccessToken"].as_str().unwrap().to_owned();
    assert_eq!(
        jane.get(&format!("/api/documents/letterPdf?accessToken={token}"))
            .await
            .status,
        StatusCode::OK
    );
    let path = format!("/api/documents/letterTrace?accessToken={token}&timezoneOffset=0");
    let mut manager = server.signed_in(MANAGER).await;
    let trace = manager.get_json(&path).await;
    let entries = trace.as_array().unwrap();
    let viewed = entries
        .iter()
        .find(|e| e["Key"] == "LetterViewed")
        .unwrap_or_else(|| panic!("{trace}"));
    assert!(viewed["FieldUpdated"].is_string(), "{viewed}");
    assert!(
        viewed["Details"].as_str().unwrap().ends_with("by jane.doe"),
        "{viewed}"
    );
    for account in [JANE, CLIENT_ADMIN, FRONT_DESK] {
        let mut client = server.signed_in(account).await;
        client.get(&path).await.expect_error(StatusCode::FORBIDDEN);
    }
    manager
        .get("/api/documents/letterTrace?accessToken=nope")
        .await
        .expect_error(StatusCode::NOT_FOUND);
}
