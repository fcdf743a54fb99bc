//! A user's Add/Edit modal (spec 02 §6): read, update, create, and the admin PIN and locations restriction.

use super::*;

pub(super) async fn find_user(state: &AppState, id: i64) -> AppResult<UserRecord> {
    users::find(&state.db, id).await?.ok_or(AppError::NotFound)
}

pub(super) async fn get_user(
    _user: RequireRole<UserAdmins>,
    State(state): State<AppState>,
    ApiPath(id): ApiPath<i64>,
) -> AppResult<Json<UserForm>> {
    Ok(Json(find_user(&state, id).await?.form()))
}

pub(super) fn the_role(form: &UserForm) -> String {
    form.roles
        .iter()
        .map(|r| r.trim())
        .find(|r| !r.is_empty())
        .unwrap_or_default()
        .to_owned()
}

/// The form as stored: trimmed, empty optional texts as NULL.
pub(super) fn fields<'a>(
    form: &'a UserForm,
    role: &'a str,
    first: &'a str,
    last: &'a str,
) -> UserFields<'a> {
    UserFields {
        username: form.username.trim(),
        email: opt(&form.email),
        first_name: first.trim(),
        last_name: last.trim(),
        role,
        is_active: form.is_active,
        ssn: opt(&form.ssn),
        comment: opt(&form.comment),
        survey_pin: opt(&form.survey_pin),
        loc_nums: opt(&form.loc_nums),
    }
}

pub(super) async fn put_user(
    user: RequireRole<ProgramManagers>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiPath(id): ApiPath<i64>,
    ApiJson(form): ApiJson<UserForm>,
) -> AppResult<Json<UserForm>> {
    let old = find_user(&state, id).await?;
    let mut form = form;
    if old.role == PATIENT_ROLE {
        // spec 02 §6: a patient's role, MRN and names are not edited here.
        form.roles = vec![PATIENT_ROLE.to_owned()];
        form.ssn = old.ssn.clone().unwrap_or_default();
        form.first_name = old.first_name.clone();
        form.last_name = old.last_name.clone();
    }
    let check = membership::validate_user(&form);
    if !check.is_valid {
        return Err(AppError::Validation(check.errors));
    }
    let role = the_role(&form);
    check_admin_restrictions(&state, &role, &mut form).await?;
    if old.role != PATIENT_ROLE && role == PATIENT_ROLE {
        return Err(invalid("Roles", "A staff user cannot become a patient"));
    }
    if !roles::exists(&state.db, &role).await? {
        return Err(invalid("Roles", "Unknown role"));
    }
    if id == user.user_id && (!form.is_active || role != old.role) {
        return Err(invalid(
            "Roles",
            "You cannot deactivate yourself or change your own role",
        ));
    }
    let mut tx = state.db.begin().await?;
    let stored = fields(&form, &role, &form.first_name, &form.last_name);
    users::update(&mut tx, id, &stored, now_ms()).await?;
    if !form.is_active {
        accounts::end_sessions(&mut tx, id).await?;
    }
    let new = users::find_in(&mut tx, id)
        .await?
        .ok_or(AppError::NotFound)?;
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::UserUpdated,
        Target::user(id),
        Some(old.audit_value()),
        Some(new.audit_value()),
        ip(&peer),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(new.form()))
}

pub(super) async fn admin_pin_length(state: &AppState) -> AppResult<u32> {
    // CoreSurvey AdminPinLength (spec 01; default 4, validated 1 to 12 on save).
    let n = settings::get::<CoreSurvey>(&state.db)
        .await?
        .admin_pin_length as i64;
    Ok(u32::try_from(n.clamp(1, 12)).unwrap_or(4))
}

pub(super) async fn location_numbers(state: &AppState) -> AppResult<Vec<String>> {
    locations::numbers(&state.db).await
}

