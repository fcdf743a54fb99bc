//! Portal invitation (issue 3 part 5): staff send a patient a single-use registration link.

use super::*;
use wasm_core::model::SurveyQueueIdQuery;

pub(super) async fn send_registration_email(
    State(state): State<AppState>,
    user: RequireRole<Staff>,
    peer: ClientAddr,
    ApiJson(req): ApiJson<SendRegistrationEmail>,
) -> AppResult<Json<RegistrationInvitation>> {
    let db = &state.db;
    let patient_id = match (req.patient_id, req.survey_queue_id) {
        (Some(id), _) => Some(id),
        (None, Some(queue)) => store::patient_of_queue_row(db, queue).await?,
        (None, None) => {
            return Err(AppError::BadRequest(
                "PatientId or SurveyQueueId is required.".to_owned(),
            ))
        }
    };
    let patient = match patient_id {
        Some(id) => store::patient(db, id).await?.ok_or(AppError::NotFound)?,
        None => return Err(AppError::NotFound),
    };
    let email = patient.email.as_deref().map(str::trim).unwrap_or("");
    if !membership::is_email(email) {
        return Err(AppError::BadRequest(NO_EMAIL.to_owned()));
    }
    if patient.accounts > 0 {
        return Err(AppError::Conflict(HAS_ACCOUNT.to_owned()));
    }
    // With RequireDOB the patient proves the date of birth on record: there must be one.
    if dob_required(db).await? && patient.dob.as_deref().is_none_or(|d| d.trim().is_empty()) {
        return Err(AppError::BadRequest(NO_DOB.to_owned()));
    }
    let pw: UserAccountPassword = settings::get(db).await?;
    let seconds = (pw.reset_key_expiration_in_seconds as i64).max(0);
    let now = now_ms();
    let expires_at = (seconds > 0).then(|| now.saturating_add(seconds.saturating_mul(1000)));
    let key = random_token();
    let link = format!("{}/patient/create?key={key}", public_base(db).await?);
    let name = format!("{} {}", patient.first_name, patient.last_name);
    let language = crate::store::notice_languages::patient_language(db, Some(patient.id)).await?;
    let template = crate::notice_templates::account_template(db, "NewAccount", &language).await?;
    // The validity sentence in the template's language.
    let validity = crate::notice_words::NoticeWords::load(db)
        .await?
        .link_once(seconds, &language);
    let rendered = crate::notice_templates::render_letter(
        &template,
        &[
            ("PatientName", name.as_str()),
            ("PatientFirstName", patient.first_name.as_str()),
            ("PatientLastName", patient.last_name.as_str()),
            ("RegistrationLink", link.as_str()),
            ("LinkExpiry", validity.as_str()),
        ],
    );
    let mut message = crate::notice_templates::message(
        crate::outbox::Channel::Email,
        email,
        &rendered,
        "PortalRegistration",
    );
    message.patient_id = Some(patient.id);
    let mut tx = db.begin().await?;
    store::insert_registration_key(
        &mut tx,
        &hash_token(&key),
        patient.id,
        email,
        now,
        expires_at,
    )
    .await?;
    outbox::enqueue_in(&mut tx, &message, now).await?;
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::RegistrationInvitationSent,
        Target {
            target_type: Some("Patient"),
            target_id: Some(patient.id.to_string()),
            target_user_id: None,
        },
        None,
        Some(json!({"Email": email, "ExpiresAt": expires_at})),
        ip(&peer),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(invitation(true, true, INVITATION_SENT)))
}

pub(super) async fn registration_invitation(
    State(state): State<AppState>,
    _user: RequireRole<Staff>,
    ApiQuery(q): ApiQuery<SurveyQueueIdQuery>,
) -> AppResult<Json<RegistrationInvitation>> {
    let patient_id = store::patient_of_queue_row(&state.db, q.survey_queue_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let patient = store::patient(&state.db, patient_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let can = patient.accounts == 0
        && membership::is_email(patient.email.as_deref().unwrap_or(""))
        && (!dob_required(&state.db).await?
            || patient.dob.as_deref().is_some_and(|d| !d.trim().is_empty()));
    Ok(Json(invitation(can, false, "")))
}

/// UserAccountPatientPortalOptions RequireDOB.
async fn dob_required(db: &Db) -> AppResult<bool> {
    let options: UserAccountPatientPortalOptions = settings::get(db).await?;
    Ok(options.require_dob)
}
