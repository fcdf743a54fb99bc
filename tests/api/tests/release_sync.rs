//! Release sync (issue 16; spec 03 §2 release-sync, §4 "Release sync", §7, §8): in FoxPro mode the
//! clinical system's release tables (RELEASE*.DBF under MagViewPath, written here with the same
//! `dbase` crate the API reads them with) are imported into letters by the ReleaseSync service;
//! each release row once, across a stop and an API restart mid-run; a malformed table gives a
//! clear status; SQL mode has nothing to sync; only settings admins may call it. Runs on SQLite
//! and (TEST_DATABASE_URL) PostgreSQL.

use std::path::Path;
use std::time::{Duration, Instant};

use api_tests::*;
use dbase::{FieldName, FieldValue, Record, TableWriterBuilder};

const CHECK: &str = "/magview.api/ReleaseTables/CheckSyncCompleteness";
const SYNC: &str = "/magview.api/ReleaseTables/Sync";
const STOP: &str = "/magview.api/ReleaseTables/StopSync";
const DELETE: &str = "/magview.api/ReleaseTables/DeleteSyncedRecords";

/// One release row as the tests write it.
struct Rel<'a> {
    id: String,
    mrn: &'a str,
    letter_type: &'a str,
    date: (u32, u32, u32),
    time: &'a str,
    bi_rads: &'a str,
    pdf: String,
    /// RSEQ (the column is written only when a row has one: N for a number, C for a text).
    rseq: Option<FieldValue>,
}

fn rel(id: usize, mrn: &str) -> Rel<'_> {
    Rel {
        id: format!("R{id}"),
        mrn,
        letter_type: "Notification",
        date: (14, 3, 2026),
        time: "09:30",
        bi_rads: "",
        pdf: "letters/a.pdf".to_owned(),
        rseq: None,
    }
}

fn name(n: &str) -> FieldName {
    FieldName::try_from(n).unwrap()
}

