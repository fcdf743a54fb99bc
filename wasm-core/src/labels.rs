//! Label texts by language (spec 03 §9: english, spanish, chinese, cambodian, vietnamese,
//! tagalog). A label's text in a language is its translation there, else its English text,
//! else the built-in English default.

/// The six languages, in the spec's order: (name, code).
pub const LANGUAGES: [(&str, &str); 6] = [
    ("english", "en"),
    ("spanish", "es"),
    ("chinese", "zh"),
    ("cambodian", "km"),
    ("vietnamese", "vi"),
    ("tagalog", "tl"),
];

/// The language name for a name or code ("es", "Spanish", "es-MX"); English when unknown.
pub fn language_name(name_or_code: &str) -> &'static str {
    let wanted = name_or_code.trim().to_ascii_lowercase();
    let primary = wanted.split(['-', '_']).next().unwrap_or("");
    LANGUAGES
        .iter()
        .find(|(name, code)| *name == wanted || *code == primary)
        .map(|(name, _)| *name)
        .unwrap_or("english")
}

/// The answer to a language that is not one of the six (a patient's language preference).
pub const LANGUAGE_UNKNOWN: &str =
    "Choose one of: english, spanish, chinese, cambodian, vietnamese, tagalog";

/// The language name of exactly a name or a code of the six ("Khmer", "fr" and "" are none):
/// for a stored choice, where `language_name`'s English fallback would hide a mistake.
pub fn known_language(name_or_code: &str) -> Option<&'static str> {
    let wanted = name_or_code.trim().to_ascii_lowercase();
    LANGUAGES
        .iter()
        .find(|(name, code)| *name == wanted || *code == wanted)
        .map(|(name, _)| *name)
}

/// The text of a label in `language` from its stored translations `(language, value)`.
pub fn label_text(
    translations: &[(String, String)],
    language: &str,
    default_english: &str,
) -> String {
    label_text_in(
        translations,
        &[("english".to_owned(), default_english.to_owned())],
        language,
    )
}

/// The text of a label in `language`: the clinic's stored text in that language, else the
/// shipped translation (wasm-core/labels), else the stored English, else the shipped English.
/// A clinic's edit wins; a language nobody edited still gets the shipped translation.
pub fn label_text_in(
    stored: &[(String, String)],
    shipped: &[(String, String)],
    language: &str,
) -> String {
    let find = |texts: &[(String, String)], lang: &str| {
        texts
            .iter()
            .find(|(l, v)| language_name(l) == lang && !v.trim().is_empty())
            .map(|(_, v)| v.clone())
    };
    let language = language_name(language);
    find(stored, language)
        .or_else(|| find(shipped, language))
        .or_else(|| find(stored, "english"))
        .or_else(|| find(shipped, "english"))
        .unwrap_or_default()
}

