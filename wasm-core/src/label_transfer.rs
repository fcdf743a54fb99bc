//! Dynamic Labels export and re-import for a human translator (issue 21): the CSV format (RFC
//! 4180, UTF-8; a byte-order mark is accepted) and the checks every imported row passes. The API
//! adds what needs the database (known keys, revisions).

use crate::labels::{has_markup, LABEL_TEXT_MAX};

/// The columns, in order. Revision: the label's stored revision when exported (0: never saved),
/// so a label changed since is refused (409). Context: the translator's note (title, category).
pub const CSV_HEADER: [&str; 5] = ["Key", "Revision", "Context", "English", "Translation"];
/// A file larger than this is refused before it is read (the API refuses a larger request body
/// anyway: 413).
pub const IMPORT_MAX_BYTES: usize = 1024 * 1024;
/// At most this many rows.
pub const IMPORT_MAX_ROWS: usize = 10_000;

pub const FILE_TOO_LARGE: &str =
    "The file is larger than 1 MB: split it or check it is the exported file";
pub const TOO_MANY_ROWS: &str = "The file has more than 10000 rows";
pub const BAD_HEADER: &str =
    "The first row must be the exported header: Key, Revision, Context, English, Translation";
pub const UNCLOSED_QUOTE: &str = "A quoted field is not closed (a \" is missing)";

/// One field for CSV: quoted when it holds a comma, a quote or a line break.
fn field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// One exported row.
pub struct ExportRow<'a> {
    pub key: &'a str,
    pub revision: i64,
    pub context: &'a str,
    pub english: &'a str,
    pub translation: &'a str,
}

/// The CSV file of `rows` (CRLF line ends, as RFC 4180 and spreadsheets expect).
pub fn to_csv(rows: &[ExportRow]) -> String {
    let mut out = CSV_HEADER.join(",");
    out.push_str("\r\n");
    for r in rows {
        let fields = [
            field(r.key),
            r.revision.to_string(),
            field(r.context),
            field(r.english),
            field(r.translation),
        ];
        out.push_str(&fields.join(","));
        out.push_str("\r\n");
    }
    out
}

/// The records of a CSV text (RFC 4180: quoted fields may hold commas, quotes and line breaks),
/// each with the line it starts on; or why it cannot be read.
pub fn parse_csv(text: &str) -> Result<Vec<(usize, Vec<String>)>, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut records = Vec::new();
    let mut record: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut line = 1;
    let mut start = 1;
    let mut chars = text.chars().peekable();
    let mut any = false;
    while let Some(c) = chars.next() {
        any = true;
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    cur.push('"');
                }
                '"' => quoted = false,
                '\n' => {
                    line += 1;
                    cur.push(c);
                }
                _ => cur.push(c),
            }
            continue;
        }
        match c {
            '"' if cur.is_empty() => quoted = true,
            ',' => record.push(std::mem::take(&mut cur)),
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' | '\r' => {
                record.push(std::mem::take(&mut cur));
                records.push((start, std::mem::take(&mut record)));
                line += 1;
                start = line;
                any = false;
            }
            _ => cur.push(c),
        }
    }
    if quoted {
        return Err(format!("Line {start}: {UNCLOSED_QUOTE}"));
    }
    if any || !record.is_empty() {
        record.push(cur);
        records.push((start, record));
    }
    // Blank lines (a trailing one, say) are no rows.
    records.retain(|(_, r)| !(r.len() == 1 && r[0].trim().is_empty()));
    Ok(records)
}

/// One row of an imported file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportRow {
    pub line: usize,
    pub key: String,
    pub revision: i64,
    pub translation: String,
}