fn write_table(path: &Path, rows: &[Rel<'_>]) {
    let builder = match rows.iter().find_map(|r| r.rseq.as_ref()) {
        Some(FieldValue::Character(_)) => {
            TableWriterBuilder::new().add_character_field(name("RSEQ"), 10)
        }
        Some(_) => TableWriterBuilder::new().add_numeric_field(name("RSEQ"), 10, 0),
        None => TableWriterBuilder::new(),
    };
    let mut writer = builder
        .add_character_field(name("RELID"), 20)
        .add_character_field(name("MRN"), 20)
        .add_character_field(name("FIRSTNAME"), 30)
        .add_character_field(name("LASTNAME"), 30)
        .add_character_field(name("LETTERID"), 20)
        .add_character_field(name("LETTERTYPE"), 30)
        .add_date_field(name("RELDATE"))
        .add_character_field(name("RELTIME"), 8)
        .add_character_field(name("BIRADS"), 4)
        .add_character_field(name("PDFPATH"), 120)
        .build_with_file_dest(path)
        .unwrap();
    let records: Vec<Record> = rows
        .iter()
        .map(|r| {
            let mut rec = Record::default();
            let c = |s: &str| FieldValue::Character(Some(s.to_owned()));
            rec.insert("RELID".into(), c(&r.id));
            rec.insert("MRN".into(), c(r.mrn));
            rec.insert("FIRSTNAME".into(), c("Dana"));
            rec.insert("LASTNAME".into(), c("Release"));
            rec.insert("LETTERID".into(), c(&format!("L-{}", r.id)));
            rec.insert("LETTERTYPE".into(), c(r.letter_type));
            let (d, m, y) = r.date;
            rec.insert(
                "RELDATE".into(),
                FieldValue::Date(Some(dbase::Date::new(d, m, y).unwrap())),
            );
            rec.insert("RELTIME".into(), c(r.time));
            rec.insert("BIRADS".into(), c(r.bi_rads));
            rec.insert("PDFPATH".into(), c(&r.pdf));
            if let Some(rseq) = &r.rseq {
                rec.insert("RSEQ".into(), rseq.clone());
            }
            rec
        })
        .collect();
    for record in &records {
        writer.write_record(record).unwrap();
    }
    writer.finalize().unwrap();
}

fn write_pdfs(dir: &Path) {
    std::fs::create_dir_all(dir.join("letters")).unwrap();
    std::fs::write(
        dir.join("letters/a.pdf"),
        b"%PDF-1.4\n% a release letter\n%%EOF\n",
    )
    .unwrap();
    std::fs::write(dir.join("letters/not-a.pdf"), b"hello").unwrap();
}

/// Saves `fields` over group `name` (through the API, as the page does).
async fn save(client: &mut Client, group: &str, fields: Value) {
    let path = format!("/api/configurationForm/{group}");
    let doc = client.get_json(&path).await;
    let mut settings = doc["Settings"].clone();
    for (k, v) in fields.as_object().unwrap() {
        settings[k] = v.clone();
    }
    client
        .send(
            Method::PUT,
            &path,
            Some((
                serde_json::to_vec(&json!({"Version": doc["Version"], "Settings": settings}))
                    .unwrap(),
                "application/json",
            )),
            Csrf::Auto,
            &[],
        )
        .await
        .expect(StatusCode::OK);
}

async fn foxpro(admin: &mut Client, dir: &Path) {
    save(
        admin,
        "CoreMagview",
        json!({"MagViewMode": "MagViewDesktop", "MagViewPath": dir.to_str().unwrap(),
               "DataConnectionType": "FOXPRO", "SchedulerApptType": "Screening"}),
    )
    .await;
}

/// A state-changing GET with the CSRF double submit (as the page sends it).
async fn act(client: &mut Client, path: &str) -> Value {
    if client.cookie("portal_csrf").is_none() {
        client.get("/api/health").await;
    }
    let token = client.cookie("portal_csrf").unwrap();
    client
        .send(
            Method::GET,
            path,
            None,
            Csrf::Omit,
            &[("x-csrf-token", &token)],
        )
        .await
        .expect(StatusCode::OK)
}

async fn check(client: &mut Client) -> Value {
    client.get(CHECK).await.expect(StatusCode::OK)
}

/// Polls until no sync runs (the ReleaseSync service's pass comes every 2 s).
async fn until_idle(client: &mut Client) -> Value {
    let start = Instant::now();
    loop {
        let p = check(client).await;
        if p["isSyncInProgress"] == false {
            return p;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "sync still running: {p}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn imported_letters(server: &TestServer) -> i64 {
    server
        .count_sql(
            "SELECT COUNT(*) FROM letters WHERE id IN (SELECT letter_id FROM release_imports)",
        )
        .await
}

#[tokio::test]
async fn sql_mode_is_not_applicable() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(MANAGER).await;
    let p = check(&mut admin).await;
    assert_eq!(p["applicable"], false);
    assert_eq!(p["isSyncInProgress"], false);
    let p = act(&mut admin, SYNC).await;
    assert_eq!(p["applicable"], false);
    assert_eq!(p["isSyncInProgress"], false);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM release_imports")
            .await,
        0
    );
}

#[tokio::test]
async fn foxpro_sync_imports_each_release_row_once_with_its_hold() {
    let server = TestServer::demo().await;
    let dir = tempfile::tempdir().unwrap();
    write_pdfs(dir.path());
    // Referring physician letters are hidden for good: their email is never due.
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    save(
        &mut admin,
        "DocumentsHidingEmailNotSending",
        json!({"HideRPLetForever": true}),
    )
    .await;
    let mut rows = vec![rel(1, "REL-0001"), rel(2, "REL-0001"), rel(3, "REL-0002")];
    rows[1].bi_rads = "4";
    rows[2].letter_type = "ReferringPhysician";
    write_table(&dir.path().join("RELEASE.DBF"), &rows);
    foxpro(&mut admin, dir.path()).await;

    let p = check(&mut admin).await;
    assert_eq!(
        p,
        json!({"isSyncInProgress": false, "progress": 0, "synced": 0, "syncable": 3, "status": "",
               "detail": "", "manuallyStopped": false, "applicable": true})
    );
    let started = act(&mut admin, SYNC).await;
    assert_eq!(started["status"], "In progress");
    let done = until_idle(&mut admin).await;
    assert_eq!(done["progress"], 100, "{done}");
    assert_eq!(
        (done["synced"].clone(), done["syncable"].clone()),
        (json!(3), json!(3))
    );
    assert_eq!(done["status"], "Completed");
    assert_eq!(imported_letters(&server).await, 3);
    // Unknown MRNs became patients; the letters carry type, BI-RADS, PDF and the release time
    // (09:30 in the clinic's zone) and owe their email as the hold says.
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM patients WHERE mrn IN ('REL-0001', 'REL-0002')")
            .await,
        2
    );
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM letters WHERE bi_rads = '4' AND letter_type = 'Notification' AND pdf IS NOT NULL AND email_due = TRUE AND emailed_at IS NULL")
            .await,
        1
    );
    assert_eq!(
        server.count_sql("SELECT COUNT(*) FROM letters WHERE letter_type = 'ReferringPhysician' AND email_due = FALSE AND id IN (SELECT letter_id FROM release_imports)").await,
        1
    );
    let sent_at = server
        .count_sql(
            "SELECT MIN(sent_at) FROM letters WHERE id IN (SELECT letter_id FROM release_imports)",
        )
        .await;
    let expected = 1_773_446_400_000 + 9 * 3_600_000 + 30 * 60_000; // 2026-03-14T09:30Z
    let offset_ms = sent_at - expected;
    assert_eq!(offset_ms % 60_000, 0, "release time {sent_at}");
    assert!(offset_ms.abs() <= 14 * 3_600_000);
    assert_eq!(server.count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'LetterImported' AND patient_id IS NOT NULL").await, 3);

    // A second sync imports nothing again; a new release row is picked up alone.
    act(&mut admin, SYNC).await;
    until_idle(&mut admin).await;
    assert_eq!(imported_letters(&server).await, 3);
    rows.push(rel(4, "REL-0002"));
    write_table(&dir.path().join("RELEASE.DBF"), &rows);
    let p = check(&mut admin).await;
    assert_eq!(
        (
            p["progress"].clone(),
            p["synced"].clone(),
            p["syncable"].clone()
        ),
        (json!(75), json!(3), json!(4))
    );
    act(&mut admin, SYNC).await;
    let p = until_idle(&mut admin).await;
    assert_eq!(p["progress"], 100);
    assert_eq!(imported_letters(&server).await, 4);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM release_imports")
            .await,
        4
    );

    // delete all: the imported letters go, each with its audit row; progress back to 0.
    let p = admin
        .send(Method::DELETE, DELETE, None, Csrf::Auto, &[])
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        (
            p["progress"].clone(),
            p["synced"].clone(),
            p["syncable"].clone()
        ),
        (json!(0), json!(0), json!(4))
    );
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM release_imports")
            .await,
        0
    );
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM letters WHERE bi_rads = '4'")
            .await,
        0
    );
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'ImportedLetterDeleted'")
            .await,
        4
    );
}

