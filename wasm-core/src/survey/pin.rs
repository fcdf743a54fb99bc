//! The patient's survey PIN on the kiosk (spec 01 §2.5, §5): exactly 4 digits. The kiosk keeps
//! Start disabled until the PIN has this shape; the API looks up only PINs of this shape (anything
//! else is a wrong PIN and costs an attempt).

/// Digits in a survey PIN.
pub const PIN_LENGTH: usize = 4;

/// Whether `pin` is exactly [`PIN_LENGTH`] ASCII digits (no signs, spaces or other scripts'
/// digits).
pub fn is_pin_shape(pin: &str) -> bool {
    pin.len() == PIN_LENGTH && pin.bytes().all(|b| b.is_ascii_digit())
}

/// What the PIN field keeps of a typed or pasted text: its ASCII digits, at most [`PIN_LENGTH`].
pub fn pin_input(typed: &str) -> String {
    typed
        .chars()
        .filter(char::is_ascii_digit)
        .take(PIN_LENGTH)
        .collect()
}

/// PINs a person tries first (0000, 1111, 1234, 9876): never issued.
pub fn guessable_pin(pin: &str) -> bool {
    let d: Vec<i32> = pin.bytes().map(|b| i32::from(b) - 48).collect();
    let steps: Vec<i32> = d.windows(2).map(|w| w[1] - w[0]).collect();
    steps.iter().all(|s| *s == 0) || steps.iter().all(|s| *s == 1) || steps.iter().all(|s| *s == -1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_is_four_ascii_digits() {
        assert!(is_pin_shape("0427"));
        for pin in ["", "123", "12345", "12a4", " 123", "١٢٣٤", "-123", "+123"] {
            assert!(!is_pin_shape(pin), "{pin:?}");
        }
        assert_eq!(pin_input("12-3 4 5"), "1234");
        assert_eq!(pin_input("١٢3"), "3");
    }

    #[test]
    fn guessable_pins() {
        for pin in ["0000", "1111", "1234", "6789", "9876", "3210"] {
            assert!(guessable_pin(pin), "{pin}");
        }
        for pin in ["1235", "0001", "4821"] {
            assert!(!guessable_pin(pin), "{pin}");
        }
    }
}