/// The rows of an imported file, or a message per bad row (nothing is stored then).
pub fn read_import(text: &str) -> Result<Vec<ImportRow>, Vec<String>> {
    if text.len() > IMPORT_MAX_BYTES {
        return Err(vec![FILE_TOO_LARGE.to_owned()]);
    }
    let records = parse_csv(text).map_err(|e| vec![e])?;
    let Some(((_, header), rows)) = records.split_first() else {
        return Err(vec![BAD_HEADER.to_owned()]);
    };
    let header_ok = header.len() == CSV_HEADER.len()
        && header
            .iter()
            .zip(CSV_HEADER)
            .all(|(h, want)| h.trim().eq_ignore_ascii_case(want));
    if !header_ok {
        return Err(vec![BAD_HEADER.to_owned()]);
    }
    if rows.len() > IMPORT_MAX_ROWS {
        return Err(vec![TOO_MANY_ROWS.to_owned()]);
    }
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (line, r) in rows {
        if r.len() != CSV_HEADER.len() {
            errors.push(format!(
                "Line {line}: expected 5 columns (Key, Revision, Context, English, Translation), found {}",
                r.len()
            ));
            continue;
        }
        let key = r[0].trim().to_owned();
        let Ok(revision) = r[1].trim().parse::<i64>() else {
            errors.push(format!(
                "Line {line} ({key}): Revision must be the exported number"
            ));
            continue;
        };
        if out
            .iter()
            .any(|o: &ImportRow| o.key.eq_ignore_ascii_case(&key))
        {
            errors.push(format!(
                "Line {line} ({key}): this key is in the file twice"
            ));
            continue;
        }
        out.push(ImportRow {
            line: *line,
            key,
            revision,
            translation: r[4].clone(),
        });
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// The distinct `{name}` placeholders of `text`, sorted.
pub fn placeholders(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => {
                let name = &after[..close];
                if !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    out.push(name.to_owned());
                }
                rest = &after[close + 1..];
            }
            None => break,
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The messages of a row's translation against its label's English text (empty: fine).
pub fn check_translation(row: &ImportRow, english: &str) -> Vec<String> {
    let mut out = Vec::new();
    let at = format!("Line {} ({})", row.line, row.key);
    if has_markup(&row.translation) {
        out.push(format!(
            "{at}: labels are plain text: remove the markup (text between < and >)"
        ));
    }
    if row.translation.chars().count() > LABEL_TEXT_MAX {
        out.push(format!(
            "{at}: a label must be at most {LABEL_TEXT_MAX} characters"
        ));
    }
    let want = placeholders(english);
    let got = placeholders(&row.translation);
    if !row.translation.trim().is_empty() && want != got {
        let list = |v: &[String]| {
            if v.is_empty() {
                "none".to_owned()
            } else {
                v.iter()
                    .map(|n| format!("{{{n}}}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        out.push(format!(
            "{at}: the placeholders must be the English ones ({}), found {}",
            list(&want),
            list(&got)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_with_commas_quotes_and_line_breaks() {
        let rows = [
            ExportRow {
                key: "A",
                revision: 0,
                context: "Portal, login",
                english: "Hello {name}",
                translation: "Hola {name}",
            },
            ExportRow {
                key: "B",
                revision: 3,
                context: "",
                english: "Say \"hi\"\nnow",
                translation: "",
            },
        ];
        let csv = to_csv(&rows);
        let read = read_import(&csv).unwrap();
        assert_eq!(read.len(), 2);
        assert_eq!(read[0].translation, "Hola {name}");
        assert_eq!(
            (read[1].key.as_str(), read[1].revision, read[1].line),
            ("B", 3, 3)
        );
        let records = parse_csv(&csv).unwrap();
        assert_eq!(records[2].1[3], "Say \"hi\"\nnow");
    }

    #[test]
    fn bad_files_and_rows_are_named() {
        assert_eq!(read_import("x,y\r\n"), Err(vec![BAD_HEADER.to_owned()]));
        assert_eq!(read_import(""), Err(vec![BAD_HEADER.to_owned()]));
        let e = read_import("Key,Revision,Context,English,Translation\nA,zz,,,\nB,1,,\n\"C,1")
            .unwrap_err();
        assert_eq!(e, vec![format!("Line 4: {UNCLOSED_QUOTE}")]);
        let e =
            read_import("Key,Revision,Context,English,Translation\nA,zz,,,\nB,1,,\nA,1,,,\nA,1,,,")
                .unwrap_err();
        assert_eq!(e[0], "Line 2 (A): Revision must be the exported number");
        assert!(e[1].starts_with("Line 3: expected 5 columns"), "{e:?}");
        assert_eq!(e.len(), 3, "{e:?}");
        assert_eq!(
            read_import(&"x".repeat(IMPORT_MAX_BYTES + 1)),
            Err(vec![FILE_TOO_LARGE.to_owned()])
        );
        let row = |t: &str| ImportRow {
            line: 2,
            key: "K".into(),
            revision: 0,
            translation: t.into(),
        };
        assert!(check_translation(&row("Hola {name}"), "Hi {name}").is_empty());
        assert_eq!(
            check_translation(&row("Hola {nombre}"), "Hi {name}"),
            vec!["Line 2 (K): the placeholders must be the English ones ({name}), found {nombre}"]
        );
        assert_eq!(
            check_translation(&row("<b>Hola</b>"), "Hi"),
            vec!["Line 2 (K): labels are plain text: remove the markup (text between < and >)"]
        );
        assert!(
            check_translation(&row(""), "Hi {name}").is_empty(),
            "empty: kept as it is"
        );
    }
}
