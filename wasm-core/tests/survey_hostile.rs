//! A fixed-seed generator feeds the survey parser and rules garbage: broken XML, fragments of the
//! real format mixed at random, hostile markup. Nothing may panic, the parser answers either a
//! survey or errors with lines inside the input, and the rules accept any answers.

use wasm_core::sorted_map::SortedMap;

use wasm_core::model::{Answer, Answers};
use wasm_core::survey::{clean_answers, parse_survey, validate_answers, visibility};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn text(&mut self, pieces: &[&str], max: usize) -> String {
        (0..self.below(max + 1))
            .map(|_| pieces[self.below(pieces.len())])
            .collect()
    }
}

const PIECES: &[&str] = &[
    "<",
    ">",
    "/",
    "</",
    "/>",
    "=",
    "\"",
    "'",
    "&",
    ";",
    "&amp;",
    "&lt;",
    "&#",
    "&#x",
    "&#0;",
    "&#xD800;",
    "&#1114112;",
    "&#65;",
    "&x;",
    "<!--",
    "-->",
    "<![CDATA[",
    "]]>",
    "<!DOCTYPE",
    "<!ENTITY",
    "<?xml",
    "?>",
    "<?",
    "\n",
    " ",
    "\t",
    "é",
    "€",
    "\u{feff}",
    "survey",
    "page",
    "question",
    "option",
    "column",
    "text",
    "name",
    "title",
    "enableWhen",
    " id=\"a\"",
    " id=\"b\"",
    " id=\"p\"",
    " type=\"single\"",
    " type=\"table\"",
    " type=\"number\"",
    " type=\"date\"",
    " type=\"yesno\"",
    " type=\"multiple\"",
    " type=\"display\"",
    " storage=\"t.a\"",
    " storage=\"t.b\"",
    " required=\"true\"",
    " min=\"1\"",
    " max=\"0.5\"",
    " decimals=\"9\"",
    " max-rows=\"99\"",
    " question=\"a\"",
    " operator=\"=\"",
    " operator=\">=\"",
    " answer=\"1\"",
    " value=\"v\"",
    " lang=\"es\"",
    " lang=\"en\"",
    " enable-behavior=\"any\"",
    "x",
    "1",
];

const TEMPLATE_PIECES: &[&str] = &[
    "<page id=\"p\"><title>T</title>",
    "<page id=\"q\"><title>U</title><enableWhen question=\"a\" operator=\"exists\" answer=\"true\"/>",
    "</page>",
    "<question id=\"a\" type=\"yesno\" storage=\"t.a\"><text>A</text></question>",
    "<question id=\"b\" type=\"number\" min=\"0\" max=\"9\" storage=\"t.b\"><text>B</text><enableWhen question=\"a\" operator=\"=\" answer=\"yes\"/></question>",
    "<question id=\"c\" type=\"table\" storage=\"t.c\"><text>C</text><column id=\"k\" type=\"number\"><text>K</text></column></question>",
    "<question id=\"d\" type=\"multiple\" storage=\"t.d\"><text>D</text><option value=\"v\"><text>V</text></option></question>",
    "<question id=\"e\" type=\"date\" storage=\"t.e\" enable-behavior=\"any\"><text>E</text><enableWhen question=\"b\" operator=\"&gt;\" answer=\"3\"/><enableWhen question=\"d\" operator=\"=\" answer=\"v\"/></question>",
    "<text>", "</text>", "<", "\"", "&", "<!DOCTYPE x>",
];

const VALUES: &[&str] = &[
    "",
    "yes",
    "no",
    "v",
    "1",
    "3.5",
    "-0",
    "99999999999999999999",
    "2024-02-29",
    "é",
    "k",
];

