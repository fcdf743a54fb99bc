//! The History Portal list at scale (issue 6, migration 0014): the patient-name copy on
//! survey_queue kept by triggers, filtered counts remembered per survey_queue revision, and deep
//! pages that seek from remembered anchors. Every figure must stay exact after any change made
//! behind the API's back (SQL from another process), on both engines.

use api_tests::*;

const DATATABLE: &str = "/api/surveyQueue/datatable";

async fn page(client: &mut Client, body: Value) -> Value {
    let response = client.post_json(DATATABLE, &body).await;
    assert_eq!(
        response.status,
        StatusCode::OK,
        "{body}: {}",
        response.text()
    );
    response.json()
}

fn ids(page: &Value) -> Vec<i64> {
    page["Data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["Id"].as_i64().unwrap())
        .collect()
}

fn names(page: &Value) -> Vec<String> {
    page["Data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["UserFullName"].as_str().unwrap().to_owned())
        .collect()
}

/// Copies every demo queue row `times` times (same patient, appointment, status), plus
/// `without_appointment` rows without an appointment (a NULL appointment instant).
async fn grow(server: &TestServer, times: i64, without_appointment: i64) {
    server
        .execute_sql(&format!(
            "INSERT INTO survey_queue (patient_id, appointment_id, study_id, location_id, survey_definition_id, status, created_at, updated_at, revision)
             WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < {times})
             SELECT q.patient_id, q.appointment_id, q.study_id, q.location_id, q.survey_definition_id, q.status, q.created_at, q.updated_at, 1
             FROM s CROSS JOIN survey_queue q"
        ))
        .await;
    if without_appointment == 0 {
        return;
    }
    server
        .execute_sql(&format!(
            "INSERT INTO survey_queue (patient_id, appointment_id, study_id, location_id, survey_definition_id, status, created_at, updated_at, revision)
             WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < {without_appointment})
             SELECT q.patient_id, NULL, NULL, q.location_id, q.survey_definition_id, 'Assigned', q.created_at, q.updated_at, 1
             FROM s CROSS JOIN (SELECT * FROM survey_queue WHERE id = (SELECT MIN(id) FROM survey_queue)) q"
        ))
        .await;
}

/// The id at 0-based `position` of the list in the order the API promises (the engine's own
/// ORDER BY on the same columns, NULLs where the engine puts them).
async fn id_at(server: &TestServer, order: &str, position: i64) -> i64 {
    server
        .count_sql(&format!(
            "SELECT id FROM survey_queue ORDER BY {order} LIMIT 1 OFFSET {position}"
        ))
        .await
}

