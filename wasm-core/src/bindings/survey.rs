//! Survey exports (issue 5): `localText` and the `SurveyRules` class (skip logic and answer
//! checks over one definition). The XML parser is not exported: the API parses and checks every
//! definition and sends it as JSON. Measured (gzip -9): with the parser and the definition's
//! serializer exported the whole .wasm was 65.4 KB, past the 60 KB budget; without, 57.1 KB.

use crate::sorted_map::SortedMap;

use tsify::Ts;
use wasm_bindgen::prelude::*;

#[cfg(feature = "wasm-settings")]
use super::text;
use super::{boolean, field, object_keys, string, to_js_value, whole, write};
use crate::model::{
    Answer, Answers, ChoiceOption, EnableBehavior, EnableWhen, Operator, SurveyDefinition,
    SurveyPage, SurveyQuestion, Texts,
};
use crate::survey;
use crate::ValidationErrors;

/// Reads `{questionId: string | string[] | {column: string}[]}`; values of other shapes are
/// dropped (the question then counts as unanswered).
fn read_answers(v: &JsValue) -> Answers {
    let mut out = Answers::new();
    if !v.is_object() {
        return out;
    }
    for key in object_keys(v).unwrap_or_default() {
        let value = field(v, &key);
        if let Some(s) = value.as_string() {
            out.insert(key, Answer::One(s));
            continue;
        }
        let Some(len) = field(&value, "length")
            .as_f64()
            .filter(|_| value.is_object())
        else {
            continue;
        };
        let len = if (0.0..=1000.0).contains(&len) {
            len as usize
        } else {
            continue;
        };
        let items: Vec<JsValue> = (0..len).map(|i| field(&value, &i.to_string())).collect();
        if items.iter().all(|i| i.as_string().is_some()) {
            out.insert(
                key,
                Answer::Many(items.iter().filter_map(JsValue::as_string).collect()),
            );
        } else if items.iter().all(JsValue::is_object) {
            let rows = items
                .iter()
                .map(|row| {
                    let mut cells = SortedMap::new();
                    for col in object_keys(row).unwrap_or_default() {
                        if let Some(cell) = string(row, &col) {
                            cells.insert(col, cell);
                        }
                    }
                    cells
                })
                .collect();
            out.insert(key, Answer::Rows(rows));
        }
    }
    out
}

fn read_texts(v: &JsValue) -> Texts {
    let mut out = Texts::new();
    if v.is_object() {
        for key in object_keys(v).unwrap_or_default() {
            if let Some(s) = string(v, &key) {
                out.insert(key, s);
            }
        }
    }
    out
}

/// The text in `lang`, else English, else any.
#[wasm_bindgen(js_name = localText)]
pub fn local_text(
    #[wasm_bindgen(unchecked_param_type = "Record<string, string>")] texts: JsValue,
    lang: &str,
) -> String {
    survey::local_text(&read_texts(&texts), lang)
}

/// The items of an array field (at most 10,000; anything else reads as empty).
fn items(v: &JsValue, key: &str) -> Vec<JsValue> {
    let list = field(v, key);
    let len = field(&list, "length")
        .as_f64()
        .filter(|_| list.is_object())
        .unwrap_or(0.0);
    let len = if (0.0..=10_000.0).contains(&len) {
        len as usize
    } else {
        0
    };
    (0..len).map(|i| field(&list, &i.to_string())).collect()
}

fn read_when(v: &JsValue) -> (Vec<EnableWhen>, EnableBehavior) {
    let when = items(v, "EnableWhen")
        .iter()
        .filter_map(|c| {
            let operator = match string(c, "Operator")?.as_str() {
                "exists" => Operator::Exists,
                "=" => Operator::Eq,
                "!=" => Operator::Ne,
                ">" => Operator::Gt,
                "<" => Operator::Lt,
                ">=" => Operator::Ge,
                "<=" => Operator::Le,
                _ => return None,
            };
            Some(EnableWhen {
                question: string(c, "Question")?,
                operator,
                answer: string(c, "Answer").unwrap_or_default(),
            })
        })
        .collect();
    let behavior = if string(v, "EnableBehavior").as_deref() == Some("any") {
        EnableBehavior::Any
    } else {
        EnableBehavior::All
    };
    (when, behavior)
}

