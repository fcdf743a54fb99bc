//! Label texts by language (spec 03 §9: english, spanish, chinese, cambodian, vietnamese,
//! tagalog). A label's text in a language is its translation there, else its English text,
//! else the built-in English default.

/// The six languages, in the spec's order: (name, code).
pub const LANGUAGES: [(&str, &str); 6] = [
    ("english", "en"),
    ("spanish", "es"),
    ("chinese", "zh"),
    ("cambodian", "km"),
    ("vietnamese", "vi"),
    ("tagalog", "tl"),
];

/// The language name for a name or code ("es", "Spanish", "es-MX"); English when unknown.
pub fn language_name(name_or_code: &str) -> &'static str {
    let wanted = name_or_code.trim().to_ascii_lowercase();
    let primary = wanted.split(['-', '_']).next().unwrap_or("");
    LANGUAGES
        .iter()
        .find(|(name, code)| *name == wanted || *code == primary)
        .map(|(name, _)| *name)
        .unwrap_or("english")
}

/// The text of a label in `language` from its stored translations `(language, value)`.
pub fn label_text(
    translations: &[(String, String)],
    language: &str,
    default_english: &str,
) -> String {
    let find = |lang: &str| {
        translations
            .iter()
            .find(|(l, v)| language_name(l) == lang && !v.trim().is_empty())
            .map(|(_, v)| v.clone())
    };
    find(language_name(language))
        .or_else(|| find("english"))
        .unwrap_or_else(|| default_english.to_owned())
}
