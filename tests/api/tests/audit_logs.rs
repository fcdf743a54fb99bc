//! Audit Logs (spec 01 §2.7, §3, §5, §7; issue 15): every call of the six tabs for every role,
//! what a staff read of patient data and a refused access record, the Error Logs row behind a
//! 500's error id with secrets withheld, and the patient's own list of staff accesses (IDOR).

use api_tests::*;

const JANE_MRN: &str = "100001";
const MARIA_MRN: &str = "100002";

fn table() -> Value {
    json!({"PageIndex": 0, "PageSize": 10})
}

/// Every call of the tabs, with a valid body.
fn calls() -> Vec<(Method, &'static str, Option<Value>)> {
    vec![
        (
            Method::POST,
            "/api/PortalAudit/datatables",
            Some(json!({"PageIndex": 0, "PageSize": 10, "patient": JANE_MRN})),
        ),
        (
            Method::POST,
            "/api/PortalAuditEntryLog/datatables",
            Some(json!({"PageIndex": 0, "PageSize": 10, "category": ""})),
        ),
        (Method::GET, "/api/PortalAuditEntryLog/GetLogType", None),
        (Method::POST, "/api/TechpadLog/datatables", Some(table())),
        (Method::POST, "/api/audit/datatables", Some(table())),
        (Method::POST, "/api/Logging/datatables", Some(table())),
        (Method::POST, "/api/EmailLogs/datatables", Some(table())),
        (Method::GET, "/magview.api/patient/search?search=Doe", None),
        (Method::GET, "/api/tests/GetStudies?q=&ssn=100001", None),
    ]
}

async fn call(client: &mut Client, method: &Method, path: &str, body: &Option<Value>) -> Response {
    match body {
        Some(b) if *method == Method::POST => client.post_json(path, b).await,
        _ => client.get(path).await,
    }
}

#[tokio::test]
async fn program_managers_only_every_other_role_is_refused() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    for (method, path, body) in calls() {
        call(&mut manager, &method, path, &body)
            .await
            .expect(StatusCode::OK);
    }
    // Client admins: spec 01 §6 leaves them "not shown"; their menu has no Audit Logs, and the
    // logs hold every patient's accesses: refused, like front desk and patients.
    for account in [CLIENT_ADMIN, FRONT_DESK, JANE] {
        let mut client = server.signed_in(account).await;
        for (method, path, body) in calls() {
            let r = call(&mut client, &method, path, &body).await;
            assert_eq!(
                r.status,
                StatusCode::FORBIDDEN,
                "{} {path}: {}",
                account.username,
                r.text()
            );
        }
    }
    let mut anonymous = server.client();
    for (method, path, body) in calls() {
        let r = call(&mut anonymous, &method, path, &body).await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{path}");
    }
}

/// The manager opens Jane's first letter (a staff read of patient data).
async fn manager_opens_janes_letter(manager: &mut Client) {
    let body = manager
        .post_json("/api/documents/loadDocuments", &json!({"ssn": JANE_MRN}))
        .await
        .expect(StatusCode::OK);
    let token = body["list"][0]["AccessToken"].as_str().unwrap().to_owned();
    let pdf = manager
        .get(&format!("/api/documents/letterPdf?accessToken={token}"))
        .await;
    assert_eq!(pdf.status, StatusCode::OK);
}

