//! Custom survey report templates (spec 04 "report template upload"): a small line-based text
//! format (README.md beside this file, "Report templates") that chooses which questions a
//! survey's summary PDF shows, in which sections, with which title, header and footer lines.
//! Native only: the API checks uploads and applies the template when it draws the summary.

use crate::model::{QuestionKind, SurveyDefinition, SurveyError};

use super::definition::is_id;
use super::summary::SummarySection;

/// Largest template file.
pub const MAX_TEMPLATE_BYTES: usize = 64 * 1024;
const MAX_LINES: usize = 500;
const MAX_TEXT_CHARS: usize = 200;
const MAX_HEADER_LINES: usize = 4;
const MAX_SECTIONS: usize = 50;
/// Longest template name and result file name pattern.
pub const MAX_NAME_CHARS: usize = 100;

/// Spec 04's report types; the first is the default.
pub const REPORT_TYPES: [&str; 3] = ["CustomSummary", "Custom", "CustomWithImages"];
/// Spec 04's default resultFileNamePattern.
pub const DEFAULT_FILE_NAME_PATTERN: &str = "Summary_<SSN>_<DATE>_<GUID>";
/// Tokens of title, header and footer lines.
pub const TEXT_TOKENS: [&str; 4] = ["<PATIENT>", "<MRN>", "<DATE>", "<SURVEY>"];
const FILE_NAME_TOKENS: [&str; 3] = ["<SSN>", "<DATE>", "<GUID>"];

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateSection {
    pub title: String,
    /// The line of its `section:`.
    pub line: u32,
    /// Question ids with the line that names them.
    pub questions: Vec<(String, u32)>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ReportTemplate {
    pub survey_id: String,
    /// The line of `survey:` (for errors about the survey itself).
    pub survey_line: u32,
    pub title: Option<String>,
    pub header: Vec<String>,
    pub footer: Option<String>,
    pub sections: Vec<TemplateSection>,
}

fn err(line: u32, message: impl Into<String>) -> SurveyError {
    SurveyError {
        line,
        message: message.into(),
    }
}

/// A `<...>` in a text that is not one of `allowed`.
fn unknown_token(text: &str, allowed: &[&str]) -> Option<String> {
    let mut rest = text;
    while let Some(at) = rest.find('<') {
        let tail = &rest[at..];
        match tail.find('>') {
            Some(end) => {
                let token = &tail[..=end];
                if !allowed.contains(&token) {
                    return Some(token.to_owned());
                }
                rest = &tail[end + 1..];
            }
            None => return Some(tail.chars().take(20).collect()),
        }
    }
    None
}

/// Reads a template; every problem is reported with its line (a template with any is refused).
pub fn parse_template(src: &str) -> Result<ReportTemplate, Vec<SurveyError>> {
    let mut errors = Vec::new();
    let mut t = ReportTemplate::default();
    let mut survey_line = None;
    for (i, raw) in src.lines().enumerate() {
        let line = i as u32 + 1;
        if i >= MAX_LINES {
            errors.push(err(
                line,
                format!("a template has at most {MAX_LINES} lines"),
            ));
            break;
        }
        let text = raw.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let Some((key, value)) = text.split_once(':') else {
            errors.push(err(line, "expected 'key: value' (or a # comment)"));
            continue;
        };
        let (key, value) = (key.trim(), value.trim());
        if value.chars().count() > MAX_TEXT_CHARS && key != "questions" {
            errors.push(err(
                line,
                format!("'{key}' is longer than {MAX_TEXT_CHARS} characters"),
            ));
            continue;
        }
        if value.chars().any(char::is_control) {
            errors.push(err(line, "control characters are not allowed"));
            continue;
        }
        match key {
            "survey" => {
                if survey_line.is_some() {
                    errors.push(err(line, "'survey' appears twice"));
                } else if !is_id(value) {
                    errors.push(err(
                        line,
                        format!(
                            "survey id '{value}' must be 1-64 letters, digits, '_', '-' or '.'"
                        ),
                    ));
                } else {
                    t.survey_id = value.to_owned();
                    t.survey_line = line;
                }
                survey_line = Some(line);
            }
            "title" | "header" | "footer" => {
                if let Some(token) = unknown_token(value, &TEXT_TOKENS) {
                    errors.push(err(
                        line,
                        format!(
                            "unknown token '{token}' (use <PATIENT>, <MRN>, <DATE> or <SURVEY>)"
                        ),
                    ));
                    continue;
                }
                match key {
                    "title" if t.title.is_some() => errors.push(err(line, "'title' appears twice")),
                    "title" => t.title = Some(value.to_owned()),
                    "footer" if t.footer.is_some() => {
                        errors.push(err(line, "'footer' appears twice"))
                    }
                    "footer" => t.footer = Some(value.to_owned()),
                    _ if t.header.len() >= MAX_HEADER_LINES => errors.push(err(
                        line,
                        format!("at most {MAX_HEADER_LINES} 'header' lines"),
                    )),
                    _ => t.header.push(value.to_owned()),
                }
            }
            "section" => {
                if value.is_empty() {
                    errors.push(err(line, "a section needs a title"));
                } else if t.sections.len() >= MAX_SECTIONS {
                    errors.push(err(line, format!("at most {MAX_SECTIONS} sections")));
                } else {
                    t.sections.push(TemplateSection {
                        title: value.to_owned(),
                        line,
                        questions: Vec::new(),
                    });
                }
            }
            "questions" => {
                let Some(section) = t.sections.last_mut() else {
                    errors.push(err(line, "'questions' before any 'section'"));
                    continue;
                };
                for id in value.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                    if !is_id(id) {
                        errors.push(err(
                            line,
                            format!(
                                "question id '{}' must be 1-64 letters, digits, '_', '-' or '.'",
                                id.chars().take(64).collect::<String>()
                            ),
                        ));
                    } else {
                        section.questions.push((id.to_owned(), line));
                    }
                }
            }
            other => errors.push(err(
                line,
                format!(
                    "unknown key '{}' (use survey, title, header, footer, section or questions)",
                    other.chars().take(40).collect::<String>()
                ),
            )),
        }
    }
    if src.lines().count() <= MAX_LINES {
        if survey_line.is_none() {
            errors.push(err(1, "the template needs a 'survey: <survey id>' line"));
        }
        if t.sections.is_empty() {
            errors.push(err(1, "the template needs at least one 'section'"));
        }
        for s in &t.sections {
            if s.questions.is_empty() {
                errors.push(err(
                    s.line,
                    format!("section '{}' lists no questions", s.title),
                ));
            }
        }
    }
    let mut seen: Vec<&str> = Vec::new();
    for (id, line) in t.sections.iter().flat_map(|s| s.questions.iter()) {
        if seen.contains(&id.as_str()) {
            errors.push(err(*line, format!("question '{id}' is listed twice")));
        }
        seen.push(id);
    }
    errors.sort_by_key(|e| e.line);
    errors.truncate(100);
    if errors.is_empty() {
        Ok(t)
    } else {
        Err(errors)
    }
}

