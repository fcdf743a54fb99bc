//! Dynamic Labels export and re-import for a human translator, second format (issue 21): XLIFF
//! 1.2, which translation tools (CAT tools) read and write. One `<trans-unit>` per label: `id`
//! the key, `extradata="revision:N"` the label's revision when exported (a label changed since is
//! refused, as with CSV), `<source>` the English text, `<target>` the translation (left out or
//! empty: the current text is kept), `<note>` the translator's context. Read with the survey
//! definitions' XML reader (no DTD, no external entities, capped), under the CSV format's limits.

use crate::label_transfer::{ExportRow, ImportRow, IMPORT_MAX_BYTES, IMPORT_MAX_ROWS};
use crate::survey::xml::{self, Element, Node};

pub const XLIFF_NAMESPACE: &str = "urn:oasis:names:tc:xliff:document:1.2";
pub const NOT_XLIFF: &str =
    "The file must be an XLIFF 1.2 document (<xliff version=\"1.2\">) as the portal exports it";
pub const NO_UNITS: &str = "The file has no <trans-unit>: check it is the exported file";

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            _ => out.push(c),
        }
    }
    out
}

/// The XLIFF 1.2 file of `rows` for the translated language `code` (source language English).
pub fn to_xliff(rows: &[ExportRow], code: &str) -> String {
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xliff version=\"1.2\" xmlns=\"{XLIFF_NAMESPACE}\">\n  <file original=\"portal-labels\" datatype=\"plaintext\" source-language=\"en\" target-language=\"{}\">\n    <body>\n",
        escape(code)
    );
    for r in rows {
        let state = if r.translation.is_empty() {
            "needs-translation"
        } else {
            "translated"
        };
        out.push_str(&format!(
            "      <trans-unit id=\"{}\" extradata=\"revision:{}\">\n        <source>{}</source>\n        <target state=\"{state}\">{}</target>\n        <note>{}</note>\n      </trans-unit>\n",
            escape(r.key),
            r.revision,
            escape(r.english),
            escape(r.translation),
            escape(r.context),
        ));
    }
    out.push_str("    </body>\n  </file>\n</xliff>\n");
    out
}

/// An element's name without its namespace prefix (a tool may write `x:trans-unit`).
fn local(e: &Element) -> &str {
    e.name.rsplit(':').next().unwrap_or(&e.name)
}

fn units<'a>(e: &'a Element, out: &mut Vec<&'a Element>) {
    for child in e.elements() {
        if local(child) == "trans-unit" {
            out.push(child);
        } else {
            units(child, out);
        }
    }
}

