//! Survey themes (issue 17; spec 04 §2 "Survey themes", §4, §5, §7 base /api/surveyTheme): the
//! three shipped themes, add with 'Theme Name is required', apply keeping exactly one selected,
//! the selected one neither applied twice nor deleted, audit rows, and the runner's variables.

use api_tests::*;

async fn call(c: &mut Client, path: &str, theme: &str, body: Value) -> Response {
    let q: String = theme
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b == b'-' {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect();
    c.post_json(&format!("/api/surveyTheme/{path}?theme={q}"), &body)
        .await
}

fn selected(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .filter(|t| t["Selected"] == true)
        .map(|t| t["Name"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn shipped_themes_add_apply_delete() {
    let server = TestServer::demo().await;
    let list_path = "/api/surveyTheme/GetSurveyThemes";
    let mut desk = server.signed_in(FRONT_DESK).await;
    assert_eq!(desk.get(list_path).await.status, StatusCode::FORBIDDEN);
    assert_eq!(
        call(&mut desk, "AddTheme", "x", json!({"Name": "x"}))
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let list = admin.get_json(list_path).await;
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["FriendlyName"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Default", "High contrast", "Large text"]);
    assert_eq!(selected(&list), ["default"]);

    // spec 04 §5: Theme Name is required; a taken name is refused; nothing stored.
    let r = call(&mut admin, "AddTheme", "", json!({"Name": ""})).await;
    let body = r.expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(body["Errors"]["Name"], json!(["Theme Name is required"]));
    let r = call(
        &mut admin,
        "AddTheme",
        "DEFAULT",
        json!({"Name": "DEFAULT"}),
    )
    .await;
    assert_eq!(
        r.expect_error(StatusCode::BAD_REQUEST)["Errors"]["Name"],
        json!(["A theme with this name already exists"])
    );
    // The body repeats the name.
    let r = call(&mut admin, "AddTheme", "Clinic", json!({"Name": "Other"})).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    call(
        &mut admin,
        "AddTheme",
        "Clinic Blue",
        json!({"Name": "Clinic Blue", "BasedOn": "large-text"}),
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(admin.get_json(list_path).await.as_array().unwrap().len(), 4);

    // Apply: exactly one selected.
    let after = call(
        &mut admin,
        "ChangeSurveyTheme",
        "Clinic Blue",
        json!({"Name": "Clinic Blue"}),
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(selected(&after), ["Clinic Blue"]);
    assert_eq!(
        call(
            &mut admin,
            "ChangeSurveyTheme",
            "nope",
            json!({"Name": "nope"})
        )
        .await
        .status,
        StatusCode::NOT_FOUND
    );
    // The selected theme cannot be deleted; another can.
    let r = call(
        &mut admin,
        "DeleteTheme",
        "Clinic Blue",
        json!({"Name": "Clinic Blue"}),
    )
    .await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    let after = call(
        &mut admin,
        "DeleteTheme",
        "high-contrast",
        json!({"Name": "high-contrast"}),
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(after.as_array().unwrap().len(), 3);
    assert_eq!(selected(&after), ["Clinic Blue"]);
    for action in [
        "SurveyThemeAdded",
        "SurveyThemeApplied",
        "SurveyThemeDeleted",
    ] {
        assert_eq!(
            server
                .count_sql(&format!(
                    "SELECT COUNT(*) FROM audit_log WHERE action = '{action}'"
                ))
                .await,
            1,
            "{action}"
        );
    }

    // The runner (no sign-in) gets the selected theme and its variables: a copy of Large text.
    let mut kiosk = server.client();
    let runner = kiosk.get_json("/api/surveyTheme/runnerThemes").await;
    assert_eq!(runner["Selected"], "Clinic Blue");
    assert_eq!(runner["HideSurveyThemeSettingsButton"], false);
    let blue = runner["Themes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["Name"] == "Clinic Blue")
        .unwrap();
    let var = |name: &str| {
        blue["Variables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["Name"] == name)
            .map(|v| v["Value"].clone())
    };
    assert_eq!(var("--survey-font-size"), Some(json!("20px")));
    assert_eq!(var("--bg"), Some(json!("#f4f7f8")));

    // HideSurveyThemeSettingsButton through the settings group.
    let current = admin
        .get_json("/api/configurationForm/SurveyThemesSettings")
        .await;
    admin
        .send(
            Method::PUT,
            "/api/configurationForm/SurveyThemesSettings",
            Some((
                json!({"Version": current["Version"], "Settings": {"HideSurveyThemeSettingsButton": true}})
                    .to_string()
                    .into_bytes(),
                "application/json",
            )),
            Csrf::Auto,
            &[],
        )
        .await
        .expect(StatusCode::OK);
    let runner = kiosk.get_json("/api/surveyTheme/runnerThemes").await;
    assert_eq!(runner["HideSurveyThemeSettingsButton"], true);
}
