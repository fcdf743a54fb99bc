//! The wasm-core messages patients read, per language (tests/cases/native/patient_messages.json):
//! each message finds its `Msg_` label (a constant one through labels::message_key, one with a
//! number or a name through message_templates) and that label's shipped text in the language
//! (labels/*.json, through labels::label_text_in, the rule the API and the web use), with the
//! message's numbers and names put into its placeholders.
//! Native only: the shipped label files are read from disk, not built into the wasm package.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::Value;
use wasm_core::labels::{label_text_in, LANGUAGES, PATIENT_MESSAGES};
use wasm_core::message_templates::{message_in, MESSAGE_TEMPLATES};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every shipped label: key -> (language name, text) in the language list's order.
fn shipped() -> BTreeMap<String, Vec<(String, String)>> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(root().join("labels")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let labels: BTreeMap<String, Value> =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for (key, label) in labels {
            let texts = LANGUAGES
                .iter()
                .map(|(name, code)| ((*name).to_owned(), label[code].as_str().unwrap().to_owned()))
                .collect();
            out.insert(key, texts);
        }
    }
    out
}

fn translate(
    labels: &BTreeMap<String, Vec<(String, String)>>,
    message: &str,
    language: &str,
) -> String {
    message_in(message, |key| label_text_in(&[], &labels[key], language))
}

#[test]
fn patient_messages_per_language() {
    let labels = shipped();
    let path = root().join("tests/cases/native/patient_messages.json");
    let cases: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert!(!cases.is_empty());
    for case in &cases {
        let input = &case["input"];
        let got = translate(
            &labels,
            input["message"].as_str().unwrap(),
            input["language"].as_str().unwrap(),
        );
        assert_eq!(got, case["expected"].as_str().unwrap(), "{}", case["name"]);
    }
}

#[test]
fn every_patient_message_has_a_shipped_label_in_six_languages() {
    let labels = shipped();
    for (key, english) in PATIENT_MESSAGES.iter().chain(MESSAGE_TEMPLATES) {
        let texts = labels
            .get(*key)
            .unwrap_or_else(|| panic!("{key} is not shipped"));
        assert_eq!(
            texts[0].1, *english,
            "{key}: English differs from wasm-core"
        );
        assert!(
            texts.iter().all(|(_, t)| !t.trim().is_empty()),
            "{key}: a language is empty"
        );
    }
}
