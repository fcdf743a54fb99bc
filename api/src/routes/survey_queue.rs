//! History Portal lists (spec 01 §2.6): the survey-queue table and its filter lookups.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::Json;
use wasm_core::history_portal::location_display_name;
use wasm_core::model::{
    status_lookup, HistoryListSettings, StatusLookupItem, SurveyQueueRow, SurveyQueueTableRequest,
    SurveyStatus, TableResponse,
};
use wasm_core::settings::history_portal::HistoryPortal;

use crate::auth::{RequireRole, Staff};
use crate::db::now_ms;
use crate::error::{ApiJson, AppResult};
use crate::openapi::ApiRouter;
use crate::settings;
use crate::store::history_portal::{self, QueueFilters, QueueQuery, QueueRow};
use crate::store::locations;
use crate::{fmt, AppState};

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/api/survey/GetAllLocations",
            "Locations: location number -> name",
            all_locations,
        )
        .get(
            "/api/historyPortal/statusesLookup",
            "The seven survey statuses with labels",
            statuses_lookup,
        )
        .get(
            "/api/historyPortal/listSettings",
            "What the History Portal lists need of the HistoryPortal settings (hide appointment time)",
            list_settings,
        )
        .post(
            "/api/surveyQueue/datatable",
            "One page of survey-queue rows (search on patient name and MRN)",
            datatable,
        )
}

async fn all_locations(
    _user: RequireRole<Staff>,
    State(state): State<AppState>,
) -> AppResult<Json<BTreeMap<String, String>>> {
    let rows = locations::numbers_and_names(&state.db).await?;
    // Display names (wasm-core's rule), so the browser needs no copy of it.
    Ok(Json(
        rows.into_iter()
            .map(|(num, name)| (num, location_display_name(&name)))
            .collect(),
    ))
}

async fn list_settings(
    _user: RequireRole<Staff>,
    State(state): State<AppState>,
) -> AppResult<Json<HistoryListSettings>> {
    let history = settings::get::<HistoryPortal>(&state.db).await?;
    Ok(Json(HistoryListSettings {
        is_hide_appointment_time_in_history_portal: history
            .is_hide_appointment_time_in_history_portal,
        history_portal_max_ready_for_exam_email: history.history_portal_max_ready_for_exam_email
            as i64,
    }))
}

async fn statuses_lookup(_user: RequireRole<Staff>) -> Json<Vec<StatusLookupItem>> {
    Json(status_lookup())
}

fn to_row(r: QueueRow, offset: i32, hide_time: bool) -> SurveyQueueRow {
    let status = SurveyStatus::parse(&r.status);
    let opt = |ms: Option<i64>, f: &dyn Fn(i64) -> String| ms.map(f).unwrap_or_default();
    SurveyQueueRow {
        id: r.id,
        user_full_name: format!("{} {}", r.first_name, r.last_name)
            .trim()
            .to_owned(),
        user_identifier_to_show: r.mrn,
        user_dob_string: r
            .dob
            .as_deref()
            .map(fmt::iso_date_to_us)
            .unwrap_or_default(),
        user_dob: r.dob,
        user_email: r.email,
        location_name: r
            .location_name
            .as_deref()
            .map(location_display_name)
            .unwrap_or_default(),
        appointment_date: r.starts_at.map(fmt::iso_utc),
        appointment_date_string: opt(r.starts_at, &|ms| fmt::appointment(ms, hide_time, offset)),
        appointment_time: r.starts_at.map(|ms| fmt::time_of_day(ms, offset)),
        appointment_time_string: opt(r.starts_at, &|ms| {
            if hide_time || fmt::is_whole_day(ms, offset) {
                String::new()
            } else {
                fmt::time_of_day(ms, offset)
            }
        }),
        status: status
            .map(|s| s.label().to_owned())
            .unwrap_or_else(|| r.status.clone()),
        status_key: r.status,
        survey_name: r.survey_name,
        survey_started_date_string: opt(r.started_at, &|ms| fmt::date_time(ms, offset)),
        date_completed_string: opt(r.completed_at, &|ms| fmt::date_time(ms, offset)),
        last_email_sent: r.last_email_sent_at.map(fmt::iso_utc),
        last_email_sent_string: opt(r.last_email_sent_at, &|ms| fmt::date_time(ms, offset)),
        is_completed: status.is_some_and(SurveyStatus::is_completed),
        survey_log_id: r.survey_log_id,
        arrival_status: r.arrival_status,
        ready_for_exam_count: r.ready_for_exam_count.unwrap_or(0),
    }
}

async fn datatable(
    _user: RequireRole<Staff>,
    State(state): State<AppState>,
    ApiJson(req): ApiJson<SurveyQueueTableRequest>,
) -> AppResult<Json<TableResponse<SurveyQueueRow>>> {
    let offset_minutes = req.timezone_offset.unwrap_or(0).clamp(-1080, 1080);
    let page = history_portal::page(
        &state.db,
        &QueueQuery {
            sort_column: req.table.sort_column.as_deref(),
            direction: req.table.sort_direction,
            search: &req.table.search,
            page_size: i64::from(req.table.safe_page_size()),
            skip: i64::try_from(req.table.offset()).unwrap_or(i64::MAX),
            offset_minutes,
            now: now_ms(),
            filters: QueueFilters {
                status: req.status.clone(),
                location: req.location.clone(),
                status_group: req.status_group.clone(),
                date_from: req.date_from.clone(),
                date_to: req.date_to.clone(),
            },
        },
    )
    .await?;
    let hide_time = settings::get::<HistoryPortal>(&state.db)
        .await?
        .is_hide_appointment_time_in_history_portal;
    Ok(Json(TableResponse {
        data: page
            .rows
            .into_iter()
            .map(|r| to_row(r, offset_minutes, hide_time))
            .collect(),
        total_count: u64::try_from(page.total).unwrap_or(0),
        filtered_count: u64::try_from(page.filtered).unwrap_or(0),
        page_index: req.table.page_index,
        page_size: req.table.safe_page_size(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::history_portal::sort_sql;

    #[test]
    fn every_row_field_that_sorts_is_a_row_field() {
        let row = serde_json::to_value(to_row(
            QueueRow {
                id: 1,
                first_name: "Jane".into(),
                last_name: "Doe".into(),
                mrn: "100001".into(),
                dob: Some("1975-04-12".into()),
                email: None,
                location_name: Some("MAIN_CAMPUS".into()),
                starts_at: Some(1_795_356_309_000),
                status: "Reviewed".into(),
                survey_name: "S".into(),
                started_at: None,
                completed_at: None,
                last_email_sent_at: None,
                survey_log_id: None,
                arrival_status: None,
                ready_for_exam_count: None,
            },
            0,
            false,
        ))
        .unwrap();
        for name in [
            "Id",
            "UserFullName",
            "UserIdentifierToShow",
            "UserDOB",
            "LocationName",
            "AppointmentDate",
            "Status",
            "SurveyName",
            "LastEmailSentString",
            "ArrivalStatus",
            "ReadyForExamCount",
            "IsCompleted",
        ] {
            assert!(sort_sql(name).is_some(), "{name}");
            assert!(row.get(name).is_some(), "{name}");
        }
        assert_eq!(row["UserDOBString"], "04/12/1975");
        assert_eq!(row["Status"], "Finalized by Admin");
        assert_eq!(row["StatusKey"], "Reviewed");
        assert_eq!(row["LocationName"], "Main Campus");
        assert_eq!(row["UserFullName"], "Jane Doe");
    }
}
