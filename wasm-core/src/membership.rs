//! Form rules of the membership screens (spec 02 §5, spec 01 §5 "Change password"): the user and
//! role forms, create account, online survey registration, the verification code and change my
//! password. Each returns field -> messages; the user form also gives its toast. The API runs the
//! same functions before it writes, so the browser and the server refuse the same input.

use crate::message_templates::fill;
use crate::model::{
    ChangeMyPassword, CreateAccountRules, CreateUserRequest, CreateUserResult, FormCheck, RoleForm,
    SurveyRegistration, UserForm,
};
use crate::password::{self, PasswordRequirements};
use crate::validation::{is_blank, ValidationErrors};

pub const FORM_INVALID: &str = "Form is invalid";
pub const ROLE_REQUIRED: &str = "Role is required";
pub const EMAIL_REQUIRED: &str = "Email is required";
pub const EMAIL_INVALID: &str = "Email Address is not valid";
pub const USERNAME_REQUIRED: &str = "Username is required";
pub const FIRST_NAME_REQUIRED: &str = "First Name is required";
pub const LAST_NAME_REQUIRED: &str = "Last Name is required";
pub const MRN_REQUIRED: &str = "MRN is required";
pub const NAME_REQUIRED: &str = "Name is required";
pub const DOB_REQUIRED: &str = "Date of Birth is required";
pub const DOB_INVALID: &str = "Date of Birth is not valid";
pub const EMAIL_ADDRESS_REQUIRED: &str = "Email Address is required";
pub const RECOVERY_REQUIRED: &str = "Email or Phone recovery is required";
pub const GENDER_REQUIRED: &str = "Gender is required";
pub const PHONE_INVALID: &str = "Phone Number is not valid";
pub const CODE_REQUIRED: &str = "Verification code is required";
pub const CODE_LENGTH: &str = "Verification code must be 6 characters";
pub const OLD_PASSWORD_REQUIRED: &str = "Old password is required";
pub const NEW_PASSWORD_REQUIRED: &str = "New password is required";
pub const CONFIRMATION_REQUIRED: &str = "Password confirmation is required";
pub const PASSWORDS_NOT_EQUAL: &str = "Passwords are not equal";
/// Templates (crate::message_templates).
pub const USERNAME_MIN: &str = "Username must be at least {n} characters long";
pub const USERNAME_MAX: &str = "Username must be at most {n} characters long";

/// Verification code length (spec 02 §9).
pub const CODE_LEN: usize = 6;
pub const PATIENT_ROLE: &str = "Patient";
pub const GENDERS: [&str; 2] = ["Male", "Female"];

/// One '@' with text before it and a dotted domain after it, no white space.
pub fn is_email(value: &str) -> bool {
    let value = value.trim();
    let Some((local, domain)) = value.split_once('@') else {
        return false;
    };
    // Bytes rather than `str::contains(char)`, whose non-ASCII path links core's substring search
    // into the wasm file (issue 22); the same answer for an ASCII character.
    !local.is_empty()
        && !domain.as_bytes().contains(&b'@')
        && !value.chars().any(char::is_whitespace)
        && domain.split('.').count() >= 2
        && domain.split('.').all(|part| !part.is_empty())
}

fn is_leap(year: u32) -> bool {
    (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400)
}

/// Whether year/month/day name a real calendar day.
pub fn is_real_date(year: u32, month: u32, day: u32) -> bool {
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap(year) => 29,
        2 => 28,
        _ => return false,
    };
    (1..=9999).contains(&year) && (1..=days).contains(&day)
}

/// Date of birth from the three selects: all required, and a real day.
fn check_dob(
    errors: &mut ValidationErrors,
    year: Option<u32>,
    month: Option<u32>,
    day: Option<u32>,
) {
    match (year, month, day) {
        (Some(y), Some(m), Some(d)) => {
            errors.check(!is_real_date(y, m, d), "Dob", DOB_INVALID);
        }
        _ => errors.add("Dob", DOB_REQUIRED),
    }
}

fn is_patient(roles: &[String]) -> bool {
    roles.iter().any(|r| r.eq_ignore_ascii_case(PATIENT_ROLE))
}