/// Reads the rule fields of a question (texts are not needed by the rules and are skipped).
fn read_question(v: &JsValue) -> Option<SurveyQuestion> {
    let kind = crate::survey::definition::kind_of(&string(v, "Type")?)?;
    let (enable_when, enable_behavior) = read_when(v);
    Some(SurveyQuestion {
        id: string(v, "Id")?,
        kind,
        text: Texts::new(),
        help: Texts::new(),
        required: boolean(v, "Required"),
        storage: string(v, "Storage").unwrap_or_default(),
        options: items(v, "Options")
            .iter()
            .filter_map(|o| {
                Some(ChoiceOption {
                    value: string(o, "Value")?,
                    text: Texts::new(),
                })
            })
            .collect(),
        min: string(v, "Min"),
        max: string(v, "Max"),
        decimals: whole(v, "Decimals")
            .unwrap_or(0)
            .min(survey::definition::MAX_DECIMALS),
        max_length: whole(v, "MaxLength").unwrap_or(survey::definition::DEFAULT_MAX_LENGTH),
        min_rows: whole(v, "MinRows").unwrap_or(0),
        max_rows: whole(v, "MaxRows").unwrap_or(0),
        columns: items(v, "Columns")
            .iter()
            .filter_map(read_question)
            .collect(),
        enable_when,
        enable_behavior,
    })
}

fn read_definition(v: &JsValue) -> SurveyDefinition {
    SurveyDefinition {
        id: string(v, "Id").unwrap_or_default(),
        version: string(v, "Version").unwrap_or_default(),
        name: Texts::new(),
        pages: items(v, "Pages")
            .iter()
            .map(|p| {
                let (enable_when, enable_behavior) = read_when(p);
                SurveyPage {
                    id: string(p, "Id").unwrap_or_default(),
                    title: Texts::new(),
                    enable_when,
                    enable_behavior,
                    questions: items(p, "Questions")
                        .iter()
                        .filter_map(read_question)
                        .collect(),
                }
            })
            .collect(),
        question_count: whole(v, "QuestionCount").unwrap_or(0),
    }
}

/// One parsed survey and its rules.
#[wasm_bindgen]
pub struct SurveyRules {
    def: SurveyDefinition,
}

#[wasm_bindgen]
impl SurveyRules {
    /// From a definition as the API sends it (the server parsed and checked the XML with
    /// `survey::parse_survey`). A malformed value reads as a survey without those parts.
    #[wasm_bindgen(constructor)]
    pub fn new(definition: Ts<SurveyDefinition>) -> SurveyRules {
        SurveyRules {
            def: read_definition(&definition.js_value()),
        }
    }

    /// Shown pages and questions for these answers.
    #[wasm_bindgen(unchecked_return_type = "SurveyVisibility")]
    pub fn visibility(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Record<string, Answer>")] answers: JsValue,
    ) -> JsValue {
        to_js_value(&survey::visibility(&self.def, &read_answers(&answers)))
    }

    /// Errors of the shown questions of one page, or of the whole survey when `pageId` is absent.
    #[wasm_bindgen(js_name = validate)]
    pub fn validate(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Record<string, Answer>")] answers: JsValue,
        #[wasm_bindgen(js_name = pageId)] page_id: Option<String>,
    ) -> Ts<ValidationErrors> {
        write(&survey::validate_answers(
            &self.def,
            &read_answers(&answers),
            page_id.as_deref(),
        ))
    }

    /// Only the answers of shown questions, empty values dropped (what is sent and stored).
    #[wasm_bindgen(js_name = cleanAnswers, unchecked_return_type = "Record<string, Answer>")]
    pub fn clean_answers(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Record<string, Answer>")] answers: JsValue,
    ) -> JsValue {
        to_js_value(&survey::clean_answers(&self.def, &read_answers(&answers)))
    }
}

#[cfg(feature = "wasm-settings")]
/// The survey a staff start preselects (spec 01 §2.5 choice order), or undefined: the user picks.
#[wasm_bindgen(js_name = chooseSurvey)]
pub fn choose_survey(choice: Ts<crate::model::SurveyChoice>) -> Option<String> {
    let v = choice.js_value();
    let text = |key: &str| string(&v, key);
    survey::staff_start::choose_survey(&crate::model::SurveyChoice {
        available: items(&v, "Available")
            .iter()
            .filter_map(JsValue::as_string)
            .collect(),
        survey_per_study: text("surveyPerStudy"),
        survey_per_location: text("surveyPerLocation"),
        default_survey: text("defaultSurvey"),
    })
}

