//! The summary *form* report as PDF (issue 17; spec 04 survey general settings
//! GenerateSummaryFormReport, SummaryFormPdfTopMargin, SummaryFormPdfBottomMargin).
//!
//! Spec 04 names the switch and its two margins and nothing more. What this portal makes of it:
//! beside the summary report (the questions the patient was shown, with their answers), a second
//! PDF that is the survey itself as a filled-in paper form: every page and every question of the
//! survey in its order (wasm-core `survey::summary::form`), choice questions with all their
//! options as boxes (the chosen ones ticked), written answers in answer boxes, relatives tables
//! as tables, questions the skip logic did not ask printed unfilled and marked. The clinic files
//! or prints it as the form it would have had the patient fill in on paper.
//!
//! The margins are in points (1/72 inch): the blank space kept above and below everything on
//! every page, header and footer included (room for a pre-printed letterhead or a binding).
//! `0` (the default) or an empty value means the standard 36 points; other values are held
//! between 18 (a printer's unprintable edge) and 216 (3 inches), so a page keeps room for its
//! content.

use wasm_core::survey::summary::{FormAnswer, FormSection};

use crate::pdf::{assemble, text_width, wrap, Page, BRAND, GREY, INK, PAGE_H, PAGE_W};
use crate::summary_pdf::SummaryTexts;

/// The standard top and bottom margin (a margin setting of 0 or empty).
pub const DEFAULT_MARGIN: f32 = 36.0;
pub const MIN_MARGIN: f32 = 18.0;
pub const MAX_MARGIN: f32 = 216.0;
const SIDE: f32 = 54.0;
const TEXT_W: f32 = PAGE_W - 2.0 * SIDE;
const SIZE: f32 = 10.0;
const LEADING: f32 = 13.0;
const CELL: f32 = 9.0;
const CELL_LEADING: f32 = 11.5;
const BOX: f32 = 8.0;
/// The footer's height above the bottom margin (rule, patient line, page number).
const FOOTER_H: f32 = 34.0;
const SHADE: [f32; 3] = [0.98, 0.94, 0.96];
const RULE: [f32; 3] = [0.80, 0.80, 0.83];

/// A margin setting (SummaryFormPdfTopMargin / BottomMargin, a number as text) in points.
pub fn margin(setting: &str) -> f32 {
    match setting.trim().parse::<f32>() {
        Ok(m) if m.is_finite() && m > 0.0 => m.clamp(MIN_MARGIN, MAX_MARGIN),
        _ => DEFAULT_MARGIN,
    }
}

/// What the form report shows. Dates are already formatted for the reader.
#[derive(Debug, Clone, Default)]
pub struct SummaryFormPdf {
    pub clinic_name: String,
    pub survey_name: String,
    pub patient_name: String,
    pub patient_mrn: String,
    pub patient_dob: String,
    pub completed: String,
    /// Points kept blank at the top and the bottom of every page ([`margin`]).
    pub top_margin: f32,
    pub bottom_margin: f32,
    pub sections: Vec<FormSection>,
    pub texts: SummaryTexts,
}

fn fill(template: &str, values: &[(&str, &str)]) -> String {
    values
        .iter()
        .fold(template.to_owned(), |text, (name, value)| {
            text.replace(&format!("{{{name}}}"), value)
        })
}

struct Layout<'a> {
    s: &'a SummaryFormPdf,
    pages: Vec<Page>,
    page: Page,
    y: f32,
    /// The lowest baseline content may use (the footer is below).
    bottom: f32,
}

