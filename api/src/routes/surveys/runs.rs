//! A survey run (spec 01 §2.4, §4): open it, load it, save and submit its answers.

use super::*;
use wasm_core::model::RunQuery;

use crate::integrations;

/// `?modify=true`: Modify (spec 01 §4), allowed when wasm-core's Medical History rule offers it
/// for this row (a finished survey whose appointment has not passed); the survey goes back to
/// IntermediateSave with its answers and is resumed.
pub(super) async fn load_run(
    MaybeUser(user): MaybeUser,
    State(state): State<AppState>,
    peer: ClientAddr,
    headers: HeaderMap,
    ApiPath(id): ApiPath<i64>,
    ApiQuery(q): ApiQuery<RunQuery>,
) -> AppResult<Json<SurveyRunState>> {
    let run = open(
        &state,
        &user,
        &headers,
        store::run_by_queue(&state.db, id).await?,
    )
    .await?;
    let now = now_ms();
    let mut run = expire_if_due(&state, run, now).await?;
    if q.modify && run.status != "IntermediateSave" {
        let completed = run.completed_at.map(crate::fmt::iso_utc);
        let appointment = run.appt_starts_at.map(crate::fmt::iso_utc);
        let button = wasm_core::medical_history::survey_button(
            &run.status,
            completed.as_deref(),
            appointment.as_deref(),
            &crate::fmt::iso_utc(now),
            run.id,
            run.log_id,
        );
        if button.action == wasm_core::model::SurveyAction::Modify
            && store::reopen(&state.db, id, &run.status, now).await?
        {
            run = store::run_by_queue(&state.db, id)
                .await?
                .ok_or(AppError::NotFound)?;
        }
    }
    record_staff_view(&state, &user, &run, false, peer).await?;
    let display = display_of(&state, &run).await?;
    Ok(Json(run_state(
        &run,
        &libraries(&state).await?,
        false,
        false,
        display,
    )?))
}

pub(super) async fn load_log(
    MaybeUser(user): MaybeUser,
    State(state): State<AppState>,
    peer: ClientAddr,
    headers: HeaderMap,
    ApiPath(id): ApiPath<i64>,
) -> AppResult<Json<SurveyRunState>> {
    let run = open(
        &state,
        &user,
        &headers,
        store::run_by_log(&state.db, id).await?,
    )
    .await?;
    // The report link is for signed-in readers (staff, the patient), not for a kiosk token.
    let has_summary = user.is_some() && store::summary_of_queue(&state.db, run.id).await?.is_some();
    let has_form = user.is_some() && store::has_summary_form(&state.db, run.id).await?;
    record_staff_view(&state, &user, &run, true, peer).await?;
    let display = display_of(&state, &run).await?;
    let mut answer = run_state(&run, &libraries(&state).await?, true, has_summary, display)?;
    answer.has_summary_form_pdf = has_form;
    Ok(Json(answer))
}

