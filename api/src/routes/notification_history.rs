//! Notification History (spec 01 §2.8): what the outbox really delivered — Date, MRN, Sent to,
//! Type — newest first, server-driven paging and search (MRN, recipient, type).

use axum::extract::State;
use axum::Json;
use serde::{Deserialize, Serialize};
use wasm_core::model::{SortDirection, TableRequest, TableResponse};

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

#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "PascalCase")]
pub struct NotificationHistoryRow {
    pub id: i64,
    /// ISO instant (UTC) it was delivered; the page formats it 'MM/DD/YYYY, hh:mm:ss A'.
    pub date: String,
    #[serde(rename = "MRN")]
    pub mrn: String,
    pub sent_to: String,
    #[serde(rename = "Type")]
    pub kind: String,
    pub method: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct Request {
    #[serde(flatten)]
    table: TableRequest,
}

async fn datatable(
    _user: RequireRole<Staff>,
    State(state): State<AppState>,
    ApiJson(req): ApiJson<Request>,
) -> AppResult<Json<TableResponse<NotificationHistoryRow>>> {
    // Newest first unless a column is chosen.
    let dir = match (
        req.table
            .sort_column
            .as_deref()
            .map(str::trim)
            .filter(|c| !c.is_empty()),
        req.table.sort_direction,
    ) {
        (None, _) | (_, SortDirection::Desc) => "DESC",
        _ => "ASC",
    };
    let page = notices::page(
        &state.db,
        &NoticeQuery {
            sort_column: req.table.sort_column.as_deref(),
            descending: dir == "DESC",
            search: req.table.search.trim(),
            limit: i64::from(req.table.safe_page_size()),
            offset: i64::try_from(req.table.offset()).unwrap_or(i64::MAX),
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
        page_index: req.table.page_index,
        page_size: req.table.safe_page_size(),
    }))
}
