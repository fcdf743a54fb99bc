//! Reading the clinical system's letter release tables: dBASE / Visual FoxPro `.dbf` files under
//! MagViewPath, read with the `dbase` crate. The layout (README "Release sync"):
//!
//! - every file in MagViewPath whose name starts with `RELEASE` and ends with `.DBF` (any case),
//!   e.g. `RELEASE.DBF`; rows marked deleted are left out;
//! - columns (names in any case; extra columns are ignored):
//!   `RELID` C (required; the release row's id, unique in its table: the import key with the
//!   table's file name), `MRN` C (required), `FIRSTNAME` C, `LASTNAME` C (a patient the portal
//!   does not know yet is created with them), `LETTERID` C (the clinical system's letter id),
//!   `LETTERTYPE` C (required, e.g. Notification, Recall, ReferringPhysician), `RELDATE` D or T
//!   (required; the release time, in the clinic's time zone; a D column may come with `RELTIME`
//!   C 'HH:MM' or 'HH:MM:SS'), `BIRADS` C (the BI-RADS category, optional), `RSEQ` N or C (the
//!   release sequence, a whole number, optional: re-releases of one letter share it and their
//!   RDate), `PDFPATH` C (required; the letter's PDF, relative to MagViewPath; it must stay
//!   inside it).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use dbase::{FieldValue, Record};

/// The biggest letter PDF imported.
pub const MAX_PDF_BYTES: u64 = 50 * 1024 * 1024;
const REQUIRED: &[&str] = &["RELID", "MRN", "LETTERTYPE", "RELDATE", "PDFPATH"];

/// One release row as read.
#[derive(Debug, Clone)]
pub struct ReleaseRow {
    /// The table's file name, upper case (the import key with `release_id`).
    pub table: String,
    pub release_id: String,
    pub mrn: String,
    pub first_name: String,
    pub last_name: String,
    pub letter_id: String,
    pub letter_type: String,
    pub released_at_ms: i64,
    pub bi_rads: Option<String>,
    /// The release sequence (RSeq), when the table has one for the row.
    pub release_seq: Option<i64>,
    pub pdf_path: String,
    /// Why the row cannot be imported (a required value missing or wrong).
    pub problem: Option<String>,
}

/// What the tables hold: their rows and the tables (or parts) that could not be read.
#[derive(Debug, Default)]
pub struct Scan {
    pub rows: Vec<ReleaseRow>,
    pub errors: Vec<String>,
}

impl Scan {
    /// Every table was read to its end.
    pub fn complete(&self) -> bool {
        self.errors.is_empty()
    }
}

/// Reads every release table under `dir`. Never panics on a malformed file: the crate's panics,
/// if any, are caught and reported as that table's error.
pub fn scan(dir: &Path, offset_minutes: i32) -> Scan {
    let mut out = Scan::default();
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            out.errors.push(format!(
                "MagViewPath '{}' cannot be read: {e}",
                dir.display()
            ));
            return out;
        }
    };
    let mut files: Vec<(String, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().to_uppercase();
            (name.starts_with("RELEASE") && name.ends_with(".DBF")).then(|| (name, e.path()))
        })
        .collect();
    files.sort();
    for (name, path) in files {
        let read = std::panic::catch_unwind(|| read_table(&name, &path, offset_minutes));
        match read {
            Ok((rows, error)) => {
                out.rows.extend(rows);
                out.errors.extend(error);
            }
            Err(_) => out
                .errors
                .push(format!("{name}: not a readable dBASE table")),
        }
    }
    out
}

/// The rows of one table, and its error when it could not be read to its end.
fn read_table(name: &str, path: &Path, offset_minutes: i32) -> (Vec<ReleaseRow>, Option<String>) {
    let mut reader = match dbase::Reader::from_path(path) {
        Ok(r) => r,
        Err(e) => {
            return (
                vec![],
                Some(format!("{name}: not a readable dBASE table ({e})")),
            )
        }
    };
    let columns: HashMap<String, String> = reader
        .fields()
        .iter()
        .map(|f| (f.name().to_uppercase(), f.name().to_owned()))
        .collect();
    let missing: Vec<&str> = REQUIRED
        .iter()
        .copied()
        .filter(|c| !columns.contains_key(*c))
        .collect();
    if !missing.is_empty() {
        return (
            vec![],
            Some(format!("{name}: column(s) {} missing", missing.join(", "))),
        );
    }
    let mut rows = Vec::new();
    for (i, record) in reader.iter_records().enumerate() {
        match record {
            Ok(record) => rows.push(row(name, &columns, &record, offset_minutes)),
            Err(e) => {
                return (
                    rows,
                    Some(format!("{name}: record {} cannot be read ({e})", i + 1)),
                )
            }
        }
    }
    (rows, None)
}

