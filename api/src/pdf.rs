//! The PDF pieces the generated documents share (letters, survey summaries): Helvetica metrics
//! and WinAnsi text, word wrapping, a page of drawing operations, the clinic logo, and the
//! assembly of pages into a file with lopdf.
//!
//! A text that WinAnsi (Windows-1252) can hold is drawn in the standard Helvetica fonts, so an
//! English or Spanish document embeds no font and stays a few kilobytes. Any other text
//! (Chinese, Khmer, Vietnamese) is shaped and drawn in embedded subset Noto fonts
//! (`crate::pdf_fonts`), wrapped in an ActualText span so it extracts as the text it is. On a
//! server without those fonts such text falls back to Helvetica, where it becomes '?'.

use lopdf::content::{Content, Operation};
use lopdf::{dictionary, Document, Object, Stream};

/// US Letter.
pub const PAGE_W: f32 = 612.0;
pub const PAGE_H: f32 = 792.0;
/// The brand colour (a deep rose) of the logo and rules.
pub const BRAND: [f32; 3] = [0.66, 0.13, 0.36];
pub const INK: [f32; 3] = [0.1, 0.1, 0.12];
pub const GREY: [f32; 3] = [0.35, 0.35, 0.38];

/// Helvetica advance widths (1/1000 em) of ASCII 32..=126, from the standard font metrics.
const HELVETICA: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278,
    278, // space../
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, // 0..?
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, // @..O
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, // P.._
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, // `..o
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, // p..~
];

/// Helvetica widths of Latin-1 160..=255 (accented letters are as wide as their base letter).
const HELVETICA_LATIN1: [u16; 96] = [
    278, 333, 556, 556, 556, 556, 260, 556, 333, 737, 370, 556, 584, 333, 737,
    333, // nbsp..macron
    400, 584, 333, 333, 333, 556, 537, 278, 333, 333, 365, 556, 834, 834, 834,
    611, // degree..¿
    667, 667, 667, 667, 667, 667, 1000, 722, 667, 667, 667, 667, 278, 278, 278, 278, // À..Ï
    722, 722, 778, 778, 778, 778, 778, 584, 778, 722, 722, 722, 722, 667, 667, 611, // Ð..ß
    556, 556, 556, 556, 556, 556, 889, 500, 556, 556, 556, 556, 278, 278, 278, 278, // à..ï
    556, 556, 556, 556, 556, 556, 556, 584, 611, 556, 556, 556, 556, 500, 556, 500, // ð..ÿ
];

fn char_width(c: char) -> f32 {
    let code = c as u32;
    match code {
        32..=126 => f32::from(HELVETICA[(code - 32) as usize]),
        160..=255 => f32::from(HELVETICA_LATIN1[(code - 160) as usize]),
        _ => 556.0,
    }
}

/// Whether `text` is drawn in embedded fonts (it does not fit WinAnsi and they are installed).
fn embedded(text: &str) -> bool {
    !fits_win_ansi(text) && crate::pdf_fonts::available()
}

/// Width in points of `text` at `size`: Helvetica metrics, or the shaped width in the
/// embedded fonts.
pub fn text_width(text: &str, size: f32) -> f32 {
    if embedded(text) {
        return crate::pdf_fonts::width(text, false, size);
    }
    text.chars().map(char_width).sum::<f32>() * size / 1000.0
}

/// Helvetica-Bold is a little wider than regular; 5% covers it. Embedded fonts: the bold face.
pub fn bold_width(text: &str, size: f32) -> f32 {
    if embedded(text) {
        return crate::pdf_fonts::width(text, true, size);
    }
    text_width(text, size) * 1.05
}

/// The longest head of `word` no wider than `width`, cut where a character cluster starts
/// (never before a mark or after a Khmer COENG); at least one cluster.
fn cut_point(word: &str, size: f32, width: f32) -> usize {
    let boundaries: Vec<usize> = word
        .char_indices()
        .filter(|(i, c)| {
            *i > 0 && !crate::pdf_fonts::is_mark(*c) && !word[..*i].ends_with('\u{17D2}')
        })
        .map(|(i, _)| i)
        .collect();
    let mut cut = None;
    for &b in &boundaries {
        if text_width(&word[..b], size) > width {
            break;
        }
        cut = Some(b);
    }
    cut.or(boundaries.first().copied()).unwrap_or(word.len())
}

