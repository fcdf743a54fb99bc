//! Letter rules (spec 01 §2.3, §4 "Letters"): the read/acknowledge texts and button states, what
//! opening a letter leads to, whether the list is refreshed after an acknowledgement, the table
//! columns from the documents settings, the viewer title and the /documents address rules.
//!
//! The API fills a letter's texts with `letter_state` at the viewer's offset; the page calls the
//! same function after an acknowledgement to set the dates locally.

use crate::dates::{self, DateFormat};
use crate::model::{
    DocumentColumn, DocumentsMode, DocumentsRoute, DocumentsSettings, LetterFacts, LetterState,
    LetterViewer, ViewAction,
};

/// The Read and Acknowledged columns' stamp: the letter date format 'EEEE, MMMM d, y' in a
/// template (crate::message_templates; the browser then names the day and month in the
/// patient's language).
pub const ON_DATE: &str = "On {date}";
/// The Read column of a letter never opened (translated through labels::PATIENT_MESSAGES).
pub const NOT_READ: &str = "Not Read";
/// The Acknowledged column of a letter not acknowledged (the same).
pub const NOT_ACKED: &str = "No";

/// 'On {date}'; `missing` when there is no date (or it cannot be read).
fn stamp(iso: Option<&str>, offset_minutes: i32, missing: &str) -> (String, bool) {
    match iso.map(|iso| dates::format_date(iso, DateFormat::LongDate, offset_minutes, "")) {
        Some(text) if !text.is_empty() => (
            crate::message_templates::fill(ON_DATE, &[("date", &text)]),
            true,
        ),
        _ => (missing.to_owned(), false),
    }
}

/// Whether a stamp would be shown for this instant (a valid one), without writing its text: the
/// letters list asks this for every letter.
fn stamped(iso: Option<&str>) -> bool {
    iso.is_some_and(|iso| dates::to_local(iso, 0).is_some())
}

/// Whether this viewer may acknowledge this letter now: it is read, not yet acknowledged, no
/// hiding rule forbids it, and the viewer is neither impersonated nor a program manager.
pub fn can_acknowledge(facts: &LetterFacts, viewer: &LetterViewer) -> bool {
    let read = stamped(facts.read_at.as_deref());
    let acked = stamped(facts.acked_at.as_deref());
    read && !acked && facts.allow_ack && !viewer.is_impersonated && !viewer.is_program_manager
}

/// The row texts: 'On {date}' / 'Not Read', 'On {date}' / 'No'; the Acknowledge button is shown
/// when the Ack column is on and either it can be used or ShowAckWhenDisabled asks to show it
/// disabled; it is disabled until the letter is read (and after it is acknowledged).
pub fn letter_state(
    facts: &LetterFacts,
    viewer: &LetterViewer,
    offset_minutes: i32,
) -> LetterState {
    let (already_read, is_already_read) = stamp(facts.read_at.as_deref(), offset_minutes, NOT_READ);
    let (already_acked, _) = stamp(facts.acked_at.as_deref(), offset_minutes, NOT_ACKED);
    let enabled = can_acknowledge(facts, viewer);
    LetterState {
        already_read,
        is_already_read,
        already_acked,
        is_ack_btn_visible: viewer.show_ack_column && (enabled || viewer.show_ack_when_disabled),
        is_ack_btn_disabled: !enabled,
    }
}

/// What happens once a letter is opened (it is read from then on): never an acknowledgement for
/// an impersonated session, a program manager or an acknowledged letter; an ack-on-view letter
/// is acknowledged after the delay; otherwise a confirmation when the ack button is visible.
pub fn view_action(facts: &LetterFacts, viewer: &LetterViewer) -> ViewAction {
    let mut opened = facts.clone();
    if opened.read_at.is_none() {
        // Any valid instant: only "is it read" matters here.
        opened.read_at = Some("1970-01-01T00:00:00Z".to_owned());
    }
    if !can_acknowledge(&opened, viewer) {
        return ViewAction::None;
    }
    if opened.is_ack_on_view {
        ViewAction::AckAfterDelay
    } else if letter_state(&opened, viewer, 0).is_ack_btn_visible {
        ViewAction::ConfirmAck
    } else {
        ViewAction::None
    }
}

/// After an acknowledgement the list is reloaded when trace is on or the user is a program
/// manager; otherwise the dates are set locally.
pub fn refresh_after_ack(is_trace_enabled: bool, is_program_manager: bool) -> bool {
    is_trace_enabled || is_program_manager
}

