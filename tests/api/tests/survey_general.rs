//! Survey General Settings (issue 17; spec 04 §2, §3, §5, §7): the lookups, the save through
//! `POST /api/surveySettings/generalSettings` with the spec's limits and the location-to-MRN rows,
//! and the settings taking effect (PIN lifetime, the runner's display, alternate-identifier
//! search, future-dated studies, the per-location survey).

use api_tests::*;

const GENERAL: &str = "/api/surveySettings/generalSettings";
const ADMIN_PIN: &str = "2468";

/// Saves SurveyGeneral with `patch` over what is stored now; the answer.
async fn save(client: &mut Client, patch: Value) -> Response {
    let current = client.get_json(GENERAL).await;
    let mut settings = current["Settings"].clone();
    for (k, v) in patch.as_object().unwrap() {
        settings[k] = v.clone();
    }
    client
        .post_json(
            GENERAL,
            &json!({"Version": current["Version"], "Settings": settings}),
        )
        .await
}

async fn staff_send(client: &mut Client, path: &str, body: &Value, grant: &str) -> Response {
    client
        .send(
            Method::POST,
            path,
            Some((body.to_string().into_bytes(), "application/json")),
            Csrf::Auto,
            &[("x-survey-admin", grant)],
        )
        .await
}

async fn grant(c: &mut Client) -> String {
    let r = c
        .get(&format!(
            "/api/surveyIdentity/CheckAdminPin?adminPin={ADMIN_PIN}"
        ))
        .await
        .expect(StatusCode::OK);
    r["Token"].as_str().expect("a grant token").to_owned()
}

#[tokio::test]
async fn lookups_answer_admins_only() {
    let server = TestServer::demo().await;
    let paths = [
        "/api/survey/GetAllProcedures",
        "/api/survey/GetAvailableLocations",
        "/api/survey/CheckForAvailableAlternateIdentifierColumns",
        "/api/survey/getAllFamilyTreeSurveys",
    ];
    let mut desk = server.signed_in(FRONT_DESK).await;
    let mut jane = server.signed_in(JANE).await;
    for p in paths {
        assert_eq!(
            server.client().get(p).await.status,
            StatusCode::UNAUTHORIZED,
            "{p}"
        );
        assert_eq!(desk.get(p).await.status, StatusCode::FORBIDDEN, "{p}");
        assert_eq!(jane.get(p).await.status, StatusCode::FORBIDDEN, "{p}");
    }
    let mut admin = server.signed_in(MANAGER).await;
    let procedures = admin.get_json(paths[0]).await;
    let list = procedures["Procedures"].as_array().unwrap();
    assert!(
        list.iter()
            .any(|p| p["Code"] == "MAMDX" && p["AskSide"] == true),
        "{procedures}"
    );
    assert!(list
        .iter()
        .any(|p| p["Code"] == "MRIBR" && p["AskSide"] == false));
    assert_eq!(
        procedures["Sides"],
        json!([{"Code": "L", "Name": "Left"}, {"Code": "R", "Name": "Right"}, {"Code": "B", "Name": "Bilateral"}])
    );
    let locations = admin.get_json(paths[1]).await;
    assert!(
        locations
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["LocNum"] == "101" && l["LocName"].as_str().is_some_and(|n| !n.is_empty())),
        "{locations}"
    );
    // The demo holds MRN2 values only: the other columns are not found.
    let columns = admin.get_json(paths[2]).await;
    assert_eq!(columns["MRN2"], "MRN2", "{columns}");
    assert_eq!(columns["MRN3"], "");
    assert_eq!(columns["OtherPatientId"], "");
    let surveys = admin.get_json(paths[3]).await;
    let surveys = surveys.as_array().unwrap();
    assert_eq!(surveys.len(), 3, "{surveys:?}");
    let bih = surveys.iter().find(|s| s["SurveyId"] == "BIH-001").unwrap();
    assert_eq!(bih["HasFamilyTree"], true);
    let pes = surveys.iter().find(|s| s["SurveyId"] == "PES-010").unwrap();
    assert_eq!(pes["HasFamilyTree"], false);
}