/// The template's questions that the survey lacks (or cannot show: display texts).
pub fn check_against(t: &ReportTemplate, def: &SurveyDefinition) -> Vec<SurveyError> {
    let known = |id: &str| {
        def.pages
            .iter()
            .flat_map(|p| p.questions.iter())
            .any(|q| q.id == id && q.kind != QuestionKind::Display)
    };
    t.sections
        .iter()
        .flat_map(|s| s.questions.iter())
        .filter(|(id, _)| !known(id))
        .map(|(id, line)| {
            err(
                *line,
                format!("survey '{}' has no answerable question '{id}'", t.survey_id),
            )
        })
        .collect()
}

/// The summary's sections rearranged as the template says: its sections, each with the listed
/// questions the patient was shown (in the template's order); empty sections are left out.
pub fn apply(t: &ReportTemplate, standard: Vec<SummarySection>) -> Vec<SummarySection> {
    let mut items: Vec<_> = standard.into_iter().flat_map(|s| s.items).collect();
    t.sections
        .iter()
        .map(|s| SummarySection {
            title: s.title.clone(),
            items: s
                .questions
                .iter()
                .filter_map(|(id, _)| {
                    let at = items.iter().position(|i| &i.question_id == id)?;
                    Some(items.swap_remove(at))
                })
                .collect(),
        })
        .filter(|s| !s.items.is_empty())
        .collect()
}

/// A title, header or footer line with its tokens filled in.
pub fn fill(text: &str, patient: &str, mrn: &str, date: &str, survey: &str) -> String {
    text.replace("<PATIENT>", patient)
        .replace("<MRN>", mrn)
        .replace("<DATE>", date)
        .replace("<SURVEY>", survey)
}

/// A report type as the form sends it; empty is the default (CustomSummary).
pub fn report_type(value: &str) -> Result<&'static str, String> {
    let v = value.trim();
    if v.is_empty() {
        return Ok(REPORT_TYPES[0]);
    }
    REPORT_TYPES
        .iter()
        .find(|t| t.eq_ignore_ascii_case(v))
        .copied()
        .ok_or_else(|| "Type must be CustomSummary, Custom or CustomWithImages.".to_owned())
}

/// The resultFileNamePattern as stored (empty: the default), or why it cannot be used.
pub fn file_name_pattern(value: &str) -> Result<String, String> {
    let v = value.trim();
    if v.is_empty() {
        return Ok(DEFAULT_FILE_NAME_PATTERN.to_owned());
    }
    if v.chars().count() > MAX_NAME_CHARS {
        return Err(format!(
            "The result file name pattern is longer than {MAX_NAME_CHARS} characters."
        ));
    }
    if let Some(token) = unknown_token(v, &FILE_NAME_TOKENS) {
        return Err(format!("The result file name pattern has an unknown token '{token}' (use <SSN>, <DATE> or <GUID>)."));
    }
    let bare = FILE_NAME_TOKENS
        .iter()
        .fold(v.to_owned(), |s, t| s.replace(t, ""));
    if !bare
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err("The result file name pattern may hold only letters, digits, '-', '_' and the tokens <SSN>, <DATE>, <GUID>.".to_owned());
    }
    Ok(v.to_owned())
}

