//! The survey summary report as PDF (issue 5 part 7; spec 04 survey general settings
//! GenerateSummaryReport, SummaryPdfHeaderText, IsAddPageNumberToSummaryPdf,
//! PdfPageNumberFontSize, PdfPageNumberAlignment, IsAddHeaderToAllPagesToSummaryPdf).
//!
//! A US Letter report: the clinic header with the configured header text (on the first page, or
//! on every page), a patient box, then one section per page of the survey the patient was shown,
//! each question with its answer in two columns and a repeating table (relatives) as a table.
//! Every page's footer names the patient; page numbers follow the settings. What is shown comes
//! from wasm-core (`survey::summary::summary`); the drawing pieces are shared with the letters
//! (`crate::pdf`). The report is written in the language the survey was answered in: its fixed
//! texts are the shipped labels `SummaryPdf_*` (wasm-core/labels/summary-pdf.json) or the
//! clinic's edits of them ([`SummaryTexts`]).

use wasm_core::survey::summary::{SummaryAnswer, SummarySection};

use crate::pdf::{assemble, text_width, wrap, Page, BRAND, GREY, INK, PAGE_H, PAGE_W};

const MARGIN: f32 = 54.0;
const TEXT_W: f32 = PAGE_W - 2.0 * MARGIN;
/// Question column and answer column of a row.
const QUESTION_W: f32 = 292.0;
const ANSWER_X: f32 = MARGIN + 308.0;
const ANSWER_W: f32 = PAGE_W - MARGIN - ANSWER_X - 4.0;
const SIZE: f32 = 10.0;
const LEADING: f32 = 13.0;
const CELL_SIZE: f32 = 9.0;
const CELL_LEADING: f32 = 11.5;
/// Lowest point content may reach (the footer is below).
const BOTTOM: f32 = 76.0;
const SHADE: [f32; 3] = [0.98, 0.94, 0.96];
const RULE: [f32; 3] = [0.85, 0.85, 0.87];

/// PdfPageNumberAlignment (spec 04 §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alignment {
    Left,
    Center,
    Right,
    /// The words of "Page n of m" spread over the whole line (word spacing), edge to edge.
    Justify,
}

