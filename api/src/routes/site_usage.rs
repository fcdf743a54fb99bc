//! Site Usage Report (spec 03 §2, §4 "Site usage", §7 "Site usage"): the summary of a range
//! (Total Visits, Total Portal Documents Opened, Peak Visit Time, per day) read from the hourly
//! counts, and one day's events as a server-side table. The figures are wasm-core's
//! `site_usage::summarize`. Program managers, and client admins while 'Show Reports for
//! ClientAdmin users' is on (spec 03 §6; the menu shows the report on the same rule).

use axum::extract::State;
use axum::Json;
use wasm_core::dates::{parse_iso, Parsed};
use wasm_core::model::Role;
use wasm_core::model::{
    DashboardRequest, DashboardResponse, SortDirection, TableResponse, UsageEventRow,
    UsageEventsQuery,
};
use wasm_core::settings::user_account_switch_user_options::UserAccountSwitchUserOptions;
use wasm_core::site_usage::{self as rules, DOCUMENT_LOADED, MAX_RANGE_DAYS, URL_HIT};

use crate::auth::roles::SettingsAdmins;
use crate::auth::RequireRole;
use crate::error::{ApiJson, ApiQuery, AppError, AppResult};
use crate::openapi::ApiRouter;
use crate::store::site_usage::{self as store, EventQuery};
use crate::{fmt, settings, AppState};

type Admin = RequireRole<SettingsAdmins>;

const HOUR_MS: i64 = 3_600_000;
const DAY_MS: i64 = 86_400_000;
pub const BAD_RANGE: &str = "Choose a start date before the end date, at most a year apart";
pub const BAD_TYPE: &str = "type is 0 (site visits) or 13 (opened documents)";

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .post(
            "/api/event/getEventsForDashboard",
            "Site usage summary of startDate <= time < endDate (ISO instants), days and hours in offsetMinutes: for site visits (UrlHit) and opened documents (DocumentLoaded) the Total, Percentage and Trend (Up, Down, None) against the range of the same length before, PeakHour with PeakCount and PeakTrend, Chart (Labels, Data) and Details (Day, Count) per day; 400 for a range that is reversed or longer than a year",
            dashboard,
        )
        .get(
            "/api/Event/GetEventsForDatatable",
            "One page of the events of ?type (0 visits, 13 opened documents) in startDate <= time < endDate (ISO instants; the details page asks for one day): Data Access, IP Address, Operating System, Browser, Document ID; sorting by those columns and searching in them (PageIndex, PageSize, SortColumn, SortDirection, Search)",
            datatable,
        )
}

pub const REPORTS_OFF: &str = "Reports are not enabled for client admins";

/// spec 03 §6: client admins see the report only with ShowFrontDeskReports on.
async fn may_read(state: &AppState, user: &Admin) -> AppResult<()> {
    if user.role == Role::ClientAdmin {
        let switch: UserAccountSwitchUserOptions = settings::get(&state.db).await?;
        if !switch.show_front_desk_reports {
            return Err(AppError::Forbidden(REPORTS_OFF.to_owned()));
        }
    }
    Ok(())
}

fn instant_ms(text: &str) -> Option<i64> {
    match parse_iso(text)? {
        Parsed::Instant(s) => s.checked_mul(1000),
        Parsed::Date(_) => None,
    }
}

/// `[start, end)` in ms, at most a year long (a day on the details page: the same check).
fn range(start: &str, end: &str) -> AppResult<(i64, i64)> {
    match (instant_ms(start), instant_ms(end)) {
        (Some(s), Some(e)) if s < e && e - s <= MAX_RANGE_DAYS * DAY_MS => Ok((s, e)),
        _ => Err(AppError::BadRequest(BAD_RANGE.to_owned())),
    }
}

async fn dashboard(
    State(state): State<AppState>,
    user: Admin,
    ApiJson(req): ApiJson<DashboardRequest>,
) -> AppResult<Json<DashboardResponse>> {
    may_read(&state, &user).await?;
    if ![URL_HIT, DOCUMENT_LOADED].contains(&req.kind) {
        return Err(AppError::BadRequest(BAD_TYPE.to_owned()));
    }
    let offset = req.offset_minutes.clamp(
        -wasm_core::dates::MAX_OFFSET_MINUTES,
        wasm_core::dates::MAX_OFFSET_MINUTES,
    );
    let (start, end) = range(&req.start_date, &req.end_date)?;
    let before = start - (end - start);
    let (first_hour, start_hour, end_hour) = (
        before.div_euclid(HOUR_MS),
        start.div_euclid(HOUR_MS),
        (end + HOUR_MS - 1).div_euclid(HOUR_MS),
    );
    let rows = store::hourly(&state.db, first_hour, end_hour).await?;
    let split = |kind: i64| {
        let (mut now, mut prev) = (Vec::new(), Vec::new());
        for (t, hour, n) in &rows {
            if *t == kind {
                if *hour >= start_hour {
                    now.push((*hour, *n));
                } else {
                    prev.push((*hour, *n));
                }
            }
        }
        rules::summarize(&now, &prev, start, end, offset)
    };
    Ok(Json(DashboardResponse {
        visit: split(URL_HIT),
        open_document: split(DOCUMENT_LOADED),
    }))
}

async fn datatable(
    State(state): State<AppState>,
    user: Admin,
    ApiQuery(q): ApiQuery<UsageEventsQuery>,
) -> AppResult<Json<TableResponse<UsageEventRow>>> {
    may_read(&state, &user).await?;
    if ![URL_HIT, DOCUMENT_LOADED].contains(&q.kind) {
        return Err(AppError::BadRequest(BAD_TYPE.to_owned()));
    }
    let (start, end) = range(&q.start_date, &q.end_date)?;
    let table = q.table();
    let page = store::page(
        &state.db,
        &EventQuery {
            event_type: q.kind,
            start_ms: start,
            end_ms: end,
            sort_column: table.sort_column.as_deref(),
            descending: table.sort_direction == SortDirection::Desc,
            search: table.search.trim(),
            limit: i64::from(table.safe_page_size()),
            offset: i64::try_from(table.offset()).unwrap_or(i64::MAX),
        },
    )
    .await?;
    Ok(Json(TableResponse {
        data: page
            .rows
            .into_iter()
            .map(|r| UsageEventRow {
                id: r.id,
                data_access: fmt::iso_utc(r.created_at),
                ip_address: r.ip.unwrap_or_default(),
                operating_system: r.os.unwrap_or_default(),
                browser: r.browser.unwrap_or_default(),
                document_id: r.target_id.unwrap_or_default(),
            })
            .collect(),
        total_count: u64::try_from(page.total).unwrap_or(0),
        filtered_count: u64::try_from(page.filtered).unwrap_or(0),
        page_index: table.page_index,
        page_size: table.safe_page_size(),
    }))
}
