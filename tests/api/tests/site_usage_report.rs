//! Site Usage Report (spec 03 §2, §3 event types, §4, §7, §9): events recorded with the client's
//! address, operating system and browser from a real page change and a real letter opening; the
//! summary (totals, trend against the week before, peak hour, per day) and one day's events as
//! a server-side table; bad ranges and types refused; admins only.

use api_tests::*;

const DASHBOARD: &str = "/api/event/getEventsForDashboard";
const TABLE: &str = "/api/Event/GetEventsForDatatable";
const HOUR: i64 = 3_600_000;
const DAY: i64 = 86_400_000;
/// 2026-11-15T00:00Z, a Sunday.
const SUN_15: i64 = 1_794_700_800_000;
const CHROME_WINDOWS: &str = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
const SAFARI_IPHONE: &str = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1";

async fn event(server: &TestServer, kind: i64, at: i64, ip: &str, target: &str) {
    server
        .execute_sql(&format!(
            "INSERT INTO site_usage_events (created_at, event_type, target_id, url, ip, os, browser)
             VALUES ({at}, {kind}, '{target}', '/home', '{ip}', 'Linux', 'Firefox 120')"
        ))
        .await;
    server
        .execute_sql(&format!(
            "INSERT INTO site_usage_hourly (event_type, hour, events) VALUES ({kind}, {}, 1)
             ON CONFLICT (event_type, hour) DO UPDATE SET events = site_usage_hourly.events + 1",
            at / HOUR
        ))
        .await;
}

fn week() -> Value {
    json!({"startDate": "2026-11-15T00:00:00.000+00:00", "endDate": "2026-11-21T23:59:59.999+00:00", "type": 0, "offsetMinutes": 0})
}

