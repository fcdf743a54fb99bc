//! Notification History (spec 01 §2.8): what the outbox really delivered — Date, MRN, Sent to,
//! Type — newest first, server-driven paging and search (MRN, recipient, type).

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use wasm_core::model::{SortDirection, TableRequest, TableResponse};

use crate::auth::{RequireRole, Staff};
use crate::error::{ApiJson, AppError, AppResult};
use crate::openapi::{Access, RouteDoc};
use crate::store::history_portal::prefix_bounds;
use crate::{fmt, on_db, AppState};

pub const ROUTES: &[RouteDoc] = &[RouteDoc {
    method: "POST",
    path: "/api/NotificationHistory/datatables",
    summary: "One page of delivered notifications (Date, MRN, Sent to, Type)",
    access: Access::Staff,
    request: Some("TableRequest"),
    response: "TableResponse<NotificationHistoryRow>",
}];

pub fn router() -> Router<AppState> {
    Router::new().route("/api/NotificationHistory/datatables", post(datatable))
}

#[derive(Debug, Serialize)]
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

#[derive(Debug, Deserialize)]
struct Request {
    #[serde(flatten)]
    table: TableRequest,
}

#[derive(sqlx::FromRow)]
struct Row {
    id: i64,
    sent_at: i64,
    mrn: Option<String>,
    recipient: String,
    kind: String,
    channel: String,
}

fn sort_sql(column: Option<&str>) -> AppResult<&'static str> {
    Ok(match column.map(str::trim).filter(|c| !c.is_empty()) {
        None | Some("Date") => "o.sent_at",
        Some("MRN") => "p.mrn",
        Some("SentTo") => "o.recipient",
        Some("Type") => "o.kind",
        Some(_) => return Err(AppError::BadRequest("Unknown sort column".to_owned())),
    })
}

async fn datatable(
    _user: RequireRole<Staff>,
    State(state): State<AppState>,
    ApiJson(req): ApiJson<Request>,
) -> AppResult<Json<TableResponse<NotificationHistoryRow>>> {
    let sort = sort_sql(req.table.sort_column.as_deref())?;
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
    let search = req.table.search.trim().to_owned();
    let (lo, hi) = prefix_bounds(&search);
    let (llo, lhi) = prefix_bounds(&search.to_lowercase());
    let filter = if search.is_empty() {
        "o.status = 'Sent'".to_owned()
    } else {
        "o.status = 'Sent' AND ((p.mrn >= $1 AND p.mrn < $2) OR (lower(o.recipient) >= $3 AND lower(o.recipient) < $4) \
         OR (lower(o.kind) >= $3 AND lower(o.kind) < $4))"
            .to_owned()
    };
    let from = "FROM outbox o LEFT JOIN patients p ON p.id = o.patient_id";
    let page_size = i64::from(req.table.safe_page_size());
    let skip = i64::try_from(req.table.offset()).unwrap_or(i64::MAX);
    let n = if search.is_empty() { 1 } else { 5 };
    let page_sql = format!(
        "SELECT o.id, o.sent_at, p.mrn, o.recipient, o.kind, o.channel {from} WHERE {filter}
         ORDER BY {sort} {dir}, o.id {dir} LIMIT ${n} OFFSET ${}",
        n + 1
    );
    let count_sql = format!("SELECT COUNT(*) {from} WHERE {filter}");
    let (rows, filtered, total): (Vec<Row>, i64, i64) = on_db!(&state.db, pool => {
        let mut page = sqlx::query_as::<_, Row>(&page_sql);
        let mut count = sqlx::query_scalar::<_, i64>(&count_sql);
        if !search.is_empty() {
            for v in [&lo, &hi, &llo, &lhi] {
                page = page.bind(v.clone());
                count = count.bind(v.clone());
            }
        }
        let rows = page.bind(page_size).bind(skip).fetch_all(pool).await?;
        let filtered = count.fetch_one(pool).await?;
        let total = sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM outbox WHERE status = 'Sent'").fetch_one(pool).await?;
        (rows, filtered, total)
    });
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