#[tokio::test]
async fn renaming_a_patient_moves_their_rows_in_the_name_order_and_in_search() {
    let server = TestServer::demo().await;
    let mut staff = server.signed_in(FRONT_DESK).await;
    let patient = server
        .count_sql("SELECT MAX(patient_id) FROM survey_queue")
        .await;
    let rows = server
        .count_sql(&format!(
            "SELECT COUNT(*) FROM survey_queue WHERE patient_id = {patient}"
        ))
        .await;
    assert!(rows >= 1);

    let first = page(&mut staff, json!({"PageIndex": 0, "PageSize": 100, "SortColumn": "UserFullName", "SortDirection": "asc"})).await;
    assert!(
        !names(&first).iter().any(|n| n == "Aaaaa Aardvark-Zed"),
        "{first}"
    );
    server.execute_sql(&format!("UPDATE patients SET first_name = 'Aaaaa', last_name = 'Aardvark-Zed' WHERE id = {patient}")).await;

    let after = page(&mut staff, json!({"PageIndex": 0, "PageSize": 100, "SortColumn": "UserFullName", "SortDirection": "asc"})).await;
    let renamed: Vec<String> = names(&after)
        .into_iter()
        .take(usize::try_from(rows).unwrap())
        .collect();
    assert!(
        renamed.iter().all(|n| n == "Aaaaa Aardvark-Zed"),
        "the renamed patient's rows now sort first: {renamed:?}"
    );
    // The copy itself, for every row of the patient.
    assert_eq!(
        server.count_sql(&format!("SELECT COUNT(*) FROM survey_queue WHERE patient_id = {patient} AND sort_name = 'aaaaa aardvark-zed'")).await,
        rows
    );

    // Search is case-insensitive, on 'first last' and 'last first', and its count is exact.
    for search in [
        "aaaaa aard",
        "AAAAA AARDVARK-ZED",
        "Aardvark-zed Aa",
        "aArDvArK",
    ] {
        let found = page(
            &mut staff,
            json!({"PageIndex": 0, "PageSize": 100, "Search": search}),
        )
        .await;
        assert_eq!(
            found["FilteredCount"].as_i64(),
            Some(rows),
            "search {search:?}: {found}"
        );
        assert!(
            names(&found).iter().all(|n| n == "Aaaaa Aardvark-Zed"),
            "search {search:?}: {found}"
        );
    }
    // The old name finds nothing any more, although that count was remembered before.
    server
        .execute_sql(&format!(
            "UPDATE patients SET first_name = 'Zoe', last_name = 'Zzyzx' WHERE id = {patient}"
        ))
        .await;
    let old = page(
        &mut staff,
        json!({"PageIndex": 0, "PageSize": 10, "Search": "aaaaa aard"}),
    )
    .await;
    assert_eq!(old["FilteredCount"], json!(0), "{old}");
    let new = page(
        &mut staff,
        json!({"PageIndex": 0, "PageSize": 10, "Search": "ZZYZX"}),
    )
    .await;
    assert_eq!(new["FilteredCount"].as_i64(), Some(rows), "{new}");

    // A new queue row of the patient gets the copy from its insert trigger.
    server
        .execute_sql(&format!(
            "INSERT INTO survey_queue (patient_id, appointment_id, study_id, location_id, survey_definition_id, status, created_at, updated_at, revision)
             SELECT {patient}, appointment_id, study_id, location_id, survey_definition_id, 'Assigned', created_at, updated_at, 1
             FROM survey_queue WHERE id = (SELECT MIN(id) FROM survey_queue)"
        ))
        .await;
    let grown = page(
        &mut staff,
        json!({"PageIndex": 0, "PageSize": 10, "Search": "zoe zz"}),
    )
    .await;
    assert_eq!(grown["FilteredCount"].as_i64(), Some(rows + 1), "{grown}");
    // Moving a row to another patient moves its name too.
    let newest = server.count_sql("SELECT MAX(id) FROM survey_queue").await;
    let other = server
        .count_sql(&format!(
            "SELECT MIN(patient_id) FROM survey_queue WHERE patient_id <> {patient}"
        ))
        .await;
    server
        .execute_sql(&format!(
            "UPDATE survey_queue SET patient_id = {other} WHERE id = {newest}"
        ))
        .await;
    assert_eq!(
        server
            .count_sql(&format!(
                "SELECT COUNT(*) FROM survey_queue sq JOIN patients p ON p.id = sq.patient_id
             WHERE sq.id = {newest} AND sq.sort_name = lower(p.first_name || ' ' || p.last_name)"
            ))
            .await,
        1
    );
    let moved = page(
        &mut staff,
        json!({"PageIndex": 0, "PageSize": 10, "Search": "zoe zz"}),
    )
    .await;
    assert_eq!(moved["FilteredCount"].as_i64(), Some(rows), "{moved}");
}