/// RSEQ (optional, N or C holding a whole number) becomes the letter's release sequence, which
/// the RSeq / RDate grouping of the letters list reads; a table without it imports none, an RSEQ
/// that is not a whole number is the row's problem.
#[tokio::test]
async fn the_optional_rseq_column_is_imported() {
    let server = TestServer::demo().await;
    let dir = tempfile::tempdir().unwrap();
    write_pdfs(dir.path());
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    write_table(&dir.path().join("RELEASE.DBF"), &[rel(1, "REL-0001")]);
    let mut numbered = vec![rel(2, "REL-0001"), rel(3, "REL-0001")];
    numbered[0].rseq = Some(FieldValue::Numeric(Some(3.0)));
    numbered[1].rseq = Some(FieldValue::Numeric(None));
    write_table(&dir.path().join("RELEASE2.DBF"), &numbered);
    let mut texts = vec![rel(4, "REL-0001"), rel(5, "REL-0001")];
    texts[0].rseq = Some(FieldValue::Character(Some(" 12 ".to_owned())));
    texts[1].rseq = Some(FieldValue::Character(Some("2b".to_owned())));
    write_table(&dir.path().join("RELEASE3.DBF"), &texts);
    foxpro(&mut admin, dir.path()).await;
    act(&mut admin, SYNC).await;
    let done = until_idle(&mut admin).await;
    assert_eq!(done["status"], "Sync Failed", "{done}");
    assert!(
        done["detail"]
            .as_str()
            .unwrap()
            .contains("RELEASE3.DBF row R5: RSEQ is not a whole number"),
        "{done}"
    );
    let seq_of = |table: &str, rel_id: &str| {
        format!(
            "SELECT COALESCE(MAX(l.release_seq), -1) FROM letters l JOIN release_imports r ON r.letter_id = l.id
             WHERE r.table_name = '{table}' AND r.release_id = '{rel_id}'"
        )
    };
    assert_eq!(server.count_sql(&seq_of("RELEASE.DBF", "R1")).await, -1);
    assert_eq!(server.count_sql(&seq_of("RELEASE2.DBF", "R2")).await, 3);
    assert_eq!(server.count_sql(&seq_of("RELEASE2.DBF", "R3")).await, -1);
    assert_eq!(server.count_sql(&seq_of("RELEASE3.DBF", "R4")).await, 12);
    assert_eq!(imported_letters(&server).await, 4);
}

