//! What a survey's summary report shows (issue 5 part 7; spec 04 GenerateSummaryReport): the
//! pages and questions the patient was actually shown for her answers (the same `visibility`
//! the runner and the server use), each with its answer as a reader wants it: the option's
//! text instead of its value, dates as MM/DD/YYYY, the rows of a repeating table. Native only
//! (the API renders the PDF); nothing here is exported to wasm.

use crate::dates::{format_date, DateFormat};
use crate::model::{Answer, Answers, QuestionKind, SurveyDefinition, SurveyQuestion, Texts};

use super::{local_text, visibility};

/// The text shown for a shown question that has no answer (an optional question left empty).
pub const NOT_ANSWERED: &str = "Not answered";

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SummaryAnswer {
    /// One line of answer (several choices are joined with ", ").
    Text(String),
    /// A repeating table: column titles and, per row, one cell per column ("" when empty).
    Table {
        columns: Vec<String>,
        rows: Vec<Vec<String>>,
    },
    NotAnswered,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SummaryItem {
    pub question_id: String,
    pub question: String,
    pub answer: SummaryAnswer,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SummarySection {
    pub title: String,
    pub items: Vec<SummaryItem>,
}

/// Picks the text in `lang` (English fallback, spec 03 §9); when the reader cannot show it
/// (`shows` false, e.g. a PDF font without those letters), the English text instead.
fn pick(texts: &Texts, lang: &str, shows: &dyn Fn(&str) -> bool) -> String {
    let local = local_text(texts, lang);
    if shows(&local) {
        return local;
    }
    let english = local_text(texts, "en");
    if shows(&english) {
        english
    } else {
        local
    }
}

fn value_text(q: &SurveyQuestion, value: &str, lang: &str, shows: &dyn Fn(&str) -> bool) -> String {
    match q.kind {
        QuestionKind::Single | QuestionKind::YesNo | QuestionKind::Multiple => q
            .options
            .iter()
            .find(|o| o.value == value)
            .map(|o| pick(&o.text, lang, shows))
            .unwrap_or_else(|| value.to_owned()),
        QuestionKind::Date => {
            let us = format_date(value, DateFormat::SDate, 0, "");
            if us.is_empty() {
                value.to_owned()
            } else {
                us
            }
        }
        _ => value.trim().to_owned(),
    }
}

fn answer_of(
    q: &SurveyQuestion,
    answer: Option<&Answer>,
    lang: &str,
    shows: &dyn Fn(&str) -> bool,
) -> SummaryAnswer {
    let Some(answer) = answer.filter(|a| !a.is_empty()) else {
        return SummaryAnswer::NotAnswered;
    };
    match answer {
        Answer::One(v) => SummaryAnswer::Text(value_text(q, v, lang, shows)),
        Answer::Many(values) => SummaryAnswer::Text(
            values
                .iter()
                .map(|v| value_text(q, v, lang, shows))
                .collect::<Vec<_>>()
                .join(", "),
        ),
        Answer::Rows(rows) => SummaryAnswer::Table {
            columns: q
                .columns
                .iter()
                .map(|c| pick(&c.text, lang, shows))
                .collect(),
            rows: rows
                .iter()
                .map(|row| {
                    q.columns
                        .iter()
                        .map(|c| {
                            row.get(&c.id)
                                .map(|v| value_text(c, v, lang, shows))
                                .unwrap_or_default()
                        })
                        .collect()
                })
                .collect(),
        },
    }
}

/// The summary of a survey for these answers, in `lang`: one section per shown page, one item
/// per shown answerable question (display texts are left out), in the survey's order.
pub fn summary(
    survey: &SurveyDefinition,
    answers: &Answers,
    lang: &str,
    shows: &dyn Fn(&str) -> bool,
) -> Vec<SummarySection> {
    let shown = visibility(survey, answers);
    survey
        .pages
        .iter()
        .filter(|p| shown.pages.contains(&p.id))
        .map(|page| SummarySection {
            title: pick(&page.title, lang, shows),
            items: page
                .questions
                .iter()
                .filter(|q| q.kind != QuestionKind::Display && shown.questions.contains(&q.id))
                .map(|q| SummaryItem {
                    question_id: q.id.clone(),
                    question: pick(&q.text, lang, shows),
                    answer: answer_of(q, answers.get(&q.id), lang, shows),
                })
                .collect(),
        })
        .filter(|s| !s.items.is_empty())
        .collect()
}

/// An answer as the summary *form* report shows it (spec 04 GenerateSummaryFormReport).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormAnswer {
    /// A choice question: every option in the survey's order, with whether it was chosen.
    Choices(Vec<(String, bool)>),
    /// Text, a number or a date as the reader wants it ("" when empty).
    Text(String),
    /// A repeating table: column titles and the rows given (none when empty).
    Table {
        columns: Vec<String>,
        rows: Vec<Vec<String>>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormItem {
    pub question_id: String,
    pub question: String,
    /// Whether the patient was shown the question for her answers (false: skipped by the
    /// survey's skip logic; the form shows it unfilled).
    pub asked: bool,
    pub answer: FormAnswer,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormSection {
    pub title: String,
    pub asked: bool,
    pub items: Vec<FormItem>,
}

/// The survey as a filled-in form (spec 04 GenerateSummaryFormReport): unlike [`summary`],
/// every page and every answerable question of the survey, in its order, whether or not the
/// patient was shown it; choice questions with all their options (the chosen ones ticked); an
/// answer only where the question was asked (answers kept from a path the patient left are not
/// shown).
pub fn form(
    survey: &SurveyDefinition,
    answers: &Answers,
    lang: &str,
    shows: &dyn Fn(&str) -> bool,
) -> Vec<FormSection> {
    let shown = visibility(survey, answers);
    survey
        .pages
        .iter()
        .map(|page| {
            let page_asked = shown.pages.contains(&page.id);
            FormSection {
                title: pick(&page.title, lang, shows),
                asked: page_asked,
                items: page
                    .questions
                    .iter()
                    .filter(|q| q.kind != QuestionKind::Display)
                    .map(|q| {
                        let asked = page_asked && shown.questions.contains(&q.id);
                        let answer = answers.get(&q.id).filter(|_| asked);
                        FormItem {
                            question_id: q.id.clone(),
                            question: pick(&q.text, lang, shows),
                            asked,
                            answer: form_answer(q, answer, lang, shows),
                        }
                    })
                    .collect(),
            }
        })
        .filter(|s| !s.items.is_empty())
        .collect()
}

fn form_answer(
    q: &SurveyQuestion,
    answer: Option<&Answer>,
    lang: &str,
    shows: &dyn Fn(&str) -> bool,
) -> FormAnswer {
    match q.kind {
        QuestionKind::Single | QuestionKind::YesNo | QuestionKind::Multiple => {
            let chosen = |value: &str| match answer {
                Some(Answer::One(v)) => v == value,
                Some(Answer::Many(values)) => values.iter().any(|v| v == value),
                _ => false,
            };
            FormAnswer::Choices(
                q.options
                    .iter()
                    .map(|o| (pick(&o.text, lang, shows), chosen(&o.value)))
                    .collect(),
            )
        }
        QuestionKind::Table => match answer_of(q, answer, lang, shows) {
            SummaryAnswer::Table { columns, rows } => FormAnswer::Table { columns, rows },
            _ => FormAnswer::Table {
                columns: q
                    .columns
                    .iter()
                    .map(|c| pick(&c.text, lang, shows))
                    .collect(),
                rows: Vec::new(),
            },
        },
        _ => match answer_of(q, answer, lang, shows) {
            SummaryAnswer::Text(t) => FormAnswer::Text(t),
            _ => FormAnswer::Text(String::new()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::survey::parse_survey;

    const SURVEY: &str = r#"<survey id="T-1" version="1">
  <name lang="en">Test</name>
  <page id="p1">
    <title lang="en">About you</title><title lang="es">Sobre usted</title><title lang="zh">关于您</title>
    <question id="intro" type="display"><text lang="en">Welcome.</text></question>
    <question id="pain" type="yesno" storage="t.pain" required="true">
      <text lang="en">Do you have breast pain?</text><text lang="es">¿Tiene dolor en el seno?</text>
      <text lang="zh">您有乳房疼痛吗？</text>
    </question>
    <question id="where" type="multiple" storage="t.where">
      <text lang="en">Where?</text>
      <enableWhen question="pain" operator="=" answer="yes"/>
      <option value="l"><text lang="en">Left</text><text lang="es">Izquierdo</text></option>
      <option value="r"><text lang="en">Right</text><text lang="es">Derecho</text></option>
    </question>
    <question id="since" type="date" storage="t.since"><text lang="en">Since when?</text>
      <enableWhen question="pain" operator="=" answer="yes"/></question>
    <question id="note" type="text" storage="t.note"><text lang="en">Anything else?</text></question>
  </page>
  <page id="p2">
    <title lang="en">Family</title>
    <question id="rel" type="table" storage="t.rel" min-rows="1" max-rows="5">
      <text lang="en">Relatives with cancer</text>
      <column id="who" type="single" required="true"><text lang="en">Relative</text>
        <option value="mother"><text lang="en">Mother</text></option></column>
      <column id="age" type="number"><text lang="en">Age at diagnosis</text></column>
    </question>
  </page>
</survey>"#;

    fn answers(json: &[(&str, Answer)]) -> Answers {
        json.iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect()
    }

    fn parsed() -> SurveyDefinition {
        let p = parse_survey(SURVEY);
        p.survey.unwrap_or_else(|| panic!("{:?}", p.errors))
    }

    fn all(_: &str) -> bool {
        true
    }

    #[test]
    fn shows_the_shown_questions_with_readable_answers() {
        let def = parsed();
        let mut row = crate::sorted_map::SortedMap::new();
        row.insert("who".to_owned(), "mother".to_owned());
        row.insert("age".to_owned(), "52".to_owned());
        let a = answers(&[
            ("pain", Answer::One("yes".into())),
            ("where", Answer::Many(vec!["l".into(), "r".into()])),
            ("since", Answer::One("2026-03-05".into())),
            ("rel", Answer::Rows(vec![row])),
        ]);
        let s = summary(&def, &a, "en", &all);
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].title, "About you");
        let ids: Vec<&str> = s[0].items.iter().map(|i| i.question_id.as_str()).collect();
        assert_eq!(
            ids,
            ["pain", "where", "since", "note"],
            "display texts are left out"
        );
        assert_eq!(s[0].items[0].answer, SummaryAnswer::Text("Yes".into()));
        assert_eq!(
            s[0].items[1].answer,
            SummaryAnswer::Text("Left, Right".into())
        );
        assert_eq!(
            s[0].items[2].answer,
            SummaryAnswer::Text("03/05/2026".into())
        );
        assert_eq!(s[0].items[3].answer, SummaryAnswer::NotAnswered);
        assert_eq!(
            s[1].items[0].answer,
            SummaryAnswer::Table {
                columns: vec!["Relative".into(), "Age at diagnosis".into()],
                rows: vec![vec!["Mother".into(), "52".into()]]
            }
        );
    }

    #[test]
    fn the_form_has_every_question_with_all_options_and_skipped_ones_unfilled() {
        let def = parsed();
        let a = answers(&[
            ("pain", Answer::One("no".into())),
            // Kept from a path the patient left: not shown on the form.
            ("where", Answer::Many(vec!["l".into()])),
            ("note", Answer::One("Nothing".into())),
        ]);
        let f = form(&def, &a, "en", &all);
        assert_eq!(f.len(), 2);
        let ids: Vec<(&str, bool)> = f[0]
            .items
            .iter()
            .map(|i| (i.question_id.as_str(), i.asked))
            .collect();
        assert_eq!(
            ids,
            [
                ("pain", true),
                ("where", false),
                ("since", false),
                ("note", true)
            ]
        );
        assert_eq!(
            f[0].items[0].answer,
            FormAnswer::Choices(vec![("Yes".into(), false), ("No".into(), true)])
        );
        assert_eq!(
            f[0].items[1].answer,
            FormAnswer::Choices(vec![("Left".into(), false), ("Right".into(), false)])
        );
        assert_eq!(f[0].items[2].answer, FormAnswer::Text(String::new()));
        assert_eq!(f[0].items[3].answer, FormAnswer::Text("Nothing".into()));
        assert_eq!(
            f[1].items[0].answer,
            FormAnswer::Table {
                columns: vec!["Relative".into(), "Age at diagnosis".into()],
                rows: Vec::new()
            }
        );
    }

    #[test]
    fn skipped_questions_are_left_out() {
        let def = parsed();
        let a = answers(&[
            ("pain", Answer::One("no".into())),
            ("where", Answer::Many(vec!["l".into()])),
        ]);
        let s = summary(&def, &a, "en", &all);
        let ids: Vec<&str> = s[0].items.iter().map(|i| i.question_id.as_str()).collect();
        assert_eq!(ids, ["pain", "note"]);
    }

    #[test]
    fn texts_in_the_language_and_english_when_the_reader_cannot_show_them() {
        let def = parsed();
        let a = answers(&[
            ("pain", Answer::One("yes".into())),
            ("where", Answer::Many(vec!["r".into()])),
        ]);
        let s = summary(&def, &a, "es", &all);
        assert_eq!(s[0].title, "Sobre usted");
        assert_eq!(s[0].items[0].question, "¿Tiene dolor en el seno?");
        assert_eq!(s[0].items[1].answer, SummaryAnswer::Text("Derecho".into()));
        let latin = |t: &str| t.chars().all(|c| (c as u32) < 256);
        let s = summary(&def, &a, "zh", &latin);
        assert_eq!(s[0].title, "About you");
        assert_eq!(s[0].items[0].question, "Do you have breast pain?");
        let s = summary(&def, &a, "zh", &all);
        assert_eq!(s[0].items[0].question, "您有乳房疼痛吗？");
    }
}