fn random_answers(rng: &mut Rng) -> Answers {
    let ids = ["a", "b", "c", "d", "e", "zz"];
    let mut out = Answers::new();
    for _ in 0..rng.below(7) {
        let id = ids[rng.below(ids.len())].to_owned();
        let answer = match rng.below(3) {
            0 => Answer::One(VALUES[rng.below(VALUES.len())].to_owned()),
            1 => Answer::Many(
                (0..rng.below(4))
                    .map(|_| VALUES[rng.below(VALUES.len())].to_owned())
                    .collect(),
            ),
            _ => Answer::Rows(
                (0..rng.below(4))
                    .map(|_| {
                        let mut row = SortedMap::new();
                        row.insert(
                            ids[rng.below(ids.len())].to_owned(),
                            VALUES[rng.below(VALUES.len())].to_owned(),
                        );
                        row.insert("k".to_owned(), VALUES[rng.below(VALUES.len())].to_owned());
                        row
                    })
                    .collect(),
            ),
        };
        out.insert(id, answer);
    }
    out
}

fn check(xml: &str, rng: &mut Rng) -> bool {
    let lines = xml.matches('\n').count() as u32 + 1;
    let parsed = parse_survey(xml);
    assert!(
        parsed.survey.is_some() == parsed.errors.is_empty(),
        "survey xor errors for {xml:?}"
    );
    for e in &parsed.errors {
        assert!(
            e.line >= 1 && e.line <= lines,
            "line {} outside 1..={lines} for {xml:?}",
            e.line
        );
    }
    let Some(survey) = parsed.survey else {
        return false;
    };
    for _ in 0..5 {
        let answers = random_answers(rng);
        let shown = visibility(&survey, &answers);
        let cleaned = clean_answers(&survey, &answers);
        assert!(cleaned.keys().all(|k| shown.questions.contains(k)));
        // Cleaning is stable: what is kept keeps the same questions shown.
        assert_eq!(clean_answers(&survey, &cleaned), cleaned);
        let _ = validate_answers(&survey, &answers, None);
        let _ = validate_answers(&survey, &answers, Some("p"));
    }
    true
}

#[test]
fn garbage_never_panics() {
    let mut rng = Rng(0x5EED_0005);
    for _ in 0..20_000 {
        let xml = rng.text(PIECES, 40);
        check(&xml, &mut rng);
    }
}

#[test]
fn shuffled_fragments_of_the_format_never_panic() {
    let mut rng = Rng(0xC0FF_EE05);
    let mut accepted = 0;
    for _ in 0..20_000 {
        // Pages of random questions (in random order, so enableWhen may point forward), and now
        // and then a random fragment anywhere.
        let mut body = String::new();
        for _ in 0..1 + rng.below(3) {
            body.push_str(TEMPLATE_PIECES[rng.below(2)]);
            for _ in 0..rng.below(5) {
                body.push_str(TEMPLATE_PIECES[3 + rng.below(5)]);
            }
            if rng.below(4) == 0 {
                body.push_str(TEMPLATE_PIECES[rng.below(TEMPLATE_PIECES.len())]);
            }
            body.push_str("</page>");
        }
        let xml = format!("<survey id=\"s\"><name>N</name>{body}</survey>");
        if check(&xml, &mut rng) {
            accepted += 1;
        }
    }
    // The generator must reach the rules, not only the error paths.
    assert!(accepted > 100, "only {accepted} random surveys parsed");
}

#[test]
fn mutated_shipped_survey_never_panics() {
    let src = std::fs::read_to_string(format!(
        "{}/surveys/breast-imaging-history.xml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let bytes = src.as_bytes();
    let mut rng = Rng(0xB1A5_0001);
    for _ in 0..300 {
        let mut b = bytes.to_vec();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(b.len());
            match rng.below(3) {
                0 => b[at] = b"<>&\"'=/ x\n"[rng.below(10)],
                1 => {
                    b.remove(at);
                }
                _ => b.insert(at, b"<>&\"'=/ x\n"[rng.below(10)]),
            }
        }
        // Byte edits can split a multi-byte character; the parser takes text, as the API does.
        let xml = String::from_utf8_lossy(&b);
        check(&xml, &mut rng);
    }
}
