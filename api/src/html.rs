//! HTML that users write (home content) or the portal shows (embedded error messages).

/// Rich text as it may be stored: ammonia's allow-list of tags and attributes (no script, style,
/// event handlers or javascript: links); links get rel="noopener noreferrer".
pub fn sanitise_html(html: &str) -> String {
    ammonia::clean(html)
}
