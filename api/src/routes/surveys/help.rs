//! The kiosk's "I need help" (issue 20): whoever may open the run (the kiosk's survey token, the
//! patient, staff) asks the front desk to come; the request shows on the staff home until a staff
//! member marks it handled. A second press while one is open records nothing new.

use super::*;

pub(super) async fn request_help(
    MaybeUser(user): MaybeUser,
    State(state): State<AppState>,
    headers: HeaderMap,
    peer: ClientAddr,
    ApiPath(id): ApiPath<i64>,
) -> AppResult<Json<wasm_core::model::HelpRequestAnswer>> {
    let run = open(
        &state,
        &user,
        &headers,
        store::run_by_queue(&state.db, id).await?,
    )
    .await?;
    let mut tx = state.db.begin().await?;
    let recorded = crate::store::staff_home::request_help(&mut tx, run.id, now_ms()).await?;
    if recorded {
        audit::record(
            &mut tx,
            user.as_ref()
                .map(Actor::from)
                .unwrap_or_else(Actor::anonymous),
            Action::KioskHelpRequested,
            Target {
                target_type: Some("SurveyQueue"),
                target_id: Some(run.id.to_string()),
                target_user_id: None,
            },
            None,
            Some(json!({"PatientId": run.patient_id})),
            Some(peer.ip().to_string()),
        )
        .await?;
    }
    tx.commit().await?;
    Ok(Json(wasm_core::model::HelpRequestAnswer {
        is_success: true,
        recorded,
    }))
}