#[tokio::test]
async fn patient_logs_show_a_staff_read_with_patient_user_address_and_fields() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;

    // The typeahead: 3+ characters, else an empty list; results carry Ssn, FirstName, LastName.
    let short = manager
        .get("/magview.api/patient/search?search=Do")
        .await
        .expect(StatusCode::OK);
    assert_eq!(short, json!([]));
    let found = manager
        .get("/magview.api/patient/search?search=doe")
        .await
        .expect(StatusCode::OK);
    assert!(
        found
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["Ssn"] == JANE_MRN && p["FirstName"] == "Jane" && p["LastName"] == "Doe"),
        "{found}"
    );
    let studies = manager
        .get(&format!("/api/tests/GetStudies?q=&ssn={JANE_MRN}"))
        .await
        .expect(StatusCode::OK);
    let studies = studies.as_array().unwrap().clone();
    assert!(!studies.is_empty());
    let sdate = studies[0]["Sdate"].as_str().unwrap().to_owned();
    assert_eq!(sdate.len(), 10, "MM/DD/YYYY: {sdate}");
    assert_eq!(&sdate[2..3], "/");

    manager_opens_janes_letter(&mut manager).await;
    let page = manager
        .post_json(
            "/api/PortalAudit/datatables",
            &json!({"PageIndex": 0, "PageSize": 10, "patient": JANE_MRN}),
        )
        .await
        .expect(StatusCode::OK);
    let rows = page["Data"].as_array().unwrap();
    let viewed = rows
        .iter()
        .find(|r| r["Name"] == "LetterViewed" && r["UserName"] == "manager")
        .unwrap_or_else(|| panic!("no LetterViewed row by the manager: {page}"));
    assert_eq!(viewed["PatientName"], "Jane Doe");
    assert_eq!(viewed["Ssn"], JANE_MRN);
    assert_eq!(viewed["Outcome"], "Success");
    assert_eq!(viewed["ClientAddress"], "127.0.0.1");
    assert!(viewed["CreatedAt"].as_str().unwrap().ends_with('Z'));
    let fields: Vec<&str> = viewed["Body"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["Name"].as_str().unwrap())
        .collect();
    assert!(fields.contains(&"LetterType"), "{viewed}");
    // Opening her letters list is a read of its own, with the client address like the others.
    let opened = rows
        .iter()
        .find(|r| r["Name"] == "PatientRecordOpened" && r["UserName"] == "manager")
        .unwrap_or_else(|| panic!("no PatientRecordOpened row by the manager: {page}"));
    assert_eq!(opened["ClientAddress"], "127.0.0.1", "{opened}");
    // Every row is Jane's; Maria's log does not hold it.
    assert!(rows.iter().all(|r| r["Ssn"] == JANE_MRN));
    let maria = manager
        .post_json(
            "/api/PortalAudit/datatables",
            &json!({"PageIndex": 0, "PageSize": 10, "patient": MARIA_MRN}),
        )
        .await
        .expect(StatusCode::OK);
    assert!(
        maria["Data"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["Ssn"] == MARIA_MRN),
        "{maria}"
    );

    // Log dates: a range before today finds nothing; no patient finds nothing.
    let old = manager
        .post_json("/api/PortalAudit/datatables", &json!({"PageIndex": 0, "PageSize": 10, "patient": JANE_MRN, "dateFrom": "2001-01-01", "dateTo": "2001-01-31"}))
        .await
        .expect(StatusCode::OK);
    assert_eq!(old["FilteredCount"], 0, "{old}");
    let none = manager
        .post_json(
            "/api/PortalAudit/datatables",
            &json!({"PageIndex": 0, "PageSize": 10, "patient": ""}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(none["FilteredCount"], 0);
    // A bad date or sort column is a 400, never a 500.
    manager
        .post_json(
            "/api/PortalAudit/datatables",
            &json!({"patient": JANE_MRN, "dateFrom": "yesterday"}),
        )
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    manager
        .post_json(
            "/api/PortalAuditEntryLog/datatables",
            &json!({"SortColumn": "Body; DROP TABLE audit_log"}),
        )
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    // The typeahead itself is audited (a search of patient data by staff).
    assert!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'PatientSearched'")
            .await
            >= 1
    );
}

