//! Text the standard PDF fonts cannot show (Chinese, Khmer, Vietnamese, ...): the Noto fonts
//! read from the server's font folders, runs shaped with rustybuzz (Khmer needs it: subscript
//! consonants, vowels written before their consonant, stacked marks), and each font embedded
//! as a subset (only the glyphs used, `subsetter`) CID font with Identity-H and a ToUnicode map.
//!
//! Fonts, first match wins per character (the fallback chain): Noto Sans (Latin, Vietnamese),
//! Noto Sans Khmer, Noto Sans CJK SC (Chinese Simplified), each regular and bold. They come from
//! Debian's fonts-noto-core and fonts-noto-cjk; `PORTAL_PDF_FONT_DIR` names one more folder that
//! is searched first. Without them the documents fall back to Helvetica ('?' for what it lacks).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use lopdf::{dictionary, Document, Object, ObjectId, Stream, StringFormat};
use rustybuzz::{ttf_parser, UnicodeBuffer};

/// Where the fonts are looked for (after `PORTAL_PDF_FONT_DIR`).
const FONT_DIRS: [&str; 3] = [
    "/usr/share/fonts/truetype/noto",
    "/usr/share/fonts/opentype/noto",
    "/usr/share/fonts/noto",
];

/// The faces in fallback order: (file, family wanted inside a collection, bold).
const FACES: [(&str, &str, bool); 6] = [
    ("NotoSans-Regular.ttf", "", false),
    ("NotoSans-Bold.ttf", "", true),
    ("NotoSansKhmer-Regular.ttf", "", false),
    ("NotoSansKhmer-Bold.ttf", "", true),
    ("NotoSansCJK-Regular.ttc", "Noto Sans CJK SC", false),
    ("NotoSansCJK-Bold.ttc", "Noto Sans CJK SC", true),
];

/// One loaded face.
pub struct Face {
    pub data: &'static [u8],
    pub index: u32,
    pub name: String,
    pub upem: f32,
    /// CFF outlines (the CJK collection) rather than TrueType ones.
    pub cff: bool,
    pub ascent: f32,
    pub descent: f32,
    pub cap_height: f32,
    pub bbox: [f32; 4],
    shaper: rustybuzz::Face<'static>,
}

impl Face {
    fn load(path: &std::path::Path, family: &str) -> Option<Face> {
        let data: &'static [u8] = Box::leak(std::fs::read(path).ok()?.into_boxed_slice());
        let count = ttf_parser::fonts_in_collection(data).unwrap_or(1);
        let index = (0..count).find(|&i| {
            family.is_empty()
                || ttf_parser::Face::parse(data, i).is_ok_and(|f| {
                    f.names().into_iter().any(|n| {
                        n.name_id == ttf_parser::name_id::FAMILY
                            && n.to_string().is_some_and(|s| s == family)
                    })
                })
        })?;
        let face = ttf_parser::Face::parse(data, index).ok()?;
        let upem = f32::from(face.units_per_em());
        let scale = 1000.0 / upem;
        let name = face
            .names()
            .into_iter()
            .find(|n| n.name_id == ttf_parser::name_id::POST_SCRIPT_NAME)
            .and_then(|n| n.to_string())
            .unwrap_or_else(|| "NotoSans".to_owned());
        let b = face.global_bounding_box();
        Some(Face {
            data,
            index,
            name,
            upem,
            cff: face.tables().cff.is_some(),
            ascent: f32::from(face.ascender()) * scale,
            descent: f32::from(face.descender()) * scale,
            cap_height: f32::from(face.capital_height().unwrap_or(face.ascender())) * scale,
            bbox: [
                f32::from(b.x_min) * scale,
                f32::from(b.y_min) * scale,
                f32::from(b.x_max) * scale,
                f32::from(b.y_max) * scale,
            ],
            shaper: rustybuzz::Face::from_slice(data, index)?,
        })
    }

    fn has(&self, c: char) -> bool {
        self.shaper.glyph_index(c).is_some()
    }

