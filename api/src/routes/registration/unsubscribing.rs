//! Unsubscribe (issue 3 part 7): a signed link turns a patient's notifications off.

use super::*;

pub(super) async fn unsubscribe_patient(
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiPath(token): ApiPath<String>,
) -> AppResult<Json<UnsubscribeResult>> {
    throttle(&state.db, "unsubscribe", &peer, Some(&token)).await?;
    let db = &state.db;
    let key = unsubscribe::key(db).await?;
    let mut tx = db.begin().await?;
    let done = match key.verify(token.trim()) {
        Some(patient_id) => store::unsubscribe(&mut tx, patient_id, now_ms())
            .await?
            .then_some(patient_id),
        None => None,
    };
    if let Some(patient_id) = done {
        audit::record(
            &mut tx,
            Actor::anonymous(),
            Action::PatientUnsubscribed,
            Target {
                target_type: Some("Patient"),
                target_id: Some(patient_id.to_string()),
                target_user_id: None,
            },
            None,
            Some(json!({"Unsubscribed": true})),
            ip(&peer),
        )
        .await?;
        tx.commit().await?;
    }
    // A link that does not verify: the patient is asked to call the provider instead.
    Ok(Json(UnsubscribeResult {
        is_success: done.is_some(),
        show_call_to_provider_message: done.is_none(),
    }))
}
