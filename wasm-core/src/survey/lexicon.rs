//! The lexicon export (spec 04 "A lexicon export can be opened in a new window as JSON or as a
//! zip"): every question and answer id of a survey with its text in every language the file
//! holds, for translators. Native only (the API builds the export).

use crate::model::{
    LexiconAnswer, LexiconQuestion, LexiconSurvey, SurveyDefinition, SurveyQuestion,
};

fn answers(q: &SurveyQuestion) -> Vec<LexiconAnswer> {
    q.options
        .iter()
        .map(|o| LexiconAnswer {
            id: o.value.clone(),
            text: o.text.clone(),
        })
        .collect()
}

/// The lexicon of one parsed survey: questions in survey order, a table's columns after it as
/// `table.column`; display texts are included (they are translated too).
pub fn lexicon(def: &SurveyDefinition) -> LexiconSurvey {
    let mut questions = Vec::new();
    let mut languages: Vec<String> = def.name.keys().cloned().collect();
    let mut note = |texts: &crate::model::Texts| {
        for lang in texts.keys() {
            if !languages.contains(lang) {
                languages.push(lang.clone());
            }
        }
    };
    for q in def.pages.iter().flat_map(|p| p.questions.iter()) {
        note(&q.text);
        q.options.iter().for_each(|o| note(&o.text));
        questions.push(LexiconQuestion {
            id: q.id.clone(),
            text: q.text.clone(),
            answers: answers(q),
        });
        for c in &q.columns {
            note(&c.text);
            c.options.iter().for_each(|o| note(&o.text));
            questions.push(LexiconQuestion {
                id: format!("{}.{}", q.id, c.id),
                text: c.text.clone(),
                answers: answers(c),
            });
        }
    }
    // In the spec's language order (spec 03 §9).
    languages.sort_by_key(|l| super::LANGUAGES.iter().position(|x| *x == l.as_str()));
    LexiconSurvey {
        survey_id: def.id.clone(),
        name: def.name.clone(),
        languages,
        questions,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::survey::parse_survey;

    #[test]
    fn every_question_and_answer_with_every_language() {
        let def = parse_survey(include_str!("../../surveys/breast-imaging-history.xml"))
            .survey
            .unwrap();
        let lex = lexicon(&def);
        assert_eq!(lex.survey_id, def.id);
        assert_eq!(lex.languages[0], "en");
        let count: usize = def
            .pages
            .iter()
            .flat_map(|p| p.questions.iter())
            .map(|q| 1 + q.columns.len())
            .sum();
        assert_eq!(lex.questions.len(), count);
        assert!(lex.questions.iter().all(|q| q.text.contains_key("en")));
        assert!(
            lex.questions.iter().any(|q| q.id.contains('.')),
            "table columns"
        );
        assert!(lex.questions.iter().any(|q| !q.answers.is_empty()));
    }
}
