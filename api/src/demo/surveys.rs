//! Demo survey definitions (issue 5): the real surveys shipped in wasm-core/surveys/, parsed
//! and checked by wasm-core like an upload, and plausible answers for the demo's survey logs.

use wasm_core::model::{Answer, Answers, QuestionKind, SurveyDefinition};
use wasm_core::sorted_map::SortedMap;
use wasm_core::survey;

/// (file, XML), in the order the demo assigns them to queue rows.
pub const SHIPPED: &[(&str, &str)] = &[
    (
        "breast-imaging-history.xml",
        include_str!("../../../wasm-core/surveys/breast-imaging-history.xml"),
    ),
    (
        "pre-exam-screening.xml",
        include_str!("../../../wasm-core/surveys/pre-exam-screening.xml"),
    ),
    (
        "mri-safety-screening.xml",
        include_str!("../../../wasm-core/surveys/mri-safety-screening.xml"),
    ),
];

/// Parses a shipped survey; a shipped file that does not parse is a build mistake the tests catch.
pub fn shipped(xml: &str) -> Result<SurveyDefinition, String> {
    let parsed = survey::parse_survey(xml);
    parsed.survey.ok_or_else(|| {
        parsed
            .errors
            .iter()
            .map(|e| format!("line {}: {}", e.line, e.message))
            .collect::<Vec<_>>()
            .join("; ")
    })
}

/// English name of a definition.
pub fn name(def: &SurveyDefinition) -> String {
    survey::local_text(&def.name, "en")
}

/// Answers a person might give, page by page (skip logic applied as they go); `seed` varies
/// them. With `complete` every shown question is answered, else only the first page.
pub fn demo_answers(def: &SurveyDefinition, seed: u64, complete: bool) -> Answers {
    let mut answers = Answers::new();
    let mut n = seed;
    let mut pick = |len: usize| {
        n = n
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((n >> 33) as usize) % len.max(1)
    };
    for (page_index, page) in def.pages.iter().enumerate() {
        if !complete && page_index > 0 {
            break;
        }
        for q in &page.questions {
            let shown = survey::visibility(def, &answers);
            if !shown.questions.contains(&q.id) {
                continue;
            }
            let value = |q: &wasm_core::model::SurveyQuestion, k: usize| -> String {
                match q.kind {
                    // Mostly "no": a realistic history is short.
                    QuestionKind::YesNo => {
                        if k.is_multiple_of(4) { "yes" } else { "no" }.to_owned()
                    }
                    QuestionKind::Single => q.options[k % q.options.len()].value.clone(),
                    QuestionKind::Number => q.min.clone().unwrap_or_else(|| "1".to_owned()),
                    QuestionKind::Date => "2024-03-15".to_owned(),
                    _ => "None".to_owned(),
                }
            };
            let answer = match q.kind {
                QuestionKind::Display => continue,
                QuestionKind::Multiple => {
                    Answer::Many(vec![q.options[pick(q.options.len())].value.clone()])
                }
                QuestionKind::Table => {
                    let mut row = SortedMap::new();
                    for c in &q.columns {
                        row.insert(c.id.clone(), value(c, pick(4)));
                    }
                    Answer::Rows(vec![row])
                }
                QuestionKind::Text if !q.required => continue,
                _ => Answer::One(value(q, pick(4))),
            };
            answers.insert(q.id.clone(), answer);
        }
    }
    survey::clean_answers(def, &answers)
}

/// The demo kiosk (spec 01 §2.5): staff start is on with the admin PIN 2468; the North Pavilion
/// (102) starts the pre-exam screening; the default survey is the medical history.
pub fn demo_settings() -> Vec<(&'static str, serde_json::Value)> {
    vec![
        (
            crate::settings::CORE_PORTAL,
            // A configured portal has its database, public address and COM IDs (spec 03 §5
            // requires them): the demo's are this machine's (the default bind address).
            serde_json::to_value(wasm_core::settings::core_portal::CorePortal {
                portal_sql_server_name: "localhost:5432".into(),
                portal_sql_db_name: "portal".into(),
                portal_integrated_security: true,
                public_web_address: "http://127.0.0.1:8080/".into(),
                prod_com_class_name: "MagView.TechpadHistory".into(),
                test_com_class_name: "MagView.TechpadHistory.Test".into(),
                ..Default::default()
            })
            .unwrap_or_default(),
        ),
        (
            crate::settings::USER_MANAGEMENT,
            // The demo clinic runs in demo mode (the demo reset, demo accounts).
            serde_json::to_value(wasm_core::settings::user_management::UserManagement {
                enable_demo_mode: true,
                ..Default::default()
            })
            .unwrap_or_default(),
        ),
        (
            crate::routes::configuration::CORE_SURVEY,
            serde_json::json!({
                "SURVEY_SELECT_PATIENT_MODE": true,
                "SURVEY_ADMIN_PIN": "2468",
                "SurveyPerLocation": [{"Key": "102", "Value": "PES-010"}]
            }),
        ),
        (
            crate::settings::SURVEY_GENERAL,
            // The defaults with the demo's survey choice (its summary report stays off).
            serde_json::to_value(wasm_core::settings::survey_general::SurveyGeneral {
                default_survey: "BIH-001".into(),
                is_survey_per_location_enabled: true,
                ..Default::default()
            })
            .unwrap_or_default(),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_core_portal_is_complete() {
        use wasm_core::settings::SettingsGroup;
        let (_, body) = demo_settings()
            .into_iter()
            .find(|(g, _)| *g == crate::settings::CORE_PORTAL)
            .unwrap();
        let portal: wasm_core::settings::core_portal::CorePortal =
            serde_json::from_value(body).unwrap();
        assert!(portal.validate().is_valid(), "{:?}", portal.validate());
    }

    #[test]
    fn shipped_surveys_parse_and_demo_answers_are_valid() {
        for (file, xml) in SHIPPED {
            let def = shipped(xml).unwrap_or_else(|e| panic!("{file}: {e}"));
            for seed in 0..20 {
                let answers = demo_answers(&def, seed, true);
                let errors = survey::validate_answers(&def, &answers, None);
                assert!(
                    errors.is_valid(),
                    "{file} seed {seed}: {errors:?} for {answers:?}"
                );
            }
        }
    }
}
