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

#[tokio::test]
async fn techpad_and_magview_logs_read_their_rows() {
    let server = TestServer::demo().await;
    // Rows of the Techpad category (whatever their action) and a patient created at the staff
    // start, written as the portal writes them.
    server
        .execute_sql(
            "INSERT INTO audit_counts (category, action, n) VALUES ('Techpad', 'TechpadProbe', 0)",
        )
        .await;
    let mut manager = server.signed_in(MANAGER).await;
    let techpad = manager
        .post_json("/api/TechpadLog/datatables", &table())
        .await
        .expect(StatusCode::OK);
    assert_eq!(techpad["Data"], json!([]));
    let magview = manager
        .post_json("/api/audit/datatables", &table())
        .await
        .expect(StatusCode::OK);
    for row in magview["Data"].as_array().unwrap() {
        for column in ["Date", "Type", "User", "Login", "SDate", "Ssn", "Details"] {
            assert!(row.get(column).is_some(), "{column} missing: {row}");
        }
    }
    // An arrival (I Am Here) shows in MagView Audit Logs with the patient's MRN.
    let arrivals = server
        .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'PatientArrived'")
        .await;
    assert!(magview["TotalCount"].as_i64().unwrap() >= arrivals);
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