/// The columns of the documents table in order, titled from DocumentsColumnTitle. The Type and
/// View columns are always there; Read folds into View when CombineDocViewAndReadColumns is on;
/// compact view (UCSDMode) keeps Date, Type and View only.
pub fn document_columns(s: &DocumentsSettings) -> Vec<DocumentColumn> {
    let compact = s.compact_view_mode;
    let mut columns = Vec::new();
    let mut add = |on: bool, key: &str, title: &str| {
        if on {
            columns.push(DocumentColumn {
                key: key.to_owned(),
                title: title.to_owned(),
            });
        }
    };
    add(
        s.show_date_when_sent_column,
        "Date",
        &s.doc_view_when_column_title,
    );
    add(true, "Type", &s.doc_type_column_title);
    add(
        s.show_pat_name_column && !compact,
        "PatientName",
        &s.doc_pat_name_column_title,
    );
    add(
        s.show_study_date_column && !compact,
        "StudyDate",
        &s.doc_study_date_col_title,
    );
    add(
        s.show_study_desc_column && !compact,
        "StudyDesc",
        &s.doc_study_desc_col_title,
    );
    add(
        s.show_notif_type_column && !compact,
        "NotifyType",
        &s.doc_notif_type_column_title,
    );
    add(true, "View", &s.doc_view_column_title);
    add(
        s.show_read_column && !s.combine_doc_view_and_read_columns && !compact,
        "Read",
        &s.doc_read_column_title,
    );
    add(
        s.show_ack_column && !compact,
        "Ack",
        &s.doc_ack_column_title,
    );
    columns
}

/// The label of each Documents page text a clinic sets (DocumentsColumnTitle, DocumentsOther):
/// `DocumentsSetting_{field}`, whose English is the group's shipped default (a test checks).
pub fn setting_label_key(field: &str) -> String {
    format!("DocumentsSetting_{field}")
}

/// The Documents page texts of `s` in the reader's language: a text that is blank or still the
/// settings group's shipped default (`DocumentsColumnTitle::default()`,
/// `DocumentsOther::default()`: the one declaration) is its label's text (`text_of(key)`, the
/// clinic's edit of the label first; none: the default), a text the clinic wrote stays as written.
pub fn localize_setting_texts(s: &mut DocumentsSettings, text_of: impl Fn(&str) -> Option<String>) {
    use crate::settings::documents_column_title::DocumentsColumnTitle;
    use crate::settings::documents_other::DocumentsOther;
    let t = DocumentsColumnTitle::default();
    let o = DocumentsOther::default();
    let fields: [(&str, &str, &mut String); 13] = [
        (
            "DocPatNameColumnTitle",
            &t.doc_pat_name_column_title,
            &mut s.doc_pat_name_column_title,
        ),
        (
            "DocViewColumnTitle",
            &t.doc_view_column_title,
            &mut s.doc_view_column_title,
        ),
        (
            "DocViewWhenColumnTitle",
            &t.doc_view_when_column_title,
            &mut s.doc_view_when_column_title,
        ),
        (
            "DocStudyDateColTitle",
            &t.doc_study_date_col_title,
            &mut s.doc_study_date_col_title,
        ),
        (
            "DocStudyDescColTitle",
            &t.doc_study_desc_col_title,
            &mut s.doc_study_desc_col_title,
        ),
        (
            "DocTypeColumnTitle",
            &t.doc_type_column_title,
            &mut s.doc_type_column_title,
        ),
        (
            "DocNotifTypeColumnTitle",
            &t.doc_notif_type_column_title,
            &mut s.doc_notif_type_column_title,
        ),
        (
            "DocReadColumnTitle",
            &t.doc_read_column_title,
            &mut s.doc_read_column_title,
        ),
        (
            "DocAckColumnTitle",
            &t.doc_ack_column_title,
            &mut s.doc_ack_column_title,
        ),
        (
            "OtherDocDateColTitle",
            &t.other_doc_date_col_title,
            &mut s.other_doc_date_col_title,
        ),
        (
            "DocViewBtnText",
            &o.doc_view_btn_text,
            &mut s.doc_view_btn_text,
        ),
        (
            "DocAckBtnText",
            &o.doc_ack_btn_text,
            &mut s.doc_ack_btn_text,
        ),
        // The tab's label is the page's own (Documents_UnreadTab); the setting's default is kept.
        (
            "UnreadTabLabel",
            &o.unread_tab_label,
            &mut s.unread_tab_label,
        ),
    ];
    for (field, default, value) in fields {
        let stored = value.trim();
        if stored.is_empty() || stored == default {
            let key = if field == "UnreadTabLabel" {
                "Documents_UnreadTab".to_owned()
            } else {
                setting_label_key(field)
            };
            *value = text_of(&key).unwrap_or_else(|| default.to_owned());
        }
    }
}

