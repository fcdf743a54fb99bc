//! Runs every shared case table in tests/cases/*.json against the native build. The Node test in
//! tests/parity/ runs the same tables against the wasm build, so both must agree (STYLE.md).
//!
//! A case is `{name, input, expected}`; what `input` holds depends on the table (see README.md
//! there). Results are compared as JSON with null object fields removed, because the wasm side
//! drops `None` fields (undefined) where serde_json writes null.

use std::path::PathBuf;

use serde::de::DeserializeOwned;
use serde_json::{json as json_value, Value};
use wasm_core::dates::{self, DateFormat};
use wasm_core::model::IamHereMode;
use wasm_core::model::{Answers, SurveyDefinition, Texts};
use wasm_core::model::{
    ChangeMyPassword, CreateAccountRules, CreateUserRequest, RoleForm, SetupConfiguration,
    SurveyRegistration, UserForm,
};
use wasm_core::model::{DocumentsSettings, LetterFacts, LetterViewer};
use wasm_core::model::{LoginRequest, MainMenuSettings, ModulePermissions, Permissions};
use wasm_core::password::{self, PasswordRequirements};
use wasm_core::table::{self, TableState};
use wasm_core::{
    documents, embed, http_error, iam_here, labels, login, medical_history, membership, menu,
    session_timer, setup, survey,
};

fn cases(file: &str) -> Vec<Value> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/cases")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let cases: Vec<Value> = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
    assert!(!cases.is_empty(), "{file} has no cases");
    cases
}

fn arg<T: DeserializeOwned>(input: &Value, key: &str) -> T {
    serde_json::from_value(input[key].clone()).unwrap_or_else(|e| panic!("input.{key}: {e}"))
}

fn s<'a>(input: &'a Value, key: &str) -> &'a str {
    input[key]
        .as_str()
        .unwrap_or_else(|| panic!("input.{key} is not a string"))
}

fn without_nulls(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k, without_nulls(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(without_nulls).collect()),
        other => other,
    }
}

