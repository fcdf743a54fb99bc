//! Audit Logs (spec 01 §2.7, §3, §7): the calls of the six tabs, the patient typeahead and the
//! study dates. Program managers only: spec 01 §6 gives Audit Logs to program managers and leaves
//! client admins "not shown"; these screens show every patient's accesses and the server's
//! errors, so client admins (whose menu has no Audit Logs) are refused like every other role.

use axum::extract::State;
use axum::Json;
use serde_json::{json, Value};
use wasm_core::dates::{format_date, DateFormat, Parsed};
use wasm_core::model::{
    AuditField, EmailLogRow, ErrorLogRow, MagViewAuditRow, PatientAuditRequest, PatientSearchQuery,
    PatientSearchResult, PortalAuditEntry, PortalLogRequest, PortalLogRow, SortDirection,
    StudiesQuery, StudyDate, TableRequest, TableResponse,
};

use crate::audit::{self, Action, Actor, Entry, Target};
use crate::auth::roles::ProgramManagers;
use crate::auth::RequireRole;
use crate::client_addr::ClientAddr;
use crate::error::{ApiJson, ApiQuery, AppError, AppResult};
use crate::openapi::ApiRouter;
use crate::store::audit_logs::{self as logs, LogRow, PatientLogQuery, Walk};
use crate::store::patients;
use crate::{fmt, AppState};

type Manager = RequireRole<ProgramManagers>;

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .post(
            "/api/PortalAudit/datatables",
            "Patient Logs: one page of a patient's audit entries",
            patient_logs,
        )
        .post(
            "/api/PortalAuditEntryLog/datatables",
            "Portal Audit Logs: one page of audit entries of a category",
            portal_logs,
        )
        .get(
            "/api/PortalAuditEntryLog/GetLogType",
            "The audit categories",
            log_types,
        )
        .post(
            "/api/TechpadLog/datatables",
            "Techpad Logs: one page of the Techpad category",
            techpad_logs,
        )
        .post(
            "/api/audit/datatables",
            "MagView Audit Logs: patients, studies, demographics and arrivals the portal recorded",
            magview_logs,
        )
        .post(
            "/api/Logging/datatables",
            "Error Logs: one page of the server's ERROR events",
            error_logs,
        )
        .post(
            "/api/EmailLogs/datatables",
            "Email Logs: one page of delivery attempts",
            email_logs,
        )
        .get(
            "/magview.api/patient/search",
            "Patient typeahead (3+ characters)",
            patient_search,
        )
        .get("/api/tests/GetStudies", "A patient's study dates", studies)
}

/// The audit category of techpad settings and calls (rows written with it, by any action).
pub const TECHPAD_CATEGORY: &str = "Techpad";
/// What the MagView Audit Logs list: what the portal changed in clinical records.
pub const MAGVIEW_ACTIONS: [&str; 4] = [
    "PatientCreated",
    "StudyCreated",
    "PatientDemographicsChanged",
    "PatientArrived",
];
/// How far a log may be paged (rows); deeper pages are empty.
const MAX_DEPTH: i64 = 100_000;
/// How many of a named user's rows a search counts exactly.
const USER_COUNT_CAP: i64 = 10_000;

/// Newest first unless the date column is chosen ascending; any other column is refused (the
/// logs are read along their time index only).
fn ascending(table: &TableRequest, date_column: &str) -> AppResult<bool> {
    match table
        .sort_column
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty())
    {
        None => Ok(false),
        Some(c) if c == date_column => Ok(table.sort_direction == SortDirection::Asc),
        Some(_) => Err(AppError::BadRequest("Unknown sort column".to_owned())),
    }
}

fn page_of(table: &TableRequest) -> (i64, i64) {
    let limit = i64::from(table.safe_page_size());
    let offset = i64::try_from(table.offset()).unwrap_or(i64::MAX);
    (limit, offset.min(MAX_DEPTH))
}

fn response<T>(table: &TableRequest, data: Vec<T>, filtered: i64, total: i64) -> TableResponse<T> {
    TableResponse {
        data,
        total_count: u64::try_from(total).unwrap_or(0),
        filtered_count: u64::try_from(filtered).unwrap_or(0),
        page_index: table.page_index,
        page_size: table.safe_page_size(),
    }
}