/// Autosave and submit share this: check the run can still be written, then apply the change
/// once.
pub(super) async fn write(
    state: &AppState,
    user: &Option<SessionUser>,
    headers: &HeaderMap,
    peer: ClientAddr,
    id: i64,
    req: SaveAnswersRequest,
    submit: bool,
) -> AppResult<SaveAnswersResponse> {
    if req.change_id.is_empty() || req.change_id.len() > 64 {
        return Err(AppError::BadRequest(
            "ChangeId must be 1-64 characters.".to_owned(),
        ));
    }
    let run = open(
        state,
        user,
        headers,
        store::run_by_queue(&state.db, id).await?,
    )
    .await?;
    let current = run.revision.unwrap_or(0);
    let respond = |run: &QueueRun| SaveAnswersResponse {
        revision: run.revision.unwrap_or(0),
        status_key: status_of(run).key().to_owned(),
        survey_log_id: run.log_id.unwrap_or(0),
        answers: stored_answers(run),
    };
    // A replay of the last applied change (its answer was lost on the way back): same result.
    if run.last_change_id.as_deref() == Some(req.change_id.as_str()) {
        return Ok(respond(&run));
    }
    let run = expire_if_due(state, run, now_ms()).await?;
    let decision = start::start_decision(status_of(&run), run.completed_at.is_some(), false);
    if decision.kind == start::StartKind::Refused {
        return Err(AppError::Conflict(format!(
            "{}: {}",
            decision.title, decision.message
        )));
    }
    if req.base_revision != current {
        return Err(AppError::Conflict(format!(
            "The survey was saved elsewhere (revision {current}, not {}). Reload it.",
            req.base_revision
        )));
    }
    let def = definition(&run, &libraries(state).await?)?;
    if let Some(page) = &req.page_id {
        if !def.pages.iter().any(|p| &p.id == page) {
            return Err(AppError::BadRequest(format!("Unknown page '{page}'.")));
        }
    }
    let kept = survey::clean_answers(&def, &req.answers);
    if submit {
        let errors = survey::validate_answers(&def, &kept, None);
        if !errors.is_valid() {
            return Err(AppError::Validation(errors));
        }
    }
    let text = serde_json::to_string(&kept).map_err(AppError::internal)?;
    let status = if submit {
        SurveyStatus::Completed
    } else {
        SurveyStatus::IntermediateSave
    };
    let now = now_ms();
    // Issue 17: Survey Start is the run's first save, Survey Submit the submit; their
    // integration deliveries are stored with the answers (same transaction), keyed by the change.
    let mut events = Vec::new();
    if current == 0 {
        events.push(integrations::START);
    }
    if submit {
        events.push(integrations::SUBMIT);
    }
    let mut facts = Vec::new();
    for event in events {
        facts.push(integrations::event_facts(&state.db, &run, &def, &kept, event, now).await?);
    }
    let mut tx = state.db.begin().await?;
    let written = store::save_answers(
        &mut tx,
        id,
        current,
        &text,
        req.page_id.as_deref(),
        answered_in(req.language.as_deref()),
        &req.change_id,
        status.key(),
        now,
    )
    .await?;
    if !written {
        return Err(AppError::Conflict(
            "The survey was saved elsewhere. Reload it.".to_owned(),
        ));
    }
    if !facts.is_empty() {
        let log_id = crate::store::integrations::log_id_in(&mut tx, id).await?;
        for mut f in facts {
            f.survey_log_id = log_id;
            let key = if f.event == integrations::START {
                format!("{}:{id}", f.event)
            } else {
                format!("{}:{id}:{}", f.event, req.change_id)
            };
            integrations::on_survey_event(&mut tx, &f, &key, now).await?;
        }
    }
    if submit {
        let actor = user
            .as_ref()
            .map(Actor::from)
            .unwrap_or_else(Actor::anonymous);
        let target = Target {
            target_type: Some("SurveyQueue"),
            target_id: Some(id.to_string()),
            target_user_id: None,
        };
        audit::record(
            &mut tx,
            actor,
            Action::SurveySubmitted,
            target,
            None,
            Some(json!({"Questions": kept.len()})),
            Some(peer.ip().to_string()),
        )
        .await?;
    }
    tx.commit().await?;
    let saved = store::run_by_queue(&state.db, id)
        .await?
        .ok_or(AppError::NotFound)?;
    if submit {
        // The summary report is made after the answers are committed, in the background: the
        // patient's submission never waits for (or fails because of) the PDF.
        let state = state.clone();
        tokio::spawn(async move {
            if let Err(e) = make_summary(&state, id).await {
                tracing::error!(survey_queue_id = id, error = %e, "survey summary report failed");
            }
            if let Err(e) = make_summary_form(&state.db, id).await {
                tracing::error!(survey_queue_id = id, error = %e, "survey summary form report failed");
            }
        });
    }
    Ok(respond(&saved))
}

pub(super) async fn save(
    MaybeUser(user): MaybeUser,
    State(state): State<AppState>,
    peer: ClientAddr,
    headers: HeaderMap,
    ApiPath(id): ApiPath<i64>,
    ApiJson(req): ApiJson<SaveAnswersRequest>,
) -> AppResult<Json<SaveAnswersResponse>> {
    Ok(Json(
        write(&state, &user, &headers, peer, id, req, false).await?,
    ))
}

pub(super) async fn submit(
    MaybeUser(user): MaybeUser,
    State(state): State<AppState>,
    peer: ClientAddr,
    headers: HeaderMap,
    ApiPath(id): ApiPath<i64>,
    ApiJson(req): ApiJson<SaveAnswersRequest>,
) -> AppResult<Json<SaveAnswersResponse>> {
    Ok(Json(
        write(&state, &user, &headers, peer, id, req, true).await?,
    ))
}

/// The language code a save names, when it is one of the portal's six (else none is stored).
fn answered_in(language: Option<&str>) -> Option<&'static str> {
    let wanted = language?.trim().to_ascii_lowercase();
    wasm_core::labels::LANGUAGES
        .iter()
        .find(|(name, code)| *code == wanted || *name == wanted)
        .map(|(_, code)| *code)
}
