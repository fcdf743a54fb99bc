//! Survey themes (spec 04 §2 "Survey themes", §3, §4): what a theme is here, the three shipped
//! ones, and the rule that keeps every theme readable. A theme is a palette and a text scale,
//! written as CSS custom properties on the survey screen (`.survey-screen`), so the runner and
//! the kiosk's PIN and staff screens follow it without a second stylesheet. A new theme starts
//! as a copy of another (the add-theme modal's Theme Name, and the theme it is based on).

use crate::model::{ThemeStyle, ThemeVariable};
use crate::ValidationErrors;

pub const DEFAULT_THEME: &str = "default";
/// Text that must be readable against its background: WCAG 2.1 AA for normal text.
pub const MIN_CONTRAST: f64 = 4.5;
pub const FONT_SCALE_MIN: f64 = 1.0;
pub const FONT_SCALE_MAX: f64 = 2.0;

fn style(colours: [&str; 9], font_scale: f64) -> ThemeStyle {
    let [background, surface, text, text_muted, primary, primary_soft, border, danger, success] =
        colours.map(str::to_owned);
    ThemeStyle {
        background,
        surface,
        text,
        text_muted,
        primary,
        primary_soft,
        border,
        danger,
        success,
        font_scale,
    }
}

/// (Name, FriendlyName, style) of the themes every portal ships (migration 0029 lists the names).
pub fn shipped() -> Vec<(&'static str, &'static str, ThemeStyle)> {
    let default = style(
        [
            "#f4f7f8", "#ffffff", "#1d2a30", "#5b6b73", "#0f5c6e", "#e3f0f2", "#c9d3d8", "#b42335",
            "#1f7a4d",
        ],
        1.0,
    );
    vec![
        (DEFAULT_THEME, "Default", default.clone()),
        (
            "high-contrast",
            "High contrast",
            style(
                [
                    "#000000", "#000000", "#ffffff", "#f0f0f0", "#ffff00", "#1a1a00", "#ffffff",
                    "#ff8080", "#80ff80",
                ],
                1.0,
            ),
        ),
        (
            "large-text",
            "Large text",
            ThemeStyle {
                font_scale: 1.35,
                ..default
            },
        ),
    ]
}

/// The style of a shipped theme by name.
pub fn shipped_style(name: &str) -> Option<ThemeStyle> {
    shipped()
        .into_iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, _, s)| s)
}

/// `#rrggbb` -> (r, g, b).
fn rgb(hex: &str) -> Option<[u8; 3]> {
    let h = hex.strip_prefix('#')?;
    if h.len() != 6 || !h.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(&h[i..i + 2], 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?])
}

fn luminance([r, g, b]: [u8; 3]) -> f64 {
    let lin = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.039_28 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
}

/// WCAG 2.1 contrast ratio of two `#rrggbb` colours (None when one is not a colour).
pub fn contrast_ratio(a: &str, b: &str) -> Option<f64> {
    let (la, lb) = (luminance(rgb(a)?), luminance(rgb(b)?));
    let (hi, lo) = if la > lb { (la, lb) } else { (lb, la) };
    Some((hi + 0.05) / (lo + 0.05))
}

/// The text a primary button carries: black or white, whichever reads better on `primary`.
pub fn on_primary(primary: &str) -> &'static str {
    let white = contrast_ratio("#ffffff", primary).unwrap_or(0.0);
    let black = contrast_ratio("#000000", primary).unwrap_or(0.0);
    if white >= black {
        "#ffffff"
    } else {
        "#000000"
    }
}

