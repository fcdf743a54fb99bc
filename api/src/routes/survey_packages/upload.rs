//! Uploading surveys (spec 04): one XML file, a replacement, or a package of files.

use super::*;

use crate::upload_form::{Upload, UploadFields};

/// The spec's form: the file, enteredName and overWrite (a package: overWrite only).
impl UploadFields for SurveyUploadQuery {
    const FIELDS: &'static [&'static str] = &["fileName", "enteredName", "overWrite"];
}

pub(super) fn file_too_large(file_name: &str) -> String {
    format!("'{file_name}' is larger than {} KB.", MAX_FILE_BYTES / 1024)
}

/// Text safe for both engines' TEXT columns: lossy UTF-8, NUL replaced (PostgreSQL refuses it).
pub(super) fn storable(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).replace('\0', "\u{FFFD}")
}

pub(super) fn refused(file_name: &str, survey_id: &str, message: String) -> SurveyUploadFile {
    SurveyUploadFile {
        file_name: file_name.to_owned(),
        survey_id: survey_id.to_owned(),
        status: "Refused".into(),
        message,
    }
}

/// Who uploads, from where.
#[derive(Clone, Copy)]
pub(super) struct Uploader<'a> {
    state: &'a AppState,
    actor: Actor,
    ip: &'a str,
}

/// One file and the upload's options. `expected` is the survey id a replace targets.
pub(super) struct FileUpload<'a> {
    bytes: &'a [u8],
    file_name: &'a str,
    entered_name: &'a str,
    overwrite: bool,
    expected: Option<&'a str>,
}

/// Stores one file (whole or not at all) and says what happened.
pub(super) async fn store_file(
    by: Uploader<'_>,
    upload: FileUpload<'_>,
) -> AppResult<SurveyUploadFile> {
    let Uploader { state, actor, ip } = by;
    let FileUpload {
        bytes,
        file_name,
        entered_name,
        overwrite,
        expected,
    } = upload;
    if bytes.len() > MAX_FILE_BYTES {
        return Ok(refused(file_name, "", file_too_large(file_name)));
    }
    let libs = crate::routes::survey_admin::library_set(&state.db).await?;
    let known = package::Known {
        libs: Some(&libs),
        storage: None,
    };
    let row = package::row_for_bytes(bytes, file_name, entered_name, known);
    if let Some(want) = expected {
        if row.survey_id != want {
            let message = match &row.error {
                Some(e) => format!("Survey '{want}' was not replaced: {e}"),
                None => format!(
                    "The file's SurveyId '{}' does not match '{want}'.",
                    row.survey_id
                ),
            };
            return Ok(refused(file_name, want, message));
        }
    }
    let existing = store::find(&state.db, &row.survey_id).await?;
    if let Some(old) = &existing {
        if !overwrite {
            return Ok(refused(
                file_name,
                &row.survey_id,
                format!(
                    "Survey '{}' already exists. Choose Overwrite to replace it.",
                    row.survey_id
                ),
            ));
        }
        if old.error.is_none() {
            if let Some(e) = &row.error {
                return Ok(refused(
                    file_name,
                    &row.survey_id,
                    format!("Survey '{}' was not replaced: {e}", row.survey_id),
                ));
            }
        }
    }
    let text = match &row.error {
        // A valid survey is UTF-8 without NUL (the parser refuses NUL): stored byte for byte.
        None => String::from_utf8_lossy(bytes).into_owned(),
        Some(_) => storable(bytes),
    };
    let new = NewSurvey {
        survey_id: &row.survey_id,
        name: &row.name,
        xml: &text,
        error: row.error.as_deref(),
    };
    let mut tx = state.db.begin().await?;
    let written = store::put(&mut tx, &new, existing.as_ref().map(|o| o.id), now_ms()).await?;
    let how = match written {
        Written::Inserted => "Inserted",
        Written::Replaced => "Replaced",
        Written::Versioned => "Versioned",
    };
    audit::record(
        &mut tx,
        actor,
        Action::SurveyUploaded,
        Target { target_type: Some("SurveyDefinition"), target_id: Some(row.survey_id.clone()), target_user_id: None },
        existing.as_ref().map(|o| json!({ "SurveyId": o.survey_id, "Name": o.name, "Error": o.error, "Assigned": o.assigned })),
        Some(json!({ "SurveyId": row.survey_id, "Name": row.name, "FileName": file_name, "Error": row.error, "Write": how, "Bytes": bytes.len() })),
        Some(ip.to_owned()),
    )
    .await?;
    tx.commit().await?;
    Ok(match row.error {
        None => SurveyUploadFile {
            file_name: file_name.to_owned(),
            survey_id: row.survey_id,
            status: "Uploaded".into(),
            message: MSG_UPLOADED.into(),
        },
        Some(e) => SurveyUploadFile {
            file_name: file_name.to_owned(),
            survey_id: row.survey_id,
            status: "Invalid".into(),
            message: e,
        },
    })
}

/// One file's answer: 200 with the result (Uploaded, or Invalid and listed), 413 above the
/// size cap, 409 for any other refusal (nothing stored).
pub(super) fn single_answer(file: SurveyUploadFile) -> AppResult<Json<SurveyUploadResult>> {
    if file.status == "Refused" {
        if file.message == file_too_large(&file.file_name) {
            return Err(AppError::TooLarge(file.message));
        }
        return Err(AppError::Conflict(file.message));
    }
    Ok(Json(SurveyUploadResult { files: vec![file] }))
}

pub(crate) fn clean_file_name(name: Option<&str>, default: &str) -> String {
    let base = name
        .unwrap_or("")
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or("")
        .trim();
    let cut: String = base.chars().filter(|c| !c.is_control()).take(200).collect();
    if cut.is_empty() {
        default.to_owned()
    } else {
        cut
    }
}

