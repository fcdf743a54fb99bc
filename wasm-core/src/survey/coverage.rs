//! Translation coverage (issue 21): which of a survey's texts each of the six languages has.
//! A translatable item is a text the file gives in English (the survey name, page titles,
//! question texts and help, answer texts, table columns); it is translated in a language when
//! the file gives a non-blank text in that language. Built-in texts (the yes/no answers) are not
//! the file's and are not counted. Item ids: README.md beside this file, "Languages".

use crate::model::{
    LanguageCoverage, MissingText, QuestionKind, SurveyCoverage, SurveyDefinition, SurveyQuestion,
    Texts,
};

use super::{local_text, LANGUAGES};

/// Every translatable text of a survey with its item id, in survey order.
pub fn translatable_items(def: &SurveyDefinition) -> Vec<(String, &Texts)> {
    let mut items = vec![("name".to_owned(), &def.name)];
    fn question<'a>(items: &mut Vec<(String, &'a Texts)>, id: &str, q: &'a SurveyQuestion) {
        items.push((id.to_owned(), &q.text));
        items.push((format!("{id}/help"), &q.help));
        if q.kind != QuestionKind::YesNo {
            for o in &q.options {
                items.push((format!("{id}={}", o.value), &o.text));
            }
        }
        for c in &q.columns {
            question(items, &format!("{id}.{}", c.id), c);
        }
    }
    for page in &def.pages {
        items.push((format!("page:{}", page.id), &page.title));
        for q in &page.questions {
            question(&mut items, &q.id, q);
        }
    }
    items.retain(|(_, texts)| has(texts, "en"));
    items
}

fn has(texts: &Texts, lang: &str) -> bool {
    texts.get(lang).is_some_and(|t| !t.trim().is_empty())
}

/// The coverage of one survey in the six languages (spec 03 §9 order).
pub fn coverage(def: &SurveyDefinition) -> SurveyCoverage {
    let items = translatable_items(def);
    let total = items.len() as u32;
    let languages = LANGUAGES
        .iter()
        .map(|lang| {
            let missing: Vec<MissingText> = items
                .iter()
                .filter(|(_, texts)| !has(texts, lang))
                .map(|(id, texts)| MissingText {
                    id: id.clone(),
                    english: texts["en"].clone(),
                })
                .collect();
            let translated = total - missing.len() as u32;
            LanguageCoverage {
                language: (*lang).to_owned(),
                translated,
                total,
                percent: (translated * 100).checked_div(total).unwrap_or(100),
                missing,
            }
        })
        .collect();
    SurveyCoverage {
        survey_id: def.id.clone(),
        name: local_text(&def.name, "en"),
        languages,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::survey::parse_survey;

    fn parse(xml: &str) -> SurveyDefinition {
        let parsed = parse_survey(xml);
        parsed
            .survey
            .unwrap_or_else(|| panic!("{:?}", parsed.errors))
    }

    fn of<'a>(c: &'a SurveyCoverage, lang: &str) -> &'a LanguageCoverage {
        c.languages.iter().find(|l| l.language == lang).unwrap()
    }

    const PARTIAL: &str = r#"<survey id="T-1" version="1">
  <name lang="en">Test</name><name lang="es">Prueba</name><name lang="vi">Kiểm tra</name>
  <page id="p"><title lang="en">Page</title><title lang="es">Página</title>
    <question id="q" type="single" storage="h.q">
      <text lang="en">Which side?</text><text lang="es">¿Qué lado?</text><text lang="vi">  </text>
      <help lang="en">Pick one.</help>
      <option value="l"><text lang="en">Left</text><text lang="es">Izquierdo</text></option>
    </question>
    <question id="ok" type="yesno" storage="h.ok"><text lang="en">OK?</text><text lang="es">¿Bien?</text></question>
  </page>
</survey>"#;

    #[test]
    fn counts_items_and_lists_the_missing_ones_per_language() {
        let c = coverage(&parse(PARTIAL));
        assert_eq!(c.survey_id, "T-1");
        assert_eq!(c.name, "Test");
        let langs: Vec<&str> = c.languages.iter().map(|l| l.language.as_str()).collect();
        assert_eq!(langs, ["en", "es", "zh", "km", "vi", "tl"]);
        // name, page title, q, q/help, q=l, ok (the yes/no answers are built in): 6 items.
        let cases: &[(&str, u32, u32, &[&str])] = &[
            ("en", 6, 100, &[]),
            ("es", 5, 83, &["q/help"]),
            ("zh", 0, 0, &["name", "page:p", "q", "q/help", "q=l", "ok"]),
            ("vi", 1, 16, &["page:p", "q", "q/help", "q=l", "ok"]),
        ];
        for (lang, translated, percent, missing) in cases {
            let l = of(&c, lang);
            assert_eq!(l.total, 6, "{lang}");
            assert_eq!(l.translated, *translated, "{lang}");
            assert_eq!(l.percent, *percent, "{lang}");
            let ids: Vec<&str> = l.missing.iter().map(|m| m.id.as_str()).collect();
            assert_eq!(ids, *missing, "{lang}");
        }
        let help = &of(&c, "es").missing[0];
        assert_eq!(help.english, "Pick one.");
    }

    #[test]
    fn a_blank_translation_falls_back_to_english() {
        let def = parse(PARTIAL);
        let q = &def.pages[0].questions[0];
        assert_eq!(local_text(&q.text, "vi"), "Which side?");
        assert_eq!(local_text(&q.text, "es"), "¿Qué lado?");
        assert_eq!(local_text(&q.help, "tl"), "Pick one.");
    }

    #[test]
    fn table_columns_and_their_answers_are_items() {
        let xml = r#"<survey id="T-2" version="1"><name>T</name>
  <page id="p"><title>P</title>
    <question id="t" type="table" storage="h.t_json"><text>Family</text>
      <column id="who" type="single"><text>Who</text>
        <option value="m"><text>Mother</text><text lang="tl">Ina</text></option></column>
    </question></page></survey>"#;
        let c = coverage(&parse(xml));
        let tl = of(&c, "tl");
        let ids: Vec<&str> = tl.missing.iter().map(|m| m.id.as_str()).collect();
        assert_eq!(ids, ["name", "page:p", "t", "t.who"]);
        assert_eq!((tl.translated, tl.total, tl.percent), (1, 5, 20));
    }

    #[test]
    fn the_shipped_surveys_are_complete_in_six_languages() {
        for xml in [
            include_str!("../../surveys/breast-imaging-history.xml"),
            include_str!("../../surveys/pre-exam-screening.xml"),
            include_str!("../../surveys/mri-safety-screening.xml"),
        ] {
            let c = coverage(&parse(xml));
            for l in &c.languages {
                assert_eq!(
                    l.percent, 100,
                    "{} {}: {:?}",
                    c.survey_id, l.language, l.missing
                );
                assert!(l.missing.is_empty());
                assert!(l.total > 10);
            }
        }
    }
}