#[tokio::test]
async fn remembered_filtered_counts_follow_every_change() {
    let server = TestServer::demo().await;
    let mut staff = server.signed_in(MANAGER).await;
    let filter = json!({"PageIndex": 0, "PageSize": 10, "Status": "Assigned"});
    let count = |p: &Value| p["FilteredCount"].as_i64().unwrap();
    let truth = || server.count_sql("SELECT COUNT(*) FROM survey_queue WHERE status = 'Assigned'");

    let before = page(&mut staff, filter.clone()).await;
    assert_eq!(count(&before), truth().await);
    assert_eq!(
        count(&page(&mut staff, filter.clone()).await),
        count(&before),
        "asked again: the same"
    );

    // Insert, status change, delete, an appointment moved, a location renumbered: each is seen.
    grow(&server, 1, 0).await;
    let grown = count(&page(&mut staff, filter.clone()).await);
    assert_eq!(grown, truth().await);
    assert!(grown > count(&before));
    server.execute_sql("UPDATE survey_queue SET status = 'Completed' WHERE id = (SELECT MAX(id) FROM survey_queue WHERE status = 'Assigned')").await;
    assert_eq!(count(&page(&mut staff, filter.clone()).await), grown - 1);
    server.execute_sql("DELETE FROM survey_queue WHERE id = (SELECT MAX(id) FROM survey_queue WHERE status = 'Assigned')").await;
    assert_eq!(count(&page(&mut staff, filter.clone()).await), grown - 2);
    assert_eq!(grown - 2, truth().await);

    let loc_num: String = {
        let locations = staff.get_json("/api/survey/GetAllLocations").await;
        locations
            .as_object()
            .unwrap()
            .keys()
            .next()
            .unwrap()
            .clone()
    };
    let by_location = json!({"PageIndex": 0, "PageSize": 10, "Location": loc_num});
    let at_location = count(&page(&mut staff, by_location.clone()).await);
    assert!(at_location > 0);
    server
        .execute_sql(&format!(
            "UPDATE locations SET loc_num = 'RENUMBERED' WHERE loc_num = '{loc_num}'"
        ))
        .await;
    assert_eq!(
        count(&page(&mut staff, by_location).await),
        0,
        "the old number filters nothing"
    );
    assert_eq!(
        count(
            &page(
                &mut staff,
                json!({"PageIndex": 0, "PageSize": 10, "Location": "RENUMBERED"})
            )
            .await
        ),
        at_location
    );

    let range = json!({"PageIndex": 0, "PageSize": 10, "DateFrom": "2001-01-01T00:00:00.000Z", "DateTo": "2001-01-01T00:00:00.000Z"});
    assert_eq!(count(&page(&mut staff, range.clone()).await), 0);
    let appointment = server
        .count_sql("SELECT MIN(appointment_id) FROM survey_queue")
        .await;
    let rows = server
        .count_sql(&format!(
            "SELECT COUNT(*) FROM survey_queue WHERE appointment_id = {appointment}"
        ))
        .await;
    server
        .execute_sql(&format!(
            "UPDATE appointments SET starts_at = 978350400000 WHERE id = {appointment}"
        ))
        .await;
    assert_eq!(
        count(&page(&mut staff, range).await),
        rows,
        "a moved appointment moves its rows into the range"
    );
}