/// The viewer modal title's patient ID part (a template: crate::message_templates).
pub const TITLE_PATIENT_ID: &str = "Patient ID: {id}";
/// The viewer modal title's study date part ('MM/dd/yyyy', digits only).
pub const TITLE_STUDY_DATE: &str = "Study Date: {date}";

/// The viewer modal's title: name, patient ID, study date and procedure, the parts that are known.
pub fn letter_title(
    patient_name: &str,
    patient_id: &str,
    study_date: Option<&str>,
    procedure: &str,
) -> String {
    letter_title_in(patient_name, patient_id, study_date, procedure, |_| None)
}

/// `letter_title` in the reader's language: `text_of(key)` is the reader's text of the labels
/// `Msg_Documents_TitlePatientId` and `Msg_Documents_TitleStudyDate` (their English is the
/// templates above, crate::message_templates::MESSAGE_TEMPLATES), filled with the values; a label
/// without a text is the English template. Names, IDs and the procedure stay as the clinic wrote them.
pub fn letter_title_in(
    patient_name: &str,
    patient_id: &str,
    study_date: Option<&str>,
    procedure: &str,
    text_of: impl Fn(&str) -> Option<String>,
) -> String {
    use crate::message_templates::fill;
    let template = |key: &str, english: &str| text_of(key).unwrap_or_else(|| english.to_owned());
    let mut parts = vec![patient_name.trim().to_owned()];
    if !patient_id.trim().is_empty() {
        parts.push(fill(
            &template("Msg_Documents_TitlePatientId", TITLE_PATIENT_ID),
            &[("id", patient_id.trim())],
        ));
    }
    if let Some(date) = study_date
        .map(|d| dates::format_date(d, DateFormat::SDate, 0, ""))
        .filter(|d| !d.is_empty())
    {
        parts.push(fill(
            &template("Msg_Documents_TitleStudyDate", TITLE_STUDY_DATE),
            &[("date", &date)],
        ));
    }
    if !procedure.trim().is_empty() {
        parts.push(procedure.trim().to_owned());
    }
    parts.retain(|p| !p.is_empty());
    crate::join(&parts, " - ")
}

/// /documents/... (segments after "documents"): no segment goes to unread; an unknown mode or
/// 'other' without ShowOtherDocumentsTab goes to all; more than two segments are
/// :mode/:clientId/:ssoContextToken, shown as All; an empty unread list (`unread_count` Some(0))
/// goes to all.
pub fn documents_route(
    segments: &[String],
    unread_count: Option<u32>,
    show_other_tab: bool,
) -> DocumentsRoute {
    let segments: Vec<&str> = segments
        .iter()
        .map(|s| s.as_str())
        .filter(|s| !s.is_empty())
        .collect();
    let route = |mode, redirect: Option<&str>| DocumentsRoute {
        mode,
        redirect_to: redirect.map(str::to_owned),
        client_id: None,
        sso_context_token: None,
    };
    if segments.len() > 2 {
        return DocumentsRoute {
            mode: DocumentsMode::All,
            redirect_to: None,
            client_id: Some(segments[segments.len() - 2].to_owned()),
            sso_context_token: Some(segments[segments.len() - 1].to_owned()),
        };
    }
    match segments.first().map(|s| s.to_ascii_lowercase()).as_deref() {
        None => route(DocumentsMode::Unread, Some("/documents/unread")),
        Some("unread") if unread_count == Some(0) => {
            route(DocumentsMode::All, Some("/documents/all"))
        }
        Some("unread") => route(DocumentsMode::Unread, None),
        Some("all") => route(DocumentsMode::All, None),
        Some("other") if show_other_tab => route(DocumentsMode::Other, None),
        _ => route(DocumentsMode::All, Some("/documents/all")),
    }
}