#[tokio::test]
async fn portal_audit_logs_filter_by_category_search_and_page() {
    let server = TestServer::demo().await;
    for _ in 0..3 {
        server
            .client()
            .login(MANAGER.login_path(), MANAGER.username, "wrong")
            .await;
    }
    for _ in 0..8 {
        server.signed_in(FRONT_DESK).await;
    }
    let mut manager = server.signed_in(MANAGER).await;
    let types = manager
        .get("/api/PortalAuditEntryLog/GetLogType")
        .await
        .expect(StatusCode::OK);
    let types: Vec<&str> = types
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    assert!(types.contains(&"Authentication"), "{types:?}");

    let all = manager
        .post_json(
            "/api/PortalAuditEntryLog/datatables",
            &json!({"PageIndex": 0, "PageSize": 10}),
        )
        .await
        .expect(StatusCode::OK);
    let total = all["TotalCount"].as_i64().unwrap();
    assert_eq!(
        total,
        server.count_sql("SELECT COUNT(*) FROM audit_log").await
    );
    assert_eq!(
        all["Data"].as_array().unwrap().len(),
        10.min(total as usize)
    );
    // Newest first: the manager's sign-in is the last row.
    assert_eq!(all["Data"][0]["Name"], "LoginSucceeded");
    assert_eq!(all["Data"][0]["UserName"], "manager");

    let auth = manager
        .post_json(
            "/api/PortalAuditEntryLog/datatables",
            &json!({"PageIndex": 0, "PageSize": 10, "category": "Authentication"}),
        )
        .await
        .expect(StatusCode::OK);
    let expected = server
        .count_sql("SELECT COUNT(*) FROM audit_log WHERE category = 'Authentication'")
        .await;
    assert_eq!(auth["FilteredCount"].as_i64().unwrap(), expected);
    assert!(auth["Data"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["Category"] == "Authentication"));

    let failed = manager
        .post_json(
            "/api/PortalAuditEntryLog/datatables",
            &json!({"PageIndex": 0, "PageSize": 10, "Search": "loginf"}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(failed["FilteredCount"].as_i64().unwrap(), 3, "{failed}");
    for row in failed["Data"].as_array().unwrap() {
        assert_eq!(row["Name"], "LoginFailed");
        assert!(
            row["StatusWithDescription"]
                .as_str()
                .unwrap()
                .starts_with("Success"),
            "{row}"
        );
    }
    // Oldest first when the date column is chosen ascending; page 2 follows page 1.
    let asc = manager
        .post_json("/api/PortalAuditEntryLog/datatables", &json!({"PageIndex": 0, "PageSize": 10, "SortColumn": "CreatedAt", "SortDirection": "asc"}))
        .await
        .expect(StatusCode::OK);
    let second = manager
        .post_json("/api/PortalAuditEntryLog/datatables", &json!({"PageIndex": 1, "PageSize": 10, "SortColumn": "CreatedAt", "SortDirection": "asc"}))
        .await
        .expect(StatusCode::OK);
    let last_first = asc["Data"][9]["Id"].as_i64().unwrap();
    let first_second = second["Data"][0]["Id"].as_i64().unwrap();
    assert!(first_second > last_first);
}

/// One page of a log table.
async fn log_page(client: &mut Client, path: &str, index: u32, size: u32, search: &str) -> Value {
    client
        .post_json(
            path,
            &json!({"PageIndex": index, "PageSize": size, "Search": search}),
        )
        .await
        .expect(StatusCode::OK)
}

fn with_columns<'a>(page: &'a Value, columns: &[&str]) -> &'a Vec<Value> {
    let rows = page["Data"].as_array().unwrap();
    for row in rows {
        for column in columns {
            assert!(row.get(*column).is_some(), "{column} missing: {row}");
        }
    }
    rows
}

fn names<'a>(rows: &'a [Value], column: &str) -> Vec<&'a str> {
    rows.iter().map(|r| r[column].as_str().unwrap()).collect()
}

fn a_pdf() -> Vec<u8> {
    let mut page = portal_api::pdf::Page::new();
    page.text(72.0, 720.0, false, 12.0, "Consent form");
    portal_api::pdf::assemble(vec![page], "Consent", "Clinic", None)
}