#[tokio::test]
async fn summary_and_details_of_a_week() {
    let server = TestServer::demo().await;
    for (at, ip) in [
        (SUN_15 + 10 * HOUR + 60_000, "10.0.0.3"),
        (SUN_15 + 10 * HOUR + 120_000, "10.0.0.1"),
        (SUN_15 + 10 * HOUR + 180_000, "10.0.0.2"),
        (SUN_15 + 11 * HOUR, "10.0.0.9"),
        (SUN_15 + 2 * DAY + 10 * HOUR, "10.0.0.4"),
        (SUN_15 + 2 * DAY + 10 * HOUR + 1, "10.0.0.5"),
        // The week before, and the Sunday after (outside the range).
        (SUN_15 - 7 * DAY + 9 * HOUR, "10.0.1.1"),
        (SUN_15 - 7 * DAY + 9 * HOUR + 1, "10.0.1.2"),
        (SUN_15 + 7 * DAY, "10.0.2.1"),
    ] {
        event(&server, 0, at, ip, "").await;
    }
    event(&server, 13, SUN_15 + DAY + 14 * HOUR, "10.0.0.7", "42").await;

    let mut admin = server.signed_in(MANAGER).await;
    let body = admin
        .post_json(DASHBOARD, &week())
        .await
        .expect(StatusCode::OK);
    let visit = &body["Visit"];
    assert_eq!(visit["Total"], json!(6), "{body}");
    assert_eq!(
        (visit["Trend"].clone(), visit["Percentage"].clone()),
        (json!("Up"), json!(200))
    );
    assert_eq!(visit["PeakHour"], json!("10:00 AM - 11:00 AM"));
    assert_eq!(
        (visit["PeakCount"].clone(), visit["PeakTrend"].clone()),
        (json!(5), json!("Up"))
    );
    assert_eq!(visit["Chart"]["Data"], json!([4, 0, 2, 0, 0, 0, 0]));
    assert_eq!(visit["Chart"]["Labels"][0], json!("11/15"));
    assert_eq!(
        visit["Details"][0],
        json!({"Day": "2026-11-15", "Count": 4})
    );
    assert_eq!(visit["Details"].as_array().unwrap().len(), 7);
    let docs = &body["OpenDocument"];
    assert_eq!(
        (docs["Total"].clone(), docs["Trend"].clone()),
        (json!(1), json!("Up"))
    );
    assert_eq!(docs["Details"][1]["Count"], json!(1));
    assert_eq!(docs["PeakHour"], json!("2:00 PM - 3:00 PM"));

    // The same week seen from UTC-10: Sunday 10:00Z is Sunday 00:00 there.
    let mut far = week();
    far["startDate"] = json!("2026-11-15T00:00:00.000-10:00");
    far["endDate"] = json!("2026-11-21T23:59:59.999-10:00");
    far["offsetMinutes"] = json!(-600);
    let body = admin
        .post_json(DASHBOARD, &far)
        .await
        .expect(StatusCode::OK);
    // (The next Sunday 00:00Z is that Saturday 14:00 there: inside.)
    assert_eq!(body["Visit"]["Total"], json!(7));
    assert_eq!(body["Visit"]["PeakHour"], json!("12:00 AM - 1:00 AM"));

    // One day's visits, a page of two sorted by address, descending; a search.
    let day = "startDate=2026-11-15T00:00:00.000%2B00:00&endDate=2026-11-16T00:00:00.000%2B00:00";
    let page = admin
        .get_json(&format!(
            "{TABLE}?type=0&{day}&PageSize=10&SortColumn=IpAddress&SortDirection=desc"
        ))
        .await;
    assert_eq!(page["TotalCount"], json!(4), "{page}");
    let ips: Vec<&str> = page["Data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["IpAddress"].as_str().unwrap())
        .collect();
    assert_eq!(ips, ["10.0.0.9", "10.0.0.3", "10.0.0.2", "10.0.0.1"]);
    let row = &page["Data"][0];
    assert_eq!(
        (row["OperatingSystem"].clone(), row["Browser"].clone()),
        (json!("Linux"), json!("Firefox 120"))
    );
    assert_eq!(row["DataAccess"], json!("2026-11-15T11:00:00Z"));
    let found = admin
        .get_json(&format!("{TABLE}?type=0&{day}&Search=0.0.2"))
        .await;
    assert_eq!(
        (found["FilteredCount"].clone(), found["TotalCount"].clone()),
        (json!(1), json!(4))
    );
    let opened = admin
        .get_json(&format!("{TABLE}?type=13&startDate=2026-11-16T00:00:00.000%2B00:00&endDate=2026-11-17T00:00:00.000%2B00:00"))
        .await;
    assert_eq!(opened["Data"][0]["DocumentId"], json!("42"), "{opened}");

    // Bad input: a reversed range, a range over a year, an unknown type, not a date.
    let mut bad = week();
    bad["endDate"] = json!("2026-11-14T00:00:00Z");
    let err = admin
        .post_json(DASHBOARD, &bad)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        err["Message"],
        json!("Choose a start date before the end date, at most a year apart")
    );
    bad["endDate"] = json!("2028-11-14T00:00:00Z");
    admin
        .post_json(DASHBOARD, &bad)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    let mut bad = week();
    bad["type"] = json!(5);
    admin
        .post_json(DASHBOARD, &bad)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    admin
        .get(&format!("{TABLE}?type=0&startDate=yesterday&endDate=today"))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    // Program managers; client admins only with 'Show Reports for ClientAdmin users' on.
    let mut client_admin = server.signed_in(CLIENT_ADMIN).await;
    let err = client_admin
        .post_json(DASHBOARD, &week())
        .await
        .expect_error(StatusCode::FORBIDDEN);
    assert_eq!(
        err["Message"],
        json!("Reports are not enabled for client admins"),
        "{err}"
    );
    server
        .execute_sql("UPDATE settings SET body = '{\"ShowFrontDeskReports\": true}' WHERE group_name = 'UserAccountSwitchUserOptions'")
        .await;
    client_admin
        .post_json(DASHBOARD, &week())
        .await
        .expect(StatusCode::OK);
    let mut desk = server.signed_in(FRONT_DESK).await;
    desk.post_json(DASHBOARD, &week())
        .await
        .expect_error(StatusCode::FORBIDDEN);
    desk.get(&format!("{TABLE}?type=0&{day}"))
        .await
        .expect_error(StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn page_changes_and_opened_letters_are_recorded_with_agent_and_address() {
    let server = TestServer::demo().await;
    let mut jane = server.signed_in(JANE).await;
    jane.send(
        Method::POST,
        "/api/Event/LogUrlChange",
        Some((
            json!({"Url": "/home"}).to_string().into_bytes(),
            "application/json",
        )),
        Csrf::Auto,
        &[("User-Agent", CHROME_WINDOWS)],
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM site_usage_events WHERE event_type = 0 AND url = '/home' AND os = 'Windows 10' AND browser = 'Chrome 120' AND ip = '127.0.0.1'")
            .await,
        1
    );
    // A letter opened: DocumentLoaded with the letter's id.
    let docs = jane
        .post_json(
            "/api/documents/loadDocuments",
            &json!({"TimezoneOffset": 0}),
        )
        .await
        .expect(StatusCode::OK);
    let letter = &docs["list"][0];
    let token = letter["AccessToken"].as_str().unwrap();
    let pdf = jane
        .send(
            Method::GET,
            &format!("/api/documents/letterPdf?accessToken={token}"),
            None,
            Csrf::Auto,
            &[("User-Agent", SAFARI_IPHONE)],
        )
        .await;
    assert_eq!(pdf.status, StatusCode::OK);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM site_usage_events WHERE event_type = 13 AND os = 'iPhone' AND browser = 'Safari 17' AND target_id <> ''")
            .await,
        1
    );
    // Both counted in their hour: the summary of today sees them.
    assert_eq!(
        server
            .count_sql("SELECT CAST(COALESCE(SUM(events), 0) AS BIGINT) FROM site_usage_hourly")
            .await,
        server
            .count_sql("SELECT COUNT(*) FROM site_usage_events")
            .await
    );
}

/// One stored event of the details test: its document id names it in the answers.
struct Stored {
    kind: i64,
    at: i64,
    ip: String,
    doc: String,
}

/// The rows of `[start, end)` as the details table must give them: that type, sorted by address
/// (ties by id, i.e. insertion order), the page cut from it. Every row's (address, document).
fn expected<'a>(
    events: &'a [Stored],
    kind: i64,
    (start, end): (i64, i64),
    descending: bool,
    search: &str,
) -> Vec<(&'a str, &'a str)> {
    let mut rows: Vec<(usize, &Stored)> = events
        .iter()
        .enumerate()
        .filter(|(_, e)| e.kind == kind && e.at >= start && e.at < end)
        .filter(|(_, e)| e.ip.contains(search) || e.doc.contains(search))
        .collect();
    rows.sort_by(|(i, a), (j, b)| (a.ip.as_str(), i).cmp(&(b.ip.as_str(), j)));
    if descending {
        rows.reverse();
    }
    rows.iter()
        .map(|(_, e)| (e.ip.as_str(), e.doc.as_str()))
        .collect()
}

