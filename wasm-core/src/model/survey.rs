//! Survey definitions and answers as they cross the wire (format: wasm-core/src/survey/README.md).

use crate::sorted_map::SortedMap;

use crate::wire;

/// Language code -> text ("en", "es", "zh", "km", "vi", "tl"; spec 03 §9).
pub type Texts = SortedMap<String, String>;

wire! {
    #[serde(rename_all = "PascalCase")]
    #[cfg_attr(feature = "wasm", tsify(hashmap_as_object))]
    pub struct SurveyDefinition {
        pub id: String,
        pub version: String,
        pub name: Texts,
        pub pages: Vec<SurveyPage>,
        /// Answerable questions (display texts and table columns not counted).
        pub question_count: u32,
    }

    #[serde(rename_all = "PascalCase")]
    #[cfg_attr(feature = "wasm", tsify(hashmap_as_object))]
    pub struct SurveyPage {
        pub id: String,
        pub title: Texts,
        pub enable_when: Vec<EnableWhen>,
        pub enable_behavior: EnableBehavior,
        pub questions: Vec<SurveyQuestion>,
    }

    #[serde(rename_all = "PascalCase")]
    #[cfg_attr(feature = "wasm", tsify(hashmap_as_object))]
    pub struct SurveyQuestion {
        pub id: String,
        #[serde(rename = "Type")]
        pub kind: QuestionKind,
        pub text: Texts,
        pub help: Texts,
        pub required: bool,
        /// Storage column as `table.column`; empty for display texts and table columns.
        pub storage: String,
        pub options: Vec<ChoiceOption>,
        /// Number bounds as written (decimal text); date bounds as YYYY-MM-DD.
        pub min: Option<String>,
        pub max: Option<String>,
        pub decimals: u32,
        pub max_length: u32,
        pub min_rows: u32,
        pub max_rows: u32,
        pub columns: Vec<SurveyQuestion>,
        pub enable_when: Vec<EnableWhen>,
        pub enable_behavior: EnableBehavior,
    }

    #[serde(rename_all = "PascalCase")]
    #[cfg_attr(feature = "wasm", tsify(hashmap_as_object))]
    pub struct ChoiceOption {
        pub value: String,
        pub text: Texts,
    }

    /// FHIR SDC style: the question is shown when the answer to `question` compares with `answer`.
    #[serde(rename_all = "PascalCase")]
    pub struct EnableWhen {
        pub question: String,
        pub operator: Operator,
        pub answer: String,
    }

    #[derive(Copy, Eq)]
    pub enum EnableBehavior {
        #[serde(rename = "all")]
        All,
        #[serde(rename = "any")]
        Any,
    }

    #[derive(Copy, Eq)]
    pub enum Operator {
        #[serde(rename = "exists")]
        Exists,
        #[serde(rename = "=")]
        Eq,
        #[serde(rename = "!=")]
        Ne,
        #[serde(rename = ">")]
        Gt,
        #[serde(rename = "<")]
        Lt,
        #[serde(rename = ">=")]
        Ge,
        #[serde(rename = "<=")]
        Le,
    }

    #[derive(Copy, Eq)]
    pub enum QuestionKind {
        #[serde(rename = "single")]
        Single,
        #[serde(rename = "multiple")]
        Multiple,
        #[serde(rename = "yesno")]
        YesNo,
        #[serde(rename = "text")]
        Text,
        #[serde(rename = "number")]
        Number,
        #[serde(rename = "date")]
        Date,
        #[serde(rename = "table")]
        Table,
        #[serde(rename = "display")]
        Display,
    }

    /// One answer: text, a number or date as text, a choice value, "yes"/"no" (a single value);
    /// the chosen values of a multiple choice; or the rows of a table (column id -> value).
    #[serde(untagged)]
    #[cfg_attr(feature = "wasm", tsify(hashmap_as_object))]
    pub enum Answer {
        One(String),
        Many(Vec<String>),
        Rows(
            #[cfg_attr(feature = "wasm", tsify(type = "Record<string, string>[]"))]
            Vec<SortedMap<String, String>>,
        ),
    }

    /// A parse error, with the 1-based line of the definition where it was found.
    #[serde(rename_all = "PascalCase")]
    pub struct SurveyError {
        pub line: u32,
        pub message: String,
    }

    /// `parseSurvey`'s result: the definition, or the errors (never both).
    #[serde(rename_all = "PascalCase")]
    pub struct SurveyParse {
        pub survey: Option<SurveyDefinition>,
        pub errors: Vec<SurveyError>,
    }

    /// What the skip logic shows for the given answers.
    #[serde(rename_all = "PascalCase")]
    pub struct SurveyVisibility {
        pub pages: Vec<String>,
        pub questions: Vec<String>,
    }
}

