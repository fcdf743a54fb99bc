//! Letter PDF generation timing (bench/patient-area.sh) and a sample letter to look at.
//!   cargo run --release -p portal-api --example letter_pdf -- [iterations] [sample.pdf]
//! Prints one line: `letter_pdf pages=2 bytes=N iterations=N p50_us=N p99_us=N mean_us=N`.

use std::time::Instant;

use portal_api::letter_pdf::{page_count, render, LetterPdf};

fn main() {
    let mut args = std::env::args().skip(1);
    let iterations: usize = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(2000)
        .clamp(10, 100_000);
    let sample_path = args.next();
    let body = format!(
        "Dear Jane Doe,\n\n{}\n\n{}\n\n{}",
        "Thank you for choosing our center for your recent breast imaging examination. We are writing to let you know the results of the examination listed above, which has been reviewed by a board-certified radiologist who specialises in breast imaging.",
        "Your examination showed no evidence of cancer. Findings such as benign calcifications, lymph nodes within the breast, or stable masses may have been noted; these are common and do not need any further action at this time. ".repeat(6),
        "Breast density: your breast tissue is heterogeneously dense, which may make it harder to find cancer on a mammogram and may raise the risk of developing breast cancer. This information is given to raise your awareness; talk to your health care provider about your own risks and whether other screening tests might be useful for you. ".repeat(4),
    );
    let letter = LetterPdf {
        clinic_name: "Demo Breast Imaging".into(),
        clinic_address: "100 Harbor Street, Springfield".into(),
        clinic_phone: "555-0101".into(),
        letter_type: "Patient Result Letter".into(),
        letter_date: "Thursday, March 5, 2026".into(),
        patient_name: "Jane Doe".into(),
        patient_mrn: "MRN100001".into(),
        patient_dob: "01/15/1975".into(),
        patient_address: "12 Elm Street\nSpringfield, IL 62701".into(),
        study_date: "03/02/2026".into(),
        study_desc: "Screening Mammogram, bilateral, with tomosynthesis".into(),
        body,
        texts: Default::default(),
    };
    let pdf = render(&letter);
    let pages = page_count(&pdf);
    if let Some(path) = sample_path {
        std::fs::write(&path, &pdf).expect("write the sample");
    }
    // Warm up, then time each render.
    for _ in 0..20 {
        std::hint::black_box(render(&letter));
    }
    let mut micros: Vec<u128> = (0..iterations)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(render(std::hint::black_box(&letter)));
            start.elapsed().as_micros()
        })
        .collect();
    micros.sort_unstable();
    let pct = |p: f64| micros[((micros.len() as f64 - 1.0) * p).round() as usize];
    let mean = micros.iter().sum::<u128>() / micros.len() as u128;
    println!(
        "letter_pdf pages={pages} bytes={} iterations={iterations} p50_us={} p99_us={} mean_us={mean}",
        pdf.len(),
        pct(0.50),
        pct(0.99)
    );
}
