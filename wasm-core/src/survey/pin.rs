//! Survey PINs (spec 01 §2.5): which 4-digit PINs are never issued.

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
    fn guessable_pins() {
        for pin in ["0000", "1111", "1234", "6789", "9876", "3210"] {
            assert!(guessable_pin(pin), "{pin}");
        }
        for pin in ["1235", "0001", "4821"] {
            assert!(!guessable_pin(pin), "{pin}");
        }
    }
}
