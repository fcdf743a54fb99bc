//! The field checks settings groups are made of, with the spec's messages (spec 03 §5, spec 04 §5)
//! and clear ones where the spec gives none. Each adds its message to `e` and returns whether the
//! field passed, so a group can skip a cross-field rule when a part of it already failed.

use crate::ValidationErrors;

/// Spec 03 §5 "General rule": the toast of a refused settings form.
pub const FORM_INVALID: &str = "Form is invalid";
/// Spec 03 §5: session timeout and deadlock retry count.
pub const VALUE_CAN_NOT_BE_DECIMAL: &str = "Value can not be decimal";
/// Spec 03 §5: warning minutes.
pub const VALUE_CAN_NOT_BE_A_DECIMAL: &str = "Value can not be a decimal";
pub const FIELD_REQUIRED: &str = "This field is required";
pub const ENTER_A_NUMBER: &str = "Enter a number";
pub const DIGITS_ONLY: &str = "Only digits are allowed";
pub const ENTER_AN_EMAIL: &str = "Enter a valid email address";
pub const WHOLE_NUMBER_LIST: &str = "Must be comma-separated whole numbers (for example 2, 3)";
/// The length every free-text setting is bounded by unless its group says otherwise.
pub const TEXT_MAX: usize = 2000;

fn fail(e: &mut ValidationErrors, field: &str, message: impl Into<String>) -> bool {
    e.add(field, message);
    false
}

/// Text no longer than `max` characters.
pub fn text(e: &mut ValidationErrors, field: &str, value: &str, max: usize) -> bool {
    if value.chars().count() > max {
        return fail(e, field, format!("Must be at most {max} characters"));
    }
    true
}

/// Text that is not blank (with `message`, or [`FIELD_REQUIRED`]) and at most `max` characters.
pub fn required_text(
    e: &mut ValidationErrors,
    field: &str,
    value: &str,
    max: usize,
    message: Option<&str>,
) -> bool {
    if value.trim().is_empty() {
        return fail(e, field, message.unwrap_or(FIELD_REQUIRED));
    }
    text(e, field, value, max)
}

/// A number (NaN stands for empty or not a number) from `min` to `max`, either bound optional.
pub fn number(
    e: &mut ValidationErrors,
    field: &str,
    v: f64,
    min: Option<i32>,
    max: Option<i32>,
) -> bool {
    if !v.is_finite() {
        return fail(e, field, ENTER_A_NUMBER);
    }
    range(e, field, v, min, max)
}

/// A whole number from `min` to `max`; a decimal gets `decimal_message` (the spec words it two
/// ways, see the constants above).
pub fn whole(
    e: &mut ValidationErrors,
    field: &str,
    v: f64,
    min: Option<i32>,
    max: Option<i32>,
    decimal_message: &str,
) -> bool {
    if !v.is_finite() {
        return fail(e, field, ENTER_A_NUMBER);
    }
    if v.fract() != 0.0 {
        return fail(e, field, decimal_message);
    }
    range(e, field, v, min, max)
}

/// A whole number the spec says "accepts digits only": 0 or more, no sign, no decimals.
pub fn digits(e: &mut ValidationErrors, field: &str, v: f64, max: Option<i32>) -> bool {
    if !v.is_finite() {
        return fail(e, field, ENTER_A_NUMBER);
    }
    if v < 0.0 || v.fract() != 0.0 {
        return fail(e, field, DIGITS_ONLY);
    }
    range(e, field, v, None, max)
}

/// [`digits`] for a field the spec says is required: empty (NaN) gets [`FIELD_REQUIRED`].
pub fn required_digits(e: &mut ValidationErrors, field: &str, v: f64, max: Option<i32>) -> bool {
    if v.is_nan() {
        return fail(e, field, FIELD_REQUIRED);
    }
    digits(e, field, v, max)
}

fn range(
    e: &mut ValidationErrors,
    field: &str,
    v: f64,
    min: Option<i32>,
    max: Option<i32>,
) -> bool {
    // Bounds are whole numbers, so no float is ever formatted (that code is large in wasm).
    let below = |lo: i32| v < f64::from(lo);
    let above = |hi: i32| v > f64::from(hi);
    match (min, max) {
        (Some(lo), Some(hi)) if below(lo) || above(hi) => {
            fail(e, field, format!("Must be between {lo} and {hi}"))
        }
        (Some(lo), None) if below(lo) => fail(e, field, format!("Must be at least {lo}")),
        (None, Some(hi)) if above(hi) => fail(e, field, format!("Must be at most {hi}")),
        _ => true,
    }
}

