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

/// The shipped text of `key` in `language`.
fn shipped_text(
    labels: &BTreeMap<String, Vec<(String, String)>>,
    key: &str,
    language: &str,
) -> Option<String> {
    labels
        .get(key)
        .map(|texts| label_text_in(&[], texts, language))
}

#[test]
fn dates_name_their_days_and_months_full_and_short_in_six_languages() {
    use wasm_core::dates::{format_date_pattern, localize_names, DatePlacement};
    let labels = shipped();
    // Wednesday, March 4, 2026 at noon UTC in a clinic pattern with short names, and the letter
    // date's long names.
    let iso = "2026-03-04T12:00:00Z";
    let short = format_date_pattern(iso, "EEE, MMM d, y", 0, "");
    let long = format_date_pattern(iso, "EEEE, MMMM d, y", 0, "");
    assert_eq!(short, "Wed, Mar 4, 2026");
    let cases = [
        (
            "english",
            "Wed, Mar 4, 2026",
            "Wednesday, March 4, 2026",
            "Wednesday, March 4, 2026",
        ),
        (
            "spanish",
            "Mié, mar 4, 2026",
            "Miércoles, marzo 4, 2026",
            "miércoles, marzo 4, 2026",
        ),
        (
            "chinese",
            "周三, 3月 4, 2026",
            "星期三, 三月 4, 2026",
            "星期三, 三月 4, 2026",
        ),
        (
            "cambodian",
            "ពុធ, មីនា 4, 2026",
            "ថ្ងៃពុធ, មីនា 4, 2026",
            "ថ្ងៃពុធ, មីនា 4, 2026",
        ),
        (
            "vietnamese",
            "Th 4, thg 3 4, 2026",
            "Thứ Tư, tháng 3 4, 2026",
            "Thứ Tư, tháng 3 4, 2026",
        ),
        (
            "tagalog",
            "Miy, Mar 4, 2026",
            "Miyerkules, Marso 4, 2026",
            "Miyerkules, Marso 4, 2026",
        ),
    ];
    for (language, want_short, want_long, want_in_sentence) in cases {
        let text = |key: &str| shipped_text(&labels, key, language);
        assert_eq!(
            localize_names(&short, DatePlacement::Standalone, text),
            want_short,
            "{language} short"
        );
        assert_eq!(
            localize_names(&long, DatePlacement::Standalone, text),
            want_long,
            "{language} long"
        );
        assert_eq!(
            localize_names(&long, DatePlacement::InSentence, text),
            want_in_sentence,
            "{language} in a sentence"
        );
    }
    // Every English name, full and short, has a shipped label in every language that differs
    // from English except where the language writes it the same (no name falls through).
    for day in 0..7 {
        for pattern in ["EEE", "EEEE"] {
            let iso = format!("2026-03-{:02}", 1 + day);
            let english = format_date_pattern(&iso, pattern, 0, "");
            let spanish = localize_names(&english, DatePlacement::InSentence, |key| {
                shipped_text(&labels, key, "spanish")
            });
            assert_ne!(english, spanish, "{english} has no Spanish label");
        }
    }
    for month in 1..=12 {
        for pattern in ["MMM", "MMMM"] {
            let iso = format!("2026-{month:02}-01");
            let english = format_date_pattern(&iso, pattern, 0, "");
            let chinese = localize_names(&english, DatePlacement::InSentence, |key| {
                shipped_text(&labels, key, "chinese")
            });
            assert_ne!(english, chinese, "{english} has no Chinese label");
        }
    }
}