/// The Add/Edit User form (spec 02 §5 "User form"). Roles, Email and Username are required;
/// FirstName and LastName unless the role is Patient; Ssn (MRN) only for Patient. The password of a
/// new user is checked separately (validatePassword, by the server).
pub fn validate_user(user: &UserForm) -> FormCheck {
    let mut errors = ValidationErrors::new();
    let roles: Vec<String> = user
        .roles
        .iter()
        .filter(|r| !is_blank(r))
        .cloned()
        .collect();
    errors.check(roles.is_empty(), "Roles", ROLE_REQUIRED);
    if !errors.check(is_blank(&user.email), "Email", EMAIL_REQUIRED) {
        errors.check(!is_email(&user.email), "Email", EMAIL_INVALID);
    }
    errors.check(is_blank(&user.username), "Username", USERNAME_REQUIRED);
    if is_patient(&roles) {
        errors.check(is_blank(&user.ssn), "Ssn", MRN_REQUIRED);
    } else {
        errors.check(is_blank(&user.first_name), "FirstName", FIRST_NAME_REQUIRED);
        errors.check(is_blank(&user.last_name), "LastName", LAST_NAME_REQUIRED);
    }
    form_check(errors, FORM_INVALID)
}

/// The admin PIN and location restriction of a Program manager (spec 02 §6, §3 "User"; spec 01
/// AdminPinLength), checked when IsAdminPinAndLocationsRestrictionsEnabled is on: SurveyPin empty
/// or exactly `pin_length` digits; LocNums a comma-separated list of known location numbers.
pub fn validate_admin_restrictions(
    user: &UserForm,
    pin_length: u32,
    locations: &[String],
) -> ValidationErrors {
    let mut errors = ValidationErrors::new();
    let pin = user.survey_pin.trim();
    let pin_ok = pin.is_empty()
        || (pin.chars().count() == pin_length as usize && pin.chars().all(|c| c.is_ascii_digit()));
    errors.check(
        !pin_ok,
        "SurveyPin",
        &format!("Admin PIN must be {pin_length} digits"),
    );
    for loc in location_list(&user.loc_nums) {
        if !locations.iter().any(|l| l == &loc) {
            errors.add("LocNums", format!("Unknown location: {loc}"));
        }
    }
    errors
}

/// The location numbers of a LocNums text, trimmed, without blanks or repeats.
pub fn location_list(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        if !out.iter().any(|o| o == part) {
            out.push(part.to_owned());
        }
    }
    out
}

/// Wraps field messages with the toast shown when any field failed.
pub fn form_check(errors: ValidationErrors, toast: &str) -> FormCheck {
    let is_valid = errors.is_valid();
    FormCheck {
        is_valid,
        toast: (!is_valid).then(|| toast.to_owned()),
        errors,
    }
}

/// The role form (spec 02 §5 "Role"): Name required, Description optional.
pub fn validate_role(role: &RoleForm) -> ValidationErrors {
    let mut errors = ValidationErrors::new();
    errors.check(is_blank(&role.name), "Name", NAME_REQUIRED);
    errors
}

/// Create account (spec 02 §2.7, §5): date of birth, email, username (with the configured
/// length bounds, each applying when nonzero), password rules, repeat, and a recovery option
/// unless secondary recovery is disabled.
pub fn validate_create_account(
    req: &CreateUserRequest,
    rules: &CreateAccountRules,
) -> ValidationErrors {
    let mut errors = ValidationErrors::new();
    if rules.require_dob {
        check_dob(&mut errors, req.year, req.month, req.day);
    }
    errors.check(is_blank(&req.email), "email", EMAIL_ADDRESS_REQUIRED);
    let username = req.username.trim();
    if !errors.check(username.is_empty(), "username", USERNAME_REQUIRED) {
        let len = username.chars().count() as u64;
        let (min, max) = (rules.min_username_length, rules.max_username_length);
        if min > 0 && len < u64::from(min) {
            errors.add("username", fill(USERNAME_MIN, &[("n", &min.to_string())]));
        }
        if max > 0 && len > u64::from(max) {
            errors.add("username", fill(USERNAME_MAX, &[("n", &max.to_string())]));
        }
    }
    errors.merge(password::validate_password(
        "newPassword",
        &req.new_password,
        &rules.password,
    ));
    errors.check(
        req.new_password != req.new_password_repeat,
        "newPasswordRepeat",
        password::REPEAT_MESSAGE,
    );
    if !rules.disable_secondary_recovery_options {
        let phone = req.phone_number.as_deref().unwrap_or("");
        let second = req.second_email.as_deref().unwrap_or("");
        errors.check(
            is_blank(phone) && is_blank(second),
            "recovery",
            RECOVERY_REQUIRED,
        );
        errors.check(
            !is_blank(phone) && us_phone_digits(phone).is_none(),
            "phoneNumber",
            PHONE_INVALID,
        );
        errors.check(
            !is_blank(second) && !is_email(second),
            "secondEmail",
            EMAIL_INVALID,
        );
    }
    errors
}

pub const DOB_MISMATCH: &str = "Date of Birth does not match our records";
pub const USERNAME_TAKEN: &str = "This username is already taken";

