//! Breached and common passwords (ASVS 4.0.3 V2.1.7, NIST SP 800-63B 5.1.1.2): a new password
//! that appears in a list of passwords from public breaches is refused. The server checks every
//! password it is asked to set; the list (`api/resources/common-passwords.bin`, made by
//! `scripts/gen-common-passwords.py` from the 100,000 most common breached passwords) is passed
//! in, so the wasm build never carries it.
//!
//! List format: sorted distinct `u32` little-endian, each the upper 32 bits of FNV-1a 64 of a
//! password's UTF-8 bytes after ASCII lowercasing (so "Password1" matches "password1").

use crate::validation::ValidationErrors;

pub const BREACHED_MESSAGE: &str =
    "This password appears in a list of breached or common passwords. Choose a different password.";

/// A sorted hash list, borrowed from the bytes it was loaded from.
#[derive(Clone, Copy)]
pub struct BreachedList<'a> {
    bytes: &'a [u8],
}

impl<'a> BreachedList<'a> {
    /// The list in `bytes` (a trailing partial entry is ignored).
    pub fn new(bytes: &'a [u8]) -> Self {
        BreachedList {
            bytes: &bytes[..bytes.len() / 4 * 4],
        }
    }

    pub fn len(&self) -> usize {
        self.bytes.len() / 4
    }

    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    fn at(&self, i: usize) -> u32 {
        let b = &self.bytes[i * 4..i * 4 + 4];
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }

    /// Whether `password` (case-insensitively for ASCII letters) is on the list.
    pub fn contains(&self, password: &str) -> bool {
        let key = key(password);
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.at(mid).cmp(&key) {
                core::cmp::Ordering::Less => lo = mid + 1,
                core::cmp::Ordering::Greater => hi = mid,
                core::cmp::Ordering::Equal => return true,
            }
        }
        false
    }
}

/// FNV-1a 64 (the list's hash; no dependency, identical in the generator script).
pub fn fnv1a64(bytes: impl IntoIterator<Item = u8>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The list key of a password: the upper half of FNV-1a 64 of its ASCII-lowercased bytes.
pub fn key(password: &str) -> u32 {
    (fnv1a64(password.bytes().map(|b| b.to_ascii_lowercase())) >> 32) as u32
}

/// The rule: `field` gets [`BREACHED_MESSAGE`] when `password` is on `list`. An empty password
/// is left to the 'required' rule.
pub fn validate_not_breached(field: &str, password: &str, list: &BreachedList) -> ValidationErrors {
    let mut errors = ValidationErrors::new();
    errors.check(
        !password.is_empty() && list.contains(password),
        field,
        BREACHED_MESSAGE,
    );
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list_of(words: &[&str]) -> Vec<u8> {
        let mut keys: Vec<u32> = words.iter().map(|w| key(w)).collect();
        keys.sort_unstable();
        keys.dedup();
        keys.iter().flat_map(|k| k.to_le_bytes()).collect()
    }

    #[test]
    fn fnv1a64_matches_the_reference_vectors() {
        assert_eq!(fnv1a64(*b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(*b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(*b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn listed_passwords_are_refused_case_insensitively() {
        let bytes = list_of(&["password1", "letmein", "iloveyou", "qwerty123"]);
        let list = BreachedList::new(&bytes);
        assert_eq!(list.len(), 4);
        for p in ["password1", "Password1", "LETMEIN", "qwerty123", "iloveyou"] {
            assert!(list.contains(p), "{p}");
            assert_eq!(
                validate_not_breached("NewPassword", p, &list).field("NewPassword"),
                [BREACHED_MESSAGE]
            );
        }
        for p in ["password2", "Tr0ub4dor&3x!", "letmein!", ""] {
            assert!(
                validate_not_breached("NewPassword", p, &list).is_valid(),
                "{p}"
            );
        }
        assert!(!BreachedList::new(&[]).contains("password1"));
    }
}