#[tokio::test]
async fn a_malformed_table_or_row_gives_a_clear_status() {
    let server = TestServer::demo().await;
    let dir = tempfile::tempdir().unwrap();
    write_pdfs(dir.path());
    std::fs::write(
        dir.path().join("RELEASE.DBF"),
        b"\x03\x7e\x0b\x1a this is not a table",
    )
    .unwrap();
    let mut bad_pdf = rel(2, "REL-0003");
    bad_pdf.pdf = "letters/not-a.pdf".to_owned();
    let mut outside = rel(3, "REL-0003");
    outside.pdf = "../../etc/passwd".to_owned();
    let mut bad_time = rel(4, "REL-0003");
    bad_time.time = "25:99";
    write_table(
        &dir.path().join("release_2026.dbf"),
        &[rel(1, "REL-0003"), bad_pdf, outside, bad_time],
    );
    let mut admin = server.signed_in(MANAGER).await;
    foxpro(&mut admin, dir.path()).await;

    let p = check(&mut admin).await;
    assert_eq!(p["syncable"], 4);
    assert_eq!(p["progress"], 0);
    let detail = p["detail"].as_str().unwrap();
    assert!(
        detail.starts_with("RELEASE.DBF: not a readable dBASE table"),
        "{detail}"
    );
    act(&mut admin, SYNC).await;
    let p = until_idle(&mut admin).await;
    assert_eq!(p["status"], "Sync Failed");
    assert_eq!(
        (p["synced"].clone(), p["syncable"].clone()),
        (json!(1), json!(4))
    );
    assert_eq!(p["progress"], 25);
    let detail = p["detail"].as_str().unwrap();
    for needle in [
        "RELEASE.DBF: not a readable dBASE table",
        "RELEASE_2026.DBF row R2: PDF 'letters/not-a.pdf' is not a PDF",
        "RELEASE_2026.DBF row R3: PDF '../../etc/passwd'",
        "RELEASE_2026.DBF row R4: RELTIME is not HH:MM or HH:MM:SS",
    ] {
        assert!(detail.contains(needle), "{needle} not in {detail}");
    }
    assert_eq!(imported_letters(&server).await, 1);

    // A table without the required columns is named with them.
    let mut writer = TableWriterBuilder::new()
        .add_character_field(name("RELID"), 10)
        .build_with_file_dest(dir.path().join("RELEASE.DBF"))
        .unwrap();
    writer.finalize().unwrap();
    let p = check(&mut admin).await;
    assert!(
        p["detail"]
            .as_str()
            .unwrap()
            .contains("RELEASE.DBF: column(s) MRN, LETTERTYPE, RELDATE, PDFPATH missing"),
        "{p}"
    );
    // A missing folder too.
    foxpro(&mut admin, &dir.path().join("gone")).await;
    let p = check(&mut admin).await;
    assert!(
        p["detail"].as_str().unwrap().contains("cannot be read"),
        "{p}"
    );
    assert_eq!(p["progress"], 0);
    server.assert_alive().await;
}

