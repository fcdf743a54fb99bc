//! The survey definition parser (src/survey/README.md): what it accepts, and each refusal with
//! its line number.

use wasm_core::model::{QuestionKind, SurveyParse};
use wasm_core::survey::parse_survey;

fn errors(xml: &str) -> Vec<(u32, String)> {
    let SurveyParse { survey, errors } = parse_survey(xml);
    assert!(
        survey.is_none() || errors.is_empty(),
        "never both a survey and errors"
    );
    errors.into_iter().map(|e| (e.line, e.message)).collect()
}

fn has(errors: &[(u32, String)], line: u32, text: &str) -> bool {
    errors.iter().any(|(l, m)| *l == line && m.contains(text))
}

const GOOD: &str = r#"<survey id="S1">
  <name>Mini</name>
  <page id="p1">
    <title>One</title>
    <question id="a" type="yesno" required="true" storage="t.a"><text>A?</text></question>
    <question id="b" type="number" min="0" max="10" decimals="1" storage="t.b">
      <text>B</text><text lang="es">B es</text>
      <enableWhen question="a" operator="exists" answer="true"/>
    </question>
    <question id="c" type="table" max-rows="3" storage="t.c">
      <text>C</text>
      <column id="x" type="date" required="true"><text>X</text></column>
    </question>
  </page>
</survey>"#;

#[test]
fn a_good_definition() {
    let parsed = parse_survey(GOOD);
    assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
    let s = parsed.survey.unwrap();
    assert_eq!(s.id, "S1");
    assert_eq!(s.question_count, 3);
    let qs = &s.pages[0].questions;
    assert_eq!(qs[0].kind, QuestionKind::YesNo);
    assert_eq!(qs[0].options.len(), 2);
    assert_eq!(
        qs[0].options[0].text.len(),
        6,
        "yes/no labelled in the six languages"
    );
    assert_eq!(qs[1].text.get("es").map(String::as_str), Some("B es"));
    assert_eq!(qs[2].columns[0].id, "x");
    assert_eq!(qs[2].max_rows, 3);
}

#[test]
fn shipped_surveys_parse() {
    for name in [
        "breast-imaging-history",
        "pre-exam-screening",
        "mri-safety-screening",
    ] {
        let path = format!("{}/surveys/{name}.xml", env!("CARGO_MANIFEST_DIR"));
        let parsed = parse_survey(&std::fs::read_to_string(path).unwrap());
        assert!(parsed.errors.is_empty(), "{name}: {:?}", parsed.errors);
        let s = parsed.survey.unwrap();
        assert!(s.question_count >= 7, "{name}");
    }
}

#[test]
fn refuses_dtds_and_external_entities() {
    let xxe = "<?xml version=\"1.0\"?>\n<!DOCTYPE survey [\n<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n<survey id=\"a\">&x;</survey>";
    let e = errors(xxe);
    assert!(has(&e, 2, "DTD"), "{e:?}");
    let e = errors("<survey id=\"a\">\n<name>&bomb;</name></survey>");
    assert!(has(&e, 2, "unknown entity"), "{e:?}");
}

#[test]
fn structural_errors_have_lines() {
    let e = errors("<survey id=\"a\">\n  <name>x</name>\n  <page id=\"p\">\n</survey>");
    assert!(
        has(&e, 4, "does not match <page> opened on line 3"),
        "{e:?}"
    );
    let e = errors("<survey id=\"a\">\n<name>x</name>\n<page id=\"p\"><title>t</title>\n<question id=\"q\" type=\"number\" min=\"5\" max=\"1\" storage=\"t.q\"><text>q</text></question></page></survey>");
    assert!(has(&e, 4, "min greater than max"), "{e:?}");
}

#[test]
fn semantic_errors_are_all_listed() {
    let xml = r#"<survey id="bad id">
<page id="p">
<title lang="xx">T</title>
<question id="q1" type="slider" storage="t.q1"><text>?</text></question>
<question id="q2" type="single" storage="t.q2"><text>?</text></question>
<question id="q3" type="text" storage="nodot"><text>?</text>
  <enableWhen question="q9" operator="=" answer="1"/>
</question>
<question id="q4" type="yesno" storage="t.q2"><text>?</text>
  <enableWhen question="q2" operator="&gt;" answer="1"/>
</question>
<question id="q4" type="yesno" storage="t.q5"><text>?</text></question>
<question id="q6" type="date" min="2020-02-30" storage="t.q6"/>
</page>
</survey>"#;
    let e = errors(xml);
    for (line, text) in [
        (1, "survey id 'bad id'"),
        (1, "needs an English <name>"),
        (3, "unknown language 'xx'"),
        (2, "needs an English <title>"),
        (4, "unknown type 'slider'"),
        (5, "needs at least one <option>"),
        (9, "storage 't.q2' is used by two questions"),
        (6, "needs storage=\"table.column\""),
        (7, "'q9', which is not an earlier question"),
        (10, "can only be tested with exists, = or !="),
        (12, "question id 'q4' appears twice"),
        (13, "not a date"),
        (13, "needs an English <text>"),
    ] {
        assert!(
            has(&e, line, text),
            "missing line {line} '{text}' in {e:#?}"
        );
    }
}

#[test]
fn caps_size_and_depth() {
    let big = format!("<survey id=\"a\">{}</survey>", " ".repeat(600 * 1024));
    assert!(errors(&big)[0].1.contains("larger than"));
    let deep = format!(
        "<survey id=\"a\">{}{}</survey>",
        "<x>".repeat(20),
        "</x>".repeat(20)
    );
    assert!(errors(&deep)[0].1.contains("deeper than"));
}