impl<'a> Layout<'a> {
    fn new(s: &'a SummaryFormPdf) -> Layout<'a> {
        let mut layout = Layout {
            s,
            pages: Vec::new(),
            page: Page::new(),
            y: 0.0,
            bottom: s.bottom_margin + FOOTER_H + 8.0,
        };
        layout.y = layout.first_header();
        layout
    }

    /// The first page's header: clinic, report title, survey, the patient line.
    fn first_header(&mut self) -> f32 {
        let s = self.s;
        let top = PAGE_H - s.top_margin;
        let p = &mut self.page;
        p.fill(BRAND);
        p.text(SIDE, top - 14.0, true, 14.0, &s.clinic_name);
        p.fill(GREY);
        p.text(SIDE, top - 27.0, false, 9.0, &s.texts.form_title);
        p.fill(INK);
        p.text_right(PAGE_W - SIDE, top - 14.0, true, 11.0, &s.survey_name);
        p.line(SIDE, top - 34.0, PAGE_W - SIDE, top - 34.0, 1.5, BRAND);
        let t = &s.texts;
        let facts: Vec<String> = [
            (&t.patient, &s.patient_name),
            (&t.patient_id, &s.patient_mrn),
            (&t.date_of_birth, &s.patient_dob),
            (&t.completed, &s.completed),
        ]
        .into_iter()
        .filter(|(_, v)| !v.trim().is_empty())
        .map(|(l, v)| format!("{l}: {v}"))
        .collect();
        let mut y = top - 50.0;
        for line in wrap(&facts.join("    "), 9.0, TEXT_W) {
            p.text(SIDE, y, false, 9.0, &line);
            y -= 12.0;
        }
        y - 12.0
    }

    /// The running line of later pages.
    fn running_line(&mut self) -> f32 {
        let top = PAGE_H - self.s.top_margin;
        self.page.fill(GREY);
        let line = fill(
            &self.s.texts.continued,
            &[
                ("survey", &self.s.survey_name),
                ("patient", &self.s.patient_name),
            ],
        );
        self.page.text(SIDE, top - 9.0, false, 8.5, &line);
        self.page
            .line(SIDE, top - 15.0, PAGE_W - SIDE, top - 15.0, 0.5, RULE);
        top - 34.0
    }

    /// Starts a new page when `h` points do not fit on this one; true when it did.
    fn room(&mut self, h: f32) -> bool {
        if self.y - h >= self.bottom {
            return false;
        }
        self.pages.push(std::mem::take(&mut self.page));
        self.y = self.running_line();
        true
    }

    fn section_title(&mut self, section: &FormSection) {
        self.room(26.0 + 3.0 * LEADING);
        self.page.rect(SIDE, self.y - 6.0, TEXT_W, 20.0, SHADE);
        self.page
            .line(SIDE, self.y - 6.0, SIDE, self.y + 14.0, 3.0, BRAND);
        self.page.fill(if section.asked { BRAND } else { GREY });
        self.page
            .text(SIDE + 9.0, self.y, true, 11.5, &section.title);
        self.y -= 26.0;
    }

    /// An outlined square with its lower left corner at (x, y), ticked when `on`.
    fn check_box(&mut self, x: f32, y: f32, on: bool) {
        let p = &mut self.page;
        for (x1, y1, x2, y2) in [
            (x, y, x + BOX, y),
            (x + BOX, y, x + BOX, y + BOX),
            (x + BOX, y + BOX, x, y + BOX),
            (x, y + BOX, x, y),
        ] {
            p.line(x1, y1, x2, y2, 0.7, INK);
        }
        if on {
            p.line(x + 1.5, y + 4.0, x + 3.5, y + 1.5, 1.4, INK);
            p.line(x + 3.5, y + 1.5, x + 7.0, y + 7.0, 1.4, INK);
        }
    }

    fn question(&mut self, text: &str, asked: bool) {
        let lines = wrap(text, SIZE, TEXT_W - 8.0);
        let note = (!asked).then(|| self.s.texts.not_asked.clone());
        let h = lines.len() as f32 * LEADING + if note.is_some() { 11.0 } else { 0.0 };
        // A question is never parted from the first line of its answer.
        self.room(h + 2.0 * LEADING);
        self.page.fill(if asked { INK } else { GREY });
        for line in &lines {
            self.page.text(SIDE + 4.0, self.y, true, SIZE, line);
            self.y -= LEADING;
        }
        if let Some(note) = note {
            self.page.fill(GREY);
            self.page.text(SIDE + 4.0, self.y + 1.0, false, 8.0, &note);
            self.y -= 11.0;
        }
        self.y -= 2.0;
    }

    /// The options as boxes, flowing left to right and onto more lines.
    fn choices(&mut self, options: &[(String, bool)], asked: bool) {
        let x0 = SIDE + 14.0;
        let right = PAGE_W - SIDE;
        let mut x = x0;
        self.room(LEADING + 4.0);
        for (text, on) in options {
            let label: Vec<String> = wrap(text, SIZE, right - x0 - BOX - 6.0);
            let label = label.first().cloned().unwrap_or_default();
            let w = BOX + 5.0 + text_width(&label, SIZE) + 16.0;
            if x > x0 && x + w > right {
                x = x0;
                self.y -= LEADING + 3.0;
                self.room(LEADING + 4.0);
            }
            self.check_box(x, self.y - 1.0, *on);
            self.page.fill(if asked { INK } else { GREY });
            self.page.text(x + BOX + 5.0, self.y, *on, SIZE, &label);
            x += w;
        }
        self.y -= LEADING + 8.0;
    }

    /// A written answer in an outlined box (one empty line when there is none).
    fn text_box(&mut self, text: &str) {
        let lines = wrap(text, SIZE, TEXT_W - 30.0);
        let n = lines.len().max(1) as f32;
        let h = n * LEADING + 8.0;
        self.room(h + 4.0);
        let (x, w) = (SIDE + 14.0, TEXT_W - 14.0);
        let (top, bottom) = (self.y + LEADING - 2.0, self.y + LEADING - 2.0 - h);
        for (x1, y1, x2, y2) in [
            (x, top, x + w, top),
            (x + w, top, x + w, bottom),
            (x + w, bottom, x, bottom),
            (x, bottom, x, top),
        ] {
            self.page.line(x1, y1, x2, y2, 0.6, RULE);
        }
        self.page.fill(INK);
        for (i, line) in lines.iter().enumerate() {
            self.page.text(
                x + 6.0,
                self.y - 2.0 - i as f32 * LEADING,
                false,
                SIZE,
                line,
            );
        }
        self.y -= h + 8.0;
    }

    fn table(&mut self, columns: &[String], rows: &[Vec<String>]) {
        let x0 = SIDE + 14.0;
        let width = TEXT_W - 14.0;
        let n = columns.len().max(1);
        let col_w = width / n as f32;
        let header = |layout: &mut Layout| {
            layout.page.rect(
                x0,
                layout.y - 4.0,
                width,
                CELL_LEADING + 4.0,
                [0.93, 0.93, 0.95],
            );
            layout.page.fill(INK);
            for (i, c) in columns.iter().enumerate() {
                let c = wrap(c, CELL, col_w - 8.0)
                    .into_iter()
                    .next()
                    .unwrap_or_default();
                layout
                    .page
                    .text(x0 + 4.0 + i as f32 * col_w, layout.y, true, CELL, &c);
            }
            layout.y -= CELL_LEADING + 4.0;
        };
        self.room(3.0 * CELL_LEADING + 8.0);
        header(self);
        // An empty table is printed with one empty row to fill in.
        let empty = [vec![String::new(); n]];
        let rows = if rows.is_empty() { &empty[..] } else { rows };
        for row in rows {
            let cells: Vec<Vec<String>> = row.iter().map(|c| wrap(c, CELL, col_w - 8.0)).collect();
            let h =
                cells.iter().map(Vec::len).max().unwrap_or(1).max(1) as f32 * CELL_LEADING + 5.0;
            if self.room(h) {
                header(self);
            }
            self.page.fill(INK);
            for (i, cell) in cells.iter().enumerate() {
                for (j, line) in cell.iter().enumerate() {
                    self.page.text(
                        x0 + 4.0 + i as f32 * col_w,
                        self.y - j as f32 * CELL_LEADING,
                        false,
                        CELL,
                        line,
                    );
                }
            }
            let rule = self.y - h + CELL_LEADING - 1.0;
            self.page.line(x0, rule, x0 + width, rule, 0.4, RULE);
            self.y -= h;
        }
        self.y -= 10.0;
    }

    fn footer(page: &mut Page, s: &SummaryFormPdf, n: usize, total: usize) {
        let base = s.bottom_margin;
        page.line(
            SIDE,
            base + FOOTER_H,
            PAGE_W - SIDE,
            base + FOOTER_H,
            0.5,
            RULE,
        );
        page.fill(GREY);
        let who = fill(
            &s.texts.footer,
            &[
                ("patient", &s.patient_name),
                ("mrn", &s.patient_mrn),
                ("clinic", &s.clinic_name),
            ],
        );
        page.text_centre(PAGE_W / 2.0, base + 20.0, 7.5, &who);
        let number = fill(
            &s.texts.page_of,
            &[("n", &n.to_string()), ("total", &total.to_string())],
        );
        page.fill(INK);
        page.text_centre(PAGE_W / 2.0, base + 4.0, 8.0, &number);
    }
}

/// The form report as a PDF file.
pub fn render(s: &SummaryFormPdf) -> Vec<u8> {
    let mut layout = Layout::new(s);
    for section in &s.sections {
        layout.section_title(section);
        for item in &section.items {
            layout.question(&item.question, item.asked);
            match &item.answer {
                FormAnswer::Choices(options) => layout.choices(options, item.asked),
                FormAnswer::Text(t) => layout.text_box(t),
                FormAnswer::Table { columns, rows } => layout.table(columns, rows),
            }
        }
        layout.y -= 6.0;
    }
    layout.pages.push(layout.page);
    let mut pages = layout.pages;
    let total = pages.len();
    for (i, page) in pages.iter_mut().enumerate() {
        Layout::footer(page, s, i + 1, total);
    }
    assemble(
        pages,
        &format!("{} - {}", s.survey_name, s.patient_name),
        &s.clinic_name,
        None,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_core::survey::summary::FormItem;

    #[test]
    fn margins_are_points_with_a_default_and_limits() {
        assert_eq!(margin("0"), DEFAULT_MARGIN);
        assert_eq!(margin(""), DEFAULT_MARGIN);
        assert_eq!(margin("abc"), DEFAULT_MARGIN);
        assert_eq!(margin("-5"), DEFAULT_MARGIN);
        assert_eq!(margin("72"), 72.0);
        assert_eq!(margin(" 90.5 "), 90.5);
        assert_eq!(margin("4"), MIN_MARGIN);
        assert_eq!(margin("999999"), MAX_MARGIN);
    }

    fn sample(top: f32, bottom: f32, questions: usize) -> SummaryFormPdf {
        let items = (0..questions)
            .map(|i| FormItem {
                question_id: format!("q{i}"),
                question: format!("Question {i}: have you had a mammogram before?"),
                asked: i % 3 != 2,
                answer: FormAnswer::Choices(vec![
                    ("Yes".into(), i % 2 == 0),
                    ("No".into(), i % 2 == 1),
                ]),
            })
            .collect();
        SummaryFormPdf {
            clinic_name: "Demo Breast Imaging".into(),
            survey_name: "Screening".into(),
            patient_name: "Jane Doe".into(),
            patient_mrn: "100001".into(),
            top_margin: top,
            bottom_margin: bottom,
            sections: vec![FormSection {
                title: "About you".into(),
                asked: true,
                items,
            }],
            texts: SummaryTexts::default(),
            ..Default::default()
        }
    }

    #[test]
    fn larger_margins_leave_less_room_and_make_more_pages() {
        let pages = |top, bottom| crate::pdf::page_count(&render(&sample(top, bottom, 60)));
        let standard = pages(DEFAULT_MARGIN, DEFAULT_MARGIN);
        let wide = pages(MAX_MARGIN, MAX_MARGIN);
        assert!(standard >= 2, "{standard}");
        assert!(wide > standard, "{wide} > {standard}");
    }
}