/// The wasm-core messages patients read (validation of sign-in, registration, password and survey
/// answers), each with the shipped label that translates it: (label key, English text). The
/// label's English text is the message itself (a test in api/src/labels_catalog.rs checks), so
/// the browser and the server translate a message the same way: by finding the label whose English
/// text it is (`message_key`), then that label's text in the language. Append-only; keys
/// `Msg_{Area}_{What}`.
pub const PATIENT_MESSAGES: &[(&str, &str)] = &[
    (
        "Msg_Login_UsernameOrEmailRequired",
        crate::login::USERNAME_OR_EMAIL_REQUIRED,
    ),
    (
        "Msg_Login_PasswordRequired",
        crate::login::PASSWORD_REQUIRED,
    ),
    (
        "Msg_Login_UsernameRequired",
        crate::login::USERNAME_REQUIRED,
    ),
    ("Msg_Login_Failed", crate::login::LOGIN_FAILED),
    (
        "Msg_Login_LockedOutOneMinute",
        crate::login::LOCKED_OUT_ONE_MINUTE,
    ),
    (
        "Msg_Recovery_LoginRequired",
        crate::recovery::LOGIN_REQUIRED,
    ),
    (
        "Msg_Recovery_EmailOrUsernameRequired",
        crate::recovery::EMAIL_OR_USERNAME_REQUIRED,
    ),
    (
        "Msg_Recovery_RequestSent",
        crate::recovery::RESET_REQUEST_SENT,
    ),
    ("Msg_Recovery_UsernameSent", crate::recovery::USERNAME_SENT),
    // The patient menu and page titles, home, appointments, documents (home.json, documents.json).
    ("Msg_Menu_Home", crate::menu::HOME),
    ("Msg_Menu_Documents", crate::menu::DOCUMENTS),
    ("Msg_Menu_Appointments", crate::menu::APPOINTMENTS),
    ("Msg_Menu_MedicalHistory", crate::menu::MEDICAL_HISTORY),
    (
        "Msg_Dates_AppointmentDateTime",
        crate::dates::APPOINTMENT_DATE_TIME,
    ),
    ("Msg_Dates_AppointmentDate", crate::dates::APPOINTMENT_DATE),
    (
        "Msg_Home_OneUnreadLetter",
        crate::medical_history::ONE_UNREAD_LETTER,
    ),
    ("Msg_Documents_NotRead", crate::documents::NOT_READ),
    ("Msg_Documents_NotAcknowledged", crate::documents::NOT_ACKED),
    // Medical History buttons and tooltips (medical-history.json).
    ("Msg_MedicalHistory_View", crate::medical_history::VIEW),
    (
        "Msg_MedicalHistory_BeginSurvey",
        crate::medical_history::BEGIN_SURVEY,
    ),
    (
        "Msg_MedicalHistory_ResumeSurvey",
        crate::medical_history::RESUME_SURVEY,
    ),
    ("Msg_MedicalHistory_Modify", crate::medical_history::MODIFY),
    (
        "Msg_MedicalHistory_NothingToView",
        crate::medical_history::NOTHING_TO_VIEW,
    ),
    (
        "Msg_MedicalHistory_ExpiredTooltip",
        crate::medical_history::EXPIRED_TOOLTIP,
    ),
    // The survey runner: answer checks, start and link outcomes (survey-runner.json).
    ("Msg_Survey_Required", crate::survey::MSG_REQUIRED),
    ("Msg_Survey_Number", crate::survey::MSG_NUMBER),
    ("Msg_Survey_Date", crate::survey::MSG_DATE),
    ("Msg_Survey_Choice", crate::survey::MSG_CHOICE),
    ("Msg_Survey_Shape", crate::survey::MSG_SHAPE),
    ("Msg_Survey_NoInternet", crate::http_error::OFFLINE_MESSAGE),
    (
        "Msg_Survey_CompleteTitle",
        crate::survey::start::COMPLETE_TITLE,
    ),
    (
        "Msg_Survey_CompleteMessage",
        crate::survey::start::COMPLETE_MESSAGE,
    ),
    ("Msg_Survey_NoSurveys", crate::survey::start::NO_SURVEYS),
    (
        "Msg_Survey_LinkComplete",
        crate::survey::link::COMPLETE_MESSAGE,
    ),
    (
        "Msg_Survey_LinkExpiredTitle",
        crate::survey::link::LINK_EXPIRED_TITLE,
    ),
    (
        "Msg_Survey_LinkExpiredMessage",
        crate::survey::link::LINK_EXPIRED_MESSAGE,
    ),
    (
        "Msg_Survey_LockedOutTitle",
        crate::survey::link::LOCKED_OUT_TITLE,
    ),
    // The kiosk's PIN screen (kiosk.json).
    ("Msg_Kiosk_PinExpired", crate::survey::start::PIN_EXPIRED),
    // Registration, reset password, verify phone and change password (registration.json).
    (
        "Msg_Membership_EmailAddressRequired",
        crate::membership::EMAIL_ADDRESS_REQUIRED,
    ),
    (
        "Msg_Membership_EmailInvalid",
        crate::membership::EMAIL_INVALID,
    ),
    (
        "Msg_Membership_FirstNameRequired",
        crate::membership::FIRST_NAME_REQUIRED,
    ),
    (
        "Msg_Membership_LastNameRequired",
        crate::membership::LAST_NAME_REQUIRED,
    ),
    (
        "Msg_Membership_GenderRequired",
        crate::membership::GENDER_REQUIRED,
    ),
    (
        "Msg_Membership_DobRequired",
        crate::membership::DOB_REQUIRED,
    ),
    ("Msg_Membership_DobInvalid", crate::membership::DOB_INVALID),
    (
        "Msg_Membership_DobMismatch",
        crate::membership::DOB_MISMATCH,
    ),
    (
        "Msg_Membership_PhoneInvalid",
        crate::membership::PHONE_INVALID,
    ),
    (
        "Msg_Membership_CodeRequired",
        crate::membership::CODE_REQUIRED,
    ),
    ("Msg_Membership_CodeLength", crate::membership::CODE_LENGTH),
    (
        "Msg_Membership_OldPasswordRequired",
        crate::membership::OLD_PASSWORD_REQUIRED,
    ),
    (
        "Msg_Membership_NewPasswordRequired",
        crate::membership::NEW_PASSWORD_REQUIRED,
    ),
    (
        "Msg_Membership_ConfirmationRequired",
        crate::membership::CONFIRMATION_REQUIRED,
    ),
    (
        "Msg_Membership_PasswordsNotEqual",
        crate::membership::PASSWORDS_NOT_EQUAL,
    ),
    (
        "Msg_Password_RepeatMismatch",
        crate::password::REPEAT_MESSAGE,
    ),
    // The header's user menu (account.json) and the error dialogs (dialogs.json).
    ("Msg_Menu_AccountSettings", crate::menu::ACCOUNT_SETTINGS),
    (
        "Msg_Http_ServerError",
        crate::http_error::SERVER_ERROR_TITLE,
    ),
    ("Msg_Http_NotFound", crate::http_error::NOT_FOUND_MESSAGE),
    // The count-of-1 forms of messages whose other counts are templates
    // (crate::message_templates::MESSAGE_TEMPLATES), and the runner's whole-number check.
    ("Msg_Password_LengthOne", crate::password::LENGTH_ONE),
    ("Msg_Password_NumberOne", crate::password::NUMBER_ONE),
    ("Msg_Password_UppercaseOne", crate::password::UPPERCASE_ONE),
    ("Msg_Password_SymbolOne", crate::password::SYMBOL_ONE),
    ("Msg_Survey_WholeNumber", crate::survey::MSG_WHOLE_NUMBER),
    (
        "Msg_Survey_LockedOutLater",
        crate::survey::link::LOCKED_OUT_LATER,
    ),
    (
        "Msg_Survey_LockedOutOneMinute",
        crate::survey::link::LOCKED_OUT_ONE_MINUTE,
    ),
    // The phone verification code's refusals (recovery.json).
    ("Msg_Recovery_CodeSent", crate::recovery::CODE_SENT),
    (
        "Msg_Recovery_CodeRequestsExceeded",
        crate::recovery::CODE_REQUESTS_EXCEEDED,
    ),
    (
        "Msg_Recovery_CodeNotRequested",
        crate::recovery::CODE_NOT_REQUESTED,
    ),
    ("Msg_Recovery_CodeExpired", crate::recovery::CODE_EXPIRED),
    ("Msg_Recovery_CodeInvalid", crate::recovery::CODE_INVALID),
    (
        "Msg_Recovery_CodeInvalidOneLeft",
        crate::recovery::CODE_INVALID_ONE_LEFT,
    ),
];

