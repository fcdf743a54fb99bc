//! PDF printers (spec 03 §2 pdf-printers; GET /api/printers/available, GET /api/printers/enabled,
//! PUT /api/printers) and printing a letter to one (POST /api/printers/print).

use crate::wire;

wire! {
    /// A CUPS queue as the print server lists it.
    #[serde(rename_all = "PascalCase")]
    pub struct Printer {
        pub name: String,
        /// CUPS printer-info (its description), may be empty.
        pub info: String,
        pub location: String,
        /// idle, processing or stopped.
        pub state: String,
    }

    /// The print server's queues. When it cannot be reached `Printers` is empty and `Error` says
    /// why (the page shows it; not a server error of the portal).
    #[serde(rename_all = "PascalCase")]
    pub struct AvailablePrinters {
        pub printers: Vec<Printer>,
        pub error: Option<String>,
    }

    /// The enabled printers at the settings version they were read at.
    #[serde(rename_all = "PascalCase")]
    pub struct EnabledPrinters {
        pub version: i64,
        pub printers: Vec<String>,
    }

    /// Saves the enabled list if it is still at `Version` (409 otherwise).
    #[serde(rename_all = "PascalCase")]
    pub struct SavePrinters {
        pub version: i64,
        pub printers: Vec<String>,
    }

    /// Prints one letter (its access token, as the documents page holds it) to an enabled printer.
    #[serde(rename_all = "PascalCase")]
    pub struct PrintLetterRequest {
        pub access_token: String,
        pub printer: String,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct PrintLetterResult {
        pub printer: String,
        /// The print server's job id.
        pub job_id: i32,
        pub message: String,
    }
}
