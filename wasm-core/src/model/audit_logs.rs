//! Audit Logs (spec 01 §2.7, §3 "Portal audit entry" and "Audit columns", §7): the six tabs'
//! requests and rows, the patient typeahead and the study list, and the patient's own list of
//! staff accesses to their record (issue 15).

use crate::model::TableRequest;
use crate::wire;

wire! {
    /// POST /api/PortalAudit/datatables (Patient Logs): the table state plus the patient (MRN,
    /// required), the study date (MM/DD/YYYY or ISO date; empty = every study) and the log date
    /// range (ISO instants; either may be empty).
    #[serde(rename_all = "PascalCase")]
    pub struct PatientAuditRequest {
        #[serde(flatten)]
        pub table: TableRequest,
        #[serde(default, alias = "patient")]
        pub patient: String,
        #[serde(default, alias = "sdate")]
        pub sdate: Option<String>,
        #[serde(default, alias = "dateFrom")]
        pub date_from: Option<String>,
        #[serde(default, alias = "dateTo")]
        pub date_to: Option<String>,
    }

    /// One field of an entry's Body: its name, its old and new values as the Field Name / From /
    /// To table shows them (a nested object or list shows as 'Object'), and the full values for
    /// the Old Value / New Value panels (pretty JSON; empty when absent).
    #[serde(rename_all = "PascalCase")]
    pub struct AuditField {
        pub name: String,
        pub from: String,
        pub to: String,
        pub old_value: String,
        pub new_value: String,
    }

    /// A Patient Logs row: a portal audit entry (spec 01 §3) about one patient.
    #[serde(rename_all = "PascalCase")]
    pub struct PortalAuditEntry {
        pub id: i64,
        /// The study date of the entry's study, MM/DD/YYYY; empty when it concerns none.
        #[serde(rename = "SDate")]
        pub sdate: String,
        /// The action.
        pub name: String,
        /// Who did it (`real (as impersonated)` when impersonating).
        pub user_name: String,
        /// ISO instant (UTC); the page shows 'MM/DD/YYYY, hh:mm:ss A'.
        pub created_at: String,
        pub target_user_id: Option<i64>,
        pub target_user_name: String,
        pub patient_name: String,
        pub ssn: String,
        pub outcome: String,
        pub client_address: String,
        /// The fields of the entry's Body, old and new.
        pub body: Vec<AuditField>,
    }

    /// POST /api/PortalAuditEntryLog/datatables (Portal Audit Logs): the table state plus a
    /// category (empty = every category).
    #[serde(rename_all = "PascalCase")]
    pub struct PortalLogRequest {
        #[serde(flatten)]
        pub table: TableRequest,
        #[serde(default, alias = "category")]
        pub category: Option<String>,
    }

    /// A Portal Audit Logs or Techpad Logs row (spec 01 §3 "Portal log and techpad log").
    #[serde(rename_all = "PascalCase")]
    pub struct PortalLogRow {
        pub id: i64,
        pub created_at: String,
        pub category: String,
        pub name: String,
        pub description: String,
        pub status_with_description: String,
        pub user_id: Option<i64>,
        pub user_name: String,
    }

    /// A MagView Audit Logs row (spec 01 §3): what the portal changed in clinical records.
    #[serde(rename_all = "PascalCase")]
    pub struct MagViewAuditRow {
        pub id: i64,
        pub date: String,
        #[serde(rename = "Type")]
        pub kind: String,
        pub user: String,
        pub login: String,
        #[serde(rename = "SDate")]
        pub sdate: String,
        pub ssn: String,
        pub details: String,
    }

    /// An Error Logs row (spec 01 §3): an ERROR event of the server.
    #[serde(rename_all = "PascalCase")]
    pub struct ErrorLogRow {
        pub id: i64,
        /// The error id the 500 dialog showed (empty for an error outside a request).
        pub error_id: String,
        pub event_date_time: String,
        pub event_level: String,
        pub event_message: String,
        pub request_url: String,
        pub error_method: String,
        pub error_class: String,
    }

    /// An Email Logs row (spec 01 §3), from the outbox; the text of a message that carried a
    /// secret is withheld.
    #[serde(rename_all = "PascalCase")]
    pub struct EmailLogRow {
        pub id: i64,
        pub date: String,
        #[serde(rename = "Type")]
        pub kind: String,
        pub message: String,
        pub method: String,
        pub to: String,
        pub is_sent: bool,
    }

    /// GET /magview.api/patient/search?search= (spec 01 §3 "Patient search result").
    #[serde(rename_all = "PascalCase")]
    pub struct PatientSearchResult {
        pub ssn: String,
        pub first_name: String,
        pub last_name: String,
    }

    /// The query of GET /magview.api/patient/search.
    pub struct PatientSearchQuery {
        #[serde(default)]
        pub search: String,
    }

    /// The query of GET /api/tests/GetStudies (`q` is accepted and unused, as the spec's call
    /// sends it empty).
    pub struct StudiesQuery {
        #[serde(default)]
        pub q: String,
        #[serde(default)]
        pub ssn: String,
    }

    /// GET /api/tests/GetStudies?q=&ssn=: one study of the chosen patient.
    #[serde(rename_all = "PascalCase")]
    pub struct StudyDate {
        pub id: i64,
        /// MM/DD/YYYY.
        #[serde(rename = "Sdate")]
        pub sdate: String,
        pub description: String,
    }

    /// GET /api/account/recordAccesses: a staff access to the signed-in patient's own record.
    #[serde(rename_all = "PascalCase")]
    pub struct RecordAccess {
        pub id: i64,
        pub date: String,
        /// Who (the staff member's name; the real user when impersonating).
        pub user_name: String,
        pub role: String,
        /// What: letter opened, survey viewed, record opened ...
        pub what: String,
    }
}

/// The Patient Logs filter (spec 01 §5): Apply does nothing while no patient is chosen.
pub fn patient_log_filter_ready(patient: &str) -> bool {
    !patient.trim().is_empty()
}

/// The patient typeahead (spec 01 §5, §9): the staff start's rule (3 characters after
/// trimming); None when the search may run, else 'Please enter 3 or more characters'.
pub fn patient_search_error(text: &str) -> Option<&'static str> {
    crate::survey::staff_start::search_error(text, "", "", "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filter_needs_a_patient_and_the_search_three_characters() {
        assert!(!patient_log_filter_ready("  "));
        assert!(patient_log_filter_ready("100001"));
        assert_eq!(
            patient_search_error(" Do "),
            Some("Please enter 3 or more characters")
        );
        assert_eq!(patient_search_error("Doe"), None);
    }
}
