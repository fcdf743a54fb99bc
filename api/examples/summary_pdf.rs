//! Survey summary PDF timing (bench/surveys.sh) and a sample to look at.
//!   cargo run --release -p portal-api --example summary_pdf -- [iterations] [sample.pdf]
//! A 100-question survey (ten pages of choice, yes/no, number, date and text questions, a
//! relatives table with five rows, every tenth question skipped by logic), answered in Spanish.
//! Each timed iteration does what a submission does: the shown questions and answers from
//! wasm-core, then the PDF. Prints one line:
//! `summary_pdf questions=100 shown=N pages=N bytes=N iterations=N p50_us=N p99_us=N mean_us=N`.

use std::time::Instant;

use portal_api::pdf::page_count;
use portal_api::summary_pdf::{render, Alignment, PageNumbers, SummaryPdf};
use wasm_core::model::{Answer, Answers};
use wasm_core::survey::{parse_survey, summary::summary};

fn survey_xml() -> String {
    let mut x = String::from("<survey id=\"BENCH-100\" version=\"1\"><name lang=\"en\">Breast Imaging Medical History</name>");
    let mut n = 0;
    for p in 0..10 {
        x += &format!("<page id=\"p{p}\"><title lang=\"en\">Section {p}: history and symptoms</title><title lang=\"es\">Sección {p}: antecedentes y síntomas</title>");
        for i in 0..10 {
            let id = format!("q{n}");
            let text = format!(
                "<text lang=\"en\">Question {n}: in the past five years, have you had any breast symptom, imaging or procedure we should know about?</text>\
                 <text lang=\"es\">Pregunta {n}: en los últimos cinco años, ¿ha tenido algún síntoma, estudio o procedimiento mamario que debamos conocer?</text>"
            );
            // Every tenth question is shown only when the page's first answer is 'yes' (it is 'no').
            let when = if i == 9 {
                format!(
                    "<enableWhen question=\"q{}\" operator=\"=\" answer=\"yes\"/>",
                    n - 9
                )
            } else {
                String::new()
            };
            x += &match (p, i) {
                (9, 5) => format!(
                    "<question id=\"{id}\" type=\"table\" min-rows=\"1\" max-rows=\"20\" storage=\"f.rel\">{text}\
                     <column id=\"relation\" type=\"text\"><text lang=\"en\">Relative</text><text lang=\"es\">Familiar</text></column>\
                     <column id=\"cancer\" type=\"text\"><text lang=\"en\">Cancer type</text><text lang=\"es\">Tipo de cáncer</text></column>\
                     <column id=\"age\" type=\"number\" min=\"1\" max=\"120\"><text lang=\"en\">Age at diagnosis</text><text lang=\"es\">Edad al diagnóstico</text></column></question>"
                ),
                (_, 0 | 9) => format!("<question id=\"{id}\" type=\"yesno\" storage=\"h.{id}\">{text}{when}</question>"),
                (_, 1 | 4) => format!(
                    "<question id=\"{id}\" type=\"single\" storage=\"h.{id}\">{text}\
                     <option value=\"a\"><text lang=\"en\">Left breast</text><text lang=\"es\">Seno izquierdo</text></option>\
                     <option value=\"b\"><text lang=\"en\">Right breast</text><text lang=\"es\">Seno derecho</text></option></question>"
                ),
                (_, 2) => format!("<question id=\"{id}\" type=\"number\" min=\"0\" max=\"120\" storage=\"h.{id}\">{text}</question>"),
                (_, 3) => format!("<question id=\"{id}\" type=\"date\" storage=\"h.{id}\">{text}</question>"),
                _ => format!("<question id=\"{id}\" type=\"text\" max-length=\"500\" storage=\"h.{id}\">{text}</question>"),
            };
            n += 1;
        }
        x += "</page>";
    }
    x + "</survey>"
}

fn answers() -> Answers {
    let mut a = Answers::new();
    for n in 0..100 {
        let id = format!("q{n}");
        let v = match (n / 10, n % 10) {
            (9, 5) => {
                let rows = ["Mother", "Sister", "Maternal aunt", "Grandmother", "Cousin"]
                    .iter()
                    .enumerate()
                    .map(|(i, who)| {
                        [
                            ("relation".to_owned(), (*who).to_owned()),
                            ("cancer".to_owned(), "Cáncer de mama".to_owned()),
                            ("age".to_owned(), (40 + i * 3).to_string()),
                        ]
                        .into_iter()
                        .collect()
                    })
                    .collect();
                Answer::Rows(rows)
            }
            (_, 0 | 9) => Answer::One("no".into()),
            (_, 1 | 4) => Answer::One("a".into()),
            (_, 2) => Answer::One("42".into()),
            (_, 3) => Answer::One("2024-06-15".into()),
            _ => Answer::One("Sentí un bulto pequeño en el seno izquierdo hace dos meses; mi médica pidió una ecografía.".into()),
        };
        a.insert(id, v);
    }
    a
}

fn main() {
    let mut args = std::env::args().skip(1);
    let iterations: usize = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000)
        .clamp(10, 100_000);
    let sample_path = args.next();
    let parsed = parse_survey(&survey_xml());
    let def = parsed
        .survey
        .unwrap_or_else(|| panic!("the bench survey parses: {:?}", parsed.errors));
    let answers = answers();
    let build = || {
        let sections = summary(&def, &answers, "es", &portal_api::pdf::fits_win_ansi);
        render(&SummaryPdf {
            clinic_name: "Demo Breast Imaging".into(),
            header_text: "Breast Imaging Medical History\nConfidential patient information".into(),
            header_on_all_pages: true,
            page_numbers: Some(PageNumbers {
                font_size: 9.0,
                alignment: Alignment::Right,
            }),
            survey_name: "Breast Imaging Medical History".into(),
            patient_name: "María García".into(),
            patient_mrn: "MRN100002".into(),
            patient_dob: "04/12/1970".into(),
            completed: "11/22/2026 10:42 AM".into(),
            study_date: "11/22/2026".into(),
            study_desc: "Screening Mammogram, bilateral, with tomosynthesis".into(),
            location: "Main Campus".into(),
            sections,
            ..Default::default()
        })
    };
    let pdf = build();
    let shown: usize = summary(&def, &answers, "es", &portal_api::pdf::fits_win_ansi)
        .iter()
        .map(|s| s.items.len())
        .sum();
    if let Some(path) = sample_path {
        std::fs::write(&path, &pdf).expect("write the sample");
    }
    for _ in 0..20 {
        std::hint::black_box(build());
    }
    let mut micros: Vec<u128> = (0..iterations)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(build());
            start.elapsed().as_micros()
        })
        .collect();
    micros.sort_unstable();
    let pct = |p: f64| micros[((micros.len() as f64 - 1.0) * p).round() as usize];
    let mean = micros.iter().sum::<u128>() / micros.len() as u128;
    println!(
        "summary_pdf questions={} shown={shown} pages={} bytes={} iterations={iterations} p50_us={} p99_us={} mean_us={mean}",
        def.question_count,
        page_count(&pdf),
        pdf.len(),
        pct(0.50),
        pct(0.99)
    );
}