#[tokio::test]
async fn deep_pages_seek_from_anchors_and_stay_exact_after_changes() {
    let server = TestServer::demo().await;
    let mut staff = server.signed_in(MANAGER).await;
    // Enough rows that pages 1,000 rows from both ends exist, and some without an appointment.
    grow(&server, 60, 25).await;
    let total = server.count_sql("SELECT COUNT(*) FROM survey_queue").await;
    assert!(total > 3000, "{total}");

    for (column, dir, order) in [
        ("AppointmentDate", "asc", "appt_starts_at ASC, id ASC"),
        ("AppointmentDate", "desc", "appt_starts_at DESC, id DESC"),
        ("UserFullName", "asc", "sort_name ASC, id ASC"),
        ("UserFullName", "desc", "sort_name DESC, id DESC"),
        ("Id", "desc", "id DESC"),
    ] {
        let body = |index: i64| json!({"PageIndex": index, "PageSize": 10, "SortColumn": column, "SortDirection": dir});
        let deep = total / 20; // a page in the middle
                               // Cold, again (from the anchors the first request left), the next page and the one before.
        for index in [deep, deep, deep + 1, deep - 1, deep + 40, deep + 2] {
            let got = ids(&page(&mut staff, body(index)).await);
            let mut want = Vec::new();
            for i in 0..10 {
                want.push(id_at(&server, order, index * 10 + i).await);
            }
            assert_eq!(got, want, "{column} {dir} page {index}");
        }
        // A row that sorts first shifts every later page by one: the anchors are not reused.
        server
            .execute_sql(
                "INSERT INTO survey_queue (patient_id, appointment_id, study_id, location_id, survey_definition_id, status, created_at, updated_at, revision)
                 SELECT patient_id, appointment_id, study_id, location_id, survey_definition_id, 'Assigned', created_at, updated_at, 1
                 FROM survey_queue WHERE id = (SELECT MIN(id) FROM survey_queue)",
            )
            .await;
        let got = ids(&page(&mut staff, body(deep)).await);
        let mut want = Vec::new();
        for i in 0..10 {
            want.push(id_at(&server, order, deep * 10 + i).await);
        }
        assert_eq!(got, want, "{column} {dir} page {deep} after an insert");
    }
    let total = server.count_sql("SELECT COUNT(*) FROM survey_queue").await;

    // Filtered deep pages (an appointment range: rows without an appointment drop out) agree
    // with the engine's own order too.
    let in_range = "appt_starts_at >= 946684800000 AND appt_starts_at < 4102531200000";
    let range_rows = server
        .count_sql(&format!(
            "SELECT COUNT(*) FROM survey_queue WHERE {in_range}"
        ))
        .await;
    assert!(
        range_rows > 2000 && range_rows < total,
        "{range_rows} of {total}"
    );
    let deep = range_rows / 20;
    for index in [deep, deep, deep + 1] {
        let body = json!({"PageIndex": index, "PageSize": 10, "SortColumn": "AppointmentDate", "SortDirection": "desc",
            "DateFrom": "2000-01-01T00:00:00.000Z", "DateTo": "2100-01-01T00:00:00.000Z"});
        let got = page(&mut staff, body).await;
        assert_eq!(got["FilteredCount"].as_i64(), Some(range_rows));
        let got = ids(&got);
        let mut want = Vec::new();
        for i in 0..10 {
            want.push(
                server
                    .count_sql(&format!(
                        "SELECT id FROM survey_queue WHERE {in_range} ORDER BY appt_starts_at DESC, id DESC LIMIT 1 OFFSET {}",
                        index * 10 + i
                    ))
                    .await,
            );
        }
        assert_eq!(got, want, "range page {index}");
    }
}

