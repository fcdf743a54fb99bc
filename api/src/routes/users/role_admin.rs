//! Roles (spec 02 §6): list, read, create, rename, delete.

use super::*;

pub(super) async fn load_roles(state: &AppState, name: Option<&str>) -> AppResult<Vec<RoleRow>> {
    let rows = roles::list(&state.db, name).await?;
    Ok(rows
        .into_iter()
        .map(|(name, description, user_count)| RoleRow {
            is_built_in: BUILT_IN_ROLES.contains(&name.as_str()),
            name,
            description,
            user_count,
        })
        .collect())
}

pub(super) async fn list_roles(
    _user: RequireRole<UserAdmins>,
    State(state): State<AppState>,
) -> AppResult<Json<Vec<RoleRow>>> {
    Ok(Json(load_roles(&state, None).await?))
}

pub(super) async fn one_role(state: &AppState, name: &str) -> AppResult<RoleRow> {
    if name.trim().is_empty() {
        return Err(AppError::NotFound);
    }
    load_roles(state, Some(name))
        .await?
        .into_iter()
        .next()
        .ok_or(AppError::NotFound)
}

pub(super) async fn get_role(
    _user: RequireRole<UserAdmins>,
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
) -> AppResult<Json<RoleRow>> {
    Ok(Json(one_role(&state, &id).await?))
}

pub(super) async fn post_role(
    user: RequireRole<ProgramManagers>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(form): ApiJson<RoleForm>,
) -> AppResult<Json<RoleRow>> {
    let errors = membership::validate_role(&form);
    if !errors.is_valid() {
        return Err(AppError::Validation(errors));
    }
    let name = form.name.trim().to_owned();
    let mut tx = state.db.begin().await?;
    roles::create(&mut tx, &name, form.description.trim()).await?;
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::RoleCreated,
        Target {
            target_type: Some("Role"),
            target_id: Some(name.clone()),
            target_user_id: None,
        },
        None,
        Some(json!({"Name": name, "Description": form.description.trim()})),
        ip(&peer),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(one_role(&state, &name).await?))
}

pub(super) async fn put_role(
    user: RequireRole<ProgramManagers>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiPath(id): ApiPath<String>,
    ApiJson(form): ApiJson<RoleForm>,
) -> AppResult<Json<RoleRow>> {
    let old = one_role(&state, &id).await?;
    let errors = membership::validate_role(&form);
    if !errors.is_valid() {
        return Err(AppError::Validation(errors));
    }
    let name = form.name.trim().to_owned();
    if name != old.name {
        if old.is_built_in {
            return Err(invalid("Name", "A built-in role keeps its name"));
        }
        if old.user_count > 0 {
            return Err(AppError::Conflict(
                "A role in use cannot be renamed".to_owned(),
            ));
        }
    }
    let mut tx = state.db.begin().await?;
    roles::update(&mut tx, &old.name, &name, form.description.trim()).await?;
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::RoleUpdated,
        Target {
            target_type: Some("Role"),
            target_id: Some(name.clone()),
            target_user_id: None,
        },
        Some(json!({"Name": old.name, "Description": old.description})),
        Some(json!({"Name": name, "Description": form.description.trim()})),
        ip(&peer),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(one_role(&state, &name).await?))
}

pub(super) async fn delete_role(
    user: RequireRole<ProgramManagers>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiPath(id): ApiPath<String>,
) -> AppResult<Json<Deleted>> {
    let old = one_role(&state, &id).await?;
    if old.is_built_in {
        return Err(AppError::BadRequest(
            "A built-in role cannot be deleted".to_owned(),
        ));
    }
    if old.user_count > 0 {
        return Err(AppError::Conflict(
            "A role in use cannot be deleted".to_owned(),
        ));
    }
    let mut tx = state.db.begin().await?;
    roles::delete(&mut tx, &old.name).await?;
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::RoleDeleted,
        Target {
            target_type: Some("Role"),
            target_id: Some(old.name.clone()),
            target_user_id: None,
        },
        Some(json!({"Name": old.name, "Description": old.description})),
        None,
        ip(&peer),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(Deleted { deleted: true }))
}
