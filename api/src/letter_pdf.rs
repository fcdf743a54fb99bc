//! Letters as PDF (spec 01 §2.3; issue 4 part 3): a US Letter page with the clinic's logo, name
//! and address, the date, the patient's address block, the subject (letter type, patient, study
//! date and description), the body wrapped to the page, a closing, and "Page n of m" with the
//! clinic line in the footer of every page. A long body flows onto further pages, which repeat a
//! short header. Built with lopdf from the standard Helvetica fonts (WinAnsi text), so no font
//! file is embedded and a letter is a few kilobytes.

use lopdf::content::{Content, Operation};
use lopdf::{dictionary, Document, Object, Stream};

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
}

/// A clinic logo the PDF can embed as it is: a baseline or progressive JPEG (DCTDecode), 8 bits
/// per component, grey, RGB or CMYK. Other uploads (PNG, GIF) keep the built-in logo.
#[derive(Debug, Clone)]
pub struct JpegLogo {
    data: Vec<u8>,
    width: u32,
    height: u32,
    components: u8,
}

impl JpegLogo {
    /// Reads the size from the JPEG's frame header; `None` when it is not a JPEG this can embed.
    pub fn parse(data: &[u8]) -> Option<JpegLogo> {
        if !data.starts_with(&[0xFF, 0xD8]) {
            return None;
        }
        let mut i = 2;
        while i + 4 <= data.len() {
            if data[i] != 0xFF {
                return None;
            }
            let marker = data[i + 1];
            if marker == 0xFF {
                i += 1;
                continue;
            }
            let len = u16::from_be_bytes([data[i + 2], data[i + 3]]) as usize;
            // SOF0..SOF3, SOF5..SOF7, SOF9..SOF11, SOF13..SOF15 carry the frame size.
            let is_sof = matches!(marker, 0xC0..=0xCF) && !matches!(marker, 0xC4 | 0xC8 | 0xCC);
            if is_sof {
                let f = data.get(i + 4..i + 10)?;
                let (bits, height, width, components) =
                    (f[0], u16::from_be_bytes([f[1], f[2]]) as u32, u16::from_be_bytes([f[3], f[4]]) as u32, f[5]);
                return (bits == 8 && width > 0 && height > 0 && matches!(components, 1 | 3 | 4))
                    .then(|| JpegLogo { data: data.to_vec(), width, height, components });
            }
            if len < 2 {
                return None;
            }
            i += 2 + len;
        }
        None
    }
}

const PAGE_W: f32 = 612.0;
const PAGE_H: f32 = 792.0;
const MARGIN: f32 = 72.0;
const TEXT_W: f32 = PAGE_W - 2.0 * MARGIN;
const BODY_SIZE: f32 = 11.0;
const LEADING: f32 = 15.0;
/// Lowest baseline of body text (above the footer).
const BOTTOM: f32 = 96.0;
/// The brand colour (a deep rose) of the logo and rules.
const BRAND: [f32; 3] = [0.66, 0.13, 0.36];

/// Helvetica advance widths (1/1000 em) of ASCII 32..=126, from the standard font metrics.
const HELVETICA: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // space../
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, // 0..?
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, // @..O
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, // P.._
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, // `..o
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, // p..~
];

fn char_width(c: char) -> f32 {
    let code = c as u32;
    if (32..=126).contains(&code) {
        f32::from(HELVETICA[(code - 32) as usize])
    } else {
        556.0
    }
}

/// Width in points of `text` in Helvetica at `size`.
pub fn text_width(text: &str, size: f32) -> f32 {
    text.chars().map(char_width).sum::<f32>() * size / 1000.0
}

/// Text as WinAnsi bytes (Latin-1 range kept, anything else '?', control characters dropped).
fn win_ansi(text: &str) -> Vec<u8> {
    text.chars()
        .filter(|c| !c.is_control())
        .map(|c| match c {
            '\u{2018}' | '\u{2019}' => b'\'',
            '\u{201C}' | '\u{201D}' => b'"',
            '\u{2013}' => 0x96,
            '\u{2014}' => 0x97,
            '\u{2022}' => 0x95,
            c if (c as u32) < 256 => c as u8,
            _ => b'?',
        })
        .collect()
}