/// The WinAnsi byte of a character, if it has one (the Windows-1252 letters and signs above
/// 127 included).
fn win_ansi_byte(c: char) -> Option<u8> {
    Some(match c {
        '\u{2018}' | '\u{2019}' => b'\'',
        '\u{201C}' | '\u{201D}' => b'"',
        '\u{20AC}' => 0x80,
        '\u{201A}' => 0x82,
        '\u{0192}' => 0x83,
        '\u{201E}' => 0x84,
        '\u{2026}' => 0x85,
        '\u{2020}' => 0x86,
        '\u{2021}' => 0x87,
        '\u{02C6}' => 0x88,
        '\u{2030}' => 0x89,
        '\u{0160}' => 0x8A,
        '\u{2039}' => 0x8B,
        '\u{0152}' => 0x8C,
        '\u{017D}' => 0x8E,
        '\u{2022}' => 0x95,
        '\u{2013}' => 0x96,
        '\u{2014}' => 0x97,
        '\u{02DC}' => 0x98,
        '\u{2122}' => 0x99,
        '\u{0161}' => 0x9A,
        '\u{203A}' => 0x9B,
        '\u{0153}' => 0x9C,
        '\u{017E}' => 0x9E,
        '\u{0178}' => 0x9F,
        c if (c as u32) < 128 || (160..256).contains(&(c as u32)) => c as u8,
        _ => return None,
    })
}

/// Whether every character of `text` has a WinAnsi byte (so nothing turns into '?').
pub fn fits_win_ansi(text: &str) -> bool {
    text.chars()
        .filter(|c| !c.is_control())
        .all(|c| win_ansi_byte(c).is_some())
}

/// Whether a document can show `text` (WinAnsi, or the embedded fonts are installed).
pub fn can_show(text: &str) -> bool {
    fits_win_ansi(text) || crate::pdf_fonts::available()
}

/// Text as WinAnsi bytes (anything without a byte becomes '?', control characters dropped).
pub fn win_ansi(text: &str) -> Vec<u8> {
    text.chars()
        .filter(|c| !c.is_control())
        .map(|c| win_ansi_byte(c).unwrap_or(b'?'))
        .collect()
}