/// Every colour is `#rrggbb`; every text colour reads at [`MIN_CONTRAST`] on the backgrounds it
/// is drawn on; the text scale is from 1 to 2.
pub fn validate_style(s: &ThemeStyle) -> ValidationErrors {
    let mut e = ValidationErrors::new();
    let colours = [
        ("Background", &s.background),
        ("Surface", &s.surface),
        ("Text", &s.text),
        ("TextMuted", &s.text_muted),
        ("Primary", &s.primary),
        ("PrimarySoft", &s.primary_soft),
        ("Border", &s.border),
        ("Danger", &s.danger),
        ("Success", &s.success),
    ];
    for (field, value) in colours {
        if rgb(value).is_none() {
            e.add(field, "Enter a colour as #rrggbb");
        }
    }
    if !e.is_valid() {
        return e;
    }
    let pairs: [(&str, &str, &str); 8] = [
        ("Text", &s.text, &s.background),
        ("Text", &s.text, &s.surface),
        ("Text", &s.text, &s.primary_soft),
        ("TextMuted", &s.text_muted, &s.surface),
        ("Primary", on_primary(&s.primary), &s.primary),
        ("Primary", &s.primary, &s.surface),
        ("Danger", &s.danger, &s.surface),
        ("Success", &s.success, &s.surface),
    ];
    for (field, fg, bg) in pairs {
        let ratio = contrast_ratio(fg, bg).unwrap_or(0.0);
        if ratio < MIN_CONTRAST {
            e.add(
                field,
                format!("Contrast {fg} on {bg} is {ratio:.2}:1; at least 4.5:1 is needed"),
            );
        }
    }
    if !(FONT_SCALE_MIN..=FONT_SCALE_MAX).contains(&s.font_scale) {
        e.add("FontScale", "Text size must be from 1 to 2");
    }
    e
}

/// The CSS custom properties a theme sets on the survey screen (the portal's own variable names,
/// web/src/styles/global.css), and the root font size.
pub fn css_variables(s: &ThemeStyle) -> Vec<ThemeVariable> {
    let v = |name: &str, value: &str| ThemeVariable {
        name: name.to_owned(),
        value: value.to_owned(),
    };
    vec![
        v("--bg", &s.background),
        v("--surface", &s.surface),
        v("--text", &s.text),
        v("--text-muted", &s.text_muted),
        v("--primary", &s.primary),
        v("--primary-soft", &s.primary_soft),
        v("--on-primary", on_primary(&s.primary)),
        v("--accent", &s.primary),
        v("--border", &s.border),
        v("--border-strong", &s.border),
        v("--danger", &s.danger),
        v("--danger-soft", &s.surface),
        v("--success", &s.success),
        v("--brand", &s.primary),
        v(
            "--survey-font-size",
            &format!("{:.0}px", 15.0 * s.font_scale),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_theme_is_readable() {
        let themes = shipped();
        assert_eq!(
            themes.iter().map(|t| t.0).collect::<Vec<_>>(),
            ["default", "high-contrast", "large-text"]
        );
        for (name, _, s) in themes {
            assert!(
                validate_style(&s).is_valid(),
                "{name}: {:?}",
                validate_style(&s)
            );
        }
        assert!(shipped_style("large-text").unwrap().font_scale > 1.2);
    }

    #[test]
    fn contrast_follows_wcag() {
        let white_on_black = contrast_ratio("#ffffff", "#000000").unwrap();
        assert!((white_on_black - 21.0).abs() < 0.01);
        assert!((contrast_ratio("#777777", "#ffffff").unwrap() - 4.48).abs() < 0.01);
        assert_eq!(contrast_ratio("white", "#000000"), None);
        assert_eq!(on_primary("#ffff00"), "#000000");
        assert_eq!(on_primary("#0f5c6e"), "#ffffff");
    }

    #[test]
    fn unreadable_styles_are_refused() {
        let mut s = shipped_style("default").unwrap();
        s.text = "#cccccc".into();
        s.font_scale = 3.0;
        let e = validate_style(&s);
        assert!(e.field("Text")[0].contains("at least 4.5:1"), "{e:?}");
        assert_eq!(e.field("FontScale"), ["Text size must be from 1 to 2"]);
        s.primary = "teal".into();
        assert_eq!(
            validate_style(&s).field("Primary"),
            ["Enter a colour as #rrggbb"]
        );
    }

    #[test]
    fn variables_carry_the_scale() {
        let vars = css_variables(&shipped_style("large-text").unwrap());
        let size = vars
            .iter()
            .find(|v| v.name == "--survey-font-size")
            .unwrap();
        assert_eq!(size.value, "20px");
    }
}