/// The answer of patientUser/create for the messages of `validate_create_account` (and the
/// server's own checks added to the same fields): date of birth, username and password fields go
/// to their lists (spec 02 §3 DobErrors, UsernameErrors, PasswordErrors), anything else to
/// OtherErrors. Valid when there is no message at all.
pub fn create_user_result(errors: &ValidationErrors) -> CreateUserResult {
    let mut out = CreateUserResult {
        is_valid: errors.is_valid(),
        state: if errors.is_valid() {
            "Created"
        } else {
            "Invalid"
        }
        .to_owned(),
        is_verification_failed: false,
        verification_failed_redirect_url: String::new(),
        verification_failed_error: String::new(),
        verification_errors: Vec::new(),
        dob_errors: Vec::new(),
        password_errors: Vec::new(),
        other_errors: Vec::new(),
        username_errors: Vec::new(),
    };
    for (field, messages) in &errors.0 {
        let list = match field.as_str() {
            "Dob" => &mut out.dob_errors,
            "username" => &mut out.username_errors,
            "newPassword" | "newPasswordRepeat" => &mut out.password_errors,
            _ => &mut out.other_errors,
        };
        list.extend(messages.iter().cloned());
    }
    out
}

/// The ten digits of a US phone number (an optional leading country code 1 is dropped), or None.
pub fn us_phone_digits(value: &str) -> Option<String> {
    let digits: String = value.chars().filter(char::is_ascii_digit).collect();
    let allowed = value
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, ' ' | '(' | ')' | '-' | '+' | '.'));
    let digits = match digits.len() {
        11 if digits.starts_with('1') => digits.get(1..)?.to_owned(),
        10 => digits,
        _ => return None,
    };
    allowed.then_some(digits)
}

/// The phone mask (000) 000-0000 applied to what was typed so far (digits only, at most 10).
pub fn format_us_phone(value: &str) -> String {
    let mut out = String::new();
    let digits = value.chars().filter(char::is_ascii_digit).take(10);
    for (i, digit) in digits.enumerate() {
        match i {
            0 => out.push('('),
            3 => out.push_str(") "),
            6 => out.push('-'),
            _ => {}
        }
        out.push(digit);
    }
    out
}

/// Online survey registration (spec 02 §5). `new_person` is step 2: the person fields apply.
pub fn validate_survey_registration(
    reg: &SurveyRegistration,
    new_person: bool,
) -> ValidationErrors {
    let mut errors = ValidationErrors::new();
    if !errors.check(is_blank(&reg.email), "email", EMAIL_ADDRESS_REQUIRED) {
        errors.check(!is_email(&reg.email), "email", EMAIL_INVALID);
    }
    if new_person {
        errors.check(is_blank(&reg.first_name), "firstName", FIRST_NAME_REQUIRED);
        errors.check(is_blank(&reg.last_name), "lastName", LAST_NAME_REQUIRED);
        errors.check(
            !GENDERS.contains(&reg.gender.as_str()),
            "gender",
            GENDER_REQUIRED,
        );
        check_dob(&mut errors, reg.year, reg.month, reg.day);
        errors.check(
            !is_blank(&reg.phone_number) && us_phone_digits(&reg.phone_number).is_none(),
            "phoneNumber",
            PHONE_INVALID,
        );
    }
    errors
}

/// The verification code: required, exactly 6 characters (spec 02 §5, §9).
pub fn validate_verification_code(code: &str) -> ValidationErrors {
    let mut errors = ValidationErrors::new();
    let code = code.trim();
    if !errors.check(code.is_empty(), "Code", CODE_REQUIRED) {
        errors.check(code.chars().count() != CODE_LEN, "Code", CODE_LENGTH);
    }
    errors
}

