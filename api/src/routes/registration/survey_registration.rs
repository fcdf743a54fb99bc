//! Online survey registration (issue 3 part 6): a survey link by e-mail for a known or new patient.

use super::*;

pub(super) fn check(is_user_exist: bool, sent: bool, message: &str) -> SurveyEmailCheck {
    SurveyEmailCheck {
        is_user_exist,
        is_sent_start_hist_portal_survey_email: sent,
        message: message.to_owned(),
    }
}

/// The survey a location's patients get: the staff start's choice order (spec 01 §2.5, in
/// wasm-core), so both assign the same survey.
pub(super) async fn location_survey(db: &Db, loc_num: &str) -> AppResult<Option<i64>> {
    crate::staff_start::survey_for_location(db, loc_num).await
}

/// What the emailed survey link needs, read before the transaction that assigns the survey (the
/// keys are created on first use): where the link points, the keys that sign it and the
/// unsubscribe link, the clinic's name, and the assignment notice's template text and values'
/// words in the patient's language.
pub(super) struct LinkParts {
    base: String,
    key: crate::survey_link::LinkKey,
    unsubscribe: crate::unsubscribe::UnsubscribeKey,
    client_name: String,
    /// `{AppointmentDate}` (a survey assigned here has no appointment yet).
    when: String,
    /// Subject and body of the `SurveyAssignment` template in the language (None: switched off).
    template: Option<(String, String)>,
}

/// `starts_at`: the survey's appointment, if it has one; `offset_minutes`: the clinic's zone.
pub(super) async fn link_parts(
    db: &Db,
    language: &str,
    starts_at: Option<i64>,
    offset_minutes: i32,
) -> AppResult<LinkParts> {
    let template =
        match crate::store::notice_templates::active_template(db, "SurveyAssignment").await? {
            Some(t) => Some(crate::notice_templates::portal_text(db, &t, language).await?),
            None => None,
        };
    Ok(LinkParts {
        base: public_base(db).await?,
        key: crate::survey_link::key(db).await?,
        unsubscribe: crate::unsubscribe::key(db).await?,
        client_name: settings::get::<CorePortal>(db)
            .await?
            .client_name
            .trim()
            .to_owned(),
        when: crate::notice_words::NoticeWords::load(db)
            .await?
            .appointment_date(starts_at, offset_minutes, language),
        template,
    })
}

/// The survey assignment notice of a queue row (its template in the patient's language, English
/// when the language has none), queued in `tx`; false when the clinic switched it off.
pub(super) async fn send_survey_email(
    tx: &mut Tx,
    parts: &LinkParts,
    patient: &store::PatientForRegistration,
    queue_id: i64,
) -> AppResult<bool> {
    let Some((subject, body)) = &parts.template else {
        return Ok(false);
    };
    let link = crate::survey_link::link(&parts.base, &parts.key, queue_id);
    let unsubscribe = crate::unsubscribe::link(&parts.base, &parts.unsubscribe, patient.id);
    let tokens = crate::notice_templates::SurveyNoticeValues {
        client_name: &parts.client_name,
        base: &parts.base,
        first_name: &patient.first_name,
        last_name: &patient.last_name,
        appointment_date: &parts.when,
        survey_link: &link,
        iam_here_link: "",
        unsubscribe_link: &unsubscribe,
    }
    .tokens();
    let rendered = wasm_core::notice_templates::render_notice(
        subject,
        body,
        &crate::notice_templates::token_refs(&tokens),
    );
    let to = patient.email.as_deref().unwrap_or("").trim();
    let mut message = crate::notice_templates::message(
        crate::outbox::Channel::Email,
        to,
        &rendered,
        "SurveyAssignment",
    );
    message.patient_id = Some(patient.id);
    message.survey_queue_id = Some(queue_id);
    outbox::enqueue_in(tx, &message, now_ms()).await?;
    Ok(true)
}

/// Step 1 for a known email: the open survey's link again, or a new assignment when the patient
/// has none at all; 'You have already completed survey' when only completed ones exist.
pub(super) async fn existing_patient(
    db: &Db,
    patient: &store::PatientForRegistration,
    location_id: i64,
    loc_num: &str,
    peer: &ClientAddr,
    offset_minutes: i32,
) -> AppResult<SurveyEmailCheck> {
    let (open, done) = store::survey_state(db, patient.id).await?;
    let survey = match (open, done) {
        (Some(_), _) => None,
        (None, 0) => Some(
            location_survey(db, loc_num)
                .await?
                .ok_or_else(|| AppError::BadRequest(NO_SURVEY.to_owned()))?,
        ),
        (None, _) => return Ok(check(true, false, ALREADY_COMPLETED)),
    };
    let language = crate::store::notice_languages::patient_language(db, Some(patient.id)).await?;
    // An open survey's link again: its appointment, if it has one.
    let starts_at = match open {
        Some(id) => crate::store::history_portal::actions::target(db, id)
            .await?
            .and_then(|t| t.starts_at),
        None => None,
    };
    let parts = link_parts(db, &language, starts_at, offset_minutes).await?;
    let mut tx = db.begin().await?;
    let queue_id = match (open, survey) {
        (Some(id), _) => id,
        (None, Some(survey)) => {
            store::assign_survey(&mut tx, patient.id, location_id, survey, now_ms()).await?
        }
        (None, None) => return Ok(check(true, false, ALREADY_COMPLETED)),
    };
    let sent = send_survey_email(&mut tx, &parts, patient, queue_id).await?;
    audit::record(
        &mut tx,
        Actor::anonymous(),
        Action::SurveyRegistrationRequested,
        Target {
            target_type: Some("SurveyQueue"),
            target_id: Some(queue_id.to_string()),
            target_user_id: None,
        },
        None,
        Some(json!({"PatientId": patient.id, "LocNum": loc_num, "NewPatient": false})),
        ip(peer),
    )
    .await?;
    tx.commit().await?;
    Ok(check(true, sent, ""))
}

