//! Audit log at a million rows (issue 15). Three modes, against a database the portal opened
//! (migrated, demo data loaded):
//!
//!   audit_bench fill DATABASE_URL KEY_FILE ROWS       append ROWS rows through the real chain path
//!                                                     (audit_chain::append_batch, 2,000 rows a transaction),
//!                                                     spread over 2,000 bench patients
//!   audit_bench overhead DATABASE_URL KEY_FILE N      a change (a letter marked read) alone and with
//!                                                     its audit row, N times each: p50/p99 of both
//!   audit_bench verify DATABASE_URL KEY_FILE          audit_chain::verify over the whole chain
//!   audit_bench search BASE_URL N                     Patient Logs and Portal Audit requests against
//!                                                     a running portal, N per case: p50/p99
//!
//! Each prints one JSON line.

use std::time::Instant;

use portal_api::audit::{Action, Actor, Entry, Target};
use portal_api::audit_chain;
use portal_api::db::now_ms;
use portal_api::secrets::SecretBox;
use portal_api::store::surveys::{insert_staff_patient, NewStaffPatient};
use portal_api::Db;
use reqwest::header::{CONTENT_TYPE, COOKIE, SET_COOKIE};
use serde_json::{json, Value};

const PATIENTS: i64 = 2000;
/// A search case's request body for the i-th request.
type Body = Box<dyn Fn(usize) -> Value>;
const CATEGORIES: [&str; 5] = [
    "Authentication",
    "Documents",
    "Survey",
    "Settings",
    "Patient",
];
const SEARCHES: [&str; 4] = ["login", "letterv", "manager", "zzz"];
const BATCH: i64 = 2000;

fn quantiles(mut us: Vec<u128>) -> Value {
    us.sort_unstable();
    let at = |q: f64| {
        if us.is_empty() {
            return 0.0;
        }
        let i = ((us.len() as f64 - 1.0) * q).round() as usize;
        us[i] as f64 / 1000.0
    };
    json!({"count": us.len(), "p50_ms": at(0.5), "p99_ms": at(0.99), "max_ms": at(1.0)})
}

async fn open(url: &str, key_file: &str) -> (Db, SecretBox) {
    let db = Db::open(url).await.expect("open the database");
    let key = SecretBox::open(std::path::Path::new(key_file)).expect("key file");
    audit_chain::install(key.checkpoint_key());
    (db, key)
}

/// The bench patients (MRN B000001...), created once; their ids.
async fn patients(db: &Db) -> Vec<i64> {
    let mut ids = Vec::new();
    let mut tx = db.begin().await.unwrap();
    for i in 1..=PATIENTS {
        let mrn = format!("B{i:06}");
        let id = insert_staff_patient(
            &mut tx,
            &NewStaffPatient {
                mrn: &mrn,
                first_name: "Bench",
                last_name: &format!("Patient{i:05}"),
                dob: "1970-01-01",
                gender: None,
                email: None,
                phone: None,
                location_id: 1,
                now: now_ms(),
            },
        )
        .await
        .unwrap();
        if let Some(id) = id {
            ids.push(id);
        }
    }
    tx.commit().await.unwrap();
    if ids.is_empty() {
        panic!("the bench patients exist already: fill a fresh demo database");
    }
    ids
}

async fn fill(db: &Db, rows: i64) -> Value {
    let ids = patients(db).await;
    // A mix like a clinic's: letter views, sign-ins, settings saves, techpad rows, arrivals.
    let actions = [
        Action::LetterViewed,
        Action::LoginSucceeded,
        Action::LoginFailed,
        Action::SurveySubmitted,
        Action::SettingsSaved,
        Action::PatientArrived,
        Action::PatientSearched,
        Action::LetterAcknowledged,
    ];
    let started = Instant::now();
    let mut written = 0;
    while written < rows {
        // The bulk path of the chain (audit_chain::append_batch): the same links, hashes,
        // counts and checkpoints as one Entry::write per row, in multi-row INSERTs.
        let batch: Vec<_> = (written..(written + BATCH).min(rows))
            .map(|n| {
                let n = n as usize;
                let action = actions[n % actions.len()];
                let patient = matches!(
                    action,
                    Action::LetterViewed
                        | Action::SurveySubmitted
                        | Action::PatientArrived
                        | Action::LetterAcknowledged
                )
                .then(|| ids[n % ids.len()]);
                Entry::new(Actor::user(1 + (n as i64 % 5)), action, Target::none())
                    .values(
                        None,
                        Some(json!({"LetterType": "Results", "PatientId": patient, "Row": n})),
                    )
                    .ip(Some("127.0.0.1".to_owned()))
                    .patient(patient)
                    .into_row()
            })
            .collect();
        let mut tx = db.begin().await.unwrap();
        audit_chain::append_batch(&mut tx, &batch).await.unwrap();
        tx.commit().await.unwrap();
        written += batch.len() as i64;
    }
    json!({"rows": rows, "seconds": started.elapsed().as_secs_f64()})
}

