//! HTML that users write (home content) or the portal shows (embedded error messages).

/// Rich text as it may be stored: ammonia's allow-list of tags and attributes (no script, style,
/// event handlers or javascript: links); links get rel="noopener noreferrer".
pub fn sanitise_html(html: &str) -> String {
    ammonia::clean(html)
}

/// Quill's own classes (Quill 2: alignment, indentation, right-to-left, fonts), the only classes
/// rich text written in the portal's Quill editors keeps.
fn quill_classes() -> std::collections::HashSet<&'static str> {
    const CLASSES: &[&str] = &[
        "ql-align-center",
        "ql-align-right",
        "ql-align-justify",
        "ql-indent-1",
        "ql-indent-2",
        "ql-indent-3",
        "ql-indent-4",
        "ql-indent-5",
        "ql-indent-6",
        "ql-indent-7",
        "ql-indent-8",
        "ql-direction-rtl",
        "ql-font-serif",
        "ql-font-monospace",
    ];
    CLASSES.iter().copied().collect()
}

/// Rich text from a Quill 2 editor (OtherSettings HelpModalContent): ammonia's allow-list of tags
/// and attributes, plus exactly Quill's own classes (`ql-align-*`, `ql-indent-*`,
/// `ql-direction-rtl`, `ql-font-*`) on the blocks and spans Quill puts them on, and Quill 2's list
/// marker `data-list` (bullet / ordered) on list items. No other class, no style, no script.
pub fn sanitise_quill_html(html: &str) -> String {
    quill_builder().clean(html).to_string()
}

/// The ammonia builder of [`sanitise_quill_html`], for callers that allow a little more (the
/// notification templates' inline images).
pub fn quill_builder() -> ammonia::Builder<'static> {
    use std::collections::{HashMap, HashSet};
    let classes = quill_classes();
    let tags = [
        "p",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "li",
        "blockquote",
        "pre",
        "span",
        "ol",
        "ul",
    ];
    let allowed: HashMap<&str, HashSet<&str>> =
        tags.iter().map(|t| (*t, classes.clone())).collect();
    let mut builder = ammonia::Builder::default();
    builder.allowed_classes(allowed).add_tag_attribute_values(
        "li",
        "data-list",
        &["bullet", "ordered", "checked", "unchecked"],
    );
    builder
}

#[cfg(test)]
mod quill_tests {
    use super::sanitise_quill_html;

    #[test]
    fn keeps_quill_classes_and_nothing_else() {
        let clean = sanitise_quill_html(
            r#"<p class="ql-align-center evil">Hi</p><p class="ql-indent-2 ql-direction-rtl">x</p><span class="ql-font-serif" style="color:red">f</span><ol><li data-list="bullet" onclick="x()">a</li></ol><script>alert(1)</script><img src=x onerror=alert(1)>"#,
        );
        assert!(
            clean.contains(r#"<p class="ql-align-center">Hi</p>"#),
            "{clean}"
        );
        assert!(clean.contains("ql-indent-2") && clean.contains("ql-direction-rtl"));
        assert!(
            clean.contains(r#"<span class="ql-font-serif">f</span>"#),
            "{clean}"
        );
        assert!(
            clean.contains(r#"<li data-list="bullet">a</li>"#),
            "{clean}"
        );
        for gone in ["evil", "style", "onclick", "script", "onerror"] {
            assert!(!clean.contains(gone), "{gone} in {clean}");
        }
    }
}
