//! Printing over IPP to a CUPS server (spec 03 §2 pdf-printers), with the `ipp` crate: the queues
//! the server holds (CUPS-Get-Printers) and a letter sent as one Print-Job. The server's address
//! is the DocumentsPdfPrinters PrintServer setting (wasm-core `printers::print_server_base`).
//! Every failure to reach or use the server is a `PrintError` with a sentence for the page, never
//! a server error of the portal.

use std::io::Cursor;
use std::time::Duration;

use ipp::prelude::*;
use wasm_core::model::Printer;
use wasm_core::printers::print_server_base;

/// A print server that is slow to answer must not hold a request for long.
const TIMEOUT: Duration = Duration::from_secs(15);

#[derive(Debug)]
pub struct PrintError(pub String);

fn unreachable(base: &str, e: impl std::fmt::Display) -> PrintError {
    tracing::warn!(print_server = base, error = %e, "print server not usable");
    PrintError(format!(
        "The print server at {base} could not be reached. Check that CUPS is running there and the print server address in the settings."
    ))
}

fn base_of(setting: &str) -> Result<String, PrintError> {
    print_server_base(setting)
        .ok_or_else(|| PrintError("The print server address in the settings is not valid.".into()))
}

fn client(uri: Uri) -> AsyncIppClient {
    AsyncIppClient::builder(uri)
        .request_timeout(TIMEOUT)
        .build()
}

fn text_of(group: &IppAttributeGroup, name: &str) -> String {
    group
        .attributes()
        .get(name)
        .map(|a| a.value().to_string())
        .unwrap_or_default()
}

fn state_of(group: &IppAttributeGroup) -> String {
    match group
        .attributes()
        .get(IppAttribute::PRINTER_STATE)
        .map(IppAttribute::value)
    {
        Some(IppValue::Enum(3)) => "idle",
        Some(IppValue::Enum(4)) => "processing",
        Some(IppValue::Enum(5)) => "stopped",
        _ => "unknown",
    }
    .to_owned()
}

/// The queues of the print server named by `setting`, sorted by name.
pub async fn available(setting: &str) -> Result<Vec<Printer>, PrintError> {
    let base = base_of(setting)?;
    let uri: Uri = format!("{base}/")
        .parse()
        .map_err(|e| unreachable(&base, e))?;
    let op = IppOperationBuilder::cups().get_printers();
    let response = client(uri)
        .send(op)
        .await
        .map_err(|e| unreachable(&base, e))?;
    let status = response.header().status_code();
    // CUPS answers client-error-not-found when it holds no printer at all.
    if status == StatusCode::ClientErrorNotFound {
        return Ok(Vec::new());
    }
    if !status.is_success() {
        return Err(unreachable(&base, status));
    }
    let mut printers: Vec<Printer> = response
        .attributes()
        .groups_of(DelimiterTag::PrinterAttributes)
        .map(|g| Printer {
            name: text_of(g, IppAttribute::PRINTER_NAME),
            info: text_of(g, IppAttribute::PRINTER_INFO),
            location: text_of(g, "printer-location"),
            state: state_of(g),
        })
        .filter(|p| !p.name.is_empty())
        .collect();
    printers.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(printers)
}

/// Sends `pdf` to queue `printer` as one Print-Job; the server's job id.
pub async fn print_pdf(
    setting: &str,
    printer: &str,
    user_name: &str,
    job_title: &str,
    pdf: Vec<u8>,
) -> Result<i32, PrintError> {
    let base = base_of(setting)?;
    // The name passed wasm-core's printer-name rule: nothing in it changes the path.
    let uri: Uri = format!("{base}/printers/{printer}")
        .parse()
        .map_err(|e| unreachable(&base, e))?;
    let op = IppOperationBuilder::print_job(uri.clone(), IppPayload::new(Cursor::new(pdf)))
        .user_name(user_name)
        .job_title(job_title)
        .document_format("application/pdf")
        .build();
    let response = client(uri)
        .send(op)
        .await
        .map_err(|e| unreachable(&base, e))?;
    let status = response.header().status_code();
    if !status.is_success() {
        tracing::warn!(printer, %status, "print job refused");
        return Err(PrintError(match status {
            StatusCode::ClientErrorNotFound => {
                format!("The printer {printer} is not on the print server any more.")
            }
            StatusCode::ServerErrorNotAcceptingJobs => {
                format!("The printer {printer} is not accepting jobs.")
            }
            _ => format!("The print server refused the job ({status})."),
        }));
    }
    let job_id = response
        .attributes()
        .groups_of(DelimiterTag::JobAttributes)
        .find_map(|g| {
            match g
                .attributes()
                .get(IppAttribute::JOB_ID)
                .map(IppAttribute::value)
            {
                Some(IppValue::Integer(id)) => Some(*id),
                _ => None,
            }
        })
        .unwrap_or(0);
    Ok(job_id)
}