async fn overhead(db: &Db, n: usize) -> Value {
    let letter: i64 = portal_api::store::audit_logs::any_letter_id(db)
        .await
        .unwrap()
        .expect("a demo letter");
    let mut alone = Vec::new();
    let mut with_row = Vec::new();
    for i in 0..n * 2 {
        let audited = i % 2 == 1;
        let t = Instant::now();
        let mut tx = db.begin().await.unwrap();
        portal_api::store::documents::mark_read(&mut tx, letter, now_ms())
            .await
            .unwrap();
        if audited {
            Entry::new(Actor::user(1), Action::LetterViewed, Target::none())
                .values(None, Some(json!({"LetterType": "Results", "PatientId": 1})))
                .patient(Some(1))
                .write(&mut tx)
                .await
                .unwrap();
        }
        tx.commit().await.unwrap();
        let us = t.elapsed().as_micros();
        if audited {
            with_row.push(us);
        } else {
            alone.push(us);
        }
    }
    json!({"alone": quantiles(alone), "with_audit_row": quantiles(with_row)})
}

async fn search(base: &str, n: usize) -> Value {
    let client = reqwest::Client::new();
    let login = client
        .post(format!("{base}/api/staffUser/login"))
        .header(CONTENT_TYPE, "application/json")
        .header(COOKIE, "portal_csrf=bench")
        .header("X-CSRF-Token", "bench")
        .body(r#"{"usernameOrEmail":"manager","password":"Portal!2026"}"#)
        .send()
        .await
        .unwrap();
    let cookies: Vec<String> = login
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| v.split(';').next())
        .filter(|pair| !pair.starts_with("portal_csrf="))
        .map(str::to_owned)
        .collect();
    assert!(
        login.status().is_success(),
        "sign-in failed: {}",
        login.status()
    );
    let cookie = format!("{}; portal_csrf=bench", cookies.join("; "));
    let cases: Vec<(&str, &str, Body)> = vec![
        (
            "patient_logs",
            "/api/PortalAudit/datatables",
            Box::new(
                |i| json!({"PageIndex": 0, "PageSize": 10, "patient": format!("B{:06}", 1 + i % PATIENTS as usize)}),
            ),
        ),
        (
            "patient_logs_page_5_date_range",
            "/api/PortalAudit/datatables",
            Box::new(
                |i| json!({"PageIndex": 4, "PageSize": 10, "patient": format!("B{:06}", 1 + i % PATIENTS as usize), "dateFrom": "2020-01-01", "dateTo": "2099-12-31"}),
            ),
        ),
        (
            "portal_all",
            "/api/PortalAuditEntryLog/datatables",
            Box::new(|_| json!({"PageIndex": 0, "PageSize": 10})),
        ),
        (
            "portal_category",
            "/api/PortalAuditEntryLog/datatables",
            Box::new(
                |i| json!({"PageIndex": i % 20, "PageSize": 10, "category": CATEGORIES[i % 5]}),
            ),
        ),
        (
            "portal_search",
            "/api/PortalAuditEntryLog/datatables",
            Box::new(|i| json!({"PageIndex": 0, "PageSize": 10, "Search": SEARCHES[i % 4]})),
        ),
        (
            "portal_page_100",
            "/api/PortalAuditEntryLog/datatables",
            Box::new(|_| json!({"PageIndex": 99, "PageSize": 10, "category": "Authentication"})),
        ),
    ];
    let mut out = serde_json::Map::new();
    for (name, path, body) in cases {
        let mut us = Vec::new();
        for i in 0..n {
            let t = Instant::now();
            let r = client
                .post(format!("{base}{path}"))
                .header("X-CSRF-Token", "bench")
                .header(COOKIE, &cookie)
                .header(CONTENT_TYPE, "application/json")
                .body(body(i).to_string())
                .send()
                .await
                .unwrap();
            let status = r.status();
            let _ = r.bytes().await;
            assert!(status.is_success(), "{name}: {status}");
            us.push(t.elapsed().as_micros());
        }
        out.insert(name.to_owned(), quantiles(us));
    }
    Value::Object(out)
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize| args.get(i).cloned().unwrap_or_default();
    let result = match arg(1).as_str() {
        "fill" => {
            let (db, _) = open(&arg(2), &arg(3)).await;
            fill(&db, arg(4).parse().unwrap_or(1_000_000)).await
        }
        "overhead" => {
            let (db, _) = open(&arg(2), &arg(3)).await;
            overhead(&db, arg(4).parse().unwrap_or(1000)).await
        }
        "verify" => {
            let (db, key) = open(&arg(2), &arg(3)).await;
            let t = Instant::now();
            let report = audit_chain::verify(&db, &key.checkpoint_key())
                .await
                .unwrap();
            json!({"rows": report.rows, "checkpoints": report.checkpoints, "ok": report.first_break.is_none(), "seconds": t.elapsed().as_secs_f64()})
        }
        "search" => search(&arg(2), arg(3).parse().unwrap_or(200)).await,
        _ => {
            eprintln!("usage: audit_bench fill|overhead|verify DATABASE_URL KEY_FILE [N] | search BASE_URL [N]");
            std::process::exit(2);
        }
    };
    println!("{result}");
}
