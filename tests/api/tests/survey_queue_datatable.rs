//! The History Portal list (POST /api/surveyQueue/datatable) and its lookups (spec 01 §2.6, §9).

use std::collections::HashSet;

use api_tests::*;

const DATATABLE: &str = "/api/surveyQueue/datatable";
/// Page sizes a user may choose (wasm-core `PAGE_SIZES`).
const PAGE_SIZES: [u64; 4] = [10, 25, 50, 100];

/// Every field of a SurveyQueueRow (wasm-core model/survey_queue.rs).
const ROW_FIELDS: [&str; 22] = [
    "Id",
    "UserFullName",
    "UserIdentifierToShow",
    "UserDOB",
    "UserDOBString",
    "UserEmail",
    "LocationName",
    "AppointmentDate",
    "AppointmentDateString",
    "AppointmentTime",
    "AppointmentTimeString",
    "Status",
    "StatusKey",
    "SurveyName",
    "SurveyStartedDateString",
    "DateCompletedString",
    "LastEmailSent",
    "LastEmailSentString",
    "IsCompleted",
    "SurveyLogId",
    "ArrivalStatus",
    "ReadyForExamCount",
];

fn request(page_index: u64, page_size: u64, sort: Option<(&str, &str)>, search: &str) -> Value {
    let mut body = json!({"PageIndex": page_index, "PageSize": page_size, "SortDirection": "asc", "Search": search});
    if let Some((column, direction)) = sort {
        body["SortColumn"] = json!(column);
        body["SortDirection"] = json!(direction);
    }
    body
}

async fn page(client: &mut Client, body: &Value) -> Value {
    let response = client.post_json(DATATABLE, body).await;
    assert_eq!(
        response.status,
        StatusCode::OK,
        "datatable {body}: {}",
        response.text()
    );
    let page = response.json();
    for field in [
        "Data",
        "TotalCount",
        "FilteredCount",
        "PageIndex",
        "PageSize",
    ] {
        assert!(
            page.get(field).is_some(),
            "TableResponse lacks {field}: {page}"
        );
    }
    let rows = page["Data"]
        .as_array()
        .unwrap_or_else(|| panic!("Data is not an array: {page}"));
    assert!(
        rows.len() as u64 <= page["PageSize"].as_u64().unwrap_or(0),
        "more rows than PageSize: {page}"
    );
    page
}

fn rows(page: &Value) -> &Vec<Value> {
    page["Data"].as_array().unwrap()
}

fn ids(page: &Value) -> Vec<i64> {
    rows(page)
        .iter()
        .map(|row| {
            row["Id"]
                .as_i64()
                .unwrap_or_else(|| panic!("row without an integer Id: {row}"))
        })
        .collect()
}

fn count(page: &Value, field: &str) -> u64 {
    page[field]
        .as_u64()
        .unwrap_or_else(|| panic!("{field} is not a count: {page}"))
}

#[tokio::test]
async fn first_page_has_ten_full_rows_of_many() {
    let server = TestServer::demo().await;
    let mut staff = server.signed_in(MANAGER).await;
    let first = page(&mut staff, &request(0, 10, None, "")).await;
    assert_eq!(rows(&first).len(), 10, "{first}");
    assert_eq!(count(&first, "PageIndex"), 0);
    assert_eq!(count(&first, "PageSize"), 10);
    let filtered = count(&first, "FilteredCount");
    assert!(
        filtered >= 60,
        "the demo clinic has 60+ survey-queue rows, FilteredCount {filtered}"
    );
    assert_eq!(
        count(&first, "TotalCount"),
        filtered,
        "no search: TotalCount equals FilteredCount"
    );
    for row in rows(&first) {
        let missing: Vec<&str> = ROW_FIELDS
            .iter()
            .copied()
            .filter(|f| row.get(*f).is_none())
            .collect();
        assert!(
            missing.is_empty(),
            "SurveyQueueRow lacks {missing:?}: {row}"
        );
        assert!(
            row["IsCompleted"].is_boolean() && row["ReadyForExamCount"].is_i64(),
            "{row}"
        );
        assert!(
            !row["UserFullName"].as_str().unwrap_or_default().is_empty(),
            "{row}"
        );
    }
}

#[tokio::test]
async fn page_size_defaults_to_ten() {
    let server = TestServer::demo().await;
    let mut staff = server.signed_in(FRONT_DESK).await;
    let first = page(&mut staff, &json!({})).await;
    assert_eq!(count(&first, "PageSize"), 10, "{first}");
    assert_eq!(count(&first, "PageIndex"), 0, "{first}");
    assert_eq!(rows(&first).len(), 10);
    let first = page(
        &mut staff,
        &json!({"PageIndex": 0, "SortDirection": "asc", "Search": ""}),
    )
    .await;
    assert_eq!(count(&first, "PageSize"), 10, "{first}");
}