/// A search's page is read by walking the order's index (dense matches) or by gathering the
/// union of the name ranges and the MRN's patients (sparse matches, or any name order): whichever
/// plan the API picks (0016), the rows, their order and the count are those of a plain query on
/// the patients' own names, and a row matching several forms is listed once.
#[tokio::test]
async fn searches_read_the_same_rows_whichever_plan_is_picked() {
    let server = TestServer::demo().await;
    let mut staff = server.signed_in(MANAGER).await;
    grow(&server, 40, 0).await;
    // A patient matching 'ann' as 'first last' and as 'last first' ('ann annby' / 'annby ann').
    let patient = server
        .count_sql("SELECT MIN(patient_id) FROM survey_queue")
        .await;
    server
        .execute_sql(&format!(
            "UPDATE patients SET first_name = 'Ann', last_name = 'Annby' WHERE id = {patient}"
        ))
        .await;
    let total = server.count_sql("SELECT COUNT(*) FROM survey_queue").await;
    let mrn = server
        .count_sql(&format!(
            "SELECT COUNT(*) FROM survey_queue WHERE patient_id = {patient}"
        ))
        .await;
    assert!(mrn > 0 && total > 2000, "{mrn} of {total}");
    let mrn_prefix: String = {
        let id = server
            .count_sql("SELECT MAX(patient_id) FROM survey_queue")
            .await;
        // The MRN of another patient, by its first 4 characters (digits in the demo).
        let digits = server
            .count_sql(&format!(
                "SELECT CAST(substr(mrn, 1, 4) AS BIGINT) FROM patients WHERE id = {id}"
            ))
            .await;
        digits.to_string()
    };
    let matches = |s: &str| {
        let lower = s.to_lowercase();
        let n = lower.chars().count();
        format!(
            "(substr(lower(p.first_name || ' ' || p.last_name), 1, {n}) = '{lower}' \
             OR substr(lower(p.last_name || ' ' || p.first_name), 1, {n}) = '{lower}' \
             OR substr(p.mrn, 1, {m}) = '{s}')",
            m = s.chars().count()
        )
    };
    for search in [
        "a",
        "ann",
        "Annby A",
        "gar",
        mrn_prefix.as_str(),
        "zz-nobody",
    ] {
        let want_count = server
            .count_sql(&format!("SELECT COUNT(*) FROM survey_queue sq JOIN patients p ON p.id = sq.patient_id WHERE {}", matches(search)))
            .await;
        for (column, dir, order) in [
            ("UserFullName", "asc", "sq.sort_name ASC, sq.id ASC"),
            ("UserFullName", "desc", "sq.sort_name DESC, sq.id DESC"),
            ("AppointmentDate", "asc", "sq.appt_starts_at ASC, sq.id ASC"),
            (
                "AppointmentDate",
                "desc",
                "sq.appt_starts_at DESC, sq.id DESC",
            ),
        ] {
            for index in [0, 1, 7] {
                let got = page(&mut staff, json!({"PageIndex": index, "PageSize": 10, "SortColumn": column, "SortDirection": dir, "Search": search})).await;
                assert_eq!(
                    got["FilteredCount"].as_i64(),
                    Some(want_count),
                    "{search:?} {column} {dir}: {got}"
                );
                let mut want = Vec::new();
                for i in 0..10 {
                    let position = index * 10 + i;
                    if position >= want_count {
                        break;
                    }
                    want.push(
                        server
                            .count_sql(&format!(
                                "SELECT sq.id FROM survey_queue sq JOIN patients p ON p.id = sq.patient_id WHERE {} ORDER BY {order} LIMIT 1 OFFSET {position}",
                                matches(search)
                            ))
                            .await,
                    );
                }
                assert_eq!(ids(&got), want, "{search:?} {column} {dir} page {index}");
            }
        }
    }
    // The patient matching both name forms is listed once per row.
    let both = page(
        &mut staff,
        json!({"PageIndex": 0, "PageSize": 100, "SortColumn": "UserFullName", "Search": "ann"}),
    )
    .await;
    let mut seen = ids(&both);
    let listed = seen.len();
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(seen.len(), listed, "no row twice");
    assert_eq!(both["FilteredCount"].as_i64(), Some(mrn), "counted once");
    assert_eq!(i64::try_from(listed).unwrap(), mrn.min(100));
    assert!(names(&both).iter().all(|n| n == "Ann Annby"));
}

