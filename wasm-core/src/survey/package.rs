//! Survey packages admin (spec 04 "Survey packages"): what the survey list shows for one stored
//! file, and how an upload is named. Native only (the API runs it; not exported to wasm).
//! Meanings of the columns: README.md beside this file, "Survey packages".

use super::definition::{is_id, parse_survey_with, LibrarySet};
use super::{local_text, xml};
use crate::model::SurveyPackageRow;

/// Longest name an admin may enter for an uploaded survey (the name field's `maxLength`, exported
/// as `surveyNameMaxChars`).
pub const ENTERED_NAME_MAX_CHARS: usize = 200;

/// The name entered for an upload as it is stored: control characters (line breaks, NUL ...)
/// dropped, at most [`ENTERED_NAME_MAX_CHARS`] characters.
pub fn clean_entered_name(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_control())
        .take(ENTERED_NAME_MAX_CHARS)
        .collect()
}

/// Largest survey file (the parser's own cap).
pub const MAX_FILE_BYTES: usize = xml::MAX_BYTES;
/// Errors shown in the list's Error column; the rest are counted.
const ERRORS_SHOWN: usize = 3;

/// The storage dictionary: every `table.column` the portal's history storage knows (spec 04's
/// StorageColumnsLookup / schema synchronisation). A question whose `storage` is not here is
/// listed in MissingStorages: its answer is still kept in the survey log, but no storage column
/// receives it. Kept sorted (binary search).
pub const STORAGE_COLUMNS: &[&str] = &[
    "family_history.relatives_json",
    "history.ashkenazi",
    "history.biopsies_json",
    "history.births",
    "history.breast_cancer_age",
    "history.breast_cancer_treatment",
    "history.breastfeeding",
    "history.chest_radiation",
    "history.comments",
    "history.devices",
    "history.discharge_color",
    "history.family_cancer",
    "history.first_birth_age",
    "history.first_period_age",
    "history.genetic_gene",
    "history.genetic_test",
    "history.had_biopsy",
    "history.had_breast_cancer",
    "history.has_implants",
    "history.has_symptoms",
    "history.height_in",
    "history.hormones_now",
    "history.hrt_years",
    "history.implant_date",
    "history.implant_type",
    "history.last_period",
    "history.menopause",
    "history.menopause_age",
    "history.other_cancer",
    "history.other_cancer_type",
    "history.other_imaging",
    "history.pregnant_now",
    "history.prior_mammogram",
    "history.prior_mammogram_date",
    "history.prior_mammogram_place",
    "history.sex_at_birth",
    "history.symptom_other",
    "history.symptom_side",
    "history.symptom_since",
    "history.symptoms",
    "history.weight_lb",
    "mri.claustrophobia",
    "mri.contrast_reaction",
    "mri.egfr",
    "mri.kidney_disease",
    "mri.metal",
    "mri.pacemaker",
    "mri.pregnant",
    "screening.breastfeeding",
    "screening.deodorant_today",
    "screening.implants",
    "screening.last_mammogram_date",
    "screening.new_problem",
    "screening.new_problem_details",
    "screening.new_problem_side",
    "screening.pregnant",
];

/// What a survey is validated against: the uploaded libraries and the synchronised storage
/// schema (`None`: none uploaded / the running portal's [`STORAGE_COLUMNS`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Known<'a> {
    pub libs: Option<&'a LibrarySet>,
    /// Sorted `table.column`s of the last schema synchronisation.
    pub storage: Option<&'a [String]>,
}

/// Storage columns the survey names that the storage dictionary lacks, in order, once each.
pub fn missing_storages(def: &crate::model::SurveyDefinition) -> Vec<String> {
    missing_storages_in(def, None)
}

/// [`missing_storages`] against a synchronised schema (sorted), or the built-in one.
pub fn missing_storages_in(
    def: &crate::model::SurveyDefinition,
    storage: Option<&[String]>,
) -> Vec<String> {
    let known = |c: &str| match storage {
        Some(cols) => cols.binary_search_by(|x| x.as_str().cmp(c)).is_ok(),
        None => STORAGE_COLUMNS.binary_search(&c).is_ok(),
    };
    let mut out: Vec<String> = Vec::new();
    for q in def.pages.iter().flat_map(|p| p.questions.iter()) {
        if !q.storage.is_empty() && !known(&q.storage) && !out.contains(&q.storage) {
            out.push(q.storage.clone());
        }
    }
    out
}