    /// A glyph's advance in 1/1000 em.
    pub fn advance(&self, gid: u16) -> f32 {
        f32::from(
            self.shaper
                .glyph_hor_advance(ttf_parser::GlyphId(gid))
                .unwrap_or(0),
        ) * 1000.0
            / self.upem
    }
}

/// The loaded faces by their place in [`FACES`] (None: not installed).
pub fn faces() -> &'static [Option<Face>] {
    static FONTS: OnceLock<Vec<Option<Face>>> = OnceLock::new();
    FONTS.get_or_init(|| {
        let mut dirs: Vec<std::path::PathBuf> = std::env::var_os("PORTAL_PDF_FONT_DIR")
            .map(|d| vec![d.into()])
            .unwrap_or_default();
        dirs.extend(FONT_DIRS.iter().map(std::path::PathBuf::from));
        FACES
            .iter()
            .map(|(file, family, _)| {
                dirs.iter()
                    .map(|d| d.join(file))
                    .find(|p| p.is_file())
                    .and_then(|p| Face::load(&p, family))
            })
            .collect()
    })
}

/// Whether any embeddable font is installed (otherwise the documents stay Helvetica only).
pub fn available() -> bool {
    faces().iter().any(Option::is_some)
}

/// One shaped glyph; lengths in 1/1000 em.
#[derive(Debug, Clone)]
pub struct Glyph {
    pub gid: u16,
    pub advance: f32,
    pub x_offset: f32,
    pub y_offset: f32,
    /// The text of the glyph's cluster (on the cluster's first glyph; empty on the others).
    pub text: String,
}

/// A run of text in one face.
#[derive(Debug, Clone)]
pub struct Run {
    /// Index into [`faces`].
    pub face: usize,
    pub glyphs: Vec<Glyph>,
}

impl Run {
    pub fn width(&self) -> f32 {
        self.glyphs.iter().map(|g| g.advance).sum()
    }
}

/// Characters that take the face of what they stand beside (spaces, digits, punctuation).
fn neutral(c: char) -> bool {
    c.is_ascii() && !c.is_ascii_alphabetic()
        || matches!(c, '\u{00A0}' | '\u{200B}'..='\u{200D}' | '\u{2000}'..='\u{206F}')
}

/// The face (by fallback chain) for `c` in regular or bold.
fn face_for(c: char, bold: bool) -> Option<usize> {
    let faces = faces();
    let pick = |i: usize| faces[i].as_ref().is_some_and(|f| f.has(c));
    (0..faces.len())
        .filter(|i| FACES[*i].2 == bold)
        .find(|&i| pick(i))
        .or_else(|| (0..faces.len()).find(|&i| pick(i)))
}

/// `text` split into runs by face and shaped. Characters no installed face has are drawn with
/// the first face's missing-glyph box.
pub fn shape(text: &str, bold: bool) -> Vec<Run> {
    let faces = faces();
    let Some(first) = (0..faces.len())
        .find(|&i| faces[i].is_some() && FACES[i].2 == bold)
        .or_else(|| faces.iter().position(Option::is_some))
    else {
        return Vec::new();
    };
    // Split by face; neutral characters stay with the run they are in.
    let mut pieces: Vec<(usize, String)> = Vec::new();
    for c in text.chars().filter(|c| !c.is_control()) {
        let current = pieces.last().map(|(f, _)| *f);
        let face = match current {
            Some(f) if neutral(c) && faces[f].as_ref().is_some_and(|x| x.has(c)) => f,
            Some(f) if faces[f].as_ref().is_some_and(|x| x.has(c)) && is_mark(c) => f,
            _ => face_for(c, bold).unwrap_or(first),
        };
        match pieces.last_mut() {
            Some((f, s)) if *f == face => s.push(c),
            _ => pieces.push((face, c.to_string())),
        }
    }
    pieces
        .into_iter()
        .map(|(face, piece)| shape_piece(face, &piece))
        .collect()
}