/// One status and one location sorted by name (0017): a dense filter walks the status + location
/// + name index, a sparse one (one day on top) gathers and sorts. Every page, both directions,
/// must be the engine's own order of the same rows.
#[tokio::test]
async fn one_status_and_location_by_name_reads_the_same_rows_walked_or_gathered() {
    let server = TestServer::demo().await;
    let mut staff = server.signed_in(MANAGER).await;
    grow(&server, 40, 0).await;
    let location = server
        .count_sql("SELECT MIN(location_id) FROM survey_queue")
        .await;
    server
        .execute_sql(&format!(
            "UPDATE locations SET loc_num = 'WALK1' WHERE id = {location}"
        ))
        .await;
    // Two rows in three at that location and Completed; the rest elsewhere or in other statuses.
    server
        .execute_sql(&format!("UPDATE survey_queue SET status = 'Completed', location_id = {location} WHERE id % 3 <> 0"))
        .await;
    let base = format!("sq.status = 'Completed' AND sq.location_id = {location}");
    let day = server
        .count_sql(&format!("SELECT MAX(appt_starts_at) FROM survey_queue sq WHERE {base} AND appt_starts_at IS NOT NULL"))
        .await;
    let day_start = day.div_euclid(86_400_000) * 86_400_000;
    let one_day = portal_api::fmt::iso_utc(day_start);
    let filters = [
        (json!({}), String::new()),
        (
            json!({"DateFrom": "2000-01-01T00:00:00.000Z", "DateTo": "2100-01-01T00:00:00.000Z"}),
            " AND sq.appt_starts_at >= 946684800000 AND sq.appt_starts_at < 4102531200000"
                .to_owned(),
        ),
        (
            json!({"DateFrom": one_day, "DateTo": one_day}),
            format!(
                " AND sq.appt_starts_at >= {day_start} AND sq.appt_starts_at < {}",
                day_start + 86_400_000
            ),
        ),
    ];
    for (dates, condition) in filters {
        let want_count = server
            .count_sql(&format!(
                "SELECT COUNT(*) FROM survey_queue sq WHERE {base}{condition}"
            ))
            .await;
        assert!(want_count > 0, "{dates}");
        let last_page = (want_count - 1) / 10;
        for (dir, order) in [
            ("asc", "sq.sort_name ASC, sq.id ASC"),
            ("desc", "sq.sort_name DESC, sq.id DESC"),
        ] {
            for index in [0, 1, 7, last_page] {
                let mut body = json!({"PageIndex": index, "PageSize": 10, "SortColumn": "UserFullName", "SortDirection": dir, "Status": "Completed", "Location": "WALK1"});
                for (k, v) in dates.as_object().unwrap() {
                    body[k] = v.clone();
                }
                let got = page(&mut staff, body).await;
                assert_eq!(
                    got["FilteredCount"].as_i64(),
                    Some(want_count),
                    "{dates} {dir}: {got}"
                );
                let mut want = Vec::new();
                for position in (index * 10)..(index * 10 + 10).min(want_count) {
                    want.push(
                        server
                            .count_sql(&format!("SELECT sq.id FROM survey_queue sq WHERE {base}{condition} ORDER BY {order} LIMIT 1 OFFSET {position}"))
                            .await,
                    );
                }
                assert_eq!(ids(&got), want, "{dates} {dir} page {index}");
            }
        }
    }
}

/// Settings are cached in memory on PostgreSQL (invalidated by the API's own writes at once, and
/// by a NOTIFY from the settings table's trigger for writes by anyone else); SQLite reads them.
#[tokio::test]
async fn settings_changes_are_seen_whoever_writes_them() {
    let server = TestServer::demo().await;
    let mut desk = server.signed_in(FRONT_DESK).await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let max = |doc: Value| doc["HistoryPortalMaxReadyForExamEmail"].as_i64();
    assert_eq!(
        max(desk.get_json("/api/historyPortal/listSettings").await),
        Some(-1)
    );
    assert_eq!(
        max(desk.get_json("/api/historyPortal/listSettings").await),
        Some(-1),
        "read twice (cached on PostgreSQL)"
    );

    // Through the API: the next read sees it.
    let doc = admin
        .get_json("/api/configuration/GetHistoryPortalSettings")
        .await;
    let mut next = doc["Settings"].as_object().unwrap().clone();
    next.insert("HistoryPortalMaxReadyForExamEmail".into(), json!(4));
    let bytes = serde_json::to_vec(&json!({"Version": doc["Version"], "Settings": next})).unwrap();
    admin
        .send(
            Method::PUT,
            "/api/configurationForm/HistoryPortal",
            Some((bytes, "application/json")),
            Csrf::Auto,
            &[],
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        max(desk.get_json("/api/historyPortal/listSettings").await),
        Some(4)
    );

    // By SQL from another process (as another API instance would write): seen once the
    // settings trigger's notification arrives, which takes well under a second.
    let body = server.count_sql("SELECT COUNT(*) FROM settings WHERE group_name = 'HistoryPortal' AND body LIKE '%\"HistoryPortalMaxReadyForExamEmail\":4%'").await;
    assert_eq!(body, 1, "the stored document holds the saved value");
    server
        .execute_sql("UPDATE settings SET body = replace(body, '\"HistoryPortalMaxReadyForExamEmail\":4', '\"HistoryPortalMaxReadyForExamEmail\":6') WHERE group_name = 'HistoryPortal'")
        .await;
    let mut seen = None;
    for _ in 0..40 {
        seen = max(desk.get_json("/api/historyPortal/listSettings").await);
        if seen == Some(6) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(
        seen,
        Some(6),
        "a change written behind the API's back is seen within 2 s"
    );
}
