//! PDF forms of the technologists' tablet app (spec 04 §2 "pdf-forms | a list only; its contents
//! are not shown"). The portal keeps the list (name, file, pages, size, who uploaded it when) and
//! the files; the tablet app reads the list from GET /api/techpad/configuration and downloads a
//! form to fill in (consent, screening). The server adds what only it can check: that the bytes
//! are a PDF (lopdf reads it and counts its pages) and that no other form has the name.

use crate::validation::is_blank;
use crate::ValidationErrors;

/// Largest form file: the server's request-body limit (1 MiB), so every refusal of a large file
/// is this rule's message rather than a bare 413.
pub const PDF_FORM_MAX_BYTES: u64 = 1024 * 1024;
/// Longest form name.
pub const PDF_FORM_NAME_MAX: usize = 100;
/// Longest file name kept.
pub const PDF_FORM_FILE_NAME_MAX: usize = 255;

pub const NAME_REQUIRED: &str = "Name is required";
pub const FILE_REQUIRED: &str = "Choose a PDF file";
pub const FILE_TOO_LARGE: &str = "The file is larger than 1 MB.";
pub const NOT_A_PDF: &str = "The file is not a PDF document.";
pub const NO_PAGES: &str = "The PDF has no pages.";
pub const NAME_TAKEN: &str = "A PDF form with this name already exists.";

/// The key two names collide on: trimmed, case folded ('Consent' and ' consent ' are one form).
pub fn name_key(name: &str) -> String {
    name.trim().to_lowercase()
}

/// The upload form's checks, in the browser and again on the server: a name (at most
/// [`PDF_FORM_NAME_MAX`] characters), a file (not empty, at most [`PDF_FORM_MAX_BYTES`]).
/// Fields `Name` and `File`.
pub fn validate_upload(name: &str, file_name: &str, size: u64) -> ValidationErrors {
    let mut e = ValidationErrors::new();
    if !e.check(is_blank(name), "Name", NAME_REQUIRED) {
        e.check(
            name.trim().chars().count() > PDF_FORM_NAME_MAX,
            "Name",
            "Must be at most 100 characters",
        );
    }
    if !e.check(size == 0 || is_blank(file_name), "File", FILE_REQUIRED) {
        e.check(size > PDF_FORM_MAX_BYTES, "File", FILE_TOO_LARGE);
        e.check(
            file_name.chars().count() > PDF_FORM_FILE_NAME_MAX,
            "File",
            "The file name is longer than 255 characters.",
        );
    }
    e
}

/// A size as the list shows it: bytes below 1 KB, else KB or MB with one decimal.
pub fn format_size(bytes: u64) -> String {
    const KB: f64 = 1024.0;
    let b = bytes as f64;
    if b < KB {
        format!("{bytes} B")
    } else if b < KB * KB {
        format!("{:.1} KB", b / KB)
    } else {
        format!("{:.1} MB", b / KB / KB)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upload_rules() {
        assert!(validate_upload("Consent", "consent.pdf", 2_000).is_valid());
        let e = validate_upload("  ", "consent.pdf", 2_000);
        assert_eq!(e.field("Name"), [NAME_REQUIRED]);
        let e = validate_upload(&"n".repeat(101), "a.pdf", 1);
        assert_eq!(e.field("Name"), ["Must be at most 100 characters"]);
        assert!(validate_upload(&"n".repeat(100), "a.pdf", 1).is_valid());
        assert_eq!(validate_upload("A", "", 0).field("File"), [FILE_REQUIRED]);
        assert_eq!(
            validate_upload("A", "a.pdf", 0).field("File"),
            [FILE_REQUIRED]
        );
        assert!(validate_upload("A", "a.pdf", PDF_FORM_MAX_BYTES).is_valid());
        assert_eq!(
            validate_upload("A", "a.pdf", PDF_FORM_MAX_BYTES + 1).field("File"),
            [FILE_TOO_LARGE]
        );
    }

    #[test]
    fn names_collide_without_case_or_spaces() {
        assert_eq!(name_key(" Consent Form "), name_key("consent form"));
        assert_ne!(name_key("Consent"), name_key("Screening"));
    }

    #[test]
    fn sizes_read_as_people_say_them() {
        assert_eq!(format_size(512), "512 B");
        assert_eq!(format_size(2_048), "2.0 KB");
        assert_eq!(format_size(1_572_864), "1.5 MB");
    }
}