#[tokio::test]
async fn pages_do_not_overlap_and_cover_every_row() {
    let server = TestServer::demo().await;
    let mut staff = server.signed_in(MANAGER).await;
    let sort = Some(("Id", "asc"));
    let first = page(&mut staff, &request(0, 10, sort, "")).await;
    let second = page(&mut staff, &request(1, 10, sort, "")).await;
    assert_eq!(count(&second, "PageIndex"), 1);
    let (a, b) = (ids(&first), ids(&second));
    assert_eq!(b.len(), 10);
    assert!(
        a.iter().all(|id| !b.contains(id)),
        "page 1 {a:?} and page 2 {b:?} overlap"
    );

    // Two pages of 10 are the first 20 of one page of 25: the order is stable.
    let wide = page(&mut staff, &request(0, 25, sort, "")).await;
    let wide_ids = ids(&wide);
    assert_eq!(wide_ids.len(), 25);
    assert_eq!([a.clone(), b.clone()].concat(), wide_ids[..20].to_vec());

    // Walking every page yields every row once.
    let filtered = count(&first, "FilteredCount");
    let mut seen = HashSet::new();
    let pages = filtered.div_ceil(10);
    for index in 0..pages {
        let p = page(&mut staff, &request(index, 10, sort, "")).await;
        let page_ids = ids(&p);
        let expected_len = if index + 1 == pages {
            filtered - index * 10
        } else {
            10
        };
        assert_eq!(
            page_ids.len() as u64,
            expected_len,
            "page {index} of {pages}"
        );
        for id in page_ids {
            assert!(seen.insert(id), "row {id} appears on two pages");
        }
    }
    assert_eq!(seen.len() as u64, filtered);
    let past_the_end = page(&mut staff, &request(pages, 10, sort, "")).await;
    assert!(
        rows(&past_the_end).is_empty(),
        "past the last page: {past_the_end}"
    );
}

#[tokio::test]
async fn default_order_pages_do_not_overlap() {
    let server = TestServer::demo().await;
    let mut staff = server.signed_in(CLIENT_ADMIN).await;
    let mut seen = HashSet::new();
    let first = page(&mut staff, &request(0, 10, None, "")).await;
    let pages = count(&first, "FilteredCount").div_ceil(10);
    for index in 0..pages {
        for id in ids(&page(&mut staff, &request(index, 10, None, "")).await) {
            assert!(
                seen.insert(id),
                "row {id} appears on two pages in the default order"
            );
        }
    }
    assert_eq!(seen.len() as u64, count(&first, "FilteredCount"));
}

#[tokio::test]
async fn sorting_by_id_orders_both_ways() {
    let server = TestServer::demo().await;
    let mut staff = server.signed_in(MANAGER).await;
    let all = page(&mut staff, &request(0, 100, Some(("Id", "asc")), "")).await;
    let asc = ids(&all);
    assert!(
        asc.windows(2).all(|w| w[0] < w[1]),
        "Id asc not ascending: {asc:?}"
    );
    let desc = ids(&page(&mut staff, &request(0, 100, Some(("Id", "desc")), "")).await);
    assert!(
        desc.windows(2).all(|w| w[0] > w[1]),
        "Id desc not descending: {desc:?}"
    );
    if count(&all, "FilteredCount") <= 100 {
        assert_eq!(asc.iter().rev().copied().collect::<Vec<_>>(), desc);
    } else {
        assert!(desc[0] > *asc.last().unwrap());
    }
}

/// Whether `values` are ordered by bytes, or by letters and digits ignoring case, spaces and
/// punctuation (how PostgreSQL's locale collations compare): either is a correct sort.
fn is_sorted_text(values: &[String], descending: bool) -> bool {
    let loose = |s: &String| {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect::<String>()
    };
    let ordered = |a: &String, b: &String, key: &dyn Fn(&String) -> String| {
        if descending {
            key(a) >= key(b)
        } else {
            key(a) <= key(b)
        }
    };
    values
        .windows(2)
        .all(|w| ordered(&w[0], &w[1], &|s: &String| s.clone()))
        || values.windows(2).all(|w| ordered(&w[0], &w[1], &loose))
}