/// Splits `text` into lines no wider than `width` (words longer than a line are cut).
pub fn wrap(text: &str, size: f32, width: f32) -> Vec<String> {
    let mut lines = Vec::new();
    for paragraph in text.replace("\r\n", "\n").split('\n') {
        let mut line = String::new();
        for word in paragraph.split_whitespace() {
            let candidate = if line.is_empty() { word.to_owned() } else { format!("{line} {word}") };
            if text_width(&candidate, size) <= width {
                line = candidate;
                continue;
            }
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            // A word wider than the line is cut where it overflows.
            let mut rest = word.to_owned();
            while text_width(&rest, size) > width {
                let mut cut = 0;
                let mut w = 0.0;
                for (i, c) in rest.char_indices() {
                    w += char_width(c) * size / 1000.0;
                    if w > width {
                        break;
                    }
                    cut = i + c.len_utf8();
                }
                let cut = cut.max(rest.chars().next().map_or(1, char::len_utf8));
                lines.push(rest[..cut].to_owned());
                rest = rest[cut..].to_owned();
            }
            line = rest;
        }
        lines.push(line);
    }
    // No trailing blank lines.
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

struct Page {
    ops: Vec<Operation>,
}

impl Page {
    fn new() -> Page {
        Page { ops: Vec::new() }
    }

    fn op(&mut self, name: &str, operands: Vec<Object>) {
        self.ops.push(Operation::new(name, operands));
    }

    fn fill(&mut self, rgb: [f32; 3]) {
        self.op("rg", rgb.iter().map(|v| Object::Real(*v)).collect());
    }

    fn stroke_colour(&mut self, rgb: [f32; 3]) {
        self.op("RG", rgb.iter().map(|v| Object::Real(*v)).collect());
    }

    /// Text at (x, y) in font F1 (regular) or F2 (bold).
    fn text(&mut self, x: f32, y: f32, bold: bool, size: f32, text: &str) {
        self.op("BT", vec![]);
        self.op("Tf", vec![Object::Name(if bold { b"F2".to_vec() } else { b"F1".to_vec() }), Object::Real(size)]);
        self.op("Td", vec![Object::Real(x), Object::Real(y)]);
        self.op("Tj", vec![Object::string_literal(win_ansi(text))]);
        self.op("ET", vec![]);
    }

    fn text_right(&mut self, right: f32, y: f32, bold: bool, size: f32, text: &str) {
        // Bold is a little wider than regular; 5% keeps it inside the margin.
        let w = text_width(text, size) * if bold { 1.05 } else { 1.0 };
        self.text(right - w, y, bold, size, text);
    }

    fn text_centre(&mut self, centre: f32, y: f32, size: f32, text: &str) {
        self.text(centre - text_width(text, size) / 2.0, y, false, size, text);
    }

    fn line(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, width: f32, rgb: [f32; 3]) {
        self.stroke_colour(rgb);
        self.op("w", vec![Object::Real(width)]);
        self.op("m", vec![Object::Real(x1), Object::Real(y1)]);
        self.op("l", vec![Object::Real(x2), Object::Real(y2)]);
        self.op("S", vec![]);
    }

    /// A circle of radius r at (cx, cy) from four Bézier arcs, filled with the current colour.
    fn disc(&mut self, cx: f32, cy: f32, r: f32) {
        let k = 0.552_284_8 * r;
        let p = |x: f32, y: f32| vec![Object::Real(x), Object::Real(y)];
        self.op("m", p(cx + r, cy));
        self.op("c", [p(cx + r, cy + k), p(cx + k, cy + r), p(cx, cy + r)].concat());
        self.op("c", [p(cx - k, cy + r), p(cx - r, cy + k), p(cx - r, cy)].concat());
        self.op("c", [p(cx - r, cy - k), p(cx - k, cy - r), p(cx, cy - r)].concat());
        self.op("c", [p(cx + k, cy - r), p(cx + r, cy - k), p(cx + r, cy)].concat());
        self.op("f", vec![]);
    }

    /// The clinic logo: a rose disc with an awareness ribbon drawn in white, 44 pt wide.
    fn logo(&mut self, x: f32, y: f32) {
        let r = 22.0;
        let (cx, cy) = (x + r, y + r);
        self.op("q", vec![]);
        self.fill(BRAND);
        self.disc(cx, cy, r);
        // The ribbon: a loop at the top and two crossing tails.
        self.stroke_colour([1.0, 1.0, 1.0]);
        self.op("w", vec![Object::Real(3.2)]);
        self.op("J", vec![Object::Integer(1)]);
        let p = |dx: f32, dy: f32| vec![Object::Real(cx + dx), Object::Real(cy + dy)];
        self.op("m", p(-9.0, -14.0));
        self.op("c", [p(-2.0, -4.0), p(6.0, 6.0), p(5.0, 10.0)].concat());
        self.op("c", [p(4.0, 15.0), p(-4.0, 15.0), p(-5.0, 10.0)].concat());
        self.op("c", [p(-6.0, 6.0), p(2.0, -4.0), p(9.0, -14.0)].concat());
        self.op("S", vec![]);
        self.op("Q", vec![]);
    }

    fn into_stream(self) -> Stream {
        let content = Content { operations: self.ops };
        Stream::new(dictionary! {}, content.encode().unwrap_or_default())
    }
}

/// The full header of the first page; returns the baseline below it.
fn first_page_header(page: &mut Page, l: &LetterPdf, logo: Option<&JpegLogo>) -> f32 {
    let top = PAGE_H - MARGIN;
    // The clinic's uploaded logo, 44 pt high and at most 120 pt wide; else the built-in mark.
    let logo_w = match logo {
        Some(img) => {
            let scale = (44.0 / img.height as f32).min(120.0 / img.width as f32);
            let (w, h) = (img.width as f32 * scale, img.height as f32 * scale);
            page.op("q", vec![]);
            page.op("cm", vec![Object::Real(w), 0.into(), 0.into(), Object::Real(h), Object::Real(MARGIN), Object::Real(top - 44.0 + (44.0 - h) / 2.0)]);
            page.op("Do", vec![Object::Name(b"Logo".to_vec())]);
            page.op("Q", vec![]);
            w
        }
        None => {
            page.logo(MARGIN, top - 44.0);
            44.0
        }
    };
    let text_x = MARGIN + logo_w + 12.0;
    page.fill(BRAND);
    page.text(text_x, top - 18.0, true, 18.0, &l.clinic_name);
    page.fill([0.35, 0.35, 0.38]);
    page.text(text_x, top - 34.0, false, 9.5, "Breast Imaging Services");
    let contact = [l.clinic_address.as_str(), l.clinic_phone.as_str()];
    let mut y = top - 10.0;
    for (i, part) in contact.iter().filter(|p| !p.trim().is_empty()).enumerate() {
        let text = if i == 1 { format!("Phone {part}") } else { (*part).to_owned() };
        page.text_right(PAGE_W - MARGIN, y, false, 9.0, &text);
        y -= 12.0;
    }
    page.line(MARGIN, top - 56.0, PAGE_W - MARGIN, top - 56.0, 1.5, BRAND);

    // Date on the right, the patient's address block on the left.
    page.fill([0.1, 0.1, 0.12]);
    let mut y = top - 88.0;
    page.text_right(PAGE_W - MARGIN, y, false, 10.5, &l.letter_date);
    page.text(MARGIN, y, true, 11.0, &l.patient_name);
    for line in l.patient_address.split('\n').map(str::trim).filter(|s| !s.is_empty()) {
        y -= 14.0;
        page.text(MARGIN, y, false, 11.0, line);
    }

    // The subject box.
    y -= 34.0;
    let box_top = y + 16.0;
    let rows: Vec<(&str, String)> = [
        ("Patient", format!("{}   (Patient ID {})", l.patient_name, l.patient_mrn)),
        ("Date of birth", l.patient_dob.clone()),
        ("Study date", l.study_date.clone()),
        ("Procedure", l.study_desc.clone()),
    ]
    .into_iter()
    .filter(|(_, v)| !v.trim().is_empty())
    .collect();
    let box_h = 24.0 + 14.0 * rows.len() as f32;
    page.op("q", vec![]);
    page.fill([0.98, 0.94, 0.96]);
    page.op("re", vec![Object::Real(MARGIN), Object::Real(box_top - box_h), Object::Real(TEXT_W), Object::Real(box_h)]);
    page.op("f", vec![]);
    page.op("Q", vec![]);
    page.fill(BRAND);
    page.text(MARGIN + 10.0, y, true, 12.0, &format!("RE: {}", l.letter_type));
    page.fill([0.1, 0.1, 0.12]);
    for (label, value) in &rows {
        y -= 14.0;
        page.text(MARGIN + 10.0, y, true, 9.5, label);
        page.text(MARGIN + 100.0, y, false, 9.5, value);
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
        &format!("{} - {} (continued)", l.letter_type, l.patient_name),
    );
    page.line(MARGIN, top - 16.0, PAGE_W - MARGIN, top - 16.0, 1.0, BRAND);
    top - 44.0
}

fn footer(page: &mut Page, l: &LetterPdf, n: usize, total: usize) {
    page.line(MARGIN, 62.0, PAGE_W - MARGIN, 62.0, 0.5, [0.75, 0.75, 0.78]);
    page.fill([0.4, 0.4, 0.43]);
    page.text(MARGIN, 48.0, false, 8.0, &format!("{} - confidential patient information", l.clinic_name));
    page.text_right(PAGE_W - MARGIN, 48.0, false, 8.0, &format!("Page {n} of {total}"));
    if !l.patient_mrn.is_empty() {
        page.text_centre(PAGE_W / 2.0, 48.0, 8.0, &format!("Patient ID {}", l.patient_mrn));
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
    body.push("Sincerely,".to_owned());
    body.push(String::new());
    body.push(l.clinic_name.clone());
    body.push("Breast Imaging Services".to_owned());

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
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let regular = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica", "Encoding" => "WinAnsiEncoding",
    });
    let bold = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica-Bold", "Encoding" => "WinAnsiEncoding",
    });
    let mut resources = dictionary! {
        "Font" => dictionary! { "F1" => regular, "F2" => bold },
    };
    if let Some(img) = logo {
        let colour = match img.components {
            1 => "DeviceGray",
            4 => "DeviceCMYK",
            _ => "DeviceRGB",
        };
        let image = doc.add_object(Stream::new(
            dictionary! {
                "Type" => "XObject", "Subtype" => "Image",
                "Width" => img.width as i64, "Height" => img.height as i64,
                "ColorSpace" => colour, "BitsPerComponent" => 8, "Filter" => "DCTDecode",
            },
            img.data.clone(),
        ));
        resources.set("XObject", dictionary! { "Logo" => image });
    }
    let resources = doc.add_object(resources);
    let mut kids = Vec::with_capacity(total);
    for (i, mut page) in pages.into_iter().enumerate() {
        footer(&mut page, l, i + 1, total);
        let mut stream = page.into_stream();
        // Deflate only pays for itself on longer streams; short ones stay plain.
        if stream.content.len() > 512 {
            let _ = stream.compress();
        }
        let content = doc.add_object(stream);
        let id = doc.add_object(dictionary! {
            "Type" => "Page",
            "Parent" => pages_id,
            "Contents" => content,
            "Resources" => resources,
            "MediaBox" => vec![0.into(), 0.into(), Object::Real(PAGE_W), Object::Real(PAGE_H)],
        });
        kids.push(Object::Reference(id));
    }
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! { "Type" => "Pages", "Kids" => kids, "Count" => total as i64 }),
    );
    let info = doc.add_object(dictionary! {
        "Title" => Object::string_literal(win_ansi(&format!("{} - {}", l.letter_type, l.patient_name))),
        "Author" => Object::string_literal(win_ansi(&l.clinic_name)),
        "Producer" => Object::string_literal("Patient portal"),
    });
    let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog);
    doc.trailer.set("Info", info);
    let mut out = Vec::with_capacity(8 * 1024);
    // Writing to a Vec cannot fail.
    let _ = doc.save_to(&mut out);
    out
}

