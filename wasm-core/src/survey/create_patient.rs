//! Create a patient or a study from the kiosk's staff start (spec 01 §2.5, §3, §7, §8): the form
//! rules, the MRN as stored, and the texts of the answer. The web shows these messages under the
//! fields; the API runs the same functions before it writes.

use crate::membership::{
    is_email, us_phone_digits, DOB_INVALID, DOB_REQUIRED, EMAIL_INVALID, FIRST_NAME_REQUIRED,
    GENDERS, LAST_NAME_REQUIRED, MRN_REQUIRED, PHONE_INVALID,
};
use crate::model::{
    CreatePatientRequest, CreatePatientResult, CreateStudyRequest, CreatedPatient, RespondentSearch,
};
use crate::validation::{is_blank, ValidationErrors};

/// Spec 01 §2.5: the success toast is this text, a space and the MRN.
pub const PATIENT_CREATED: &str = "Patient was created successfully";
pub const MRN_TAKEN: &str = "A patient with this MRN already exists";
pub const MRN_LENGTH: &str = "MRN must be 3 to 20 characters long";
pub const MRN_CHARACTERS: &str = "MRN may contain only letters, digits and hyphens";
pub const FIRST_NAME_LONG: &str = "First Name must be at most 50 characters";
pub const LAST_NAME_LONG: &str = "Last Name must be at most 50 characters";
pub const DOB_FUTURE: &str = "Date of Birth cannot be in the future";
pub const GENDER_INVALID: &str = "Gender is not valid";
pub const LOCATION_REQUIRED: &str = "Location is required";
pub const DESCRIPTION_LONG: &str = "Description must be at most 100 characters";
pub const RESPONDENT_REQUIRED: &str = "Choose a patient first";
pub const EMAIL_LONG: &str = "Email Address must be at most 254 characters";

pub const MRN_MIN: usize = 3;
pub const MRN_MAX: usize = 20;
pub const NAME_MAX: usize = 50;
pub const DESCRIPTION_MAX: usize = 100;
pub const EMAIL_MAX: usize = 254;
/// Dates of birth before this year are typing mistakes.
pub const DOB_MIN_YEAR: u32 = 1900;

/// The order fields are reported in; the first failing one is the answer's ErrorMessage.
const FIELD_ORDER: [&str; 10] = [
    "RespondentId",
    "Ssn",
    "FirstName",
    "LastName",
    "Dob",
    "Gender",
    "Email",
    "Phone",
    "Location",
    "Description",
];

/// The MRN as stored and compared: trimmed and upper case, so 'ab-12' and 'AB-12' are one
/// patient (the database's unique index compares exactly).
pub fn normalize_mrn(mrn: &str) -> String {
    mrn.trim().to_ascii_uppercase()
}

/// 'Patient was created successfully {mrn}' (spec 01 §2.5).
pub fn created_message(mrn: &str) -> String {
    format!("{PATIENT_CREATED} {}", mrn.trim())
}

fn too_long(value: &str, max: usize) -> bool {
    value.trim().chars().count() > max
}

/// Year of a strict YYYY-MM-DD that names a real day, else None.
fn real_date_year(s: &str) -> Option<u32> {
    crate::survey::valid_date(s)
        .then(|| s[..4].parse().ok())
        .flatten()
}

/// The create-patient form prefilled from a patient search that found nobody: the advanced
/// fields as they are; a simple search with a digit is an MRN, else names (one word: the last
/// name; more: the first word is the first name, the rest the last name). Location stays empty.
pub fn prefill_from_search(search: &RespondentSearch) -> CreatePatientRequest {
    let mut req = CreatePatientRequest {
        ssn: search.respondent_id.trim().to_owned(),
        first_name: search.first_name.trim().to_owned(),
        last_name: search.last_name.trim().to_owned(),
        ..Default::default()
    };
    let simple = search.simple_search.trim();
    if simple.chars().any(|c| c.is_ascii_digit()) {
        req.ssn = simple.to_owned();
    } else if !simple.is_empty() {
        let words: Vec<&str> = simple.split_whitespace().collect();
        match words.as_slice() {
            [last] => req.last_name = (*last).to_owned(),
            [first, rest @ ..] => {
                req.first_name = (*first).to_owned();
                req.last_name = rest.join(" ");
            }
            [] => {}
        }
    }
    req
}