impl Alignment {
    /// The setting's value; anything else is Center.
    pub fn parse(s: &str) -> Alignment {
        match s.trim().to_ascii_lowercase().as_str() {
            "left" => Alignment::Left,
            "right" => Alignment::Right,
            "justify" => Alignment::Justify,
            _ => Alignment::Center,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PageNumbers {
    pub font_size: f32,
    pub alignment: Alignment,
}

/// The report's fixed texts in its language. Placeholders: `{survey}`, `{patient}`, `{mrn}`,
/// `{clinic}`, `{n}`, `{total}`.
#[derive(Debug, Clone)]
pub struct SummaryTexts {
    pub title: String,
    pub continued: String,
    pub patient: String,
    pub patient_id: String,
    pub date_of_birth: String,
    pub completed: String,
    pub study_date: String,
    pub procedure: String,
    pub location: String,
    pub footer: String,
    pub page_of: String,
    pub not_answered: String,
    pub signature: String,
    pub date: String,
    /// The summary form report's title (GenerateSummaryFormReport).
    pub form_title: String,
    /// The form report's note under a question the skip logic did not ask.
    pub not_asked: String,
}

impl SummaryTexts {
    /// The texts by label key (`SummaryPdf_Title`, ...), from `text`.
    pub fn from_labels(text: impl Fn(&str) -> String) -> SummaryTexts {
        let t = |what: &str| text(&format!("SummaryPdf_{what}"));
        SummaryTexts {
            title: t("Title"),
            continued: t("Continued"),
            patient: t("Patient"),
            patient_id: t("PatientId"),
            date_of_birth: t("DateOfBirth"),
            completed: t("Completed"),
            study_date: t("StudyDate"),
            procedure: t("Procedure"),
            location: t("Location"),
            footer: t("Footer"),
            page_of: t("PageOf"),
            not_answered: t("NotAnswered"),
            signature: t("Signature"),
            date: t("Date"),
            form_title: t("FormTitle"),
            not_asked: t("NotAsked"),
        }
    }

    /// The shipped texts in `language`.
    pub fn shipped(language: &str) -> SummaryTexts {
        SummaryTexts::from_labels(|key| crate::labels_catalog::text(key, language))
    }
}

impl Default for SummaryTexts {
    fn default() -> SummaryTexts {
        SummaryTexts::shipped("en")
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

/// What a summary shows. Dates are already formatted for the reader.
#[derive(Debug, Clone, Default)]
pub struct SummaryPdf {
    pub clinic_name: String,
    /// SummaryPdfHeaderText (may hold several lines).
    pub header_text: String,
    pub header_on_all_pages: bool,
    pub page_numbers: Option<PageNumbers>,
    pub survey_name: String,
    pub patient_name: String,
    pub patient_mrn: String,
    pub patient_dob: String,
    pub completed: String,
    pub study_date: String,
    pub study_desc: String,
    pub location: String,
    pub sections: Vec<SummarySection>,
    /// A custom report template (issue 17, README "Report templates"): the report title in
    /// place of "Medical History Summary Report" (empty: that one).
    pub report_title: String,
    /// A line printed above the patient line of every page's footer (empty: none).
    pub footer_text: String,
    /// Template type Custom: no clinic logo.
    pub no_logo: bool,
    /// Template types Custom and CustomWithImages: no patient box, only the survey title.
    pub no_patient_box: bool,
    /// includeSignature: a patient signature and date line after the answers.
    pub signature: bool,
    /// The fixed texts, in the language the survey was answered in.
    pub texts: SummaryTexts,
}

/// The full header; returns the baseline below it.
fn header(page: &mut Page, s: &SummaryPdf) -> f32 {
    let top = PAGE_H - MARGIN + 18.0;
    let x = if s.no_logo {
        MARGIN
    } else {
        page.logo(MARGIN, top - 34.0, 17.0);
        MARGIN + 44.0
    };
    page.fill(BRAND);
    page.text(x, top - 14.0, true, 15.0, &s.clinic_name);
    page.fill(GREY);
    let subtitle = if s.report_title.trim().is_empty() {
        s.texts.title.as_str()
    } else {
        s.report_title.as_str()
    };
    page.text(x, top - 29.0, false, 9.0, subtitle);
    // The configured header text, right-aligned beside the clinic name.
    let lines: Vec<String> = s
        .header_text
        .lines()
        .flat_map(|l| wrap(l, 9.0, 230.0))
        .filter(|l| !l.trim().is_empty())
        .take(4)
        .collect();
    page.fill(INK);
    let mut y = top - 10.0;
    for line in &lines {
        page.text_right(PAGE_W - MARGIN, y, true, 9.0, line);
        y -= 11.0;
    }
    let rule = (top - 42.0).min(y + 2.0);
    page.line(MARGIN, rule, PAGE_W - MARGIN, rule, 1.5, BRAND);
    rule - 22.0
}

/// The running line of a page without the header; returns the baseline below it.
fn running_line(page: &mut Page, s: &SummaryPdf) -> f32 {
    let top = PAGE_H - MARGIN + 10.0;
    page.fill(GREY);
    page.text(
        MARGIN,
        top,
        false,
        8.5,
        &fill(
            &s.texts.continued,
            &[("survey", &s.survey_name), ("patient", &s.patient_name)],
        ),
    );
    page.line(MARGIN, top - 6.0, PAGE_W - MARGIN, top - 6.0, 0.5, RULE);
    top - 26.0
}

/// The patient box of the first page (only the survey title for a template without it);
/// returns the baseline below it.
fn patient_box(page: &mut Page, s: &SummaryPdf, y: f32) -> f32 {
    if s.no_patient_box {
        page.fill(BRAND);
        page.text(MARGIN, y, true, 13.0, &s.survey_name);
        return y - 28.0;
    }
    let t = &s.texts;
    let left = [
        (t.patient.as_str(), s.patient_name.as_str()),
        (&t.patient_id, &s.patient_mrn),
        (&t.date_of_birth, &s.patient_dob),
    ];
    let right = [
        (t.completed.as_str(), s.completed.as_str()),
        (&t.study_date, &s.study_date),
        (&t.procedure, &s.study_desc),
        (&t.location, &s.location),
    ];
    let left: Vec<_> = left
        .into_iter()
        .filter(|(_, v)| !v.trim().is_empty())
        .collect();
    let right: Vec<_> = right
        .into_iter()
        .filter(|(_, v)| !v.trim().is_empty())
        .collect();
    // The label column fits the column's longest label (translations run longer), at least
    // 72 points; values wrap beside it (at most two lines each).
    let label_w = |items: &[(&str, &str)]| {
        items
            .iter()
            .map(|(l, _)| crate::pdf::bold_width(l, 9.0) + 8.0)
            .fold(72.0f32, f32::max)
            .min(TEXT_W / 4.0)
    };
    let (left_w, right_w) = (label_w(&left), label_w(&right));
    let lay = |items: &[(&str, &str)], label_w: f32| -> Vec<(String, Vec<String>)> {
        items
            .iter()
            .map(|(l, v)| {
                (
                    (*l).to_owned(),
                    wrap(v, 9.0, TEXT_W / 2.0 - 16.0 - label_w)
                        .into_iter()
                        .take(2)
                        .collect(),
                )
            })
            .collect()
    };
    let (left, right) = (lay(&left, left_w), lay(&right, right_w));
    let height = |col: &[(String, Vec<String>)]| {
        col.iter()
            .map(|(_, v)| v.len().max(1) as f32 * 11.0 + 2.0)
            .sum::<f32>()
    };
    let box_top = y + 14.0;
    let box_h = 30.0 + height(&left).max(height(&right));
    page.rect(MARGIN, box_top - box_h, TEXT_W, box_h, SHADE);
    page.fill(BRAND);
    page.text(MARGIN + 10.0, y, true, 13.0, &s.survey_name);
    page.fill(INK);
    for (column, items, label_w) in [
        (MARGIN + 10.0, &left, left_w),
        (MARGIN + TEXT_W / 2.0 + 10.0, &right, right_w),
    ] {
        let mut ry = y - 18.0;
        for (label, lines) in items.iter() {
            page.text(column, ry, true, 9.0, label);
            for line in lines {
                page.text(column + label_w, ry, false, 9.0, line);
                ry -= 11.0;
            }
            ry -= 2.0;
        }
    }
    box_top - box_h - 24.0
}

fn footer(page: &mut Page, s: &SummaryPdf, n: usize, total: usize) {
    page.line(MARGIN, 58.0, PAGE_W - MARGIN, 58.0, 0.5, RULE);
    page.fill(GREY);
    if !s.footer_text.trim().is_empty() {
        let line = wrap(&s.footer_text, 7.5, TEXT_W)
            .into_iter()
            .next()
            .unwrap_or_default();
        page.text_centre(PAGE_W / 2.0, 64.0, 7.5, &line);
    }
    let who = fill(
        &s.texts.footer,
        &[
            ("patient", &s.patient_name),
            ("mrn", &s.patient_mrn),
            ("clinic", &s.clinic_name),
        ],
    );
    page.text_centre(PAGE_W / 2.0, 46.0, 7.5, &who);
    let Some(numbers) = s.page_numbers else {
        return;
    };
    let text = fill(
        &s.texts.page_of,
        &[("n", &n.to_string()), ("total", &total.to_string())],
    );
    let size = numbers.font_size;
    let y = 32.0;
    page.fill(INK);
    match numbers.alignment {
        Alignment::Left => page.text(MARGIN, y, false, size, &text),
        Alignment::Center => page.text_centre(PAGE_W / 2.0, y, size, &text),
        Alignment::Right => page.text_right(PAGE_W - MARGIN, y, false, size, &text),
        Alignment::Justify => {
            let gaps = text.matches(' ').count().max(1) as f32;
            let spacing = ((TEXT_W - text_width(&text, size)) / gaps).max(0.0);
            page.text_spaced(MARGIN, y, false, size, spacing, &text);
        }
    }
}

/// Pages being filled top to bottom.
struct Layout<'a> {
    s: &'a SummaryPdf,
    pages: Vec<Page>,
    page: Page,
    y: f32,
}

impl<'a> Layout<'a> {
    fn new(s: &'a SummaryPdf) -> Layout<'a> {
        let mut page = Page::new();
        let y = header(&mut page, s);
        let y = patient_box(&mut page, s, y);
        Layout {
            s,
            pages: Vec::new(),
            page,
            y,
        }
    }

    /// Starts a new page when `h` points do not fit on this one; true when it did.
    fn room(&mut self, h: f32) -> bool {
        if self.y - h >= BOTTOM {
            return false;
        }
        let done = std::mem::take(&mut self.page);
        self.pages.push(done);
        self.y = if self.s.header_on_all_pages {
            header(&mut self.page, self.s)
        } else {
            running_line(&mut self.page, self.s)
        };
        true
    }

    fn section_title(&mut self, title: &str) {
        // A title is never left alone at the bottom of a page.
        self.room(24.0 + 2.0 * LEADING);
        self.page.rect(MARGIN, self.y - 6.0, TEXT_W, 20.0, SHADE);
        self.page
            .line(MARGIN, self.y - 6.0, MARGIN, self.y + 14.0, 3.0, BRAND);
        self.page.fill(BRAND);
        self.page.text(MARGIN + 9.0, self.y, true, 11.5, title);
        self.y -= 26.0;
    }

    fn question_row(&mut self, question: &str, answer: &str, answered: bool) {
        let q = wrap(question, SIZE, QUESTION_W);
        let a = wrap(answer, SIZE, ANSWER_W / 1.05);
        let h = q.len().max(a.len()) as f32 * LEADING + 6.0;
        self.room(h);
        let top = self.y;
        self.page.fill(INK);
        for (i, line) in q.iter().enumerate() {
            self.page
                .text(MARGIN + 4.0, top - i as f32 * LEADING, false, SIZE, line);
        }
        self.page.fill(if answered { INK } else { GREY });
        for (i, line) in a.iter().enumerate() {
            self.page
                .text(ANSWER_X, top - i as f32 * LEADING, answered, SIZE, line);
        }
        let rule = top - h + LEADING - 2.0;
        self.page
            .line(MARGIN, rule, PAGE_W - MARGIN, rule, 0.4, RULE);
        self.y -= h;
    }

    fn table_header(&mut self, columns: &[String], widths: &[f32], x0: f32) {
        let cells: Vec<Vec<String>> = columns
            .iter()
            .zip(widths)
            .map(|(c, w)| wrap(c, CELL_SIZE, (w - 8.0) / 1.05))
            .collect();
        let lines = cells.iter().map(Vec::len).max().unwrap_or(1).max(1) as f32;
        let h = lines * CELL_LEADING + 6.0;
        self.page.rect(
            x0,
            self.y - h + CELL_LEADING,
            widths.iter().sum(),
            h,
            [0.93, 0.93, 0.95],
        );
        self.page.fill(INK);
        let mut x = x0;
        for (cell, w) in cells.iter().zip(widths) {
            for (i, line) in cell.iter().enumerate() {
                self.page.text(
                    x + 4.0,
                    self.y - 1.0 - i as f32 * CELL_LEADING,
                    true,
                    CELL_SIZE,
                    line,
                );
            }
            x += w;
        }
        self.y -= h;
    }

    fn table(&mut self, question: &str, columns: &[String], rows: &[Vec<String>]) {
        let q = wrap(question, SIZE, TEXT_W - 8.0);
        self.room(q.len() as f32 * LEADING + 3.0 * CELL_LEADING + 12.0);
        self.page.fill(INK);
        for line in &q {
            self.page.text(MARGIN + 4.0, self.y, false, SIZE, line);
            self.y -= LEADING;
        }
        self.y -= 2.0;
        let x0 = MARGIN + 14.0;
        let width = TEXT_W - 18.0;
        let n = columns.len().max(1);
        let widths = vec![width / n as f32; n];
        self.table_header(columns, &widths, x0);
        for row in rows {
            let cells: Vec<Vec<String>> = row
                .iter()
                .zip(&widths)
                .map(|(c, w)| wrap(if c.is_empty() { "-" } else { c }, CELL_SIZE, w - 8.0))
                .collect();
            let h =
                cells.iter().map(Vec::len).max().unwrap_or(1).max(1) as f32 * CELL_LEADING + 5.0;
            if self.room(h) {
                self.table_header(columns, &widths, x0);
            }
            let mut x = x0;
            self.page.fill(INK);
            for (cell, w) in cells.iter().zip(&widths) {
                for (i, line) in cell.iter().enumerate() {
                    self.page.text(
                        x + 4.0,
                        self.y - i as f32 * CELL_LEADING,
                        false,
                        CELL_SIZE,
                        line,
                    );
                }
                x += w;
            }
            let rule = self.y - h + CELL_LEADING - 1.0;
            self.page.line(x0, rule, x0 + width, rule, 0.4, RULE);
            self.y -= h;
        }
        self.y -= 8.0;
    }

    /// The patient's signature and date lines (includeSignature).
    fn signature(&mut self) {
        self.room(60.0);
        self.y -= 30.0;
        self.page
            .line(MARGIN, self.y, MARGIN + 260.0, self.y, 0.6, INK);
        self.page
            .line(MARGIN + 300.0, self.y, PAGE_W - MARGIN, self.y, 0.6, INK);
        self.page.fill(GREY);
        let t = &self.s.texts;
        self.page
            .text(MARGIN, self.y - 11.0, false, 8.5, &t.signature);
        self.page
            .text(MARGIN + 300.0, self.y - 11.0, false, 8.5, &t.date);
        self.y -= 24.0;
    }

    fn finish(mut self) -> Vec<Page> {
        self.pages.push(self.page);
        self.pages
    }
}

/// The summary as a PDF file.
pub fn render(s: &SummaryPdf) -> Vec<u8> {
    let mut layout = Layout::new(s);
    for section in &s.sections {
        layout.section_title(&section.title);
        for item in &section.items {
            match &item.answer {
                SummaryAnswer::Text(t) => layout.question_row(&item.question, t, true),
                SummaryAnswer::NotAnswered => {
                    layout.question_row(&item.question, &s.texts.not_answered, false)
                }
                SummaryAnswer::Table { columns, rows } => {
                    layout.table(&item.question, columns, rows)
                }
            }
        }
        layout.y -= 8.0;
    }
    if s.signature {
        layout.signature();
    }
    let mut pages = layout.finish();
    let total = pages.len();
    for (i, page) in pages.iter_mut().enumerate() {
        footer(page, s, i + 1, total);
    }
    assemble(
        pages,
        &format!("{} - {}", s.survey_name, s.patient_name),
        &s.clinic_name,
        None,
    )
}

/// 'Summary_<SSN>_<DATE>_<GUID>' (spec 04 resultFileNamePattern default): the patient's
/// identifier (MRN), the completion date as YYYYMMDD and a GUID; characters that do not belong in
/// a file name become '-'.
pub fn file_name(pattern: &str, ssn: &str, date_yyyymmdd: &str, guid: &str) -> String {
    let safe = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '-'
                }
            })
            .collect()
    };
    let pattern = if pattern.trim().is_empty() {
        "Summary_<SSN>_<DATE>_<GUID>"
    } else {
        pattern.trim()
    };
    let name = pattern
        .replace("<SSN>", &safe(ssn))
        .replace("<DATE>", &safe(date_yyyymmdd))
        .replace("<GUID>", &safe(guid));
    format!("{}.pdf", safe(&name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_core::survey::summary::SummaryItem;

    fn sample(numbers: Option<PageNumbers>, questions: usize) -> SummaryPdf {
        let items = (0..questions)
            .map(|i| SummaryItem {
                question_id: format!("q{i}"),
                question: format!(
                    "Question {i}: have you ever had a breast biopsy or surgery on either side?"
                ),
                answer: SummaryAnswer::Text(format!("Answer {i}")),
            })
            .collect();
        SummaryPdf {
            clinic_name: "Demo Breast Imaging".into(),
            header_text: "Confidential".into(),
            header_on_all_pages: true,
            page_numbers: numbers,
            survey_name: "Breast Imaging Medical History".into(),
            patient_name: "María García".into(),
            patient_mrn: "MRN100002".into(),
            sections: vec![SummarySection {
                title: "About you".into(),
                items,
            }],
            ..Default::default()
        }
    }

    /// The x of the "Page 1 of n" text (its Td operands) in the first page's content.
    fn page_number_x(pdf: &[u8]) -> (f32, bool) {
        let doc = lopdf::Document::load_mem(pdf).unwrap();
        let page = *doc.get_pages().values().next().unwrap();
        let content = lopdf::content::Content::decode(&doc.get_page_content(page)).unwrap();
        let ops = &content.operations;
        let at = ops
            .iter()
            .position(|o| {
                o.operator == "Tj"
                    && o.operands[0]
                        .as_str()
                        .is_ok_and(|s| s.starts_with(b"Page 1 of"))
            })
            .expect("a page number");
        let td = ops[..at].iter().rev().find(|o| o.operator == "Td").unwrap();
        let spaced = ops[..at].iter().rev().take(3).any(|o| o.operator == "Tw");
        (td.operands[0].as_float().unwrap(), spaced)
    }

    #[test]
    fn page_numbers_follow_the_alignment() {
        let at = |a| {
            page_number_x(&render(&sample(
                Some(PageNumbers {
                    font_size: 9.0,
                    alignment: a,
                }),
                3,
            )))
        };
        let w = text_width("Page 1 of 1", 9.0);
        assert_eq!(at(Alignment::Left), (MARGIN, false));
        assert!((at(Alignment::Center).0 - (PAGE_W / 2.0 - w / 2.0)).abs() < 0.01);
        assert!((at(Alignment::Right).0 - (PAGE_W - MARGIN - w)).abs() < 0.01);
        assert_eq!(at(Alignment::Justify), (MARGIN, true));
        assert_eq!(Alignment::parse("RIGHT"), Alignment::Right);
        assert_eq!(Alignment::parse("?"), Alignment::Center);
    }

    #[test]
    fn a_long_survey_flows_onto_more_pages() {
        let pdf = render(&sample(None, 100));
        assert!(
            crate::pdf::page_count(&pdf) >= 4,
            "{}",
            crate::pdf::page_count(&pdf)
        );
        assert_eq!(crate::pdf::page_count(&render(&sample(None, 5))), 1);
    }

    #[test]
    fn file_names_follow_the_pattern() {
        assert_eq!(
            file_name("", "MRN 1/2", "20261122", "0b7e-11"),
            "Summary_MRN-1-2_20261122_0b7e-11.pdf"
        );
        assert_eq!(
            file_name("<DATE>-<SSN>", "A1", "20260101", "g"),
            "20260101-A1.pdf"
        );
    }
}
