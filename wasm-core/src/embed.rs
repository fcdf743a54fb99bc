//! Embedded pages (spec 01 §2.11): where /embed/success leads.

/// Pages an SSO success may open (each has an all / :clientId / :ssoContextToken shape).
pub const EMBED_PAGES: [&str; 1] = ["documents"];

fn segment_ok(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 200
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '~'))
}

/// /embed/success/{clientId}/{ssoContextToken}?page=... -> /{page}/all/{clientId}/{ssoContextToken}.
/// An unknown page opens documents; ids that are not plain address segments give None (the page
/// then shows an error instead of building an address from them).
pub fn embed_success_path(page: &str, client_id: &str, sso_context_token: &str) -> Option<String> {
    if !segment_ok(client_id) || !segment_ok(sso_context_token) {
        return None;
    }
    let wanted = page.trim().to_ascii_lowercase();
    let page = EMBED_PAGES
        .iter()
        .find(|p| **p == wanted)
        .copied()
        .unwrap_or("documents");
    Some(format!("/{page}/all/{client_id}/{sso_context_token}"))
}
