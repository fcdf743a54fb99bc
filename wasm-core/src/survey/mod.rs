//! Medical-history surveys (issue 5): our XML definition format (README.md beside this file),
//! its parser, the FHIR-SDC-style skip logic and answer validation. The browser runs these to
//! guide the patient; the API runs the same functions on every save and submission.

pub mod coverage;
pub mod create_patient;
pub mod definition;
pub mod display;
pub mod expiry;
pub mod lexicon;
pub mod link;
pub mod package;
pub mod pin;
pub mod report_template;
pub mod staff_start;
pub mod start;
pub mod summary;
pub mod theme;
pub mod xml;

use std::cmp::Ordering;

use crate::message_templates::fill;
use crate::model::{
    Answer, Answers, EnableBehavior, EnableWhen, Operator, QuestionKind, SurveyDefinition,
    SurveyQuestion, SurveyVisibility, Texts,
};
use crate::ValidationErrors;

pub use definition::{parse_library, parse_survey, parse_survey_with, LibrarySet};

/// The six languages of spec 03 §9, by code: english, spanish, chinese, cambodian (Khmer),
/// vietnamese, tagalog.
pub const LANGUAGES: [&str; 6] = ["en", "es", "zh", "km", "vi", "tl"];

pub const MSG_REQUIRED: &str = "This question is required";
pub const MSG_NUMBER: &str = "Please enter a number";
pub const MSG_DATE: &str = "Please enter a valid date (YYYY-MM-DD)";
pub const MSG_CHOICE: &str = "Please choose one of the options";
pub const MSG_SHAPE: &str = "This answer does not fit the question";
pub const MSG_WHOLE_NUMBER: &str = "Please enter a whole number";
// Answer checks with the question's bounds (templates, crate::message_templates).
pub const MSG_BETWEEN: &str = "Please enter a value between {min} and {max}";
pub const MSG_AT_LEAST: &str = "Please enter a value of at least {min}";
pub const MSG_AT_MOST: &str = "Please enter a value of at most {max}";
pub const MSG_DECIMALS: &str = "Please enter a number with at most {n} decimals";
pub const MSG_MAX_LENGTH: &str = "Please enter at most {n} characters";
pub const MSG_MIN_ROWS: &str = "Please add at least {n} rows";
pub const MSG_MAX_ROWS: &str = "Please add at most {n} rows";

/// The text in `lang`, else English, else any (spec 03 §9: English is the fallback).
pub fn local_text(texts: &Texts, lang: &str) -> String {
    let present = |l: &str| texts.get(l).filter(|t| !t.trim().is_empty());
    present(lang)
        .or_else(|| present("en"))
        .or_else(|| texts.values().next())
        .cloned()
        .unwrap_or_default()
}

/// A decimal number with at most `decimals` fractional digits, scaled by 10^decimals.
/// Written by hand (no float parsing) to keep the wasm small and the comparison exact.
pub fn parse_fixed(s: &str, decimals: u32) -> Option<i64> {
    let s = s.trim();
    let (neg, digits) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let (int, frac) = match digits.split_once('.') {
        Some((i, f)) => (i, f),
        None => (digits, ""),
    };
    // Bytes rather than `str::contains(char)`, whose non-ASCII path links core's substring search
    // into the wasm file (issue 22); the same answer for an ASCII character.
    if (int.is_empty() && frac.is_empty())
        || int.len() > 12
        || frac.len() > decimals as usize
        || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit())
        || (digits.as_bytes().contains(&b'.') && frac.is_empty())
    {
        return None;
    }
    let mut n: i64 = 0;
    for b in int.bytes() {
        n = n * 10 + i64::from(b - b'0');
    }
    for i in 0..decimals as usize {
        n = n * 10 + frac.as_bytes().get(i).map_or(0, |b| i64::from(b - b'0'));
    }
    Some(if neg { -n } else { n })
}

/// YYYY-MM-DD, a real calendar day, years 1800-2999.
pub fn valid_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        let part = s.get(r)?;
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())?
    };
    let (Some(y), Some(m), Some(d)) = (num(0..4), num(5..7), num(8..10)) else {
        return false;
    };
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => 0,
    };
    (1800..=2999).contains(&y) && d >= 1 && d <= days
}

fn all_questions(survey: &SurveyDefinition) -> impl Iterator<Item = &SurveyQuestion> {
    survey.pages.iter().flat_map(|p| p.questions.iter())
}

fn find<'a>(survey: &'a SurveyDefinition, id: &str) -> Option<&'a SurveyQuestion> {
    all_questions(survey).find(|q| q.id == id)
}