#[tokio::test]
async fn sorting_by_text_columns_orders_both_ways() {
    let server = TestServer::demo().await;
    let mut staff = server.signed_in(MANAGER).await;
    for column in ["UserFullName", "LocationName", "AppointmentDate"] {
        let mut firsts = Vec::new();
        for direction in ["asc", "desc"] {
            let p = page(&mut staff, &request(0, 100, Some((column, direction)), "")).await;
            // Rows without a value (null) may sort first or last depending on the engine.
            let values: Vec<String> = rows(&p)
                .iter()
                .filter_map(|row| row[column].as_str().map(str::to_owned))
                .collect();
            assert!(
                values.len() >= 10,
                "{column}: too few values to judge the order: {values:?}"
            );
            assert!(
                is_sorted_text(&values, direction == "desc"),
                "{column} {direction} is not ordered: {values:?}"
            );
            firsts.push(values);
        }
        let distinct: HashSet<&String> = firsts[0].iter().collect();
        if distinct.len() > 1 {
            assert_ne!(
                firsts[0], firsts[1],
                "{column}: asc and desc gave the same order"
            );
        }
    }
}

#[tokio::test]
async fn unknown_sort_column_is_400() {
    let server = TestServer::demo().await;
    let mut staff = server.signed_in(MANAGER).await;
    for column in [
        "Nope",
        "Id; DROP TABLE users",
        "UserFullName desc, 1",
        "password_hash",
        "1",
    ] {
        let response = staff
            .post_json(DATATABLE, &request(0, 10, Some((column, "asc")), ""))
            .await;
        assert_eq!(
            response.status,
            StatusCode::BAD_REQUEST,
            "sort column {column:?}: {}",
            response.text()
        );
        response.expect_error(StatusCode::BAD_REQUEST);
    }
    server.assert_alive().await;
    let after = page(&mut staff, &request(0, 10, None, "")).await;
    assert!(
        count(&after, "FilteredCount") >= 60,
        "rows still there: {after}"
    );
}

#[tokio::test]
async fn search_by_name_narrows_the_list() {
    let server = TestServer::demo().await;
    let mut staff = server.signed_in(MANAGER).await;
    let first = page(&mut staff, &request(0, 10, Some(("Id", "asc")), "")).await;
    let total = count(&first, "FilteredCount");
    let name = rows(&first)[0]["UserFullName"].as_str().unwrap().to_owned();
    let found = page(&mut staff, &request(0, 100, None, &name)).await;
    let filtered = count(&found, "FilteredCount");
    assert!(
        filtered >= 1 && filtered < total,
        "search {name:?}: FilteredCount {filtered} of {total}"
    );
    assert_eq!(
        count(&found, "TotalCount"),
        total,
        "TotalCount ignores the search"
    );
    assert!(
        ids(&found).contains(&rows(&first)[0]["Id"].as_i64().unwrap()),
        "the row the name came from is found"
    );
    for row in rows(&found) {
        let text = format!(
            "{} {}",
            row["UserFullName"].as_str().unwrap_or(""),
            row["UserIdentifierToShow"].as_str().unwrap_or("")
        );
        assert!(
            text.to_lowercase().contains(&name.to_lowercase()),
            "search {name:?} matched {row}"
        );
    }
}

#[tokio::test]
async fn search_by_mrn_finds_the_patient() {
    let server = TestServer::demo().await;
    let mut staff = server.signed_in(FRONT_DESK).await;
    let first = page(&mut staff, &request(0, 10, Some(("Id", "desc")), "")).await;
    let total = count(&first, "FilteredCount");
    let row = rows(&first)
        .iter()
        .find(|r| {
            r["UserIdentifierToShow"]
                .as_str()
                .is_some_and(|m| !m.is_empty())
        })
        .expect("a row with an MRN");
    let mrn = row["UserIdentifierToShow"].as_str().unwrap().to_owned();
    let found = page(&mut staff, &request(0, 100, None, &mrn)).await;
    let filtered = count(&found, "FilteredCount");
    assert!(
        filtered >= 1 && filtered < total,
        "search MRN {mrn:?}: FilteredCount {filtered} of {total}"
    );
    assert!(ids(&found).contains(&row["Id"].as_i64().unwrap()));
}

#[tokio::test]
async fn search_for_nobody_finds_nothing() {
    let server = TestServer::demo().await;
    let mut staff = server.signed_in(MANAGER).await;
    let found = page(&mut staff, &request(0, 10, None, "zzqx-no-such-patient")).await;
    assert_eq!(count(&found, "FilteredCount"), 0, "{found}");
    assert!(rows(&found).is_empty());
    assert!(count(&found, "TotalCount") >= 60);
}