/// The letter kinds the documents settings single out (spec 03 §3 letter types): referring
/// physician, notification and recall letters. A letter's type is free text in the clinical
/// system ('Referring Physician', 'Breast Density Notification' ...), so the kind is read from
/// its words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LetterKind {
    ReferringPhysician,
    Notification,
    Recall,
    Other,
}

pub fn letter_kind(letter_type: &str) -> LetterKind {
    // ASCII lower case finds the same words as Unicode lower case would: the words are ASCII, and
    // no other letter lower-cases into one of theirs (the Kelvin sign becomes 'k', in none of
    // them; 'İ' becomes 'i' plus a combining dot, which breaks the word). Unicode's case tables
    // would cost the wasm file about 7 kB gzipped (issue 22).
    match squashed_words(letter_type) {
        [true, _, _] => LetterKind::ReferringPhysician,
        [_, true, _] => LetterKind::Notification,
        [_, _, true] => LetterKind::Recall,
        _ => LetterKind::Other,
    }
}

/// The words `letter_kind` looks for, in its order of precedence.
const KIND_WORDS: [&[u8]; 3] = [b"referringphysician", b"notification", b"recall"];

/// For each ASCII letter and digit (a-z, then 0-9), the positions in `word` where it stands, as
/// bits: the tables of the shift-and string search below.
const fn positions(word: &[u8]) -> [u32; 36] {
    let mut table = [0u32; 36];
    let mut i = 0;
    while i < word.len() {
        let b = word[i];
        let slot = if b >= b'a' { b - b'a' } else { 26 + b - b'0' };
        table[slot as usize] |= 1 << i;
        i += 1;
    }
    table
}

const KIND_POSITIONS: [[u32; 36]; 3] = [
    positions(KIND_WORDS[0]),
    positions(KIND_WORDS[1]),
    positions(KIND_WORDS[2]),
];

/// Which of [`KIND_WORDS`] `text`'s letters and digits, ASCII lower-cased, contain: one pass
/// over the text for all three (shift-and: bit i of a state says the last i + 1 characters
/// match the word's first i + 1). The letters list asks this for each of hundreds of letters
/// several times (issue 22), so it allocates nothing. Other characters are skipped; a non-ASCII
/// letter or digit matches no word's character, so it breaks a word.
fn squashed_words(text: &str) -> [bool; 3] {
    let mut states = [0u32; 3];
    let mut found = [false; 3];
    for c in text.chars().filter(|c| c.is_alphanumeric()) {
        let slot = match c.to_ascii_lowercase() {
            l @ 'a'..='z' => Some(l as usize - 'a' as usize),
            d @ '0'..='9' => Some(26 + d as usize - '0' as usize),
            _ => None,
        };
        for (k, word) in KIND_WORDS.iter().enumerate() {
            let at = slot
                .and_then(|s| KIND_POSITIONS.get(k).and_then(|t| t.get(s)))
                .copied()
                .unwrap_or(0);
            let state = (states[k] << 1 | 1) & at;
            states[k] = state;
            if state & (1 << (word.len() - 1)) != 0 {
                found[k] = true;
            }
        }
    }
    found
}

/// The type text a patient sees (spec 03 §3 "Alternate document descriptions"): the alternate
/// description of its kind (`letter_kind(letter_type)`, which the letters list reads once per
/// letter) when one is set, else the type itself.
pub fn letter_type_text(
    kind: LetterKind,
    letter_type: &str,
    alt: &crate::settings::documents_alternate_description::DocumentsAlternateDocumentTypeDescription,
) -> String {
    let chosen = match kind {
        LetterKind::ReferringPhysician => alt.alt_doc_desc_rp.trim(),
        LetterKind::Notification => alt.alt_doc_desc_notification.trim(),
        LetterKind::Recall => alt.alt_doc_desc_recall.trim(),
        LetterKind::Other => "",
    };
    if chosen.is_empty() {
        letter_type.to_owned()
    } else {
        chosen.to_owned()
    }
}

/// A letter as the release grouping sees it (spec 03 §3 DocumentsEssential: RSeq / RDate): its
/// id, when it was sent (ms since 1970), its release sequence from the clinical system (RSeq, if
/// any) and the type text the page would show (after the alternate description).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReleasedLetter {
    pub id: i64,
    pub sent_at_ms: i64,
    pub release_seq: Option<i64>,
    pub type_text: String,
}