/// Compares a given answer with the condition's value, typed by the question.
fn compare(q: &SurveyQuestion, given: &str, want: &str) -> Option<Ordering> {
    match q.kind {
        QuestionKind::Number => {
            // Conditions may carry more decimals than the question; compare at the finer scale.
            let a = parse_fixed(given, definition::MAX_DECIMALS)?;
            let b = parse_fixed(want, definition::MAX_DECIMALS)?;
            Some(a.cmp(&b))
        }
        QuestionKind::Date => (valid_date(given) && valid_date(want)).then(|| given.cmp(want)),
        _ => Some(given.trim().cmp(want)),
    }
}

fn condition_holds(
    survey: &SurveyDefinition,
    shown: &[String],
    answers: &Answers,
    c: &EnableWhen,
) -> bool {
    // FHIR SDC: the answer of a question that is itself hidden counts as absent.
    let answer = if shown.contains(&c.question) {
        answers.get(&c.question).filter(|a| !a.is_empty())
    } else {
        None
    };
    let Some(q) = find(survey, &c.question) else {
        return false;
    };
    match (c.operator, answer) {
        (Operator::Exists, a) => a.is_some() == (c.answer == "true"),
        (_, None) => false,
        (op, Some(Answer::Many(values))) => {
            let has = values.iter().any(|v| v == &c.answer);
            match op {
                Operator::Eq => has,
                Operator::Ne => !has,
                _ => false,
            }
        }
        (op, Some(Answer::One(given))) => match compare(q, given, &c.answer) {
            None => false,
            Some(ord) => match op {
                Operator::Eq => ord == Ordering::Equal,
                Operator::Ne => ord != Ordering::Equal,
                Operator::Gt => ord == Ordering::Greater,
                Operator::Lt => ord == Ordering::Less,
                Operator::Ge => ord != Ordering::Less,
                Operator::Le => ord != Ordering::Greater,
                Operator::Exists => unreachable_false(),
            },
        },
        (_, Some(Answer::Rows(_))) => false,
    }
}

// Exists is matched above; kept as a value (not a panic) so the evaluator can never abort.
fn unreachable_false() -> bool {
    false
}

fn enabled(
    survey: &SurveyDefinition,
    shown: &[String],
    answers: &Answers,
    when: &[EnableWhen],
    behavior: EnableBehavior,
) -> bool {
    if when.is_empty() {
        return true;
    }
    let mut results = when
        .iter()
        .map(|c| condition_holds(survey, shown, answers, c));
    match behavior {
        EnableBehavior::All => results.all(|r| r),
        EnableBehavior::Any => results.any(|r| r),
    }
}

/// The pages and questions shown for these answers, in order. A page whose conditions fail
/// hides all its questions; a page with no question shown is left out.
pub fn visibility(survey: &SurveyDefinition, answers: &Answers) -> SurveyVisibility {
    let mut out = SurveyVisibility {
        pages: Vec::new(),
        questions: Vec::new(),
    };
    for page in &survey.pages {
        if !enabled(
            survey,
            &out.questions,
            answers,
            &page.enable_when,
            page.enable_behavior,
        ) {
            continue;
        }
        let before = out.questions.len();
        for q in &page.questions {
            if enabled(
                survey,
                &out.questions,
                answers,
                &q.enable_when,
                q.enable_behavior,
            ) {
                out.questions.push(q.id.clone());
            }
        }
        if out.questions.len() > before {
            out.pages.push(page.id.clone());
        }
    }
    out
}

fn range_message(q: &SurveyQuestion) -> String {
    match (&q.min, &q.max) {
        (Some(a), Some(b)) => fill(MSG_BETWEEN, &[("min", a), ("max", b)]),
        (Some(a), None) => fill(MSG_AT_LEAST, &[("min", a)]),
        (None, Some(b)) => fill(MSG_AT_MOST, &[("max", b)]),
        (None, None) => String::new(),
    }
}

/// Checks one single value against a question (or table column) of a one-value type.
fn check_value(q: &SurveyQuestion, value: &str) -> Option<String> {
    let value = value.trim();
    match q.kind {
        QuestionKind::Number => {
            let Some(n) = parse_fixed(value, q.decimals) else {
                return Some(if q.decimals == 0 {
                    MSG_WHOLE_NUMBER.to_owned()
                } else {
                    fill(MSG_DECIMALS, &[("n", &q.decimals.to_string())])
                });
            };
            let lo = q.min.as_deref().and_then(|m| parse_fixed(m, q.decimals));
            let hi = q.max.as_deref().and_then(|m| parse_fixed(m, q.decimals));
            (lo.is_some_and(|lo| n < lo) || hi.is_some_and(|hi| n > hi)).then(|| range_message(q))
        }
        QuestionKind::Date => {
            if !valid_date(value) {
                return Some(MSG_DATE.to_owned());
            }
            let early = q.min.as_deref().is_some_and(|m| value < m);
            let late = q.max.as_deref().is_some_and(|m| value > m);
            (early || late).then(|| range_message(q))
        }
        QuestionKind::Single | QuestionKind::YesNo => {
            (!q.options.iter().any(|o| o.value == value)).then(|| MSG_CHOICE.to_owned())
        }
        QuestionKind::Text => (value.chars().count() > q.max_length as usize)
            .then(|| fill(MSG_MAX_LENGTH, &[("n", &q.max_length.to_string())])),
        _ => Some(MSG_SHAPE.to_owned()),
    }
}

