//! Survey PINs (spec 01 §2.5): the kiosk's PIN check and a staff-generated PIN.

use super::*;
use wasm_core::model::PinQuery;

pub(super) async fn check_pin(
    State(state): State<AppState>,
    peer: ClientAddr,
    headers: HeaderMap,
    ApiQuery(q): ApiQuery<PinQuery>,
) -> AppResult<Json<PinCheckResponse>> {
    let now = now_ms();
    let since = now - PIN_WINDOW_MS;
    // The browser's CSRF cookie identifies the kiosk (set on its first page load).
    let client = cookies::csrf_token(&headers)
        .map(|c| format!("csrf:{}", hash_token(c)))
        .unwrap_or_else(|| "anonymous".to_owned());
    let address = format!("addr:{}", hash_token(&peer.ip().to_string()));
    let failures = store::pin_failures(&state.db, &client, since).await?;
    let address_failures = store::pin_failures(&state.db, &address, since).await?;
    let fail = |attempts_left: i32, message: String| PinCheckResponse {
        success: false,
        survey_data_id: None,
        attempts_left,
        is_duplicated: false,
        message,
        token: None,
    };
    if failures >= PIN_ATTEMPTS || address_failures >= PIN_ATTEMPTS_PER_ADDRESS {
        return Ok(Json(fail(0, start::pin_wrong_message(0))));
    }
    let valid_shape = wasm_core::survey::pin::is_pin_shape(&q.pin);
    let rows = if valid_shape {
        store::pins(&state.db, &q.pin, now - PIN_EXPIRED_KEPT_MS).await?
    } else {
        Vec::new()
    };
    let live: Vec<_> = rows.iter().filter(|r| r.2 > now).collect();
    if live.is_empty() {
        // An expired PIN costs an attempt too: with many recently expired numbers, free
        // 'expired' answers would let a kiosk try every number.
        let mut tx = state.db.begin().await?;
        store::add_pin_failure(&mut tx, &client, since, now).await?;
        store::add_pin_failure(&mut tx, &address, since, now).await?;
        audit::record(
            &mut tx,
            Actor::anonymous(),
            Action::SurveyPinFailed,
            Target::none(),
            None,
            None,
            Some(peer.ip().to_string()),
        )
        .await?;
        tx.commit().await?;
        if !rows.is_empty() {
            return Ok(Json(fail(-1, start::PIN_EXPIRED.to_owned())));
        }
        let left = (PIN_ATTEMPTS - failures - 1).max(0) as i32;
        return Ok(Json(fail(left, start::pin_wrong_message(left as u32))));
    }
    // Several live rows of one number are a duplicate only when they name different surveys (an
    // emailed link's start re-issues the row's PIN; the newest row then takes the token).
    if live.iter().any(|r| r.1 != live[0].1) {
        let mut r = fail(
            (PIN_ATTEMPTS - failures) as i32,
            "Pin number is duplicated. Please contact administrator.".to_owned(),
        );
        r.is_duplicated = true;
        return Ok(Json(r));
    }
    let (pin_id, queue_id, _) = *live[live.len() - 1];
    let token = random_token();
    let mut tx = state.db.begin().await?;
    store::clear_pin_failures(&mut tx, &client).await?;
    store::set_pin_token(&mut tx, pin_id, &hash_token(&token)).await?;
    tx.commit().await?;
    Ok(Json(PinCheckResponse {
        success: true,
        survey_data_id: Some(queue_id),
        attempts_left: PIN_ATTEMPTS as i32,
        is_duplicated: false,
        message: String::new(),
        token: Some(token),
    }))
}

pub(super) async fn generate_pin(
    staff: RequireRole<Staff>,
    State(state): State<AppState>,
    peer: ClientAddr,
    headers: HeaderMap,
    ApiJson(req): ApiJson<GeneratePinRequest>,
) -> AppResult<Json<GeneratePinResponse>> {
    let user = &staff.0;
    let queue_id = match req.survey_queue_id {
        Some(id) => {
            store::run_by_queue(&state.db, id)
                .await?
                .ok_or(AppError::NotFound)?
                .id
        }
        // The kiosk's staff start (admin PIN, respondent, study, survey).
        None => crate::staff_start::start_for_respondent(&state, &user.0, &headers, &req).await?,
    };
    let now = now_ms();
    // SurveyGeneral IsNeverExpirePin / PinExpirationSeconds (spec 04 §3).
    let general = settings::get::<SurveyGeneral>(&state.db).await?;
    let expires_at = wasm_core::survey::display::pin_expires_at(&general, now);
    let pin = fresh_pin(&state.db, now).await?;
    let mut tx = state.db.begin().await?;
    store::insert_pin(&mut tx, &pin, queue_id, Some(user.user_id), now, expires_at).await?;
    let target = Target {
        target_type: Some("SurveyQueue"),
        target_id: Some(queue_id.to_string()),
        target_user_id: None,
    };
    audit::record(
        &mut tx,
        Actor::from(&user.0),
        Action::SurveyPinGenerated,
        target,
        None,
        None,
        Some(peer.ip().to_string()),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(GeneratePinResponse {
        pin,
        expires_at: crate::fmt::iso_utc(expires_at),
        survey_queue_id: queue_id,
    }))
}
