//! The users table (spec 02 §2.10): one page, filtered by role and view mode, searched and sorted on the server.

use super::*;

pub(super) trait UserViews {
    fn row(self) -> UserRow;
    fn form(self) -> UserForm;
    fn audit_value(&self) -> Value;
}

impl UserViews for UserRecord {
    fn row(self) -> UserRow {
        UserRow {
            id: self.id,
            ssn: self.ssn,
            first_name: self.first_name,
            last_name: self.last_name,
            username: self.username,
            email: self.email,
            is_active: self.is_active,
            role: self.role,
        }
    }

    fn form(self) -> UserForm {
        UserForm {
            id: Some(self.id),
            ssn: self.ssn.unwrap_or_default(),
            first_name: self.first_name,
            last_name: self.last_name,
            username: self.username,
            email: self.email.unwrap_or_default(),
            is_active: self.is_active,
            roles: vec![self.role],
            comment: self.comment.unwrap_or_default(),
            survey_pin: self.survey_pin.unwrap_or_default(),
            loc_nums: self.loc_nums.unwrap_or_default(),
            is_results_portal_text_notification_enabled: false,
        }
    }

    fn audit_value(&self) -> Value {
        json!({"Username": self.username, "Email": self.email, "FirstName": self.first_name, "LastName": self.last_name,
               "Role": self.role, "Ssn": self.ssn, "IsActive": self.is_active, "Comment": self.comment, "LocNums": self.loc_nums})
    }
}

pub(super) async fn datatable(
    _user: RequireRole<UserAdmins>,
    State(state): State<AppState>,
    ApiJson(req): ApiJson<UserTableRequest>,
) -> AppResult<Json<TableResponse<UserRow>>> {
    let role = req
        .selected_role
        .clone()
        .unwrap_or_else(|| PATIENT_ROLE.to_owned());
    let role = role.trim().to_owned();
    let search = req.table.search.trim().to_owned();
    let sort = match req
        .table
        .sort_column
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty())
    {
        Some(c) => UserSort::parse(c)
            .ok_or_else(|| AppError::BadRequest("Unknown sort column".to_owned()))?,
        None => UserSort::LAST_NAME,
    };
    let demo_mode = settings::get::<UserManagement>(&state.db)
        .await?
        .enable_demo_mode;
    let demo = match (demo_mode, req.view_mode.as_deref().map(str::trim)) {
        (false, _) => None,
        (true, Some("Demo")) => Some(true),
        (true, _) => Some(false),
    };
    let page = users::page(
        &state.db,
        &UserPageQuery {
            role: &role,
            search: &search,
            demo,
            sort,
            descending: req.table.sort_direction == SortDirection::Desc,
            limit: i64::from(req.table.safe_page_size()),
            offset: i64::try_from(req.table.offset()).unwrap_or(i64::MAX),
        },
    )
    .await?;
    let (rows, filtered, total) = (page.rows, page.filtered, page.total);
    Ok(Json(TableResponse {
        data: rows.into_iter().map(UserRecord::row).collect(),
        total_count: total.max(0) as u64,
        filtered_count: filtered.max(0) as u64,
        page_index: req.table.page_index,
        page_size: req.table.safe_page_size(),
    }))
}