/// Every page of a day's details sorted by address, both ways: the whole UTC day (read in index
/// order, migration 0059), the same events seen from UTC-5 and from UTC+5:30 (days that are not
/// UTC days), opened documents, and a search give exactly the rows, order and counts of a sort
/// of the day's events, with the day's edges (00:00:00.000 in, the next day's 00:00 out).
#[tokio::test]
async fn details_pages_are_the_days_events_sorted() {
    let server = TestServer::demo().await;
    // Every 18 minutes from Saturday 18:00Z to Monday 06:00Z, then one a millisecond either side
    // of Sunday's start and end; one in four an opened document; 35 addresses, so ties.
    let events: Vec<Stored> = (0..120)
        .map(|i| (SUN_15 - 6 * HOUR + i * 18 * 60_000, i))
        .chain([
            (SUN_15 - 1, 120),
            (SUN_15 + DAY - 1, 121),
            (SUN_15 + 1, 122),
        ])
        .map(|(at, i)| Stored {
            kind: if i % 4 == 3 { 13 } else { 0 },
            at,
            ip: format!("10.0.{}.{}", i % 7, i % 5),
            doc: format!("doc-{i:03}"),
        })
        .collect();
    let inserts: Vec<String> = events
        .iter()
        .map(|e| {
            format!(
                "INSERT INTO site_usage_events (created_at, event_type, target_id, url, ip, os, browser)
                 VALUES ({}, {}, '{}', '/home', '{}', 'Linux', 'Firefox 120')",
                e.at, e.kind, e.doc, e.ip
            )
        })
        .collect();
    server.execute_sql(&inserts.join(";\n")).await;
    server.execute_sql("DELETE FROM site_usage_hourly").await;
    server
        .execute_sql(
            "INSERT INTO site_usage_hourly (event_type, hour, events)
             SELECT event_type, created_at / 3600000, COUNT(*) FROM site_usage_events GROUP BY event_type, created_at / 3600000",
        )
        .await;

    let mut admin = server.signed_in(MANAGER).await;
    // Sunday the 15th as the details page asks for it in three zones.
    let utc = (SUN_15, SUN_15 + DAY, "+00:00");
    let west = (SUN_15 + 5 * HOUR, SUN_15 + DAY + 5 * HOUR, "-05:00");
    let east = (SUN_15 - 330 * 60_000, SUN_15 + DAY - 330 * 60_000, "+05:30");
    let cases = [
        (0, utc, ""),
        (13, utc, ""),
        (0, west, ""),
        (0, east, ""),
        (0, utc, "10.0.3"),
    ];
    for (kind, (start, end, zone), search) in cases {
        let zone = zone.replace('+', "%2B");
        let all = expected(&events, kind, (start, end), false, "");
        assert!(all.len() > 10, "{kind} {start}: {}", all.len());
        for descending in [true, false] {
            let want = expected(&events, kind, (start, end), descending, search);
            let dir = if descending { "desc" } else { "asc" };
            for page_index in 0..=want.len() / 10 + 1 {
                let query = format!(
                    "{TABLE}?type={kind}&startDate=2026-11-15T00:00:00.000{zone}&endDate=2026-11-16T00:00:00.000{zone}&PageIndex={page_index}&PageSize=10&SortColumn=IpAddress&SortDirection={dir}&Search={search}"
                );
                let page = admin.get_json(&query).await;
                let got: Vec<(&str, &str)> = page["Data"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| {
                        (
                            r["IpAddress"].as_str().unwrap(),
                            r["DocumentId"].as_str().unwrap(),
                        )
                    })
                    .collect();
                let from = (page_index * 10).min(want.len());
                let to = (from + 10).min(want.len());
                assert_eq!(got, want[from..to], "{query}");
                assert_eq!(
                    (page["TotalCount"].clone(), page["FilteredCount"].clone()),
                    (json!(all.len()), json!(want.len())),
                    "{query}"
                );
            }
        }
    }
}
