//! History Portal list filters (spec 01 §2.6, §7): status groups (tabs), status, location and the
//! appointment range; every filtered page agrees with the unfiltered data it is a subset of.

use api_tests::*;

const DATATABLE: &str = "/api/surveyQueue/datatable";

async fn all_rows(client: &mut Client, extra: Value) -> (Vec<Value>, u64, u64) {
    let mut body = json!({"PageIndex": 0, "PageSize": 100, "SortColumn": "Id", "SortDirection": "asc", "Search": ""});
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    let mut rows = Vec::new();
    loop {
        let response = client.post_json(DATATABLE, &body).await;
        assert_eq!(
            response.status,
            StatusCode::OK,
            "{body}: {}",
            response.text()
        );
        let page = response.json();
        let data = page["Data"].as_array().unwrap().clone();
        let (filtered, total) = (
            page["FilteredCount"].as_u64().unwrap(),
            page["TotalCount"].as_u64().unwrap(),
        );
        let done = data.len() < 100;
        rows.extend(data);
        if done || rows.len() as u64 >= filtered {
            return (rows, filtered, total);
        }
        body["PageIndex"] = json!(body["PageIndex"].as_u64().unwrap() + 1);
    }
}

fn ms(iso: &str) -> i64 {
    // YYYY-MM-DDTHH:MM:SS(.sss)Z -> unix ms (the rows' AppointmentDate).
    let p = |r: std::ops::Range<usize>| iso[r].parse::<i64>().unwrap();
    let (y, m, d) = (p(0..4), p(5..7), p(8..10));
    let (hh, mm, ss) = (p(11..13), p(14..16), p(17..19));
    let y2 = if m <= 2 { y - 1 } else { y };
    let era = y2.div_euclid(400);
    let yoe = y2 - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    ((days * 24 + hh) * 60 + mm) * 60_000 + ss * 1000
}

fn iso(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}T00:00:00.000Z")
}