#[cfg(feature = "wasm-settings")]
/// '' when a patient search may run, else 'Please enter 3 or more characters' (spec 01 §5).
/// Reads SimpleSearch, RespondentId, FirstName, LastName like the search request.
#[wasm_bindgen(js_name = respondentSearchError)]
pub fn respondent_search_error(
    #[wasm_bindgen(unchecked_param_type = "RespondentSearch")] search: JsValue,
) -> String {
    let t = |key: &str| string(&search, key).unwrap_or_default();
    survey::staff_start::search_error(
        &t("SimpleSearch"),
        &t("RespondentId"),
        &t("FirstName"),
        &t("LastName"),
    )
    .unwrap_or_default()
    .to_owned()
}

/// Longest name an admin may enter for an uploaded survey (spec 04 "Survey packages").
#[wasm_bindgen(js_name = surveyNameMaxChars)]
pub fn survey_name_max_chars() -> u32 {
    survey::package::ENTERED_NAME_MAX_CHARS as u32
}

/// Whether a patient's survey PIN has its shape, 4 digits (spec 01 §2.5): Start is enabled then.
#[wasm_bindgen(js_name = isPinShape)]
pub fn is_pin_shape(pin: &str) -> bool {
    survey::pin::is_pin_shape(pin)
}

/// What the survey PIN field keeps of a typed text: its digits, at most 4.
#[wasm_bindgen(js_name = pinInput)]
pub fn pin_input(typed: &str) -> String {
    survey::pin::pin_input(typed)
}

/// Digits in a survey PIN (the PIN field's `maxLength`).
#[wasm_bindgen(js_name = pinLength)]
pub fn pin_length() -> u32 {
    survey::pin::PIN_LENGTH as u32
}

#[cfg(feature = "wasm-settings")]
/// Whether the staff PIN form is complete (AdminPinLength characters, spec 01 §5).
#[wasm_bindgen(js_name = adminPinReady)]
pub fn admin_pin_ready(pin: &str, length: u32) -> bool {
    survey::staff_start::admin_pin_ready(pin, length)
}

#[cfg(feature = "wasm-settings")]
/// Reads the create-patient form field by field (missing or ill-typed fields are empty).
fn create_patient_request(v: &JsValue) -> crate::model::CreatePatientRequest {
    crate::model::CreatePatientRequest {
        ssn: text(v, "Ssn"),
        first_name: text(v, "FirstName"),
        last_name: text(v, "LastName"),
        dob: text(v, "Dob"),
        gender: text(v, "Gender"),
        email: text(v, "Email"),
        phone: text(v, "Phone"),
        location: text(v, "Location"),
        timezone_offset: 0,
    }
}

#[cfg(feature = "wasm-settings")]
/// The create-patient form's messages per field (spec 01 §2.5); `today` is the kiosk's local
/// YYYY-MM-DD (a later date of birth is refused).
#[wasm_bindgen(js_name = validateCreatePatient)]
pub fn validate_create_patient(
    req: Ts<crate::model::CreatePatientRequest>,
    today: &str,
) -> Ts<ValidationErrors> {
    write(&survey::create_patient::validate_create_patient(
        &create_patient_request(&req.js_value()),
        today,
    ))
}

#[cfg(feature = "wasm-settings")]
/// The create-study form's messages per field (spec 01 §2.5).
#[wasm_bindgen(js_name = validateCreateStudy)]
pub fn validate_create_study(req: Ts<crate::model::CreateStudyRequest>) -> Ts<ValidationErrors> {
    let v = req.js_value();
    write(&survey::create_patient::validate_create_study(
        &crate::model::CreateStudyRequest {
            respondent_id: text(&v, "RespondentId"),
            location: text(&v, "Location"),
            description: text(&v, "Description"),
            timezone_offset: 0,
        },
    ))
}

#[cfg(feature = "wasm-settings")]
/// 'Patient was created successfully {mrn}' (spec 01 §2.5 success toast).
#[wasm_bindgen(js_name = patientCreatedMessage)]
pub fn patient_created_message(mrn: &str) -> String {
    survey::create_patient::created_message(mrn)
}

#[cfg(feature = "wasm-settings")]
/// The create-patient form prefilled from the patient search (spec 01 §2.5 "create a patient
/// (from ssn)"): MRN or names from what was searched.
#[wasm_bindgen(js_name = createPatientPrefill)]
pub fn create_patient_prefill(
    #[wasm_bindgen(unchecked_param_type = "RespondentSearch")] search: JsValue,
) -> Ts<crate::model::CreatePatientRequest> {
    write(&survey::create_patient::prefill_from_search(
        &crate::model::RespondentSearch {
            simple_search: text(&search, "SimpleSearch"),
            respondent_id: text(&search, "RespondentId"),
            first_name: text(&search, "FirstName"),
            last_name: text(&search, "LastName"),
            location: text(&search, "Location"),
        },
    ))
}