/// Combining marks and Khmer dependent signs (never start a run or a line).
pub fn is_mark(c: char) -> bool {
    matches!(c,
        '\u{0300}'..='\u{036F}' | '\u{17B4}'..='\u{17D3}' | '\u{17DD}' | '\u{200C}' | '\u{200D}'
        | '\u{FE00}'..='\u{FE0F}')
}

fn shape_piece(face_index: usize, text: &str) -> Run {
    let face = faces()[face_index].as_ref().expect("a loaded face");
    let mut buffer = UnicodeBuffer::new();
    buffer.push_str(text);
    buffer.guess_segment_properties();
    let shaped = rustybuzz::shape(&face.shaper, &[], buffer);
    let scale = 1000.0 / face.upem;
    let infos = shaped.glyph_infos();
    let positions = shaped.glyph_positions();
    // Cluster starts (byte offsets), to give each cluster its text.
    let mut starts: Vec<usize> = infos.iter().map(|i| i.cluster as usize).collect();
    starts.sort_unstable();
    starts.dedup();
    let end_of = |start: usize| {
        starts
            .iter()
            .find(|&&s| s > start)
            .copied()
            .unwrap_or(text.len())
    };
    let mut seen = std::collections::HashSet::new();
    let glyphs = infos
        .iter()
        .zip(positions)
        .map(|(info, pos)| {
            let start = info.cluster as usize;
            let text = if seen.insert(start) {
                text.get(start..end_of(start))
                    .unwrap_or_default()
                    .to_owned()
            } else {
                String::new()
            };
            Glyph {
                gid: info.glyph_id as u16,
                advance: pos.x_advance as f32 * scale,
                x_offset: pos.x_offset as f32 * scale,
                y_offset: pos.y_offset as f32 * scale,
                text,
            }
        })
        .collect();
    Run {
        face: face_index,
        glyphs,
    }
}

/// Width in points of `text` shaped at `size`.
pub fn width(text: &str, bold: bool, size: f32) -> f32 {
    shape(text, bold).iter().map(Run::width).sum::<f32>() * size / 1000.0
}

/// The resource name of a face's font ("E0".."E5").
pub fn resource_name(face: usize) -> Vec<u8> {
    format!("E{face}").into_bytes()
}

/// The face of a resource name made by [`resource_name`].
pub fn face_of_resource(name: &[u8]) -> Option<usize> {
    let digits = name.strip_prefix(b"E")?;
    std::str::from_utf8(digits).ok()?.parse().ok()
}

/// What a document used of one face: the original glyph ids and a text for each.
#[derive(Default)]
pub struct Usage {
    /// Original glyph id -> its text (the first cluster text seen for it).
    pub glyphs: BTreeMap<u16, String>,
}

/// `text` as a PDF text string: UTF-16BE with its byte-order mark.
pub fn utf16_string(text: &str) -> Object {
    let mut bytes = vec![0xFE, 0xFF];
    for unit in text.encode_utf16() {
        bytes.extend_from_slice(&unit.to_be_bytes());
    }
    Object::String(bytes, StringFormat::Hexadecimal)
}