/// 'MM/DD/YYYY' of a stored study date ('YYYY-MM-DD'); the text itself when it is not one.
fn sdate(stored: Option<&str>) -> String {
    match stored {
        None => String::new(),
        Some(s) => {
            let f = format_date(s, DateFormat::TableDate, 0, "");
            if f.is_empty() {
                s.to_owned()
            } else {
                f
            }
        }
    }
}

fn user_name(r: &LogRow) -> String {
    let user = r.user_name.clone().unwrap_or_default();
    match &r.impersonator_name {
        Some(real) => format!("{real} (as {user})"),
        None => user,
    }
}

fn full_name(first: Option<&str>, last: Option<&str>) -> String {
    format!("{} {}", first.unwrap_or_default(), last.unwrap_or_default())
        .trim()
        .to_owned()
}

fn parse(text: Option<&str>) -> Value {
    text.and_then(|t| serde_json::from_str(t).ok())
        .unwrap_or(Value::Null)
}

/// A value as the Field Name / From / To table shows it: text as is, a nested object or list as
/// 'Object' (spec 01 §2.7), nothing as ''.
fn shown(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Object(_)) | Some(Value::Array(_)) => "Object".to_owned(),
        Some(other) => other.to_string(),
    }
}

fn full(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => serde_json::to_string_pretty(other).unwrap_or_default(),
    }
}

/// The Body's fields, old and new: the union of the old and new objects' keys (old order first);
/// a new value written `{"Old": a, "New": b}` carries both; a body that is not an object is one
/// field, 'Value'.
pub fn body_fields(old: &Value, new: &Value) -> Vec<AuditField> {
    let field = |name: &str, o: Option<&Value>, n: Option<&Value>| {
        let (o, n) = match n {
            Some(Value::Object(m))
                if o.is_none()
                    && m.len() == 2
                    && m.contains_key("Old")
                    && m.contains_key("New") =>
            {
                (m.get("Old"), m.get("New"))
            }
            _ => (o, n),
        };
        AuditField {
            name: name.to_owned(),
            from: shown(o),
            to: shown(n),
            old_value: full(o),
            new_value: full(n),
        }
    };
    match (old, new) {
        (Value::Object(_) | Value::Null, Value::Object(_) | Value::Null) => {
            let (o, n) = (old.as_object(), new.as_object());
            let mut names: Vec<&String> = o.map(|m| m.keys().collect()).unwrap_or_default();
            for k in n.map(|m| m.keys()).into_iter().flatten() {
                if !names.contains(&k) {
                    names.push(k);
                }
            }
            names
                .into_iter()
                .map(|k| field(k, o.and_then(|m| m.get(k)), n.and_then(|m| m.get(k))))
                .collect()
        }
        _ => vec![field("Value", Some(old), Some(new))],
    }
}

fn entry(r: LogRow) -> PortalAuditEntry {
    let body = body_fields(
        &parse(r.old_values.as_deref()),
        &parse(r.new_values.as_deref()),
    );
    PortalAuditEntry {
        id: r.id,
        sdate: sdate(r.study_date.as_deref()),
        name: r.action.clone(),
        user_name: user_name(&r),
        created_at: fmt::iso_utc(r.created_at),
        target_user_id: r.target_user_id,
        target_user_name: r.target_user_name.clone().unwrap_or_default(),
        patient_name: full_name(r.patient_first.as_deref(), r.patient_last.as_deref()),
        ssn: r.patient_mrn.clone().unwrap_or_default(),
        outcome: r.outcome.clone().unwrap_or_default(),
        client_address: r.ip.clone().unwrap_or_default(),
        body,
    }
}

/// Instant (ms) of an ISO date or instant from the filter; a bad one is a 400.
fn instant(text: Option<&str>, field: &str) -> AppResult<Option<i64>> {
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(None),
        Some(t) => match wasm_core::dates::parse_iso(t) {
            Some(Parsed::Instant(seconds)) => Ok(Some(seconds * 1000)),
            Some(Parsed::Date(d)) => Ok(Some(
                wasm_core::dates::days_from_civil(d.year, d.month, d.day) * 86_400_000,
            )),
            None => Err(AppError::BadRequest(format!("{field} is not a date"))),
        },
    }
}

