//! Acknowledging a letter (spec 01 §2.3), on its own or with reading it.

use super::*;

/// Who may acknowledge at all: the patient herself, not impersonated (spec 01 §4, §6).
pub(super) fn check_may_acknowledge(user: &SessionUser) -> AppResult<()> {
    if user.impersonator_user_id.is_some() {
        return Err(AppError::Forbidden(
            "Impersonated sessions cannot acknowledge letters.".to_owned(),
        ));
    }
    Ok(())
}

pub(super) async fn acknowledge_common(
    state: &AppState,
    user: &SessionUser,
    req: &LetterRef,
    peer: ClientAddr,
    and_read: bool,
) -> AppResult<Letter> {
    check_may_acknowledge(user)?;
    let db = &state.db;
    let row = owned_letter(state, user, req.access_token.trim()).await?;
    if req.id.is_some_and(|id| id != row.id) {
        return Err(AppError::BadRequest(
            "Id and AccessToken name different letters.".to_owned(),
        ));
    }
    let (s, hiding) = load_settings_and_hiding(state, user).await?;
    let v = viewer(user, &s);
    let now = now_ms();
    let (hidden, allow_ack) = hiding.apply(&row, now);
    if hidden {
        return Err(AppError::NotFound);
    }
    let mut f = facts(&row, &s, allow_ack);
    if and_read {
        if !f.is_ack_on_view {
            return Err(AppError::Conflict(
                "This letter is not acknowledged on view.".to_owned(),
            ));
        }
        if f.read_at.is_none() {
            // Read even when the acknowledgement below is refused (its own transaction).
            let mut tx = db.begin().await?;
            store::mark_read(&mut tx, row.id, now).await?;
            tx.commit().await?;
            f.read_at = Some(fmt::iso_utc(now));
        }
    }
    if !can_acknowledge(&f, &v) {
        let why = if f.acked_at.is_some() {
            "This letter is already acknowledged."
        } else if f.read_at.is_none() {
            "Read the letter before acknowledging it."
        } else {
            "This letter cannot be acknowledged."
        };
        return Err(AppError::Conflict(why.to_owned()));
    }
    let mut tx = db.begin().await?;
    if !store::mark_acked(&mut tx, row.id, now).await? {
        return Err(AppError::Conflict(
            "This letter is already acknowledged.".to_owned(),
        ));
    }
    audit::record(
        &mut tx,
        Actor::from(user),
        Action::LetterAcknowledged,
        letter_target(row.id),
        Some(json!({"AckedAt": null})),
        Some(json!({"AckedAt": fmt::iso_utc(now), "OnView": and_read})),
        ip(peer),
    )
    .await?;
    tx.commit().await?;
    let row = store::letter_by_id(db, row.id)
        .await?
        .ok_or(AppError::NotFound)?;
    Ok(to_letter(
        row,
        &s,
        &v,
        false,
        allow_ack,
        req.timezone_offset.clamp(-1080, 1080),
    ))
}

pub(super) async fn acknowledge(
    user: RequireRole<PatientOnly>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(req): ApiJson<LetterRef>,
) -> AppResult<Json<Letter>> {
    Ok(Json(
        acknowledge_common(&state, &user, &req, peer, false).await?,
    ))
}

pub(super) async fn read_and_acknowledge(
    user: RequireRole<PatientOnly>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(req): ApiJson<LetterRef>,
) -> AppResult<Json<Letter>> {
    Ok(Json(
        acknowledge_common(&state, &user, &req, peer, true).await?,
    ))
}

pub(super) async fn not_completed(
    user: RequireRole<PatientOnly>,
    State(state): State<AppState>,
) -> AppResult<Json<NotCompletedLetters>> {
    let db = &state.db;
    let (s, hiding) = load_settings_and_hiding(&state, &user).await?;
    let v = viewer(&user, &s);
    let Some(patient_id) = user.patient_id else {
        return Ok(Json(NotCompletedLetters {
            count: 0,
            letters: Vec::new(),
        }));
    };
    let now = now_ms();
    // The letters the Documents page lists (hold, then RSeq / RDate grouping) that are unread.
    let rows = store::letters_of_patient(db, patient_id, true).await?;
    let letters: Vec<Letter> = hiding
        .listed(rows, now, false)
        .filter(|l| l.row.read_at.is_none())
        .map(|l| {
            let mut letter = to_letter(l.row, &s, &v, false, l.allow_ack, 0);
            letter.letter_type = l.type_text;
            letter
        })
        .collect();
    Ok(Json(NotCompletedLetters {
        count: letters.len() as u32,
        letters,
    }))
}