/// "Line N: message; Line M: message (and K more)".
pub fn error_text(errors: &[crate::model::SurveyError]) -> String {
    let mut text = errors
        .iter()
        .take(ERRORS_SHOWN)
        .map(|e| format!("Line {}: {}", e.line, e.message))
        .collect::<Vec<_>>()
        .join("; ");
    if errors.len() > ERRORS_SHOWN {
        text.push_str(&format!(" (and {} more)", errors.len() - ERRORS_SHOWN));
    }
    text
}

/// A file name without folders and extension, cut to an id: what an upload is called when the
/// XML itself names no usable id.
fn id_from_file_name(file_name: &str) -> String {
    let base = file_name.rsplit(['/', '\\']).next().unwrap_or("");
    let stem = base
        .strip_suffix(".xml")
        .or_else(|| base.strip_suffix(".XML"))
        .unwrap_or(base);
    let id: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect();
    if id.is_empty() {
        "unnamed".to_owned()
    } else {
        id
    }
}

/// What the survey list shows for one stored file, and the SurveyId it is stored under. A file
/// that does not parse keeps the id its root element names when that is a valid id, else one
/// made from its file name.
pub fn row_for(xml_text: &str, file_name: &str, entered_name: &str) -> SurveyPackageRow {
    row_for_with(xml_text, file_name, entered_name, Known::default())
}

/// [`row_for`] against the uploaded libraries (MissingLibs: the libraries the survey names that
/// are not among them, README.md "Libraries") and the synchronised storage schema.
pub fn row_for_with(
    xml_text: &str,
    file_name: &str,
    entered_name: &str,
    known: Known,
) -> SurveyPackageRow {
    let (parsed, missing_libs) = parse_survey_with(xml_text, known.libs);
    let entered = entered_name.trim();
    match parsed.survey {
        Some(def) => SurveyPackageRow {
            name: if entered.is_empty() {
                local_text(&def.name, "en")
            } else {
                entered.to_owned()
            },
            missing_storages: missing_storages_in(&def, known.storage),
            missing_libs,
            questions: def.question_count,
            error: None,
            // The standard summary report (issue 5 part 7) is drawn from the definition itself,
            // so every valid survey has one; a file with errors has nothing to draw it from.
            has_standard_summary_report: true,
            survey_id: def.id,
            assigned: 0,
            uploaded_at: 0,
        },
        None => {
            let root_id = xml::parse(xml_text)
                .ok()
                .and_then(|root| root.attr("id").filter(|id| is_id(id)).map(str::to_owned));
            let survey_id = root_id.unwrap_or_else(|| id_from_file_name(file_name));
            SurveyPackageRow {
                name: if entered.is_empty() {
                    id_from_file_name(file_name)
                } else {
                    entered.to_owned()
                },
                survey_id,
                missing_libs,
                missing_storages: Vec::new(),
                questions: 0,
                error: Some(error_text(&parsed.errors)),
                has_standard_summary_report: false,
                assigned: 0,
                uploaded_at: 0,
            }
        }
    }
}