/// The create-patient form. `today` is the kiosk's local date (YYYY-MM-DD): a date of birth
/// after it is refused. Gender, Email and Phone are optional but checked when given.
pub fn validate_create_patient(req: &CreatePatientRequest, today: &str) -> ValidationErrors {
    let mut errors = ValidationErrors::new();
    let mrn = normalize_mrn(&req.ssn);
    if !errors.check(mrn.is_empty(), "Ssn", MRN_REQUIRED) {
        errors.check(
            !(MRN_MIN..=MRN_MAX).contains(&mrn.chars().count()),
            "Ssn",
            MRN_LENGTH,
        );
        errors.check(
            !mrn.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'),
            "Ssn",
            MRN_CHARACTERS,
        );
    }
    if !errors.check(is_blank(&req.first_name), "FirstName", FIRST_NAME_REQUIRED) {
        errors.check(
            too_long(&req.first_name, NAME_MAX),
            "FirstName",
            FIRST_NAME_LONG,
        );
    }
    if !errors.check(is_blank(&req.last_name), "LastName", LAST_NAME_REQUIRED) {
        errors.check(
            too_long(&req.last_name, NAME_MAX),
            "LastName",
            LAST_NAME_LONG,
        );
    }
    let dob = req.dob.trim();
    if !errors.check(dob.is_empty(), "Dob", DOB_REQUIRED) {
        match real_date_year(dob) {
            Some(year) if year >= DOB_MIN_YEAR => {
                errors.check(dob > today.trim(), "Dob", DOB_FUTURE);
            }
            _ => errors.add("Dob", DOB_INVALID),
        }
    }
    errors.check(
        !is_blank(&req.gender) && !GENDERS.contains(&req.gender.trim()),
        "Gender",
        GENDER_INVALID,
    );
    if !is_blank(&req.email) && !errors.check(too_long(&req.email, EMAIL_MAX), "Email", EMAIL_LONG)
    {
        errors.check(!is_email(&req.email), "Email", EMAIL_INVALID);
    }
    errors.check(
        !is_blank(&req.phone) && us_phone_digits(&req.phone).is_none(),
        "Phone",
        PHONE_INVALID,
    );
    errors.check(is_blank(&req.location), "Location", LOCATION_REQUIRED);
    errors
}

/// The create-study form: the patient, the location (required) and an optional description.
pub fn validate_create_study(req: &CreateStudyRequest) -> ValidationErrors {
    let mut errors = ValidationErrors::new();
    errors.check(
        is_blank(&req.respondent_id),
        "RespondentId",
        RESPONDENT_REQUIRED,
    );
    errors.check(is_blank(&req.location), "Location", LOCATION_REQUIRED);
    errors.check(
        too_long(&req.description, DESCRIPTION_MAX),
        "Description",
        DESCRIPTION_LONG,
    );
    errors
}

/// The answer for a refused form: ErrorMessage is the first message in form order.
pub fn refused(errors: ValidationErrors) -> CreatePatientResult {
    let first = FIELD_ORDER
        .iter()
        .find_map(|f| errors.field(f).first().cloned())
        .or_else(|| errors.messages().next().map(str::to_owned))
        .unwrap_or_default();
    failed(&first, errors)
}

/// A refusal with one message (e.g. MRN_TAKEN), its field messages in `errors`.
pub fn failed(message: &str, errors: ValidationErrors) -> CreatePatientResult {
    CreatePatientResult {
        error: true,
        error_message: message.to_owned(),
        result: None,
        errors,
    }
}

pub fn created(mrn: &str, respondent_entity_id: Option<String>) -> CreatePatientResult {
    CreatePatientResult {
        error: false,
        error_message: String::new(),
        result: Some(CreatedPatient {
            ssn: mrn.to_owned(),
            respondent_entity_id,
        }),
        errors: ValidationErrors::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_message_in_form_order_is_the_answer() {
        let req = CreatePatientRequest {
            ssn: "x".into(),
            dob: "2999-01-01".into(),
            ..Default::default()
        };
        let r = refused(validate_create_patient(&req, "2026-05-01"));
        assert!(r.error);
        assert_eq!(r.error_message, MRN_LENGTH);
        assert_eq!(r.errors.field("Dob"), [DOB_FUTURE]);
        assert_eq!(
            created_message(" ab-1 "),
            "Patient was created successfully ab-1"
        );
        assert_eq!(normalize_mrn(" ab-12 "), "AB-12");
    }
}