#[tokio::test]
async fn techpad_logs_show_settings_changes_and_the_tablets_calls() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    const TECHPAD: &str = "/api/TechpadLog/datatables";
    assert_eq!(
        log_page(&mut manager, TECHPAD, 0, 10, "").await["TotalCount"],
        0
    );

    // Eight earlier reads of the configuration (a second page), then a techpad settings change,
    // a form uploaded, and the tablet's two calls.
    for _ in 0..8 {
        manager.get_json("/api/techpad/configuration").await;
    }
    let general = manager.get_json("/api/techpadSettings/General").await;
    let mut settings = general["Settings"].clone();
    let shown = settings["IsShowDemoMenuItem"].as_bool().unwrap();
    settings["IsShowDemoMenuItem"] = json!(!shown);
    manager
        .put_json(
            "/api/techpadSettings/General",
            &json!({"Version": general["Version"], "Settings": settings}),
        )
        .await
        .expect(StatusCode::OK);
    let form = manager
        .post_raw(
            "/api/techpadSettings/pdfForms?name=Consent&fileName=consent.pdf",
            a_pdf(),
            "application/pdf",
        )
        .await
        .expect(StatusCode::OK);
    let form_id = form["Id"].as_i64().unwrap();
    let configuration = manager.get_json("/api/techpad/configuration").await;
    let url = configuration["PdfForms"][0]["DownloadUrl"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(manager.get(&url).await.status, StatusCode::OK);

    let page = log_page(&mut manager, TECHPAD, 0, 10, "").await;
    let columns = [
        "CreatedAt",
        "Category",
        "Name",
        "Description",
        "StatusWithDescription",
        "UserId",
        "UserName",
    ];
    let rows = with_columns(&page, &columns);
    assert_eq!(
        names(&rows[..5], "Name"),
        [
            "TechpadPdfFormDownloaded",
            "TechpadConfigurationRead",
            "TechpadPdfFormUploaded",
            "TechpadSettingsSaved",
            "TechpadConfigurationRead"
        ],
        "newest first: {page}"
    );
    assert_eq!(rows.len(), 10);
    assert_eq!(page["TotalCount"], 12);
    for row in rows {
        assert_eq!(row["Category"], "Techpad");
        assert_eq!(row["UserName"], "manager", "who: {row}");
        assert!(
            parse_iso_utc(row["CreatedAt"].as_str().unwrap()).is_some(),
            "when: {row}"
        );
        assert_eq!(row["StatusWithDescription"], "Success");
    }
    // What: the form fetched, the configuration read.
    assert_eq!(rows[0]["Description"], format!("TechpadPdfForm {form_id}"));
    assert_eq!(rows[1]["Description"], "TechpadConfiguration");
    // Each call also stored its client address.
    assert_eq!(
        server
            .count_sql(
                "SELECT COUNT(*) FROM audit_log WHERE category = 'Techpad' AND ip = '127.0.0.1'"
            )
            .await,
        12
    );
    // The settings change keeps its old and new values.
    assert_eq!(
        server
            .count_sql(&format!("SELECT COUNT(*) FROM audit_log WHERE action = 'TechpadSettingsSaved' AND old_values LIKE '%\"IsShowDemoMenuItem\":{shown}%' AND new_values LIKE '%\"IsShowDemoMenuItem\":{}%'", !shown))
            .await,
        1
    );
    // Search by action; paging (page 2 holds the two oldest reads).
    let found = log_page(&mut manager, TECHPAD, 0, 10, "techpadconf").await;
    assert_eq!(found["FilteredCount"], 9, "{found}");
    assert!(found["Data"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["Name"] == "TechpadConfigurationRead"));
    let saved = log_page(&mut manager, TECHPAD, 0, 10, "techpadsettings").await;
    assert_eq!(saved["FilteredCount"], 1, "{saved}");
    let second = log_page(&mut manager, TECHPAD, 1, 10, "").await;
    assert_eq!(
        names(with_columns(&second, &columns), "Name"),
        ["TechpadConfigurationRead", "TechpadConfigurationRead"]
    );
    assert!(second["Data"][0]["Id"].as_i64() > second["Data"][1]["Id"].as_i64());
    assert!(rows[9]["Id"].as_i64() > second["Data"][0]["Id"].as_i64());
}