/// A letter the list shows, with its type text.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct ShownLetter {
    pub id: i64,
    pub type_text: String,
}

/// The two settings of the grouping (DocumentsEssential) and the clinic's zone.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReleaseGrouping {
    /// DisableRSeqRDateGrouping.
    pub disabled: bool,
    /// DocumentsIsShowRSeqWithDocType (read only while the grouping is off, as the settings page
    /// shows it only then).
    pub show_rseq_with_type: bool,
    /// Minutes east of UTC: RDate is the day the letter was sent in the clinic's zone.
    pub clinic_offset_minutes: i32,
}

const DAY_MS: i64 = 86_400_000;

/// The portal's reading of RSeq / RDate grouping (the spec names the settings only; README
/// "Documents"): with the grouping on, letters of one list with the same RDate (the clinic day
/// they were sent) and the same RSeq are re-releases of one letter and only the newest is shown
/// (latest sent, then highest id); a letter without RSeq is never grouped. With it off every
/// letter is shown, and with DocumentsIsShowRSeqWithDocType a letter with an RSeq reads
/// '{type} ({RSeq})'. The shown letters keep the list's order.
pub fn shown_releases(letters: &[ReleasedLetter], g: ReleaseGrouping) -> Vec<ShownLetter> {
    let offset_ms = i64::from(g.clinic_offset_minutes.clamp(-18 * 60, 18 * 60)) * 60_000;
    let rdate = |l: &ReleasedLetter| (l.sent_at_ms + offset_ms).div_euclid(DAY_MS);
    // (RDate, RSeq) -> the newest letter's (sent, id).
    let mut newest = std::collections::BTreeMap::new();
    if !g.disabled {
        for l in letters {
            if let Some(seq) = l.release_seq {
                let best = newest
                    .entry((rdate(l), seq))
                    .or_insert((l.sent_at_ms, l.id));
                if (l.sent_at_ms, l.id) > *best {
                    *best = (l.sent_at_ms, l.id);
                }
            }
        }
    }
    letters
        .iter()
        .filter(|l| match l.release_seq {
            Some(seq) if !g.disabled => newest.get(&(rdate(l), seq)).map(|b| b.1) == Some(l.id),
            _ => true,
        })
        .map(|l| ShownLetter {
            id: l.id,
            type_text: match l.release_seq {
                Some(seq) if g.disabled && g.show_rseq_with_type => {
                    format!("{} ({seq})", l.type_text)
                }
                _ => l.type_text.clone(),
            },
        })
        .collect()
}

/// Whether a patient sees this letter at all (spec 03 §1, §6: ShowDoctorLettersToPatients says
/// whether patients may see referring physician letters; staff always do).
/// `kind` is `letter_kind` of its type.
pub fn patient_sees_letter(kind: LetterKind, show_doctor_letters_to_patients: bool) -> bool {
    show_doctor_letters_to_patients || kind != LetterKind::ReferringPhysician
}

/// Whether a letter is listed under Other Documents: a stored document (a PDF of its own), or a
/// referring physician letter when ShowReferringPhysicianLettersWithOtherDocuments is on; only
/// while the Other Documents tab is shown. `kind` is `letter_kind` of its type.
pub fn is_other_document(kind: LetterKind, has_pdf: bool, s: &DocumentsSettings) -> bool {
    s.show_other_documents_tab
        && (has_pdf
            || (s.show_referring_physician_letters_with_other_documents
                && kind == LetterKind::ReferringPhysician))
}

/// The outbox kinds a disabled results-portal location does not send (spec 03 §6: new account,
/// forgot password, referring physician letter, notification letter, recall letter).
pub const PORTAL_EMAIL_KINDS: [&str; 5] = [
    "PortalRegistration",
    "ForgotPassword",
    "ReferringPhysician",
    "Notification",
    "Recall",
];

/// Whether a portal email of `kind` may go to a patient seen at `patient_locations` (location
/// numbers): not when one of them is in DisabledResultsPortalLocations. Other kinds always go.
pub fn portal_email_allowed(kind: &str, patient_locations: &[String], disabled: &[String]) -> bool {
    if !PORTAL_EMAIL_KINDS.contains(&kind) {
        return true;
    }
    !patient_locations
        .iter()
        .any(|loc| disabled.iter().any(|d| d.trim() == loc.trim()))
}