pub(super) async fn location(db: &Db, loc_num: &str) -> AppResult<i64> {
    let loc = loc_num.trim();
    if loc.is_empty() || loc.len() > 32 {
        return Err(AppError::BadRequest(LOCATION_INVALID.to_owned()));
    }
    store::location_id(db, loc)
        .await?
        .ok_or_else(|| AppError::BadRequest(LOCATION_INVALID.to_owned()))
}

pub(super) async fn check_location(
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiQuery(q): ApiQuery<LocNumQuery>,
) -> AppResult<Json<LocationCheck>> {
    throttle(&state.db, "survey-registration-location", &peer, None).await?;
    let is_valid = match location(&state.db, &q.loc_num).await {
        Ok(_) => true,
        Err(AppError::BadRequest(_)) => false,
        Err(e) => return Err(e),
    };
    Ok(Json(LocationCheck { is_valid }))
}

pub(super) async fn send_request_registration_email(
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(req): ApiJson<RequestRegistrationEmail>,
) -> AppResult<Json<SurveyEmailCheck>> {
    throttle(&state.db, "survey-registration", &peer, Some(&req.email)).await?;
    let reg = SurveyRegistration {
        email: req.email.clone(),
        loc_num: req.loc_num.clone(),
        ..Default::default()
    };
    let errors = membership::validate_survey_registration(&reg, false);
    if !errors.is_valid() {
        return Err(errors.into());
    }
    let db = &state.db;
    let location_id = location(db, &req.loc_num).await?;
    match store::patients_by_email(db, &req.email).await?.first() {
        Some(patient) => Ok(Json(
            existing_patient(
                db,
                patient,
                location_id,
                &req.loc_num,
                &peer,
                state.clinic_utc_offset_minutes,
            )
            .await?,
        )),
        None => Ok(Json(check(false, false, ""))),
    }
}

pub(super) async fn request_registration(
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(req): ApiJson<SurveyRegistration>,
) -> AppResult<Json<SurveyEmailCheck>> {
    throttle(&state.db, "survey-registration", &peer, Some(&req.email)).await?;
    let errors = membership::validate_survey_registration(&req, true);
    if !errors.is_valid() {
        return Err(errors.into());
    }
    let db = &state.db;
    let location_id = location(db, &req.loc_num).await?;
    if let Some(patient) = store::patients_by_email(db, &req.email).await?.first() {
        return Ok(Json(
            existing_patient(
                db,
                patient,
                location_id,
                &req.loc_num,
                &peer,
                state.clinic_utc_offset_minutes,
            )
            .await?,
        ));
    }
    let survey = location_survey(db, &req.loc_num)
        .await?
        .ok_or_else(|| AppError::BadRequest(NO_SURVEY.to_owned()))?;
    let dob = dob_text(req.year, req.month, req.day).unwrap_or_default();
    let phone = optional(Some(req.phone_number.as_str())).and_then(membership::us_phone_digits);
    let now = now_ms();
    // The MRN of a self-registered patient: 'W' and 12 random digits (the clinical system
    // assigns its own when the patient is seen).
    let mrn = {
        use rand::Rng;
        format!(
            "W{:012}",
            rand::thread_rng().gen_range(0..1_000_000_000_000u64)
        )
    };
    // A new patient's language: the one picked on the registration page (English when none or
    // not one of the six), stored on the record and used for the mail.
    let language = crate::notice_languages::language_code(req.language.as_deref().unwrap_or(""));
    let parts = link_parts(db, language, None, 0).await?;
    let mut tx = db.begin().await?;
    let patient_id = store::insert_patient(
        &mut tx,
        &store::NewSurveyPatient {
            mrn: &mrn,
            first_name: &req.first_name,
            last_name: &req.last_name,
            dob: &dob,
            email: &req.email,
            phone: phone.as_deref(),
            gender: &req.gender,
            now,
        },
    )
    .await?;
    crate::store::patients::set_language(&mut tx, patient_id, language, now).await?;
    // A patient record the portal created (MagView Audit Logs), with what it holds.
    audit::record(
        &mut tx,
        Actor::anonymous(),
        Action::PatientCreated,
        Target {
            target_type: Some("Patient"),
            target_id: Some(patient_id.to_string()),
            target_user_id: None,
        },
        None,
        Some(json!({
            "Source": "SurveyRegistration",
            "Ssn": mrn,
            "LocNum": req.loc_num.trim(),
            "FirstName": req.first_name.trim(),
            "LastName": req.last_name.trim(),
            "Dob": dob,
            "Gender": req.gender,
            "Email": req.email.trim(),
            "Phone": phone,
            "Language": language,
        })),
        ip(&peer),
    )
    .await?;
    let queue_id = store::assign_survey(&mut tx, patient_id, location_id, survey, now).await?;
    let patient = store::patient_in(&mut tx, patient_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let sent = send_survey_email(&mut tx, &parts, &patient, queue_id).await?;
    audit::record(
        &mut tx,
        Actor::anonymous(),
        Action::SurveyRegistrationRequested,
        Target {
            target_type: Some("SurveyQueue"),
            target_id: Some(queue_id.to_string()),
            target_user_id: None,
        },
        None,
        Some(json!({"PatientId": patient_id, "LocNum": req.loc_num.trim(), "NewPatient": true, "Language": language})),
        ip(&peer),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(check(false, sent, "")))
}
