//! Letters as PDF (spec 01 §2.3; issue 4 part 3): a US Letter page with the clinic's logo, name
//! and address, the date, the patient's address block, the subject (letter type, patient, study
//! date and description), the body wrapped to the page, a closing, and "Page n of m" with the
//! clinic line in the footer of every page. A long body flows onto further pages, which repeat a
//! short header. Built with lopdf (`crate::pdf`): WinAnsi text in the standard Helvetica fonts (a
//! few kilobytes), other scripts shaped in embedded subset Noto fonts. The body is the letter's
//! text in the patient's language when it has one ([`body_in`]).

use lopdf::Object;

pub use crate::pdf::JpegLogo;
use crate::pdf::{assemble, bold_width, Page, BRAND, PAGE_H, PAGE_W};
pub use crate::pdf::{page_count, text_width, wrap};

/// The letter's text in the patient's `language` when the letter has one (a non-empty entry
/// for the language's code in `translations`, the JSON object of `letters.body_translations`),
/// else `body` (English).
pub fn body_in(body: &str, translations: Option<&str>, language: &str) -> String {
    let code = wasm_core::labels::LANGUAGES
        .iter()
        .find(|(name, _)| *name == wasm_core::labels::language_name(language))
        .map_or("en", |(_, code)| *code);
    translations
        .and_then(|t| serde_json::from_str::<std::collections::BTreeMap<String, String>>(t).ok())
        .and_then(|mut texts| texts.remove(code))
        .filter(|text| !text.trim().is_empty())
        .unwrap_or_else(|| body.to_owned())
}

/// A letter's fixed texts in the patient's language (`Letter_*` labels, wasm-core/labels/
/// letters.json). Placeholders: `{phone}`, `{type}`, `{mrn}`, `{patient}`, `{clinic}`, `{n}`,
/// `{total}`.
#[derive(Debug, Clone)]
pub struct LetterTexts {
    pub services: String,
    pub phone: String,
    pub re: String,
    pub patient: String,
    pub patient_id: String,
    pub date_of_birth: String,
    pub study_date: String,
    pub procedure: String,
    pub closing: String,
    pub continued: String,
    pub footer: String,
    pub page_of: String,
}

impl LetterTexts {
    /// The texts by label key (`Letter_Services`, ...), from `text`.
    pub fn from_labels(text: impl Fn(&str) -> String) -> LetterTexts {
        let t = |what: &str| text(&format!("Letter_{what}"));
        LetterTexts {
            services: t("Services"),
            phone: t("Phone"),
            re: t("Re"),
            patient: t("Patient"),
            patient_id: t("PatientId"),
            date_of_birth: t("DateOfBirth"),
            study_date: t("StudyDate"),
            procedure: t("Procedure"),
            closing: t("Closing"),
            continued: t("Continued"),
            footer: t("Footer"),
            page_of: t("PageOf"),
        }
    }

    /// The shipped texts in `language`.
    pub fn shipped(language: &str) -> LetterTexts {
        LetterTexts::from_labels(|key| crate::labels_catalog::text(key, language))
    }
}

impl Default for LetterTexts {
    fn default() -> LetterTexts {
        LetterTexts::shipped("en")
    }
}

/// `template` with each `{name}` replaced by its value.
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    values
        .iter()
        .fold(template.to_owned(), |text, (name, value)| {
            text.replace(&format!("{{{name}}}"), value)
        })
}

/// What a letter shows. Dates are already formatted for the reader.
#[derive(Debug, Clone, Default)]
pub struct LetterPdf {
    pub clinic_name: String,
    pub clinic_address: String,
    pub clinic_phone: String,
    pub letter_type: String,
    pub letter_date: String,
    pub patient_name: String,
    pub patient_mrn: String,
    pub patient_dob: String,
    pub patient_address: String,
    pub study_date: String,
    pub study_desc: String,
    pub body: String,
    /// The fixed texts, in the patient's language.
    pub texts: LetterTexts,
}

const MARGIN: f32 = 72.0;
const TEXT_W: f32 = PAGE_W - 2.0 * MARGIN;
const BODY_SIZE: f32 = 11.0;
const LEADING: f32 = 15.0;
/// Lowest baseline of body text (above the footer).
const BOTTOM: f32 = 96.0;