#[tokio::test]
async fn the_spec_limits_refuse_a_save_and_store_nothing() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let before = admin.get_json(GENERAL).await;
    let r = save(
        &mut admin,
        json!({
            "SurveyAdminPin": "1234567",
            "GenerateSummaryReport": true,
            "PdfPageNumberFontSize": 0,
            "PdfPageNumberAlignment": "Middle",
            "GenerateSummaryFormReport": true,
            "SummaryFormPdfTopMargin": "abc",
            "SummaryFormPdfBottomMargin": "1234567",
            "PinExpirationSeconds": "soon",
            "LocationToMrnColumnMapping": [{"LocNum": "", "Column": ""}],
        }),
    )
    .await;
    let body = r.expect_error(StatusCode::BAD_REQUEST);
    let errors = &body["Errors"];
    for field in [
        "SurveyAdminPin",
        "PdfPageNumberFontSize",
        "PdfPageNumberAlignment",
        "SummaryFormPdfTopMargin",
        "SummaryFormPdfBottomMargin",
        "PinExpirationSeconds",
    ] {
        assert!(errors.get(field).is_some(), "{field}: {body}");
    }
    assert_eq!(
        errors["LocationToMrnColumnMapping.0.LocNum"],
        json!(["Location is required"])
    );
    assert_eq!(
        errors["LocationToMrnColumnMapping.0.Column"],
        json!(["Column is required"])
    );
    assert_eq!(
        errors["PdfPageNumberAlignment"],
        json!(["Choose one of: Left, Center, Right, Justify"])
    );
    let after = admin.get_json(GENERAL).await;
    assert_eq!(after, before, "nothing stored");

    // A column the store does not hold cannot be chosen.
    let r = save(
        &mut admin,
        json!({"LocationToMrnColumnMapping": [{"LocNum": "101", "Column": "MRN3"}]}),
    )
    .await;
    let body = r.expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        body["Errors"]["LocationToMrnColumnMapping.0.Column"],
        json!(["This column is not found"]),
        "{body}"
    );

    // Within the limits it saves, and a second save at the old version gets 409.
    let ok = save(
        &mut admin,
        json!({
            "SurveyAdminPin": "123456",
            "PdfPageNumberFontSize": 1,
            "PdfPageNumberAlignment": "Justify",
            "SummaryFormPdfTopMargin": "12.5",
            "LocationToMrnColumnMapping": [{"LocNum": "101", "Column": "MRN2"}],
        }),
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(ok["Settings"]["PdfPageNumberAlignment"], "Justify");
    let stale = admin
        .post_json(
            GENERAL,
            &json!({"Version": before["Version"], "Settings": before["Settings"]}),
        )
        .await;
    assert_eq!(stale.status, StatusCode::CONFLICT);
    // Front desk may not save.
    let mut desk = server.signed_in(FRONT_DESK).await;
    assert_eq!(desk.get(GENERAL).await.status, StatusCode::FORBIDDEN);
}

/// A PIN's lifetime follows PinExpirationSeconds, or never ends with IsNeverExpirePin.
#[tokio::test]
async fn pin_lifetime_follows_the_settings() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(MANAGER).await;
    save(&mut admin, json!({"PinExpirationSeconds": 600}))
        .await
        .expect(StatusCode::OK);
    let queue = server
        .count_sql("SELECT MIN(id) FROM survey_queue WHERE status = 'Assigned'")
        .await;
    let mut desk = server.signed_in(FRONT_DESK).await;
    let before = now_unix() * 1000;
    desk.post_json(
        "/api/v2/survey/generatePin",
        &json!({"SurveyQueueId": queue}),
    )
    .await
    .expect(StatusCode::OK);
    let expires = server
        .count_sql(&format!(
            "SELECT MAX(expires_at) FROM survey_pins WHERE survey_queue_id = {queue}"
        ))
        .await;
    assert!(
        (before + 590_000..=before + 700_000).contains(&expires),
        "{expires} vs {before}"
    );
    save(&mut admin, json!({"IsNeverExpirePin": true}))
        .await
        .expect(StatusCode::OK);
    let r = desk
        .post_json(
            "/api/v2/survey/generatePin",
            &json!({"SurveyQueueId": queue}),
        )
        .await
        .expect(StatusCode::OK);
    assert!(
        r["ExpiresAt"].as_str().unwrap().starts_with("9999-12-31"),
        "{r}"
    );
}

