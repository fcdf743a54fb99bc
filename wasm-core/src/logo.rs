//! The shell logo (spec 01 §2.1 "Sidebar", spec 02 §5 "Logo width is required and numeric", §9
//! "Default logo width 50 px", spec 03 "Logo sizes ... have a minimum of 0"): the width rule the
//! edit form shows and the API enforces, and which uploaded images are accepted.

use crate::validation::ValidationErrors;

/// Spec 02 §9.
pub const DEFAULT_LOGO_WIDTH: u32 = 50;
/// The widest logo the sidebar can hold without breaking its layout.
pub const MAX_LOGO_WIDTH: u32 = 1000;
/// The largest logo image accepted (bytes).
pub const MAX_LOGO_BYTES: usize = 512 * 1024;

pub const WIDTH_REQUIRED: &str = "Logo width is required.";
pub const WIDTH_NUMERIC: &str = "Logo width must be a number.";
pub const WIDTH_RANGE: &str = "Logo width must be between 0 and 1000.";

/// The logo width as typed: required, a whole number of pixels, 0 to 1000. Field `LogoWidth`.
pub fn validate_logo_width(value: &str) -> ValidationErrors {
    let mut errors = ValidationErrors::new();
    let value = value.trim();
    let value = value.strip_suffix("px").map(str::trim_end).unwrap_or(value);
    if value.is_empty() {
        errors.add("LogoWidth", WIDTH_REQUIRED);
    } else if !value.bytes().all(|b| b.is_ascii_digit()) {
        errors.add("LogoWidth", WIDTH_NUMERIC);
    } else if value.parse::<u32>().map_or(true, |w| w > MAX_LOGO_WIDTH) {
        errors.add("LogoWidth", WIDTH_RANGE);
    }
    errors
}

/// The width a valid input stands for.
pub fn parse_logo_width(value: &str) -> Option<u32> {
    if !validate_logo_width(value).is_valid() {
        return None;
    }
    let value = value.trim();
    value
        .strip_suffix("px")
        .map(str::trim_end)
        .unwrap_or(value)
        .parse()
        .ok()
}

/// Image kinds a logo may be. SVG is refused: it can carry script.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogoKind {
    Png,
    Jpeg,
    Gif,
}

impl LogoKind {
    pub fn content_type(self) -> &'static str {
        match self {
            LogoKind::Png => "image/png",
            LogoKind::Jpeg => "image/jpeg",
            LogoKind::Gif => "image/gif",
        }
    }
}

pub const LOGO_TOO_LARGE: &str = "The logo image is too large (at most 512 KB).";
pub const LOGO_BAD_TYPE: &str = "The logo must be a PNG, JPEG or GIF image.";
pub const LOGO_EMPTY: &str = "Choose an image file.";

/// What an uploaded file is, by its content (the name and declared type are not trusted).
pub fn sniff_logo(bytes: &[u8]) -> Result<LogoKind, &'static str> {
    if bytes.is_empty() {
        return Err(LOGO_EMPTY);
    }
    if bytes.len() > MAX_LOGO_BYTES {
        return Err(LOGO_TOO_LARGE);
    }
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Ok(LogoKind::Png)
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Ok(LogoKind::Jpeg)
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        Ok(LogoKind::Gif)
    } else {
        Err(LOGO_BAD_TYPE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn width_rule() {
        assert!(validate_logo_width("50").is_valid());
        assert!(validate_logo_width(" 120px ").is_valid());
        assert_eq!(validate_logo_width("").field("LogoWidth"), [WIDTH_REQUIRED]);
        assert_eq!(
            validate_logo_width("abc").field("LogoWidth"),
            [WIDTH_NUMERIC]
        );
        assert_eq!(
            validate_logo_width("-5").field("LogoWidth"),
            [WIDTH_NUMERIC]
        );
        assert_eq!(
            validate_logo_width("1001").field("LogoWidth"),
            [WIDTH_RANGE]
        );
        assert_eq!(parse_logo_width("75px"), Some(75));
        assert_eq!(parse_logo_width("x"), None);
    }

    #[test]
    fn images_by_content() {
        assert_eq!(sniff_logo(b"\x89PNG\r\n\x1a\nrest"), Ok(LogoKind::Png));
        assert_eq!(sniff_logo(&[0xFF, 0xD8, 0xFF, 0xE0]), Ok(LogoKind::Jpeg));
        assert_eq!(sniff_logo(b"GIF89a..."), Ok(LogoKind::Gif));
        assert_eq!(sniff_logo(b"<svg onload=alert(1)>"), Err(LOGO_BAD_TYPE));
        assert_eq!(sniff_logo(b""), Err(LOGO_EMPTY));
        assert_eq!(
            sniff_logo(&vec![0x89; MAX_LOGO_BYTES + 1]),
            Err(LOGO_TOO_LARGE)
        );
    }
}
