//! Runs every shared case table in tests/cases/*.json against the native build. The Node test in
//! tests/parity/ runs the same tables against the wasm build, so both must agree (STYLE.md).
//!
//! A case is `{name, input, expected}`; what `input` holds depends on the table (see README.md
//! there). Results are compared as JSON with null object fields removed, because the wasm side
//! drops `None` fields (undefined) where serde_json writes null.

use std::path::PathBuf;

use serde::de::DeserializeOwned;
use serde_json::Value;
use wasm_core::dates::{self, DateFormat};
use wasm_core::model::{LoginRequest, ModulePermissions, Permissions};
use wasm_core::password::{self, PasswordRequirements};
use wasm_core::table::{self, TableState};
use wasm_core::model::{Answers, SurveyDefinition, Texts};
use wasm_core::{http_error, login, menu, survey};

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
fn the_tables_hold_enough_cases() {
    let total: usize = [
        "password.json",
        "dates.json",
        "table_state.json",
        "menu.json",
        "login.json",
        "http_error.json",
        "survey.json",
    ]
    .iter()
    .map(|file| cases(file).len())
    .sum();
    assert!(total >= 60, "only {total} shared cases");
}

/// A shipped survey (wasm-core/surveys/NAME.xml), parsed natively.
fn shipped_survey(name: &str) -> SurveyDefinition {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("surveys").join(format!("{name}.xml"));
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
            "localText" => json(survey::local_text(&arg::<Texts>(input, "texts"), s(input, "lang"))),
            "visibility" => json(survey::visibility(&shipped_survey(s(input, "survey")), &answers())),
            "validate" => json(survey::validate_answers(
                &shipped_survey(s(input, "survey")),
                &answers(),
                input["page"].as_str(),
            )),
            "clean" => json(survey::clean_answers(&shipped_survey(s(input, "survey")), &answers())),
            other => panic!("unknown fn {other}"),
        }
    });
}

/// The parity test gives the wasm the definitions as the API sends them (JSON, in
/// tests/surveys/); they must be exactly what the parser makes of the shipped XML.
/// `UPDATE_SURVEY_JSON=1 cargo test -p wasm-core --test cases` rewrites them.
#[test]
fn survey_json_matches_the_shipped_xml() {
    for name in ["breast-imaging-history", "pre-exam-screening", "mri-safety-screening"] {
        let def = json(shipped_survey(name));
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/surveys").join(format!("{name}.json"));
        if std::env::var_os("UPDATE_SURVEY_JSON").is_some() {
            std::fs::write(&path, serde_json::to_string_pretty(&def).unwrap() + "\n").unwrap();
        }
        let stored: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(stored, def, "{} is stale", path.display());
    }
}