/// The runner's display: the patient's name unless HidePatientNameInSurvey, auto advance, the
/// keypad flags, the thank-you name and MRN.
#[tokio::test]
async fn the_runner_follows_the_display_settings() {
    let server = TestServer::demo().await;
    let queue = server
        .count_sql(
            "SELECT MIN(q.id) FROM survey_queue q JOIN patients p ON p.id = q.patient_id
             WHERE q.status = 'Assigned' AND p.mrn = '100001'",
        )
        .await;
    assert!(queue > 0, "Jane has an Assigned survey");
    let mut desk = server.signed_in(FRONT_DESK).await;
    let run = desk.get_json(&format!("/api/surveyRun/{queue}")).await;
    assert_eq!(
        run["Display"]["PatientName"], "Jane Doe",
        "{}",
        run["Display"]
    );
    assert!(run["Display"]["ThankYouNameAndMrn"].is_null());
    assert_eq!(run["Display"]["AutoAdvance"], false);
    let mut admin = server.signed_in(MANAGER).await;
    save(
        &mut admin,
        json!({
            "HidePatientNameInSurvey": true,
            "AutoAdvanceInSurveyEnabled": true,
            "DisableNumPadObjectsMobile": true,
            "IsDisplayPatientNameAndMrnOnSurveyThankYouScreen": true,
        }),
    )
    .await
    .expect(StatusCode::OK);
    let run = desk.get_json(&format!("/api/surveyRun/{queue}")).await;
    let d = &run["Display"];
    assert!(d["PatientName"].is_null(), "{d}");
    assert_eq!(d["AutoAdvance"], true);
    assert_eq!(d["DisableNumPadMobile"], true);
    assert_eq!(d["DisableNumPadTablet"], false);
    assert_eq!(d["ThankYouNameAndMrn"], "Jane Doe (100001)");
}

/// SearchForPatientUsingAlternateUserIdentifier with a location mapped to MRN2: the staff search
/// finds a patient by that identifier; off, it does not.
#[tokio::test]
async fn alternate_identifier_search() {
    let server = TestServer::demo().await;
    let mut desk = server.signed_in(FRONT_DESK).await;
    let g = grant(&mut desk).await;
    let search = json!({"SimpleSearch": "A100001"});
    let r = staff_send(&mut desk, "/api/v2/survey/searchRespondents", &search, &g)
        .await
        .expect(StatusCode::OK);
    assert_eq!(r["Data"].as_array().unwrap().len(), 0, "{r}");
    let mut admin = server.signed_in(MANAGER).await;
    save(
        &mut admin,
        json!({
            "SearchForPatientUsingAlternateUserIdentifier": true,
            "LocationToMrnColumnMapping": [{"LocNum": "101", "Column": "MRN2"}],
        }),
    )
    .await
    .expect(StatusCode::OK);
    let settings = desk.get_json("/api/survey/SurveySettings").await;
    assert_eq!(
        settings["SearchForPatientUsingAlternateUserIdentifier"], true,
        "{settings}"
    );
    let r = staff_send(&mut desk, "/api/v2/survey/searchRespondents", &search, &g)
        .await
        .expect(StatusCode::OK);
    let rows = r["Data"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "{r}");
    assert_eq!(rows[0]["RespondentId"], "100001");
    // The advanced search's respondent id matches it too, at the mapped location only.
    let at = |loc: &str| json!({"RespondentId": "A100001", "Location": loc});
    let r = staff_send(&mut desk, "/api/v2/survey/searchRespondents", &at(""), &g)
        .await
        .expect(StatusCode::OK);
    assert_eq!(r["Data"].as_array().unwrap().len(), 1, "{r}");
}