/// Splits `text` into lines no wider than `width` (words longer than a line are cut).
pub fn wrap(text: &str, size: f32, width: f32) -> Vec<String> {
    let mut lines = Vec::new();
    for paragraph in text.replace("\r\n", "\n").split('\n') {
        let mut line = String::new();
        for word in paragraph.split_whitespace() {
            let candidate = if line.is_empty() {
                word.to_owned()
            } else {
                format!("{line} {word}")
            };
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
                let cut = cut_point(&rest, size, width);
                if cut >= rest.len() {
                    break;
                }
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

/// The drawing operations of one page.
#[derive(Default)]
pub struct Page {
    ops: Vec<Operation>,
    /// Glyphs drawn in embedded fonts: (face, original glyph id, its text).
    glyphs: Vec<(usize, u16, String)>,
}

impl Page {
    pub fn new() -> Page {
        Page::default()
    }

    pub fn op(&mut self, name: &str, operands: Vec<Object>) {
        self.ops.push(Operation::new(name, operands));
    }

    pub fn fill(&mut self, rgb: [f32; 3]) {
        self.op("rg", rgb.iter().map(|v| Object::Real(*v)).collect());
    }

    pub fn stroke_colour(&mut self, rgb: [f32; 3]) {
        self.op("RG", rgb.iter().map(|v| Object::Real(*v)).collect());
    }

    /// Text at (x, y) in font F1 (regular) or F2 (bold).
    pub fn text(&mut self, x: f32, y: f32, bold: bool, size: f32, text: &str) {
        self.text_spaced(x, y, bold, size, 0.0, text);
    }

    /// Text with `word_spacing` points added at every space (the PDF Tw operator).
    pub fn text_spaced(
        &mut self,
        x: f32,
        y: f32,
        bold: bool,
        size: f32,
        word_spacing: f32,
        text: &str,
    ) {
        if embedded(text) {
            self.shaped_text(x, y, bold, size, word_spacing, text);
            return;
        }
        self.op("BT", vec![]);
        self.op(
            "Tf",
            vec![
                Object::Name(if bold { b"F2".to_vec() } else { b"F1".to_vec() }),
                Object::Real(size),
            ],
        );
        if word_spacing != 0.0 {
            self.op("Tw", vec![Object::Real(word_spacing)]);
        }
        self.op("Td", vec![Object::Real(x), Object::Real(y)]);
        self.op("Tj", vec![Object::string_literal(win_ansi(text))]);
        self.op("ET", vec![]);
    }

    /// Text in the embedded fonts: each run's glyphs with TJ position adjustments for the
    /// shaped advances and offsets (Ts for marks raised or lowered), inside an ActualText span
    /// so a reader extracts the characters in their logical order. Glyph ids are the fonts'
    /// own; `assemble` renumbers them to the subsets'.
    fn shaped_text(
        &mut self,
        x: f32,
        y: f32,
        bold: bool,
        size: f32,
        word_spacing: f32,
        text: &str,
    ) {
        let runs = crate::pdf_fonts::shape(text, bold);
        let clean: String = text.chars().filter(|c| !c.is_control()).collect();
        self.op(
            "BDC",
            vec![
                Object::Name(b"Span".to_vec()),
                Object::Dictionary(
                    dictionary! { "ActualText" => crate::pdf_fonts::utf16_string(&clean) },
                ),
            ],
        );
        self.op("BT", vec![]);
        self.op("Td", vec![Object::Real(x), Object::Real(y)]);
        let spacing = word_spacing * 1000.0 / size;
        let faces = crate::pdf_fonts::faces();
        for run in runs {
            let Some(face) = faces[run.face].as_ref() else {
                continue;
            };
            self.op(
                "Tf",
                vec![
                    Object::Name(crate::pdf_fonts::resource_name(run.face)),
                    Object::Real(size),
                ],
            );
            // Where the shaping puts the pen, and where the PDF's own advances put it.
            let (mut pen, mut natural, mut rise) = (0.0f32, 0.0f32, 0.0f32);
            let mut array: Vec<Object> = Vec::new();
            for g in &run.glyphs {
                if g.y_offset != rise {
                    if !array.is_empty() {
                        self.op("TJ", vec![Object::Array(std::mem::take(&mut array))]);
                    }
                    rise = g.y_offset;
                    self.op("Ts", vec![Object::Real(rise * size / 1000.0)]);
                }
                let shift = pen + g.x_offset - natural;
                if shift.abs() > 0.01 {
                    array.push(Object::Real(-shift));
                }
                array.push(Object::String(
                    g.gid.to_be_bytes().to_vec(),
                    lopdf::StringFormat::Hexadecimal,
                ));
                natural = pen + g.x_offset + face.advance(g.gid);
                pen += g.advance + if g.text == " " { spacing } else { 0.0 };
                self.glyphs.push((run.face, g.gid, g.text.clone()));
            }
            let shift = pen - natural;
            if shift.abs() > 0.01 {
                array.push(Object::Real(-shift));
            }
            if !array.is_empty() {
                self.op("TJ", vec![Object::Array(array)]);
            }
            if rise != 0.0 {
                self.op("Ts", vec![Object::Real(0.0)]);
            }
        }
        self.op("ET", vec![]);
        self.op("EMC", vec![]);
    }

    pub fn text_right(&mut self, right: f32, y: f32, bold: bool, size: f32, text: &str) {
        let w = if bold {
            bold_width(text, size)
        } else {
            text_width(text, size)
        };
        self.text(right - w, y, bold, size, text);
    }

    pub fn text_centre(&mut self, centre: f32, y: f32, size: f32, text: &str) {
        self.text(centre - text_width(text, size) / 2.0, y, false, size, text);
    }

    pub fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, rgb: [f32; 3]) {
        self.op("q", vec![]);
        self.fill(rgb);
        self.op(
            "re",
            vec![
                Object::Real(x),
                Object::Real(y),
                Object::Real(w),
                Object::Real(h),
            ],
        );
        self.op("f", vec![]);
        self.op("Q", vec![]);
    }

    pub fn line(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, width: f32, rgb: [f32; 3]) {
        self.stroke_colour(rgb);
        self.op("w", vec![Object::Real(width)]);
        self.op("m", vec![Object::Real(x1), Object::Real(y1)]);
        self.op("l", vec![Object::Real(x2), Object::Real(y2)]);
        self.op("S", vec![]);
    }

    /// A circle of radius r at (cx, cy) from four Bézier arcs, filled with the current colour.
    pub fn disc(&mut self, cx: f32, cy: f32, r: f32) {
        let k = 0.552_284_8 * r;
        let p = |x: f32, y: f32| vec![Object::Real(x), Object::Real(y)];
        self.op("m", p(cx + r, cy));
        self.op(
            "c",
            [p(cx + r, cy + k), p(cx + k, cy + r), p(cx, cy + r)].concat(),
        );
        self.op(
            "c",
            [p(cx - k, cy + r), p(cx - r, cy + k), p(cx - r, cy)].concat(),
        );
        self.op(
            "c",
            [p(cx - r, cy - k), p(cx - k, cy - r), p(cx, cy - r)].concat(),
        );
        self.op(
            "c",
            [p(cx + k, cy - r), p(cx + r, cy - k), p(cx + r, cy)].concat(),
        );
        self.op("f", vec![]);
    }

    /// The clinic logo: a rose disc with an awareness ribbon drawn in white, 2r wide, its lower
    /// left corner at (x, y).
    pub fn logo(&mut self, x: f32, y: f32, r: f32) {
        let (cx, cy) = (x + r, y + r);
        let s = r / 22.0;
        self.op("q", vec![]);
        self.fill(BRAND);
        self.disc(cx, cy, r);
        // The ribbon: a loop at the top and two crossing tails.
        self.stroke_colour([1.0, 1.0, 1.0]);
        self.op("w", vec![Object::Real(3.2 * s)]);
        self.op("J", vec![Object::Integer(1)]);
        let p = |dx: f32, dy: f32| vec![Object::Real(cx + dx * s), Object::Real(cy + dy * s)];
        self.op("m", p(-9.0, -14.0));
        self.op("c", [p(-2.0, -4.0), p(6.0, 6.0), p(5.0, 10.0)].concat());
        self.op("c", [p(4.0, 15.0), p(-4.0, 15.0), p(-5.0, 10.0)].concat());
        self.op("c", [p(-6.0, 6.0), p(2.0, -4.0), p(9.0, -14.0)].concat());
        self.op("S", vec![]);
        self.op("Q", vec![]);
    }

    fn into_stream(self) -> Stream {
        let content = Content {
            operations: self.ops,
        };
        Stream::new(dictionary! {}, content.encode().unwrap_or_default())
    }
}

/// A clinic logo the PDF can embed as it is: a baseline or progressive JPEG (DCTDecode), 8 bits
/// per component, grey, RGB or CMYK. Other uploads (PNG, GIF) keep the built-in logo.
#[derive(Debug, Clone)]
pub struct JpegLogo {
    pub(crate) data: Vec<u8>,
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) components: u8,
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
                let (bits, height, width, components) = (
                    f[0],
                    u16::from_be_bytes([f[1], f[2]]) as u32,
                    u16::from_be_bytes([f[3], f[4]]) as u32,
                    f[5],
                );
                return (bits == 8 && width > 0 && height > 0 && matches!(components, 1 | 3 | 4))
                    .then(|| JpegLogo {
                        data: data.to_vec(),
                        width,
                        height,
                        components,
                    });
            }
            if len < 2 {
                return None;
            }
            i += 2 + len;
        }
        None
    }
}