/// Text made only of digits (an admin PIN, an id), at most `max` of them; empty allowed.
pub fn digit_text(e: &mut ValidationErrors, field: &str, value: &str, max: usize) -> bool {
    if !value.bytes().all(|b| b.is_ascii_digit()) {
        return fail(e, field, DIGITS_ONLY);
    }
    text(e, field, value, max)
}

/// One of `choices` (exact spelling).
pub fn one_of(e: &mut ValidationErrors, field: &str, value: &str, choices: &[&str]) -> bool {
    if !choices.contains(&value) {
        return fail(e, field, format!("Choose one of: {}", choices.join(", ")));
    }
    true
}

/// '2, 3' -> true; empty, '2,,3', '1.5', '-1' -> false.
pub fn is_whole_number_list(value: &str) -> bool {
    let t = value.trim();
    !t.is_empty()
        && t.split(',').all(|p| {
            let p = p.trim();
            !p.is_empty() && p.len() <= 4 && p.bytes().all(|b| b.is_ascii_digit())
        })
}

/// Spec 03 §5 "History portal": comma-separated whole numbers (for example 2, 3).
pub fn whole_number_list(e: &mut ValidationErrors, field: &str, value: &str) -> bool {
    if !is_whole_number_list(value) {
        return fail(e, field, WHOLE_NUMBER_LIST);
    }
    true
}

/// An email address that is empty or well formed (at most 254 characters).
pub fn email_address(e: &mut ValidationErrors, field: &str, value: &str) -> bool {
    let v = value.trim();
    if !v.is_empty() && !crate::membership::is_email(v) {
        return fail(e, field, ENTER_AN_EMAIL);
    }
    text(e, field, value, 254)
}

/// An address that is empty or starts with http:// or https://.
pub fn web_address(e: &mut ValidationErrors, field: &str, value: &str) -> bool {
    let v = value.trim();
    if !v.is_empty() && !v.starts_with("http://") && !v.starts_with("https://") {
        return fail(e, field, "Must start with http:// or https://");
    }
    text(e, field, value, TEXT_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        let mut e = ValidationErrors::new();
        assert!(whole(
            &mut e,
            "a",
            3.0,
            Some(0),
            Some(99),
            VALUE_CAN_NOT_BE_DECIMAL
        ));
        assert!(!whole(
            &mut e,
            "b",
            1.5,
            Some(0),
            Some(99),
            VALUE_CAN_NOT_BE_DECIMAL
        ));
        assert!(!whole(
            &mut e,
            "c",
            100.0,
            Some(-1),
            Some(99),
            VALUE_CAN_NOT_BE_DECIMAL
        ));
        assert!(!number(&mut e, "d", f64::NAN, None, None));
        assert!(!digits(&mut e, "f", -1.0, None));
        assert_eq!(e.field("b"), [VALUE_CAN_NOT_BE_DECIMAL]);
        assert_eq!(e.field("c"), ["Must be between -1 and 99"]);
        assert_eq!(e.field("d"), [ENTER_A_NUMBER]);
        assert_eq!(e.field("f"), [DIGITS_ONLY]);
    }

    #[test]
    fn lists_and_texts() {
        for ok in ["2", "2, 3", " 1,2,3 ", "0"] {
            assert!(is_whole_number_list(ok), "{ok}");
        }
        for bad in ["", "2,,3", "1.5", "-1", "a", "2;3", ","] {
            assert!(!is_whole_number_list(bad), "{bad}");
        }
        let mut e = ValidationErrors::new();
        assert!(!required_text(
            &mut e,
            "x",
            "  ",
            10,
            Some("X field can not be empty")
        ));
        assert!(!text(&mut e, "y", "abcdef", 5));
        assert!(!digit_text(&mut e, "z", "12a", 6));
        assert_eq!(e.field("x"), ["X field can not be empty"]);
        assert_eq!(e.field("y"), ["Must be at most 5 characters"]);
    }
}
