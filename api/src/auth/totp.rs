//! The cryptography of staff two-step sign-in (issue 22): RFC 6238 TOTP (HMAC-SHA1, 6 digits,
//! 30-second steps, one step of drift either way) with `totp-rs`, the enrolment QR code as SVG
//! with `qrcode`, and recovery codes (random, shown once, stored as SHA-256).

use rand::RngCore;
use totp_rs::{Algorithm, TOTP};

use super::hash_token;

pub const ISSUER: &str = "Imaging Patient Portal";
pub const STEP_SECONDS: u64 = 30;
/// Steps of clock drift accepted either side of now.
const SKEW: u64 = 1;

/// A new 160-bit secret (RFC 4226's recommended length).
pub fn new_secret() -> Vec<u8> {
    let mut bytes = vec![0u8; 20];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    bytes
}

/// The otpauth label may not hold a colon.
fn account_label(username: &str) -> String {
    username.replace(':', "_").chars().take(64).collect()
}

fn totp(secret: &[u8], username: &str) -> Option<TOTP> {
    TOTP::new(
        Algorithm::SHA1,
        6,
        SKEW as u8,
        STEP_SECONDS,
        secret.to_vec(),
        Some(ISSUER.to_owned()),
        account_label(username),
    )
    .ok()
}

/// The secret in base32 (what an authenticator app takes when typed in).
pub fn secret_base32(secret: &[u8]) -> String {
    base32_encode(secret)
}

fn base32_encode(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let mut out = String::new();
    let (mut buffer, mut bits) = (0u32, 0u32);
    for &b in bytes {
        buffer = (buffer << 8) | u32::from(b);
        bits += 8;
        while bits >= 5 {
            out.push(ALPHABET[((buffer >> (bits - 5)) & 31) as usize] as char);
            bits -= 5;
        }
    }
    if bits > 0 {
        out.push(ALPHABET[((buffer << (5 - bits)) & 31) as usize] as char);
    }
    out
}

/// The `otpauth://totp/...` address an authenticator app scans.
pub fn otpauth_uri(secret: &[u8], username: &str) -> String {
    totp(secret, username)
        .map(|t| t.get_url())
        .unwrap_or_default()
}

/// The otpauth address drawn as an SVG QR code (black on white, with its quiet zone).
pub fn qr_svg(uri: &str) -> String {
    match qrcode::QrCode::new(uri.as_bytes()) {
        Ok(code) => code
            .render::<qrcode::render::svg::Color>()
            .min_dimensions(200, 200)
            .dark_color(qrcode::render::svg::Color("#000000"))
            .light_color(qrcode::render::svg::Color("#ffffff"))
            .build(),
        Err(_) => String::new(),
    }
}

/// The time step `code` belongs to, if it is the code of a step within the drift window of
/// `now_s` (seconds since 1970). The caller refuses a step it accepted before (RFC 6238 §5.2).
pub fn matching_step(secret: &[u8], code: &str, now_s: u64) -> Option<u64> {
    let t = totp(secret, "")?;
    let now_step = now_s / STEP_SECONDS;
    let mut found = None;
    // Every candidate is compared (no early exit), in constant time.
    for step in now_step.saturating_sub(SKEW)..=now_step + SKEW {
        let expected = t.generate(step * STEP_SECONDS);
        if subtle::ConstantTimeEq::ct_eq(expected.as_bytes(), code.as_bytes()).into() {
            found = Some(step);
        }
    }
    found
}

/// The code of `time` (tests and the demo; never answered by the API).
pub fn code_at(secret: &[u8], time_s: u64) -> String {
    totp(secret, "")
        .map(|t| t.generate(time_s))
        .unwrap_or_default()
}

/// Ten new recovery codes: each 12 characters from a 32-letter alphabet (60 bits), compact.
pub fn new_recovery_codes(count: usize) -> Vec<String> {
    // No 0/o/1/l to misread.
    const ALPHABET: &[u8; 32] = b"abcdefghijkmnpqrstuvwxyz23456789";
    (0..count)
        .map(|_| {
            let mut bytes = [0u8; 12];
            rand::rngs::OsRng.fill_bytes(&mut bytes);
            bytes
                .iter()
                .map(|b| ALPHABET[(b & 31) as usize] as char)
                .collect()
        })
        .collect()
}

/// What the database keeps of a recovery code (compact, lowercase).
pub fn recovery_code_hash(compact: &str) -> String {
    hash_token(&format!("mfa-recovery:{compact}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 6238 appendix B, SHA-1 (the 20-byte ASCII secret "12345678901234567890"), 6 digits:
    /// the last six digits of the published 8-digit codes.
    #[test]
    fn rfc6238_test_vectors() {
        let secret = b"12345678901234567890";
        for (time, code) in [
            (59, "287082"),
            (1_111_111_109, "081804"),
            (1_111_111_111, "050471"),
            (1_234_567_890, "005924"),
            (2_000_000_000, "279037"),
        ] {
            assert_eq!(code_at(secret, time), code, "{time}");
        }
    }

    #[test]
    fn steps_within_the_drift_match_others_do_not() {
        let secret = new_secret();
        let now = 1_700_000_000;
        let code = code_at(&secret, now);
        assert_eq!(matching_step(&secret, &code, now), Some(now / 30));
        let prev = code_at(&secret, now - 30);
        assert_eq!(matching_step(&secret, &prev, now), Some(now / 30 - 1));
        let old = code_at(&secret, now - 90);
        if old != code && old != prev && old != code_at(&secret, now + 30) {
            assert_eq!(matching_step(&secret, &old, now), None);
        }
    }

    #[test]
    fn enrolment_material() {
        let secret = new_secret();
        let b32 = secret_base32(&secret);
        assert_eq!(b32.len(), 32);
        let uri = otpauth_uri(&secret, "manager");
        assert!(uri.starts_with("otpauth://totp/"), "{uri}");
        assert!(uri.contains(&format!("secret={b32}")), "{uri}");
        let svg = qr_svg(&uri);
        assert!(svg.contains("<svg") && svg.contains("</svg>"));
        let codes = new_recovery_codes(10);
        assert_eq!(codes.len(), 10);
        assert!(codes.iter().all(|c| c.len() == 12));
        assert_ne!(codes[0], codes[1]);
    }
}