/// Embeds the subset of one face: a Type0 font (Identity-H) over a CIDFontType2 (TrueType) or
/// CIDFontType0 (CFF) font, with widths and a ToUnicode map. Returns the font's id and the
/// new glyph id of each original one.
pub fn embed(
    doc: &mut Document,
    face_index: usize,
    usage: &Usage,
) -> Option<(ObjectId, BTreeMap<u16, u16>)> {
    let face = faces()[face_index].as_ref()?;
    let mut remapper = subsetter::GlyphRemapper::new();
    let mut new_ids = BTreeMap::new();
    for gid in usage.glyphs.keys() {
        new_ids.insert(*gid, remapper.remap(*gid));
    }
    let subset = subsetter::subset(face.data, face.index, &remapper).ok()?;
    // A six-letter tag from the glyph set (PDF 9.6.4: subset fonts are named TAG+Name).
    let mut hash: u32 = 2_166_136_261;
    for gid in usage.glyphs.keys() {
        for b in gid.to_be_bytes() {
            hash = (hash ^ u32::from(b)).wrapping_mul(16_777_619);
        }
    }
    let tag: String = (0..6)
        .map(|i| char::from(b'A' + ((hash >> (i * 5)) % 26) as u8))
        .collect();
    let base = format!("{tag}+{}", face.name);
    let (file_key, file) = if face.cff {
        // The bare CFF table of the subset (FontFile3, CIDFontType0C).
        let raw = ttf_parser::RawFace::parse(&subset, 0).ok()?;
        let cff = raw.table(ttf_parser::Tag::from_bytes(b"CFF "))?.to_vec();
        let mut s = Stream::new(dictionary! { "Subtype" => "CIDFontType0C" }, cff);
        let _ = s.compress();
        ("FontFile3", s)
    } else {
        let len = subset.len() as i64;
        let mut s = Stream::new(dictionary! { "Length1" => len }, subset);
        let _ = s.compress();
        ("FontFile2", s)
    };
    let file_id = doc.add_object(file);
    let descriptor = doc.add_object(dictionary! {
        "Type" => "FontDescriptor",
        "FontName" => Object::Name(base.clone().into_bytes()),
        "Flags" => 4,
        "FontBBox" => face.bbox.iter().map(|v| Object::Real(*v)).collect::<Vec<_>>(),
        "ItalicAngle" => 0,
        "Ascent" => Object::Real(face.ascent),
        "Descent" => Object::Real(face.descent),
        "CapHeight" => Object::Real(face.cap_height),
        "StemV" => 80,
        file_key => file_id,
    });
    // W: each new id with its advance.
    let mut widths = Vec::new();
    for (old, new) in &new_ids {
        widths.push(Object::Integer(i64::from(*new)));
        widths.push(Object::Array(vec![Object::Real(
            face.advance(*old).round(),
        )]));
    }
    let mut cid_font = dictionary! {
        "Type" => "Font",
        "Subtype" => if face.cff { "CIDFontType0" } else { "CIDFontType2" },
        "BaseFont" => Object::Name(base.clone().into_bytes()),
        "CIDSystemInfo" => dictionary! {
            "Registry" => Object::string_literal("Adobe"),
            "Ordering" => Object::string_literal("Identity"),
            "Supplement" => 0,
        },
        "FontDescriptor" => descriptor,
        "DW" => 0,
        "W" => widths,
    };
    if !face.cff {
        cid_font.set("CIDToGIDMap", "Identity");
    }
    let cid_font = doc.add_object(cid_font);
    let to_unicode = doc.add_object(Stream::new(dictionary! {}, to_unicode(usage, &new_ids)));
    let font = doc.add_object(dictionary! {
        "Type" => "Font",
        "Subtype" => "Type0",
        "BaseFont" => Object::Name(base.into_bytes()),
        "Encoding" => "Identity-H",
        "DescendantFonts" => vec![Object::Reference(cid_font)],
        "ToUnicode" => to_unicode,
    });
    Some((font, new_ids))
}

/// The ToUnicode CMap: each new glyph id to its text (a Khmer subscript glyph maps to COENG +
/// consonant, a ligature to all its letters).
fn to_unicode(usage: &Usage, new_ids: &BTreeMap<u16, u16>) -> Vec<u8> {
    let mut entries: Vec<(u16, String)> = usage
        .glyphs
        .iter()
        .filter(|(_, t)| !t.is_empty())
        .filter_map(|(old, t)| new_ids.get(old).map(|n| (*n, t.clone())))
        .collect();
    entries.sort_unstable();
    let mut out = String::from(
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n\
         /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n\
         /CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n\
         1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n",
    );
    for chunk in entries.chunks(100) {
        out.push_str(&format!("{} beginbfchar\n", chunk.len()));
        for (gid, text) in chunk {
            let hex: String = text.encode_utf16().map(|u| format!("{u:04X}")).collect();
            out.push_str(&format!("<{gid:04X}> <{hex}>\n"));
        }
        out.push_str("endbfchar\n");
    }
    out.push_str("endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n");
    out.into_bytes()
}
