//! Password rules (spec 02 §3 "Password requirements", §5 "Password"): required, a minimum
//! length, and (only with UseComplexityRequirements) minimum counts of digits, uppercase letters
//! and special characters. Each count applies only when it is nonzero. The check lists every
//! requirement that applies with its Needed count and whether it is Met, so the web app can draw
//! a check-and-cross panel from the same result the server enforces before a save.

use crate::validation::ValidationErrors;
use crate::wire;

/// Field the repeat-password message is filed under (the spec's NewPasswordRepeat field).
pub const REPEAT_FIELD: &str = "NewPasswordRepeat";
pub const REQUIRED_MESSAGE: &str = "Password is required";
pub const REPEAT_MESSAGE: &str = "Password and Repeat password do not match";

// The failed requirements' messages: a constant for a count of 1, a template (`{n}`,
// crate::message_templates) for any other count.
pub const LENGTH_ONE: &str = "Password must be at least 1 character long";
pub const LENGTH_MANY: &str = "Password must be at least {n} characters long";
pub const NUMBER_ONE: &str = "Password must contain at least 1 number";
pub const NUMBER_MANY: &str = "Password must contain at least {n} numbers";
pub const UPPERCASE_ONE: &str = "Password must contain at least 1 uppercase letter";
pub const UPPERCASE_MANY: &str = "Password must contain at least {n} uppercase letters";
pub const SYMBOL_ONE: &str = "Password must contain at least 1 special character";
pub const SYMBOL_MANY: &str = "Password must contain at least {n} special characters";

/// The message of a failed requirement of `n`.
fn requirement_message(n: u32, one: &str, many: &str) -> String {
    if n == 1 {
        one.to_owned()
    } else {
        crate::message_templates::fill(many, &[("n", &n.to_string())])
    }
}

wire! {
    /// The configured requirement counts (spec 02 §3). Absent counts read as 0.
    #[serde(rename_all = "PascalCase", default)]
    #[derive(Default)]
    pub struct PasswordRequirements {
        pub len_needed: u32,
        pub num_needed: u32,
        pub ucase_needed: u32,
        pub sym_needed: u32,
        pub use_complexity_requirements: bool,
    }

    /// One line of the requirement panel. Key is one of Length, Number, Uppercase, Symbol.
    #[serde(rename_all = "PascalCase")]
    pub struct PasswordRequirement {
        pub key: String,
        pub label: String,
        pub needed: u32,
        pub met: bool,
    }

    /// The result of checking a password: every applicable requirement, and the messages of the
    /// failed ones ('Password is required' alone when the password is empty).
    #[serde(rename_all = "PascalCase")]
    pub struct PasswordCheck {
        pub is_valid: bool,
        pub requirements: Vec<PasswordRequirement>,
        pub errors: Vec<String>,
    }
}