/// The label key that translates a wasm-core message (see PATIENT_MESSAGES).
pub fn message_key(english: &str) -> Option<&'static str> {
    PATIENT_MESSAGES
        .iter()
        .find(|(_, text)| *text == english)
        .map(|(key, _)| *key)
}

// ---- Dynamic Labels Management (spec 03 §2 "Dynamic Labels", §3 "Dynamic label", §5) ----

use crate::model::DynamicLabel;
use crate::ValidationErrors;

/// The label categories, one tab each (spec 03 §3: dynamic labels of the portal and the survey).
pub const LABEL_CATEGORIES: [&str; 2] = ["Portal", "Survey"];
/// Longest key, title and translation.
pub const LABEL_KEY_MAX: usize = 100;
pub const LABEL_TITLE_MAX: usize = 200;
pub const LABEL_TEXT_MAX: usize = 2000;

pub const KEY_REQUIRED: &str = "Key is required";
pub const KEY_CHARACTERS: &str =
    "Key may contain only letters, digits and underscores (at most 100 characters)";
pub const KEY_TAKEN: &str = "A label with this key already exists";
pub const TITLE_REQUIRED: &str = "Title is required";
pub const TITLE_TOO_LONG: &str = "Title must be at most 200 characters";
pub const CATEGORY_UNKNOWN: &str = "Choose one of: Portal, Survey";
pub const LABEL_MARKUP: &str = "Labels are plain text: remove the markup (text between < and >)";
pub const LABEL_TOO_LONG: &str = "A label must be at most 2000 characters";
pub const LANGUAGES_EXPECTED: &str =
    "One translation per language: english, spanish, chinese, cambodian, vietnamese, tagalog";

