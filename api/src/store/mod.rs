//! Queries per area, written once for both engines (see `db::on_db!`), returning domain types.

pub mod appointments;
pub mod audit_log;
pub mod audit_logs;
pub mod backup;
pub mod demo;
pub mod documents;
pub mod history_portal;
pub mod integrations;
pub mod labels;
pub mod list_cache;
pub mod locations;
pub mod login_failures;
pub mod logos;
pub mod membership;
pub mod mfa;
pub mod notice_languages;
pub mod notice_templates;
pub mod notification_history;
pub mod notifications;
pub mod outbox;
pub mod patients;
pub mod pdf_forms;
pub mod portal_config;
pub mod recovery;
pub mod registration;
pub mod release_sync;
pub mod request_throttle;
pub mod retry;
pub mod roles;
pub mod schema;
pub mod server_secrets;
pub mod services;
pub mod sessions;
pub mod settings;
pub mod setup;
pub mod site_usage;
pub mod sso;
pub mod staff_home;
pub mod survey_admin;
pub mod survey_general;
pub mod survey_packages;
pub mod survey_themes;
pub mod surveys;
pub mod users;
pub mod wal;

/// A LIKE pattern matching `text` anywhere, lower-cased, with `%`, `_` and `\` escaped (the SQL
/// adds `ESCAPE '\'`), so a search is always literal.
pub fn like_pattern(text: &str) -> String {
    let mut out = String::from("%");
    for ch in text.trim().to_lowercase().chars() {
        if matches!(ch, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(ch);
    }
    out.push('%');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn like_pattern_escapes_wildcards() {
        assert_eq!(like_pattern(" Doe "), "%doe%");
        assert_eq!(like_pattern("50%_x"), "%50\\%\\_x%");
    }
}