/// IsHideFutureDatedStudies: a patient's studies after today are not offered.
#[tokio::test]
async fn future_dated_studies_hidden() {
    let server = TestServer::demo().await;
    let tomorrow = now_unix() * 1000 + 36 * 3_600_000;
    let patient = server
        .count_sql(&format!(
            "SELECT MIN(patient_id) FROM appointments WHERE status <> 'Canceled' AND starts_at > {tomorrow}"
        ))
        .await;
    assert!(patient > 0, "a patient with a future appointment");
    let mrn = server
        .count_sql(&format!(
            "SELECT CAST(mrn AS BIGINT) FROM patients WHERE id = {patient}"
        ))
        .await
        .to_string();
    let future = server
        .count_sql(&format!(
            "SELECT COUNT(*) FROM appointments WHERE patient_id = {patient} AND status <> 'Canceled' AND starts_at > {tomorrow}"
        ))
        .await;
    let mut desk = server.signed_in(FRONT_DESK).await;
    let g = grant(&mut desk).await;
    let body = json!({"RespondentId": mrn});
    let all = staff_send(
        &mut desk,
        "/api/v2/survey/loadRespondentEntities",
        &body,
        &g,
    )
    .await
    .expect(StatusCode::OK)["Entities"]
        .as_array()
        .unwrap()
        .len() as i64;
    let mut admin = server.signed_in(MANAGER).await;
    save(&mut admin, json!({"IsHideFutureDatedStudies": true}))
        .await
        .expect(StatusCode::OK);
    let shown = staff_send(
        &mut desk,
        "/api/v2/survey/loadRespondentEntities",
        &body,
        &g,
    )
    .await
    .expect(StatusCode::OK)["Entities"]
        .as_array()
        .unwrap()
        .len() as i64;
    assert!(future >= 1 && all >= future);
    assert_eq!(shown, all - future);
}