/// The full header of the first page; returns the baseline below it.
fn first_page_header(page: &mut Page, l: &LetterPdf, logo: Option<&JpegLogo>) -> f32 {
    let top = PAGE_H - MARGIN;
    // The clinic's uploaded logo, 44 pt high and at most 120 pt wide; else the built-in mark.
    let logo_w = match logo {
        Some(img) => {
            let scale = (44.0 / img.height as f32).min(120.0 / img.width as f32);
            let (w, h) = (img.width as f32 * scale, img.height as f32 * scale);
            page.op("q", vec![]);
            page.op(
                "cm",
                vec![
                    Object::Real(w),
                    0.into(),
                    0.into(),
                    Object::Real(h),
                    Object::Real(MARGIN),
                    Object::Real(top - 44.0 + (44.0 - h) / 2.0),
                ],
            );
            page.op("Do", vec![Object::Name(b"Logo".to_vec())]);
            page.op("Q", vec![]);
            w
        }
        None => {
            page.logo(MARGIN, top - 44.0, 22.0);
            44.0
        }
    };
    let text_x = MARGIN + logo_w + 12.0;
    page.fill(BRAND);
    page.text(text_x, top - 18.0, true, 18.0, &l.clinic_name);
    page.fill([0.35, 0.35, 0.38]);
    page.text(text_x, top - 34.0, false, 9.5, &l.texts.services);
    let contact = [l.clinic_address.as_str(), l.clinic_phone.as_str()];
    let mut y = top - 10.0;
    for (i, part) in contact.iter().filter(|p| !p.trim().is_empty()).enumerate() {
        let text = if i == 1 {
            fill(&l.texts.phone, &[("phone", part)])
        } else {
            (*part).to_owned()
        };
        page.text_right(PAGE_W - MARGIN, y, false, 9.0, &text);
        y -= 12.0;
    }
    page.line(MARGIN, top - 56.0, PAGE_W - MARGIN, top - 56.0, 1.5, BRAND);

    // Date on the right, the patient's address block on the left.
    page.fill([0.1, 0.1, 0.12]);
    let mut y = top - 88.0;
    page.text_right(PAGE_W - MARGIN, y, false, 10.5, &l.letter_date);
    page.text(MARGIN, y, true, 11.0, &l.patient_name);
    for line in l
        .patient_address
        .split('\n')
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        y -= 14.0;
        page.text(MARGIN, y, false, 11.0, line);
    }

    // The subject box.
    y -= 34.0;
    let box_top = y + 16.0;
    let t = &l.texts;
    let rows: Vec<(&str, String)> = [
        (
            t.patient.as_str(),
            format!(
                "{}   ({})",
                l.patient_name,
                fill(&t.patient_id, &[("mrn", &l.patient_mrn)])
            ),
        ),
        (t.date_of_birth.as_str(), l.patient_dob.clone()),
        (t.study_date.as_str(), l.study_date.clone()),
        (t.procedure.as_str(), l.study_desc.clone()),
    ]
    .into_iter()
    .filter(|(_, v)| !v.trim().is_empty())
    .collect();
    let box_h = 24.0 + 14.0 * rows.len() as f32;
    page.op("q", vec![]);
    page.fill([0.98, 0.94, 0.96]);
    page.op(
        "re",
        vec![
            Object::Real(MARGIN),
            Object::Real(box_top - box_h),
            Object::Real(TEXT_W),
            Object::Real(box_h),
        ],
    );
    page.op("f", vec![]);
    page.op("Q", vec![]);
    page.fill(BRAND);
    page.text(
        MARGIN + 10.0,
        y,
        true,
        12.0,
        &fill(&t.re, &[("type", &l.letter_type)]),
    );
    page.fill([0.1, 0.1, 0.12]);
    // The values start after the widest label (translations run longer than English).
    let column = rows
        .iter()
        .map(|(label, _)| bold_width(label, 9.5) + 12.0)
        .fold(90.0_f32, f32::max);
    for (label, value) in &rows {
        y -= 14.0;
        page.text(MARGIN + 10.0, y, true, 9.5, label);
        page.text(MARGIN + 10.0 + column, y, false, 9.5, value);
    }
    box_top - box_h - 26.0
}

/// The short header of a continuation page; returns the baseline below it.
fn next_page_header(page: &mut Page, l: &LetterPdf) -> f32 {
    let top = PAGE_H - MARGIN;
    page.fill(BRAND);
    page.text(MARGIN, top - 8.0, true, 12.0, &l.clinic_name);
    page.fill([0.35, 0.35, 0.38]);
    page.text_right(
        PAGE_W - MARGIN,
        top - 8.0,
        false,
        9.0,
        &fill(
            &l.texts.continued,
            &[("type", &l.letter_type), ("patient", &l.patient_name)],
        ),
    );
    page.line(MARGIN, top - 16.0, PAGE_W - MARGIN, top - 16.0, 1.0, BRAND);
    top - 44.0
}