fn check_question(q: &SurveyQuestion, answer: Option<&Answer>, errors: &mut ValidationErrors) {
    let answer = answer.filter(|a| !a.is_empty());
    let Some(answer) = answer else {
        if q.required || (q.kind == QuestionKind::Table && q.min_rows > 0) {
            errors.add(&q.id, MSG_REQUIRED);
        }
        return;
    };
    match (q.kind, answer) {
        (QuestionKind::Display, _) => {}
        (QuestionKind::Multiple, Answer::Many(values)) => {
            let mut seen: Vec<&String> = Vec::new();
            for v in values {
                if !q.options.iter().any(|o| &o.value == v) || seen.contains(&v) {
                    errors.add(&q.id, MSG_CHOICE);
                    return;
                }
                seen.push(v);
            }
        }
        (QuestionKind::Table, Answer::Rows(rows)) => {
            if rows.len() < q.min_rows as usize {
                errors.add(&q.id, fill(MSG_MIN_ROWS, &[("n", &q.min_rows.to_string())]));
            }
            if rows.len() > q.max_rows as usize {
                errors.add(&q.id, fill(MSG_MAX_ROWS, &[("n", &q.max_rows.to_string())]));
                return;
            }
            for (i, row) in rows.iter().enumerate() {
                if row.keys().any(|k| !q.columns.iter().any(|c| &c.id == k)) {
                    errors.add(&q.id, MSG_SHAPE);
                    return;
                }
                for col in &q.columns {
                    let field = format!("{}[{i}].{}", q.id, col.id);
                    match row.get(&col.id).map(|v| v.trim()).filter(|v| !v.is_empty()) {
                        None if col.required => errors.add(&field, MSG_REQUIRED),
                        None => {}
                        Some(v) => {
                            if let Some(m) = check_value(col, v) {
                                errors.add(&field, m);
                            }
                        }
                    }
                }
            }
        }
        (QuestionKind::Multiple | QuestionKind::Table, _) => errors.add(&q.id, MSG_SHAPE),
        (_, Answer::One(value)) => {
            if let Some(m) = check_value(q, value) {
                errors.add(&q.id, m);
            }
        }
        (_, _) => errors.add(&q.id, MSG_SHAPE),
    }
}

/// Validates the shown questions of one page (`page_id`), or of the whole survey (`None`, what
/// the server runs on submission). Hidden questions are never checked. Field names are question
/// ids, and `table[row].column` for table cells.
pub fn validate_answers(
    survey: &SurveyDefinition,
    answers: &Answers,
    page_id: Option<&str>,
) -> ValidationErrors {
    let shown = visibility(survey, answers);
    let mut errors = ValidationErrors::new();
    for page in &survey.pages {
        if page_id.is_some_and(|p| p != page.id) {
            continue;
        }
        for q in page
            .questions
            .iter()
            .filter(|q| shown.questions.contains(&q.id))
        {
            check_question(q, answers.get(&q.id), &mut errors);
        }
    }
    errors
}

/// The answers that are kept: only shown, answerable questions, with empty values dropped.
/// Answers to hidden or unknown questions are never stored (issue 5: hidden answers are not
/// submitted).
pub fn clean_answers(survey: &SurveyDefinition, answers: &Answers) -> Answers {
    let shown = visibility(survey, answers);
    let mut out = Answers::new();
    for (id, a) in answers {
        let keep = !a.is_empty()
            && shown.questions.contains(id)
            && find(survey, id).is_some_and(|q| q.kind != QuestionKind::Display);
        if keep {
            out.insert(id.clone(), a.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_point_numbers() {
        assert_eq!(parse_fixed("12", 0), Some(12));
        assert_eq!(parse_fixed("-3.5", 1), Some(-35));
        assert_eq!(parse_fixed("4.25", 2), Some(425));
        assert_eq!(parse_fixed("4.2", 2), Some(420));
        assert_eq!(parse_fixed("4.25", 1), None);
        assert_eq!(parse_fixed("4.", 1), None);
        assert_eq!(parse_fixed(".5", 1), Some(5));
        assert_eq!(parse_fixed("1e3", 0), None);
        assert_eq!(parse_fixed("", 0), None);
        assert_eq!(parse_fixed("9999999999999", 0), None);
    }

    #[test]
    fn dates() {
        assert!(valid_date("2024-02-29"));
        assert!(!valid_date("2023-02-29"));
        assert!(!valid_date("2023-13-01"));
        assert!(!valid_date("2023-1-01"));
        assert!(!valid_date("２０２3-01-01"));
    }
}