async fn patient_logs(
    _user: Manager,
    State(state): State<AppState>,
    ApiJson(req): ApiJson<PatientAuditRequest>,
) -> AppResult<Json<TableResponse<PortalAuditEntry>>> {
    let table = &req.table;
    let asc = ascending(table, "CreatedAt")?;
    let (limit, offset) = page_of(table);
    let Some((patient_id, _, _)) = patients::by_mrn(&state.db, req.patient.trim()).await? else {
        return Ok(Json(response(table, Vec::new(), 0, 0)));
    };
    let from = instant(req.date_from.as_deref(), "dateFrom")?;
    // The end date counts whole: rows before the next day.
    let to = instant(req.date_to.as_deref(), "dateTo")?.map(|t| t + 86_400_000);
    let wanted = req
        .sdate
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty());
    let study_ids: Option<Vec<i64>> = match wanted {
        None => None,
        Some(w) => Some(
            logs::studies_of(&state.db, patient_id)
                .await?
                .into_iter()
                .filter(|(_, d, _)| d == w || sdate(Some(d)) == w)
                .map(|(id, _, _)| id)
                .collect(),
        ),
    };
    let (rows, filtered, total) = logs::patient_page(
        &state.db,
        &PatientLogQuery {
            patient_id,
            study_ids: study_ids.as_deref(),
            from_ms: from,
            to_ms: to,
            search: table.search.trim(),
            ascending: asc,
            limit,
            offset,
        },
    )
    .await?;
    Ok(Json(response(
        table,
        rows.into_iter().map(entry).collect(),
        filtered,
        total,
    )))
}

fn log_row(r: LogRow) -> PortalLogRow {
    let new = parse(r.new_values.as_deref());
    let outcome = r
        .outcome
        .clone()
        .unwrap_or_else(|| audit::OUTCOME_SUCCESS.to_owned());
    let status = match new.get("Outcome").and_then(Value::as_str) {
        Some(detail) if detail != outcome => format!("{outcome} - {detail}"),
        _ => outcome,
    };
    let mut description = match (&r.target_type, &r.target_id) {
        (Some(t), Some(id)) => format!("{t} {id}"),
        (Some(t), None) => t.clone(),
        _ => String::new(),
    };
    let patient = full_name(r.patient_first.as_deref(), r.patient_last.as_deref());
    if !patient.is_empty() {
        description = format!("{description} ({patient})").trim().to_owned();
    }
    PortalLogRow {
        id: r.id,
        created_at: fmt::iso_utc(r.created_at),
        category: r.category.clone(),
        name: r.action.clone(),
        description,
        status_with_description: status,
        user_id: r.user_id,
        user_name: user_name(&r),
    }
}

/// One page of the audit log limited to `category` (None: every category) and, with a search, to
/// the actions and users it names.
async fn feed(
    state: &AppState,
    table: &TableRequest,
    category: Option<&str>,
) -> AppResult<TableResponse<PortalLogRow>> {
    let asc = ascending(table, "CreatedAt")?;
    let (limit, offset) = page_of(table);
    let counts = logs::counts(&state.db).await?;
    let in_category = |c: &str| category.is_none_or(|want| want == c);
    let total: i64 = counts
        .iter()
        .filter(|(c, _, _)| in_category(c.as_str()))
        .map(|(_, _, n)| n)
        .sum();
    let search = table.search.trim().to_lowercase();
    let (walks, filtered) = if search.is_empty() {
        let walk = category.map_or(Walk::All, |c| Walk::Category(c.to_owned()));
        (vec![walk], total)
    } else {
        let actions: Vec<(String, i64)> = counts
            .iter()
            .filter(|(c, a, _)| {
                in_category(c.as_str())
                    && (a.to_lowercase().starts_with(&search)
                        || (category.is_none() && c.to_lowercase().starts_with(&search)))
            })
            .map(|(_, a, n)| (a.clone(), *n))
            .collect();
        let names: Vec<String> = actions.iter().map(|(a, _)| a.clone()).collect();
        let mut filtered: i64 = actions.iter().map(|(_, n)| n).sum();
        let mut walks: Vec<Walk> = names.iter().cloned().map(Walk::Action).collect();
        for user in logs::users_named(&state.db, &search, 20).await? {
            filtered +=
                logs::user_rows_capped(&state.db, user, category, &names, USER_COUNT_CAP).await?;
            walks.push(Walk::User(user, category.map(str::to_owned)));
        }
        (walks, filtered)
    };
    let page = logs::feed_page(&state.db, &walks, asc, limit, offset).await?;
    // A user walk may bring rows of actions an action walk also found: dedup is by seq; rows of
    // another category never come (the walks carry it).
    Ok(response(
        table,
        page.rows.into_iter().map(log_row).collect(),
        filtered,
        total,
    ))
}