/// SurveyPin and LocNums are a Program manager's, edited only with the restriction setting on.
pub(super) async fn admin_restrictions_apply(state: &AppState, role: &str) -> AppResult<bool> {
    let um: UserManagement = settings::get(&state.db).await?;
    Ok(role == "ProgramManager" && um.is_admin_pin_and_locations_restrictions_enabled)
}

pub(super) async fn admin_restriction_errors(
    state: &AppState,
    role: &str,
    form: &UserForm,
) -> AppResult<ValidationErrors> {
    if !admin_restrictions_apply(state, role).await? {
        return Ok(ValidationErrors::new());
    }
    Ok(membership::validate_admin_restrictions(
        form,
        admin_pin_length(state).await?,
        &location_numbers(state).await?,
    ))
}

/// Refuses an invalid PIN or location list (wasm-core rule); stores the list normalised.
pub(super) async fn check_admin_restrictions(
    state: &AppState,
    role: &str,
    form: &mut UserForm,
) -> AppResult<()> {
    if !admin_restrictions_apply(state, role).await? {
        return Ok(());
    }
    let errors = admin_restriction_errors(state, role, form).await?;
    if !errors.is_valid() {
        return Err(AppError::Validation(errors));
    }
    form.loc_nums = membership::location_list(&form.loc_nums).join(",");
    Ok(())
}

pub(super) async fn user_configuration(
    _user: RequireRole<UserAdmins>,
    State(state): State<AppState>,
) -> AppResult<Json<UserAdminConfiguration>> {
    let um: UserManagement = settings::get(&state.db).await?;
    Ok(Json(UserAdminConfiguration {
        user_management_view_mode: if um.user_management_view_mode == "Demo" {
            ViewMode::Demo
        } else {
            ViewMode::Regular
        },
        is_impersonation_enabled: um.is_impersonation_enabled,
        enable_demo_mode: um.enable_demo_mode,
        is_admin_pin_and_locations_restrictions_enabled: um
            .is_admin_pin_and_locations_restrictions_enabled,
        admin_pin_length: admin_pin_length(&state).await?,
        locations: location_numbers(&state).await?,
    }))
}

pub(super) async fn post_user(
    user: RequireRole<ProgramManagers>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(body): ApiJson<NewUser>,
) -> AppResult<Json<UserForm>> {
    let mut form = body.form;
    let role = the_role(&form);
    let mut errors = membership::validate_user(&form).errors;
    errors.merge(admin_restriction_errors(&state, &role, &form).await?);
    let rules = password_requirements(&state.db).await?;
    errors.merge(password::validate_password(
        "Password",
        &body.password,
        &rules,
    ));
    errors.merge(breached("Password", &body.password));
    if !errors.is_valid() {
        return Err(AppError::Validation(errors));
    }
    if admin_restrictions_apply(&state, &role).await? {
        form.loc_nums = membership::location_list(&form.loc_nums).join(",");
    }
    if !roles::exists(&state.db, &role).await? {
        return Err(invalid("Roles", "Unknown role"));
    }
    let (patient_id, first, last) = if role == PATIENT_ROLE {
        let found = patients::by_mrn(&state.db, form.ssn.trim()).await?;
        let (pid, f, l) = found.ok_or_else(|| invalid("Ssn", NO_PATIENT_WITH_MRN))?;
        (Some(pid), f, l)
    } else {
        (
            None,
            form.first_name.trim().to_owned(),
            form.last_name.trim().to_owned(),
        )
    };
    let hash = hashing::hash(body.password.clone()).await?;
    let now = now_ms();
    let mut tx = state.db.begin().await?;
    let id = users::create(
        &mut tx,
        &fields(&form, &role, &first, &last),
        &hash,
        patient_id,
        now,
    )
    .await?;
    let new = users::find_in(&mut tx, id)
        .await?
        .ok_or(AppError::NotFound)?;
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::UserCreated,
        Target::user(id),
        None,
        Some(new.audit_value()),
        ip(&peer),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(new.form()))
}