/// "1 number", "2 numbers".
fn count_of(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A special character is anything visible that is neither a letter nor a digit (ASCII or
/// Unicode punctuation and symbols); white space and control characters do not count.
fn is_symbol(c: char) -> bool {
    !c.is_alphanumeric() && !c.is_whitespace() && !c.is_control()
}

/// Checks `password` against `req`. Counts are in characters, not bytes.
pub fn check_password(password: &str, req: &PasswordRequirements) -> PasswordCheck {
    let length = password.chars().count() as u64;
    let digits = password.chars().filter(char::is_ascii_digit).count() as u64;
    let upper = password.chars().filter(|c| c.is_uppercase()).count() as u64;
    let symbols = password.chars().filter(|&c| is_symbol(c)).count() as u64;

    // (key, needed, have, panel label, error message)
    let mut rules: Vec<(&str, u32, u64, String, String)> = Vec::new();
    if req.len_needed > 0 {
        let n = req.len_needed;
        rules.push((
            "Length",
            n,
            length,
            format!("At least {}", count_of(n, "character", "characters")),
            requirement_message(n, LENGTH_ONE, LENGTH_MANY),
        ));
    }
    if req.use_complexity_requirements {
        let complexity = [
            (
                "Number",
                req.num_needed,
                digits,
                ("number", "numbers"),
                (NUMBER_ONE, NUMBER_MANY),
            ),
            (
                "Uppercase",
                req.ucase_needed,
                upper,
                ("uppercase letter", "uppercase letters"),
                (UPPERCASE_ONE, UPPERCASE_MANY),
            ),
            (
                "Symbol",
                req.sym_needed,
                symbols,
                ("special character", "special characters"),
                (SYMBOL_ONE, SYMBOL_MANY),
            ),
        ];
        for (key, n, have, (one, many), (message_one, message_many)) in complexity {
            if n > 0 {
                rules.push((
                    key,
                    n,
                    have,
                    format!("At least {}", count_of(n, one, many)),
                    requirement_message(n, message_one, message_many),
                ));
            }
        }
    }

    let mut errors = Vec::new();
    if password.is_empty() {
        errors.push(REQUIRED_MESSAGE.to_owned());
    }
    let requirements = rules
        .into_iter()
        .map(|(key, needed, have, label, message)| {
            let met = have >= u64::from(needed);
            // An empty password gets only the 'required' message (spec 02 §5).
            if !met && !password.is_empty() {
                errors.push(message);
            }
            PasswordRequirement {
                key: key.to_owned(),
                label,
                needed,
                met,
            }
        })
        .collect();
    PasswordCheck {
        is_valid: errors.is_empty(),
        requirements,
        errors,
    }
}

/// The same check as field messages, for forms and the server (`field` names the password field).
pub fn validate_password(
    field: &str,
    password: &str,
    req: &PasswordRequirements,
) -> ValidationErrors {
    let mut errors = ValidationErrors::new();
    for message in check_password(password, req).errors {
        errors.add(field, message);
    }
    errors
}

/// The repeat must equal the password exactly (spec 02 §5).
pub fn validate_password_repeat(password: &str, repeat: &str) -> ValidationErrors {
    let mut errors = ValidationErrors::new();
    errors.check(password != repeat, REPEAT_FIELD, REPEAT_MESSAGE);
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full(len: u32, num: u32, ucase: u32, sym: u32) -> PasswordRequirements {
        PasswordRequirements {
            len_needed: len,
            num_needed: num,
            ucase_needed: ucase,
            sym_needed: sym,
            use_complexity_requirements: true,
        }
    }

    #[test]
    fn empty_password_is_only_required() {
        let check = check_password("", &full(8, 1, 1, 1));
        assert!(!check.is_valid);
        assert_eq!(check.errors, ["Password is required"]);
        assert_eq!(check.requirements.len(), 4);
        assert!(check.requirements.iter().all(|r| !r.met));
    }

    #[test]
    fn every_failed_rule_has_a_message() {
        let check = check_password("abc", &full(8, 2, 1, 1));
        assert_eq!(
            check.errors,
            [
                "Password must be at least 8 characters long",
                "Password must contain at least 2 numbers",
                "Password must contain at least 1 uppercase letter",
                "Password must contain at least 1 special character",
            ]
        );
        assert!(check_password("Portal!2026", &full(8, 1, 1, 1)).is_valid);
    }

    #[test]
    fn complexity_counts_only_with_the_flag_and_when_nonzero() {
        let mut req = full(4, 1, 1, 1);
        req.use_complexity_requirements = false;
        let check = check_password("abcd", &req);
        assert!(check.is_valid);
        assert_eq!(check.requirements.len(), 1);
        let check = check_password("abcd", &full(0, 0, 0, 0));
        assert!(check.is_valid && check.requirements.is_empty());
    }

    #[test]
    fn counts_characters_not_bytes() {
        // 4 characters, 8 bytes: too short for 5.
        let check = check_password("éééé", &full(5, 0, 0, 0));
        assert_eq!(
            check.errors,
            ["Password must be at least 5 characters long"]
        );
        let check = check_password("ÉÉ€ ", &full(0, 0, 2, 1));
        assert!(check.is_valid, "{check:?}");
        assert!(!is_symbol(' ') && !is_symbol('a') && is_symbol('!') && is_symbol('€'));
    }

    #[test]
    fn repeat_must_match() {
        assert!(validate_password_repeat("a", "a").is_valid());
        assert!(validate_password_repeat("", "").is_valid());
        let errors = validate_password_repeat("a", "A");
        assert_eq!(errors.field(REPEAT_FIELD), [REPEAT_MESSAGE]);
    }
}
