//! Notification History (spec 01 §2.8): what the outbox really delivered — Date, MRN, Sent to,
//! Type — newest first, server-driven paging and search (MRN, recipient, type).

use axum::extract::State;
use axum::Json;
use wasm_core::model::{NotificationHistoryRow, SortDirection, TableRequest, TableResponse};

use crate::auth::{RequireRole, Staff};
use crate::error::{ApiJson, AppResult};
use crate::openapi::ApiRouter;
use crate::store::notification_history::{self as notices, NoticeQuery};
use crate::{fmt, AppState};

pub fn router() -> ApiRouter {
    ApiRouter::new().post(
        "/api/NotificationHistory/datatables",
        "One page of delivered notifications (Date, MRN, Sent to, Type)",
        datatable,
    )
}

async fn datatable(
    _user: RequireRole<Staff>,
    State(state): State<AppState>,
    ApiJson(table): ApiJson<TableRequest>,
) -> AppResult<Json<TableResponse<NotificationHistoryRow>>> {
    // Newest first unless a column is chosen.
    let dir = match (
        table
            .sort_column
            .as_deref()
            .map(str::trim)
            .filter(|c| !c.is_empty()),
        table.sort_direction,
    ) {
        (None, _) | (_, SortDirection::Desc) => "DESC",
        _ => "ASC",
    };
    let page = notices::page(
        &state.db,
        &NoticeQuery {
            sort_column: table.sort_column.as_deref(),
            descending: dir == "DESC",
            search: table.search.trim(),
            limit: i64::from(table.safe_page_size()),
            offset: i64::try_from(table.offset()).unwrap_or(i64::MAX),
        },
    )
    .await?;
    let (rows, filtered, total) = (page.rows, page.filtered, page.total);
    Ok(Json(TableResponse {
        data: rows
            .into_iter()
            .map(|r| NotificationHistoryRow {
                id: r.id,
                date: fmt::iso_utc(r.sent_at),
                mrn: r.mrn.unwrap_or_default(),
                sent_to: r.recipient,
                kind: r.kind,
                method: r.channel,
            })
            .collect(),
        total_count: u64::try_from(total).unwrap_or(0),
        filtered_count: u64::try_from(filtered).unwrap_or(0),
        page_index: table.page_index,
        page_size: table.safe_page_size(),
    }))
}
