//! Extractors that carry access policy: a handler's signature says who may call it.
//! `MaybeUser` (anyone), `CurrentUser` (signed in, else 401), `RequireRole<Staff>` /
//! `RequireRole<PatientOnly>` (signed in with one of the roles, else 403), `SetupOr<R>` (anyone
//! until the portal is configured, then `RequireRole<R>`).

use std::marker::PhantomData;
use std::ops::Deref;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use wasm_core::model::Role;

use super::roles::RoleSet;
use super::session::{self, SessionUser};
use crate::cookies;
use crate::error::AppError;
use crate::AppState;

/// The request's session user, looked up once per request and cached in the extensions.
#[derive(Clone)]
struct Cached(Option<SessionUser>);

async fn session_user(
    parts: &mut Parts,
    state: &AppState,
) -> Result<Option<SessionUser>, AppError> {
    if let Some(Cached(user)) = parts.extensions.get::<Cached>() {
        return Ok(user.clone());
    }
    let user = match cookies::session_token(&parts.headers) {
        Some(token) => session::lookup(&state.db, token).await?,
        None => None,
    };
    parts.extensions.insert(Cached(user.clone()));
    Ok(user)
}

/// Anyone; `Some` when signed in.
pub struct MaybeUser(pub Option<SessionUser>);

impl FromRequestParts<AppState> for MaybeUser {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        Ok(MaybeUser(session_user(parts, state).await?))
    }
}

/// A signed-in user of any role (401 otherwise).
#[derive(Debug, Clone)]
pub struct CurrentUser(pub SessionUser);

impl Deref for CurrentUser {
    type Target = SessionUser;
    fn deref(&self) -> &SessionUser {
        &self.0
    }
}

impl FromRequestParts<AppState> for CurrentUser {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        session_user(parts, state)
            .await?
            .map(CurrentUser)
            .ok_or(AppError::Unauthorized)
    }
}

/// A signed-in user whose role is in `R` (401 when signed out, 403 for another role).
pub struct RequireRole<R: RoleSet>(pub CurrentUser, PhantomData<R>);

impl<R: RoleSet> Deref for RequireRole<R> {
    type Target = SessionUser;
    fn deref(&self) -> &SessionUser {
        &self.0 .0
    }
}

pub fn check_role(user: &SessionUser, allowed: &[Role]) -> Result<(), AppError> {
    if allowed.contains(&user.role) {
        Ok(())
    } else {
        Err(AppError::Forbidden(
            "You do not have permission to do this.".to_owned(),
        ))
    }
}

impl<R: RoleSet> FromRequestParts<AppState> for RequireRole<R> {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let user = CurrentUser::from_request_parts(parts, state).await?;
        check_role(&user, R::ROLES)?;
        Ok(RequireRole(user, PhantomData))
    }
}

/// Anyone while the portal is not configured (first-run setup has no accounts to sign in with);
/// afterwards a signed-in user whose role is in `R` (401 signed out, 403 for another role).
/// The user is whoever is signed in (if anyone, while unconfigured).
pub struct SetupOr<R: RoleSet>(pub Option<SessionUser>, pub PhantomData<R>);

impl<R: RoleSet> FromRequestParts<AppState> for SetupOr<R> {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        if !crate::store::setup::is_configured(&state.db).await? {
            let MaybeUser(user) = MaybeUser::from_request_parts(parts, state).await?;
            return Ok(SetupOr(user, PhantomData));
        }
        let RequireRole(user, _) = RequireRole::<R>::from_request_parts(parts, state).await?;
        Ok(SetupOr(Some(user.0), PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::roles::{PatientOnly, Staff};

    fn user(role: Role) -> SessionUser {
        SessionUser {
            user_id: 1,
            username: "u".into(),
            first_name: String::new(),
            last_name: String::new(),
            role,
            patient_id: None,
            impersonator_user_id: None,
            token_hash: String::new(),
            sso_context: None,
        }
    }

    #[test]
    fn staff_excludes_patients() {
        assert!(check_role(&user(Role::FrontDesk), Staff::ROLES).is_ok());
        assert!(check_role(&user(Role::ProgramManager), Staff::ROLES).is_ok());
        assert!(matches!(
            check_role(&user(Role::Patient), Staff::ROLES),
            Err(AppError::Forbidden(_))
        ));
        assert!(check_role(&user(Role::Patient), PatientOnly::ROLES).is_ok());
        assert!(check_role(&user(Role::ClientAdmin), PatientOnly::ROLES).is_err());
    }

    #[test]
    fn display_name_falls_back_to_username() {
        let mut u = user(Role::Patient);
        assert_eq!(u.display_name(), "u");
        u.first_name = "Jane".into();
        u.last_name = "Doe".into();
        assert_eq!(u.display_name(), "Jane Doe");
    }
}