/// Whether `text` holds something a browser would read as markup: `<` followed by a letter,
/// `/`, `!` or `?` (a tag, a closing tag, a comment or a processing instruction). A lone `<`
/// ("a < b") is text.
pub fn has_markup(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes
        .windows(2)
        .any(|w| w[0] == b'<' && (w[1].is_ascii_alphabetic() || matches!(w[1], b'/' | b'!' | b'?')))
}

/// The messages of one translation text (under `field`).
fn check_text(e: &mut ValidationErrors, field: &str, text: &str) {
    if text.chars().count() > LABEL_TEXT_MAX {
        e.add(field, LABEL_TOO_LONG);
    }
    if has_markup(text) {
        e.add(field, LABEL_MARKUP);
    }
}

/// The messages of a label's translations, under `{prefix}{language}`: one per language, in the
/// language list's order, each plain text of at most 2000 characters.
fn check_translations(e: &mut ValidationErrors, prefix: &str, label: &DynamicLabel) {
    let in_order = label.translations.len() == LANGUAGES.len()
        && label
            .translations
            .iter()
            .zip(LANGUAGES.iter())
            .all(|(t, (name, _))| t.language == *name);
    if !in_order {
        e.add(&format!("{prefix}Translations"), LANGUAGES_EXPECTED);
        return;
    }
    for t in &label.translations {
        check_text(e, &format!("{prefix}{}", t.language), &t.value);
    }
}

/// The New Label form (Key, Title, Category, six translations; spec 03 §2): field -> messages.
/// `existing_keys`: the keys already in use (case-insensitive: keys name one label).
pub fn validate_new_label(label: &DynamicLabel, existing_keys: &[String]) -> ValidationErrors {
    let mut e = ValidationErrors::new();
    let key = label.key.trim();
    if key.is_empty() {
        e.add("Key", KEY_REQUIRED);
    } else if key.len() > LABEL_KEY_MAX
        || !key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    {
        e.add("Key", KEY_CHARACTERS);
    } else if existing_keys.iter().any(|k| k.eq_ignore_ascii_case(key)) {
        e.add("Key", KEY_TAKEN);
    }
    check_title(&mut e, "Title", &label.title);
    if !LABEL_CATEGORIES.contains(&label.category.as_str()) {
        e.add("Category", CATEGORY_UNKNOWN);
    }
    check_translations(&mut e, "", label);
    e
}

fn check_title(e: &mut ValidationErrors, field: &str, title: &str) {
    if title.trim().is_empty() {
        e.add(field, TITLE_REQUIRED);
    } else if title.chars().count() > LABEL_TITLE_MAX {
        e.add(field, TITLE_TOO_LONG);
    }
    if has_markup(title) {
        e.add(field, LABEL_MARKUP);
    }
}