#[tokio::test]
async fn search_treats_wildcards_and_quotes_literally() {
    let server = TestServer::demo().await;
    let mut staff = server.signed_in(MANAGER).await;
    for search in ["%", "_", "%%%", "' OR '1'='1", "\\"] {
        let response = staff
            .post_json(DATATABLE, &request(0, 10, None, search))
            .await;
        let found = response.expect(StatusCode::OK);
        assert_eq!(
            count(&found, "FilteredCount"),
            0,
            "search {search:?} must match literally, not everything: {found}"
        );
    }
    server.assert_alive().await;
}

#[tokio::test]
async fn hostile_paging_is_safe() {
    let server = TestServer::demo().await;
    let mut staff = server.signed_in(MANAGER).await;
    let far = page(&mut staff, &request(4_294_967_295, 10, None, "")).await;
    assert!(rows(&far).is_empty(), "page 4294967295 has no rows: {far}");
    assert!(count(&far, "FilteredCount") >= 60);

    for size in [1_000_000u64, 4_294_967_295, 0, 7] {
        let p = page(&mut staff, &request(0, size, None, "")).await;
        let safe = count(&p, "PageSize");
        assert!(
            PAGE_SIZES.contains(&safe),
            "PageSize {size} answered with page size {safe}, not one of {PAGE_SIZES:?}"
        );
        assert!(
            rows(&p).len() as u64 <= safe,
            "PageSize {size}: {} rows",
            rows(&p).len()
        );
        assert!(
            !rows(&p).is_empty(),
            "PageSize {size}: a safe size still shows rows"
        );
    }
    let far_and_wide = page(&mut staff, &request(4_294_967_295, 4_294_967_295, None, "")).await;
    assert!(rows(&far_and_wide).is_empty());
    server.assert_alive().await;
}

#[tokio::test]
async fn statuses_lookup_has_the_seven_statuses() {
    let server = TestServer::demo().await;
    let mut staff = server.signed_in(MANAGER).await;
    let body = staff.get_json("/api/historyPortal/statusesLookup").await;
    let statuses = body
        .as_array()
        .unwrap_or_else(|| panic!("statusesLookup is not an array: {body}"));
    assert_eq!(statuses.len(), 7, "{body}");
    for status in statuses {
        assert!(
            status["Key"].as_str().is_some_and(|k| !k.is_empty()),
            "{status}"
        );
        assert!(
            status["Label"].as_str().is_some_and(|l| !l.is_empty()),
            "{status}"
        );
        assert!(status["Order"].is_number(), "{status}");
        assert!(status["IsCompleteStatus"].is_boolean(), "{status}");
    }
    let label_of = |key: &str| {
        statuses
            .iter()
            .find(|s| s["Key"] == json!(key))
            .map(|s| s["Label"].clone())
    };
    assert_eq!(
        label_of("Reviewed"),
        Some(json!("Finalized by Admin")),
        "{body}"
    );
    assert_eq!(
        label_of("PartiallyCompleteExpired"),
        Some(json!("Partially Complete-Expired")),
        "{body}"
    );
    let keys: HashSet<&str> = statuses.iter().filter_map(|s| s["Key"].as_str()).collect();
    assert_eq!(keys.len(), 7, "keys are distinct: {body}");
    let orders: HashSet<String> = statuses.iter().map(|s| s["Order"].to_string()).collect();
    assert_eq!(orders.len(), 7, "orders are distinct: {body}");
    assert!(
        statuses
            .iter()
            .any(|s| s["IsCompleteStatus"] == json!(true)),
        "{body}"
    );
    assert!(
        statuses
            .iter()
            .any(|s| s["IsCompleteStatus"] == json!(false)),
        "{body}"
    );

    // Every row's StatusKey is one of them.
    let p = page(&mut staff, &request(0, 100, None, "")).await;
    for row in rows(&p) {
        assert!(
            keys.contains(row["StatusKey"].as_str().unwrap_or("")),
            "unknown StatusKey in {row}"
        );
    }
}

#[tokio::test]
async fn locations_map_numbers_to_names() {
    let server = TestServer::demo().await;
    let mut staff = server.signed_in(FRONT_DESK).await;
    let body = staff.get_json("/api/survey/GetAllLocations").await;
    let locations = body
        .as_object()
        .unwrap_or_else(|| panic!("GetAllLocations is not an object: {body}"));
    assert!(
        locations.len() >= 3,
        "the demo clinic has 3+ locations: {body}"
    );
    for (number, name) in locations {
        assert!(
            !number.is_empty() && number.chars().all(|c| c.is_ascii_digit()),
            "location key {number:?} is not a number"
        );
        assert!(
            name.as_str().is_some_and(|n| !n.trim().is_empty()),
            "location {number}: {name}"
        );
    }
}