/// The rows of an imported XLIFF file for the language `code`, or a message per bad unit
/// (nothing is stored then). Messages name the line as the CSV ones do.
pub fn read_xliff(text: &str, code: &str) -> Result<Vec<ImportRow>, Vec<String>> {
    let root = xml::parse_with_limits(text, IMPORT_MAX_BYTES, 8 * IMPORT_MAX_ROWS + 16)
        .map_err(|e| vec![format!("Line {}: {}", e.line, e.message)])?;
    if local(&root) != "xliff" || root.attr("version") != Some("1.2") {
        return Err(vec![NOT_XLIFF.to_owned()]);
    }
    let mut errors = Vec::new();
    for file in root.elements().filter(|e| local(e) == "file") {
        match file.attr("target-language") {
            Some(t)
                if !t.eq_ignore_ascii_case(code)
                    && !t.to_ascii_lowercase().starts_with(&format!("{code}-")) =>
            {
                errors.push(format!(
                    "Line {}: the file is for the language {t}, not {code}: choose its language or export again",
                    file.line
                ));
            }
            _ => {}
        }
    }
    let mut found = Vec::new();
    units(&root, &mut found);
    if found.is_empty() && errors.is_empty() {
        return Err(vec![NO_UNITS.to_owned()]);
    }
    if found.len() > IMPORT_MAX_ROWS {
        return Err(vec![crate::label_transfer::TOO_MANY_ROWS.to_owned()]);
    }
    let mut out: Vec<ImportRow> = Vec::new();
    for unit in found {
        let line = unit.line as usize;
        let Some(key) = unit.attr("id").map(str::trim).filter(|k| !k.is_empty()) else {
            errors.push(format!(
                "Line {line}: a <trans-unit> has no id (the label's key)"
            ));
            continue;
        };
        let revision = unit
            .attr("extradata")
            .and_then(|x| x.trim().strip_prefix("revision:"))
            .and_then(|n| n.trim().parse::<i64>().ok());
        let Some(revision) = revision else {
            errors.push(format!(
                "Line {line} ({key}): extradata must be the exported revision (revision:N)"
            ));
            continue;
        };
        let target = unit.elements().find(|e| local(e) == "target");
        if target.is_some_and(|t| t.children.iter().any(|n| matches!(n, Node::Element(_)))) {
            errors.push(format!(
                "Line {line} ({key}): labels are plain text: remove the inline markup in <target>"
            ));
            continue;
        }
        if out.iter().any(|o| o.key.eq_ignore_ascii_case(key)) {
            errors.push(format!(
                "Line {line} ({key}): this key is in the file twice"
            ));
            continue;
        }
        out.push(ImportRow {
            line,
            key: key.to_owned(),
            revision,
            translation: target.map(Element::text).unwrap_or_default(),
        });
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows() -> Vec<ExportRow<'static>> {
        vec![
            ExportRow {
                key: "A",
                revision: 0,
                context: "Portal <login> & \"home\"",
                english: "Hello {name} & <you>",
                translation: "Hola {name} & <tú>",
            },
            ExportRow {
                key: "B",
                revision: 3,
                context: "",
                english: "Bye",
                translation: "",
            },
        ]
    }

    #[test]
    fn round_trip_escapes_and_keeps_revisions() {
        let file = to_xliff(&rows(), "es");
        assert!(
            file.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xliff version=\"1.2\"")
        );
        assert!(file.contains("<source>Hello {name} &amp; &lt;you&gt;</source>"));
        assert!(file.contains("<target state=\"needs-translation\"></target>"));
        let read = read_xliff(&file, "es").unwrap();
        assert_eq!(
            read,
            vec![
                ImportRow {
                    line: 5,
                    key: "A".into(),
                    revision: 0,
                    translation: "Hola {name} & <tú>".into()
                },
                ImportRow {
                    line: 10,
                    key: "B".into(),
                    revision: 3,
                    translation: String::new()
                },
            ]
        );
    }

    #[test]
    fn a_translation_tool_s_rewrite_is_read() {
        // Prefixed names, a group, a missing target, a region tag for the language.
        let file = "\u{feff}<x:xliff version=\"1.2\" xmlns:x=\"urn:oasis:names:tc:xliff:document:1.2\"><x:file target-language=\"km-KH\"><x:body><x:group>\
            <x:trans-unit id=\"A\" extradata=\"revision:2\"><x:source>Hi</x:source><x:target>សួស្តី</x:target></x:trans-unit>\
            <x:trans-unit id=\"B\" extradata=\"revision:0\"><x:source>Bye</x:source></x:trans-unit></x:group></x:body></x:file></x:xliff>";
        let read = read_xliff(file, "km").unwrap();
        assert_eq!(read[0].translation, "សួស្តី");
        assert_eq!(
            (read[1].key.as_str(), read[1].translation.as_str()),
            ("B", "")
        );
    }

    #[test]
    fn bad_files_and_units_are_named() {
        assert_eq!(
            read_xliff("<xliff version=\"2.0\"/>", "es"),
            Err(vec![NOT_XLIFF.to_owned()])
        );
        assert_eq!(read_xliff("Key,Revision\n", "es").unwrap_err().len(), 1);
        assert_eq!(
            read_xliff("<xliff version=\"1.2\"><file/></xliff>", "es"),
            Err(vec![NO_UNITS.to_owned()])
        );
        let doctype =
            "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY e \"boom\">]><xliff version=\"1.2\"/>";
        assert!(read_xliff(doctype, "es").unwrap_err()[0].starts_with("Line 1: "));
        let file = "<xliff version=\"1.2\"><file target-language=\"vi\"><body>\n\
            <trans-unit extradata=\"revision:1\"><target>x</target></trans-unit>\n\
            <trans-unit id=\"K\"><target>x</target></trans-unit>\n\
            <trans-unit id=\"M\" extradata=\"revision:1\"><target>a <g id=\"1\">b</g></target></trans-unit>\n\
            <trans-unit id=\"D\" extradata=\"revision:1\"/>\n\
            <trans-unit id=\"d\" extradata=\"revision:1\"/>\n\
            </body></file></xliff>";
        assert_eq!(
            read_xliff(file, "es").unwrap_err(),
            vec![
                "Line 1: the file is for the language vi, not es: choose its language or export again".to_owned(),
                "Line 2: a <trans-unit> has no id (the label's key)".to_owned(),
                "Line 3 (K): extradata must be the exported revision (revision:N)".to_owned(),
                "Line 4 (M): labels are plain text: remove the inline markup in <target>".to_owned(),
                "Line 6 (d): this key is in the file twice".to_owned(),
            ]
        );
        let huge = format!(
            "<xliff version=\"1.2\">{}</xliff>",
            " ".repeat(IMPORT_MAX_BYTES)
        );
        assert!(read_xliff(&huge, "es").unwrap_err()[0].contains("larger than 1024 KB"));
    }
}
