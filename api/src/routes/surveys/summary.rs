//! The survey summary report (spec 04): made after a submission, served as a PDF.

use super::*;
use crate::answers::{File, PdfFile};
use wasm_core::survey::report_template;

/// Makes and stores the summary report of a submitted survey when GenerateSummaryReport is on
/// (issue 5 part 7): the questions shown for the stored answers, in the patient's language
/// (English where the PDF fonts cannot show it), as a letter of type 'Survey Summary'.
pub async fn make_summary(state: &AppState, queue_id: i64) -> AppResult<bool> {
    summary_letter(&state.db, queue_id, false).await
}

/// [`make_summary`], or with `always` whatever GenerateSummaryReport says (the survey action
/// Portal.Actions.GenerateSummaryLetter, issue 17).
pub async fn summary_letter(db: &Db, queue_id: i64, always: bool) -> AppResult<bool> {
    let general = settings::get::<SurveyGeneral>(db).await?;
    if !general.generate_summary_report && !always {
        return Ok(false);
    }
    let run = store::run_by_queue(db, queue_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let facts = store::summary_facts(db, queue_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let def = definition(&run, &crate::routes::survey_admin::library_set(db).await?)?;
    // A custom report template for this survey (issue 17) shapes the report.
    let template = crate::store::survey_admin::template_for_survey(db, &def.id)
        .await?
        .and_then(|t| {
            report_template::parse_template(&t.template)
                .ok()
                .map(|parsed| (t, parsed))
        });
    let answers = stored_answers(&run);
    let clinic = settings::get::<CorePortal>(db).await?.client_name;
    let completed_at = facts
        .completed_at
        .or(run.completed_at)
        .unwrap_or_else(now_ms);
    // The language the survey was answered in (the patient's for older runs).
    let lang = facts.language.clone();
    let texts = summary_texts(db, &lang).await?;
    let survey_name = {
        let local = survey::local_text(&def.name, &lang);
        if pdf::can_show(&local) {
            local
        } else {
            survey::local_text(&def.name, "en")
        }
    };
    let page_numbers = general
        .is_add_page_number_to_summary_pdf
        .then(|| PageNumbers {
            font_size: (general.pdf_page_number_font_size as i64).clamp(6, 24) as f32,
            alignment: Alignment::parse(&general.pdf_page_number_alignment),
        });
    let ymd = crate::fmt::iso_utc(completed_at)
        .get(..10)
        .unwrap_or_default()
        .replace('-', "");
    let pattern = template
        .as_ref()
        .map_or("", |(t, _)| t.result_file_name_pattern.as_str());
    let file_name =
        summary_pdf::file_name(pattern, &facts.mrn, &ymd, &uuid::Uuid::new_v4().to_string());
    let patient_name = format!("{} {}", facts.first_name, facts.last_name)
        .trim()
        .to_owned();
    let completed_day = crate::fmt::date_time(completed_at, 0)
        .get(..10)
        .unwrap_or_default()
        .to_owned();
    // Template texts with their tokens filled, in the PDF fonts' letters (else left out).
    let fill = |text: &str| {
        let filled = report_template::fill(
            text,
            &patient_name,
            &facts.mrn,
            &completed_day,
            &survey_name,
        );
        if pdf::can_show(&filled) {
            filled
        } else {
            String::new()
        }
    };
    let (report_title, header_text, footer_text, kind, signature) = match &template {
        Some((t, parsed)) => (
            parsed.title.as_deref().map(&fill).unwrap_or_default(),
            if parsed.header.is_empty() {
                general.summary_pdf_header_text.clone()
            } else {
                parsed
                    .header
                    .iter()
                    .map(|h| fill(h))
                    .collect::<Vec<_>>()
                    .join("\n")
            },
            parsed.footer.as_deref().map(&fill).unwrap_or_default(),
            t.report_type.clone(),
            t.include_signature,
        ),
        None => (
            String::new(),
            general.summary_pdf_header_text.clone(),
            String::new(),
            String::new(),
            false,
        ),
    };
    let report = SummaryPdf {
        clinic_name: if clinic.trim().is_empty() {
            "Breast Imaging Center".to_owned()
        } else {
            clinic
        },
        header_text,
        header_on_all_pages: general.is_add_header_to_all_pages_to_summary_pdf,
        page_numbers,
        survey_name,
        patient_name: patient_name.clone(),
        patient_mrn: facts.mrn.clone(),
        patient_dob: facts
            .dob
            .as_deref()
            .map(crate::fmt::iso_date_to_us)
            .unwrap_or_default(),
        completed: format!("{} UTC", crate::fmt::date_time(completed_at, 0)),
        study_date: facts
            .study_date
            .as_deref()
            .map(crate::fmt::iso_date_to_us)
            .unwrap_or_default(),
        study_desc: facts.study_desc.clone().unwrap_or_default(),
        location: facts.location_name.clone().unwrap_or_default(),
        sections: Vec::new(),
        report_title,
        footer_text,
        no_logo: kind == "Custom",
        no_patient_box: kind == "Custom" || kind == "CustomWithImages",
        signature,
        texts,
    };
    // A few milliseconds of CPU: off the async workers.
    let bytes = tokio::task::spawn_blocking(move || {
        let sections = summary(&def, &answers, &lang, &pdf::can_show);
        let sections = match &template {
            Some((_, parsed)) => report_template::apply(parsed, sections),
            None => sections,
        };
        summary_pdf::render(&SummaryPdf { sections, ..report })
    })
    .await
    .map_err(AppError::internal)?;
    store::save_summary(
        db,
        queue_id,
        facts.patient_id,
        facts.study_id,
        &random_token(),
        &file_name,
        &bytes,
        now_ms(),
    )
    .await?;
    Ok(true)
}

/// Makes and stores the summary *form* report of a submitted survey when
/// GenerateSummaryFormReport is on (issue 17; `crate::summary_form_pdf`): every question of the
/// survey with its answer, on pages with the SummaryFormPdfTopMargin / BottomMargin margins, in
/// the language the survey was answered in. Independent of GenerateSummaryReport.
pub async fn make_summary_form(db: &Db, queue_id: i64) -> AppResult<bool> {
    let general = settings::get::<SurveyGeneral>(db).await?;
    if !general.generate_summary_form_report {
        return Ok(false);
    }
    let run = store::run_by_queue(db, queue_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let facts = store::summary_facts(db, queue_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let def = definition(&run, &crate::routes::survey_admin::library_set(db).await?)?;
    let answers = stored_answers(&run);
    let clinic = settings::get::<CorePortal>(db).await?.client_name;
    let completed_at = facts
        .completed_at
        .or(run.completed_at)
        .unwrap_or_else(now_ms);
    let lang = facts.language.clone();
    let survey_name = {
        let local = survey::local_text(&def.name, &lang);
        if pdf::can_show(&local) {
            local
        } else {
            survey::local_text(&def.name, "en")
        }
    };
    let ymd = crate::fmt::iso_utc(completed_at)
        .get(..10)
        .unwrap_or_default()
        .replace('-', "");
    let file_name = summary_pdf::file_name(
        "SummaryForm_<SSN>_<DATE>_<GUID>",
        &facts.mrn,
        &ymd,
        &uuid::Uuid::new_v4().to_string(),
    );
    let report = crate::summary_form_pdf::SummaryFormPdf {
        clinic_name: if clinic.trim().is_empty() {
            "Breast Imaging Center".to_owned()
        } else {
            clinic
        },
        survey_name,
        patient_name: format!("{} {}", facts.first_name, facts.last_name)
            .trim()
            .to_owned(),
        patient_mrn: facts.mrn.clone(),
        patient_dob: facts
            .dob
            .as_deref()
            .map(crate::fmt::iso_date_to_us)
            .unwrap_or_default(),
        completed: format!("{} UTC", crate::fmt::date_time(completed_at, 0)),
        top_margin: crate::summary_form_pdf::margin(&general.summary_form_pdf_top_margin),
        bottom_margin: crate::summary_form_pdf::margin(&general.summary_form_pdf_bottom_margin),
        sections: Vec::new(),
        texts: summary_texts(db, &lang).await?,
    };
    let bytes = tokio::task::spawn_blocking(move || {
        let sections = wasm_core::survey::summary::form(&def, &answers, &lang, &pdf::can_show);
        crate::summary_form_pdf::render(&crate::summary_form_pdf::SummaryFormPdf {
            sections,
            ..report
        })
    })
    .await
    .map_err(AppError::internal)?;
    store::save_summary_form(db, queue_id, facts.patient_id, &file_name, &bytes, now_ms()).await?;
    Ok(true)
}

/// The report's fixed texts in `language`: the clinic's edits of the `SummaryPdf_*` labels, else
/// the shipped texts.
async fn summary_texts(db: &Db, language: &str) -> AppResult<SummaryTexts> {
    let labels = crate::clinic_labels::ClinicLabels::load(db, &["SummaryPdf_"]).await?;
    Ok(SummaryTexts::from_labels(|key| labels.text(key, language)))
}

/// The survey run of a log that `user` may read a report of: staff, or the patient it belongs
/// to. Anyone else is refused like an unknown log (404), and recorded (issue 15).
async fn readable_run(db: &Db, user: &SessionUser, id: i64, object: &str) -> AppResult<QueueRun> {
    let run = store::run_by_log(db, id).await?.ok_or(AppError::NotFound)?;
    if !(user.role.is_staff() || user.patient_id == Some(run.patient_id)) {
        return Err(crate::denied_access::Denial::patient_object(
            Actor::from(user),
            Some(run.patient_id),
            object,
            id,
        )
        .not_found());
    }
    Ok(run)
}

/// A report of a survey opened: its audit row (staff reading it is a read of patient data,
/// issue 15: SummaryViewed; the patient's own view is a letter view like any other) and its
/// Site Usage event (issue 16, spec 03 §3: DocumentLoaded=13 when a letter or report opens).
struct ReportOpened<'a> {
    run: &'a QueueRun,
    target: Target,
    values: serde_json::Value,
    url: &'static str,
}

impl ReportOpened<'_> {
    async fn record(
        self,
        db: &Db,
        user: &SessionUser,
        peer: &ClientAddr,
        headers: &HeaderMap,
    ) -> AppResult<()> {
        let action = if user.role.is_staff() {
            Action::SummaryViewed
        } else {
            Action::LetterViewed
        };
        let target_id = self.target.target_id.clone().unwrap_or_default();
        audit::Entry::new(Actor::from(user), action, self.target)
            .values(None, Some(self.values))
            .ip(Some(peer.ip().to_string()))
            .patient(Some(self.run.patient_id))
            .write_alone(db)
            .await?;
        crate::site_usage::record(
            db,
            crate::site_usage::Event {
                event_type: crate::site_usage::DOCUMENT_LOADED,
                user_id: Some(user.user_id),
                patient_id: Some(self.run.patient_id),
                target_id: &target_id,
                url: self.url,
            },
            peer,
            headers,
        )
        .await
    }
}

/// The summary report of a survey log: staff, or the patient it belongs to (404 for anyone
/// else, and when no report was made).
pub(super) async fn summary_pdf(
    user: CurrentUser,
    State(state): State<AppState>,
    peer: ClientAddr,
    headers: HeaderMap,
    ApiPath(id): ApiPath<i64>,
) -> AppResult<File<PdfFile>> {
    let db = &state.db;
    let run = readable_run(db, &user, id, "SurveySummary").await?;
    let (letter_id, file_name) = store::summary_of_queue(db, run.id)
        .await?
        .ok_or(AppError::NotFound)?;
    let pdf = crate::store::documents::stored_pdf(db, letter_id)
        .await?
        .ok_or(AppError::NotFound)?;
    ReportOpened {
        run: &run,
        target: Target {
            target_type: Some("Letter"),
            target_id: Some(letter_id.to_string()),
            target_user_id: None,
        },
        values: json!({"LetterType": store::SUMMARY_LETTER_TYPE, "PatientId": run.patient_id, "SurveyLogId": id}),
        url: "/api/surveyRun/log/summaryPdf",
    }
    .record(db, &user, &peer, &headers)
    .await?;
    Ok(File::inline(pdf, &file_name))
}

/// The summary form report of a survey log (GenerateSummaryFormReport): staff, or the patient it
/// belongs to (404 for anyone else, and when none was made). Recorded as the summary is.
pub(super) async fn summary_form_pdf(
    user: CurrentUser,
    State(state): State<AppState>,
    peer: ClientAddr,
    headers: HeaderMap,
    ApiPath(id): ApiPath<i64>,
) -> AppResult<File<PdfFile>> {
    let db = &state.db;
    let run = readable_run(db, &user, id, "SurveySummaryForm").await?;
    let (file_name, pdf) = store::summary_form_of_queue(db, run.id)
        .await?
        .ok_or(AppError::NotFound)?;
    ReportOpened {
        run: &run,
        target: Target {
            target_type: Some("SurveySummaryForm"),
            target_id: Some(run.id.to_string()),
            target_user_id: None,
        },
        values: json!({"Report": "SummaryForm", "PatientId": run.patient_id, "SurveyLogId": id}),
        url: "/api/surveyRun/log/summaryFormPdf",
    }
    .record(db, &user, &peer, &headers)
    .await?;
    Ok(File::inline(pdf, &file_name))
}