/// The pages as a PDF file (Letter size, Helvetica as F1 and Helvetica-Bold as F2), with a
/// title and author in the document information.
pub fn assemble(pages: Vec<Page>, title: &str, author: &str, logo: Option<&JpegLogo>) -> Vec<u8> {
    let total = pages.len();
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let regular = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica", "Encoding" => "WinAnsiEncoding",
    });
    let bold = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica-Bold", "Encoding" => "WinAnsiEncoding",
    });
    let mut fonts = dictionary! { "F1" => regular, "F2" => bold };
    let mut pages = pages;
    embed_fonts(&mut doc, &mut pages, &mut fonts);
    let mut resources = dictionary! { "Font" => fonts };
    // The clinic's logo as the image XObject /Logo, drawn by the page that places it.
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
    for page in pages {
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
        Object::Dictionary(
            dictionary! { "Type" => "Pages", "Kids" => kids, "Count" => total as i64 },
        ),
    );
    let info_text = |t: &str| {
        if fits_win_ansi(t) {
            Object::string_literal(win_ansi(t))
        } else {
            crate::pdf_fonts::utf16_string(t)
        }
    };
    let info = doc.add_object(dictionary! {
        "Title" => info_text(title),
        "Author" => info_text(author),
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

/// Embeds the subset of every face the pages drew with, adds it to `fonts` and renumbers the
/// pages' glyph ids to the subsets'.
fn embed_fonts(doc: &mut Document, pages: &mut [Page], fonts: &mut lopdf::Dictionary) {
    let mut usage: std::collections::BTreeMap<usize, crate::pdf_fonts::Usage> = Default::default();
    for page in pages.iter() {
        for (face, gid, text) in &page.glyphs {
            let used = usage.entry(*face).or_default();
            let entry = used.glyphs.entry(*gid).or_default();
            if entry.is_empty() {
                entry.clone_from(text);
            }
        }
    }
    let mut new_ids = std::collections::BTreeMap::new();
    for (face, used) in &usage {
        if let Some((font, ids)) = crate::pdf_fonts::embed(doc, *face, used) {
            fonts.set(crate::pdf_fonts::resource_name(*face), font);
            new_ids.insert(*face, ids);
        }
    }
    for page in pages.iter_mut() {
        let mut face = None;
        for op in &mut page.ops {
            match op.operator.as_str() {
                "Tf" => {
                    face = op.operands[0]
                        .as_name()
                        .ok()
                        .and_then(crate::pdf_fonts::face_of_resource)
                }
                "TJ" => {
                    let Some(ids) = face.and_then(|f| new_ids.get(&f)) else {
                        continue;
                    };
                    if let Some(Object::Array(items)) = op.operands.first_mut() {
                        for item in items {
                            if let Object::String(bytes, _) = item {
                                let old = u16::from_be_bytes([bytes[0], bytes[1]]);
                                let new = ids.get(&old).copied().unwrap_or(0);
                                *bytes = new.to_be_bytes().to_vec();
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

/// Number of pages of a PDF (counts page objects; used by tests and the benches).
pub fn page_count(pdf: &[u8]) -> usize {
    Document::load_mem(pdf)
        .map(|d| d.get_pages().len())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_within_the_width_and_keeps_paragraphs() {
        let text = "word ".repeat(60) + "\n\nNext paragraph.";
        let lines = wrap(&text, 11.0, 200.0);
        assert!(lines.len() > 3);
        assert!(
            lines.iter().all(|l| text_width(l, 11.0) <= 200.0),
            "{lines:?}"
        );
        assert_eq!(lines.last().unwrap(), "Next paragraph.");
        assert_eq!(lines[lines.len() - 2], "");
        let long = wrap(&"x".repeat(300), 11.0, 100.0);
        assert!(long.len() > 1 && long.iter().all(|l| text_width(l, 11.0) <= 100.0));
    }

    #[test]
    fn win_ansi_keeps_western_european_text_and_marks_the_rest() {
        assert_eq!(win_ansi("García"), b"Garc\xeda".to_vec());
        assert_eq!(win_ansi("€ œ Š …"), b"\x80 \x9c \x8a \x85".to_vec());
        assert_eq!(win_ansi("李"), b"?".to_vec());
        assert_eq!(win_ansi("a\u{0007}b"), b"ab".to_vec());
        assert!(fits_win_ansi("¿Tiene dolor en el seno? Sí, años, niña"));
        assert!(!fits_win_ansi("Bạn có đau ngực không?"));
        assert!(!fits_win_ansi("您是否有乳房疼痛？"));
    }

    #[test]
    fn khmer_lines_break_between_clusters_only() {
        assert!(
            crate::pdf_fonts::available(),
            "the Noto fonts (scripts/setup.sh)"
        );
        let text = "លេខកំណត់ត្រាវេជ្ជសាស្ត្រព័ត៌មានសម្ងាត់របស់អ្នកជំងឺ";
        let lines = wrap(text, 10.0, 40.0);
        assert!(lines.len() > 2, "{lines:?}");
        assert_eq!(lines.concat(), text, "nothing lost or added");
        for line in &lines {
            let first = line.chars().next().unwrap();
            assert!(
                !crate::pdf_fonts::is_mark(first),
                "{line:?} starts with a mark"
            );
            assert!(!line.ends_with('\u{17D2}'), "{line:?} ends with a COENG");
        }
    }

    #[test]
    fn accented_letters_are_as_wide_as_their_base_letters() {
        assert_eq!(text_width("é", 10.0), text_width("e", 10.0));
        assert_eq!(text_width("Ñ", 10.0), text_width("N", 10.0));
    }
}