/// The edited table (spec 03 §2: one editable translation per language and label): messages
/// under `{key}.{language}` (and `{key}.Title`).
pub fn validate_label_edits(labels: &[DynamicLabel]) -> ValidationErrors {
    let mut e = ValidationErrors::new();
    for label in labels {
        let prefix = format!("{}.", label.key);
        check_title(&mut e, &format!("{prefix}Title"), &label.title);
        check_translations(&mut e, &prefix, label);
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::LabelTranslation;

    fn label(key: &str, english: &str) -> DynamicLabel {
        DynamicLabel {
            key: key.into(),
            title: "A title".into(),
            category: "Portal".into(),
            revision: 0,
            translations: LANGUAGES
                .iter()
                .map(|(l, _)| LabelTranslation {
                    language: (*l).into(),
                    value: if *l == "english" {
                        english.into()
                    } else {
                        String::new()
                    },
                })
                .collect(),
        }
    }

    #[test]
    fn known_language_takes_only_the_six_names_and_codes() {
        assert_eq!(known_language(" Cambodian "), Some("cambodian"));
        assert_eq!(known_language("zh"), Some("chinese"));
        assert_eq!(known_language("es-MX"), None);
        assert_eq!(known_language("klingon"), None);
        assert_eq!(known_language(""), None);
    }

    #[test]
    fn a_clinic_edit_wins_then_the_shipped_text_then_english() {
        let pair = |l: &str, v: &str| (l.to_owned(), v.to_owned());
        let shipped = [
            pair("en", "Sign in"),
            pair("km", "ចូល"),
            pair("es", "Iniciar sesión"),
        ];
        let stored = [pair("spanish", "Entrar"), pair("english", "Log in")];
        assert_eq!(label_text_in(&stored, &shipped, "es"), "Entrar");
        assert_eq!(label_text_in(&stored, &shipped, "cambodian"), "ចូល");
        assert_eq!(label_text_in(&stored, &shipped, "vi"), "Log in");
        assert_eq!(label_text_in(&[], &shipped, "vi"), "Sign in");
        assert_eq!(label_text_in(&[pair("km", "  ")], &shipped, "km"), "ចូល");
        assert_eq!(label_text_in(&[], &[], "km"), "");
    }

    #[test]
    fn markup_is_refused_and_a_lone_less_than_is_text() {
        assert!(has_markup("<b>x</b>"));
        assert!(has_markup("x <img src=x onerror=alert(1)>"));
        assert!(has_markup("<!-- c -->"));
        assert!(!has_markup("a < b and 3<4"));
        let e = validate_label_edits(&[label("Home_Welcome", "<script>alert(1)</script>")]);
        assert_eq!(e.field("Home_Welcome.english"), [LABEL_MARKUP]);
    }

    #[test]
    fn new_label_rules() {
        let keys = vec!["Home_Welcome".to_owned()];
        let e = validate_new_label(&label("home_welcome", "x"), &keys);
        assert_eq!(e.field("Key"), [KEY_TAKEN]);
        let e = validate_new_label(&label("bad key", "x"), &keys);
        assert_eq!(e.field("Key"), [KEY_CHARACTERS]);
        let mut l = label("", "x");
        l.title = String::new();
        l.category = "Other".into();
        l.translations.pop();
        let e = validate_new_label(&l, &keys);
        assert_eq!(e.field("Key"), [KEY_REQUIRED]);
        assert_eq!(e.field("Title"), [TITLE_REQUIRED]);
        assert_eq!(e.field("Category"), [CATEGORY_UNKNOWN]);
        assert_eq!(e.field("Translations"), [LANGUAGES_EXPECTED]);
        assert!(validate_new_label(&label("New_Key", "Hello"), &keys).is_valid());
        let long = "x".repeat(LABEL_TEXT_MAX + 1);
        assert_eq!(
            validate_label_edits(&[label("K", &long)]).field("K.english"),
            [LABEL_TOO_LONG]
        );
    }
}