#[tokio::test]
async fn stop_and_api_restart_mid_run_import_every_row_once() {
    let mut server = TestServer::demo().await;
    let dir = tempfile::tempdir().unwrap();
    write_pdfs(dir.path());
    const ROWS: usize = 1500;
    let mrns: Vec<String> = (0..50).map(|i| format!("BULK-{i:03}")).collect();
    let rows: Vec<Rel<'_>> = (0..ROWS).map(|i| rel(i, &mrns[i % mrns.len()])).collect();
    write_table(&dir.path().join("RELEASE.DBF"), &rows);
    let mut admin = server.signed_in(MANAGER).await;
    foxpro(&mut admin, dir.path()).await;

    // Stopped by the user: status Stopped, manually stopped, below 100; Stop only while running.
    act(&mut admin, SYNC).await;
    wait_for_rows(&server, 1).await;
    let stopped = act(&mut admin, STOP).await;
    assert_eq!(stopped["status"], "Stopped");
    assert_eq!(stopped["manuallyStopped"], true);
    assert_eq!(stopped["isSyncInProgress"], false);
    // delete all is refused only while running; here nothing runs, but keep the rows.
    let after_stop = imported_letters(&server).await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    let settled = imported_letters(&server).await;
    assert!(
        settled <= after_stop + 10,
        "the runner went on after the stop: {after_stop} -> {settled}"
    );
    assert!((settled as usize) < ROWS);

    // Started again, then the API is killed mid-run: the next instance resumes the same run.
    let p = act(&mut admin, SYNC).await;
    assert_eq!(p["manuallyStopped"], false);
    wait_for_rows(&server, settled + 1).await;
    // Refused while running (409).
    admin
        .send(Method::DELETE, DELETE, None, Csrf::Auto, &[])
        .await
        .expect_error(StatusCode::CONFLICT);
    server.stop();
    let at_kill = imported_letters(&server).await;
    assert!(
        (at_kill as usize) < ROWS,
        "the import ended before the restart ({at_kill} rows)"
    );
    server.restart(ServerOptions::demo()).await;
    let mut admin = server.signed_in(MANAGER).await;
    let p = until_idle(&mut admin).await;
    assert_eq!(p["progress"], 100, "{p}");
    assert_eq!(p["status"], "Completed");
    assert_eq!(imported_letters(&server).await, ROWS as i64);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM release_imports")
            .await,
        ROWS as i64
    );
    // Every letter of the release belongs to exactly one key, and no letter was left behind by a
    // cut-short transaction.
    assert_eq!(
        server.count_sql("SELECT COUNT(*) FROM letters l JOIN patients p ON p.id = l.patient_id WHERE p.mrn LIKE 'BULK-%'").await,
        ROWS as i64
    );
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM patients WHERE mrn LIKE 'BULK-%'")
            .await,
        50
    );
}