pub(super) async fn upload_xml(
    user: Admin,
    State(state): State<AppState>,
    peer: ClientAddr,
    Upload {
        fields: q,
        file: body,
    }: Upload<SurveyUploadQuery, MAX_FILE_BYTES>,
) -> AppResult<Json<SurveyUploadResult>> {
    let file_name = clean_file_name(q.file_name.as_deref(), "survey.xml");
    let entered = package::clean_entered_name(q.entered_name.as_deref().unwrap_or(""));
    let ip = peer.ip().to_string();
    let by = Uploader {
        state: &state,
        actor: Actor::from(&*user),
        ip: &ip,
    };
    let upload = FileUpload {
        bytes: &body,
        file_name: &file_name,
        entered_name: &entered,
        overwrite: q.overwrite(),
        expected: None,
    };
    let file = store_file(by, upload).await?;
    single_answer(file)
}

pub(super) async fn replace_xml(
    user: Admin,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiPath(survey_id): ApiPath<String>,
    Upload {
        fields: q,
        file: body,
    }: Upload<SurveyUploadQuery, MAX_FILE_BYTES>,
) -> AppResult<Json<SurveyUploadResult>> {
    let Some(old) = store::find(&state.db, &survey_id).await? else {
        return Err(AppError::NotFound);
    };
    let file_name = clean_file_name(q.file_name.as_deref(), &format!("{survey_id}.xml"));
    // A replace keeps the name the survey is listed under unless a new one is entered.
    let entered = q
        .entered_name
        .as_deref()
        .map(package::clean_entered_name)
        .filter(|n| !n.trim().is_empty())
        .unwrap_or(old.name);
    let ip = peer.ip().to_string();
    let by = Uploader {
        state: &state,
        actor: Actor::from(&*user),
        ip: &ip,
    };
    let upload = FileUpload {
        bytes: &body,
        file_name: &file_name,
        entered_name: &entered,
        overwrite: true,
        expected: Some(&survey_id),
    };
    let file = store_file(by, upload).await?;
    single_answer(file)
}

/// The XML files of a package, or why the whole package is refused. Sizes are measured while
/// unpacking (the sizes a zip declares can lie), and nothing is stored before all of it passed.
pub fn read_package(bytes: &[u8]) -> Result<PackageFiles, String> {
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|_| "The file is not a zip package.".to_owned())?;
    if archive.len() > MAX_PACKAGE_FILES {
        return Err(format!(
            "The package holds more than {MAX_PACKAGE_FILES} files."
        ));
    }
    let mut files = Vec::new();
    let mut skipped = Vec::new();
    let mut total = 0usize;
    for i in 0..archive.len() {
        let entry = archive
            .by_index(i)
            .map_err(|e| format!("The package is damaged ({e})."))?;
        let raw_name = String::from_utf8_lossy(entry.name_raw()).into_owned();
        let safe =
            entry.enclosed_name().is_some() && !raw_name.contains('\\') && !raw_name.contains(':');
        if !safe {
            return Err(format!(
                "The package has an unsafe file name: '{}'.",
                raw_name.chars().take(200).collect::<String>()
            ));
        }
        if entry.is_dir() || raw_name.starts_with("__MACOSX/") {
            continue;
        }
        let name = raw_name.rsplit('/').next().unwrap_or("").to_owned();
        if !name.to_ascii_lowercase().ends_with(".xml") {
            skipped.push(refused(
                &raw_name,
                "",
                "Only .xml files are read from a package.".to_owned(),
            ));
            continue;
        }
        if entry.size() > MAX_FILE_BYTES as u64 {
            return Err(format!(
                "{} The package was not stored.",
                file_too_large(&raw_name)
            ));
        }
        let mut buf = Vec::new();
        entry
            .take(MAX_FILE_BYTES as u64 + 1)
            .read_to_end(&mut buf)
            .map_err(|_| format!("The package is damaged: '{raw_name}' cannot be unpacked."))?;
        if buf.len() > MAX_FILE_BYTES {
            return Err(format!(
                "{} The package was not stored.",
                file_too_large(&raw_name)
            ));
        }
        total += buf.len();
        if total > MAX_PACKAGE_UNPACKED {
            return Err(format!(
                "The package unpacks to more than {} MB.",
                MAX_PACKAGE_UNPACKED / (1024 * 1024)
            ));
        }
        files.push((raw_name, buf));
    }
    if files.is_empty() {
        return Err("The package holds no .xml survey files.".to_owned());
    }
    Ok((files, skipped))
}

pub(super) async fn upload_package(
    user: Admin,
    State(state): State<AppState>,
    peer: ClientAddr,
    Upload {
        fields: q,
        file: body,
    }: Upload<SurveyUploadQuery, { crate::BODY_LIMIT }>,
) -> AppResult<Json<SurveyUploadResult>> {
    let (files, mut results) = tokio::task::spawn_blocking(move || read_package(&body))
        .await
        .map_err(AppError::internal)?
        .map_err(AppError::BadRequest)?;
    let ip = peer.ip().to_string();
    let by = Uploader {
        state: &state,
        actor: Actor::from(&*user),
        ip: &ip,
    };
    let mut out = Vec::new();
    for (name, bytes) in files {
        let upload = FileUpload {
            bytes: &bytes,
            file_name: &name,
            entered_name: "",
            overwrite: q.overwrite(),
            expected: None,
        };
        out.push(store_file(by, upload).await?);
    }
    out.append(&mut results);
    Ok(Json(SurveyUploadResult { files: out }))
}