async fn portal_logs(
    _user: Manager,
    State(state): State<AppState>,
    ApiJson(req): ApiJson<PortalLogRequest>,
) -> AppResult<Json<TableResponse<PortalLogRow>>> {
    let category = req
        .category
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty());
    Ok(Json(feed(&state, &req.table, category).await?))
}

async fn techpad_logs(
    _user: Manager,
    State(state): State<AppState>,
    ApiJson(table): ApiJson<TableRequest>,
) -> AppResult<Json<TableResponse<PortalLogRow>>> {
    Ok(Json(feed(&state, &table, Some(TECHPAD_CATEGORY)).await?))
}

async fn log_types(_user: Manager, State(state): State<AppState>) -> AppResult<Json<Vec<String>>> {
    let mut categories: Vec<String> = logs::counts(&state.db)
        .await?
        .into_iter()
        .map(|(c, _, _)| c)
        .collect();
    categories.dedup();
    Ok(Json(categories))
}

/// The Details column: the new values of a row, each as 'Field: value', or 'Field: old -> new' when the row also
/// holds another old value of that field (a demographics change); nested values as 'Object'.
fn details(r: &LogRow) -> String {
    let old = parse(r.old_values.as_deref());
    match parse(r.new_values.as_deref()) {
        Value::Object(m) => m
            .iter()
            .filter(|(_, v)| !v.is_null())
            .map(|(k, v)| match old.get(k) {
                Some(was) if was != v => {
                    format!("{k}: {} -> {}", shown(Some(was)), shown(Some(v)))
                }
                _ => format!("{k}: {}", shown(Some(v))),
            })
            .collect::<Vec<_>>()
            .join(", "),
        Value::Null => String::new(),
        other => shown(Some(&other)),
    }
}

async fn magview_logs(
    _user: Manager,
    State(state): State<AppState>,
    ApiJson(table): ApiJson<TableRequest>,
) -> AppResult<Json<TableResponse<MagViewAuditRow>>> {
    let asc = ascending(&table, "Date")?;
    let (limit, offset) = page_of(&table);
    let search = table.search.trim().to_lowercase();
    let counts = logs::counts(&state.db).await?;
    let chosen: Vec<(String, i64)> = counts
        .into_iter()
        .filter(|(_, a, _)| MAGVIEW_ACTIONS.contains(&a.as_str()))
        .map(|(_, a, n)| (a, n))
        .collect();
    let total: i64 = chosen.iter().map(|(_, n)| n).sum();
    let matching: Vec<&(String, i64)> = chosen
        .iter()
        .filter(|(a, _)| search.is_empty() || a.to_lowercase().starts_with(&search))
        .collect();
    let filtered: i64 = matching.iter().map(|(_, n)| n).sum();
    let walks: Vec<Walk> = matching
        .iter()
        .map(|(a, _)| Walk::Action(a.clone()))
        .collect();
    let page = logs::feed_page(&state.db, &walks, asc, limit, offset).await?;
    let rows = page
        .rows
        .into_iter()
        .map(|r| MagViewAuditRow {
            id: r.id,
            date: fmt::iso_utc(r.created_at),
            kind: r.action.clone(),
            user: full_name(r.user_first.as_deref(), r.user_last.as_deref()),
            login: user_name(&r),
            sdate: sdate(r.study_date.as_deref()),
            ssn: r.patient_mrn.clone().unwrap_or_default(),
            details: details(&r),
        })
        .collect();
    Ok(Json(response(&table, rows, filtered, total)))
}