#[cfg(test)]
mod kind_tests {
    use super::*;

    /// The kind is read from the type's letters and digits in ASCII lower case, wherever the
    /// word starts: the same answers as searching the squashed text.
    #[test]
    fn kinds_are_found_across_spaces_case_punctuation_and_prefixes() {
        let cases = [
            ("REFERRING-PHYSICIAN letter", LetterKind::ReferringPhysician),
            ("Referring Phys ician", LetterKind::ReferringPhysician),
            ("Referring Physicia", LetterKind::Other),
            ("Réferring Physician", LetterKind::Other),
            ("xxRecall", LetterKind::Recall),
            ("rrecall", LetterKind::Recall),
            ("re call!", LetterKind::Recall),
            ("Recal", LetterKind::Other),
            ("İrecall", LetterKind::Recall),
            ("Notif1cation", LetterKind::Other),
            ("Recall notification", LetterKind::Notification),
            ("", LetterKind::Other),
        ];
        for (text, kind) in cases {
            assert_eq!(letter_kind(text), kind, "{text}");
            assert_words_as_squashed(text);
        }
    }

    /// `squashed_words` finds each word exactly when the text's letters and digits, ASCII
    /// lower-cased, contain it.
    fn assert_words_as_squashed(text: &str) {
        let squashed = text
            .chars()
            .filter(|c| c.is_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        let found = squashed_words(text);
        for (k, word) in KIND_WORDS.iter().enumerate() {
            let word = std::str::from_utf8(word).unwrap_or_default();
            assert_eq!(found[k], squashed.contains(word), "{text:?} {word}");
        }
    }

    /// The one-pass search against the squashed text's `contains`, on generated texts made of
    /// the words' letters, separators and non-ASCII letters (repeats and overlaps included).
    #[test]
    fn squashed_words_match_contains_on_generated_texts() {
        let pieces = [
            "re", "ferring", "phys", "ician", "recall", "rec", "all", "noti", "fication", "r", "e",
            "c", "a", "l", "n", "o", "t", " ", "-", "1", "\u{e9}", "\u{130}", "K", "CALL",
        ];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..20_000 {
            let mut text = String::new();
            for _ in 0..(seed % 9) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                text.push_str(pieces[(seed % pieces.len() as u64) as usize]);
            }
            seed = seed.wrapping_add(0x2545_f491);
            assert_words_as_squashed(&text);
        }
    }

    #[test]
    fn kinds_and_alternate_texts() {
        use crate::settings::documents_alternate_description::DocumentsAlternateDocumentTypeDescription as Alt;
        assert_eq!(
            letter_kind("Referring Physician"),
            LetterKind::ReferringPhysician
        );
        assert_eq!(
            letter_kind("Breast Density Notification"),
            LetterKind::Notification
        );
        assert_eq!(letter_kind("Annual Recall"), LetterKind::Recall);
        assert_eq!(letter_kind("Patient Result Letter"), LetterKind::Other);
        let alt = Alt {
            alt_doc_desc_rp: "Doctor's letter".into(),
            ..Default::default()
        };
        assert_eq!(
            letter_type_text(
                letter_kind("ReferringPhysician"),
                "ReferringPhysician",
                &alt
            ),
            "Doctor's letter"
        );
        assert_eq!(
            letter_type_text(letter_kind("Recall"), "Recall", &alt),
            "Recall"
        );
        assert!(!patient_sees_letter(
            letter_kind("Referring Physician"),
            false
        ));
        assert!(patient_sees_letter(
            letter_kind("Referring Physician"),
            true
        ));
        assert!(patient_sees_letter(letter_kind("Recall"), false));
    }

    #[test]
    fn disabled_locations_send_no_portal_emails() {
        let disabled = vec!["102".to_owned()];
        let at = |l: &str| vec![l.to_owned()];
        assert!(!portal_email_allowed(
            "ForgotPassword",
            &at("102"),
            &disabled
        ));
        assert!(!portal_email_allowed(
            "PortalRegistration",
            &at(" 102 "),
            &disabled
        ));
        assert!(portal_email_allowed(
            "ForgotPassword",
            &at("101"),
            &disabled
        ));
        assert!(portal_email_allowed(
            "SurveyAssignment",
            &at("102"),
            &disabled
        ));
        assert!(portal_email_allowed("Recall", &[], &disabled));
    }
}