/// ShowStartSurveyForLatestStudyOnly: only the patient's latest study is offered, chosen by its
/// date (then, on the same date and time, the one entered last), not by the order rows were
/// entered: here the ids run against the dates.
#[tokio::test]
async fn latest_study_only_offers_the_latest_by_date() {
    let server = TestServer::demo().await;
    // A patient with a study up to now (the latest of those is checked with future ones hidden).
    let patient = server
        .count_sql(&format!(
            "SELECT MIN(patient_id) FROM appointments WHERE status <> 'Canceled' AND starts_at < {}",
            now_unix() * 1000
        ))
        .await;
    assert!(patient > 0);
    let mrn = server
        .count_sql(&format!(
            "SELECT CAST(mrn AS BIGINT) FROM patients WHERE id = {patient}"
        ))
        .await
        .to_string();
    let day = 86_400_000_i64;
    // Later than every appointment of the demo (which spans days around today).
    let base = now_unix() * 1000 + 400 * day;
    // Entered in this order: the latest date first, then an earlier one, then a second study at
    // the latest date and time (the tie goes to the one entered last), then the earliest.
    let mut ids = Vec::new();
    for at in [base + 30 * day, base + 10 * day, base + 30 * day, base] {
        server
            .execute_sql(&format!(
                "INSERT INTO appointments (patient_id, location_id, starts_at, status)
                 SELECT {patient}, MIN(id), {at}, 'Scheduled' FROM locations"
            ))
            .await;
        ids.push(
            server
                .count_sql(&format!(
                    "SELECT MAX(id) FROM appointments WHERE patient_id = {patient}"
                ))
                .await,
        );
    }
    let mut desk = server.signed_in(FRONT_DESK).await;
    let g = grant(&mut desk).await;
    let body = json!({"RespondentId": mrn});
    let offered = |r: Value| -> Vec<i64> {
        r["Entities"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["RespondentEntityId"].as_str().unwrap().parse().unwrap())
            .collect()
    };
    let path = "/api/v2/survey/loadRespondentEntities";
    let all = offered(
        staff_send(&mut desk, path, &body, &g)
            .await
            .expect(StatusCode::OK),
    );
    assert!(all.len() >= 5, "the demo's studies and these four: {all:?}");
    assert_eq!(all[..3], [ids[2], ids[0], ids[1]], "newest first: {all:?}");
    let mut admin = server.signed_in(MANAGER).await;
    save(
        &mut admin,
        json!({"ShowStartSurveyForLatestStudyOnly": true}),
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(
        offered(
            staff_send(&mut desk, path, &body, &g)
                .await
                .expect(StatusCode::OK)
        ),
        [ids[2]]
    );
    // The staff start's settings say so (the web hides the study table's other rows by them).
    let settings = desk.get_json("/api/survey/SurveySettings").await;
    assert_eq!(settings["ShowStartSurveyForLatestStudyOnly"], true);
    // With future-dated studies hidden, the latest of those left (a demo study up to today).
    save(&mut admin, json!({"IsHideFutureDatedStudies": true}))
        .await
        .expect(StatusCode::OK);
    let tomorrow = now_unix() * 1000 + day;
    let latest_past = server
        .count_sql(&format!(
            "SELECT id FROM appointments WHERE patient_id = {patient} AND status <> 'Canceled'
               AND starts_at = (SELECT MAX(starts_at) FROM appointments
                                WHERE patient_id = {patient} AND status <> 'Canceled' AND starts_at < {tomorrow})
             ORDER BY id DESC LIMIT 1"
        ))
        .await;
    let shown = offered(
        staff_send(&mut desk, path, &body, &g)
            .await
            .expect(StatusCode::OK),
    );
    assert!(latest_past > 0);
    assert_eq!(shown, [latest_past]);
}

/// SurveyPerLocation of these settings joins the choice order (after the setup wizard's rows).
#[tokio::test]
async fn per_location_survey_of_these_settings() {
    let server = TestServer::demo().await;
    let appt = server
        .count_sql(&format!(
            "SELECT MIN(a.id) FROM appointments a JOIN locations l ON l.id = a.location_id
             WHERE l.loc_num = '103' AND a.status <> 'Canceled' AND a.starts_at > {}
               AND NOT EXISTS (SELECT 1 FROM survey_queue q WHERE q.appointment_id = a.id AND q.status IN ('Assigned', 'IntermediateSave'))",
            now_unix() * 1000 - 12 * 3_600_000
        ))
        .await;
    assert!(appt > 0);
    let patient = server
        .count_sql(&format!(
            "SELECT patient_id FROM appointments WHERE id = {appt}"
        ))
        .await;
    let mrn = server
        .count_sql(&format!(
            "SELECT CAST(mrn AS BIGINT) FROM patients WHERE id = {patient}"
        ))
        .await
        .to_string();
    let mut desk = server.signed_in(FRONT_DESK).await;
    let g = grant(&mut desk).await;
    let body = json!({"RespondentId": mrn, "RespondentEntityId": appt.to_string()});
    let o = staff_send(&mut desk, "/api/v2/survey/startOptions", &body, &g)
        .await
        .expect(StatusCode::OK);
    assert!(o["Choice"]["surveyPerLocation"].is_null(), "{o}");
    let mut admin = server.signed_in(MANAGER).await;
    save(
        &mut admin,
        json!({"SurveyPerLocation": [{"Key": "103", "Value": "MRI-003"}]}),
    )
    .await
    .expect(StatusCode::OK);
    let o = staff_send(&mut desk, "/api/v2/survey/startOptions", &body, &g)
        .await
        .expect(StatusCode::OK);
    assert_eq!(o["Choice"]["surveyPerLocation"], "MRI-003", "{o}");
    // Off, the list is not read.
    save(&mut admin, json!({"IsSurveyPerLocationEnabled": false}))
        .await
        .expect(StatusCode::OK);
    let o = staff_send(&mut desk, "/api/v2/survey/startOptions", &body, &g)
        .await
        .expect(StatusCode::OK);
    assert!(o["Choice"]["surveyPerLocation"].is_null(), "{o}");
}