async fn error_logs(
    _user: Manager,
    State(state): State<AppState>,
    ApiJson(table): ApiJson<TableRequest>,
) -> AppResult<Json<TableResponse<ErrorLogRow>>> {
    let asc = ascending(&table, "EventDateTime")?;
    let (limit, offset) = page_of(&table);
    let (rows, filtered, total) =
        logs::error_page(&state.db, &table.search, asc, limit, offset).await?;
    let data = rows
        .into_iter()
        .map(|r| ErrorLogRow {
            id: r.id,
            error_id: r.error_id.unwrap_or_default(),
            event_date_time: fmt::iso_utc(r.created_at),
            event_level: r.level,
            event_message: r.message,
            request_url: r.request_url,
            error_method: r.method,
            error_class: r.error_class,
        })
        .collect();
    Ok(Json(response(&table, data, filtered, total)))
}

async fn email_logs(
    _user: Manager,
    State(state): State<AppState>,
    ApiJson(table): ApiJson<TableRequest>,
) -> AppResult<Json<TableResponse<EmailLogRow>>> {
    let asc = ascending(&table, "Date")?;
    let (limit, offset) = page_of(&table);
    let (rows, filtered, total) =
        logs::email_page(&state.db, &table.search, asc, limit, offset).await?;
    let data = rows
        .into_iter()
        .map(|r| EmailLogRow {
            id: r.id,
            date: fmt::iso_utc(r.created_at),
            kind: r.kind,
            message: r.message,
            method: r.method,
            to: r.recipient,
            is_sent: r.is_sent,
        })
        .collect();
    Ok(Json(response(&table, data, filtered, total)))
}

/// The patient typeahead: under 3 characters (or too long) an empty list, never an error
/// (spec 01 §7: failure yields an empty list). A search is a read of patient data: audited.
async fn patient_search(
    user: Manager,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiQuery(q): ApiQuery<PatientSearchQuery>,
) -> AppResult<Json<Vec<PatientSearchResult>>> {
    if wasm_core::model::audit_logs::patient_search_error(&q.search).is_some() {
        return Ok(Json(Vec::new()));
    }
    let found = logs::patients_named(&state.db, &q.search, 20).await?;
    Entry::new(
        Actor::from(&user.0 .0),
        Action::PatientSearched,
        Target::none(),
    )
    .values(
        None,
        Some(json!({"Search": q.search.trim(), "Results": found.len()})),
    )
    .ip(Some(peer.ip().to_string()))
    .write_alone(&state.db)
    .await?;
    Ok(Json(
        found
            .into_iter()
            .map(|(ssn, first_name, last_name)| PatientSearchResult {
                ssn,
                first_name,
                last_name,
            })
            .collect(),
    ))
}

async fn studies(
    _user: Manager,
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<StudiesQuery>,
) -> AppResult<Json<Vec<StudyDate>>> {
    let Some((patient_id, _, _)) = patients::by_mrn(&state.db, q.ssn.trim()).await? else {
        return Ok(Json(Vec::new()));
    };
    Ok(Json(
        logs::studies_of(&state.db, patient_id)
            .await?
            .into_iter()
            .map(|(id, d, description)| StudyDate {
                id,
                sdate: sdate(Some(&d)),
                description,
            })
            .collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn body_fields_show_nested_values_as_object() {
        let f = body_fields(
            &json!({"Email": "a@x", "LocNums": [1, 2]}),
            &json!({"Email": "b@x", "LocNums": [1], "Role": "Patient"}),
        );
        let names: Vec<&str> = f.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["Email", "LocNums", "Role"]);
        assert_eq!((f[0].from.as_str(), f[0].to.as_str()), ("a@x", "b@x"));
        assert_eq!((f[1].from.as_str(), f[1].to.as_str()), ("Object", "Object"));
        assert!(f[1].old_value.contains('2'));
        assert_eq!((f[2].from.as_str(), f[2].to.as_str()), ("", "Patient"));
        let f = body_fields(&Value::Null, &json!({"Width": {"Old": 100, "New": 120}}));
        assert_eq!((f[0].from.as_str(), f[0].to.as_str()), ("100", "120"));
        let f = body_fields(&Value::Null, &json!("text"));
        assert_eq!((f[0].name.as_str(), f[0].to.as_str()), ("Value", "text"));
    }
}