/// Question id -> answer.
pub type Answers = SortedMap<String, Answer>;

impl Answer {
    /// No value given: empty text, nothing chosen, no rows.
    pub fn is_empty(&self) -> bool {
        match self {
            Answer::One(s) => s.trim().is_empty(),
            Answer::Many(v) => v.is_empty(),
            Answer::Rows(r) => r.is_empty(),
        }
    }
}

wire! {
    /// GET /api/surveyIdentity/checkPin (spec 01 §3 "PIN check response"). On success `Token`
    /// authorises the kiosk's survey calls (header X-Survey-Token) until the PIN expires.
    #[serde(rename_all = "PascalCase")]
    pub struct PinCheckResponse {
        #[serde(rename = "success")]
        pub success: bool,
        #[serde(rename = "surveyDataId")]
        pub survey_data_id: Option<i64>,
        /// -1 when the PIN has expired.
        #[serde(rename = "attemptsLeft")]
        pub attempts_left: i32,
        pub is_duplicated: bool,
        pub message: String,
        pub token: Option<String>,
    }

    /// GET /api/surveyIdentity/getForEmail?token= (spec 01 §3 "Survey identity", §4): whether
    /// the survey of an emailed link may start. `pin`, `surveyDataId` and `Token` only when it
    /// may: `Token` authorises the survey calls of that one row (header X-Survey-Token) like the
    /// PIN check's, and `pin` opens the same row on the kiosk. `lockedOutMinutes`: how long the
    /// patient's portal account stays locked (0: not locked, or unknown).
    #[derive(Default)]
    #[serde(rename_all = "camelCase", default)]
    pub struct SurveyIdentity {
        pub pin: Option<String>,
        pub survey_data_id: Option<i64>,
        pub is_survey_completed: bool,
        pub is_email_token_expired: bool,
        pub is_user_locked_out: bool,
        pub locked_out_minutes: u32,
        #[serde(rename = "Token")]
        pub token: Option<String>,
    }

    /// GET /api/surveyRun/{surveyQueueId} and /api/surveyRun/log/{surveyLogId}.
    #[serde(rename_all = "PascalCase")]
    pub struct SurveyRunState {
        pub survey_queue_id: i64,
        pub survey_log_id: Option<i64>,
        pub status_key: String,
        pub decision: crate::survey::start::StartDecision,
        /// Absent when the decision refuses.
        pub definition: Option<SurveyDefinition>,
        #[cfg_attr(feature = "wasm", tsify(type = "Record<string, Answer>"))]
        pub answers: Answers,
        /// 0 before the first save.
        pub revision: i64,
        pub page_id: Option<String>,
        pub read_only: bool,
        /// A summary report PDF exists (View, signed in): GET /api/surveyRun/log/{id}/summaryPdf.
        #[serde(default)]
        pub has_summary_pdf: bool,
        /// A summary form report PDF exists (View, signed in; GenerateSummaryFormReport):
        /// GET /api/surveyRun/log/{id}/summaryFormPdf.
        #[serde(default)]
        pub has_summary_form_pdf: bool,
        /// The SurveyGeneral settings the runner follows (`survey::display`).
        #[serde(default)]
        pub display: SurveyRunDisplay,
    }

    /// The runner's share of SurveyGeneral (spec 04 §3), for one patient: `PatientName` absent
    /// under HidePatientNameInSurvey; `ThankYouNameAndMrn` only with
    /// IsDisplayPatientNameAndMrnOnSurveyThankYouScreen.
    #[derive(Default)]
    #[serde(rename_all = "PascalCase", default)]
    pub struct SurveyRunDisplay {
        pub patient_name: Option<String>,
        pub thank_you_name_and_mrn: Option<String>,
        pub auto_advance: bool,
        pub disable_smart_num_pad: bool,
        pub disable_num_pad_mobile: bool,
        pub disable_num_pad_tablet: bool,
        pub disable_num_pad_desktop: bool,
    }

    /// PUT /api/surveyRun/{id}/answers (autosave) and POST /api/surveyRun/{id}/submit. The whole
    /// answer set each time; `ChangeId` is made by the client (a replay changes nothing);
    /// `BaseRevision` is the revision the client last saw (stale -> 409).
    #[serde(rename_all = "PascalCase")]
    pub struct SaveAnswersRequest {
        pub change_id: String,
        pub base_revision: i64,
        #[cfg_attr(feature = "wasm", tsify(type = "Record<string, Answer>"))]
        pub answers: Answers,
        #[serde(default)]
        pub page_id: Option<String>,
        /// The language the survey is being answered in (a code of spec 03 §9's languages: en,
        /// es, zh, km, vi, tl); the summary PDF is written in it. Anything else is ignored.
        #[serde(default)]
        pub language: Option<String>,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct SaveAnswersResponse {
        pub revision: i64,
        pub status_key: String,
        pub survey_log_id: i64,
        /// What the server kept (hidden and empty answers dropped).
        #[cfg_attr(feature = "wasm", tsify(type = "Record<string, Answer>"))]
        pub answers: Answers,
    }

    /// POST /api/v2/survey/generatePin (staff).
    #[serde(rename_all = "PascalCase")]
    /// Either an existing queue row (`SurveyQueueId`, History Portal) or the staff start
    /// flow: respondent (MRN), entity (appointment id, or today's date with Luminary One),
    /// location and the chosen survey; the row is found or assigned then.
    pub struct GeneratePinRequest {
        #[serde(default)]
        pub survey_queue_id: Option<i64>,
        #[serde(default, rename = "respondentId")]
        pub respondent_id: Option<String>,
        #[serde(default, rename = "respondentEntityId")]
        pub respondent_entity_id: Option<String>,
        #[serde(default)]
        pub respondent_entity_type: Option<String>,
        #[serde(default)]
        pub location: Option<String>,
        #[serde(default)]
        pub survey_id: Option<String>,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct GeneratePinResponse {
        pub pin: String,
        pub expires_at: String,
        /// The queue row the PIN opens.
        pub survey_queue_id: i64,
    }
}

wire! {
    /// What decides the preselected survey of a staff start (spec 01 §2.5 survey choice
    /// order; §3 "Default survey lookup": surveyPerStudy, surveyPerLocation, defaultSurvey).
    #[serde(rename_all = "PascalCase")]
    pub struct SurveyChoice {
        /// Survey ids that can be started.
        pub available: Vec<String>,
        #[serde(rename = "surveyPerStudy")]
        pub survey_per_study: Option<String>,
        #[serde(rename = "surveyPerLocation")]
        pub survey_per_location: Option<String>,
        #[serde(rename = "defaultSurvey")]
        pub default_survey: Option<String>,
    }
}

wire! {
    /// GET /api/survey/SurveySettings (spec 01 §3 "Survey settings"): what the kiosk needs.
    #[serde(rename_all = "PascalCase")]
    pub struct SurveyStartSettings {
        pub select_patient_mode: bool,
        pub admin_pin_length: u32,
        pub is_disabled_advanced_patients_search: bool,
        pub search_for_patient_using_alternate_user_identifier: bool,
        pub show_start_survey_for_latest_study_only: bool,
        pub is_disabled_start_survey_confirmation: bool,
        pub is_disabled_finished_today_surveys_confirmation: bool,
        pub is_luminary_one_integration: bool,
        pub layout_survey_title: String,
        pub luminary_one_patient_details_survey_id: String,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct SurveyLocation {
        pub id: String,
        pub location_name: String,
    }

    /// GET /api/surveyIdentity/CheckAdminPin (spec 01 §3 "Admin PIN response"); `Token` (header
    /// X-Survey-Admin) lets this staff session search patients and start surveys for a while.
    #[serde(rename_all = "PascalCase")]
    pub struct AdminPinResponse {
        #[serde(rename = "isValid")]
        pub is_valid: bool,
        #[serde(rename = "locations")]
        pub locations: Vec<SurveyLocation>,
        pub message: String,
        pub token: Option<String>,
    }

    /// POST /api/v2/survey/searchRespondents.
    #[serde(rename_all = "PascalCase")]
    pub struct RespondentSearch {
        // Every text is bounded by `table::MAX_SEARCH_CHARS` (a longer one does not deserialize).
        #[serde(default, deserialize_with = "crate::table::bounded_search")]
        pub simple_search: String,
        #[serde(default, deserialize_with = "crate::table::bounded_search")]
        pub respondent_id: String,
        #[serde(default, deserialize_with = "crate::table::bounded_search")]
        pub first_name: String,
        #[serde(default, deserialize_with = "crate::table::bounded_search")]
        pub last_name: String,
        #[serde(default, deserialize_with = "crate::table::bounded_search")]
        pub location: String,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct Respondent {
        pub respondent_id: String,
        /// One text per column of `Columns`.
        pub display_columns: Vec<String>,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct RespondentSearchResponse {
        pub data: Vec<Respondent>,
        pub columns: Vec<String>,
    }

    /// POST /api/v2/survey/loadRespondentEntities and /api/v2/survey/startOptions.
    #[serde(rename_all = "PascalCase")]
    pub struct RespondentEntitiesRequest {
        pub respondent_id: String,
        #[serde(default)]
        pub location: String,
        #[serde(default)]
        pub respondent_entity_id: String,
        /// Minutes to add to UTC for the viewer's day ("submitted today").
        #[serde(default)]
        pub timezone_offset: i64,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct RespondentEntity {
        pub respondent_entity_id: String,
        pub respondent_entity_type: String,
        /// YYYY-MM-DD.
        pub date: String,
        pub display_columns: Vec<String>,
        pub location: String,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct RespondentEntitiesResponse {
        pub entities: Vec<RespondentEntity>,
        pub columns: Vec<String>,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct StartableSurvey {
        pub survey_id: String,
        pub name: String,
    }

    /// The surveys a staff start may pick from, the lookup of the choice order and whether a
    /// survey for this study was already submitted today.
    #[serde(rename_all = "PascalCase")]
    pub struct StartOptions {
        pub surveys: Vec<StartableSurvey>,
        pub choice: SurveyChoice,
        pub finished_today: bool,
    }
}

wire! {
    /// PUT /magview.api/patient/add (spec 01 §2.5 "create a patient (from ssn)", §7): a patient
    /// made by staff on the kiosk. `Ssn` is the MRN; `Dob` is YYYY-MM-DD; Gender, Email and
    /// Phone may be empty. `Location` is the location number the staff member works at;
    /// `TimezoneOffset` (minutes east of UTC) places "today" for the date-of-birth check.
    #[serde(rename_all = "PascalCase", default)]
    #[derive(Default)]
    pub struct CreatePatientRequest {
        pub ssn: String,
        pub first_name: String,
        pub last_name: String,
        pub dob: String,
        pub gender: String,
        pub email: String,
        pub phone: String,
        pub location: String,
        pub timezone_offset: i64,
    }

    /// PUT /magview.api/studies/create (spec 01 §2.5 "a study (from respondent id)"): a study
    /// today at `Location` for the patient `RespondentId`; `Description` may be empty.
    #[serde(rename_all = "PascalCase", default)]
    #[derive(Default)]
    pub struct CreateStudyRequest {
        pub respondent_id: String,
        pub location: String,
        pub description: String,
        pub timezone_offset: i64,
    }

    /// What was created: the patient's MRN (spec 01 §3 "Result (Ssn)") and, for a study, the
    /// new entity to continue with.
    #[serde(rename_all = "PascalCase")]
    pub struct CreatedPatient {
        pub ssn: String,
        pub respondent_entity_id: Option<String>,
    }

    /// The answer of both create calls (spec 01 §3 "Create patient/study: Error, ErrorMessage,
    /// Result (Ssn)"; §8 the web toasts ErrorMessage). `Errors` holds the field messages of a
    /// refused form (empty otherwise).
    #[serde(rename_all = "PascalCase")]
    pub struct CreatePatientResult {
        pub error: bool,
        pub error_message: String,
        pub result: Option<CreatedPatient>,
        pub errors: crate::ValidationErrors,
    }
}

wire! {
    /// GET /api/surveyIdentity/checkPin?pin= (spec 01 §2.5).
    pub struct PinQuery {
        #[serde(default)]
        pub pin: String,
    }

    /// GET /api/surveyIdentity/CheckAdminPin?adminPin= (staff start).
    pub struct AdminPinQuery {
        #[serde(default, rename = "adminPin")]
        pub admin_pin: String,
    }

    /// GET /api/surveyRun/{surveyQueueId}?modify=: Modify reopens a finished survey (spec 01 §4).
    pub struct RunQuery {
        #[serde(default)]
        pub modify: bool,
    }
}