/// Change my password (spec 01 §2.9, §5): old, new and confirmation required, the confirmation
/// equal to the new password, and the new password meeting the configured rules.
pub fn validate_change_my_password(
    req: &ChangeMyPassword,
    rules: &PasswordRequirements,
) -> ValidationErrors {
    let mut errors = ValidationErrors::new();
    errors.check(
        req.old_password.is_empty(),
        "OldPassword",
        OLD_PASSWORD_REQUIRED,
    );
    if !errors.check(
        req.new_password.is_empty(),
        "NewPassword",
        NEW_PASSWORD_REQUIRED,
    ) {
        for message in password::check_password(&req.new_password, rules).errors {
            errors.add("NewPassword", message);
        }
    }
    if !errors.check(
        req.new_password_repeat.is_empty(),
        "NewPasswordRepeat",
        CONFIRMATION_REQUIRED,
    ) {
        errors.check(
            req.new_password != req.new_password_repeat,
            "NewPasswordRepeat",
            PASSWORDS_NOT_EQUAL,
        );
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn admin_pin_and_locations() {
        let known = ["101".to_owned(), "102".to_owned()];
        let form = |pin: &str, locs: &str| UserForm {
            survey_pin: pin.into(),
            loc_nums: locs.into(),
            ..UserForm::default()
        };
        assert!(validate_admin_restrictions(&form("", ""), 4, &known).is_valid());
        assert!(validate_admin_restrictions(&form("1234", "101, 102,101"), 4, &known).is_valid());
        let bad = validate_admin_restrictions(&form("12a4", "101,999"), 4, &known);
        assert_eq!(bad.field("SurveyPin"), ["Admin PIN must be 4 digits"]);
        assert_eq!(bad.field("LocNums"), ["Unknown location: 999"]);
        assert_eq!(
            validate_admin_restrictions(&form("12345", ""), 4, &known).field("SurveyPin"),
            ["Admin PIN must be 4 digits"]
        );
        assert_eq!(
            validate_admin_restrictions(&form("123456", ""), 6, &known)
                .field("SurveyPin")
                .len(),
            0
        );
        assert_eq!(location_list(" 101, ,102,101 "), ["101", "102"]);
    }

    #[test]
    fn emails() {
        assert!(is_email("jane@example.com"));
        assert!(!is_email("jane@example"));
        assert!(!is_email("@example.com"));
        assert!(!is_email("ja ne@example.com"));
        assert!(!is_email("a@b@c.d"));
        assert!(!is_email("a@b..c"));
    }

    #[test]
    fn dates() {
        assert!(is_real_date(2024, 2, 29));
        assert!(!is_real_date(2023, 2, 29));
        assert!(!is_real_date(2000, 13, 1));
        assert!(!is_real_date(2000, 4, 31));
        assert!(is_real_date(1900, 2, 28) && !is_real_date(1900, 2, 29));
    }

    #[test]
    fn create_result_sorts_messages_into_lists() {
        let mut errors = ValidationErrors::new();
        errors.add("Dob", DOB_REQUIRED);
        errors.add("username", USERNAME_TAKEN);
        errors.add(
            "newPasswordRepeat",
            "Password and Repeat password do not match",
        );
        errors.add("recovery", RECOVERY_REQUIRED);
        errors.add("email", EMAIL_ADDRESS_REQUIRED);
        let r = create_user_result(&errors);
        assert!(!r.is_valid);
        assert_eq!(r.state, "Invalid");
        assert_eq!(r.dob_errors, vec![DOB_REQUIRED]);
        assert_eq!(r.username_errors, vec![USERNAME_TAKEN]);
        assert_eq!(r.password_errors.len(), 1);
        assert_eq!(
            r.other_errors,
            vec![EMAIL_ADDRESS_REQUIRED, RECOVERY_REQUIRED]
        );
        let ok = create_user_result(&ValidationErrors::new());
        assert!(ok.is_valid && ok.state == "Created" && ok.other_errors.is_empty());
    }

    #[test]
    fn phones() {
        assert_eq!(
            us_phone_digits("(555) 010-2030").as_deref(),
            Some("5550102030")
        );
        assert_eq!(
            us_phone_digits("+1 555 010 2030").as_deref(),
            Some("5550102030")
        );
        assert_eq!(us_phone_digits("555-0102"), None);
        assert_eq!(us_phone_digits("555x0102030"), None);
        assert_eq!(format_us_phone("5550102030999"), "(555) 010-2030");
        assert_eq!(format_us_phone("55"), "(55");
        assert_eq!(format_us_phone("5550"), "(555) 0");
    }

    /// The mask gives what the earlier slicing version gave, for every length and with
    /// separators, letters and non-ASCII digits mixed in.
    #[test]
    fn phone_mask_as_before() {
        fn before(value: &str) -> String {
            let digits: String = value
                .chars()
                .filter(char::is_ascii_digit)
                .take(10)
                .collect();
            match digits.len() {
                0 => String::new(),
                1..=3 => format!("({digits}"),
                4..=6 => format!("({}) {}", &digits[..3], &digits[3..]),
                _ => format!("({}) {}-{}", &digits[..3], &digits[3..6], &digits[6..]),
            }
        }
        let typed = "+1 (555) ٣é010-2030 x99 ext 7";
        let mut prefix = String::new();
        for c in typed.chars() {
            prefix.push(c);
            assert_eq!(format_us_phone(&prefix), before(&prefix), "{prefix}");
        }
        assert_eq!(format_us_phone(""), "");
        assert_eq!(format_us_phone("abc"), "");
        assert_eq!(format_us_phone("1234567"), "(123) 456-7");
        assert_eq!(
            us_phone_digits("1 555 010 2030").as_deref(),
            Some("5550102030")
        );
        assert_eq!(us_phone_digits("25550102030"), None);
    }
}