#[tokio::test]
async fn magview_logs_show_a_created_patient_an_arrival_and_a_demographics_change() {
    let server = TestServer::demo().await;
    const MAGVIEW: &str = "/api/audit/datatables";

    // A patient created at the kiosk's staff start (admin PIN 2468 of the demo kiosk).
    let mut desk = server.signed_in(FRONT_DESK).await;
    let pin = desk
        .get("/api/surveyIdentity/CheckAdminPin?adminPin=2468")
        .await
        .expect(StatusCode::OK);
    let grant = pin["Token"].as_str().unwrap().to_owned();
    let created = json!({
        "Ssn": "MAG-77", "FirstName": "Ada", "LastName": "Quill", "Dob": "1984-07-09", "Gender": "Female",
        "Email": "ada.quill@example.org", "Phone": "(555) 010-4477", "Location": "101", "TimezoneOffset": -300
    });
    let answer = desk
        .send(
            Method::PUT,
            "/magview.api/patient/add",
            Some((created.to_string().into_bytes(), "application/json")),
            Csrf::Auto,
            &[("x-survey-admin", grant.as_str())],
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(answer["Error"], false, "{answer}");

    // An arrival through an I Am Here link (the appointment given a known link first).
    let appointment = server
        .count_sql("SELECT MIN(a.id) FROM appointments a JOIN patients p ON p.id = a.patient_id WHERE p.mrn = '100002'")
        .await;
    let starts = now_unix() * 1000 + 3_600_000;
    server
        .execute_sql(&format!("UPDATE appointments SET iam_here_token = 'test-magview', starts_at = {starts}, status = 'Scheduled', arrival_status = NULL WHERE id = {appointment}"))
        .await;
    let arrived = server
        .client()
        .get_json("/api/HistoryPortal/ProcessIAmHere?token=test-magview")
        .await;
    assert_eq!(arrived["Mode"], "IamHere", "{arrived}");

    // A demographics change: Jane sets her record's language.
    let mut jane = server.signed_in(JANE).await;
    jane.put_json("/api/account/language", &json!({"Language": "chinese"}))
        .await
        .expect(StatusCode::OK);

    let mut manager = server.signed_in(MANAGER).await;
    let page = log_page(&mut manager, MAGVIEW, 0, 10, "").await;
    let columns = ["Date", "Type", "User", "Login", "SDate", "Ssn", "Details"];
    let rows = with_columns(&page, &columns);
    assert_eq!(
        names(&rows[..3], "Type"),
        [
            "PatientDemographicsChanged",
            "PatientArrived",
            "PatientCreated"
        ],
        "newest first: {page}"
    );
    let expected = server
        .count_sql("SELECT COUNT(*) FROM audit_log WHERE action IN ('PatientCreated', 'StudyCreated', 'PatientDemographicsChanged', 'PatientArrived')")
        .await;
    assert_eq!(page["TotalCount"].as_i64().unwrap(), expected);
    let (changed, arrival, new_patient) = (&rows[0], &rows[1], &rows[2]);
    assert_eq!(changed["Ssn"], JANE_MRN);
    assert_eq!(changed["Login"], "jane.doe");
    assert_eq!(
        changed["Details"].as_str().unwrap().to_lowercase(),
        "language: english -> chinese",
        "field-level old and new: {changed}"
    );
    assert_eq!(arrival["Ssn"], MARIA_MRN);
    assert_eq!(new_patient["Ssn"], "MAG-77");
    assert_eq!(new_patient["Login"], "frontdesk");
    let details = new_patient["Details"].as_str().unwrap();
    for field in [
        "FirstName: Ada",
        "LastName: Quill",
        "Dob: 1984-07-09",
        "Email: ada.quill@example.org",
        "Phone: 5550104477",
    ] {
        assert!(details.contains(field), "{field} in {details}");
    }
    for row in &rows[..3] {
        assert!(
            parse_iso_utc(row["Date"].as_str().unwrap()).is_some(),
            "{row}"
        );
    }
    // Search by type; paging.
    let found = log_page(&mut manager, MAGVIEW, 0, 10, "patientdemo").await;
    assert_eq!(found["FilteredCount"], 1, "{found}");
    assert_eq!(found["Data"][0]["Ssn"], JANE_MRN);
    // Paging: the second page holds what the first did not, older rows only.
    let second = log_page(&mut manager, MAGVIEW, 1, 10, "").await;
    let rest = with_columns(&second, &columns);
    assert_eq!(rows.len() as i64, expected.min(10));
    assert_eq!(rest.len() as i64, (expected - 10).clamp(0, 10));
    if let (Some(last), Some(next)) = (rows.last(), rest.first()) {
        assert!(last["Id"].as_i64() > next["Id"].as_i64());
    }
}

#[tokio::test]
async fn email_logs_show_a_delivered_outbox_email() {
    use portal_api::outbox::{self, SystemClock};
    let server = TestServer::demo().await;
    let smtp = SmtpSink::start().await;
    let settings = json!({"EmailFrom": "portal@clinic.test", "SMTPServer": "127.0.0.1", "Port": smtp.port, "SMTPUseSSL": false, "Timeout": 5});
    server
        .execute_sql(&format!(
            "UPDATE settings SET body = '{settings}' WHERE group_name = 'CoreNotifications'"
        ))
        .await;
    let mut desk = server.signed_in(FRONT_DESK).await;
    let queue = desk
        .post_json(
            "/api/surveyQueue/datatable",
            &json!({"PageIndex": 0, "PageSize": 100, "Search": "Doe", "Status": "Assigned"}),
        )
        .await
        .json();
    let id = queue["Data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["SurveyLogId"].is_null())
        .expect("an open survey of Jane Doe")["Id"]
        .as_i64()
        .unwrap();
    desk.post_json(
        &format!("/api/HistoryPortal/ResendAssignMail?surveyQueueId={id}"),
        &json!({}),
    )
    .await
    .expect(StatusCode::OK);
    let db = portal_api::Db::open(server.database_url()).await.unwrap();
    let sent = "SELECT COUNT(*) FROM email_logs WHERE is_sent";
    for _ in 0..50 {
        outbox::deliver_due(&db, &SystemClock, 10).await.unwrap();
        if server.count_sql(sent).await >= 1 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let recipient = server
        .count_sql("SELECT COUNT(*) FROM email_logs WHERE is_sent AND kind = 'SurveyAssignment' AND recipient = (SELECT email FROM patients WHERE mrn = '100001')")
        .await;
    assert_eq!(recipient, 1, "the resend was delivered and logged once");

    let mut manager = server.signed_in(MANAGER).await;
    const EMAIL: &str = "/api/EmailLogs/datatables";
    let page = log_page(&mut manager, EMAIL, 0, 10, "").await;
    let rows = with_columns(
        &page,
        &["Date", "Type", "Message", "Method", "To", "IsSent"],
    );
    let row = &rows[0];
    assert_eq!(row["Type"], "SurveyAssignment", "newest first: {page}");
    assert_eq!(row["IsSent"], true);
    assert!(row["To"].as_str().unwrap().contains('@'), "{row}");
    assert!(
        parse_iso_utc(row["Date"].as_str().unwrap()).is_some(),
        "{row}"
    );
    assert_eq!(
        page["TotalCount"].as_i64().unwrap(),
        server.count_sql("SELECT COUNT(*) FROM email_logs").await
    );
    // Search by recipient; a search matching nothing; paging past the end.
    let to = row["To"].as_str().unwrap().to_owned();
    let found = log_page(&mut manager, EMAIL, 0, 10, &to).await;
    assert!(found["FilteredCount"].as_i64().unwrap() >= 1, "{found}");
    assert!(found["Data"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["To"] == to.as_str()));
    let none = log_page(&mut manager, EMAIL, 0, 10, "nobody-at-all@nowhere").await;
    assert_eq!(none["FilteredCount"], 0);
    // Pages of 10: the last page holds the remainder, a page past it nothing.
    let total = page["TotalCount"].as_u64().unwrap() as u32;
    let last_index = (total - 1) / 10;
    let last = log_page(&mut manager, EMAIL, last_index, 10, "").await;
    assert_eq!(
        last["Data"].as_array().unwrap().len() as u32,
        total - last_index * 10,
        "{last}"
    );
    let past = log_page(&mut manager, EMAIL, last_index + 1, 10, "").await;
    assert_eq!(past["Data"], json!([]), "{past}");
}

#[tokio::test]
async fn a_500s_error_id_finds_its_error_log_row_without_secrets() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    // A failing sign-in whose password must never be stored anywhere.
    server
        .client()
        .login(MANAGER.login_path(), MANAGER.username, "pw-Secret-77a")
        .await;
    server
        .execute_sql("ALTER TABLE email_logs RENAME TO email_logs_gone")
        .await;
    let response = manager
        .post_json(
            "/api/EmailLogs/datatables",
            &json!({"PageIndex": 0, "PageSize": 10}),
        )
        .await;
    let body = response.expect_error(StatusCode::INTERNAL_SERVER_ERROR);
    let error_id = body["ErrorId"].as_str().unwrap().to_owned();
    let mut row = None;
    for _ in 0..50 {
        let page = manager
            .post_json(
                "/api/Logging/datatables",
                &json!({"PageIndex": 0, "PageSize": 10, "Search": error_id}),
            )
            .await
            .expect(StatusCode::OK);
        if let Some(r) = page["Data"].as_array().unwrap().first() {
            row = Some(r.clone());
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let row = row.unwrap_or_else(|| {
        let log = server.stderr();
        let tail: Vec<&str> = log
            .lines()
            .filter(|l| l.contains("ERROR") || l.contains("error log"))
            .collect();
        panic!(
            "no Error Logs row for {error_id} ({} bytes of log): {tail:?}",
            log.len()
        )
    });
    assert_eq!(row["ErrorId"], error_id.as_str());
    assert_eq!(row["EventLevel"], "Error");
    assert_eq!(row["RequestUrl"], "/api/EmailLogs/datatables");
    assert_eq!(row["ErrorMethod"], "POST");
    assert!(!row["ErrorClass"].as_str().unwrap().is_empty());
    assert!(!row["EventMessage"].as_str().unwrap().is_empty());
    for column in [
        "EventDateTime",
        "EventLevel",
        "EventMessage",
        "RequestUrl",
        "ErrorMethod",
        "ErrorClass",
    ] {
        assert!(row.get(column).is_some(), "{column}");
    }
    assert_eq!(
        server.count_sql("SELECT COUNT(*) FROM error_log WHERE message LIKE '%pw-Secret%' OR request_url LIKE '%pw-Secret%'").await,
        0
    );
}

#[tokio::test]
async fn the_patient_sees_staff_accesses_to_her_own_record_only() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    manager_opens_janes_letter(&mut manager).await;

    let mut jane = server.signed_in(JANE).await;
    let mine = jane
        .post_json("/api/account/recordAccesses", &table())
        .await
        .expect(StatusCode::OK);
    let rows = mine["Data"].as_array().unwrap();
    let access = rows
        .iter()
        .find(|r| r["What"] == "Letter opened")
        .unwrap_or_else(|| panic!("the manager's access is missing: {mine}"));
    assert_eq!(access["Role"], "ProgramManager");
    assert!(!access["UserName"].as_str().unwrap().is_empty());
    // Her own reads are not "staff accesses".
    let own = jane
        .post_json(
            "/api/documents/loadDocuments",
            &json!({"TimezoneOffset": 0}),
        )
        .await
        .expect(StatusCode::OK);
    let token = own["list"][0]["AccessToken"].as_str().unwrap().to_owned();
    assert_eq!(
        jane.get(&format!("/api/documents/letterPdf?accessToken={token}"))
            .await
            .status,
        StatusCode::OK
    );
    let again = jane
        .post_json("/api/account/recordAccesses", &table())
        .await
        .expect(StatusCode::OK);
    assert_eq!(again["TotalCount"], mine["TotalCount"]);

    // Maria sees none of Jane's, however she asks (the call takes no patient id).
    let mut maria = server.signed_in(MARIA).await;
    let hers = maria
        .post_json(
            "/api/account/recordAccesses",
            &json!({"PageIndex": 0, "PageSize": 10, "PatientId": 1, "patient": JANE_MRN}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(hers["TotalCount"], 0, "{hers}");
    // Staff are not patients: the list is the patient's own.
    manager
        .post_json("/api/account/recordAccesses", &table())
        .await
        .expect_error(StatusCode::FORBIDDEN);

    // Maria asking for Jane's letter is refused and recorded as denied, against Jane's record.
    maria
        .get(&format!("/api/documents/letterPdf?accessToken={token}"))
        .await
        .expect_error(StatusCode::NOT_FOUND);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'LetterAccessDenied' AND outcome = 'Denied' AND patient_id IS NOT NULL")
            .await,
        1
    );
}
