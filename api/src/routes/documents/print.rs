//! Printing a letter (spec 03 §2 pdf-printers): staff send a letter's PDF to one of the enabled
//! printers as a real IPP Print-Job. It is a read of patient data (the PDF leaves the portal), so
//! it is audited with the patient, as a view is.

use super::*;
use wasm_core::model::{PrintLetterRequest, PrintLetterResult};

use crate::auth::Staff;
use crate::printing;

pub(super) async fn print_letter(
    user: RequireRole<Staff>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(body): ApiJson<PrintLetterRequest>,
) -> AppResult<Json<PrintLetterResult>> {
    let (_, printers) = crate::routes::printers::read(&state).await?;
    let printer = body.printer.trim();
    if !printers.enabled_printers.iter().any(|p| p == printer) {
        let mut e = wasm_core::ValidationErrors::new();
        e.add("Printer", "Choose one of the enabled printers");
        return Err(AppError::Validation(e));
    }
    let row = owned_letter(&state, &user, body.access_token.trim()).await?;
    let pdf = match store::stored_pdf(&state.db, row.id).await? {
        Some(pdf) => pdf,
        None => render_letter(&state, &row).await?,
    };
    let job_id = printing::print_pdf(
        &printers.print_server,
        printer,
        &user.username,
        &pdf_file_name(&row),
        pdf,
    )
    .await
    .map_err(|e| AppError::Conflict(e.0))?;
    audit::Entry::new(
        Actor::from(&*user),
        Action::LetterPrinted,
        letter_target(row.id),
    )
    .values(
        None,
        Some(json!({"LetterType": row.letter_type, "Printer": printer, "JobId": job_id})),
    )
    .ip(ip(peer))
    .patient(Some(row.patient_id))
    .write_alone(&state.db)
    .await?;
    Ok(Json(PrintLetterResult {
        printer: printer.to_owned(),
        job_id,
        message: format!("The letter was sent to {printer}."),
    }))
}