/// Runs `run` on every case of `file`; reports every mismatch, then fails once.
fn check(file: &str, run: impl Fn(&Value) -> Value) -> usize {
    let all = cases(file);
    let mut failures = Vec::new();
    for case in &all {
        let name = case["name"].as_str().expect("case name");
        let actual = without_nulls(run(&case["input"]));
        let expected = without_nulls(case["expected"].clone());
        if actual != expected {
            failures.push(format!(
                "{file} / {name}\n  expected {expected}\n  actual   {actual}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
    all.len()
}

fn json<T: serde::Serialize>(value: T) -> Value {
    serde_json::to_value(value).expect("serialisable")
}

#[test]
fn documents_hold_cases() {
    use wasm_core::documents_hold::{hold_view, HoldClinic, HoldLetter};
    use wasm_core::settings::documents_hiding::DocumentsHidingEmailNotSending;
    let instant = |v: &Value| {
        v.as_str()
            .and_then(wasm_core::dates::instant_ms)
            .unwrap_or(0)
    };
    check("documents_hold.json", |input| {
        let rules: DocumentsHidingEmailNotSending = arg(input, "rules");
        let l = &input["letter"];
        let letter = HoldLetter::new(
            l["LetterType"].as_str().unwrap_or_default(),
            l["BiRads"].as_str(),
            instant(&l["SentAt"]),
        );
        let c = &input["clinic"];
        let days: Vec<bool> = (0..7)
            .map(|i| c["BusinessDays"][i].as_bool().unwrap_or(false))
            .collect();
        let clinic = HoldClinic::new(c["OffsetMinutes"].as_i64().unwrap_or(0) as i32, &days);
        json(hold_view(&rules, &letter, &clinic, instant(&input["now"])))
    });
}

#[test]
fn documents_releases_cases() {
    use wasm_core::documents::{shown_releases, ReleaseGrouping, ReleasedLetter};
    check("documents_releases.json", |input| {
        let letters: Vec<ReleasedLetter> = input["letters"]
            .as_array()
            .expect("input.letters")
            .iter()
            .map(|l| ReleasedLetter {
                id: l["Id"].as_i64().expect("Id"),
                sent_at_ms: l["SentAt"]
                    .as_str()
                    .and_then(wasm_core::dates::instant_ms)
                    .expect("SentAt"),
                release_seq: l["RSeq"].as_i64(),
                type_text: l["TypeText"].as_str().unwrap_or_default().to_owned(),
            })
            .collect();
        let s = &input["settings"];
        let grouping = ReleaseGrouping {
            disabled: s["DisableRSeqRDateGrouping"].as_bool().unwrap_or(false),
            show_rseq_with_type: s["DocumentsIsShowRSeqWithDocType"]
                .as_bool()
                .unwrap_or(false),
            clinic_offset_minutes: input["offsetMinutes"].as_i64().expect("offsetMinutes") as i32,
        };
        json(shown_releases(&letters, grouping))
    });
}

#[test]
fn password_cases() {
    check("password.json", |input| {
        if input.get("repeat").is_some() {
            json(password::validate_password_repeat(
                s(input, "password"),
                s(input, "repeat"),
            ))
        } else {
            let req: PasswordRequirements = arg(input, "requirements");
            json(password::check_password(s(input, "password"), &req))
        }
    });
}

#[test]
fn date_cases() {
    check("dates.json", |input| {
        let offset = || {
            input["offsetMinutes"]
                .as_i64()
                .and_then(|n| i32::try_from(n).ok())
                .expect("offsetMinutes")
        };
        let hide = || input["hideTime"].as_bool().expect("hideTime");
        match s(input, "fn") {
            "formatDate" => {
                let format: DateFormat = arg(input, "format");
                json(dates::format_date(
                    s(input, "iso"),
                    format,
                    offset(),
                    s(input, "zoneAbbr"),
                ))
            }
            "formatAppointment" => {
                json(dates::format_appointment(s(input, "iso"), hide(), offset()))
            }
            "appointmentHeader" => json(dates::appointment_header(hide())),
            "localizeDateNames" => {
                let placement = if input["inSentence"].as_bool().unwrap_or(false) {
                    dates::DatePlacement::InSentence
                } else {
                    dates::DatePlacement::Standalone
                };
                json(dates::localize_names(
                    s(input, "formatted"),
                    placement,
                    |key| input["names"][key].as_str().map(str::to_owned),
                ))
            }
            other => panic!("unknown fn {other}"),
        }
    });
}

#[test]
fn table_state_cases() {
    check("table_state.json", |input| match s(input, "fn") {
        "read" => {
            let defaults: TableState = arg(input, "defaults");
            json(table::read_table_state(
                s(input, "query"),
                s(input, "listId"),
                &defaults,
            ))
        }
        "write" => {
            let state: TableState = arg(input, "state");
            json(table::write_table_state(
                s(input, "query"),
                s(input, "listId"),
                &state,
            ))
        }
        "request" => json(table::table_request(&arg::<TableState>(input, "state"))),
        "pager" => json(table::pager(
            arg(input, "pageIndex"),
            arg(input, "pageSize"),
            arg(input, "rowCount"),
        )),
        other => panic!("unknown fn {other}"),
    });
}

#[test]
fn menu_cases() {
    check("menu.json", |input| {
        let perms: Permissions = arg(input, "perms");
        let modules: ModulePermissions = arg(input, "modules");
        json(menu::menu_for(&perms, &modules))
    });
}

#[test]
fn login_cases() {
    check("login.json", |input| {
        let req: LoginRequest = arg(input, "req");
        json(login::validate_login(
            &req,
            input["askUsername"].as_bool().expect("askUsername"),
        ))
    });
}

#[test]
fn login_links_cases() {
    check("login_links.json", |input| {
        let settings: MainMenuSettings = serde_json::from_value(json_value!({
            "IsCernerOAuthEnabled": input["settings"]["IsCernerOAuthEnabled"].as_bool().unwrap_or(false),
            "IsSsoMode": input["settings"]["IsSsoMode"].as_bool().unwrap_or(false),
            "DisableSecondaryRecoveryOptions": input["settings"]["DisableSecondaryRecoveryOptions"].as_bool().unwrap_or(false),
        }))
        .expect("settings");
        json(login::login_links(
            input["patientDoor"].as_bool().expect("patientDoor"),
            &settings,
            input["askUsername"].as_bool().expect("askUsername"),
        ))
    });
}

#[test]
fn http_error_cases() {
    check("http_error.json", |input| {
        let status = input["status"]
            .as_u64()
            .and_then(|n| u16::try_from(n).ok())
            .expect("status");
        json(http_error::describe_http_error(status, s(input, "body")))
    });
}

#[test]
fn history_portal_cases() {
    use wasm_core::history_portal;
    check("history_portal.json", |input| match s(input, "fn") {
        "historyTab" => json(
            history_portal::history_tab(s(input, "listId"))
                .or_else(|| history_portal::history_tab("all")),
        ),
        "appointmentRange" => json(history_portal::appointment_range(
            s(input, "mode"),
            s(input, "from"),
            s(input, "to"),
            s(input, "nowIso"),
            input["offsetMinutes"]
                .as_i64()
                .and_then(|n| i32::try_from(n).ok())
                .expect("offsetMinutes"),
        )),
        "localDate" => json(history_portal::local_date(
            s(input, "nowIso"),
            input["offsetMinutes"]
                .as_i64()
                .and_then(|n| i32::try_from(n).ok())
                .expect("offsetMinutes"),
        )),
        "surveyActions" => {
            let row: wasm_core::model::SurveyActionInput = arg(input, "row");
            json(history_portal::survey_actions(
                &row,
                input["maxReadyForExam"].as_i64().expect("maxReadyForExam"),
                s(input, "nowIso"),
                input["offsetMinutes"]
                    .as_i64()
                    .and_then(|n| i32::try_from(n).ok())
                    .expect("offsetMinutes"),
            ))
        }
        other => panic!("unknown fn {other}"),
    });
}

#[test]
fn documents_cases() {
    check("documents.json", |input| {
        let b = |key: &str| {
            input[key]
                .as_bool()
                .unwrap_or_else(|| panic!("input.{key}"))
        };
        match s(input, "fn") {
            "letterState" => {
                let facts: LetterFacts = arg(input, "facts");
                let viewer: LetterViewer = arg(input, "viewer");
                let offset = input["offsetMinutes"]
                    .as_i64()
                    .and_then(|n| i32::try_from(n).ok())
                    .expect("offsetMinutes");
                json(documents::letter_state(&facts, &viewer, offset))
            }
            "viewAction" => {
                let facts: LetterFacts = arg(input, "facts");
                let viewer: LetterViewer = arg(input, "viewer");
                json(documents::view_action(&facts, &viewer))
            }
            "refreshAfterAck" => json(documents::refresh_after_ack(
                b("isTraceEnabled"),
                b("isProgramManager"),
            )),
            "documentColumns" => json(documents::document_columns(&arg::<DocumentsSettings>(
                input, "settings",
            ))),
            "letterTitle" => json(documents::letter_title_in(
                s(input, "patientName"),
                s(input, "patientId"),
                input["studyDate"].as_str(),
                s(input, "procedure"),
                |key| input["texts"][key].as_str().map(str::to_owned),
            )),
            "documentsRoute" => {
                let segments: Vec<String> = arg(input, "segments");
                let unread = input["unreadCount"]
                    .as_u64()
                    .and_then(|n| u32::try_from(n).ok());
                json(documents::documents_route(
                    &segments,
                    unread,
                    b("showOtherTab"),
                ))
            }
            other => panic!("unknown fn {other}"),
        }
    });
}

#[test]
fn membership_cases() {
    check("membership.json", |input| match s(input, "fn") {
        "user" => json(membership::validate_user(&arg::<UserForm>(input, "user"))),
        "role" => json(membership::validate_role(&arg::<RoleForm>(input, "role"))),
        "create" => json(membership::validate_create_account(
            &arg::<CreateUserRequest>(input, "req"),
            &arg::<CreateAccountRules>(input, "rules"),
        )),
        "survey" => json(membership::validate_survey_registration(
            &arg::<SurveyRegistration>(input, "reg"),
            input["newPerson"].as_bool().expect("newPerson"),
        )),
        "code" => json(membership::validate_verification_code(s(input, "code"))),
        "change" => json(membership::validate_change_my_password(
            &arg::<ChangeMyPassword>(input, "req"),
            &arg::<PasswordRequirements>(input, "rules"),
        )),
        "phone" => json(membership::format_us_phone(s(input, "value"))),
        other => panic!("unknown fn {other}"),
    });
}

/// The fields of `result` that `input` names.
fn only_keys_of(result: Value, input: &Value) -> Value {
    let keys = input.as_object().expect("cfg object");
    Value::Object(
        result
            .as_object()
            .expect("object result")
            .iter()
            .filter(|(k, _)| keys.contains_key(*k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
    )
}

#[test]
fn setup_cases() {
    check("setup.json", |input| match s(input, "fn") {
        "validate" => json(setup::validate_setup(&arg::<SetupConfiguration>(
            input, "cfg",
        ))),
        "normalize" => {
            let cfg = arg::<SetupConfiguration>(input, "cfg");
            // The exported fields, and the whole configuration agreeing with them.
            let fields = json(setup::normalized_fields(&cfg));
            assert_eq!(
                only_keys_of(json(setup::normalize_setup(&cfg)), &fields),
                fields
            );
            fields
        }
        "testUrl" => json(setup::test_url(s(input, "url"))),
        "dmz" => json(setup::dmz_mode_for(
            s(input, "type"),
            input["dmz"].as_bool().expect("dmz"),
        )),
        "serviceAccount" => json(setup::normalize_service_account(s(input, "name"))),
        "publicAddress" => json(setup::normalize_public_address(s(input, "url"))),
        "firstManager" => {
            let rules: Option<PasswordRequirements> = arg(input, "rules");
            json(setup::validate_first_manager(
                &arg(input, "manager"),
                rules.as_ref(),
                input["usernameTaken"].as_bool().expect("usernameTaken"),
            ))
        }
        other => panic!("unknown fn {other}"),
    });
}

#[test]
fn medical_history_cases() {
    check("medical_history.json", |input| {
        let opt = |key: &str| input[key].as_str();
        let n = |key: &str| input[key].as_i64().unwrap_or_else(|| panic!("input.{key}"));
        match s(input, "fn") {
            "surveyButton" => json(medical_history::survey_button(
                s(input, "statusKey"),
                opt("dateCompleted"),
                opt("appointment"),
                s(input, "now"),
                n("surveyQueueId"),
                input["surveyLogId"].as_i64(),
            )),
            "surveyTab" => json(medical_history::survey_tab(s(input, "statusKey"))),
            "defaultTab" => json(medical_history::default_tab(&arg::<Vec<String>>(
                input,
                "statusKeys",
            ))),
            "statusTooltip" => json(medical_history::status_tooltip(s(input, "statusKey"))),
            "pendingSurvey" => json(medical_history::pending_survey_action(
                s(input, "statusKey"),
                s(input, "surveyName"),
                n("surveyQueueId"),
                s(input, "label"),
            )),
            "pendingLetters" => json(medical_history::pending_letters_action(
                u32::try_from(n("unread")).expect("unread"),
                s(input, "label"),
            )),
            other => panic!("unknown fn {other}"),
        }
    });
}

#[test]
fn iam_here_cases() {
    check("iam_here.json", |input| {
        let b = |key: &str| {
            input[key]
                .as_bool()
                .unwrap_or_else(|| panic!("input.{key}"))
        };
        let n = |key: &str| input[key].as_i64().unwrap_or_else(|| panic!("input.{key}"));
        match s(input, "fn") {
            "mode" => json(iam_here::iam_here_mode(
                b("disabled"),
                b("found"),
                s(input, "status"),
                n("startsAt"),
                n("now"),
                n("expireHours"),
            )),
            "showsDate" => json(iam_here::shows_appointment_date(arg::<IamHereMode>(
                input, "mode",
            ))),
            "showsWarning" => json(iam_here::shows_warning(arg::<IamHereMode>(input, "mode"))),
            other => panic!("unknown fn {other}"),
        }
    });
}

#[test]
fn labels_cases() {
    check("labels.json", |input| match s(input, "fn") {
        "labelText" => {
            let pairs: Vec<(String, String)> = arg(input, "translations");
            json(labels::label_text(
                &pairs,
                s(input, "language"),
                s(input, "default"),
            ))
        }
        "languageName" => json(labels::language_name(s(input, "language"))),
        "enumLabel" => json(wasm_core::enum_label::enum_label(s(input, "value"))),
        "messageTemplateKey" => {
            json(wasm_core::message_templates::template_parts(s(input, "message")).map(|p| p.key))
        }
        "messageText" => json(wasm_core::message_templates::message_text(
            s(input, "message"),
            s(input, "text"),
        )),
        other => panic!("unknown fn {other}"),
    });
}

/// A settings group's rules by name (`validate`, `hidden`, `disabled`, `edit`), as the settings
/// package's validateSettings, hiddenSettingsFields, disabledSettingsFields and applySettingsEdit.
fn settings_fn(input: &Value) -> Value {
    use wasm_core::settings::{SettingsGroup, UNKNOWN_GROUP};
    use wasm_core::ValidationErrors;
    // The group's document as the wasm build reads it: missing fields take their defaults.
    fn read<T: SettingsGroup>(doc: &serde_json::Value) -> T {
        serde_json::from_value(doc.clone()).expect("a settings document")
    }
    let doc = &input["doc"];
    macro_rules! dispatch {
        ($($t:ty),* $(,)?) => {
            match (s(input, "fn"), s(input, "group")) {
                $(("validate", <$t as SettingsGroup>::NAME) => json(read::<$t>(doc).validate()),
                ("hidden", <$t as SettingsGroup>::NAME) => json(read::<$t>(doc).hidden()),
                ("disabled", <$t as SettingsGroup>::NAME) => json(read::<$t>(doc).disabled()),
                ("edit", <$t as SettingsGroup>::NAME) => {
                    let mut group = read::<$t>(doc);
                    group.edited(s(input, "field"));
                    group.normalize();
                    let all = serde_json::to_value(group).unwrap();
                    let pick = input["pick"].as_array().expect("pick");
                    serde_json::Value::Object(
                        pick.iter().map(|k| { let k = k.as_str().unwrap(); (k.to_owned(), all[k].clone()) }).collect(),
                    )
                })*
                ("validate", _) => {
                    let mut e = ValidationErrors::new();
                    e.add("", UNKNOWN_GROUP);
                    json(e)
                }
                (other, group) => panic!("unknown fn {other} for {group}"),
            }
        };
    }
    wasm_core::for_each_group!(dispatch)
}

#[test]
fn settings_cases() {
    check("settings.json", settings_fn);
}

#[test]
fn techpad_cases() {
    use wasm_core::settings::techpad::{exam_actions, pdf_forms, resources, split_at_capitals};
    check("techpad.json", |input| match s(input, "fn") {
        "toggleExamAction" => json(exam_actions::toggle_action(
            input["actions"].as_str(),
            s(input, "className"),
            input["on"].as_bool().expect("on"),
        )),
        "newResource" => {
            let statuses: Vec<String> = arg(input, "statuses");
            json(resources::new_resource(&statuses))
        }
        "splitAtCapitals" => json(split_at_capitals(s(input, "name"))),
        "validatePdfFormUpload" => json(pdf_forms::validate_upload(
            s(input, "name"),
            s(input, "fileName"),
            input["size"].as_u64().expect("size"),
        )),
        "formatPdfFormSize" => json(pdf_forms::format_size(
            input["bytes"].as_u64().expect("bytes"),
        )),
        _ => settings_fn(input),
    });
}

#[test]
fn session_timer_cases() {
    check("session_timer.json", |input| {
        let n = |k: &str| input[k].as_i64().unwrap_or_else(|| panic!("input.{k}"));
        json(session_timer::session_timer_view(
            n("secondsLeft"),
            n("timeoutMinutes") as u32,
            n("warnMinutes") as u32,
        ))
    });
}

#[test]
fn route_access_cases() {
    check("route_access.json", |input| {
        let perms: Permissions = arg(input, "perms");
        let modules: ModulePermissions = arg(input, "modules");
        json(menu::route_redirect(&perms, &modules, s(input, "path")))
    });
}

#[test]
fn logo_cases() {
    check("logo.json", |input| {
        json(wasm_core::logo::validate_logo_width(s(input, "value")))
    });
}

#[test]
fn embed_cases() {
    check("embed.json", |input| {
        json(embed::embed_success_path(
            s(input, "page"),
            s(input, "clientId"),
            s(input, "token"),
        ))
    });
}

#[test]
fn sso_type_cases() {
    use wasm_core::settings::sso;
    check("sso_type.json", |input| match s(input, "fn") {
        "load" => json(sso::sso_type_of(s(input, "integrationType"))),
        "save" => json(sso::integration_type_of(&arg(input, "choice"))),
        "savePath" => json(sso::integration_type_for_save(
            s(input, "ssoType"),
            s(input, "integrationType"),
        )),
        other => panic!("unknown fn {other}"),
    });
}

#[test]
fn the_tables_hold_enough_cases() {
    let total: usize = [
        "password.json",
        "dates.json",
        "table_state.json",
        "menu.json",
        "login.json",
        "login_links.json",
        "http_error.json",
        "history_portal.json",
        "settings.json",
        "techpad.json",
        "membership.json",
        "setup.json",
        "session_timer.json",
        "documents.json",
        "documents_releases.json",
        "medical_history.json",
        "iam_here.json",
        "labels.json",
        "embed.json",
        "survey.json",
        "survey_start.json",
        "survey_pin.json",
        "create_patient.json",
        "survey_link.json",
        "route_access.json",
        "logo.json",
        "sso_type.json",
    ]
    .iter()
    .map(|file| cases(file).len())
    .sum();
    assert!(total >= 60, "only {total} shared cases");
}

#[test]
fn survey_pin_cases() {
    use wasm_core::survey::pin;
    check("survey_pin.json", |input| match s(input, "fn") {
        "shape" => json(pin::is_pin_shape(s(input, "pin"))),
        "input" => json(pin::pin_input(s(input, "typed"))),
        other => panic!("unknown fn {other}"),
    });
}

#[test]
fn survey_start_cases() {
    use wasm_core::survey::staff_start;
    check("survey_start.json", |input| match s(input, "fn") {
        "choose" => json(staff_start::choose_survey(&arg(input, "choice"))),
        "search" => {
            let t = |k: &str| input["search"][k].as_str().unwrap_or("").to_owned();
            json(
                staff_start::search_error(
                    &t("SimpleSearch"),
                    &t("RespondentId"),
                    &t("FirstName"),
                    &t("LastName"),
                )
                .unwrap_or(""),
            )
        }
        "adminPin" => json(staff_start::admin_pin_ready(
            s(input, "pin"),
            input["length"].as_u64().unwrap() as u32,
        )),
        other => panic!("unknown fn {other}"),
    });
}

#[test]
fn create_patient_cases() {
    use wasm_core::model::{CreatePatientRequest, CreateStudyRequest};
    use wasm_core::survey::create_patient;
    check("create_patient.json", |input| match s(input, "fn") {
        "patient" => json(create_patient::validate_create_patient(
            &arg::<CreatePatientRequest>(input, "req"),
            s(input, "today"),
        )),
        "study" => json(create_patient::validate_create_study(&arg::<
            CreateStudyRequest,
        >(
            input, "req"
        ))),
        "message" => json(create_patient::created_message(s(input, "mrn"))),
        "prefill" => json(create_patient::prefill_from_search(&arg(input, "search"))),
        other => panic!("unknown fn {other}"),
    });
}

#[test]
fn survey_link_cases() {
    check("survey_link.json", |input| {
        json(wasm_core::survey::link::identity_outcome(&arg(
            input, "identity",
        )))
    });
}

/// A shipped survey (wasm-core/surveys/NAME.xml), parsed natively.
fn shipped_survey(name: &str) -> SurveyDefinition {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("surveys")
        .join(format!("{name}.xml"));
    let xml = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let parsed = survey::parse_survey(&xml);
    assert!(parsed.errors.is_empty(), "{name}: {:?}", parsed.errors);
    parsed.survey.expect("a definition")
}

#[test]
fn survey_cases() {
    check("survey.json", |input| {
        let answers = || -> Answers { arg(input, "answers") };
        match s(input, "fn") {
            "localText" => json(survey::local_text(
                &arg::<Texts>(input, "texts"),
                s(input, "lang"),
            )),
            "visibility" => json(survey::visibility(
                &shipped_survey(s(input, "survey")),
                &answers(),
            )),
            "validate" => json(survey::validate_answers(
                &shipped_survey(s(input, "survey")),
                &answers(),
                input["page"].as_str(),
            )),
            "clean" => json(survey::clean_answers(
                &shipped_survey(s(input, "survey")),
                &answers(),
            )),
            other => panic!("unknown fn {other}"),
        }
    });
}

/// The parity test gives the wasm the definitions as the API sends them (JSON, in
/// tests/surveys/); they must be exactly what the parser makes of the shipped XML.
/// `UPDATE_SURVEY_JSON=1 cargo test -p wasm-core --test cases` rewrites them.
#[test]
fn survey_json_matches_the_shipped_xml() {
    for name in [
        "breast-imaging-history",
        "pre-exam-screening",
        "mri-safety-screening",
    ] {
        let def = json(shipped_survey(name));
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/surveys")
            .join(format!("{name}.json"));
        if std::env::var_os("UPDATE_SURVEY_JSON").is_some() {
            std::fs::write(&path, serde_json::to_string_pretty(&def).unwrap() + "\n").unwrap();
        }
        let stored: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(stored, def, "{} is stale", path.display());
    }
}

// Issue 3 parts 2-4: password reset and phone verification. recovery.json holds what the browser
// calls (parity runs it too); native/recovery_server.json the server-only rules, not exported.
#[test]
fn recovery_cases() {
    use wasm_core::model::{PhoneVerifyState, ResetKeyValidation, ResetPasswordRequest};
    use wasm_core::recovery;
    check("recovery.json", |i| match s(i, "fn") {
        "resetForm" => json(recovery::validate_reset_password(
            &arg::<ResetPasswordRequest>(i, "req"),
            &arg(i, "rules"),
        )),
        "resetRoute" => json(recovery::reset_link_route(
            &arg::<ResetKeyValidation>(i, "v"),
            s(i, "area"),
            s(i, "pwdReset"),
            s(i, "id"),
        )),
        "phoneView" => json(recovery::phone_verify_view(&arg::<PhoneVerifyState>(
            i, "s",
        ))),
        "years" => {
            let y = recovery::dob_years(i["current"].as_u64().unwrap() as u32);
            serde_json::json!({"count": y.len(), "first": y[0], "last": y[y.len() - 1]})
        }
        other => panic!("unknown fn {other}"),
    });
}

#[test]
fn location_name_cases() {
    check("native/location_names.json", |i| {
        json(wasm_core::history_portal::location_display_name(s(
            i, "name",
        )))
    });
}

#[test]
fn recovery_server_cases() {
    use wasm_core::model::{CodeCheck, CodeState, KeyFacts, ResetKeyFacts, VerificationLimits};
    use wasm_core::recovery;
    check("native/recovery_server.json", |i| match s(i, "fn") {
        "keyState" => json(recovery::key_state(
            &arg::<KeyFacts>(i, "key"),
            i["purpose"].as_str(),
            i["now"].as_i64().unwrap(),
        )),
        "expiry" => json(recovery::key_expires_at(
            i["created"].as_i64().unwrap(),
            i["seconds"].as_i64().unwrap(),
        )),
        "validate" => json(recovery::reset_key_validation(
            &arg::<ResetKeyFacts>(i, "f"),
            i["now"].as_i64().unwrap(),
        )),
        "request" => json(recovery::code_request(
            &arg::<VerificationLimits>(i, "limits"),
            arg::<Option<CodeState>>(i, "code").as_ref(),
        )),
        "check" => json(recovery::code_check(
            &arg::<VerificationLimits>(i, "limits"),
            arg::<Option<CodeState>>(i, "code").as_ref(),
            i["now"].as_i64().unwrap(),
            i["matches"].as_bool().unwrap(),
        )),
        "message" => json(recovery::code_message(arg::<CodeCheck>(i, "check"))),
        "forgot" => {
            let (errors, ask) = recovery::forgot_password_check(
                s(i, "login"),
                s(i, "recovery"),
                i["disable"].as_bool().unwrap(),
            );
            serde_json::json!({"errors": errors, "ask": ask})
        }
        "recoveryMatches" => {
            let emails: Vec<String> = arg(i, "emails");
            let emails: Vec<&str> = emails.iter().map(String::as_str).collect();
            json(recovery::recovery_matches(
                s(i, "recovery"),
                s(i, "phone"),
                &emails,
            ))
        }
        "username" => json(recovery::recover_username_check(s(i, "email"))),
        "lastFour" => json(recovery::last_four(s(i, "phone"))),
        "dob" => json(recovery::dob_matches(
            s(i, "stored"),
            i["y"].as_u64().unwrap() as u32,
            i["m"].as_u64().unwrap() as u32,
            i["d"].as_u64().unwrap() as u32,
        )),
        other => panic!("unknown fn {other}"),
    });
}