/// Number of pages of a PDF this module wrote (counts page objects; used by tests and the bench).
pub fn page_count(pdf: &[u8]) -> usize {
    Document::load_mem(pdf).map(|d| d.get_pages().len()).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        }
    }

    #[test]
    fn wraps_within_the_width_and_keeps_paragraphs() {
        let text = "word ".repeat(60) + "\n\nNext paragraph.";
        let lines = wrap(&text, 11.0, 200.0);
        assert!(lines.len() > 3);
        assert!(lines.iter().all(|l| text_width(l, 11.0) <= 200.0), "{lines:?}");
        assert_eq!(lines.last().unwrap(), "Next paragraph.");
        assert_eq!(lines[lines.len() - 2], "");
        let long = wrap(&"x".repeat(300), 11.0, 100.0);
        assert!(long.len() > 1 && long.iter().all(|l| text_width(l, 11.0) <= 100.0));
    }

    #[test]
    fn a_short_letter_is_one_page_and_a_long_one_two() {
        let short = render(&sample("Dear María,\n\nYour results are normal."));
        assert!(short.starts_with(b"%PDF-1.5"));
        assert_eq!(page_count(&short), 1);
        let long = render(&sample(&"The radiologist reviewed your images in detail. ".repeat(120)));
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
            o.as_stream().is_ok_and(|s| s.dict.get(b"Subtype").and_then(|v| v.as_name()).is_ok_and(|n| n == b"Image"))
        });
        assert_eq!(images.count(), 1);
        assert!(JpegLogo::parse(b"\x89PNG\r\n\x1a\n").is_none());
        assert!(JpegLogo::parse(&[0xFF, 0xD8, 0xFF]).is_none());
    }

    #[test]
    fn latin_one_names_survive_and_others_become_question_marks() {
        assert_eq!(win_ansi("García"), b"Garc\xeda".to_vec());
        assert_eq!(win_ansi("李"), b"?".to_vec());
        assert_eq!(win_ansi("a\u{0007}b"), b"ab".to_vec());
    }
}