#[tokio::test]
async fn status_groups_hold_only_their_statuses() {
    let server = TestServer::demo().await;
    let mut staff = server.signed_in(FRONT_DESK).await;
    let (all, total, _) = all_rows(&mut staff, json!({})).await;
    assert!(total >= 10);
    let keys = |rows: &[Value]| {
        rows.iter()
            .map(|r| r["StatusKey"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    for (group, allowed) in [
        (
            "All",
            vec![
                "Assigned",
                "IntermediateSave",
                "Completed",
                "Reviewed",
                "Expired",
                "PartiallyCompleteExpired",
                "IntermediateSaveExpired",
            ],
        ),
        ("Assigned", vec!["Assigned"]),
        ("InProgress", vec!["IntermediateSave"]),
        (
            "Completed",
            vec![
                "Completed",
                "Reviewed",
                "Expired",
                "PartiallyCompleteExpired",
                "IntermediateSaveExpired",
            ],
        ),
    ] {
        let (rows, filtered, t) = all_rows(&mut staff, json!({"StatusGroup": group})).await;
        assert_eq!(t, total, "TotalCount ignores filters");
        assert_eq!(rows.len() as u64, filtered, "{group}");
        for key in keys(&rows) {
            assert!(allowed.contains(&key.as_str()), "{group} holds {key}");
        }
        let expected = keys(&all)
            .iter()
            .filter(|k| allowed.contains(&k.as_str()))
            .count();
        assert_eq!(rows.len(), expected, "{group}: every matching row, no more");
    }
    let bad = staff
        .post_json(DATATABLE, &json!({"StatusGroup": "Nope"}))
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn status_and_location_filters_match_exactly() {
    let server = TestServer::demo().await;
    let mut staff = server.signed_in(MANAGER).await;
    let (all, _, _) = all_rows(&mut staff, json!({})).await;
    let locations = staff.get_json("/api/survey/GetAllLocations").await;
    let mut seen_some = false;
    for (num, name) in locations.as_object().unwrap() {
        let (rows, _, _) = all_rows(&mut staff, json!({"Location": num})).await;
        let shown = name.as_str().unwrap().replace('_', " ").to_lowercase();
        for row in &rows {
            assert_eq!(
                row["LocationName"].as_str().unwrap().to_lowercase(),
                shown,
                "location {num}"
            );
        }
        let expected = all
            .iter()
            .filter(|r| r["LocationName"].as_str().unwrap().to_lowercase() == shown)
            .count();
        assert_eq!(rows.len(), expected, "location {num}");
        seen_some |= !rows.is_empty();
    }
    assert!(seen_some);
    let (rows, _, _) = all_rows(
        &mut staff,
        json!({"Status": "Assigned", "StatusGroup": "All"}),
    )
    .await;
    assert!(!rows.is_empty());
    assert!(rows.iter().all(|r| r["StatusKey"] == "Assigned"));
    let (none, filtered, _) = all_rows(&mut staff, json!({"Location": "no-such-location"})).await;
    assert!(none.is_empty() && filtered == 0);
    assert_eq!(
        staff
            .post_json(DATATABLE, &json!({"Status": "Sleeping"}))
            .await
            .status,
        StatusCode::BAD_REQUEST
    );
}

#[tokio::test]
async fn the_appointment_range_includes_the_whole_last_day_in_the_viewers_zone() {
    let server = TestServer::demo().await;
    let mut staff = server.signed_in(FRONT_DESK).await;
    let (all, _, _) = all_rows(&mut staff, json!({})).await;
    let dated: Vec<i64> = all
        .iter()
        .filter_map(|r| r["AppointmentDate"].as_str().map(ms))
        .collect();
    assert!(dated.len() >= 3);
    let offset_minutes: i64 = -300;
    for &pick in &dated {
        // The local day (UTC-5) of the appointment, as the picker's DateFrom = DateTo.
        let local_midnight = (pick + offset_minutes * 60_000).div_euclid(86_400_000) * 86_400_000
            - offset_minutes * 60_000;
        let day = iso(local_midnight).replace(
            "T00:00:00.000Z",
            &format!("T{:02}:00:00.000Z", (-offset_minutes) / 60),
        );
        let (rows, _, _) = all_rows(
            &mut staff,
            json!({"DateFrom": day, "DateTo": day, "TimezoneOffset": offset_minutes}),
        )
        .await;
        let expected = dated
            .iter()
            .filter(|&&t| t >= local_midnight && t < local_midnight + 86_400_000)
            .count();
        assert_eq!(rows.len(), expected, "day {day}");
        assert!(rows
            .iter()
            .any(|r| r["AppointmentDate"].as_str().map(ms) == Some(pick)));
    }
    // A range that covers everything, and one before everything.
    let (min, max) = (*dated.iter().min().unwrap(), *dated.iter().max().unwrap());
    let (rows, _, _) = all_rows(
        &mut staff,
        json!({"DateFrom": iso(min), "DateTo": iso(max)}),
    )
    .await;
    assert_eq!(rows.len(), dated.len());
    let (rows, _, _) = all_rows(
        &mut staff,
        json!({"DateFrom": iso(min - 10 * 86_400_000), "DateTo": iso(min - 86_400_000 * 2)}),
    )
    .await;
    assert!(rows.is_empty());
    assert_eq!(
        staff
            .post_json(DATATABLE, &json!({"DateFrom": "yesterday"}))
            .await
            .status,
        StatusCode::BAD_REQUEST
    );
}

#[tokio::test]
async fn deep_pages_read_from_the_far_end_agree_with_forward_paging() {
    let server = TestServer::demo().await;
    let mut staff = server.signed_in(MANAGER).await;
    for (sort, dir) in [
        ("Id", "asc"),
        ("AppointmentDate", "desc"),
        ("UserFullName", "asc"),
    ] {
        let mut forward = Vec::new();
        let mut index = 0;
        loop {
            let page = staff
                .post_json(DATATABLE, &json!({"PageIndex": index, "PageSize": 10, "SortColumn": sort, "SortDirection": dir}))
                .await
                .json();
            let data = page["Data"].as_array().unwrap().clone();
            if data.is_empty() {
                break;
            }
            forward.extend(data.iter().map(|r| r["Id"].as_i64().unwrap()));
            index += 1;
        }
        let (one, _, _) = all_rows(
            &mut staff,
            json!({"SortColumn": sort, "SortDirection": dir}),
        )
        .await;
        let one: Vec<i64> = one.iter().map(|r| r["Id"].as_i64().unwrap()).collect();
        assert_eq!(
            forward, one,
            "{sort} {dir}: pages of 10 (the later ones read backwards) equal one page of 100"
        );
    }
}

#[tokio::test]
async fn list_settings_are_for_staff() {
    let server = TestServer::demo().await;
    let mut staff = server.signed_in(FRONT_DESK).await;
    let doc = staff.get_json("/api/historyPortal/listSettings").await;
    assert_eq!(doc["IsHideAppointmentTimeInHistoryPortal"], json!(false));
    let mut patient = server.signed_in(JANE).await;
    assert_eq!(
        patient.get("/api/historyPortal/listSettings").await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        server
            .client()
            .get("/api/historyPortal/listSettings")
            .await
            .status,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn total_count_follows_inserts_and_deletes() {
    let server = TestServer::demo().await;
    let mut staff = server.signed_in(FRONT_DESK).await;
    let (_, _, total) = all_rows(&mut staff, json!({})).await;
    assert_eq!(
        total as i64,
        server.count_sql("SELECT COUNT(*) FROM survey_queue").await
    );
    server
        .execute_sql(
            "INSERT INTO survey_queue (patient_id, appointment_id, study_id, location_id, survey_definition_id, status, created_at, updated_at, revision)
             SELECT patient_id, appointment_id, study_id, location_id, survey_definition_id, 'Assigned', created_at, updated_at, 1
             FROM survey_queue WHERE id = (SELECT MIN(id) FROM survey_queue)",
        )
        .await;
    let (rows, filtered, after) = all_rows(&mut staff, json!({})).await;
    assert_eq!(after, total + 1);
    assert_eq!(filtered, after);
    assert_eq!(rows.len() as u64, after);
    // The copied row carries its appointment's instant (trigger), so date filters find it.
    let newest = server.count_sql("SELECT MAX(id) FROM survey_queue").await;
    assert_eq!(
        server.count_sql(&format!("SELECT COUNT(*) FROM survey_queue sq JOIN appointments a ON a.id = sq.appointment_id WHERE sq.id = {newest} AND sq.appt_starts_at = a.starts_at")).await,
        1
    );
    server
        .execute_sql(&format!("DELETE FROM survey_queue WHERE id = {newest}"))
        .await;
    let (_, _, back) = all_rows(&mut staff, json!({})).await;
    assert_eq!(back, total);
}