/// A file that is not UTF-8 text, or holds a NUL character (not allowed in XML, and refused by
/// PostgreSQL text), cannot be a survey; its row says so.
pub fn row_for_bytes(
    bytes: &[u8],
    file_name: &str,
    entered_name: &str,
    known: Known,
) -> SurveyPackageRow {
    if let Some(at) = bytes.iter().position(|b| *b == 0) {
        let line = bytes[..at].iter().filter(|b| **b == b'\n').count() as u32 + 1;
        let mut row = row_for("", file_name, entered_name);
        row.error = Some(format!("Line {line}: the file contains a NUL character"));
        return row;
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => row_for_with(text, file_name, entered_name, known),
        Err(e) => {
            let line = bytes[..e.valid_up_to()]
                .iter()
                .filter(|b| **b == b'\n')
                .count() as u32
                + 1;
            let mut row = row_for("", file_name, entered_name);
            row.error = Some(format!("Line {line}: the file is not UTF-8 text"));
            row
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entered_names_are_cleaned_and_bounded() {
        assert_eq!(clean_entered_name(" Intake\n\0form\t"), " Intakeform");
        assert_eq!(clean_entered_name(&"é".repeat(500)).chars().count(), 200);
        assert_eq!(clean_entered_name("😀 Survey"), "😀 Survey");
    }

    const SHIPPED: [&str; 3] = [
        include_str!("../../surveys/breast-imaging-history.xml"),
        include_str!("../../surveys/pre-exam-screening.xml"),
        include_str!("../../surveys/mri-safety-screening.xml"),
    ];

    #[test]
    fn storage_dictionary_is_sorted_and_covers_the_shipped_surveys() {
        assert!(STORAGE_COLUMNS.windows(2).all(|w| w[0] < w[1]));
        for xml_text in SHIPPED {
            let row = row_for(xml_text, "x.xml", "");
            assert_eq!(row.error, None);
            assert!(
                row.missing_storages.is_empty(),
                "{:?}",
                row.missing_storages
            );
            assert!(row.questions > 0 && row.has_standard_summary_report);
        }
    }

    #[test]
    fn unknown_storage_is_listed_once() {
        let x = r#"<survey id="S1"><name>N</name><page id="p"><title>T</title>
            <question id="a" type="text" storage="lab.value"><text>A</text></question>
            <question id="b" type="yesno" storage="history.pregnant_now"><text>B</text></question>
            </page></survey>"#;
        let row = row_for(x, "s.xml", " Entered ");
        assert_eq!(row.survey_id, "S1");
        assert_eq!(row.name, "Entered");
        assert_eq!(row.missing_storages, vec!["lab.value".to_owned()]);
        assert_eq!(row.questions, 2);
    }

    #[test]
    fn invalid_files_keep_their_root_id_or_file_name_and_show_lines() {
        let x = "<survey id=\"BAD-1\">\n<name>N</name>\n<page id=\"p\"><title>T</title>\n<question id=\"q\" type=\"colour\"/></page></survey>";
        let row = row_for(x, "dir/bad.xml", "");
        assert_eq!(row.survey_id, "BAD-1");
        assert_eq!(
            row.error.as_deref(),
            Some("Line 4: 'q' has unknown type 'colour'")
        );
        assert!(!row.has_standard_summary_report);
        let row = row_for("<survey", "my file (2).xml", "");
        assert_eq!(row.survey_id, "my_file__2_");
        assert!(row.error.unwrap().starts_with("Line 1: "));
        let row = row_for_bytes(b"<a>\n\xff</a>", "b.xml", "", Known::default());
        assert_eq!(
            row.error.as_deref(),
            Some("Line 2: the file is not UTF-8 text")
        );
        let with_nul = "<survey id=\"N\"><name>A\n\0</name></survey>".to_string();
        let row = row_for_bytes(with_nul.as_bytes(), "n.xml", "", Known::default());
        assert_eq!(
            row.error.as_deref(),
            Some("Line 2: the file contains a NUL character")
        );
        assert_eq!(row.survey_id, "n");
    }

    #[test]
    fn library_lists_give_options_and_missing_libraries_are_listed() {
        let x = r#"<survey id="L1"><name>N</name><page id="p"><title>T</title>
            <question id="side" type="single" storage="history.symptom_side" library="common" list="sides"><text>Side?</text></question>
            <question id="more" type="multiple" storage="history.symptoms" library="extra" list="x"><text>More?</text></question>
            </page></survey>"#;
        let row = row_for(x, "l.xml", "");
        assert_eq!(row.error, None);
        assert_eq!(
            row.missing_libs,
            vec!["common".to_owned(), "extra".to_owned()]
        );
        let lib = r#"<library id="common"><list id="sides">
            <option value="left"><text>Left</text><text lang="es">Izquierdo</text></option>
            <option value="right"><text>Right</text></option></list></library>"#;
        let (id, lists) = crate::survey::parse_library(lib).unwrap();
        let mut set = LibrarySet::new();
        set.insert(id, lists);
        let row = row_for_with(
            x,
            "l.xml",
            "",
            Known {
                libs: Some(&set),
                storage: None,
            },
        );
        assert_eq!(row.missing_libs, vec!["extra".to_owned()]);
        let (parsed, _) = parse_survey_with(x, Some(&set));
        let def = parsed.survey.unwrap();
        assert_eq!(def.pages[0].questions[0].options.len(), 2);
        // A library that is there but lacks the list: an error on the question's line.
        let y = x.replace("list=\"sides\"", "list=\"nope\"");
        let row = row_for_with(
            &y,
            "l.xml",
            "",
            Known {
                libs: Some(&set),
                storage: None,
            },
        );
        assert_eq!(
            row.error.as_deref(),
            Some("Line 2: library 'common' has no list 'nope'")
        );
    }

    #[test]
    fn bad_libraries_are_refused_with_their_line() {
        let errs = crate::survey::parse_library("<library id=\"a\">\n<list id=\"l\"/>\n</library>")
            .unwrap_err();
        assert_eq!(errs[0].line, 2);
        assert_eq!(errs[0].message, "list 'l' needs at least one <option>");
        let errs = crate::survey::parse_library("<survey id=\"a\"/>").unwrap_err();
        assert!(errs[0].message.contains("must be <library>"));
    }
}