fn footer(page: &mut Page, l: &LetterPdf, n: usize, total: usize) {
    page.line(MARGIN, 62.0, PAGE_W - MARGIN, 62.0, 0.5, [0.75, 0.75, 0.78]);
    page.fill([0.4, 0.4, 0.43]);
    page.text(
        MARGIN,
        48.0,
        false,
        8.0,
        &fill(&l.texts.footer, &[("clinic", &l.clinic_name)]),
    );
    page.text_right(
        PAGE_W - MARGIN,
        48.0,
        false,
        8.0,
        &fill(
            &l.texts.page_of,
            &[("n", &n.to_string()), ("total", &total.to_string())],
        ),
    );
    if !l.patient_mrn.is_empty() {
        page.text_centre(
            PAGE_W / 2.0,
            48.0,
            8.0,
            &fill(&l.texts.patient_id, &[("mrn", &l.patient_mrn)]),
        );
    }
}

/// The letter as a PDF file, with the built-in logo.
pub fn render(l: &LetterPdf) -> Vec<u8> {
    render_with_logo(l, None)
}

/// The letter as a PDF file; `logo` replaces the built-in mark on the first page.
pub fn render_with_logo(l: &LetterPdf, logo: Option<&JpegLogo>) -> Vec<u8> {
    let mut body = wrap(&l.body, BODY_SIZE, TEXT_W);
    body.push(String::new());
    body.push(l.texts.closing.clone());
    body.push(String::new());
    body.push(l.clinic_name.clone());
    body.push(l.texts.services.clone());

    // Lay the lines out on pages first, so the footer can say "of m".
    let mut pages: Vec<Page> = Vec::new();
    let mut page = Page::new();
    let mut y = first_page_header(&mut page, l, logo);
    page.fill([0.1, 0.1, 0.12]);
    for line in &body {
        if y < BOTTOM {
            pages.push(page);
            page = Page::new();
            y = next_page_header(&mut page, l);
            page.fill([0.1, 0.1, 0.12]);
        }
        // The closing's signature line is bold.
        let bold = line == &l.clinic_name;
        if !line.is_empty() {
            page.text(MARGIN, y, bold, BODY_SIZE, line);
        }
        y -= LEADING;
    }
    pages.push(page);

    let total = pages.len();
    for (i, page) in pages.iter_mut().enumerate() {
        footer(page, l, i + 1, total);
    }
    assemble(
        pages,
        &format!("{} - {}", l.letter_type, l.patient_name),
        &l.clinic_name,
        logo,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use lopdf::Document;

    pub fn sample(body: &str) -> LetterPdf {
        LetterPdf {
            clinic_name: "Demo Breast Imaging".into(),
            clinic_address: "100 Harbor Street, Springfield".into(),
            clinic_phone: "555-0101".into(),
            letter_type: "Patient Result Letter".into(),
            letter_date: "Thursday, March 5, 2026".into(),
            patient_name: "María García".into(),
            patient_mrn: "MRN100002".into(),
            patient_dob: "04/12/1970".into(),
            patient_address: "12 Elm Street\nSpringfield, IL 62701".into(),
            study_date: "03/02/2026".into(),
            study_desc: "Screening Mammogram".into(),
            body: body.into(),
            texts: LetterTexts::default(),
        }
    }

    #[test]
    fn a_short_letter_is_one_page_and_a_long_one_two() {
        let short = render(&sample("Dear María,\n\nYour results are normal."));
        assert!(short.starts_with(b"%PDF-1.5"));
        assert_eq!(page_count(&short), 1);
        let long = render(&sample(
            &"The radiologist reviewed your images in detail. ".repeat(120),
        ));
        assert_eq!(page_count(&long), 2);
    }

    /// A 2x1 baseline JPEG's frame header (the scan data does not matter to the parser).
    fn tiny_jpeg() -> Vec<u8> {
        let mut j = vec![0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x4A, 0x46];
        j.extend([0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x01, 0x00, 0x02, 0x03]);
        j.extend([0u8; 9]);
        j.extend([0xFF, 0xD9]);
        j
    }

    #[test]
    fn an_uploaded_jpeg_logo_is_embedded() {
        let logo = JpegLogo::parse(&tiny_jpeg()).expect("parsed");
        assert_eq!((logo.width, logo.height, logo.components), (2, 1, 3));
        let pdf = render_with_logo(&sample("Dear María,"), Some(&logo));
        let doc = Document::load_mem(&pdf).unwrap();
        let images = doc.objects.values().filter(|o| {
            o.as_stream().is_ok_and(|s| {
                s.dict
                    .get(b"Subtype")
                    .and_then(|v| v.as_name())
                    .is_ok_and(|n| n == b"Image")
            })
        });
        assert_eq!(images.count(), 1);
        assert!(JpegLogo::parse(b"\x89PNG\r\n\x1a\n").is_none());
        assert!(JpegLogo::parse(&[0xFF, 0xD8, 0xFF]).is_none());
    }
}