#[test]
fn the_letter_viewer_title_in_six_languages() {
    use wasm_core::documents::letter_title_in;
    let labels = shipped();
    let cases = [
        ("english", "Jane Doe - Patient ID: MRN100001 - Study Date: 02/03/2026 - Screening Mammogram"),
        ("spanish", "Jane Doe - ID del paciente: MRN100001 - Fecha del examen: 02/03/2026 - Screening Mammogram"),
        ("chinese", "Jane Doe - 患者编号：MRN100001 - 检查日期：02/03/2026 - Screening Mammogram"),
        ("cambodian", "Jane Doe - លេខសម្គាល់អ្នកជំងឺ៖ MRN100001 - កាលបរិច្ឆេទពិនិត្យ៖ 02/03/2026 - Screening Mammogram"),
        ("vietnamese", "Jane Doe - Mã bệnh nhân: MRN100001 - Ngày chụp: 02/03/2026 - Screening Mammogram"),
        ("tagalog", "Jane Doe - ID ng pasyente: MRN100001 - Petsa ng pagsusuri: 02/03/2026 - Screening Mammogram"),
    ];
    for (language, want) in cases {
        let got = letter_title_in(
            "Jane Doe",
            "MRN100001",
            Some("2026-02-03"),
            "Screening Mammogram",
            |key| shipped_text(&labels, key, language),
        );
        assert_eq!(got, want, "{language}");
    }
    // A clinic's edit of a label is the text used (the caller passes it).
    assert_eq!(
        letter_title_in("Ann", "7", None, "", |key| (key
            == "Msg_Documents_TitlePatientId")
            .then(|| "MRN {id}".to_owned())),
        "Ann - MRN 7"
    );
}

#[test]
fn documents_setting_texts_left_at_their_defaults_are_labels_in_six_languages() {
    use wasm_core::documents::localize_setting_texts;
    use wasm_core::model::DocumentsSettings;
    let labels = shipped();
    let defaults = || {
        let mut s: DocumentsSettings = serde_json::from_value(serde_json::json!({
            "IsTraceEnabled": false, "ShowAckWhenDisabled": false, "ACKOnView": false,
            "AckOnViewDelay": 5, "CompactViewMode": false, "CompactViewDocumentsDescription": "",
            "CombineDocViewAndReadColumns": false, "ShowOtherDocumentsTab": false,
            "ShowReferringPhysicianLettersWithOtherDocuments": false, "ShowPatNameColumn": true,
            "ShowDateWhenSentColumn": true, "ShowStudyDateColumn": true,
            "ShowStudyDescColumn": true, "ShowNotifTypeColumn": true, "ShowReadColumn": true,
            "ShowAckColumn": true, "DocPatNameColumnTitle": "", "DocViewColumnTitle": "",
            "DocViewWhenColumnTitle": "", "DocStudyDateColTitle": "", "DocStudyDescColTitle": "",
            "DocTypeColumnTitle": "", "DocNotifTypeColumnTitle": "", "DocReadColumnTitle": "",
            "DocAckColumnTitle": "", "OtherDocDateColTitle": "", "DocViewBtnText": "",
            "DocAckBtnText": "", "UnreadTabLabel": ""
        }))
        .unwrap();
        // Blank texts are the groups' own defaults (no label text given).
        localize_setting_texts(&mut s, |_| None);
        s
    };
    let english = defaults();
    assert_eq!(english.doc_pat_name_column_title, "Patient Name");
    assert_eq!(english.doc_ack_btn_text, "Acknowledge");
    // Every key asked for is shipped, and its English is the settings group's default.
    let asked = std::cell::RefCell::new(Vec::new());
    let mut s = defaults();
    localize_setting_texts(&mut s, |key| {
        asked.borrow_mut().push(key.to_owned());
        shipped_text(&labels, key, "english")
    });
    assert_eq!(asked.borrow().len(), 13);
    for key in asked.borrow().iter() {
        assert!(labels.contains_key(key), "{key} is not shipped");
    }
    assert_eq!(
        s, english,
        "a label's English differs from the group's default"
    );
    // Spanish and Chinese: every default text is translated.
    for (language, patient_name, ack) in [
        ("spanish", "Nombre del paciente", "Confirmar lectura"),
        ("chinese", "患者姓名", "确认已读"),
    ] {
        let mut s = defaults();
        localize_setting_texts(&mut s, |key| shipped_text(&labels, key, language));
        assert_eq!(s.doc_pat_name_column_title, patient_name);
        assert_eq!(s.doc_ack_btn_text, ack);
        assert_ne!(
            s.doc_view_when_column_title,
            english.doc_view_when_column_title
        );
    }
    // A text the clinic wrote is shown as written, in every language.
    let mut s = defaults();
    s.doc_type_column_title = "Kind of letter".to_owned();
    s.doc_view_btn_text = "Open".to_owned();
    localize_setting_texts(&mut s, |key| shipped_text(&labels, key, "spanish"));
    assert_eq!(s.doc_type_column_title, "Kind of letter");
    assert_eq!(s.doc_view_btn_text, "Open");
    assert_eq!(s.doc_study_date_col_title, "Fecha del examen");
}
