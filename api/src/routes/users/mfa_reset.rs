//! A program manager resets another user's two-step sign-in (issue 22): the authenticator,
//! recovery codes and pending sign-ins go, audited in the same transaction. The user sets up a
//! new app at the next sign-in when the setting requires one. Nobody resets their own: a lost
//! phone is a matter for a second person.

use super::*;
use wasm_core::mfa::{MfaResetResult, RESET_DONE, RESET_NOTHING, RESET_OWN};

pub(super) async fn reset_mfa(
    user: RequireRole<ProgramManagers>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiPath(id): ApiPath<i64>,
) -> AppResult<Json<MfaResetResult>> {
    let target = find_user(&state, id).await?;
    if target.id == user.user_id || user.impersonator_user_id == Some(target.id) {
        return Err(AppError::Forbidden(RESET_OWN.to_owned()));
    }
    let mut tx = state.db.begin().await?;
    let had = crate::store::mfa::reset(&mut tx, target.id).await?;
    if had {
        audit::record(
            &mut tx,
            Actor::from(&*user),
            Action::MfaReset,
            Target::user(target.id),
            Some(json!({"Enrolled": true})),
            Some(json!({"Enrolled": false, "Username": target.username})),
            ip(&peer),
        )
        .await?;
    }
    tx.commit().await?;
    Ok(Json(MfaResetResult {
        is_success: had,
        message: if had { RESET_DONE } else { RESET_NOTHING }.to_owned(),
    }))
}