/// Issue 16 "reports progress from any instance": a sync started on one API instance is seen
/// running, with its counts, by a second instance on the same database, and seen completed.
#[tokio::test]
async fn a_second_instance_reads_the_progress_of_a_sync_started_on_the_first() {
    let server = TestServer::demo().await;
    let dir = tempfile::tempdir().unwrap();
    write_pdfs(dir.path());
    const ROWS: usize = 1200;
    let mrns: Vec<String> = (0..20).map(|i| format!("TWO-{i:03}")).collect();
    let rows: Vec<Rel<'_>> = (0..ROWS).map(|i| rel(i, &mrns[i % mrns.len()])).collect();
    write_table(&dir.path().join("RELEASE.DBF"), &rows);
    let mut first = server.signed_in(MANAGER).await;
    foxpro(&mut first, dir.path()).await;
    // Started after the settings were saved, so it reads FoxPro mode from the first read on.
    let other = server.another_instance(ServerOptions::demo()).await;
    let mut second = other.signed_in(MANAGER).await;
    let before = check(&mut second).await;
    assert_eq!(before["isSyncInProgress"], false, "{before}");
    assert_eq!(before["syncable"], ROWS as i64, "{before}");
    assert_eq!(before["synced"], 0);

    act(&mut first, SYNC).await;
    // The second instance sees the run going: in progress, part of the rows, never more than
    // are stored.
    let start = Instant::now();
    let running = loop {
        let p = check(&mut second).await;
        let synced = p["synced"].as_i64().unwrap();
        if p["isSyncInProgress"] == true && synced > 0 && (synced as usize) < ROWS {
            break p;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the second instance never saw the run: {p}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(running["status"], "In progress", "{running}");
    assert!(running["progress"].as_i64().unwrap() < 100, "{running}");
    let done = until_idle(&mut second).await;
    assert_eq!(done["status"], "Completed", "{done}");
    assert_eq!(done["progress"], 100);
    assert_eq!(done["synced"], ROWS as i64);
    assert_eq!(imported_letters(&server).await, ROWS as i64);
    // The first instance agrees.
    assert_eq!(check(&mut first).await["synced"], ROWS as i64);
    drop(other);
}

async fn wait_for_rows(server: &TestServer, n: i64) {
    let start = Instant::now();
    while imported_letters(server).await < n {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no rows imported"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn only_settings_admins_and_with_the_csrf_double_submit() {
    let server = TestServer::demo().await;
    let mut anonymous = server.client();
    for path in [CHECK, SYNC, STOP] {
        anonymous
            .get(path)
            .await
            .expect_error(StatusCode::UNAUTHORIZED);
    }
    anonymous
        .send(Method::DELETE, DELETE, None, Csrf::Auto, &[])
        .await
        .expect_error(StatusCode::UNAUTHORIZED);
    for account in [FRONT_DESK, JANE] {
        let mut c = server.signed_in(account).await;
        c.get(CHECK).await.expect_error(StatusCode::FORBIDDEN);
        let token = c.cookie("portal_csrf").unwrap_or_default();
        for path in [SYNC, STOP] {
            c.send(
                Method::GET,
                path,
                None,
                Csrf::Omit,
                &[("x-csrf-token", &token)],
            )
            .await
            .expect_error(StatusCode::FORBIDDEN);
        }
        c.send(Method::DELETE, DELETE, None, Csrf::Auto, &[])
            .await
            .expect_error(StatusCode::FORBIDDEN);
    }
    for account in [MANAGER, CLIENT_ADMIN] {
        let mut c = server.signed_in(account).await;
        check(&mut c).await;
        // A link from another site carries the session but not the header.
        for path in [SYNC, STOP] {
            let e = c.get(path).await.expect_error(StatusCode::FORBIDDEN);
            assert_eq!(e["Message"], "This request needs the X-CSRF-Token header");
        }
        act(&mut c, STOP).await;
        c.send(Method::DELETE, DELETE, None, Csrf::Auto, &[])
            .await
            .expect(StatusCode::OK);
    }
}