fn row(
    table: &str,
    columns: &HashMap<String, String>,
    record: &Record,
    offset_minutes: i32,
) -> ReleaseRow {
    let value = |col: &str| columns.get(col).and_then(|n| record.get(n));
    let text = |col: &str| match value(col) {
        Some(FieldValue::Character(Some(s))) | Some(FieldValue::Memo(s)) => s.trim().to_owned(),
        Some(FieldValue::Numeric(Some(n))) => format!("{n}"),
        Some(FieldValue::Integer(n)) => n.to_string(),
        _ => String::new(),
    };
    let mut problems = Vec::new();
    let release_id = text("RELID");
    let mrn = text("MRN");
    let letter_type = text("LETTERTYPE");
    let pdf_path = text("PDFPATH");
    for (col, v) in [
        ("RELID", &release_id),
        ("MRN", &mrn),
        ("LETTERTYPE", &letter_type),
        ("PDFPATH", &pdf_path),
    ] {
        if v.is_empty() {
            problems.push(format!("{col} is empty"));
        }
    }
    let local_ms = match value("RELDATE") {
        Some(FieldValue::Date(Some(d))) => {
            let day = i64::from(d.to_unix_days()) * 86_400_000;
            match time_of_day(&text("RELTIME")) {
                Some(t) => Some(day + t),
                None => {
                    problems.push("RELTIME is not HH:MM or HH:MM:SS".to_owned());
                    None
                }
            }
        }
        Some(FieldValue::DateTime(dt)) => Some(dt.to_unix_timestamp() * 1000),
        _ => {
            problems.push("RELDATE is empty".to_owned());
            None
        }
    };
    let bi_rads = Some(text("BIRADS")).filter(|b| !b.is_empty());
    // RSEQ: N, I, B or C holding a whole number; empty is none, anything else the row's problem.
    let whole = |n: f64| (n.fract() == 0.0 && n.abs() < 9e15).then_some(n as i64);
    let release_seq = match value("RSEQ") {
        None
        | Some(FieldValue::Numeric(None))
        | Some(FieldValue::Float(None))
        | Some(FieldValue::Character(None)) => Ok(None),
        Some(FieldValue::Numeric(Some(n)) | FieldValue::Double(n)) => whole(*n).map(Some).ok_or(()),
        Some(FieldValue::Float(Some(n))) => whole(f64::from(*n)).map(Some).ok_or(()),
        Some(FieldValue::Integer(n)) => Ok(Some(i64::from(*n))),
        Some(FieldValue::Character(Some(t))) if t.trim().is_empty() => Ok(None),
        Some(FieldValue::Character(Some(t))) => t.trim().parse::<i64>().map(Some).map_err(|_| ()),
        Some(_) => Err(()),
    }
    .unwrap_or_else(|()| {
        problems.push("RSEQ is not a whole number".to_owned());
        None
    });
    ReleaseRow {
        table: table.to_owned(),
        release_id: release_id.chars().take(64).collect(),
        mrn,
        first_name: text("FIRSTNAME"),
        last_name: text("LASTNAME"),
        letter_id: text("LETTERID"),
        letter_type,
        released_at_ms: local_ms.unwrap_or(0) - i64::from(offset_minutes) * 60_000,
        bi_rads,
        release_seq,
        pdf_path,
        problem: (!problems.is_empty()).then(|| {
            format!(
                "{table} row {}: {}",
                if release_id.is_empty() {
                    "?"
                } else {
                    &release_id
                },
                problems.join("; ")
            )
        }),
    }
}

/// Milliseconds into the day of 'HH:MM' or 'HH:MM:SS'; an empty text is midnight.
fn time_of_day(text: &str) -> Option<i64> {
    if text.is_empty() {
        return Some(0);
    }
    let parts: Vec<&str> = text.split(':').collect();
    if !(2..=3).contains(&parts.len()) {
        return None;
    }
    let n: Vec<i64> = parts
        .iter()
        .map(|p| p.trim().parse::<i64>().ok())
        .collect::<Option<_>>()?;
    let (h, m, s) = (n[0], n[1], n.get(2).copied().unwrap_or(0));
    ((0..24).contains(&h) && (0..60).contains(&m) && (0..60).contains(&s))
        .then_some(((h * 60 + m) * 60 + s) * 1000)
}

/// The letter's PDF: inside `dir`, at most [`MAX_PDF_BYTES`], and a PDF.
pub fn read_pdf(dir: &Path, relative: &str) -> Result<Vec<u8>, String> {
    let base = dir
        .canonicalize()
        .map_err(|e| format!("MagViewPath cannot be read: {e}"))?;
    let path = base
        .join(relative.replace('\\', "/"))
        .canonicalize()
        .map_err(|_| format!("PDF '{relative}' not found"))?;
    if !path.starts_with(&base) {
        return Err(format!("PDF '{relative}' is outside MagViewPath"));
    }
    let meta = std::fs::metadata(&path).map_err(|e| format!("PDF '{relative}': {e}"))?;
    if !meta.is_file() || meta.len() > MAX_PDF_BYTES {
        return Err(format!("PDF '{relative}' is not a file of at most 50 MB"));
    }
    let bytes = std::fs::read(&path).map_err(|e| format!("PDF '{relative}': {e}"))?;
    if !bytes.starts_with(b"%PDF-") {
        return Err(format!("PDF '{relative}' is not a PDF"));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_of_day() {
        assert_eq!(time_of_day(""), Some(0));
        assert_eq!(time_of_day("09:30"), Some(34_200_000));
        assert_eq!(time_of_day("23:59:59"), Some(86_399_000));
        assert_eq!(time_of_day("24:00"), None);
        assert_eq!(time_of_day("9"), None);
        assert_eq!(time_of_day("ab:cd"), None);
    }

    #[test]
    fn a_missing_folder_is_an_error_not_a_panic() {
        let s = scan(Path::new("/nonexistent/relsync"), 0);
        assert!(s.rows.is_empty());
        assert!(s.errors[0].contains("cannot be read"));
    }

    #[test]
    fn garbage_is_reported_by_table() {
        let dir = tempfile_dir();
        std::fs::write(dir.join("RELEASE.DBF"), b"\x03garbage").unwrap();
        let s = scan(&dir, 0);
        assert!(s.rows.is_empty());
        assert_eq!(s.errors.len(), 1);
        assert!(s.errors[0].starts_with("RELEASE.DBF: not a readable dBASE table"));
        std::fs::remove_dir_all(dir).ok();
    }

    fn tempfile_dir() -> PathBuf {
        let dir = std::env::temp_dir().join(format!("relsync-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }
}