/// A template name as stored, or why it cannot be used.
pub fn template_name(value: &str) -> Result<String, String> {
    let v = value.trim();
    if v.is_empty() {
        return Err("Name is required.".to_owned());
    }
    if v.chars().count() > MAX_NAME_CHARS {
        return Err(format!("Name is longer than {MAX_NAME_CHARS} characters."));
    }
    if v.chars().any(|c| c.is_control() || matches!(c, '/' | '\\')) {
        return Err("Name may not hold control characters, '/' or '\\'.".to_owned());
    }
    Ok(v.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::survey::parse_survey;
    use crate::survey::summary::{SummaryAnswer, SummaryItem};

    const GOOD: &str = "# technologist copy\nsurvey: PES-010\ntitle: Screening for <PATIENT>\nheader: Confidential\nfooter: Printed <DATE>\n\nsection: Safety first\nquestions: pregnant, new_problem\nsection: Rest\nquestions: new_problem_side\n";

    #[test]
    fn a_good_template_reads() {
        let t = parse_template(GOOD).unwrap();
        assert_eq!(t.survey_id, "PES-010");
        assert_eq!(t.title.as_deref(), Some("Screening for <PATIENT>"));
        assert_eq!(t.header, vec!["Confidential".to_owned()]);
        assert_eq!(t.sections.len(), 2);
        assert_eq!(
            t.sections[0].questions,
            vec![("pregnant".to_owned(), 8), ("new_problem".to_owned(), 8)]
        );
        assert_eq!(
            fill("A <PATIENT> <MRN> <DATE> <SURVEY>", "P", "M", "D", "S"),
            "A P M D S"
        );
    }

    #[test]
    fn bad_templates_name_the_line_at_fault() {
        let e = parse_template("survey: X\nsection: A\nquestion: a\n").unwrap_err();
        assert_eq!(
            (e[0].line, e[0].message.as_str()),
            (2, "section 'A' lists no questions")
        );
        assert_eq!(e[1].line, 3);
        assert!(e[1].message.starts_with("unknown key 'question'"));
        let e = parse_template("survey: X\nquestions: a\nsection: A\nquestions: b\n").unwrap_err();
        assert_eq!(
            (e[0].line, e[0].message.as_str()),
            (2, "'questions' before any 'section'")
        );
        let e =
            parse_template("survey: X\ntitle: Hi <NAME>\nsection: A\nquestions: b\n").unwrap_err();
        assert_eq!(e[0].line, 2);
        assert!(e[0].message.contains("unknown token '<NAME>'"));
        let e = parse_template("section: A\nquestions: b, b\n").unwrap_err();
        assert_eq!(e[0].line, 1);
        assert!(e
            .iter()
            .any(|x| x.line == 2 && x.message == "question 'b' is listed twice"));
        let e = parse_template("just text").unwrap_err();
        assert_eq!(e[0].message, "expected 'key: value' (or a # comment)");
        assert!(parse_template(&"x\n".repeat(600)).is_err());
    }

    #[test]
    fn questions_are_checked_against_the_survey_and_applied_in_order() {
        let def = parse_survey(include_str!("../../surveys/pre-exam-screening.xml"))
            .survey
            .unwrap();
        let t = parse_template(GOOD).unwrap();
        assert_eq!(check_against(&t, &def), vec![]);
        let bad =
            parse_template("survey: PES-010\nsection: A\n\nquestions: pregnant, nope\n").unwrap();
        let e = check_against(&bad, &def);
        assert_eq!(
            (e[0].line, e[0].message.as_str()),
            (4, "survey 'PES-010' has no answerable question 'nope'")
        );
        let item = |id: &str| SummaryItem {
            question_id: id.into(),
            question: id.into(),
            answer: SummaryAnswer::NotAnswered,
        };
        let standard = vec![SummarySection {
            title: "Std".into(),
            items: vec![item("new_problem"), item("pregnant"), item("other")],
        }];
        let out = apply(&t, standard);
        assert_eq!(out.len(), 1, "the empty section is left out");
        assert_eq!(out[0].title, "Safety first");
        let ids: Vec<_> = out[0]
            .items
            .iter()
            .map(|i| i.question_id.as_str())
            .collect();
        assert_eq!(ids, ["pregnant", "new_problem"]);
    }

    #[test]
    fn form_fields_are_checked() {
        assert_eq!(report_type(""), Ok("CustomSummary"));
        assert_eq!(report_type("customwithimages"), Ok("CustomWithImages"));
        assert!(report_type("Pdf").is_err());
        assert_eq!(file_name_pattern("").unwrap(), DEFAULT_FILE_NAME_PATTERN);
        assert!(file_name_pattern("A_<NAME>").is_err());
        assert!(file_name_pattern("a b").is_err());
        assert!(template_name("  ").is_err());
        assert!(template_name("a/b").is_err());
    }
}