/// What the survey screen does with an emailed link's survey identity (spec 01 §4): Start, or
/// Refused with 'Survey Complete' / 'Survey Link Expired' / 'Identity Verification Warning'.
#[wasm_bindgen(js_name = surveyLinkOutcome, unchecked_return_type = "StartDecision")]
pub fn survey_link_outcome(
    #[wasm_bindgen(unchecked_param_type = "SurveyIdentity")] identity: JsValue,
) -> JsValue {
    let v = &identity;
    let id = field(v, "surveyDataId")
        .as_f64()
        .filter(|n| n.fract() == 0.0 && *n >= 1.0 && *n <= 9.0e15)
        .map(|n| n as i64);
    let read = crate::model::SurveyIdentity {
        pin: string(v, "pin"),
        survey_data_id: id,
        is_survey_completed: boolean(v, "isSurveyCompleted"),
        is_email_token_expired: boolean(v, "isEmailTokenExpired"),
        is_user_locked_out: boolean(v, "isUserLockedOut"),
        locked_out_minutes: whole(v, "lockedOutMinutes").unwrap_or(0),
        token: string(v, "Token"),
    };
    to_js_value(&survey::link::identity_outcome(&read))
}

fn read_display(v: &JsValue) -> crate::model::SurveyRunDisplay {
    let flag = |key: &str| boolean(v, key);
    crate::model::SurveyRunDisplay {
        patient_name: None,
        thank_you_name_and_mrn: None,
        auto_advance: flag("AutoAdvance"),
        disable_smart_num_pad: flag("DisableSmartNumPad"),
        disable_num_pad_mobile: flag("DisableNumPadMobile"),
        disable_num_pad_tablet: flag("DisableNumPadTablet"),
        disable_num_pad_desktop: flag("DisableNumPadDesktop"),
    }
}

/// Whether a numeric question shows the numeric keypad on a viewport this wide (SurveyGeneral
/// DisableSmartNumPad and DisableNumPadObjects* per device class; spec 04 §3).
#[wasm_bindgen(js_name = numericKeypad)]
pub fn numeric_keypad(
    #[wasm_bindgen(unchecked_param_type = "SurveyRunDisplay")] display: JsValue,
    #[wasm_bindgen(js_name = viewportWidth)] viewport_width: u32,
) -> bool {
    survey::display::numeric_keypad(&read_display(&display), viewport_width)
}

/// Whether answering this question moves to the next page (AutoAdvanceInSurveyEnabled).
#[wasm_bindgen(js_name = autoAdvance)]
pub fn auto_advance(
    #[wasm_bindgen(unchecked_param_type = "SurveyRunDisplay")] display: JsValue,
    #[wasm_bindgen(unchecked_param_type = "QuestionKind")] kind: JsValue,
    #[wasm_bindgen(js_name = shownOnPage)] shown_on_page: u32,
    #[wasm_bindgen(js_name = lastPage)] last_page: bool,
    #[wasm_bindgen(js_name = readOnly)] read_only: bool,
) -> bool {
    let kind = match kind.as_string().as_deref() {
        Some("single") => crate::model::QuestionKind::Single,
        Some("yesno") => crate::model::QuestionKind::YesNo,
        _ => crate::model::QuestionKind::Text,
    };
    survey::display::auto_advance(
        &read_display(&display),
        &kind,
        shown_on_page as usize,
        last_page,
        read_only,
    )
}

#[cfg(feature = "wasm-settings")]
/// Spec 04's report template types (the upload form's choices), the default first.
#[wasm_bindgen(js_name = reportTypes)]
pub fn report_types() -> Vec<String> {
    survey::report_template::REPORT_TYPES
        .iter()
        .map(|t| (*t).to_owned())
        .collect()
}

#[cfg(feature = "wasm-settings")]
/// Spec 04's default resultFileNamePattern of a report template.
#[wasm_bindgen(js_name = defaultResultFileNamePattern)]
pub fn default_result_file_name_pattern() -> String {
    survey::report_template::DEFAULT_FILE_NAME_PATTERN.to_owned()
}
